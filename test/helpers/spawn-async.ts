// spawnSync's result without spawnSync's cost: a synchronous spawn holds the test worker's event loop
// for the child's whole run, and a loop held for 60 s fails the vitest run even when every test passed
// ("[vitest-worker]: Timeout calling onTaskUpdate", issue 23). This resolves to the same fields the
// tests read from spawnSync (status, signal, stdout, stderr) while the loop keeps turning.
import { spawn, type SpawnOptions } from 'node:child_process';

export interface SpawnResult {
  /** The exit code, or null when a signal ended the child (as spawnSync). */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Set when the child could not be started or was killed by `timeout` (as spawnSync's `error`). */
  error?: Error;
}

export interface SpawnAsyncOptions extends Omit<SpawnOptions, 'stdio'> {
  /** 'inherit' passes the child's stdout and stderr through (a build's progress) instead of capturing them. */
  stdio?: 'pipe' | 'inherit';
  /** Written to the child's stdin, which is then closed (spawnSync's `input`). */
  input?: string;
  /** Milliseconds after which the child is killed with SIGTERM (spawnSync's `timeout`). */
  timeout?: number;
}

export function spawnAsync(command: string, args: readonly string[], options: SpawnAsyncOptions = {}): Promise<SpawnResult> {
  const { input, timeout, stdio = 'pipe', ...rest } = options;
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...rest, stdio: ['pipe', stdio, stdio] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let error: Error | undefined;
    child.stdout?.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => err.push(d));
    let started = true;
    child.on('error', (e) => {
      error = e;
      // A child that never ran has no exit status (spawnSync: status null); node reports -errno here.
      if (child.pid === undefined) started = false;
    });
    // A child that exits without reading its stdin makes the write fail with EPIPE: spawnSync ignores that too.
    child.stdin!.on('error', () => {});
    child.stdin!.end(input);
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(() => {
            error = Object.assign(new Error(`spawnAsync ${command} ETIMEDOUT`), { code: 'ETIMEDOUT' });
            child.kill('SIGTERM');
          }, timeout);
    child.on('close', (status, signal) => {
      if (timer) clearTimeout(timer);
      resolve({
        status: started ? status : null,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        error,
      });
    });
  });
}

/** execFileSync's contract, awaited: resolves to stdout, and a child that cannot start, fails or is
 *  killed is an error carrying status, signal, stdout and stderr (execFileSync's fields). */
export async function execFileAsync(file: string, args: readonly string[] = [], options: SpawnAsyncOptions = {}): Promise<string> {
  const r = await spawnAsync(file, args, options);
  if (r.error && r.status === null && r.signal === null) throw r.error; // it never ran
  if (r.status !== 0) {
    const how = r.signal ? `was killed by ${r.signal}` : `exited with code ${r.status}`;
    throw Object.assign(new Error(`Command failed: ${[file, ...args].join(' ')} ${how}\n${r.stderr}`), r);
  }
  return r.stdout;
}
