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
  await fsp.mkdir(dir, { recursive: true });
  // Same directory as the target so rename() never crosses a filesystem (EXDEV).
  const tmp = path.join(dir, tempName(path.basename(filePath)));
  try {
    await writeAndSync(tmp, data);
    await fsp.rename(tmp, filePath);
  } catch (err) {
    await fsp.rm(tmp, { force: true });
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

  private constructor(dir: string, stagingDir: string) {
    this.dir = dir;
    this.stagingDir = stagingDir;
  }

  /** Create the staging directory for target directory `dir` (whose parent is created if needed). */
  static async create(dir: string): Promise<OutputSet> {
    const target = path.resolve(dir);
    const parent = path.dirname(target);
    await fsp.mkdir(parent, { recursive: true });
    // Sibling of the target, not inside it: a listing of the target never shows staging debris,
    // and being in the same parent keeps the later renames on one filesystem.
    const staging = await fsp.mkdtemp(path.join(parent, `.${path.basename(target)}.staging-`));
    const set = new OutputSet(target, staging);
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
    const moved: Array<{ dest: string; backup?: string }> = [];
    const backupDir = path.join(this.stagingDir, 'backup');
    try {
      fs.mkdirSync(this.dir, { recursive: true });
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
      for (const { dest, backup } of moved.reverse()) {
        try {
          fs.rmSync(dest, { force: true });
          if (backup) fs.renameSync(backup, dest);
        } catch {
          // Best effort: keep rolling back the rest.
        }
      }
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
  }
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
