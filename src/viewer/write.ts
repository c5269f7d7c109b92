// Writing a replay: `achilles run --html` stages it with the run's other files (one OutputSet, all
// or nothing); `achilles view RUN_DIR` rebuilds the page from the data the run left behind.
//   replay.json   header: geometry, run metadata, frame layout
//   replay.bin    poses (and contacts), see replay-data.ts
//   replay.html   the self-contained viewer page

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutputSink } from '../reports/atomic.js';
import { replayHtml } from './html.js';
import { REPLAY_VERSION, type ReplayHeader } from './replay-data.js';

export const REPLAY_FILES = ['replay.json', 'replay.bin', 'replay.html'] as const;

/** Stage replay.json, replay.bin and replay.html of a recorded replay (see record.ts). */
export async function writeReplay(
  sink: OutputSink,
  replay: { header: ReplayHeader; bytes: Uint8Array },
): Promise<{ header: ReplayHeader; htmlBytes: number }> {
  const { header, bytes } = replay;
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
  if (header.version !== REPLAY_VERSION)
    throw new Error(`${join(dir, 'replay.json')}: replay version ${header.version}, this achilles reads version ${REPLAY_VERSION}`);
  const bytes = new Uint8Array(await readFile(join(dir, 'replay.bin')));
  if (bytes.byteLength !== header.bytes)
    throw new Error(`${join(dir, 'replay.bin')}: ${bytes.byteLength} bytes, replay.json expects ${header.bytes}`);
  return { header, bytes };
}
