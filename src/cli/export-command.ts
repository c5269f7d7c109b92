// `achilles export SCENE --mjcf`: the scene as MuJoCo MJCF (same bodies, frames, inertias and
// joint order), to stdout or atomically to a file.

import { writeFileAtomic } from '../reports/atomic.js';
import { checkOutputFile } from '../reports/output-dir.js';
import { largeModelOption } from './large-model-option.js';
import { exportMjcf, loadScene } from '../model-files/scene/index.js';
import { MjcfExportError } from '../model-files/scene/mjcf-writer.js';
import type { CommandSpec } from '../util/command-spec.js';
import { UsageError } from '../util/usage-error.js';

export const exportCommand: CommandSpec = {
  name: 'export',
  summary: 'Convert a scene to another format (MuJoCo MJCF, shapes as geoms).',
  positionals: [{ name: 'scene', description: 'the scene file (.arow)', required: true }],
  options: [
    { name: 'mjcf', kind: { type: 'boolean' }, description: 'Write MuJoCo MJCF XML (the only format; required).' },
    {
      name: 'config',
      arg: 'FILE',
      kind: { type: 'string' },
      description: 'A sim_config.yaml whose settings override the scene world settings.',
    },
    {
      name: 'copies',
      arg: 'N',
      kind: { type: 'number', integer: true, min: 1, max: 100000 },
      default: 1,
      description: 'Put N copies of the robot in the model (names get _k).',
    },
    {
      name: 'contacts',
      arg: 'S',
      kind: { type: 'choice', choices: ['on', 'off'] },
      default: 'on',
      description: 'MuJoCo\'s contacts between the scene\'s shapes: on, or off (`<flag contact="disable"/>`, as `achilles validate` uses).',
    },
    {
      name: 'approximate-rounded',
      kind: { type: 'boolean' },
      description:
        'Write each rounded box (no MuJoCo geom) as the union of 3 boxes and 12 capsules that is the same solid; without it a rounded box is an error.',
    },
    {
      name: 'out',
      arg: 'FILE',
      kind: { type: 'string' },
      defaultText: 'stdout',
      description:
        'Write to FILE (atomically: old contents or the complete new file, never a mix). An existing FILE that is not an MJCF document is refused unless --force.',
    },
    { name: 'force', kind: { type: 'boolean' }, description: 'Replace an existing --out FILE even if it is not an MJCF document.' },
    {
      name: 'keyframe',
      arg: 'NAME',
      kind: { type: 'string' },
      defaultText: "qpos0, as MuJoCo's mj_resetData",
      description:
        "For an MJCF model given as the scene: write its keyframe NAME (or 0-based index) as the keyframe `initial` (qpos and qvel, as MuJoCo's mj_resetDataKeyframe).",
    },
    largeModelOption,
  ],
  examples: [
    'achilles export scenes/double-pendulum.arow --mjcf > double-pendulum.xml',
    'achilles export scenes/arm7.arow --mjcf --copies 4 --out arm7x4.xml',
  ],
  async run([scene], opts) {
    if (opts.mjcf !== true) throw new UsageError('choose the output format: --mjcf', 'export');
    const out = opts.out as string | undefined;
    // An MJCF document (optionally after an XML declaration and comments) may be replaced by an export.
    const looksOurs = (head: string) => /^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*<mujoco[\s>]/.test(head);
    if (out !== undefined) checkOutputFile(out, { command: 'export', force: opts.force === true, looksOurs });
    const config = opts.config as string | undefined;
    const keyframe = opts.keyframe as string | undefined;
    const model = loadScene(scene, {
      ...(config === undefined ? {} : { config }),
      ...(keyframe === undefined ? {} : { keyframe }),
      allowLarge: opts.yes === true,
    });
    let xml: string;
    const notes: string[] = [];
    try {
      xml = exportMjcf(model, {
        copies: (opts.copies as number | undefined) ?? 1,
        contacts: (opts.contacts ?? 'on') === 'on',
        approximateRounded: opts['approximate-rounded'] === true,
        notes,
      });
    } catch (e) {
      if (e instanceof MjcfExportError) throw new UsageError(`cannot export ${scene}: ${e.message}`, 'export');
      throw e;
    }
    // What MJCF cannot say is named, never dropped silently.
    for (const n of notes) process.stderr.write(`achilles export: ${scene}: not written: ${n}\n`);
    if (out === undefined) process.stdout.write(xml.endsWith('\n') ? xml : `${xml}\n`);
    else {
      await writeFileAtomic(out, xml);
      process.stderr.write(`achilles export: wrote ${out}\n`);
    }
    return 0;
  },
};
