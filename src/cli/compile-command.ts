// `achilles compile FILE`: a scene (.arow, MJCF or URDF, loaded as `achilles run` loads it) as one
// JSON document with exact numbers: the model the native engine reads, its world settings and its
// names. Other programs run the same engine from it (the Python package: python/). With
// --parameters, robots' own parameters (by the names a sweep's randomize.model uses) are written into
// the model first: one document, or one per robot (a JSON array) for Batch.set_robot_model.

import { readFileSync } from 'node:fs';
import { compiledModel, COMPILED_MODEL_FORMAT } from '../engine/compiled-model.js';
import { writeFileAtomic } from '../reports/atomic.js';
import { exactJson } from '../reports/exact-json.js';
import { checkOutputFile } from '../reports/output-dir.js';
import { largeModelOption } from './large-model-option.js';
import { loadScene } from '../model-files/scene/index.js';
import { withNamedParameters } from '../params/named.js';
import type { CommandSpec } from '../util/command-spec.js';
import { brief, briefJson } from '../util/brief.js';

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
    {
      name: 'parameters',
      arg: 'JSON',
      kind: { type: 'string' },
      description:
        'Write per-robot parameters into the model, by the names a sweep\'s randomize.model uses: a JSON object {"mass_scale:torso": 1.2, "gravity.z": -9.7} gives one document; an array of such objects gives a JSON array of documents, one per object. `-` reads the JSON from stdin (no command-line length limit: the Python package passes it so).',
    },
    largeModelOption,
  ],
  examples: [
    'achilles compile scenes/double-pendulum.arow',
    'achilles compile test/fixtures/import/mjcf-general-servos.xml --out servos.json',
    'achilles compile scenes/quadruped.arow --parameters \'[{"friction:ground": 0.5}, {"friction:ground": 0.9}]\'',
  ],
  async run([file], opts) {
    const out = opts.out as string | undefined;
    if (out !== undefined) checkOutputFile(out, { command: 'compile', force: opts.force === true, looksOurs });
    const config = opts.config as string | undefined;
    const keyframe = opts.keyframe as string | undefined;
    const model = loadScene(file, {
      ...(config === undefined ? {} : { config }),
      ...(keyframe === undefined ? {} : { keyframe }),
      allowLarge: opts.yes === true,
    });
    const sets =
      opts.parameters === undefined ? undefined : parameterSets(opts.parameters === '-' ? readStdin() : (opts.parameters as string));
    const doc =
      sets === undefined
        ? compiledModel(model, file)
        : parametrized(sets, (values) => compiledModel(withNamedParameters(model, values), file));
    const text = `${exactJson(doc, 'model')}\n`;
    if (out === undefined) process.stdout.write(text);
    else {
      await writeFileAtomic(out, text);
      process.stderr.write(`achilles compile: wrote ${out} (${model.bodies.length} links)\n`);
    }
    return 0;
  },
};

type ParameterSet = Record<string, number>;

/** --parameters: one object of named values, or an array of them (a clear error for anything else). */
/** `--parameters -`: the JSON from stdin, whole (a pipe is read to its end). */
function readStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (e) {
    throw new Error(`--parameters -: cannot read stdin (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

function parameterSets(text: string): ParameterSet | ParameterSet[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(
      `--parameters: found text that is not JSON (${(e as Error).message}), expected {"NAME": number, ...} or an array of such objects`,
    );
  }
  const check = (v: unknown, where: string): ParameterSet => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      throw new Error(`--parameters${where}: found ${briefJson(v)}, expected an object {"NAME": number, ...}`);
    for (const [name, x] of Object.entries(v))
      if (typeof x !== 'number') throw new Error(`--parameters${where} ${brief(name)}: found ${briefJson(x)}, expected a number`);
    return v as ParameterSet;
  };
  return Array.isArray(value) ? value.map((v, i) => check(v, `[${i}]`)) : check(value, '');
}

/** One document per set (an array for an array), each error naming the flag and its set. */
function parametrized<D>(sets: ParameterSet | ParameterSet[], make: (values: ParameterSet) => D): D | D[] {
  const named = (values: ParameterSet, where: string): D => {
    try {
      return make(values);
    } catch (e) {
      throw new Error(`--parameters${where} ${(e as Error).message}`);
    }
  };
  return Array.isArray(sets) ? sets.map((values, i) => named(values, `[${i}]`)) : named(sets, '');
}
