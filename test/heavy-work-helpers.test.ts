// The helpers that keep long work off the test worker's event loop (issue 23: a loop held for 60 s
// fails the vitest run with "Timeout calling onTaskUpdate" although every test passed): the loop
// keeps turning while they wait, and what comes back is what spawnSync or a direct call would give.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ChildError, inChild } from './helpers/in-child.js';
import { formatStalls, longestStalls } from './helpers/loop-watch-report.js';
import { execFileAsync, spawnAsync } from './helpers/spawn-async.js';
import type * as Probe from './helpers/work/probe.js';

const PROBE = new URL('./helpers/work/probe.ts', import.meta.url);

/** How many times a 10 ms interval fires while `work` runs (0 when work holds the loop throughout). */
async function ticksDuring<T>(work: () => Promise<T>): Promise<{ ticks: number; value: T }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  try {
    const value = await work();
    return { ticks, value };
  } finally {
    clearInterval(timer);
  }
}

describe('inChild', () => {
  test('runs the work in another process while this loop turns, and returns its value', async () => {
    const values = new Float64Array([0.5, 1.25, -3]);
    const { ticks, value } = await ticksDuring(() => inChild<typeof Probe, 'holdThread'>(PROBE, 'holdThread', 1500, values));
    expect(value.pid).not.toBe(process.pid);
    expect(value.sum).toBe(-1.25);
    expect(value.values).toEqual(values); // a typed array survives the trip
    expect(value.values).toBeInstanceOf(Float64Array);
    // 1.5 s of a held thread: a loop held throughout would see none (the interval fires every 10 ms).
    expect(ticks).toBeGreaterThan(20);
  });

  test('an error thrown there is thrown here, with its name, message and fields', async () => {
    const e = await inChild<typeof Probe, 'throwProbe'>(PROBE, 'throwProbe', 7, 3).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ChildError);
    expect(e).toMatchObject({ name: 'ProbeError', message: 'probe failed at step 7, robot 3', step: 7, robot: 3 });
    expect((e as Error).stack).toMatch(/throwProbe/);
  });

  test('a child that dies without answering is an error naming the work, its exit and its output', async () => {
    await expect(inChild<typeof Probe, 'exitWithout'>(PROBE, 'exitWithout', 3)).rejects.toThrow(
      /exitWithout \(.*probe\.ts\) in a child process exited with code 3 before answering; its output ends:\nthe probe leaves without answering/,
    );
  });

  test('a value that cannot be sent back is an error saying so', async () => {
    await expect(inChild<typeof Probe, 'returnFunction'>(PROBE, 'returnFunction')).rejects.toThrow(
      /returnFunction returned a value that cannot be sent back/,
    );
  });

  test('a missing export is an error naming it', async () => {
    const untyped = inChild as unknown as (module: URL, name: string) => Promise<unknown>;
    await expect(untyped(PROBE, 'nothingHere')).rejects.toThrow(/probe\.ts exports no function nothingHere/);
  });
});

describe('spawnAsync', () => {
  test("gives spawnSync's status, stdout and stderr (stdin from input) while this loop turns", async () => {
    const script = 'read x; echo "out:$x"; echo err >&2; sleep 1; exit 4';
    const { ticks, value } = await ticksDuring(() => spawnAsync('bash', ['-c', script], { input: 'hello\n' }));
    const sync = spawnSync('bash', ['-c', script], { input: 'hello\n', encoding: 'utf8' });
    expect({ status: value.status, signal: value.signal, stdout: value.stdout, stderr: value.stderr }).toEqual({
      status: sync.status,
      signal: sync.signal,
      stdout: sync.stdout,
      stderr: sync.stderr,
    });
    expect(value.status).toBe(4);
    expect(ticks).toBeGreaterThan(20);
  });

  test('a command that cannot start sets error, as spawnSync does', async () => {
    const r = await spawnAsync('/nonexistent/achilles-no-such-command', []);
    const sync = spawnSync('/nonexistent/achilles-no-such-command', []);
    expect(r.error?.message).toMatch(/ENOENT/);
    expect(sync.error?.message).toMatch(/ENOENT/);
    expect(r.status).toBe(sync.status);
  });

  test('timeout kills the child with SIGTERM and sets error ETIMEDOUT, as spawnSync does', async () => {
    const r = await spawnAsync('sleep', ['10'], { timeout: 300 });
    expect(r.signal).toBe('SIGTERM');
    expect(r.status).toBeNull();
    expect((r.error as NodeJS.ErrnoException).code).toBe('ETIMEDOUT');
  });
});

describe('execFileAsync', () => {
  const failing = ['-c', 'echo partial; echo broke >&2; exit 3'];
  const caught = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e as { status: number; stdout: string; stderr: string };
    }
    throw new Error('did not throw');
  };

  test('resolves to stdout (stdin from input), as execFileSync returns it', async () => {
    const script = 'read x; echo "got $x"';
    expect(await execFileAsync('bash', ['-c', script], { input: 'in\n' })).toBe(
      execFileSync('bash', ['-c', script], { input: 'in\n', encoding: 'utf8' }),
    );
  });

  test("a failing command rejects with execFileSync's status, stdout and stderr", async () => {
    const e = (await execFileAsync('bash', failing).catch((x: unknown) => x)) as {
      status: number;
      stdout: string;
      stderr: string;
      message: string;
    };
    const sync = caught(() => execFileSync('bash', failing, { encoding: 'utf8', stdio: 'pipe' }));
    expect({ status: e.status, stdout: e.stdout, stderr: e.stderr }).toEqual({
      status: sync.status,
      stdout: sync.stdout,
      stderr: sync.stderr,
    });
    expect(e.message).toMatch(/^Command failed: bash -c .* exited with code 3\nbroke/);
  });

  test("stdio 'inherit' passes the output through (a build's progress) and still rejects on failure", async () => {
    expect(await execFileAsync('true', [], { stdio: 'inherit' })).toBe('');
    await expect(execFileAsync('bash', failing, { stdio: 'inherit' })).rejects.toMatchObject({ status: 3 });
  });

  test('a command that cannot start rejects with its ENOENT error', async () => {
    await expect(execFileAsync('/nonexistent/achilles-no-such-command')).rejects.toThrow(/ENOENT/);
  });
});

describe('ACHILLES_LOOP_WATCH', () => {
  test('the report lists the longest stalls first', () => {
    const rows = [
      { file: 'test/a.test.ts', test: 'short', longestBlockMs: 20, durationMs: 30 },
      { file: 'test/b.test.ts', test: 'long', longestBlockMs: 12_345, durationMs: 13_000 },
      { file: 'test/a.test.ts', test: 'middle', longestBlockMs: 900, durationMs: 950 },
    ];
    const stalls = longestStalls(rows.map((r) => JSON.stringify(r)).join('\n') + '\n', 2);
    expect(stalls.map((s) => s.test)).toEqual(['long', 'middle']);
    expect(formatStalls(stalls)).toBe(
      "longest event-loop stalls (a worker's loop held 60 s fails the run):\n    12.3 s  test/b.test.ts > long\n     0.9 s  test/a.test.ts > middle\n",
    );
  });

  test("a vitest run records a test's stall and names it after the run", async () => {
    // A throwaway project: one test holding its loop 1.5 s (Atomics.wait: no CPU), one that does not.
    const root = mkdtempSync(join(tmpdir(), 'achilles-loop-watch-'));
    const out = join(root, 'loop.jsonl');
    try {
      mkdirSync(join(root, 'test'));
      symlinkSync(join(import.meta.dirname, '..', 'node_modules'), join(root, 'node_modules'));
      writeFileSync(
        join(root, 'test', 'stall.test.ts'),
        "import { test } from 'vitest';\n" +
          "test('holds its loop', () => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500); });\n" +
          "test('lets it turn', async () => { await new Promise((r) => setTimeout(r, 300)); });\n",
      );
      const vitest = join(import.meta.dirname, '..', 'node_modules', 'vitest', 'vitest.mjs');
      const config = join(import.meta.dirname, '..', 'vitest.config.ts');
      const r = await spawnAsync(process.execPath, [vitest, 'run', '--root', root, '--config', config], {
        cwd: root,
        env: { ...process.env, ACHILLES_LOOP_WATCH: out },
      });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      const rows = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { file: string; test: string; longestBlockMs: number });
      const held = rows.find((x) => x.test === 'holds its loop')!;
      const turned = rows.find((x) => x.test === 'lets it turn')!;
      expect(held.file).toBe('test/stall.test.ts');
      expect(held.longestBlockMs).toBeGreaterThanOrEqual(1500);
      expect(turned.longestBlockMs).toBeLessThan(held.longestBlockMs);
      expect(r.stdout).toMatch(/longest event-loop stalls .*\n +1\.\d s  test\/stall\.test\.ts > holds its loop\n/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
