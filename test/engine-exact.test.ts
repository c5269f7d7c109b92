// ABA against exact answers: the double pendulum's closed-form equations of motion at every
// state of a 10 s run, and the reference accelerations of the original scenes.
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { doublePendulumAccel, type DoublePendulumParams } from '../src/validation/double-pendulum-exact.js';
import { scene, sharedArow } from './helpers/engine.js';

/** The closed form's parameters, read from a two-hinge-about-X model (inertia about each pivot). */
function pendulumParams(m: ModelDesc): DoublePendulumParams {
  const [a, b] = m.bodies;
  const pivot = (x: (typeof m.bodies)[number]) => x.inertia[0] + x.mass * (x.com[1] ** 2 + x.com[2] ** 2);
  return {
    m1: a.mass,
    r1: a.com[1],
    I1: pivot(a),
    m2: b.mass,
    r2: b.com[1],
    I2: pivot(b),
    l1: b.pos[1],
    gy: m.world.gravity[1],
    gz: m.world.gravity[2],
  };
}

/** The closed form evaluated with every parameter rounded to float32: the size of the change
 *  that rounding the model's constants alone makes (the f32 engine necessarily rounds them). */
function f32ParamFloor(p: DoublePendulumParams, s: Parameters<typeof doublePendulumAccel>[1], exact: [number, number]): number {
  const r = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Math.fround(v)])) as unknown as DoublePendulumParams;
  const q = doublePendulumAccel(r, s);
  return Math.max(Math.abs(q[0] - exact[0]), Math.abs(q[1] - exact[1]));
}

describe('double pendulum against its closed-form equations of motion', () => {
  const model = loadScene(scene('double-pendulum'));
  const params = pendulumParams(model);

  for (const precision of ['f64', 'f32'] as const) {
    it(`matches at every state of a 10 s run (${precision})`, () => {
      const batch = new Batch(model, { copies: 1, precision, lanes: 1, integrator: 'rk4' });
      let worst = 0;
      let worstFloorRatio = 0;
      const steps = Math.round(10 / batch.dt);
      for (let k = 0; k <= steps; k++) {
        batch.forward();
        const s = { phi: batch.q[0], psi: batch.q[batch.stride], phiDot: batch.v[0], psiDot: batch.v[batch.stride] };
        const exact = doublePendulumAccel(params, s);
        const scale = Math.max(Math.abs(exact[0]), Math.abs(exact[1]), 1);
        const err = Math.max(Math.abs(batch.qacc[0] - exact[0]), Math.abs(batch.qacc[batch.stride] - exact[1])) / scale;
        worst = Math.max(worst, err);
        if (precision === 'f32')
          worstFloorRatio = Math.max(worstFloorRatio, err / Math.max(f32ParamFloor(params, s, exact) / scale, 2 ** -24));
        if (k < steps) batch.step(1);
      }
      if (precision === 'f64') {
        expect(worst).toBeLessThan(1e-12);
      } else {
        // float32 round-off: a few units of 2^-24 in the relative error, and within a small
        // multiple of what rounding the constants alone moves the exact answer.
        expect(worst).toBeLessThan(16 * 2 ** -24);
        expect(worstFloorRatio).toBeLessThan(16);
      }
    });
  }

  it('catches a wrong answer (the check can fail)', () => {
    const s = { phi: 0.3, psi: -0.7, phiDot: 1.1, psiDot: 0.4 };
    const exact = doublePendulumAccel(params, s);
    const wrong = doublePendulumAccel({ ...params, I2: params.I2 * 0.999 }, s);
    expect(Math.abs(wrong[1] - exact[1]) / Math.abs(exact[1])).toBeGreaterThan(1e-6);
  });
});

describe('original scenes: reference accelerations at their initial states', () => {
  const config = sharedArow('sim_config.yaml');
  const cases: [string, number[]][] = [
    ['two_joint_arm.arow', [1380134000 / 97702377, -23.0908763]],
    ['two_joint_arm_small_swing.arow', [7.06295, -11.5454381]],
    ['three_joint_arm.arow', [13.5412583, -19.6149204, 9.6031511]],
    ['asymmetric_two_joint_arm.arow', [8.33 / 0.96083, 0]],
  ];
  for (const [file, ref] of cases)
    for (const precision of ['f64', 'f32'] as const)
      it(`${file} (${precision})`, () => {
        const batch = new Batch(loadScene(sharedArow(file), { config }), { copies: 3, precision, lanes: 4 });
        batch.forward();
        const qacc = batch.getRobot(2).qacc;
        const scale = Math.max(...ref.map(Math.abs));
        // The README gives 9 significant digits (1e-9 relative on ~10); f32: float32 round-off.
        const bar = precision === 'f64' ? 5e-8 : 8 * 2 ** -24 + 5e-8;
        for (let k = 0; k < ref.length; k++) expect(Math.abs(qacc[k] - ref[k]) / scale).toBeLessThan(bar);
      });
});
