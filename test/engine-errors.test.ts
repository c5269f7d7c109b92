// Invariant violations and divergence become clear JavaScript errors, never a crash.
import { describe, expect, it } from 'vitest';
import { Batch, NonFiniteStateError, toNativeModel } from '../src/engine/batch.js';
import { engineAddon } from '../src/engine/native.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { scene } from './helpers/engine.js';
import { cellTitle, laneCells } from './helpers/lanes.js';

describe('divergence is reported with the step, robot and joint', () => {
  for (const c of laneCells()) {
    const { precision, lanes } = c;
    it.skipIf(c.skip !== null)(cellTitle(`detects a NaN or infinite state at ${precision} × ${lanes} lanes`, c), () => {
      const b = new Batch(loadScene(scene('double-pendulum')), { copies: 21, precision, lanes });
      b.setRobot(19, { v: [Number.NaN, 0] });
      expect(b.stepRaw(5).nonFinite).toEqual({ step: 1, robot: 19, joint: 'upper' });
      b.reset();
      b.setRobot(2, { q: [0, Number.POSITIVE_INFINITY] });
      expect(b.stepRaw(5).nonFinite?.robot).toBe(2);
    });
  }

  it('names the first non-finite step, robot and joint', () => {
    const model = loadScene(scene('double-pendulum'));
    const b = new Batch(model, { copies: 6, precision: 'f32', lanes: 4, integrator: 'euler', dt: 0.002 });
    b.setRobot(4, { v: [1e30, -1e30] });
    let err: unknown;
    try {
      b.step(100);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NonFiniteStateError);
    const e = err as NonFiniteStateError;
    expect(e.robot).toBe(4);
    expect(e.step).toBeGreaterThanOrEqual(1);
    expect(e.step).toBeLessThanOrEqual(3);
    expect(['upper', 'lower']).toContain(e.joint);
    expect(e.message).toMatch(/step \d+ .*robot 4, joint '(upper|lower)'/);
  });

  it('counts only finite robot-steps', () => {
    const b = new Batch(loadScene(scene('double-pendulum')), { copies: 3, precision: 'f64', lanes: 1 });
    b.setRobot(1, { v: [Number.NaN, 0] });
    const r = b.stepRaw(10);
    expect(r.nonFinite?.robot).toBe(1);
    expect(r.nonFinite?.step).toBe(1);
    expect(r.robotSteps).toBe(20);
  });
});

describe('bad requests become errors with a message', () => {
  const model = loadScene(scene('arm7'));
  it('rejects an impossible lane width', () => {
    expect(() => new Batch(model, { copies: 1, lanes: 3 as never })).toThrow(/lanes must be one of 1, 4, 8, 16/);
  });
  it('rejects a bad integrator, precision, dt, copies', () => {
    expect(() => new Batch(model, { copies: 1, integrator: 'rk5' as never })).toThrow(
      /integrator must be one of euler, verlet, midpoint, rk4/,
    );
    expect(() => new Batch(model, { copies: 1, precision: 'f16' as never })).toThrow(/precision must be one of f32, f64/);
    expect(() => new Batch(model, { copies: 1, dt: -1 })).toThrow(/dt must be a positive/);
    expect(() => new Batch(model, { copies: 0 })).toThrow(/copies must be an integer/);
  });
  it('the default lane width is the widest this CPU runs at the requested precision', () => {
    // An AVX2-only CPU (this project's CI): f32 runs 8 wide, f64 only 4 (8 f64 lanes need AVX-512).
    const seen: object[] = [];
    const fake = {
      cpuInfo: () => ({ sse2: true, avx2: true, avx512: false, widestLanes: 8, compiler: 'fake' }),
      isBugBuild: false,
      storageBytes: () => 0,
      NativeBatch: class {
        constructor(_m: object, o: object) {
          seen.push(o);
        }
        info = () => ({ stride: 16, nq: 7, nv: 7, isa: 'fake', steps: 0 });
        field = () => new Float64Array(16 * 7);
      },
    } as never;
    expect(new Batch(model, { copies: 1, precision: 'f64' }, fake).lanes).toBe(4);
    expect(new Batch(model, { copies: 1, precision: 'f32' }, fake).lanes).toBe(8);
    expect(() => new Batch(model, { copies: 1, precision: 'f64', lanes: 8 }, fake)).toThrow(
      /lanes: 8 lanes of f64 need AVX-512, which this CPU lacks \(it runs f64 at lanes 1, 4\)/,
    );
    expect(seen).toHaveLength(2);
    // And on this machine the default runs.
    for (const precision of ['f32', 'f64'] as const) expect(() => new Batch(model, { copies: 3, precision }).step(2)).not.toThrow();
  });
  it('the native model check names the joint and the problem', () => {
    const bad = toNativeModel({ ...model, bodies: model.bodies.map((b, i) => (i === 2 ? { ...b, mass: -1 } : b)) });
    expect(
      () =>
        new (engineAddon().NativeBatch)(bad, {
          precision: 'f32',
          lanes: 1,
          copies: 1,
          integrator: 'euler',
          dt: 0.002,
          substeps: 1,
          midpointIterations: 4,
          threads: 1,
        }),
    ).toThrow(/joint 'link3': mass must be >= 0/);
    // a massless leaf gives its joint no inertia: refused when the model is built, never at step time
    const leaf = toNativeModel({
      ...model,
      bodies: model.bodies.map((b, i) => (i === 6 ? { ...b, mass: 0, inertia: [0, 0, 0, 0, 0, 0] } : b)),
    });
    expect(
      () =>
        new (engineAddon().NativeBatch)(leaf, {
          precision: 'f32',
          lanes: 1,
          copies: 1,
          integrator: 'euler',
          dt: 0.002,
          substeps: 1,
          midpointIterations: 4,
          threads: 1,
        }),
    ).toThrow(/joint 'link7': it and every link below it are massless/);
    const wrongCount = toNativeModel({ ...model, bodies: model.bodies.map((b, i) => (i === 0 ? { ...b, q0: [0, 1] } : b)) });
    expect(
      () =>
        new (engineAddon().NativeBatch)(wrongCount, {
          precision: 'f32',
          lanes: 1,
          copies: 1,
          integrator: 'euler',
          dt: 0.002,
          substeps: 1,
          midpointIterations: 4,
          threads: 1,
        }),
    ).toThrow(/q0 has 2 numbers, expected 1/);
  });
  it('native C++ checks pass (SIMD maths, arena overflow, island sums bit for bit, mask exclusive or, PGS sweep orders)', async () => {
    const { execFileAsync } = await import('./helpers/spawn-async.js'); // awaited: the worker's loop keeps turning (issue 23)
    const { root } = await import('./helpers/engine.js');
    const out = await execFileAsync(`${root}/build/native/achilles_native_tests`);
    expect(out).toMatch(/\b9 passed, 0 failed/);
  });
});

describe('a free body conserves angular momentum and energy', () => {
  /** Worst relative drift of |L_W| and of E over the scene's duration at time step dt, and whether the box flipped. */
  function spin(dt: number) {
    const model = loadScene(scene('spinning-box'));
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1, integrator: 'rk4', dt });
    const I = model.bodies[0].inertia;
    const momentum = () => {
      const s = b.getRobot(0);
      const [w, x, y, z] = s.q.slice(3, 7);
      const R = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
      ];
      const om = s.v.slice(3, 6);
      const Ib = [
        I[0] * om[0] + I[3] * om[1] + I[4] * om[2],
        I[3] * om[0] + I[1] * om[1] + I[5] * om[2],
        I[4] * om[0] + I[5] * om[1] + I[2] * om[2],
      ];
      return R.map((row) => row[0] * Ib[0] + row[1] * Ib[1] + row[2] * Ib[2]); // L_W = R_WB I ω_B
    };
    const L0 = momentum();
    const E0 = b.energy().total[0];
    const omega0 = b.getRobot(0).v.slice(3, 6);
    let worstL = 0;
    let worstE = 0;
    let flipped = false;
    const every = Math.round(0.01 / dt);
    for (let t = 0; t < model.world.duration; t += every * dt) {
      b.step(every);
      const L = momentum();
      worstL = Math.max(worstL, Math.hypot(L[0] - L0[0], L[1] - L0[1], L[2] - L0[2]) / Math.hypot(...L0));
      worstE = Math.max(worstE, Math.abs(b.energy().total[0] - E0) / Math.abs(E0));
      if (Math.sign(b.getRobot(0).v[4]) !== Math.sign(omega0[1])) flipped = true;
    }
    return { worstL, worstE, flipped };
  }

  it('spinning box: the intermediate-axis flip happens; |L| and E drift only by truncation', () => {
    const coarse = spin(0.001);
    const fine = spin(0.0005);
    expect(coarse.flipped).toBe(true); // the Dzhanibekov instability really shows
    expect(coarse.worstL).toBeLessThan(1e-5);
    expect(coarse.worstE).toBeLessThan(1e-5);
    // Truncation, not a bug: halving dt divides the drift by about 4 or more. RK4 as MuJoCo
    // defines it (one exponential of the weighted sum of stage body velocities) is second order
    // on orientations, fourth order on everything else; a bug would not shrink with dt.
    expect(fine.worstL).toBeLessThan(coarse.worstL / 3);
    expect(fine.worstE).toBeLessThan(coarse.worstE / 3);
  });
});
