// Sensors (src/sensors/): the scene's `sensors:` list, the IMU against a closed form, the camera's
// schedule, and determinism: a robot's readings are bit-identical whatever the batch size, lane
// width or thread count, and reproducible from the seed.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import type { LaneWidth, Precision } from '../src/engine/api.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { SensorBank } from '../src/sensors/index.js';
import { cutoffOfPole, lowPassGain, lowPassPole } from '../src/sensors/filter.js';
import { cli, ROOT, SCENES, tempDir as cliTemp } from './helpers/cli.js';
import { laneCells } from './helpers/lanes.js';
import { expectSceneError, tempDir, write } from './helpers/scene.js';

const PENDULUM = join(SCENES, 'sensor-pendulum.arow');

function readings(precision: Precision, lanes: LaneWidth, copies: number, threads: number, seed: number, steps: number): Float64Array[] {
  const model = loadScene(PENDULUM);
  const b = new Batch(model, { copies, precision, lanes, threads });
  for (let r = 0; r < copies; r++) b.setRobot(r, { q: [-0.5 - 0.1 * r] });
  const bank = new SensorBank(b, model.sensors!, { seed });
  bank.update();
  const out: Float64Array[] = [];
  for (let k = 0; k < steps; k++) {
    b.step(1);
    bank.update();
    // robots 0..4 of every channel
    const d = bank.readings;
    out.push(Float64Array.from(d.channels.flatMap((_, c) => [0, 1, 2, 3, 4].map((r) => d.data[c * d.stride + r]))));
  }
  return out;
}

describe('sensors: scene', () => {
  it('reads the sensors list with its defaults', () => {
    const m = loadScene(PENDULUM);
    expect(m.sensors!.map((s) => `${s.kind}:${s.name}`)).toEqual([
      'encoder:white-noise',
      'encoder:drift',
      'encoder:low-pass',
      'encoder:scale-factor',
      'encoder:combined',
      'imu:tip-imu',
      'camera:tip-camera',
    ]);
    expect(m.sensors![4]).toMatchObject({
      body: 0,
      coordinate: 0,
      noise: 0.02,
      drift: { sigma: 0.1, tau: 2 },
      cutoff: 5,
      scale: 0.03,
      quantum: 0.005,
    });
    expect(m.sensors![6]).toMatchObject({ body: 0, pos: [0, 1, 0], rate: 30, latency: 0.05, noise: 0.002 });
  });

  const scene = (sensor: string) =>
    `scene: s\nlinks:\n  - { name: rod, parent: world, joint: { type: revolute, axis: [1, 0, 0] }, mass: 1, inertia: [1, 1, 1] }\nsensors:\n  - ${sensor}\n`;
  it.each([
    ['{ name: e, kind: encoder, joint: rdo }', 5, 38, /`rdo`, which is not a link.*did you mean `rod`/],
    ['{ name: e, kind: encoder, joint: rod, noize: 1 }', 5, 43, /unknown key `noize`.*did you mean `noise`/],
    ['{ name: c, kind: camera, body: rod, latency: 0.05 }', 5, 5, /sensors\[0\] \(c\): found no `rate` key/],
    ['{ name: e, kind: gps, joint: rod }', 5, 22, /`gps`.*one of `encoder`, `imu`, `camera`/],
    ['{ name: e, kind: encoder, joint: rod, noise: -1 }', 5, 50, /-1.*a number >= 0/],
    ['{ name: e, kind: encoder, joint: rod, drift: { sigma: 1 } }', 5, 50, /no `tau` key/],
  ])('%s is an error at its node', (sensor, line, col, pattern) => {
    const f = write(tempDir(), 's.arow', scene(sensor));
    expectSceneError(() => loadScene(f), line, col, pattern);
  });
});

describe('sensors: models', () => {
  it('the low-pass filter is −3 dB at its cutoff exactly, at any dt', () => {
    for (const [fc, dt] of [
      [5, 0.002],
      [40, 0.002],
      [100, 0.004],
      [0.3, 0.01],
    ]) {
      const p = lowPassPole(fc, dt);
      // |H|² = α²/(1 − 2p cos θ + p²): the denominator ≈ 2(1 − p)² is formed from O(1) terms, so its
      // float64 round-off is ~1e-16/(1 − p)² relative (1e-13 at the smallest θ here)
      expect(Math.abs(lowPassGain(p, fc, dt) - Math.SQRT1_2)).toBeLessThan(1e-12);
      expect(Math.abs(cutoffOfPole(p, dt) - fc) / fc).toBeLessThan(1e-9);
    }
    expect(() => lowPassPole(300, 0.002)).toThrow(/below|< 250 Hz/);
  });

  it('the IMU at the tip of a swinging rod reads the closed form (gyro θ̇ on x; accelerometer −θ̇² + g sin θ along the rod, θ̈ + g cos θ across it)', () => {
    const model = loadScene(PENDULUM);
    model.sensors = model.sensors!.filter((s) => s.kind === 'imu').map((s) => ({ ...s, gyroNoise: 0, accelNoise: 0 }));
    const states = [
      [0.3, 1.7],
      [-1.2, -0.4],
      [2.5, 3.1],
      [-0.5707963267948966, 0],
    ];
    const b = new Batch(model, { copies: states.length, precision: 'f64', lanes: 1 });
    states.forEach(([q, v], r) => b.setRobot(r, { q: [q], v: [v] }));
    const bank = new SensorBank(b, model.sensors, { seed: 0 });
    bank.update();
    const g = 9.81;
    states.forEach(([q, v], r) => {
      const qdd = -1.5 * g * Math.cos(q); // uniform 1 m rod about its end: I = m L²/3, torque −m g (L/2) cos θ
      const want = [v, 0, 0, 0, -v * v + g * Math.sin(q), qdd + g * Math.cos(q)];
      const got = [0, 1, 2, 3, 4, 5].map((c) => bank.readings.data[c * b.stride + r]);
      got.forEach((x, c) => expect(Math.abs(x - want[c]), `robot ${r} channel ${c}`).toBeLessThan(1e-12));
    });
  });

  it('the IMU on a spinning free body in free fall reads zero proper acceleration at its centre of mass, α × p + ω × (ω × p) off it (free-joint path)', () => {
    const I = [0.3, 0.5, 0.7];
    const w = [0.7, -1.3, 2.1];
    const p: [number, number, number] = [0.2, -0.1, 0.3];
    const model = {
      name: 'spinner',
      bodies: [
        {
          name: 'box',
          parent: -1,
          pos: [0, 0, 0],
          quat: [1, 0, 0, 0],
          joint: 'free',
          axis: [0, 0, 1],
          mass: 2,
          com: [0, 0, 0],
          inertia: [...I, 0, 0, 0],
          q0: [0.1, 0.2, 0.3, 0.9, 0.1, -0.3, 0.3],
          v0: [1, -2, 0.5, ...w],
          tau: [0, 0, 0, 0, 0, 0],
        },
      ],
      world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'euler', duration: 1, substeps: 1 },
      files: [],
      sensors: [
        { kind: 'imu', name: 'at-com', body: 0, pos: [0, 0, 0], gyroNoise: 0, accelNoise: 0 },
        { kind: 'imu', name: 'off', body: 0, pos: p, gyroNoise: 0, accelNoise: 0 },
      ],
    } as unknown as import('../src/engine/model-desc.js').ModelDesc;
    const n = Math.hypot(0.9, 0.1, -0.3, 0.3);
    model.bodies[0].q0 = [0.1, 0.2, 0.3, 0.9 / n, 0.1 / n, -0.3 / n, 0.3 / n];
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    const bank = new SensorBank(b, model.sensors!, { seed: 0 });
    bank.update();
    const ch = (name: string) => bank.readings.channel(name)[0];
    const cross = (a: number[], c: number[]) => [a[1] * c[2] - a[2] * c[1], a[2] * c[0] - a[0] * c[2], a[0] * c[1] - a[1] * c[0]];
    // Euler's equations, torque-free: I α = −ω × I ω (principal axes = body axes)
    const Iw = w.map((x, k) => I[k] * x);
    const alpha = cross(w, Iw).map((x, k) => -x / I[k]);
    const want = cross(alpha, p).map((x, k) => x + cross(w, cross(w, p))[k]);
    for (const [k, a] of ['x', 'y', 'z'].entries()) {
      expect(Math.abs(ch(`at-com.g${a}`) - w[k])).toBeLessThan(1e-14);
      expect(Math.abs(ch(`at-com.a${a}`))).toBeLessThan(1e-13);
      expect(Math.abs(ch(`off.a${a}`) - want[k])).toBeLessThan(1e-13);
    }
  });

  it('the camera shows nothing before its latency, then frames captured 30 times a second, 25 steps late', () => {
    const model = loadScene(PENDULUM);
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    const bank = new SensorBank(b, model.sensors!, { seed: 3 });
    const stamp = bank.readings.channel('tip-camera.stamp');
    const seen: [number, number][] = [];
    bank.update();
    for (let k = 0; k <= 120; k++) {
      if (k > 0) {
        b.step(1);
        bank.update();
      }
      if (!seen.length || seen[seen.length - 1][1] !== stamp[0]) seen.push([k, stamp[0]]);
    }
    // frame n captured at round(n · 16.67) steps, visible 25 steps later
    expect(seen).toEqual(
      [
        [0, -1],
        [25, 0],
        [42, 0.034],
        [58, 0.066],
        [75, 0.1],
        [92, 0.134],
        [108, 0.166],
      ].map(([k, t]) => [k, t === -1 ? -1 : expect.closeTo(t, 12)]),
    );
  });

  it('readings are updated after every step and start at step 0', () => {
    const model = loadScene(PENDULUM);
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    const bank = new SensorBank(b, model.sensors!, { seed: 0 });
    b.step(1);
    expect(() => bank.update()).toThrow(/sensors start at step 0/);
    const b2 = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    const bank2 = new SensorBank(b2, model.sensors!, { seed: 0 });
    bank2.update();
    b2.step(2);
    expect(() => bank2.update()).toThrow(/after every step: last read at step 0, now at step 2/);
  });
});

describe('sensors: determinism', () => {
  const ref = readings('f64', 1, 5, 1, 7, 60);
  for (const c of laneCells()) {
    it.skipIf(c.skip !== null)(
      `robots 0..4 read the same bits at ${c.precision} × ${c.lanes} lanes, 13 copies, 2 threads as at 5 copies scalar (same precision)`,
      () => {
        const base = c.precision === 'f64' ? ref : readings('f32', 1, 5, 1, 7, 60);
        const got = readings(c.precision, c.lanes, 13, 2, 7, 60);
        got.forEach((row, k) => expect(Buffer.from(row.buffer).equals(Buffer.from(base[k].buffer)), `step ${k + 1}`).toBe(true));
      },
    );
  }
  it('the same seed reproduces a run, another seed draws other noise', () => {
    const again = readings('f64', 1, 5, 1, 7, 60);
    expect(again.every((row, k) => Buffer.from(row.buffer).equals(Buffer.from(ref[k].buffer)))).toBe(true);
    const other = readings('f64', 1, 5, 1, 8, 60);
    expect(other.some((row, k) => !Buffer.from(row.buffer).equals(Buffer.from(ref[k].buffer)))).toBe(true);
  });
});

describe('sensors: planted bugs', () => {
  it('only the validation sweep switches them (no other module imports the switch)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
      );
    const users = files(join(ROOT, 'src'))
      .filter((f) => readFileSync(f, 'utf8').includes('setPlantedSensorBug'))
      .map((f) => f.slice(ROOT.length + 1));
    expect(users.sort()).toEqual(['src/sensors/planted-bugs.ts', 'src/validation/sensors/definition.ts']);
  });
});

describe('sensors: run', () => {
  it('achilles run records every sensor channel and charts them', async () => {
    const out = join(cliTemp(), 'run');
    const r = await cli('run', PENDULUM, '--duration', '0.2', '--out', out, '--seed', '5');
    expect(r.code, r.stderr).toBe(0);
    const trace = readFileSync(join(out, 'trace.csv'), 'utf8');
    expect(trace).toMatch(/# sensor_seed: 5/);
    const header = trace.split('\n').find((l) => l.startsWith('step,'))!;
    expect(header).toMatch(
      /,sensor:white-noise,sensor:drift,sensor:low-pass,sensor:scale-factor,sensor:combined,sensor:tip-imu.gx,.*sensor:tip-camera.stamp$/,
    );
    expect(readdirSync(out)).toContain('sensors.svg');
  });
});

describe('sensors: validation stage (shortened runs)', () => {
  const o = { seed: 1, steps: 3000, atRestRobots: 64, pendulumRobots: 16 };
  it('passes on the real sensors, and each planted sensor bug fails the gate meant to catch it', async () => {
    const { sensorRows } = await import('../src/validation/sensors/stage.js');
    const { setPlantedSensorBug } = await import('../src/sensors/planted-bugs.js');
    const { engineAddon } = await import('../src/engine/native.js');
    const failed = () =>
      sensorRows('f64', engineAddon(), o)
        .filter((r) => r.status === 'fail')
        .map((r) => r.field);
    expect(failed()).toEqual([]);
    try {
      setPlantedSensorBug('sensor-latency-off-by-one');
      expect(failed()).toEqual(['camera latency (steps)']);
      setPlantedSensorBug('noise-stream-shared-between-lanes');
      // (with 8 robots per stream the samples are no longer independent: other bars may fail too)
      expect(failed()).toContain('adjacent robots: noise correlation');
    } finally {
      setPlantedSensorBug('none');
    }
  });
});
