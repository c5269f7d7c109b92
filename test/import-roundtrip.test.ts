// Issue 23 ("what you see is what ran"): an imported MJCF model starts where MuJoCo starts (qpos0,
// mj_resetData) unless --keyframe names a key (mj_resetDataKeyframe); `achilles import` writes the
// actuators into the .arow; `achilles export --mjcf` writes them back, so import → .arow → export
// gives MuJoCo the same actuators and initial state as the original file. Checked against python mujoco.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { spawnAsync } from './helpers/spawn-async.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { unwritten, writeArow } from '../src/model-files/scene/arow-writer.js';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf, loadScene, SceneError } from '../src/model-files/scene/index.js';
import { MjcfExportError } from '../src/model-files/scene/mjcf-writer.js';
import { cli, ROOT, tempDir } from './helpers/cli.js';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'import-roundtrip', 'keyframes-actuators.xml');
const PYTHON = process.env.ACHILLES_PYTHON || 'python3';

/** What MuJoCo makes of an MJCF file: qpos/qvel after mj_resetData and after each key's
 *  mj_resetDataKeyframe, and the actuators as compiled. */
interface MjView {
  nu: number;
  reset: { qpos: number[]; qvel: number[] };
  keys: { name: string; qpos: number[]; qvel: number[]; ctrl: number[]; time: number; xpos: number[][] }[];
  actuators: {
    name: string;
    joint: string;
    trntype: number;
    gear: number[];
    ctrlrange: number[];
    forcerange: number[];
    ctrllimited: number;
    forcelimited: number;
    gainprm: number[];
    biasprm: number[];
    dyntype: number;
  }[];
  xpos: number[][];
}

const SCRIPT = `
import json, sys, mujoco
out = []
for path in sys.argv[1:]:
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    mujoco.mj_resetData(m, d)
    mujoco.mj_kinematics(m, d)
    v = {"nu": m.nu, "reset": {"qpos": d.qpos.tolist(), "qvel": d.qvel.tolist()}, "xpos": d.xpos.tolist(), "keys": [], "actuators": []}
    for k in range(m.nkey):
        mujoco.mj_resetDataKeyframe(m, d, k)
        mujoco.mj_kinematics(m, d)
        v["keys"].append({"name": m.key(k).name, "qpos": d.qpos.tolist(), "qvel": d.qvel.tolist(), "ctrl": d.ctrl.tolist(), "time": d.time, "xpos": d.xpos.tolist()})
    for a in range(m.nu):
        v["actuators"].append({"name": m.actuator(a).name, "joint": mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, int(m.actuator_trnid[a][0])),
            "trntype": int(m.actuator_trntype[a]), "gear": m.actuator_gear[a].tolist(), "ctrlrange": m.actuator_ctrlrange[a].tolist(),
            "forcerange": m.actuator_forcerange[a].tolist(), "ctrllimited": int(m.actuator_ctrllimited[a]), "forcelimited": int(m.actuator_forcelimited[a]),
            "gainprm": m.actuator_gainprm[a][:3].tolist(), "biasprm": m.actuator_biasprm[a][:3].tolist(), "dyntype": int(m.actuator_dyntype[a])})
    out.append(v)
print(json.dumps(out))
`;

// Awaited, not spawnSync: the worker's event loop keeps turning while MuJoCo's Python runs (issue 23).
async function mujoco(...paths: string[]): Promise<MjView[]> {
  const r = await spawnAsync(PYTHON, ['-c', SCRIPT, ...paths]);
  if (r.status !== 0) throw new Error(`python mujoco failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as MjView[];
}

const q0 = (m: ModelDesc): number[] => m.bodies.flatMap((b) => b.q0);
const v0 = (m: ModelDesc): number[] => m.bodies.flatMap((b) => b.v0);
const near = (got: number[], want: number[], tol: number, what: string): void => {
  expect(got.length, what).toBe(want.length);
  got.forEach((x, i) => expect(Math.abs(x - want[i]), `${what}[${i}]: ${x} vs ${want[i]}`).toBeLessThanOrEqual(tol));
};

describe('keyframes: the initial state MuJoCo starts from', () => {
  let mj: MjView;
  beforeAll(async () => {
    [mj] = await mujoco(FIXTURE);
  });

  test('without --keyframe the model starts from qpos0 at rest (mj_resetData), with a note naming the keys', () => {
    const imp = importFile(FIXTURE);
    near(q0(imp.model), mj.reset.qpos, 1e-15, 'qpos0');
    expect(v0(imp.model)).toEqual(mj.reset.qvel);
    expect(imp.keyframe).toBeUndefined();
    expect(imp.notes.some((n) => n.kind === 'as-mujoco' && /qpos0 at rest.*\(home, 1\).*--keyframe/.test(n.message))).toBe(true);
  });

  test('--keyframe NAME or INDEX starts from that key as mj_resetDataKeyframe: filled from qpos0, quaternions normalised', () => {
    expect(mj.keys.map((k) => k.name)).toEqual(['home', '']);
    for (const [want, k] of [
      ['home', 0],
      ['0', 0],
      ['1', 1],
    ] as const) {
      const imp = importFile(FIXTURE, { keyframe: want });
      expect(imp.keyframe).toBe(k);
      near(q0(imp.model), mj.keys[k].qpos, 0, `key ${want} qpos`);
      near(v0(imp.model), mj.keys[k].qvel, 0, `key ${want} qvel`);
    }
    // What the engine does not apply from the key is named at its attribute: the clock and the held ctrl.
    const notes = importFile(FIXTURE, { keyframe: 'home' })
      .notes.filter((n) => n.kind === 'dropped')
      .map((n) => `${n.source.line}:${n.source.column} ${n.message}`);
    expect(mj.keys[0].time).toBe(1.5);
    expect(notes).toEqual([
      expect.stringMatching(/^39:22 keyframe 'home' time 1\.5/),
      expect.stringMatching(/^39:85 keyframe 'home' ctrl \[0\.5, 0, 0, 0\]: not applied/),
    ]);
  });

  test("an unknown keyframe lists the model's keys; a model or scene without keys says it has none", () => {
    const err = (f: () => unknown): string => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(SceneError);
        return (e as Error).message;
      }
      throw new Error('expected a SceneError');
    };
    expect(err(() => importFile(FIXTURE, { keyframe: 'squat' }))).toMatch(
      /keyframes-actuators\.xml:39:5: --keyframe: found 'squat', which is not one of the model's keyframes, expected a name or index: home \(0\), 1 \(unnamed\)/,
    );
    expect(err(() => importFile(FIXTURE, { keyframe: '2' }))).toMatch(/found '2'/);
    expect(err(() => loadScene(join(ROOT, 'test', 'fixtures', 'import', 'mjcf-mesh.xml'), { keyframe: 'home' }))).toMatch(
      /mjcf-mesh\.xml:\d+:\d+: --keyframe: found 'home', but the model has no <keyframe>/,
    );
    expect(err(() => loadScene(join(ROOT, 'scenes', 'double-pendulum.arow'), { keyframe: 'home' }))).toMatch(
      /double-pendulum\.arow:1:1: --keyframe: .*has no keyframes/,
    );
  });

  test('a key longer than the model is refused at its attribute, as MuJoCo refuses it', () => {
    const dir = tempDir('achilles-keys-');
    const f = join(dir, 'long.xml');
    writeFileSync(
      f,
      '<mujoco><worldbody><body><joint name="a"/><geom size="0.1"/></body></worldbody>\n<keyframe><key name="k" qpos="1 2"/></keyframe></mujoco>\n',
    );
    expect(() => importFile(f, { keyframe: 'k' })).toThrow(/long\.xml:2:25: keyframe 'k' qpos: found 2 numbers, expected at most 1/);
  });

  test('`achilles run --keyframe home` records the key as its first state', async () => {
    const out = join(tempDir('achilles-keys-'), 'run');
    const r = await cli('run', FIXTURE, '--keyframe', 'home', '--duration', '0.002', '--out', out);
    expect(r.code, r.stderr).toBe(0);
    const rows = readFileSync(join(out, 'trace.csv'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    const header = rows[0].split(',');
    const first = rows[1].split(',').map(Number);
    const q = header.flatMap((h, i) => (h.startsWith('q:') ? [first[i]] : []));
    const v = header.flatMap((h, i) => (h.startsWith('v:') ? [first[i]] : []));
    near(q, mj.keys[0].qpos, 0, 'trace q at step 0');
    near(v, mj.keys[0].qvel, 0, 'trace v at step 0');
  }, 60_000);
});

describe('actuators through import and export', () => {
  test('the .arow holds the actuators (name, kind, gear, gains, ranges) and loads back to the same ones', () => {
    const m = importFile(FIXTURE).model;
    const f = join(tempDir('achilles-arow-'), 'back.arow');
    writeFileSync(f, writeArow(m, ['test']));
    const back = loadScene(f);
    const strip = (x: ModelDesc) =>
      (x.actuators ?? []).map((a) => ({
        name: a.name,
        link: x.bodies[a.body].name,
        kind: a.kind,
        gear: a.gear,
        kp: a.kp,
        kv: a.kv,
        ctrlrange: a.ctrlrange,
        forcerange: a.forcerange,
      }));
    expect(strip(m).length).toBe(4);
    expect(strip(back)).toEqual(strip(m));
    // the shoulder's axis is (1, 1, 0)/√2: the gear written is the one that reads back as exactly 3
    expect(back.actuators![0].gear).toEqual([3]);
    expect(unwritten(m).filter((n) => /actuator/.test(n.message))).toEqual([]);
  });

  test('actuators that are not in link order: the .arow lists them by link, and the new control index is noted', () => {
    const f = join(tempDir('achilles-arow-'), 'order.xml');
    writeFileSync(
      f,
      '<mujoco><worldbody><body><joint name="a"/><geom size="0.1"/><body pos="0 0 1"><joint name="b"/><geom size="0.1"/></body></body></worldbody>\n' +
        '<actuator><motor name="mb" joint="b"/>\n<motor name="ma" joint="a"/></actuator></mujoco>\n',
    );
    const m = importFile(f).model;
    const notes = unwritten(m).map((n) => `${n.source.line} ${n.kind}: ${n.message}`);
    expect(notes).toEqual([
      "3 approximated: actuator 'ma' becomes control 0 (was 1): an .arow lists actuators link by link",
      "2 approximated: actuator 'mb' becomes control 1 (was 0): an .arow lists actuators link by link",
    ]);
  });

  test('the MJCF export writes the actuators MuJoCo reads (nu, joint, gear, gains, ranges); a rate limit is named, a planar actuator refused', async () => {
    const m = importFile(FIXTURE).model;
    const dir = tempDir('achilles-export-');
    const x = join(dir, 'x.xml');
    writeFileSync(x, exportMjcf(m));
    const [orig, back] = await mujoco(FIXTURE, x);
    expect(orig.nu).toBe(4);
    expect(back.actuators).toEqual(orig.actuators);
    const notes: string[] = [];
    exportMjcf({ ...m, actuators: m.actuators!.map((a, i) => (i === 1 ? { ...a, rateLimit: 2 } : a)) }, { notes });
    expect(notes).toEqual(["actuator 'p_elbow': rate_limit 2 is not written (MuJoCo's actuators have no rate limit)"]);
    const planar: ModelDesc = {
      ...m,
      bodies: m.bodies.map((b, i) =>
        i === 1 ? { ...b, joint: 'planar', q0: [0, 0, 0], v0: [0, 0, 0], tau: [0, 0, 0], range: undefined, limit: undefined } : b,
      ),
    };
    expect(() => exportMjcf(planar)).toThrow(MjcfExportError);
  });

  test('round trip: achilles import → .arow → achilles export --mjcf gives MuJoCo the same actuators and initial state', async () => {
    const dir = tempDir('achilles-roundtrip-');
    for (const key of [undefined, 'home', '1']) {
      const arow = join(dir, `k${key ?? ''}.arow`);
      const xml = join(dir, `k${key ?? ''}.xml`);
      const imp = await cli('import', FIXTURE, '-o', arow, ...(key === undefined ? [] : ['--keyframe', key]));
      expect(imp.code, imp.stderr).toBe(0);
      const exp = await cli('export', arow, '--mjcf', '--out', xml);
      expect(exp.code, exp.stderr).toBe(0);
      const [orig, back] = await mujoco(FIXTURE, xml);
      expect(back.nu).toBe(orig.nu);
      expect(back.actuators).toEqual(orig.actuators);
      // the export's keyframe `initial` is the state the import chose: qpos0 at rest, or the key
      const want = key === undefined ? { ...orig.reset, xpos: orig.xpos } : orig.keys[Number(key === 'home' ? 0 : key)];
      expect(back.keys.map((k) => k.name)).toEqual(['initial']);
      near(back.keys[0].qpos, want.qpos, 1e-15, `${key} qpos`);
      near(back.keys[0].qvel, want.qvel, 0, `${key} qvel`);
      // the same bodies in the same places (the export folds a joint's ref into its body frame)
      near(back.keys[0].xpos.flat(), want.xpos.flat(), 1e-12, `${key} xpos`);
    }
  }, 120_000);
});

describe('import notes', () => {
  test('a URDF mesh collides as its hull, with no note (nothing it can touch needs the box)', () => {
    const dir = tempDir('achilles-mesh-');
    writeFileSync(join(dir, 'part.stl'), readFileSync(join(ROOT, 'test', 'fixtures', 'import', 'part.stl')));
    const urdf = join(dir, 'r.urdf');
    writeFileSync(
      urdf,
      '<robot name="r"><link name="base"/><link name="l"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1"/></inertial>\n' +
        '<collision><geometry><mesh filename="part.stl"/></geometry></collision></link>\n<joint name="j" type="revolute"><parent link="base"/><child link="l"/><axis xyz="0 1 0"/></joint></robot>\n',
    );
    const imp = importFile(urdf);
    expect(imp.notes.filter((n) => /mesh/.test(n.message))).toEqual([]);
    expect(imp.model.shapes!.map((s) => [s.name, s.kind])).toEqual([['l/geom0', 'convex']]);
  });
});
