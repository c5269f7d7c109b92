// CLI wording (small things seen in issue 7): plurals, progress units, doubled help words, numeric
// "did you mean", and the API's precision default stated where API users read.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCommands } from '../src/cli/main.js';
import { runCommand } from '../src/cli/run-command.js';
import { Batch } from '../src/engine/batch.js';
import { delayedProgress } from '../src/run/index.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { cli, ROOT, SCENES, tempDir } from './helpers/cli.js';

const DP = join(SCENES, 'double-pendulum.arow');

describe('small things', () => {
  test('one step is "1 step", one record interval is "every step"', async () => {
    const r = await cli('run', DP, '--duration', '0.002', '--out', join(tempDir(), 'o'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('1 robot x 1 step (0.002 s)');
    expect(r.stdout).toMatch(/^steps\s+1 \(2 records, every step\)$/m);
  });

  test('run progress counts robot-steps (steps × copies), the unit of the throughput', () => {
    const seen: number[] = [];
    const bar = { active: true, update: (n: number) => seen.push(n), tick: (n = 1) => seen.push(-n), finish: () => undefined };
    const p = delayedProgress(100, 64, bar);
    p.tick(2);
    expect(seen).toEqual([-128]);
  });

  test('a numeric choice lists the allowed values without a misleading "did you mean"', async () => {
    const r = await cli('run', DP, '--lanes', '2');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("achilles run: --lanes: '2' is not one of 1, 4, 8, 16\nRun 'achilles run --help' for usage.\n");
    expect((await cli('run', DP, '--integrator', 'rk5')).stderr).toContain('(did you mean rk4?)');
  });

  test('no help text says a word twice ("(repeatable) (repeatable)")', async () => {
    for (const spec of await loadCommands()) {
      const r = await cli(spec.name, '--help');
      expect(r.stdout + r.stderr, spec.name).not.toMatch(/\((repeatable)[^)]*\)\s*\(\1\)/);
      for (const o of spec.options)
        if (o.kind.type === 'list-string') expect(o.description, `${spec.name} --${o.name}`).not.toMatch(/repeatable/);
    }
  });

  test('the API defaults to f32, the CLI to f64, and docs/typescript.md says so', () => {
    expect(new Batch(loadScene(DP), { copies: 1 }).precision).toBe('f32');
    expect(runCommand.options.find((o) => o.name === 'precision')?.default).toBe('f64');
    const page = readFileSync(join(ROOT, 'docs', 'typescript.md'), 'utf8');
    expect(page).toMatch(/`precision` defaults to `'f32'` in the API[^.]*, while `achilles run` defaults to `f64`/);
    expect(readFileSync(join(ROOT, 'src/engine/api.ts'), 'utf8')).toMatch(/Default 'f32'[\s\S]*defaults to f64/);
  });
});
