// Writing a replay: `achilles run --html` stages it with the run's other files (one OutputSet, all
// or nothing); `achilles view RUN_DIR` rebuilds the page from the data the run left behind.
//   replay.json   header: geometry, run metadata, frame layout
//   replay.bin    poses (and contacts), see replay-data.ts
//   replay.html   the self-contained viewer page

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import type { OutputSink } from '../reports/atomic.js';
import { replayHtml } from './html.js';
import { REPLAY_VERSION, type ReplayHeader } from './replay-data.js';
import { DEFAULT_FPS, recordReplay, type ReplayRun } from './record.js';
import type { ReplayMeta } from './replay-data.js';

export const REPLAY_FILES = ['replay.json', 'replay.bin', 'replay.html'] as const;

/** Re-simulate the recorded robots, then stage replay.json, replay.bin and replay.html (nothing when stopped). */
export async function writeReplay(
  sink: OutputSink,
  model: ModelDesc,
  run: ReplayRun,
  meta: Partial<ReplayMeta>,
  addon: NativeAddon,
  fps = DEFAULT_FPS,
  shouldStop: () => boolean = () => false,
): Promise<{ header: ReplayHeader; htmlBytes: number } | undefined> {
  const full: ReplayMeta = {
    scene: run.scene,
    model: model.name,
    integrator: run.integrator,
    dt: run.dt,
    substeps: run.substeps,
    precision: run.precision,
    copies: run.copies,
    spread: run.spread,
    duration: run.steps * run.dt,
    steps: run.steps,
    ...meta,
  };
  const recorded = await recordReplay(model, run, full, addon, fps, undefined, shouldStop);
  if (!recorded) return undefined; // stopped: the caller abandons the whole output set
  const { header, bytes } = recorded;
  const html = await replayHtml(header, bytes);
  await sink.write('replay.json', JSON.stringify(header, null, 1) + '\n');
  await sink.write('replay.bin', bytes);
  await sink.write('replay.html', html);
  return { header, htmlBytes: Buffer.byteLength(html) };
}

/** Read the replay data an earlier run left in `dir`; a clear error when it has none. */
export async function readReplay(dir: string): Promise<{ header: ReplayHeader; bytes: Uint8Array }> {
  let text: string;
  try {
    text = await readFile(join(dir, 'replay.json'), 'utf8');
  } catch {
    throw new Error(`${dir}: no replay.json here (run the scene with \`achilles run SCENE --html --out ${dir}\` to record a replay)`);
  }
  const header = JSON.parse(text) as ReplayHeader;
  if (header.version !== REPLAY_VERSION) throw new Error(`${join(dir, 'replay.json')}: replay version ${header.version}, this achilles reads version ${REPLAY_VERSION}`);
  const bytes = new Uint8Array(await readFile(join(dir, 'replay.bin')));
  if (bytes.byteLength !== header.bytes) throw new Error(`${join(dir, 'replay.bin')}: ${bytes.byteLength} bytes, replay.json expects ${header.bytes}`);
  return { header, bytes };
}
