// Crash- and Ctrl-C-safe output writing.
//
// A reader (a person, CI, a plotting script) must never see a half-written
// report file. Two tools:
//   * writeFileAtomic: one file, temp-file + fsync + rename in the same dir
//     (rename within one filesystem is atomic on POSIX and on NTFS).
//   * OutputSet: several files of one run, staged into a hidden directory next
//     to the target and moved into place only on commit(); abort() (or process
//     exit / a signal before commit) removes the staging directory, so an
//     interrupted `achilles run` leaves the target exactly as it was.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';

export type FileData = string | Uint8Array;

/** Anything the report writers can put a file into: an OutputSet or a plain directory. */
export interface OutputSink {
  /** Write `relPath` (relative, no `..`) and return the path the file will finally have. */
  write(relPath: string, data: FileData): Promise<string>;
}

function tempName(base: string): string {
  // pid + random: two concurrent writers (or two runs) never share a temp name.
  return `.${base}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** fsync a directory so the rename itself survives a power cut; not supported everywhere (Windows), hence best-effort. */
async function fsyncDir(dir: string): Promise<void> {
  let fh: fsp.FileHandle | undefined;
  try {
    fh = await fsp.open(dir, 'r');
    await fh.sync();
  } catch {
    // EISDIR/EPERM/EINVAL on some platforms: data is still fsynced, only the directory entry may lag.
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

async function writeAndSync(file: string, data: FileData): Promise<void> {
  // 'wx': never clobber something that happens to have our temp name.
  const fh = await fsp.open(file, 'wx', 0o644);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Write `data` to `filePath` atomically: readers see either the old file or the
 * complete new one, never a prefix. Creates parent directories.
 */
export async function writeFileAtomic(filePath: string, data: FileData): Promise<void> {
  const dir = path.dirname(path.resolve(filePath));
  const created = await fsp.mkdir(dir, { recursive: true });
  // Same directory as the target so rename() never crosses a filesystem (EXDEV).
  const tmp = path.join(dir, tempName(path.basename(filePath)));
  try {
    await writeAndSync(tmp, data);
    await fsp.rename(tmp, filePath);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
    if (created) removeEmptyDirs(dir, created); // no empty folders left by a failed write
    throw err;
  }
  await fsyncDir(dir);
}

/** A sink that writes each file atomically straight into `dir` (no all-or-nothing across files). */
export function dirSink(dir: string): OutputSink {
  return {
    async write(relPath, data) {
      const dest = path.join(dir, checkRelPath(relPath));
      await writeFileAtomic(dest, data);
      return dest;
    },
  };
}

function checkRelPath(relPath: string): string {
  const norm = path.normalize(relPath);
  if (path.isAbsolute(norm) || norm === '..' || norm.startsWith(`..${path.sep}`) || norm === '.' || norm === '') {
    throw new Error(`output path must be relative and stay inside the output directory: ${JSON.stringify(relPath)}`);
  }
  return norm;
}

export class OutputAbortedError extends Error {
  constructor(dir: string) {
    super(`output set for ${dir} was aborted; nothing was written`);
    this.name = 'OutputAbortedError';
  }
}

type SetState = 'open' | 'committing' | 'committed' | 'aborted';

// Every open set, so an 'exit' hook or a signal can clean up staging dirs the
// caller never got round to aborting (uncaught error, process.exit in a handler).
const live = new Set<OutputSet>();
let exitHookInstalled = false;

function cleanupAllSync(): void {
  for (const set of [...live]) set.abortSync();
}

function ensureExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous, hence abortSync.
  process.on('exit', cleanupAllSync);
}

/**
 * Files of one run, staged in `.<target>.staging-XXXX` next to the target
 * directory and moved into it by commit(). Until commit() the target directory
 * is untouched.
 */
export class OutputSet implements OutputSink {
  readonly dir: string;
  readonly stagingDir: string;
  private readonly files = new Map<string, string>(); // relPath -> staged path
  private state: SetState = 'open';

  private readonly createdParent: string | undefined;
  /** Files of an earlier set in the target that this commit removes (see replaces()). */
  private stale: string[] = [];

  private constructor(dir: string, stagingDir: string, createdParent: string | undefined) {
    this.dir = dir;
    this.stagingDir = stagingDir;
    this.createdParent = createdParent;
  }

  private manifest: { name: string; about: object } | undefined;

  /** Files (relative) that an earlier run left in the target: the commit removes those it does not
   *  rewrite, so the target never mixes two runs' files. */
  replaces(files: readonly string[]): void {
    this.stale = files.map(checkRelPath);
  }

  /** On commit, also write `name`: `about` plus the list of files this set wrote (so a later run
   *  knows which files in the target are its own). */
  withManifest(name: string, about: object): void {
    this.manifest = { name: checkRelPath(name), about };
  }

  /** Create the staging directory for target directory `dir` (whose parent is created if needed).
   *  Staging left by a killed run for the same target (its process gone) is removed first. */
  static async create(dir: string): Promise<OutputSet> {
    const target = path.resolve(dir);
    const parent = path.dirname(target);
    // The first directory this call creates: on abort, the chain down from it goes again if empty.
    const created = await fsp.mkdir(parent, { recursive: true });
    removeDeadStaging(target);
    // Sibling of the target, not inside it: a listing of the target never shows staging debris,
    // and being in the same parent keeps the later renames on one filesystem. The name carries the
    // pid and an owner file says which host, so the next run can tell a killed run's leftovers.
    const staging = await fsp.mkdtemp(path.join(parent, `.${path.basename(target)}.staging-${process.pid}-`));
    await fsp.writeFile(path.join(staging, OWNER_FILE), JSON.stringify({ pid: process.pid, host: os.hostname() }));
    const set = new OutputSet(target, staging, created);
    live.add(set);
    ensureExitHook();
    return set;
  }

  /** Relative paths staged so far, in insertion order. */
  list(): string[] {
    return [...this.files.keys()];
  }

  get status(): SetState {
    return this.state;
  }

  /** Stage a file; returns where it will live after commit(). Writing the same path twice replaces it. */
  async write(relPath: string, data: FileData): Promise<string> {
    if (this.state !== 'open') {
      if (this.state === 'aborted') throw new OutputAbortedError(this.dir);
      throw new Error(`output set for ${this.dir} is already ${this.state}`);
    }
    const rel = checkRelPath(relPath);
    const staged = path.join(this.stagingDir, 'files', rel);
    await fsp.mkdir(path.dirname(staged), { recursive: true });
    await fsp.rm(staged, { force: true });
    await writeAndSync(staged, data);
    // Re-check: an abort (signal) may have run while we were awaiting I/O.
    if (this.state !== 'open') {
      await fsp.rm(staged, { force: true });
      throw new OutputAbortedError(this.dir);
    }
    this.files.set(rel, staged);
    return path.join(this.dir, rel);
  }

  /**
   * Move every staged file into the target directory and return their final paths.
   *
   * The move loop is synchronous on purpose: a SIGINT handler runs on the event
   * loop, so it cannot interleave with the loop and observe half the files moved.
   * Files that already exist in the target are set aside first, so if a rename
   * fails midway the earlier ones are rolled back and the old files restored.
   */
  async commit(): Promise<string[]> {
    if (this.state !== 'open') throw new Error(`cannot commit output set for ${this.dir}: ${this.state}`);
    this.state = 'committing';
    if (this.manifest) {
      const staged = path.join(this.stagingDir, 'files', this.manifest.name);
      const files = [...this.files.keys()].filter((f) => f !== this.manifest!.name);
      fs.writeFileSync(staged, `${JSON.stringify({ ...this.manifest.about, files }, null, 2)}\n`);
      this.files.set(this.manifest.name, staged);
    }
    const moved: Array<{ dest: string; backup?: string; restore?: string }> = [];
    const backupDir = path.join(this.stagingDir, 'backup');
    let createdTarget: string | undefined;
    try {
      createdTarget = fs.mkdirSync(this.dir, { recursive: true });
      for (const rel of this.stale) {
        if (this.files.has(rel)) continue;
        const dest = path.join(this.dir, rel);
        if (!fs.lstatSync(dest, { throwIfNoEntry: false })?.isFile()) continue;
        const backup = path.join(backupDir, rel);
        fs.mkdirSync(path.dirname(backup), { recursive: true });
        fs.renameSync(dest, backup);
        moved.push({ dest: '', backup, restore: dest });
      }
      for (const [rel, staged] of this.files) {
        const dest = path.join(this.dir, rel);
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        let backup: string | undefined;
        const existing = fs.lstatSync(dest, { throwIfNoEntry: false });
        if (existing?.isDirectory()) {
          // Setting a directory aside would delete it with the staging dir on success: refuse instead.
          throw new Error(`cannot replace directory ${dest} with a file`);
        }
        if (existing) {
          backup = path.join(backupDir, rel);
          fs.mkdirSync(path.dirname(backup), { recursive: true });
          fs.renameSync(dest, backup);
        }
        moved.push({ dest, backup });
        fs.renameSync(staged, dest);
      }
    } catch (err) {
      for (const { dest, backup, restore } of moved.reverse()) {
        try {
          if (dest) fs.rmSync(dest, { force: true });
          if (backup) fs.renameSync(backup, restore ?? dest);
        } catch {
          // Best effort: keep rolling back the rest.
        }
      }
      if (createdTarget) removeEmptyDirs(this.dir, createdTarget);
      this.state = 'open'; // lets abortSync remove the staging dir
      this.abortSync();
      throw err;
    }
    this.state = 'committed';
    live.delete(this);
    fs.rmSync(this.stagingDir, { recursive: true, force: true });
    await fsyncDir(this.dir);
    return [...this.files.keys()].map((rel) => path.join(this.dir, rel));
  }

  /** Discard everything staged; the target directory is left untouched. Idempotent. */
  async abort(): Promise<void> {
    this.abortSync();
  }

  /** Synchronous abort, usable from 'exit' and signal handlers. */
  abortSync(): void {
    if (this.state === 'committed' || this.state === 'committing') return;
    this.state = 'aborted';
    live.delete(this);
    fs.rmSync(this.stagingDir, { recursive: true, force: true });
    // Parents this set created for the target go too, when nothing else was put in them.
    if (this.createdParent) removeEmptyDirs(path.dirname(this.dir), this.createdParent);
  }
}

/** Inside a staging directory: who made it ({pid, host}), so a later run can tell it was killed. */
export const OWNER_FILE = 'owner.json';

/** Remove `dir` and its parents up to and including `top`, each only while empty. */
function removeEmptyDirs(dir: string, top: string): void {
  const stop = path.resolve(top);
  for (let d = path.resolve(dir); d.startsWith(stop); d = path.dirname(d)) {
    try {
      fs.rmdirSync(d);
    } catch {
      return; // not empty (or gone): everything above stays
    }
    if (d === stop) return;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

/** Staging directories for `target` whose run was killed (their process is gone on this host). */
export function deadStaging(target: string): string[] {
  const parent = path.dirname(target);
  const prefix = `.${path.basename(target)}.staging-`;
  let names: string[];
  try {
    names = fs.readdirSync(parent).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  return names
    .map((n) => path.join(parent, n))
    .filter((dir) => {
      try {
        const owner = JSON.parse(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8')) as { pid?: unknown; host?: unknown };
        return owner.host === os.hostname() && typeof owner.pid === 'number' && owner.pid !== process.pid && !processAlive(owner.pid);
      } catch {
        return false; // no readable owner: not provably ours and dead, leave it
      }
    });
}

function removeDeadStaging(target: string): void {
  for (const dir of deadStaging(target)) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * Remove the staging directories of all open OutputSets when SIGINT/SIGTERM
 * arrives. If nobody else listens for the signal, the default behaviour (the
 * process dies of that signal) is then restored by re-raising it; if the CLI
 * has its own handler (graceful stop), it stays in charge of exiting.
 * Returns a function that uninstalls the handlers.
 */
export function installSignalCleanup(signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): () => void {
  const handlers = new Map<NodeJS.Signals, () => void>();
  for (const sig of signals) {
    const handler = (): void => {
      cleanupAllSync();
      if (process.listenerCount(sig) === 1) {
        process.removeListener(sig, handler);
        process.kill(process.pid, sig);
      }
    };
    handlers.set(sig, handler);
    process.on(sig, handler);
  }
  return () => {
    for (const [sig, handler] of handlers) process.removeListener(sig, handler);
  };
}
