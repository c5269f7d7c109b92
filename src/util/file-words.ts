// What a path is, or why it cannot be read, in words: one table for every reader of user files
// (scenes and includes, sweep shards, meshes, --policy), so the same errno reads the same everywhere.
// The code stays in parentheses beside the words where callers show it, for searching.

import type { Stats } from 'node:fs';

/** Why a file cannot be opened, by errno code. */
const UNREADABLE: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied (a file you may not read)',
  EPERM: 'permission denied (a file you may not read)',
  EISDIR: 'a directory, not a file',
  ENOTDIR: 'no such file (a part of the path is a file, not a directory)',
  ENAMETOOLONG: 'a path too long to open',
  ELOOP: 'a path that loops through symbolic links',
  EMFILE: 'too many files open to open another',
  EIO: 'a file the disk could not read (input/output error)',
  ENXIO: 'a device or socket that cannot be opened as a file',
};

/** The words for an open/stat failure with errno `code`, or undefined for a code not listed. */
export function unreadableWords(code: string | undefined): string | undefined {
  return code === undefined ? undefined : UNREADABLE[code];
}

/** "no such file (ENOENT)": the words and the code, or "a file that cannot be read (CODE)". */
export function unreadableText(e: NodeJS.ErrnoException): string {
  return `${unreadableWords(e.code) ?? 'a file that cannot be read'} (${e.code ?? e.message})`;
}

/** What a path that is not a regular file is, in words ("a FIFO (named pipe)"). */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'a special file';
}
