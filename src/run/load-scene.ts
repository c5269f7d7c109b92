// Loading a scene for a run: large scenes (SCENE_LINKS.large links or more) show a progress bar
// on a terminal while their links are read, and always get a one-line warning afterwards that
// says what is large and what it costs, so a slow start is never a silent one.

import { statSync } from 'node:fs';
import type { ModelDesc } from '../engine/model-desc.js';
import { SCENE_LINKS } from '../engine/world-limits.js';
import { createProgress, type Progress, type ProgressStream } from '../reports/progress.js';
import { loadScene } from '../model-files/scene/index.js';
import type { SceneRandomization } from '../model-files/scene/randomize-read.js';
import { importFile, sniffFormat } from '../model-files/import/index.js';

/** Files above this many bytes announce the (silent, uninterruptible) YAML parse on a terminal. */
const ANNOUNCE_BYTES = 256 * 1024;

export interface LoadForRunOptions {
  /** The command, for the progress line ("achilles run: parsing ..."). */
  command: string;
  config?: string;
  stream?: ProgressStream;
  keyframe?: string;
  randomize?: (r: SceneRandomization) => void;
  /** Read an MJCF model that replicates past its size limit (--yes; import/mjcf/model-size.ts). */
  allowLarge?: boolean;
}

export function loadSceneForRun(scene: string, opts: LoadForRunOptions): ModelDesc {
  const { config, command, keyframe, randomize, allowLarge } = opts;
  const stream = opts.stream ?? process.stderr;
  const t0 = performance.now();
  let bytes = 0;
  try {
    bytes = statSync(scene).size;
  } catch {
    // loadScene reports it
  }
  const tty = Boolean(stream.isTTY) && !process.env.CI;
  const announce = tty && bytes > ANNOUNCE_BYTES;
  if (announce) stream.write(`achilles ${command}: parsing ${scene} (${Math.round(bytes / 1024)} KB)…`);
  let bar: Progress | undefined;
  const clearLine = (): void => void (announce && stream.write('\r\x1b[K'));
  let model: ModelDesc;
  try {
    model = loadScene(scene, {
      ...(config === undefined ? {} : { config }),
      ...(keyframe === undefined ? {} : { keyframe }),
      ...(randomize === undefined ? {} : { randomize }),
      ...(allowLarge ? { allowLarge } : {}),
      onLink(done, total) {
        if (total < SCENE_LINKS.large) return;
        if (!bar) {
          clearLine();
          bar = createProgress({ total, label: 'load', unit: 'links', stream });
        }
        bar.update(done);
      },
    });
  } finally {
    if (bar) bar.finish();
    else clearLine(); // the parsing line must not stay under an error message
  }
  const format = sniffFormat(scene);
  if (format) {
    // An imported model says what the import approximated or the engine does not apply yet.
    const notes = importFile(scene, {
      ...(keyframe === undefined ? {} : { keyframe }),
      ...(allowLarge ? { allowLarge } : {}),
    }).notes.filter((x) => x.kind !== 'skipped' && x.kind !== 'as-mujoco').length;
    if (notes)
      stream.write(
        `achilles ${command}: ${scene} imported from ${format.toUpperCase()}: ${notes} approximation(s) or field(s) not applied yet; \`achilles import ${scene}\` lists each at its source line\n`,
      );
  }
  const n = model.bodies.length;
  if (n >= SCENE_LINKS.large) {
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    stream.write(
      `achilles ${command}: warning: a large scene, ${n} links (loaded in ${s} s); building, stepping and charting take longer, and charts show a selection of the coordinates\n`,
    );
  }
  return model;
}
