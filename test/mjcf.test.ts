// MJCF export checked against MuJoCo itself (python `mujoco` module): the exported model has the
// engine's q/v layout and masses, and reproduces the README's initial accelerations.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnAsync } from './helpers/spawn-async.js';
import { coordinateLayout, type ModelDesc } from '../src/engine/model-desc.js';
import { Batch } from '../src/engine/batch.js';
import { exportMjcf, loadScene } from '../src/model-files/scene/index.js';
import { MJ_MASSLESS, roundedBoxPieces } from '../src/model-files/scene/mjcf-writer.js';
import { tempDir, write } from './helpers/scene.js';

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
    geoms = [dict(name=mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g), type=int(m.geom_type[g]), body=int(m.geom_bodyid[g]),
                  size=m.geom_size[g].tolist(), pos=m.geom_pos[g].tolist(), quat=m.geom_quat[g].tolist(), friction=m.geom_friction[g].tolist(),
                  contype=int(m.geom_contype[g]), conaffinity=int(m.geom_conaffinity[g]), margin=float(m.geom_margin[g]), gap=float(m.geom_gap[g]))
             for g in range(m.ngeom)]
    out.append(dict(geoms=geoms, nexclude=int(m.nexclude), contact_disabled=bool(m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONTACT), ncon=int(d.ncon),
                    nq=m.nq, nv=m.nv, mass=m.body_mass[1:].tolist(), names=names[1:], qpos=d.qpos.tolist(),
                    qvel=d.qvel.tolist(), qacc=d.qacc.tolist(), timestep=m.opt.timestep, gravity=m.opt.gravity.tolist()))
print(json.dumps(out))
`;

interface MjGeom {
  name: string;
  type: number;
  body: number;
  size: number[];
  pos: number[];
  quat: number[];
  friction: number[];
  contype: number;
  conaffinity: number;
  margin: number;
  gap: number;
}
interface MjResult {
  geoms: MjGeom[];
  nexclude: number;
  contact_disabled: boolean;
  ncon: number;
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
// Awaited, not spawnSync: MuJoCo's Python start and compile take seconds, and the worker's event loop
// must keep turning meanwhile (issue 23).
async function mujoco(
  models: { model: ModelDesc; copies?: number; contacts?: boolean; approximateRounded?: boolean }[],
): Promise<MjResult[]> {
  const paths = models.map(({ model, copies, contacts, approximateRounded }, i) => {
    const p = join(dir, `${model.name}-${i}.xml`);
    writeFileSync(p, exportMjcf(model, { copies, contacts, approximateRounded }));
    return p;
  });
  const r = await spawnAsync('python3', ['-c', PY, ...paths]);
  if (r.status !== 0) throw new Error(`python/mujoco failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as MjResult[];
}
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);

const bundled = readdirSync('scenes')
  .filter((f) => f.endsWith('.arow'))
  .map((f) => `scenes/${f}`);
const shared = ['two_joint_arm', 'two_joint_arm_small_swing', 'three_joint_arm', 'asymmetric_two_joint_arm'].map(
  (f) => `${SHARED}/${f}.arow`,
);

describe('MJCF export loads in MuJoCo with the engine layout', () => {
  const models = [
    ...bundled.map((f) => loadScene(f)),
    ...shared.map((f) => loadScene(f, { config: CONFIG })),
    ...shared.map((f) => loadScene(f)),
  ];
  let results: MjResult[];
  beforeAll(async () => {
    results = await mujoco(models.map((model) => ({ model })));
  });
  models.forEach((model, i) => {
    test(`${model.files[0]}${model.files.length > 1 ? ' + config' : ''}`, () => {
      const r = results[i];
      const { nq, nv } = coordinateLayout(model.bodies);
      expect([r.nq, r.nv]).toEqual([nq, nv]);
      expect(r.names).toEqual(model.bodies.map((b) => b.name));
      r.mass.forEach((m, k) => expect(rel(m, model.bodies[k].mass || MJ_MASSLESS)).toBeLessThan(1e-15));
      const q0 = model.bodies.flatMap((b) => b.q0);
      r.qpos.forEach((q, k) => expect(Math.abs(q - q0[k])).toBeLessThan(1e-15));
      expect(r.qvel).toEqual(model.bodies.flatMap((b) => b.v0));
      expect(r.gravity).toEqual(model.world.gravity);
      expect(r.timestep).toBe(model.world.dt / model.world.substeps);
    });
  });
  test('all sixteen bundled scenes are covered', () => expect(bundled).toHaveLength(16));
});

describe('MuJoCo reproduces the README initial accelerations (to 1e-6 relative)', () => {
  const cases: [string, number[]][] = [
    ['two_joint_arm', [14.1258999, -23.0908763]],
    ['two_joint_arm_small_swing', [7.06295, -11.5454381]],
    ['three_joint_arm', [13.5412583, -19.6149204, 9.6031511]],
    ['asymmetric_two_joint_arm', [8.6695878, 0]],
  ];
  let results: MjResult[];
  beforeAll(async () => {
    results = await mujoco(cases.map(([f]) => ({ model: loadScene(`${SHARED}/${f}.arow`, { config: CONFIG }) })));
  });
  cases.forEach(([f, want], i) => {
    test(f, () => {
      const got = results[i].qacc;
      expect(got).toHaveLength(want.length);
      want.forEach((w, k) =>
        w === 0 ? expect(Math.abs(got[k])).toBeLessThan(1e-9) : expect(rel(got[k], w), `${got} vs ${want}`).toBeLessThan(1e-6),
      );
    });
  });
  test('exact decimal form of the shoulder value', () => {
    expect(rel(results[0].qacc[0], 1380134000 / 97702377)).toBeLessThan(1e-12);
  });
});

describe('free joint and copies', () => {
  const box = loadScene('scenes/spinning-box.arow');
  const arm = loadScene(`${SHARED}/two_joint_arm.arow`, { config: CONFIG });
  let rb: MjResult;
  let r3: MjResult;
  beforeAll(async () => {
    [rb, r3] = await mujoco([{ model: box }, { model: arm, copies: 3 }]);
  });

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

  test('constant torque goes through achilles_tau', async () => {
    const m = loadScene(`${SHARED}/two_joint_arm.arow`);
    m.bodies[0].tau = [2];
    const [r] = await mujoco([{ model: m }]);
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

describe('shapes as MuJoCo geoms', () => {
  const tmp = tempDir();
  const scene = (shapes: string): string =>
    `scene: g\nshapes:\n  - { link: world, type: plane, name: floor, friction: 0.7, margin: 0.01, gap: 0.004 }\nexclude: [[world, a]]\nlinks:\n  - name: a\n    parent: world\n    joint: { type: free }\n    mass: 1\n    inertia: [0.1, 0.1, 0.1]\n    initial: { position: [0, 0, 0.05, 0, 0, 0] }\n    shapes:\n${shapes}`;
  const GEOM = { plane: 0, sphere: 2, capsule: 3, box: 6 };

  test('every kind, pose, friction, filter bits, margin and gap (ours: detect < margin + gap, act <= margin)', async () => {
    const m = loadScene(
      write(
        tmp,
        'g.arow',
        scene(
          '      - { type: sphere, radius: 0.1, pos: [0, 0, 0.2], contype: 2, conaffinity: 5 }\n      - { type: capsule, radius: 0.05, from: [0, 0, 0], to: [0, 0.4, 0], friction: 0.3 }\n      - { type: box, half_extents: [0.1, 0.2, 0.3], rpy: [0, 0, 0.5] }\n',
        ),
      ),
    );
    const [on, off] = await mujoco([{ model: m, contacts: true }, { model: m }]);
    expect(off.contact_disabled).toBe(true);
    expect(on.contact_disabled).toBe(false);
    expect(on.nexclude).toBe(1);
    const g = on.geoms;
    expect(g.map((x) => [x.name, x.type, x.body])).toEqual([
      ['floor', GEOM.plane, 0],
      ['a/sphere0', GEOM.sphere, 1],
      ['a/capsule1', GEOM.capsule, 1],
      ['a/box2', GEOM.box, 1],
    ]);
    expect(g[0]).toMatchObject({ friction: [0.7, 0.005, 0.0001], margin: 0.01, gap: 0.004 });
    expect(g[1]).toMatchObject({ contype: 2, conaffinity: 5, pos: [0, 0, 0.2] });
    expect(g[1].size[0]).toBe(0.1);
    expect(g[2].size.slice(0, 2)).toEqual([0.05, 0.2]);
    expect(g[2].friction[0]).toBe(0.3);
    [0, 0.2, 0].forEach((x, k) => expect(g[2].pos[k]).toBeCloseTo(x, 15));
    expect(g[3].size).toEqual([0.1, 0.2, 0.3]);
    const q = m.shapes?.[2].quat ?? [];
    g[3].quat.forEach((x, k) => expect(x).toBeCloseTo(q[k], 15));
    // the capsule (radius 0.05, axis at z 0.05) touches the floor, but world–a is excluded; without the exclude it is a contact
    expect(on.ncon).toBe(0);
    const [open] = await mujoco([{ model: { ...m, excludes: [] }, contacts: true }]);
    expect(open.nexclude).toBe(0);
    expect(open.ncon).toBeGreaterThan(0);
    expect(off.ncon).toBe(0);
  });

  test('a rounded box is an error unless approximated; the union is the same solid', async () => {
    const m = loadScene(
      write(tmp, 'rb.arow', scene('      - { type: rounded-box, half_extents: [0.2, 0.1, 0], radius: 0.02, pos: [0, 0, 0.5] }\n')),
    );
    expect(() => exportMjcf(m)).toThrow(/rounded box, which MuJoCo has no geom for; pass --approximate-rounded/);
    const [r] = await mujoco([{ model: m, approximateRounded: true }]);
    const pieces = r.geoms.filter((x) => x.name.startsWith('a/rounded-box0_'));
    expect(pieces.length).toBe(roundedBoxPieces([0.2, 0.1, 0], 0.02).length);
    // a flat core: 1 box (grown along z) + 4 edge capsules (2 along x, 2 along y), each z-slab box dropped
    expect(pieces.map((x) => x.type).sort()).toEqual([GEOM.capsule, GEOM.capsule, GEOM.capsule, GEOM.capsule, GEOM.box].sort());
    // membership: a point is in the union iff it is within r of the core box
    const inside = (p: number[]): boolean => Math.hypot(...p.map((x, a) => Math.max(Math.abs(x) - [0.2, 0.1, 0][a], 0))) <= 0.02;
    const inUnion = (p: number[]): boolean =>
      roundedBoxPieces([0.2, 0.1, 0], 0.02).some((pc) => {
        const d = p.map((x, a) => x - pc.center[a]);
        if (pc.kind === 'box') return d.every((x, a) => Math.abs(x) <= pc.size[a]);
        if (pc.kind === 'sphere') return Math.hypot(...d) <= 0.02;
        const ax = pc.axis as number;
        const t = Math.max(-pc.size[0], Math.min(pc.size[0], d[ax]));
        d[ax] -= t;
        return Math.hypot(...d) <= 0.02;
      });
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 0.5 - 0.25;
    for (let k = 0; k < 20000; k++) {
      const p = [rnd(), rnd() * 0.6, rnd() * 0.2];
      expect(inUnion(p)).toBe(inside(p));
    }
  });

  test('a massless link exports at mjMINVAL scale and MuJoCo agrees with the engine (capsule-arm)', async () => {
    const m = loadScene('scenes/capsule-arm.arow');
    const [r] = await mujoco([{ model: m }]);
    const b = new Batch(m, { copies: 1, precision: 'f64', lanes: 1 });
    b.forward();
    expect(r.qacc.length).toBe(4);
    r.qacc.forEach((a, k) => expect(Math.abs(a - b.qacc[k * b.stride]) / Math.max(1, Math.abs(a))).toBeLessThan(1e-12));
  });
});

describe('margin and gap mean the same in MuJoCo', () => {
  const tmp = tempDir();
  // Two spheres (r 0.1) on free bodies, margins 0.01 + 0.02, gaps 0.005 + 0.01: detected while
  // dist < 0.045, force while dist < 0.03, in our contract; MuJoCo must agree on the exported file.
  const PY_GAP = `
import json, sys, mujoco
m = mujoco.MjModel.from_xml_path(sys.argv[1]); d = mujoco.MjData(m)
out = []
for dist in [0.025, 0.035, 0.04, 0.05]:
    mujoco.mj_resetData(m, d)
    d.qpos[7] = 0.2 + dist
    mujoco.mj_forward(m, d)
    out.append(dict(dist=dist, ncon=int(d.ncon), force=bool(d.ncon and d.contact.efc_address[0] >= 0)))
print(json.dumps(out))
`;
  test('detected below margin + gap, acting below margin (both summed over the pair)', async () => {
    const sphere = (name: string, margin: number, gap: number, x: number) =>
      `  - name: ${name}\n    parent: world\n    joint: { type: free }\n    mass: 1\n    inertia: [0.004, 0.004, 0.004]\n    initial: { position: [${x}, 0, 1, 0, 0, 0] }\n    shapes: [{ type: sphere, radius: 0.1, margin: ${margin}, gap: ${gap} }]\n`;
    const m = loadScene(
      write(
        tmp,
        's.arow',
        `scene: s\nworld: { gravity: [0, 0, 0] }\nlinks:\n${sphere('a', 0.01, 0.005, 0)}${sphere('b', 0.02, 0.01, 0.3)}`,
      ),
    );
    const xml = join(tmp, 's.xml');
    writeFileSync(xml, exportMjcf(m, { contacts: true }));
    const r = await spawnAsync('python3', ['-c', PY_GAP, xml]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { dist: 0.025, ncon: 1, force: true },
      { dist: 0.035, ncon: 1, force: false },
      { dist: 0.04, ncon: 1, force: false },
      { dist: 0.05, ncon: 0, force: false },
    ]);
  });
});
