// Raw system errors (`EEXIST: file already exists, mkdir '…'`, `std::bad_alloc`) as messages that
// say what was wrong and what to do. Used by the CLI's last-resort error printer.

const REASONS: Record<string, [string, string]> = {
  EEXIST: ['something that is not a directory is already there', 'remove it or choose another --out'],
  ENOTDIR: ['a part of the path is a file, not a directory', 'choose a path whose parents are directories'],
  EISDIR: ['a directory is where a file must go', 'remove or rename that directory, or choose another --out'],
  EACCES: ['there is no permission to write there', 'choose a directory you can write to'],
  EPERM: ['the operation is not permitted there', 'choose a directory you own'],
  EROFS: ['the filesystem is read-only', 'choose a directory on a writable disk'],
  ENOSPC: ['the disk is full', 'free some space or choose another disk'],
  EDQUOT: ['your disk quota is used up', 'free some space or choose another disk'],
  ENOENT: ['a directory on the way does not exist (or vanished meanwhile)', 'check the path'],
  ENAMETOOLONG: ['the path is too long', 'choose a shorter path'],
  ELOOP: ['the path loops through symbolic links', 'choose a plain directory'],
  EMFILE: ['too many files are open', 'raise the limit (ulimit -n) or try again'],
  EXDEV: ['the path crosses filesystems in a way that cannot be renamed atomically', 'choose a directory on one disk'],
  EINVAL: ['the filesystem does not allow this there (e.g. /proc, /sys)', 'choose an ordinary directory'],
};

/** A message for a system error, or null when `e` is not one. */
export function explainSystemError(e: unknown): string | null {
  const err = e as (NodeJS.ErrnoException & { dest?: string }) | undefined;
  if (err && typeof err.code === 'string' && REASONS[err.code]) {
    const [what, todo] = REASONS[err.code];
    const where = err.dest ?? err.path;
    const op = err.syscall ? ` (${err.syscall}, ${err.code})` : ` (${err.code})`;
    return `cannot ${err.syscall === 'open' || err.syscall === 'read' || err.syscall === 'scandir' ? 'use' : 'write'} ${where ?? 'a file'}: ${what}; ${todo}${op}`;
  }
  const msg = err?.message ?? '';
  if (/bad_alloc|Cannot allocate memory|Array buffer allocation failed|Invalid typed array length/.test(msg)) {
    return 'out of memory: the batch does not fit in the memory that is free; use fewer --copies (or a shorter run with fewer records)';
  }
  return null;
}
