// `achilles compile FILE`: a scene (.arow, MJCF or URDF, loaded as `achilles run` loads it) as one
// JSON document with exact numbers: the model the native engine reads, its world settings and its
// names. Other programs run the same engine from it (the Python package: python/).

import { compiledModel, COMPILED_MODEL_FORMAT } from '../engine/compiled-model.js';
import { writeFileAtomic } from '../reports/atomic.js';
import { exactJson } from '../reports/exact-json.js';
import { checkOutputFile } from '../reports/output-dir.js';
import { loadScene } from '../model-files/scene/index.js';
import type { CommandSpec } from '../util/command-spec.js';

/** An --out file this command wrote (it may be replaced without --force). */
const looksOurs = (head: string): boolean => new RegExp(`^\\s*\\{\\s*"format"\\s*:\\s*"${COMPILED_MODEL_FORMAT}"`).test(head);

export const compileCommand: CommandSpec = {
  name: 'compile',
  summary:
    'Write a scene as the compiled model the native engine runs, one JSON document with exact numbers (for other programs: the Python package)',
  positionals: [
    { name: 'file', description: 'the scene file: .arow, or an MJCF (.xml) or URDF model (recognised by content)', required: true },
  ],
  options: [
    {
      name: 'out',
      short: 'o',
      arg: 'FILE',
      kind: { type: 'string' },
      defaultText: 'stdout',
      description:
        'Write the JSON to FILE (atomically). An existing FILE that is not a compiled model written by achilles compile is refused unless --force.',
    },
    { name: 'force', kind: { type: 'boolean' }, description: 'Replace an existing --out FILE whatever it holds.' },
    {
      name: 'config',
      arg: 'FILE',
      kind: { type: 'string' },
      description: 'A sim_config.yaml whose settings override the scene world settings.',
    },
    {
      name: 'keyframe',
      arg: 'NAME',
      kind: { type: 'string' },
      defaultText: "qpos0, as MuJoCo's mj_resetData",
      description: "Start an MJCF model from its keyframe NAME (or 0-based index), as MuJoCo's mj_resetDataKeyframe (qpos and qvel).",
    },
  ],
  examples: [
    'achilles compile scenes/double-pendulum.arow',
    'achilles compile test/fixtures/import/mjcf-general-servos.xml --out servos.json',
  ],
  async run([file], opts) {
    const out = opts.out as string | undefined;
    if (out !== undefined) checkOutputFile(out, { command: 'compile', force: opts.force === true, looksOurs });
    const config = opts.config as string | undefined;
    const keyframe = opts.keyframe as string | undefined;
    const model = loadScene(file, { ...(config === undefined ? {} : { config }), ...(keyframe === undefined ? {} : { keyframe }) });
    const text = `${exactJson(compiledModel(model, file), 'model')}\n`;
    if (out === undefined) process.stdout.write(text);
    else {
      await writeFileAtomic(out, text);
      process.stderr.write(`achilles compile: wrote ${out} (${model.bodies.length} links)\n`);
    }
    return 0;
  },
};
