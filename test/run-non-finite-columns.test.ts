// Every column written to trace.csv is finite (issue 23): a finite state can still give an infinite
// energy (a body at z = 1e308) or sensor reading (an IMU noise of 1e308). Such a run stops like a
// diverged one: the column, robot and step on stderr, exit 1, nothing written.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkFiniteRow, NonFiniteRecordError } from '../src/run/finite-check.js';
import { cli, SCENES, tempDir } from './helpers/cli.js';

const dir = tempDir();

describe('a non-finite recorded column stops the run and writes nothing', () => {
  test('a body at z = 1e308: its potential energy overflows', async () => {
    const scene = join(dir, 'far.arow');
    writeFileSync(
      scene,
      'scene: far\nworld: { gravity: [0, 0, -9.81], dt: 0.002, duration: 0.1 }\nlinks:\n' +
        '  - name: rock\n    parent: world\n    joint: { type: free }\n    mass: 1\n    inertia: [0.1, 0.1, 0.1]\n' +
        '    initial: { position: [0, 0, 1e308, 0, 0, 0] }\n',
    );
    const out = join(dir, 'far-out');
    const r = await cli('run', scene, '--out', out);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(
      "the recorded column 'potential' is non-finite at step 0 (t = 0.000000 s), robot 0, while the state is finite (the energy overflows",
    );
    expect(r.stderr).toContain('no output files were written');
    expect(existsSync(out)).toBe(false);
  });

  test('an IMU noise of 1e308: its readings overflow', async () => {
    const scene = join(dir, 'imu.arow');
    const text = readFileSync(join(SCENES, 'sensor-pendulum.arow'), 'utf8').replace('accel_noise: 0.05 }', 'accel_noise: 1e308 }');
    expect(text).toContain('accel_noise: 1e308');
    writeFileSync(scene, text);
    const out = join(dir, 'imu-out');
    const r = await cli('run', scene, '--duration', '0.5', '--out', out);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      /the recorded column 'sensor:tip-imu\.a[xyz]' is non-finite at step \d+ \(t = [\d.]+ s\), robot 0, while the state is finite \(the sensor's reading overflows/,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('checkFiniteRow', () => {
  test('names the first non-finite column, robot and step', () => {
    const columns = ['step', 'time', 'robot', 'q:a', 'kinetic', 'qacc:a', 'force:m', 'sensor:s'];
    expect(() => checkFiniteRow(columns, [3, 0.006, 1, 0.5, 2, 1, 0, 0.1], 3, 0.006, 1)).not.toThrow();
    for (const [i, why] of [
      [4, /energy overflows/],
      [5, /acceleration at this state overflows/],
      [6, /actuator's force overflows/],
      [7, /sensor's reading overflows/],
    ] as const) {
      const row = [3, 0.006, 1, 0.5, 2, 1, 0, 0.1];
      row[i] = i % 2 ? -Infinity : NaN;
      let err: unknown;
      try {
        checkFiniteRow(columns, row, 3, 0.006, 1);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(NonFiniteRecordError);
      const e = err as NonFiniteRecordError;
      expect([e.column, e.robot, e.step]).toEqual([columns[i], 1, 3]);
      expect(e.message).toMatch(why);
    }
  });
});
