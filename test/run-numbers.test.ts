// Numbers that do not mislead: the wall time is the whole command's, with its parts; the largest
// energy drift is over every step, so it does not change with --record.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cli, SCENES, spawnCli, tempDir } from './helpers/cli.js';
import { dissipation, driftReason, type DriftStats } from '../src/run/summary.js';
import { loadScene } from '../src/model-files/scene/index.js';

const DP = join(SCENES, 'double-pendulum.arow');

describe('run summary numbers', () => {
  test('wall time: from process start (Node start-up included), and its parts (start-up, load, simulate with its stepping, write)', async () => {
    // A child process: the start-up is that of a fresh `achilles` (here Node with tsx, so larger).
    const t0 = performance.now();
    const child = spawnCli(['run', DP, '--duration', '0.2', '--out', join(tempDir(), 'o')]);
    let stdout = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    const waited = (performance.now() - t0) / 1000; // spawn to exit, seen from outside
    const r = { code, stdout };
    expect(r.code).toBe(0);
    const m =
      /^wall time\s+([\d.e+-]+) s from process start: start-up ([\d.e+-]+) s, load ([\d.e+-]+) s, simulate ([\d.e+-]+) s \(stepping ([\d.e+-]+) s\), write ([\d.e+-]+) s$/m.exec(
        r.stdout,
      );
    expect(m, r.stdout).not.toBeNull();
    const [total, startup, load, sim, step, write] = m!.slice(1).map(Number);
    expect(startup).toBeGreaterThan(0);
    expect(total).toBeGreaterThanOrEqual((startup + load + sim + write) * 0.99);
    expect(step).toBeLessThanOrEqual(sim);
    // What the user waited: all of it but spawning and exiting (the command's own clock alone, without
    // Node's start-up and module loading, showed about half of it).
    expect(total).toBeLessThanOrEqual(waited);
    expect(total).toBeGreaterThan(0.7 * waited);
  });

  for (const precision of ['f64', 'f32'])
    test(`${precision}: the largest drift is over every step, whatever --record`, async () => {
      const maxDrift = async (record: string[]) => {
        const out = join(tempDir(), 'o');
        const r = await cli(
          'run',
          DP,
          '--duration',
          '2',
          '--precision',
          precision,
          '--copies',
          '3',
          '--robots',
          '0,2',
          '--spread',
          '0.1',
          ...record,
          '--out',
          out,
        );
        expect(r.code).toBe(0);
        const run = JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')) as {
          summary: { driftByRobot: { robot: number; maxAbs: number; scale: number }[] };
        };
        return run.summary.driftByRobot;
      };
      const every = await maxDrift(['--record', '1']);
      const sparse = await maxDrift(['--record', '97']);
      expect(sparse).toEqual(every);
      expect(every[0].maxAbs).toBeGreaterThan(0);
      // The engine's tracker against the trace itself: with every step recorded, the largest |drift|
      // column of each recorded robot is the tracked maximum (to the rounding of E − E(0) in f32).
      const out = join(tempDir(), 'o');
      await cli(
        'run',
        DP,
        '--duration',
        '2',
        '--precision',
        precision,
        '--copies',
        '3',
        '--robots',
        '0,2',
        '--spread',
        '0.1',
        '--record',
        '1',
        '--out',
        out,
      );
      const lines = readFileSync(join(out, 'trace.csv'), 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#'));
      const head = lines[0].split(',');
      const [iRobot, iDrift] = [head.indexOf('robot'), head.indexOf('drift')];
      for (const { robot, maxAbs } of every) {
        const traced = Math.max(
          ...lines
            .slice(1)
            .map((l) => l.split(','))
            .filter((c) => Number(c[iRobot]) === robot)
            .map((c) => Math.abs(Number(c[iDrift]))),
        );
        if (precision === 'f64') expect(maxAbs).toBe(traced);
        else expect(Math.abs(maxAbs - traced)).toBeLessThanOrEqual(2 ** -23 * Math.abs(traced) * 4);
      }
    });
});

describe('the summary says why the energy drifted', () => {
  const drift = (rel: number): DriftStats => ({
    robot: 0,
    final: rel,
    maxAbs: Math.abs(rel),
    scale: 1,
    finalRelative: rel,
    maxAbsRelative: Math.abs(rel),
  });

  test('contacts, dry friction and damping dissipate: a large drift in such a scene is expected', () => {
    expect(dissipation(loadScene(join(SCENES, 'box-stack.arow')))).toEqual(['contacts']);
    const box = loadScene(join(SCENES, 'spinning-box.arow'));
    expect(dissipation(box)).toEqual([]);
    expect(dissipation({ ...box, bodies: box.bodies.map((b) => ({ ...b, damping: 0.1, frictionloss: 0.2 })) })).toEqual([
      'dry friction',
      'damping',
    ]);
    const reason = driftReason({ drift: drift(-0.8), dissipation: ['contacts', 'dry friction'] }, 'euler');
    expect(reason).toBe('contacts and dry friction dissipate energy, so a drift of this size is expected: it is not an integration error.');
  });

  test('otherwise Euler is named as the cause; a small drift or a conserving integrator gets no note', () => {
    expect(driftReason({ drift: drift(0.0139), dissipation: [] }, 'euler')).toMatch(/^the Euler integrator does not conserve energy/);
    expect(driftReason({ drift: drift(0.0139), dissipation: [] }, 'rk4')).toBeNull();
    expect(driftReason({ drift: drift(1e-5), dissipation: ['contacts'] }, 'euler')).toBeNull();
    expect(driftReason({ drift: { ...drift(0), maxAbsRelative: null }, dissipation: [] }, 'euler')).toBeNull();
  });

  test('spinning-box under its default Euler: the run prints the Euler note', async () => {
    const r = await cli('run', join(SCENES, 'spinning-box.arow'), '--duration', '4', '--out', join(tempDir(), 'o'));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^note: the Euler integrator does not conserve energy/m);
  });
});
