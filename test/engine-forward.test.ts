// Batch.forward() gives the acceleration the step integrates (MuJoCo's mj_forward: constraints
// solved), and forwardUnconstrained() the smooth one (MuJoCo's qacc_smooth). Checked with an
// explicit Euler step, whose velocity update is v + dt·q̈ with the q̈ of the state it starts from.
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { loadScene } from '../src/model-files/scene/index.js';

const maxAbs = (xs: readonly number[]) => Math.max(...xs.map(Math.abs));
const maxDiff = (a: readonly number[], b: readonly number[]) => Math.max(...a.map((x, k) => Math.abs(x - b[k])));

describe('forward(): the acceleration the step integrates', () => {
  it('box stack resting on contacts: one Euler step moves v by exactly dt·qacc of forward()', () => {
    const model = loadScene('scenes/box-stack.arow'); // no joint damping: Euler is v + dt·q̈
    const b = new Batch(model, { copies: 3, precision: 'f64', lanes: 4, integrator: 'euler', substeps: 1 });
    b.step(200); // the boxes have landed: contacts active, warm start in use
    b.forward();
    const before = b.getRobot(1);
    b.forwardUnconstrained();
    const smooth = b.getRobot(1).qacc;
    b.forward(); // forwardUnconstrained() must not disturb what the step does next
    b.step(1);
    const after = b.getRobot(1);
    const integrated = after.v.map((v, k) => (v - before.v[k]) / b.dt);
    // The step used forward()'s qacc to round-off of (v + dt·a − v) / dt...
    expect(maxDiff(integrated, before.qacc)).toBeLessThan(1e-9 * Math.max(1, maxAbs(before.qacc)));
    // ...and the step also stored it as qacc.
    expect(maxDiff(after.qacc, before.qacc)).toBe(0);
    // The smooth acceleration is free fall (g on every box's z), far from what the step used.
    for (let i = 0; i < 5; i++) expect(smooth[i * 6 + 2]).toBeCloseTo(-9.81, 12);
    expect(maxDiff(smooth, before.qacc)).toBeGreaterThan(5);
  });

  it('humanoid legs on their joint and tendon limits (no contacts): the same, at every step of a run', () => {
    // Damping removed: with it, Euler solves (M + dt·D) q̈ = f + Jᵀλ, as MuJoCo's mj_Euler after mj_forward.
    const m = loadScene('test/fixtures/import/mjcf-tendon-hipknee.xml');
    const model = {
      ...m,
      bodies: m.bodies.map((x) => ({ ...x, damping: 0 })),
      tendons: (m.tendons ?? []).map((t) => ({ ...t, damping: 0 })),
    };
    expect(model.shapes?.length ?? 0).toBe(0);
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1, integrator: 'euler', substeps: 1 });
    let worst = 0;
    let apart = 0;
    for (let k = 0; k < 200; k++) {
      b.forwardUnconstrained();
      const smooth = b.getRobot(0).qacc;
      b.forward();
      const before = b.getRobot(0);
      b.step(1);
      const v = b.getRobot(0).v;
      const scale = Math.max(1, maxAbs(before.qacc));
      worst = Math.max(
        worst,
        maxDiff(
          v.map((x, i) => (x - before.v[i]) / b.dt),
          before.qacc,
        ) / scale,
      );
      apart = Math.max(apart, maxDiff(smooth, before.qacc) / scale);
    }
    expect(worst).toBeLessThan(1e-9);
    expect(apart).toBeGreaterThan(0.1); // the limits act: the smooth acceleration is not what was integrated
  });

  it('constrain() and forward() fill the same qacc; a model without constraints gets the smooth one from both', () => {
    const stack = new Batch(loadScene('scenes/box-stack.arow'), { copies: 1, precision: 'f64', lanes: 1 });
    stack.step(100);
    stack.constrain();
    const solved = stack.getRobot(0).qacc;
    stack.forward();
    expect(stack.getRobot(0).qacc).toEqual(solved);

    const arm = new Batch(loadScene('scenes/arm7.arow'), { copies: 1, precision: 'f64', lanes: 1 });
    arm.setRobot(0, { v: [0.3, -1.2, 0.5, 2, -0.4, 0.1, 0.7] });
    arm.forward();
    const a = arm.getRobot(0).qacc;
    arm.forwardUnconstrained();
    expect(arm.getRobot(0).qacc).toEqual(a);
  });
});
