// Numbers that do not mislead: the wall time is the whole command's, with its parts; the largest
// energy drift is over every step, so it does not change with --record.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, SCENES, tempDir } from './cli-harness.js';

const DP = join(SCENES, 'double-pendulum.arow');

describe('run summary numbers', () => {
  test('wall time: the total and its parts (load, simulate with its stepping, write)', async () => {
    const r = await cli('run', DP, '--duration', '0.2', '--out', join(tempDir(), 'o'));
    expect(r.code).toBe(0);
    const m = /^wall time\s+([\d.e+-]+) s: load ([\d.e+-]+) s, simulate ([\d.e+-]+) s \(stepping ([\d.e+-]+) s\), write ([\d.e+-]+) s$/m.exec(r.stdout);
    expect(m, r.stdout).not.toBeNull();
    const [total, load, sim, step, write] = m!.slice(1).map(Number);
    expect(total).toBeGreaterThanOrEqual((load + sim + write) * 0.99);
    expect(step).toBeLessThanOrEqual(sim);
  });

  for (const precision of ['f64', 'f32'])
    test(`${precision}: the largest drift is over every step, whatever --record`, async () => {
      const maxDrift = async (record: string[]) => {
        const out = join(tempDir(), 'o');
        const r = await cli('run', DP, '--duration', '2', '--precision', precision, '--copies', '3', '--robots', '0,2', '--spread', '0.1', ...record, '--out', out);
        expect(r.code).toBe(0);
        const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as { summary: { driftByRobot: { robot: number; maxAbs: number; scale: number }[] } };
        return run.summary.driftByRobot;
      };
      const every = await maxDrift(['--record', '1']);
      const sparse = await maxDrift(['--record', '97']);
      expect(sparse).toEqual(every);
      expect(every[0].maxAbs).toBeGreaterThan(0);
      // The engine's tracker against the trace itself: with every step recorded, the largest |drift|
      // column of each recorded robot is the tracked maximum (to the rounding of E − E(0) in f32).
      const out = join(tempDir(), 'o');
      await cli('run', DP, '--duration', '2', '--precision', precision, '--copies', '3', '--robots', '0,2', '--spread', '0.1', '--record', '1', '--out', out);
      const lines = readFileSync(join(out, 'trace.csv'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
      const head = lines[0].split(',');
      const [iRobot, iDrift] = [head.indexOf('robot'), head.indexOf('drift')];
      for (const { robot, maxAbs } of every) {
        const traced = Math.max(...lines.slice(1).map((l) => l.split(',')).filter((c) => Number(c[iRobot]) === robot).map((c) => Math.abs(Number(c[iDrift]))));
        if (precision === 'f64') expect(maxAbs).toBe(traced);
        else expect(Math.abs(maxAbs - traced)).toBeLessThanOrEqual(2 ** -23 * Math.abs(traced) * 4);
      }
    });
});
