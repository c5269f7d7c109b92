// Runs one fuzz case in a child process (test/fuzz/child.mjs) and classifies what happened.

import { spawn } from 'node:child_process';
import { join } from 'node:path';

export type Outcome = 'clean-error' | 'clean-run' | 'crash' | 'hang' | 'memory' | 'leak' | 'long-message';

export interface CaseResult {
  outcome: Outcome;
  detail: string;
  ms: number;
}

const CHILD = join(import.meta.dirname, 'child.mjs');
/** A case that takes longer is a hang (loading and 5 short steps take well under a second). */
export const HANG_MS = 15_000;
/** The child's V8 heap limit, and the resident size above which a case counts as a memory blow-up. */
export const HEAP_MB = 256;
export const RSS_MB = 1024;
/** An error message longer than this echoes something whole (every part of a scene error is cut to
 *  at most about 500 characters; issue 23 saw a 100,000-character value printed). */
export const MESSAGE_CHARS = 5000;
/** What an error must never print: another file's content (test/fuzz/mutate.ts's CANARY, /etc/passwd). */
const LEAK = /FUZZ-CANARY-7f3a|root:x:0:0/;

/** `child` and `hangMs` are replaceable so the classifier itself can be tested (test/fuzz.test.ts);
 *  `config` is passed on as the case's --config. */
export function runCase(file: string, child_ = CHILD, hangMs = HANG_MS, config?: string): Promise<CaseResult> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, child_, file, ...(config ? [config] : [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, hangMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - t0;
      const done = (outcome: Outcome, detail: string): void => resolve({ outcome, detail, ms });
      if (timedOut) return done('hang', `no answer after ${hangMs} ms`);
      if (/heap out of memory|allocation failed/i.test(stderr))
        return done('memory', stderr.split('\n').find((l) => /memory|alloc/i.test(l)) ?? 'out of memory');
      let r: { outcome: string; message?: string; length?: number; rssMB: number; scene?: boolean } | undefined;
      try {
        r = JSON.parse(stdout.trim().split('\n').pop() ?? '');
      } catch {
        r = undefined;
      }
      if (!r || code !== 0) return done('crash', `exit ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`);
      if (r.rssMB > RSS_MB || r.outcome === 'memory') return done('memory', `${r.rssMB} MB resident; ${r.message ?? ''}`);
      if (r.outcome === 'internal-error') return done('crash', `internal error: ${r.message}`);
      if (r.outcome === 'run') return done('clean-run', '');
      const m = r.message ?? '';
      if (LEAK.test(m)) return done('leak', `the message prints another file: ${m.slice(0, 300)}`);
      if ((r.length ?? m.length) > MESSAGE_CHARS) return done('long-message', `${r.length ?? m.length} characters: ${m.slice(0, 200)}`);
      return done('clean-error', `${r.scene ? '' : '(engine) '}${m.slice(0, 300)}`);
    });
  });
}

/** `f` over `items`, at most `width` at a time (the cases' child processes), results in order. */
export async function pool<T, R>(items: readonly T[], width: number, f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]);
      }
    }),
  );
  return out;
}
