// MuJoCo (pip, via validation/mujoco_ref.py) as the reference: hand-checked dynamics of the
// double pendulum, and the composed integrators follow their definitions.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { MujocoReference, type MujocoIntegrator } from '../src/validation/mujoco-ref.js';

const PENDULUM = readFileSync(new URL('../native/mujoco/models/double_pendulum.xml', import.meta.url), 'utf8');

const maxAbsDiff = (a: number[], b: number[]) => {
  expect(a.length).toBe(b.length);
  return Math.max(...a.map((x, i) => Math.abs(x - b[i])));
};

let ref: MujocoReference;
beforeAll(() => {
  ref = MujocoReference.open();
});

describe('MujocoReference: double pendulum', () => {
  it('gives the hand-derived mass matrix, bias and qacc at the horizontal state', async () => {
    const [dyn] = await ref.query(PENDULUM, [{ kind: 'dynamics', qpos: [0, 0], qvel: [0, 0] }]);
    // M11 = I1 + m1 c1² + I2 + m2 (1 + c2)², M12 = I2 + m2 (c2² + c2), M22 = I2 + m2 c2².
    const M = [
      [0.95321, 0.22238],
      [0.22238, 0.07238],
    ];
    for (let i = 0; i < 2; i++) expect(maxAbsDiff(dyn.qM[i], M[i])).toBeLessThan(1e-12);
    expect(maxAbsDiff(dyn.qfrc_bias, [-(0.3 * 9.8 + 0.4 * 1.375 * 9.8), -0.4 * 0.375 * 9.8])).toBeLessThan(1e-12);
    const expected = [14.1258999, -23.0908763];
    for (let i = 0; i < 2; i++) expect(Math.abs(dyn.qacc[i] / expected[i] - 1)).toBeLessThan(1e-6);
  });

  it('reports kinetic energy ½vᵀMv and the bodies where rotations about X put them', async () => {
    const q = [0.3, -0.5];
    const v = [1.2, -0.7];
    const [dyn, kin] = await ref.query(PENDULUM, [
      { kind: 'dynamics', qpos: q, qvel: v },
      { kind: 'kinematics', qpos: q },
    ]);
    const Mv = dyn.qM.map((row) => row[0] * v[0] + row[1] * v[1]);
    expect(dyn.energy[1]).toBeCloseTo(0.5 * (v[0] * Mv[0] + v[1] * Mv[1]), 12);
    expect(kin.xpos).toHaveLength(2);
    expect(maxAbsDiff(kin.xpos[1], [0, Math.cos(q[0]), Math.sin(q[0])])).toBeLessThan(1e-15);
    const c = Math.cos(q[0] + q[1]);
    const s = Math.sin(q[0] + q[1]);
    expect(maxAbsDiff(kin.xmat[1], [1, 0, 0, 0, c, -s, 0, s, c])).toBeLessThan(1e-15);
  });

  it('composed euler equals MuJoCo mj_step Euler (validates composing from mj_forward)', async () => {
    const base = { qpos: [0.1, 0.2], qvel: [0.3, -0.1], tau: [0.5, -0.2] };
    const [mj, composed] = await ref.query(PENDULUM, [
      { kind: 'trajectory', integrator: 'euler', steps: 300, every: 1, ...base },
      { kind: 'trajectory', integrator: 'euler', composed: true, steps: 300, every: 1, ...base },
    ]);
    expect(mj.qpos).toHaveLength(300);
    expect(mj.qpos[299]).not.toEqual(base.qpos); // it moved
    for (let k = 0; k < 300; k++) {
      expect(maxAbsDiff(composed.qpos[k], mj.qpos[k])).toBeLessThanOrEqual(1e-15);
      expect(maxAbsDiff(composed.qvel[k], mj.qvel[k])).toBeLessThanOrEqual(1e-15);
    }
  });

  it('verlet and midpoint steps follow their definitions exactly (recomposed from dynamics queries)', async () => {
    const q = [0.4, -0.3];
    const v = [0.8, 1.1];
    const h = 0.01;
    const f = async (qq: number[], vv: number[]) => (await ref.query(PENDULUM, [{ kind: 'dynamics', qpos: qq, qvel: vv }]))[0].qacc;
    const axpy = (x: number[], s: number, y: number[]) => x.map((xi, i) => xi + s * y[i]);
    // Hinges only: q ⊕ h·v is plain addition.
    const a0 = await f(q, v);
    const vh = axpy(v, h / 2, a0);
    const q1 = axpy(q, h, vh);
    const a1 = await f(q1, vh); // velocity-dependent forces at the half-step velocity
    const verlet = { qpos: q1, qvel: axpy(vh, h / 2, a1) };

    let vm = axpy(v, h / 2, a0);
    for (let it = 0; it < 4; it++) vm = axpy(v, h / 2, await f(axpy(q, h / 2, vm), vm));
    const midpoint = { qpos: axpy(q, h, vm), qvel: vm.map((x, i) => 2 * x - v[i]) };

    const [vs, ms] = await ref.query(PENDULUM, [
      { kind: 'step', integrator: 'verlet', h, qpos: q, qvel: v },
      { kind: 'step', integrator: 'midpoint', h, qpos: q, qvel: v },
    ]);
    expect(maxAbsDiff(vs.qpos, verlet.qpos)).toBeLessThanOrEqual(1e-15);
    expect(maxAbsDiff(vs.qvel, verlet.qvel)).toBeLessThanOrEqual(1e-14);
    expect(maxAbsDiff(ms.qpos, midpoint.qpos)).toBeLessThanOrEqual(1e-15);
    expect(maxAbsDiff(ms.qvel, midpoint.qvel)).toBeLessThanOrEqual(1e-14);
  });

  it('converges with order 1 (euler, and verlet whose Coriolis terms see the half-step velocity) and 2 (midpoint) against fine RK4', async () => {
    const T = 0.32;
    const base = { qpos: [0.4, -0.3], qvel: [0.8, 1.1] };
    const run = (integrator: MujocoIntegrator, h: number) =>
      ({ kind: 'trajectory', integrator, h, steps: Math.round(T / h), every: Math.round(T / h), ...base }) as const;
    const names: MujocoIntegrator[] = ['euler', 'verlet', 'midpoint'];
    const res = await ref.query(PENDULUM, [run('rk4', 0.0005), ...names.flatMap((n) => [run(n, 0.004), run(n, 0.002)])]);
    const exact = res[0].qpos[0];
    const err = (i: number) => maxAbsDiff(res[i].qpos[0], exact);
    const ratios = names.map((_, k) => err(1 + 2 * k) / err(2 + 2 * k));
    // Halving h halves a first-order error and quarters a second-order one.
    for (const r of ratios.slice(0, 2)) {
      expect(r).toBeGreaterThan(1.6);
      expect(r).toBeLessThan(2.5);
    }
    expect(ratios[2]).toBeGreaterThan(3.2);
    expect(ratios[2]).toBeLessThan(5);
  });

  it('names `pip install mujoco` when the interpreter is missing', () => {
    expect(() => MujocoReference.open('/nonexistent/python3')).toThrow(/pip install mujoco/);
  });

  it("turns a bad model into a rejected promise with MuJoCo's message", async () => {
    await expect(
      ref.query('<mujoco><worldbody><body><joint type="bogus"/></body></worldbody></mujoco>', [{ kind: 'kinematics' }]),
    ).rejects.toThrow(/MuJoCo reference: .*bogus/);
  });
});
