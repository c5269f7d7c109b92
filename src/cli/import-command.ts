// `achilles import FILE [-o scene.arow]`: an MJCF or URDF file (recognised by content) converted to an
// everyday `.arow` scene, with one line on stderr for everything approximated, dropped or not yet
// honoured, each at its source line.

import { writeFileAtomic } from '../reports/atomic.js';
import { checkOutputFile } from '../reports/output-dir.js';
import { largeModelOption } from './large-model-option.js';
import { formatNote, importFile, sniffFormat } from '../model-files/import/index.js';
import { notAModelError } from '../model-files/import/xml.js';
import { checkEffectiveInertia } from '../model-files/scene/singular.js';
import { unwritten, writeArow } from '../model-files/scene/arow-writer.js';
import type { CommandSpec } from '../util/command-spec.js';
import { UsageError } from '../util/usage-error.js';
import { existsSync } from 'node:fs';

export const importCommand: CommandSpec = {
  name: 'import',
  summary: 'Convert an MJCF or URDF model to an .arow scene, listing each approximation with its source line',
  positionals: [{ name: 'file', description: 'the MJCF (.xml) or URDF file (recognised by content)', required: true }],
  options: [
    {
      name: 'out',
      short: 'o',
      arg: 'FILE',
      kind: { type: 'string' },
      defaultText: 'stdout',
      description:
        'Write the scene to FILE (atomically). An existing FILE that is not an .arow scene written by achilles import is refused unless --force.',
    },
    { name: 'force', kind: { type: 'boolean' }, description: 'Replace an existing --out FILE whatever it holds.' },
    { name: 'quiet', kind: { type: 'boolean' }, description: 'Do not print the notes (approximations, dropped elements).' },
    {
      name: 'keyframe',
      arg: 'NAME',
      kind: { type: 'string' },
      defaultText: "qpos0, as MuJoCo's mj_resetData",
      description:
        "Write the MJCF model's keyframe NAME (or 0-based index) as the scene's initial state (qpos and qvel, as MuJoCo's mj_resetDataKeyframe).",
    },
    largeModelOption,
  ],
  examples: [
    'achilles import test/fixtures/import/urdf-arm.urdf -o arm.arow',
    'achilles import test/fixtures/import/mjcf-multijoint.xml --quiet > multijoint.arow',
  ],
  async run([file], opts) {
    if (!sniffFormat(file)) {
      if (!existsSync(file)) throw new UsageError(`${file}: no such file`, 'import');
      throw notAModelError(file);
    }
    const out = opts.out as string | undefined;
    if (out !== undefined)
      checkOutputFile(out, { command: 'import', force: opts.force === true, looksOurs: (head) => head.startsWith('# Imported from ') });
    const t0 = performance.now();
    const keyframe = opts.keyframe as string | undefined;
    const imp = importFile(file, { ...(keyframe === undefined ? {} : { keyframe }), allowLarge: opts.yes === true });
    checkEffectiveInertia(imp.model); // never write a scene that `achilles run` refuses as singular
    const ms = performance.now() - t0;
    const missing = unwritten(imp.model, imp.keyframes, imp.keyframe);
    const key = imp.keyframe === undefined ? undefined : imp.keyframes[imp.keyframe];
    const header = [
      `Imported from ${file} (${imp.format.toUpperCase()}) by \`achilles import\` in ${ms.toFixed(1)} ms: ${imp.model.bodies.length} links, ${imp.model.shapes?.length ?? 0} shapes, ${imp.model.actuators?.length ?? 0} actuators.`,
      `Initial state: ${key ? `keyframe ${key.name ? `'${key.name}'` : `#${imp.keyframe}`} (--keyframe, as MuJoCo's mj_resetDataKeyframe)` : "qpos0 at rest (as MuJoCo's mj_resetData)"}.`,
      ...(missing.length
        ? [
            'Not written or changed (the .arow dialect cannot say them yet; `achilles run` on the source file keeps them):',
            ...missing.map((m) => `  ${formatNote(m)}`),
          ]
        : []),
    ];
    const text = writeArow(imp.model, header);
    if (opts.quiet !== true) for (const n of [...imp.notes, ...missing]) process.stderr.write(`${formatNote(n)}\n`);
    if (out === undefined) process.stdout.write(text);
    else {
      await writeFileAtomic(out, text);
      process.stderr.write(
        `achilles import: wrote ${out} (${imp.model.bodies.length} links, ${imp.notes.length + missing.length} notes, ${ms.toFixed(1)} ms)\n`,
      );
    }
    return 0;
  },
};
