// Runs a long synchronous piece of a test (native stepping, a validation sweep) in a child process, so
// the test worker's event loop keeps turning meanwhile. A loop held for 60 s fails the vitest run
// even when every test passed ("[vitest-worker]: Timeout calling onTaskUpdate": birpc's fixed 60 s
// call timeout fires before the main process's answer, queued behind the blocked loop, is read;
// issue 23). The test keeps its assertions: the child only computes what they read.
//
// The piece is an exported function of a module under test/helpers/work/ (a test file cannot be
// imported outside vitest); it runs on the TypeScript sources through tsx, like the tests, and its
// value comes back by structured clone (typed arrays, Maps, undefined survive; functions do not).
import { fork } from 'node:child_process';
import { join } from 'node:path';

const ENTRY = join(import.meta.dirname, 'child-entry.ts');

/** An error thrown in the child, rebuilt in the test: same name, message and own fields (a
 *  NonFiniteStateError's step and robot), and the child's stack. */
export class ChildError extends Error {
  constructor(fields: { name: string; message: string; stack?: string; [k: string]: unknown }) {
    super(fields.message);
    Object.assign(this, fields);
  }
}

type Fn = (...args: never[]) => unknown;

/** `module`'s export `name` called with `args` in a fresh node process; resolves to its (awaited) value. */
export function inChild<M extends Record<string, unknown>, K extends keyof M & string>(
  module: URL,
  name: K,
  ...args: M[K] extends Fn ? Parameters<M[K]> : never
): Promise<M[K] extends Fn ? Awaited<ReturnType<M[K]>> : never> {
  return new Promise((resolve, reject) => {
    const child = fork(ENTRY, [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    // What the child printed, kept (its tail) for the message when it dies without answering.
    let output = '';
    const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    let settled = false;
    // A test that times out abandons its promise; the worker's exit still ends the child.
    const killOnExit = () => child.kill('SIGKILL');
    process.once('exit', killOnExit);
    child.on('message', (m: { value?: unknown; error?: ConstructorParameters<typeof ChildError>[0] }) => {
      settled = true;
      if (m.error) reject(new ChildError(m.error));
      else resolve(m.value as never);
    });
    child.on('error', (e) => {
      if (!settled) reject(e);
      settled = true;
    });
    child.on('close', (code, signal) => {
      process.off('exit', killOnExit);
      if (!settled)
        reject(
          new Error(
            `${name} (${module.pathname}) in a child process exited with ${signal ?? `code ${code}`} before answering; its output ends:\n${output}`,
          ),
        );
      settled = true;
    });
    child.send({ module: module.href, name, args });
  });
}
