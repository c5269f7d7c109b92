import { describe, expect, it } from 'vitest';
import {
  doublePendulumAccel,
  doublePendulumEnergy,
  doublePendulumMassMatrix,
  doublePendulumRhs,
  type DoublePendulumParams,
  type DoublePendulumState,
} from '../src/validation/double-pendulum-exact.js';
import { rng } from './helpers/engine.js';

// two_joint_arm (shared/achilles-arow/README.md §4): gravity 9.8 along +Z.
const ARM: DoublePendulumParams = { m1: 1.0, r1: 0.3, I1: 0.18083, m2: 0.4, r2: 0.375, I2: 0.07238, l1: 1, gy: 0, gz: 9.8 };
const REST: DoublePendulumState = { phi: 0, psi: 0, phiDot: 0, psiDot: 0 };

function randomCase(r: () => number): { p: DoublePendulumParams; s: DoublePendulumState; tau: [number, number] } {
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();
  const m1 = u(0.2, 3);
  const m2 = u(0.2, 3);
  const r1 = u(0.05, 1);
  const r2 = u(0.05, 1);
  const ga = u(-Math.PI, Math.PI);
  const gm = u(0, 20);
  return {
    // Physical inertias: I about the pivot = I_cm + m r², with I_cm > 0.
    p: {
      m1,
      r1,
      I1: m1 * r1 * r1 + u(0.01, 0.5),
      m2,
      r2,
      I2: m2 * r2 * r2 + u(0.01, 0.5),
      l1: u(0.2, 1.5),
      gy: gm * Math.cos(ga),
      gz: gm * Math.sin(ga),
    },
    s: { phi: u(-4, 4), psi: u(-4, 4), phiDot: u(-5, 5), psiDot: u(-5, 5) },
    tau: [u(-3, 3), u(-3, 3)],
  };
}

type Vec2 = [number, number];
const uVec = (t: number): Vec2 => [Math.cos(t), Math.sin(t)];
const uPerp = (t: number): Vec2 => [-Math.sin(t), Math.cos(t)];

/**
 * The Lagrangian, built independently of the module's closed form: CoM
 * kinematics with inertia about each CoM (I_cm = I_pivot − m r²), rather than
 * the pivot-referenced P/Q/R terms the module uses.
 */
function lagrangian(p: DoublePendulumParams, q: Vec2, qd: Vec2): { T: number; V: number } {
  const [phi, psi] = q;
  const [phid, psid] = qd;
  const c1 = uVec(phi).map((x) => p.r1 * x);
  const c2 = [0, 1].map((k) => p.l1 * uVec(phi)[k] + p.r2 * uVec(phi + psi)[k]);
  const v1 = uPerp(phi).map((x) => p.r1 * phid * x);
  const v2 = [0, 1].map((k) => p.l1 * phid * uPerp(phi)[k] + p.r2 * (phid + psid) * uPerp(phi + psi)[k]);
  const w1 = phid;
  const w2 = phid + psid;
  const T =
    0.5 * p.m1 * (v1[0] ** 2 + v1[1] ** 2) +
    0.5 * (p.I1 - p.m1 * p.r1 ** 2) * w1 ** 2 +
    0.5 * p.m2 * (v2[0] ** 2 + v2[1] ** 2) +
    0.5 * (p.I2 - p.m2 * p.r2 ** 2) * w2 ** 2;
  const V = -p.m1 * (p.gy * c1[0] + p.gz * c1[1]) - p.m2 * (p.gy * c2[0] + p.gz * c2[1]);
  return { T, V };
}

const L = (p: DoublePendulumParams, q: Vec2, qd: Vec2) => {
  const { T, V } = lagrangian(p, q, qd);
  return T - V;
};
const add = (a: Vec2, b: Vec2, s = 1): Vec2 => [a[0] + s * b[0], a[1] + s * b[1]];
const e = (i: number, h: number): Vec2 => (i === 0 ? [h, 0] : [0, h]);

/** ∂L/∂q̇ by central differences. L is exactly quadratic in q̇, so a large step is exact up to rounding. */
function momentum(p: DoublePendulumParams, q: Vec2, qd: Vec2): Vec2 {
  const h = 0.5;
  return [0, 1].map((i) => (L(p, q, add(qd, e(i, h))) - L(p, q, add(qd, e(i, -h)))) / (2 * h)) as Vec2;
}

function relErr(a: number, b: number, scale: number): number {
  return Math.abs(a - b) / scale;
}

describe('double pendulum closed form: README §4 reference values', () => {
  it('reproduces M and b at the initial two_joint_arm state', () => {
    const [m11, m12, m22] = doublePendulumMassMatrix(ARM, 0);
    expect(m11).toBeCloseTo(0.95321, 14);
    expect(m12).toBeCloseTo(0.22238, 14);
    expect(m22).toBeCloseTo(0.07238, 14);
    expect(m11 * m22 - m12 * m12).toBeCloseTo(0.0195404754, 12);
    const [b1, b2] = doublePendulumRhs(ARM, REST);
    expect(b1).toBeCloseTo(8.33, 13);
    expect(b2).toBeCloseTo(1.47, 13);
  });

  it('gives φ̈ = 14.1258999, ψ̈ = −23.0908763 and the exact fraction 1380134000/97702377', () => {
    const [a1, a2] = doublePendulumAccel(ARM, REST);
    expect(Math.abs(a1 - 14.1258999)).toBeLessThan(5e-8);
    expect(Math.abs(a2 - -23.0908763)).toBeLessThan(5e-8);
    expect(relErr(a1, 1380134000 / 97702377, 14)).toBeLessThan(1e-14);
    // ψ̈ = (M11·b2 − M12·b1)/det, in exact decimals: (0.95321·1.47 − 0.22238·8.33)/0.0195404754.
    expect(relErr(a2, (0.95321 * 1.47 - 0.22238 * 8.33) / 0.0195404754, 23)).toBeLessThan(1e-14);
  });

  it('gives exactly half at φ = 60° (two_joint_arm_small_swing)', () => {
    const [a1, a2] = doublePendulumAccel(ARM, { ...REST, phi: Math.PI / 3 });
    expect(Math.abs(a1 - 7.06295)).toBeLessThan(5e-8);
    expect(Math.abs(a2 - -11.5454381)).toBeLessThan(5e-8);
    const [f1, f2] = doublePendulumAccel(ARM, REST);
    expect(relErr(a1, f1 / 2, 7)).toBeLessThan(1e-14);
    expect(relErr(a2, f2 / 2, 12)).toBeLessThan(1e-14);
  });
});

describe('double pendulum closed form against the Lagrangian, numerically', () => {
  const r = rng(12345);
  const cases = Array.from({ length: 50 }, () => randomCase(r));

  it('M equals the Hessian of T in q̇', () => {
    for (const { p, s } of cases) {
      const q: Vec2 = [s.phi, s.psi];
      const qd: Vec2 = [s.phiDot, s.psiDot];
      const h = 0.5; // T is quadratic in q̇: the second difference is exact up to rounding
      const T = (v: Vec2) => lagrangian(p, q, v).T;
      const H = (i: number, j: number) =>
        (T(add(add(qd, e(i, h)), e(j, h))) -
          T(add(add(qd, e(i, h)), e(j, -h))) -
          T(add(add(qd, e(i, -h)), e(j, h))) +
          T(add(add(qd, e(i, -h)), e(j, -h)))) /
        (4 * h * h);
      const [m11, m12, m22] = doublePendulumMassMatrix(p, s.psi);
      const scale = m11;
      expect(relErr(H(0, 0), m11, scale)).toBeLessThan(1e-12);
      expect(relErr(H(0, 1), m12, scale)).toBeLessThan(1e-12);
      expect(relErr(H(1, 0), m12, scale)).toBeLessThan(1e-12);
      expect(relErr(H(1, 1), m22, scale)).toBeLessThan(1e-12);
    }
  });

  it('b equals τ + ∂L/∂q − (∂²L/∂q̇∂q)·q̇, and q̈ satisfies d/dt(∂L/∂q̇) − ∂L/∂q = τ', () => {
    const hq = 1e-5;
    for (const { p, s, tau } of cases) {
      const q: Vec2 = [s.phi, s.psi];
      const qd: Vec2 = [s.phiDot, s.psiDot];
      const dLdq = [0, 1].map((i) => (L(p, add(q, e(i, hq)), qd) - L(p, add(q, e(i, -hq)), qd)) / (2 * hq));
      // (∂p/∂q)·q̇: derivative of the momentum along the direction q̇ in configuration space.
      const pPlus = momentum(p, add(q, qd, hq), qd);
      const pMinus = momentum(p, add(q, qd, -hq), qd);
      const dpdq_qd = [0, 1].map((i) => (pPlus[i] - pMinus[i]) / (2 * hq));
      const bNum = [0, 1].map((i) => tau[i] + dLdq[i] - dpdq_qd[i]);
      const b = doublePendulumRhs(p, s, tau);
      const scale = 1 + Math.max(...b.map(Math.abs), ...dLdq.map(Math.abs));
      expect(relErr(b[0], bNum[0], scale)).toBeLessThan(1e-7);
      expect(relErr(b[1], bNum[1], scale)).toBeLessThan(1e-7);

      // Full Euler–Lagrange residual with the module's q̈: total time derivative of
      // ∂L/∂q̇ along (q̇, q̈), by a central difference in time.
      const qdd = doublePendulumAccel(p, s, tau);
      const pf = momentum(p, add(q, qd, hq), add(qd, qdd, hq));
      const pb = momentum(p, add(q, qd, -hq), add(qd, qdd, -hq));
      const dpdt = [0, 1].map((i) => (pf[i] - pb[i]) / (2 * hq));
      const resid = [0, 1].map((i) => dpdt[i] - dLdq[i] - tau[i]);
      const rscale = 1 + Math.max(...dpdt.map(Math.abs), ...dLdq.map(Math.abs));
      expect(Math.abs(resid[0]) / rscale).toBeLessThan(1e-7);
      expect(Math.abs(resid[1]) / rscale).toBeLessThan(1e-7);
    }
  });

  it('the numerical Euler–Lagrange check notices a wrong acceleration', () => {
    // Guards the check above against being vacuous: perturb q̈ by 1e-4 and the residual must exceed the tolerance.
    const { p, s, tau } = cases[0];
    const q: Vec2 = [s.phi, s.psi];
    const qd: Vec2 = [s.phiDot, s.psiDot];
    const hq = 1e-5;
    const qdd = add(doublePendulumAccel(p, s, tau), [1e-4, 0]);
    const dLdq = [0, 1].map((i) => (L(p, add(q, e(i, hq)), qd) - L(p, add(q, e(i, -hq)), qd)) / (2 * hq));
    const pf = momentum(p, add(q, qd, hq), add(qd, qdd, hq));
    const pb = momentum(p, add(q, qd, -hq), add(qd, qdd, -hq));
    const dpdt = [0, 1].map((i) => (pf[i] - pb[i]) / (2 * hq));
    const rscale = 1 + Math.max(...dpdt.map(Math.abs), ...dLdq.map(Math.abs));
    expect(Math.abs(dpdt[0] - dLdq[0] - tau[0]) / rscale).toBeGreaterThan(1e-6);
  });

  it('doublePendulumEnergy equals the independently built T and V', () => {
    for (const { p, s } of cases) {
      const { T, V } = lagrangian(p, [s.phi, s.psi], [s.phiDot, s.psiDot]);
      const { kinetic, potential } = doublePendulumEnergy(p, s);
      const scale = 1 + Math.abs(T) + Math.abs(V);
      expect(relErr(kinetic, T, scale)).toBeLessThan(1e-13);
      expect(relErr(potential, V, scale)).toBeLessThan(1e-13);
    }
  });
});

describe('double pendulum closed form: integration and symmetries', () => {
  /** RK4 on [φ, ψ, φ̇, ψ̇, W] where Ẇ = τ·q̇ is the work done by the joint torques. */
  function integrate(p: DoublePendulumParams, s0: DoublePendulumState, tau: [number, number], dt: number, steps: number) {
    const f = (y: number[]): number[] => {
      const [a1, a2] = doublePendulumAccel(p, { phi: y[0], psi: y[1], phiDot: y[2], psiDot: y[3] }, tau);
      return [y[2], y[3], a1, a2, tau[0] * y[2] + tau[1] * y[3]];
    };
    let y = [s0.phi, s0.psi, s0.phiDot, s0.psiDot, 0];
    const energyMinusWork = (v: number[]) => {
      const { kinetic, potential } = doublePendulumEnergy(p, { phi: v[0], psi: v[1], phiDot: v[2], psiDot: v[3] });
      return { e: kinetic + potential - v[4], kinetic, potential };
    };
    const first = energyMinusWork(y);
    let maxDrift = 0;
    let travel = 0;
    for (let k = 0; k < steps; k++) {
      const k1 = f(y);
      const k2 = f(y.map((v, i) => v + 0.5 * dt * k1[i]));
      const k3 = f(y.map((v, i) => v + 0.5 * dt * k2[i]));
      const k4 = f(y.map((v, i) => v + dt * k3[i]));
      const next = y.map((v, i) => v + (dt / 6) * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]));
      travel += Math.abs(next[1] - y[1]);
      y = next;
      maxDrift = Math.max(maxDrift, Math.abs(energyMinusWork(y).e - first.e));
    }
    // Relative to the energy scale of the motion (total energy itself can be near zero).
    return { relDrift: maxDrift / (Math.abs(first.kinetic) + Math.abs(first.potential)), travel };
  }

  it('conserves energy over 2 s of RK4 with a tiny step (drift < 1e-9 relative)', () => {
    const { relDrift, travel } = integrate(ARM, { phi: 0.3, psi: -0.5, phiDot: 1, psiDot: -2 }, [0, 0], 1e-4, 20000);
    expect(travel).toBeGreaterThan(1); // the elbow really swings: this is not a trivial trajectory
    expect(relDrift).toBeLessThan(1e-9);
  });

  it('energy changes by exactly the torque work under constant torques, tilted gravity', () => {
    const p = { ...ARM, gy: -3.1, gz: 7.4 };
    const { relDrift } = integrate(p, { phi: -1.0, psi: 1.2, phiDot: -0.5, psiDot: 3 }, [0.7, -0.25], 1e-4, 20000);
    expect(relDrift).toBeLessThan(1e-9);
  });

  it('gravity off, zero velocity, zero torque: no acceleration at any pose', () => {
    const p = { ...ARM, gy: 0, gz: 0 };
    for (const [phi, psi] of [
      [0, 0],
      [1, 2],
      [-2.5, 0.7],
      [3, -3],
    ]) {
      const [a1, a2] = doublePendulumAccel(p, { phi, psi, phiDot: 0, psiDot: 0 });
      expect(a1).toBe(0);
      expect(a2).toBe(0);
    }
  });

  it('hanging straight along gravity at rest is an equilibrium', () => {
    const p = { ...ARM, gy: 2, gz: -5 };
    const down = Math.atan2(p.gz, p.gy);
    const [a1, a2] = doublePendulumAccel(p, { phi: down, psi: 0, phiDot: 0, psiDot: 0 });
    expect(Math.abs(a1)).toBeLessThan(1e-12);
    expect(Math.abs(a2)).toBeLessThan(1e-12);
  });

  it('is invariant under rotating gravity and the whole arm together about X', () => {
    const r = rng(7);
    for (let k = 0; k < 20; k++) {
      const { p, s, tau } = randomCase(r);
      const alpha = 2 * Math.PI * r();
      const [ca, sa] = [Math.cos(alpha), Math.sin(alpha)];
      const pr = { ...p, gy: ca * p.gy - sa * p.gz, gz: sa * p.gy + ca * p.gz };
      const a = doublePendulumAccel(p, s, tau);
      const b = doublePendulumAccel(pr, { ...s, phi: s.phi + alpha }, tau);
      const scale = 1 + Math.abs(a[0]) + Math.abs(a[1]);
      expect(relErr(a[0], b[0], scale)).toBeLessThan(1e-12);
      expect(relErr(a[1], b[1], scale)).toBeLessThan(1e-12);
    }
  });

  it('mirror y → −y (φ → π−φ, ψ → −ψ, velocities, torques and gy negated) negates the accelerations', () => {
    const r = rng(99);
    for (let k = 0; k < 20; k++) {
      const { p, s, tau } = randomCase(r);
      const a = doublePendulumAccel(p, s, tau);
      const m = doublePendulumAccel({ ...p, gy: -p.gy }, { phi: Math.PI - s.phi, psi: -s.psi, phiDot: -s.phiDot, psiDot: -s.psiDot }, [
        -tau[0],
        -tau[1],
      ]);
      const scale = 1 + Math.abs(a[0]) + Math.abs(a[1]);
      expect(relErr(m[0], -a[0], scale)).toBeLessThan(1e-12);
      expect(relErr(m[1], -a[1], scale)).toBeLessThan(1e-12);
    }
  });

  it('is time-reversal symmetric: reversing both velocities leaves q̈ unchanged', () => {
    const r = rng(3);
    for (let k = 0; k < 20; k++) {
      const { p, s, tau } = randomCase(r);
      const a = doublePendulumAccel(p, s, tau);
      const b = doublePendulumAccel(p, { ...s, phiDot: -s.phiDot, psiDot: -s.psiDot }, tau);
      expect(b[0]).toBe(a[0]);
      expect(b[1]).toBe(a[1]);
    }
  });

  it('rejects a non-physical mass matrix instead of returning garbage', () => {
    expect(() => doublePendulumAccel({ ...ARM, I1: 0, I2: 0 }, REST)).toThrow(/positive definite/);
  });
});
