// Energy over 10 s at 2 ms for the double pendulum released from horizontal, per integrator:
// the drift must rank as the integrators' orders say.
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import type { IntegratorName } from '../src/engine/model-desc.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { doublePendulumEnergy } from '../src/validation/double-pendulum-exact.js';
import { scene } from './helpers/engine.js';

function maxDrift(integrator: IntegratorName): number {
  const batch = new Batch(loadScene(scene('double-pendulum')), { copies: 1, precision: 'f64', lanes: 1, integrator });
  const e0 = batch.energy().total[0];
  let worst = 0;
  for (let k = 0; k < 5000; k++) {
    batch.step(1);
    worst = Math.max(worst, Math.abs(batch.energy().total[0] - e0));
  }
  return worst;
}

describe('energy drift per integrator (double pendulum, 10 s at 2 ms, from horizontal)', () => {
  const drift = Object.fromEntries((['euler', 'verlet', 'midpoint', 'rk4'] as const).map((i) => [i, maxDrift(i)])) as Record<
    IntegratorName,
    number
  >;

  it('semi-implicit Euler drifts most', () => {
    for (const i of ['verlet', 'midpoint', 'rk4'] as const) expect(drift.euler).toBeGreaterThan(drift[i]);
    expect(drift.euler).toBeGreaterThan(1e-2);
  });
  it('velocity Verlet drifts about half as much as Euler', () => {
    expect(drift.verlet / drift.euler).toBeGreaterThan(0.2);
    expect(drift.verlet / drift.euler).toBeLessThan(0.8);
  });
  it('implicit midpoint and RK4 drift orders of magnitude less; RK4 about 1e-4 J', () => {
    expect(drift.midpoint).toBeLessThan(drift.euler / 100);
    expect(drift.rk4).toBeLessThan(drift.euler / 100);
    expect(drift.rk4).toBeLessThan(1e-3);
  });
  it('the engine energy equals the closed-form energy', () => {
    const model = loadScene(scene('double-pendulum'));
    const batch = new Batch(model, { copies: 1, precision: 'f64', lanes: 1, integrator: 'rk4' });
    batch.step(321);
    const e = batch.energy();
    const [a, b] = model.bodies;
    const pivot = (x: typeof a) => x.inertia[0] + x.mass * (x.com[1] ** 2 + x.com[2] ** 2);
    const p = { m1: a.mass, r1: a.com[1], I1: pivot(a), m2: b.mass, r2: b.com[1], I2: pivot(b), l1: b.pos[1], gy: 0, gz: -9.81 };
    const exact = doublePendulumEnergy(p, {
      phi: batch.q[0],
      psi: batch.q[batch.stride],
      phiDot: batch.v[0],
      psiDot: batch.v[batch.stride],
    });
    expect(Math.abs(e.kinetic[0] - exact.kinetic)).toBeLessThan(1e-12 * (1 + Math.abs(exact.kinetic)));
    expect(Math.abs(e.potential[0] - exact.potential)).toBeLessThan(1e-12 * (1 + Math.abs(exact.potential)));
  });
  it('prints the drifts', () => {
    console.log('max |ΔE| over 10 s (J):', drift);
    expect(Object.values(drift).every(Number.isFinite)).toBe(true);
  });
});
