// Where a command may write its outputs, checked before any work is done:
//   * never a filesystem root or a system directory (`--out /` once wrote six files into /);
//   * never a path that cannot be created (a file in the way, no permission): said up front, not
//     after a long run;
//   * never an existing directory holding files achilles did not write, unless --force (then those
//     files are left as they are); files of an earlier achilles run there are replaced as a set.
// Each output directory carries a manifest (MANIFEST) listing the files achilles wrote into it.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { UsageError } from '../util/usage-error.js';
import { OutputSet } from './atomic.js';

/** The list of files achilles wrote into an output directory (hidden, rewritten on every commit). */
export const MANIFEST = '.achilles-files.json';

export interface OutputOptions {
  /** The command, for messages and --help hints, e.g. 'run'. */
  command: string;
  /** Write beside files achilles did not write. */
  force?: boolean;
  /** The flag that named the path (default --out). */
  flag?: string;
  /** A subfolder whose files are not this set's and are checked apart (a sweep's `shards/`, each
   *  shard an output directory with its own manifest): never counted as foreign. */
  managed?: string;
}

/** Directories that hold the system or everyone's files: never an output directory, nor inside the first group. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev', '/bin', '/sbin', '/boot', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/usr'];
const SYSTEM_DIRS = ['/var', '/opt', '/srv', '/run', '/tmp', '/home', '/root', '/mnt', '/media', '/var/tmp', '/var/lib', '/var/log'];

/** `p` with symlinks resolved as far as it exists (so /var/run → /run is seen as /run). */
function realish(p: string): string {
  const rest: string[] = [];
  let at = p;
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      const up = path.dirname(at);
      if (up === at) return p;
      rest.push(path.basename(at));
      at = up;
    }
  }
}

/** Why `dir` is never an output directory (or, with `forFile`, never the folder of an output file:
 *  then /tmp and home are fine), or null. */
export function systemDirProblem(dir: string, forFile = false): string | null {
  const abs = realish(path.resolve(dir));
  if (abs === path.parse(abs).root) return `${abs} is a filesystem root`;
  const tree = SYSTEM_TREES.find((t) => abs === t || abs.startsWith(`${t}/`));
  if (tree) return `${abs} is ${abs === tree ? 'a system directory' : `inside the system directory ${tree}`}`;
  if (forFile) return null;
  if (abs === path.resolve(os.homedir())) return `${abs} is your home directory`;
  if (SYSTEM_DIRS.includes(abs)) return `${abs} is a system directory shared by everything on the machine`;
  return null;
}

/** Every file under `dir`, relative, sorted; the top-level folder `skip` is not entered (its files
 *  are another writer's, perhaps being written right now by another process). */
function filesUnder(dir: string, skip?: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && rel !== '') return; // removed meanwhile
      throw e;
    }
    for (const d of entries) {
      const r = rel === '' ? d.name : path.join(rel, d.name);
      if (d.isDirectory()) {
        if (!(rel === '' && d.name === skip)) walk(r);
      } else out.push(r);
    }
  };
  walk('');
  return out.sort();
}

/** The files an earlier achilles run listed in `dir`'s manifest ([] when there is none). */
function manifestFiles(dir: string): string[] {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as { files?: unknown };
    return Array.isArray(m.files) ? m.files.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

const list = (xs: string[], n = 4) => `${xs.slice(0, n).join(', ')}${xs.length > n ? `, … (${xs.length} in all)` : ''}`;

/** Why a directory cannot be created or written at `abs` (checked on the nearest existing ancestor), or null. */
function creationProblem(abs: string): string | null {
  let at = abs;
  while (!fs.existsSync(at)) {
    const up = path.dirname(at);
    if (up === at) break;
    at = up;
  }
  const st = fs.statSync(at, { throwIfNoEntry: false });
  if (st && !st.isDirectory()) return at === abs ? `${abs} is a file, not a directory` : `${at} is a file, so no directory can be made under it`;
  // The target and its staging sibling are made in the parent: it must be writable.
  const parent = at === abs ? path.dirname(abs) : at;
  for (const d of at === abs ? [abs, parent] : [parent]) {
    try {
      fs.accessSync(d, fs.constants.W_OK);
    } catch {
      return `there is no permission to write in ${d}`;
    }
  }
  return null;
}

/**
 * Check that `dir` can take this command's outputs, before any work. Returns the files an earlier
 * achilles run left there (the commit replaces them as a set). Throws a UsageError saying what is
 * wrong and what to do.
 */
export function checkOutputDir(dir: string, o: OutputOptions): { previous: string[] } {
  const flag = o.flag ?? '--out';
  const abs = path.resolve(dir);
  const sys = systemDirProblem(abs);
  if (sys) throw new UsageError(`${flag} ${dir}: ${sys}; outputs go in a directory of their own, e.g. ${flag} reports/${o.command}`, o.command);
  const cannot = creationProblem(abs);
  if (cannot) throw new UsageError(`${flag} ${dir}: cannot write the outputs there: ${cannot}; choose another ${flag}`, o.command);
  if (!fs.existsSync(abs)) return { previous: [] };
  const previous = manifestFiles(abs);
  const foreign = filesUnder(abs, o.managed).filter((f) => f !== MANIFEST && !previous.includes(f));
  if (foreign.length && !o.force) {
    throw new UsageError(
      `${flag} ${dir} holds files achilles did not write (${list(foreign)}); choose a new or empty directory, or pass --force to write beside them`,
      o.command,
    );
  }
  return { previous };
}

/** Check `dir` (checkOutputDir), then stage an output set for it that replaces an earlier run's files and writes the manifest. */
export async function openOutput(dir: string, o: OutputOptions): Promise<OutputSet> {
  const { previous } = checkOutputDir(dir, o);
  const set = await OutputSet.create(dir);
  set.replaces(previous.filter((f) => f !== MANIFEST));
  set.withManifest(MANIFEST, { written_by: `achilles ${o.command}`, note: 'files achilles wrote here; the next run into this directory replaces them' });
  return set;
}

/** Check a single output file (export --out): not in a system place, creatable, and not a file achilles would not write unless --force. */
export function checkOutputFile(file: string, o: OutputOptions & { looksOurs: (head: string) => boolean }): void {
  const flag = o.flag ?? '--out';
  const abs = path.resolve(file);
  const st = fs.statSync(abs, { throwIfNoEntry: false });
  if (st?.isDirectory()) throw new UsageError(`${flag} ${file} is a directory; name the file to write, e.g. ${flag} ${path.join(file, 'model.xml')}`, o.command);
  const sys = systemDirProblem(path.dirname(abs), true);
  if (sys) throw new UsageError(`${flag} ${file}: ${sys}; write the file somewhere of its own`, o.command);
  const cannot = creationProblem(path.dirname(abs));
  if (cannot) throw new UsageError(`${flag} ${file}: cannot write it: ${cannot}; choose another ${flag}`, o.command);
  if (st && !o.force) {
    let head = '';
    try {
      const fd = fs.openSync(abs, 'r');
      const buf = Buffer.alloc(256);
      head = buf.subarray(0, fs.readSync(fd, buf, 0, 256, 0)).toString('utf8');
      fs.closeSync(fd);
    } catch {
      // unreadable: not provably ours
    }
    if (!o.looksOurs(head)) throw new UsageError(`${flag} ${file} exists and is not a file achilles writes; choose another name, or pass --force to replace it`, o.command);
  }
}
