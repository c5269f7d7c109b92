// Reading a file a scene points at for control (a controller module, a PD target CSV) with the
// checks scene files get (./text-file.ts): a regular file (a FIFO would block forever,
// /dev/zero would grow without end), at most MAX_SCENE_BYTES, and text. Problems say what the
// file is, never what it holds.

import { MAX_SCENE_BYTES, readBoundedText } from './text-file.js';

export type CheckedText = { text: string } | { problem: { found: string; expected: string } };

/** The text of `file`, or what it is instead of `what` (e.g. 'a CSV file with a `time` column'). */
export function readControlFile(file: string, what: string): CheckedText {
  const r = readBoundedText(file);
  if ('problem' in r)
    return {
      problem: { found: r.problem.found, expected: `${what} (a regular text file of at most ${MAX_SCENE_BYTES / (1024 * 1024)} MiB)` },
    };
  return { text: r.text };
}
