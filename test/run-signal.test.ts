// Ctrl-C during `achilles run`: exit 130, nothing written, an existing output directory untouched.
// The CLI runs as a child process so a real SIGINT reaches a real signal handler.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SCENES, spawnCli, tempDir } from './helpers/cli.js';

/** Start a run far too long to finish, SIGINT it once it is stepping, and collect the outcome. */
async function interruptRun(out: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; stdout: string }> {
  const child = spawnCli([
    'run',
    join(SCENES, 'double-pendulum.arow'),
    '--integrator',
    'rk4',
    '--copies',
    '64',
    '--duration',
    '1000000',
    '--out',
    out,
  ]);
  let stderr = '';
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += String(d)));
  const started = new Promise<void>((resolve) => {
    child.stderr!.on('data', (d) => {
      stderr += String(d);
      // The start line is printed once the signal handler is in place and stepping begins.
      if (stderr.includes('Ctrl-C stops')) resolve();
    });
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  await Promise.race([started, exited]);
  await new Promise((r) => setTimeout(r, 300)); // well inside the stepping loop
  child.kill('SIGINT');
  const { code, signal } = await exited;
  return { code, signal, stderr, stdout };
}

describe('SIGINT during a long run', () => {
  test('exits 130, says nothing was written, and leaves no files', async () => {
    const out = join(tempDir(), 'never');
    const r = await interruptRun(out);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/interrupted \(SIGINT\) at step \d+ of \d+; nothing was written to /);
    expect(r.stdout).toBe('');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dirname(out))).toEqual([]); // no staging directory either
  });

  test('an existing output directory keeps its old files exactly', async () => {
    const out = join(tempDir(), 'old');
    mkdirSync(out);
    // An earlier run's output (its manifest lists it), so the directory is achilles's to replace.
    writeFileSync(join(out, 'trace.csv'), 'old trace\n');
    writeFileSync(join(out, '.achilles-files.json'), '{"files": ["trace.csv"]}\n');
    const r = await interruptRun(out);
    expect(r.code).toBe(130);
    expect(readdirSync(out).sort()).toEqual(['.achilles-files.json', 'trace.csv']);
    expect(readFileSync(join(out, 'trace.csv'), 'utf8')).toBe('old trace\n');
    expect(readdirSync(dirname(out))).toEqual(['old']);
  });
});
