// bench never reports a diverging scene as a speed, and its charts read right with one copies value
// and with lane widths past 9.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { benchCharts, naturalOrder } from '../src/bench/report.js';
import type { BenchReport } from '../src/bench/run.js';
import { cli, SCENES, tempDir } from './helpers/cli.js';

describe('bench honesty', () => {
  test('a scene that diverges is an error naming the cell, not "0 robot-steps/s" with exit 0', async () => {
    const dir = tempDir();
    const scene = join(dir, 'diverge.arow');
    writeFileSync(
      scene,
      readFileSync(join(SCENES, 'double-pendulum.arow'), 'utf8').replace('dt: 0.002, integrator: euler', 'dt: 1, integrator: euler'),
    );
    const r = await cli(
      'bench',
      '--scene',
      scene,
      '--copies',
      '2',
      '--lanes',
      '1',
      '--precision',
      'f64',
      '--budget',
      '0.001',
      '--reps',
      '1',
      '--out',
      join(dir, 'out'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the motion diverged in the cell double-pendulum \/ euler \/ achilles f64 ×1 \/ 2 copies \(\d+ robot-steps non-finite\)/,
    );
    expect(r.stdout).not.toMatch(/robot-steps\/s/);
  });

  test('a precision none of whose requested lane widths runs here is an error, not an empty table', async () => {
    const { resolveConfig } = await import('../src/bench/config.js');
    const { laneProblem } = await import('../src/engine/lanes.js');
    const { engineAddon } = await import('../src/engine/native.js');
    const cpu = engineAddon().cpuInfo();
    if (laneProblem(cpu, 'f64', 8) === null) return; // an AVX-512 CPU runs every width: nothing to refuse
    expect(() => resolveConfig({ lanes: ['8'], precision: ['f64'] })).toThrow(
      /--lanes 8 --precision f64: 8 lanes of f64 need AVX-512, which this CPU lacks \(it runs f64 at lanes 1, 4\)/,
    );
    expect(() => resolveConfig({ lanes: ['8'], precision: ['f32', 'f64'] })).toThrow(/--precision f64/); // asked for by name
    expect(resolveConfig({ lanes: ['8'] }).lanes).toEqual([8]); // the default precisions: f32 runs, f64 is skipped with a note
  });

  test('charts: points with one copies value, legend in natural order', () => {
    const cell = (lanes: number) => ({
      engine: 'achilles',
      scene: 's',
      integrator: 'euler',
      precision: 'f32',
      lanes,
      isa: 'x',
      copies: 64,
      threads: 1,
      robotStepsPerSec: 1e6 * lanes,
    });
    const rep = { machine: {}, config: {}, notes: [], results: [16, 1, 8, 4].map(cell) } as unknown as BenchReport;
    const [throughput] = benchCharts(rep);
    const spec = throughput.spec as { mark: { point?: boolean }; encoding: { color: { sort: string[] } } };
    expect(spec.mark.point).toBe(true);
    expect(spec.encoding.color.sort).toEqual(['achilles f32 ×1', 'achilles f32 ×4', 'achilles f32 ×8', 'achilles f32 ×16']);
    expect(naturalOrder(['x10', 'x9', 'x10'])).toEqual(['x9', 'x10']);
  });
});
