// Runs one fuzz case of the CLI (`node bin/achilles.js ARGS`, or test/fuzz/sweep-child.mjs for a sweep
// that runs) in its own process and classifies what happened, as run-case.ts does for scenes, plus
// what a command owes its caller: an error placed at FILE:LINE:COL or naming the argument, the exit
// code of its kind (1 for a failure, 2 for a usage error: src/cli/main.ts), and an output directory
// or file written whole or not at all.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { LEAK } from './mutate.js';
import { HEAP_MB, MESSAGE_CHARS, RSS_MB, type Outcome } from './run-case.js';

export const ROOT = join(import.meta.dirname, '..', '..');
/** The CLI a case runs: the built package's, or ACHILLES_FUZZ_CLI (a scratch copy with a planted
 *  defect, to see the harness catch it). */
export const CLI = process.env.ACHILLES_FUZZ_CLI ?? join(ROOT, 'bin', 'achilles.js');
/** A CLI case that takes longer is a hang (a case here loads a small model or sweep; a sweep above
 *  the work cap of sweep-child.mjs is emitted, not run). */
export const CLI_HANG_MS = 30_000;

export type CliOutcome = Outcome | 'unplaced' | 'wrong-exit' | 'half-written' | 'bad-output';

export interface CliRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
  /** Highest resident size seen while it ran (sampled every 100 ms), MB. */
  peakRssMB: number;
}

export interface CliSpec {
  /** The command line after `node`: [script, ...args]. */
  argv: string[];
  cwd: string;
  hangMs?: number;
  env?: Record<string, string>;
}

function rssMB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs `node ARGV` with a V8 heap limit, ACHILLES_DEBUG (so an internal error shows its class) and CI
 *  (no progress bars). */
export function runCli(spec: CliSpec): Promise<CliRun> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB * 2}`, ...spec.argv], {
      cwd: spec.cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', CI: '1', ACHILLES_DEBUG: '1', ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    child.stdout.on('data', (d: Buffer) => (stdout = stdout.length < 64 << 20 ? stdout + d.toString() : stdout));
    child.stderr.on('data', (d: Buffer) => (stderr = stderr.length < 1 << 20 ? stderr + d.toString() : stderr));
    const sample = setInterval(() => (peak = Math.max(peak, rssMB(child.pid!))), 100);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, spec.hangMs ?? CLI_HANG_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearInterval(sample);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t0, timedOut, peakRssMB: Math.round(peak) });
    });
  });
}

/** JavaScript's own error classes: one that reaches the user is a bug, whatever its message. */
const INTERNAL = /^(TypeError|ReferenceError|RangeError|SyntaxError|EvalError|URIError|AggregateError)(?: \[\w+\])?: /m;
/** What only a dying process prints. */
const DYING = /FATAL ERROR|Segmentation fault|Aborted|terminate called|core dumped|Assertion .* failed|node::|libc\+\+abi/;

/** The message of a failed command: stderr up to the stack ACHILLES_DEBUG adds. */
export function errorMessage(stderr: string): string {
  const stack = /^\w*Error(?: \[\w+\])?: /m.exec(stderr);
  const head = stack && stack.index > 0 ? stderr.slice(0, stack.index) : stderr;
  return head.replace(/^Run 'achilles[^\n]*--help' for usage\.\n?/m, '').trim();
}

export interface Verdict {
  outcome: CliOutcome;
  detail: string;
}

/**
 * The verdict on a finished command:
 * - crash: a signal, an exit code other than 0, 1 or 2, a dying process's words, or one of
 *   JavaScript's own error classes (TypeError, RangeError, ...) reaching the user;
 * - hang, memory (the V8 heap limit, or more than RSS_MB resident);
 * - leak: stdout or stderr holds another file's content (CANARY, /etc/passwd);
 * - long-message: an error longer than MESSAGE_CHARS (plus `allowance`: the longest path the case
 *   gives, which an error names whole to name the file);
 * - wrong-exit / unplaced: exit 1 must come with a message `placed` accepts (FILE:LINE:COL, or the
 *   argument's name), exit 2 with `achilles COMMAND: ` (a usage error names its flag);
 * then `clean-error` (1 or 2) or `clean-run` (0).
 */
export function classify(run: CliRun, placed: (message: string) => boolean, command: string, allowance = 0): Verdict {
  const v = (outcome: CliOutcome, detail: string): Verdict => ({ outcome, detail });
  const tail = (s: string): string => s.trim().split('\n').slice(-3).join(' | ').slice(0, 400);
  if (run.timedOut) return v('hang', `no answer after ${Math.round(run.ms)} ms`);
  if (/heap out of memory|allocation failed|bad_alloc|Array buffer allocation failed/i.test(run.stderr))
    return v('memory', run.stderr.split('\n').find((l) => /memory|alloc/i.test(l)) ?? 'out of memory');
  if (run.peakRssMB > RSS_MB) return v('memory', `${run.peakRssMB} MB resident`);
  if (run.signal || run.code === null || ![0, 1, 2].includes(run.code) || DYING.test(run.stderr))
    return v('crash', `exit ${run.code ?? run.signal}: ${tail(run.stderr)}`);
  const internal = INTERNAL.exec(run.stderr);
  if (internal) return v('crash', `internal error ${run.stderr.slice(internal.index).split('\n').slice(0, 3).join(' | ').slice(0, 400)}`);
  if (LEAK.test(run.stdout) || LEAK.test(run.stderr))
    return v('leak', `the output prints another file: ${(LEAK.exec(run.stderr) ? run.stderr : run.stdout).slice(0, 300)}`);
  if (run.code === 0) return v('clean-run', '');
  const message = errorMessage(run.stderr);
  if (message.length > MESSAGE_CHARS + allowance) return v('long-message', `${message.length} characters: ${message.slice(0, 200)}`);
  if (message === '') return v('unplaced', `exit ${run.code} without a message`);
  if (run.code === 2) {
    if (!message.startsWith(`achilles ${command}: `) && !message.startsWith('achilles: '))
      return v('wrong-exit', `exit 2 (usage) without "achilles ${command}: ": ${message.slice(0, 300)}`);
    return v('clean-error', message.slice(0, 300));
  }
  if (!placed(message)) return v('unplaced', `exit 1 neither at FILE:LINE:COL nor naming the argument: ${message.slice(0, 300)}`);
  return v('clean-error', message.slice(0, 300));
}

/** FILE:LINE:COL at the start of the message's first line (an error inside a file). */
export const AT_FILE = /^[^\n]*?:\d+:\d+: /;

// ---- outputs written whole or never ------------------------------------------------------------

/** Every file under `d` (relative), directories too (with a trailing /), hidden ones included. */
export function listTree(d: string): string[] {
  if (!existsSync(d)) return [];
  return readdirSync(d, { recursive: true, encoding: 'utf8' })
    .map((f) => (statSync(join(d, f)).isDirectory() ? `${f}/` : f))
    .sort();
}

/** Staging debris of reports/atomic.ts (a temp file, a staging directory) anywhere under `parent`. */
export function debris(parent: string): string[] {
  return listTree(parent).filter((f) => /(^|\/)\.[^/]*\.(tmp|staging-[^/]*)(\/|$)/.test(f));
}

/** Rows of a CSV (not its `#` provenance lines, not its header). */
function csvRows(file: string): string[] {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
  return lines.slice(1);
}

/**
 * A sweep's --out after the command: whole or never. Nothing staged is left beside it; each shard
 * directory holds results.csv and shard.json together, results.csv one row per robot of the shard
 * (shard-I-of-N: robots floor(I·R/N) .. floor((I+1)·R/N) − 1); after exit 0 of an unsharded run the
 * merged results.csv holds a row for every robot. `robots` is undefined when the sweep file never
 * said (a case that failed before the sweep was read writes nothing at all).
 */
export function sweepOutputProblems(parent: string, out: string, code: number | null, robots: number | undefined): string[] {
  const problems = debris(parent).map((f) => `staging left behind: ${f}`);
  const files = listTree(out);
  if (robots === undefined)
    return [...problems, ...(code !== 0 && files.length ? [`${files.length} files written by a failed sweep`] : [])];
  const shardsDir = join(out, 'shards');
  for (const s of existsSync(shardsDir) ? readdirSync(shardsDir) : []) {
    const m = /^shard-(\d+)-of-(\d+)$/.exec(s);
    if (!m) continue;
    const dir = join(shardsDir, s);
    const has = (f: string): boolean => existsSync(join(dir, f));
    if (!has('results.csv') || !has('shard.json')) {
      problems.push(`${s} holds ${readdirSync(dir).join(', ') || 'nothing'}, not results.csv and shard.json together`);
      continue;
    }
    const [i, n] = [Number(m[1]), Number(m[2])];
    const want = Math.floor(((i + 1) * robots) / n) - Math.floor((i * robots) / n);
    const got = csvRows(join(dir, 'results.csv')).length;
    if (got !== want) problems.push(`${s}/results.csv has ${got} rows, expected ${want}`);
  }
  const merged = join(out, 'results.csv');
  if (existsSync(merged)) {
    const got = csvRows(merged).length;
    if (got !== robots) problems.push(`results.csv has ${got} rows for ${robots} robots`);
  } else if (code === 0) problems.push('exit 0 without results.csv');
  return problems.map((p) => `${relative(parent, out) || '.'}: ${p}`);
}
