// MJCF export checked against MuJoCo itself (python `mujoco` module): the exported model has the
// engine's q/v layout and masses, and reproduces the README's initial accelerations.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { coordinateLayout, type ModelDesc } from '../src/engine/model-desc.js';
import { exportMjcf, loadScene } from '../src/scene/index.js';

const SHARED = '../shared/achilles-arow';
const CONFIG = `${SHARED}/sim_config.yaml`;

// Loads each XML, resets to keyframe "initial", applies achilles_tau as qfrc_applied, runs mj_forward.
const PY = `
import json, sys, mujoco
out = []
for path in sys.argv[1:]:
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    if m.nkey > 0:
        mujoco.mj_resetDataKeyframe(m, d, 0)
    if m.nnumeric > 0:
        d.qfrc_applied[:] = m.numeric('achilles_tau').data
    mujoco.mj_forward(m, d)
    names = [mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, i) for i in range(m.nbody)]
    out.append(dict(nq=m.nq, nv=m.nv, mass=m.body_mass[1:].tolist(), names=names[1:], qpos=d.qpos.tolist(),
                    qvel=d.qvel.tolist(), qacc=d.qacc.tolist(), timestep=m.opt.timestep, gravity=m.opt.gravity.tolist()))
print(json.dumps(out))
`;

interface MjResult {
  nq: number;
  nv: number;
  mass: number[];
  names: string[];
  qpos: number[];
  qvel: number[];
  qacc: number[];
  timestep: number;
  gravity: number[];
}

const dir = mkdtempSync(join(tmpdir(), 'achilles-mjcf-'));
function mujoco(models: { model: ModelDesc; copies?: number }[]): MjResult[] {
  const paths = models.map(({ model, copies }, i) => {
    const p = join(dir, `${model.name}-${i}.xml`);
    writeFileSync(p, exportMjcf(model, { copies }));
    return p;
  });
  const r = spawnSync('python3', ['-c', PY, ...paths], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python/mujoco failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as MjResult[];
}
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

const bundled = readdirSync('scenes').filter((f) => f.endsWith('.arow')).map((f) => `scenes/${f}`);
const shared = ['two_joint_arm', 'two_joint_arm_small_swing', 'three_joint_arm', 'asymmetric_two_joint_arm'].map((f) => `${SHARED}/${f}.arow`);

describe('MJCF export loads in MuJoCo with the engine layout', () => {
  const models = [...bundled.map((f) => loadScene(f)), ...shared.map((f) => loadScene(f, { config: CONFIG })), ...shared.map((f) => loadScene(f))];
  const results = mujoco(models.map((model) => ({ model })));
  models.forEach((model, i) => {
    test(`${model.files[0]}${model.files.length > 1 ? ' + config' : ''}`, () => {
      const r = results[i];
      const { nq, nv } = coordinateLayout(model.bodies);
      expect([r.nq, r.nv]).toEqual([nq, nv]);
      expect(r.names).toEqual(model.bodies.map((b) => b.name));
      r.mass.forEach((m, k) => expect(rel(m, model.bodies[k].mass)).toBeLessThan(1e-15));
      const q0 = model.bodies.flatMap((b) => b.q0);
      r.qpos.forEach((q, k) => expect(Math.abs(q - q0[k])).toBeLessThan(1e-15));
      expect(r.qvel).toEqual(model.bodies.flatMap((b) => b.v0));
      expect(r.gravity).toEqual(model.world.gravity);
      expect(r.timestep).toBe(model.world.dt / model.world.substeps);
    });
  });
  test('all five bundled scenes are covered', () => expect(bundled).toHaveLength(5));
});

describe('MuJoCo reproduces the README initial accelerations (to 1e-6 relative)', () => {
  const cases: [string, number[]][] = [
    ['two_joint_arm', [14.1258999, -23.0908763]],
    ['two_joint_arm_small_swing', [7.06295, -11.5454381]],
    ['three_joint_arm', [13.5412583, -19.6149204, 9.6031511]],
    ['asymmetric_two_joint_arm', [8.6695878, 0]],
  ];
  const results = mujoco(cases.map(([f]) => ({ model: loadScene(`${SHARED}/${f}.arow`, { config: CONFIG }) })));
  cases.forEach(([f, want], i) => {
    test(f, () => {
      const got = results[i].qacc;
      expect(got).toHaveLength(want.length);
      want.forEach((w, k) => (w === 0 ? expect(Math.abs(got[k])).toBeLessThan(1e-9) : expect(rel(got[k], w), `${got} vs ${want}`).toBeLessThan(1e-6)));
    });
  });
  test('exact decimal form of the shoulder value', () => {
    expect(rel(results[0].qacc[0], 1380134000 / 97702377)).toBeLessThan(1e-12);
  });
});

describe('free joint and copies', () => {
  const box = loadScene('scenes/spinning-box.arow');
  const arm = loadScene(`${SHARED}/two_joint_arm.arow`, { config: CONFIG });
  const [rb, r3] = mujoco([{ model: box }, { model: arm, copies: 3 }]);

  test('spinning box: MuJoCo qacc = Euler equations in the body frame (v = [v_W, ω_B])', () => {
    const [ixx, iyy, izz] = box.bodies[0].inertia;
    const w = box.bodies[0].v0.slice(3);
    const L = [ixx * w[0], iyy * w[1], izz * w[2]];
    const wxL = [w[1] * L[2] - w[2] * L[1], w[2] * L[0] - w[0] * L[2], w[0] * L[1] - w[1] * L[0]];
    const want = [0, 0, 0, -wxL[0] / ixx, -wxL[1] / iyy, -wxL[2] / izz];
    rb.qacc.forEach((a, k) => expect(Math.abs(a - want[k])).toBeLessThan(1e-12));
    expect(Math.abs(rb.qacc[5])).toBeGreaterThan(1e-3); // the perturbation really couples
  });

  test('copies: 3 replicates the robot, robot-major layout, suffixed names', () => {
    expect([r3.nq, r3.nv]).toEqual([6, 6]);
    expect(r3.names).toEqual(['shoulder_0', 'elbow_0', 'shoulder_1', 'elbow_1', 'shoulder_2', 'elbow_2']);
    for (let c = 0; c < 3; c++) {
      expect(rel(r3.qacc[2 * c], 14.1258999)).toBeLessThan(1e-6);
      expect(rel(r3.qacc[2 * c + 1], -23.0908763)).toBeLessThan(1e-6);
    }
  });

  test('constant torque goes through achilles_tau', () => {
    const m = loadScene(`${SHARED}/two_joint_arm.arow`);
    m.bodies[0].tau = [2];
    const [r] = mujoco([{ model: m }]);
    // no gravity: M qacc = tau, M from README section 4 (P+Q+2R, Q+R; Q+R, Q)
    const M = [0.95321, 0.22238, 0.22238, 0.07238];
    const det = M[0] * M[3] - M[1] * M[2];
    expect(rel(r.qacc[0], (M[3] * 2) / det)).toBeLessThan(1e-9);
    expect(rel(r.qacc[1], (-M[2] * 2) / det)).toBeLessThan(1e-9);
  });

  test('bad copies count', () => {
    expect(() => exportMjcf(arm, { copies: 0 })).toThrow(/copies must be an integer >= 1/);
  });
});
