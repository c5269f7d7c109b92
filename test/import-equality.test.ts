// MJCF <equality> import (src/model-files/import/mjcf/equality.ts, compile.ts): connect, weld and
// joint constraints with their body and site semantics and default classes, what MuJoCo computes at
// qpos0 computed at MuJoCo's qpos0 (not the engine's q = 0), the refusals at FILE:LINE:COL, the .arow
// round trip, the import stage's constrained gates on the fixture against MuJoCo compiling the XML
// itself, and import → MJCF export → MuJoCo giving the same constraints as the original file.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import type { EqualityDesc } from '../src/engine/model-desc.js';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf, loadScene, SceneError } from '../src/model-files/scene/index.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { polycoefAtZero } from '../src/model-files/scene/equality.js';
import { constrainedFixtureReference, constrainedRows } from '../src/validation/import/constrained.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';
import { spawnAsync } from './helpers/spawn-async.js';

const FIXTURE = join(FIXTURE_DIR, 'mjcf-equality.xml');
const PYTHON = process.env.ACHILLES_PYTHON || 'python3';
const dir = mkdtempSync(join(tmpdir(), 'achilles-import-eq-'));

function errorOf(xml: string, name: string): string {
  const f = join(dir, name);
  writeFileSync(f, xml);
  try {
    importFile(f);
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError);
    return (e as Error).message;
  }
  throw new Error('expected a SceneError');
}

/** Two hinged bars (a, b under the world) with sites, and `eq` as the <equality> section (line 4). */
const BARS = (eq: string, extra = '') =>
  `<mujoco>\n<worldbody><site name="w"/><body name="a"><joint name="ja" axis="0 1 0"/><geom size="0.1"/><site name="sa" pos="0 0 0.1"/></body>\n<body name="b" pos="0.5 0 0"><joint name="jb" axis="0 1 0"/><joint name="jball" type="ball"/><geom size="0.1"/><site name="sb"/></body>${extra}</worldbody>\n${eq}\n</mujoco>\n`;

describe('MJCF equality import', () => {
  test('the fixture: types, names, classes, offsets into the links, refs, partial polycoef, active', () => {
    const m = importFile(FIXTURE).model;
    const eq = new Map(m.equalities!.map((e) => [e.name, e]));
    const link = (i: number | undefined) => (i === undefined || i < 0 ? 'world' : m.bodies[i].name);
    expect([...eq.keys()]).toEqual(['loop', 'fingers', 'fingers_off', 'glue', 'hang', 'paddle_lock']);
    const loop = eq.get('loop')!;
    expect([loop.type, link(loop.body1), link(loop.body2), loop.solref]).toEqual(['connect', 'coupler', 'rocker', [0.01, 1]]); // main class
    expect(loop.anchor).toEqual([0.43, 0, 0]); // body1's anchor 0.45 moved by the link offset (joint pos 0.02)
    expect(loop.anchor2).toBeDefined(); // made here at MuJoCo's qpos0 (crank ref 30°, rocker ref −15°)
    const fingers = eq.get('fingers')!;
    expect([link(fingers.joint1), link(fingers.joint2), fingers.polycoef, fingers.ref]).toEqual([
      'finger_right',
      'finger_left',
      [0, -1, 0, 0, 0], // polycoef="0 -1": MuJoCo keeps the rest of 0 1 0 0 0
      [0, 0.01], // y0, x0: the joints' refs
    ]);
    expect(eq.get('fingers_off')!.active).toBe(false);
    const glue = eq.get('glue')!;
    expect([glue.solref, glue.solimp, glue.torquescale, glue.anchor]).toEqual([
      [0.005, 1],
      [0.95, 0.99, 0.001, 0.5, 2],
      0.5,
      [0.01, 0.02, 0.3],
    ]);
    expect(Math.hypot(...glue.relpose!.slice(3))).toBeCloseTo(1, 15);
    const hang = eq.get('hang')!;
    expect([link(hang.body1), link(hang.body2), hang.anchor, hang.anchor2, hang.solimp]).toEqual([
      'ball',
      'world',
      [0, 0, 0.05],
      [1.5, 0, 1],
      [0.9, 0.95, 0.002, 0.5, 2],
    ]);
    const lock = eq.get('paddle_lock')!;
    expect([link(lock.body1), link(lock.body2), lock.torquescale]).toEqual(['paddle', 'arm', 0.2]);
    expect(lock.quat2).toBeDefined(); // the site semantic: site2's frame (from fromto) on the arm
  });

  test('what MuJoCo computes at qpos0 equals MuJoCo: eq_data of the body semantic, mapped into the links', async () => {
    const imp = importFile(FIXTURE);
    const r = await spawnAsync(PYTHON, [
      '-c',
      'import mujoco,sys,json; m=mujoco.MjModel.from_xml_path(sys.argv[1]); print(json.dumps([m.eq_data[i].tolist() for i in range(m.neq)]))',
      FIXTURE,
    ]);
    expect(r.status, r.stderr).toBe(0);
    const data = JSON.parse(r.stdout) as number[][];
    const eqs = imp.model.equalities!;
    const off = (link: number) => imp.bodyMap.find((b) => b.link === link)?.offset ?? [0, 0, 0];
    const near = (got: readonly number[], want: readonly number[], what: string) =>
      got.forEach((x, i) => expect(Math.abs(x - want[i]), `${what}[${i}] ${x} vs ${want[i]}`).toBeLessThanOrEqual(1e-15));
    const loop = eqs[0];
    near(
      loop.anchor2!,
      data[0].slice(3, 6).map((x, k) => x + off(loop.body2!)[k]),
      'loop anchor2',
    );
    const glue = eqs[3];
    near(glue.relpose!, [...data[3].slice(3, 6).map((x, k) => x + off(glue.body1!)[k]), ...data[3].slice(6, 10)], 'glue relpose');
  });

  test('refused at FILE:LINE:COL with what is supported', () => {
    expect(errorOf(BARS('<equality><tendon tendon1="t"/></equality>'), 'tendon.xml')).toMatch(
      /tendon\.xml:4:11: <tendon>: found a tendon equality constraint.*expected connect, weld or joint/,
    );
    expect(errorOf(BARS('<equality><flex flex="f"/></equality>'), 'flex.xml')).toMatch(/flex\.xml:4:11: .*flex equality constraint/);
    expect(errorOf(BARS('<equality><connect body1="a"/></equality>'), 'noanchor.xml')).toMatch(
      /noanchor\.xml:4:11: .*no site1 \(body1 without anchor\).*body1 and anchor.*or site1 and site2/,
    );
    expect(errorOf(BARS('<equality><weld site1="sa"/></equality>'), 'nosite2.xml')).toMatch(/nosite2\.xml:4:11: .*no site2/);
    expect(errorOf(BARS('<equality><connect body1="nope" anchor="0 0 0"/></equality>'), 'nobody.xml')).toMatch(
      /nobody\.xml:4:\d+: equality 'equality0' body1: found 'nope', which the model does not have/,
    );
    expect(errorOf(BARS('<equality><connect site1="sa" site2="zz"/></equality>'), 'nosite.xml')).toMatch(
      /nosite\.xml:4:\d+: .*site2: found 'zz', which the model does not have/,
    );
    expect(errorOf(BARS('<equality><joint joint1="ja" joint2="jball"/></equality>'), 'ball.xml')).toMatch(
      /ball\.xml:4:\d+: .*'jball', a ball joint.*hinge or slide/,
    );
    expect(errorOf(BARS('<equality><joint joint1="ja" polycoef="0 1 0 0 0 0"/></equality>'), 'poly.xml')).toMatch(
      /poly\.xml:4:\d+: .*polycoef.*1 to 5 numbers/,
    );
    expect(errorOf(BARS('<equality><joint name="e" joint1="ja"/><joint name="e" joint1="jb"/></equality>'), 'dup.xml')).toMatch(
      /dup\.xml:4:\d+: .*'e' a second time/,
    );
    expect(errorOf(BARS('<equality><weld body1="a" body2="a"/></equality>'), 'same.xml')).toMatch(
      /same\.xml:4:\d+: .*the same body as body1/,
    );
    expect(errorOf(BARS('<equality><weld body1="s1" body2="s2"/></equality>', '<body name="s1"/><body name="s2"/>'), 'static.xml')).toMatch(
      /static\.xml:4:11: equality 'equality0': found a constraint between two bodies that cannot move/,
    );
    expect(
      errorOf(
        BARS(
          '<equality><connect site1="sc" site2="w"/></equality>',
          '<body name="c"><joint/><geom size="0.1"/><site name="sc" fromto="0 0 0 0 0 1"/></body>',
        ),
        'fromto.xml',
      ),
    ).toMatch(/fromto\.xml:3:\d+: site 'sc' fromto: found fromto on a sphere site/);
  });

  test('flag equality="disable" (and constraint="disable") leaves the constraints out, as MuJoCo runs it', () => {
    const f = join(dir, 'off.xml');
    writeFileSync(
      f,
      BARS('<equality><connect body1="a" body2="b" anchor="0.5 0 0"/></equality>').replace(
        '<worldbody>',
        '<option><flag equality="disable"/></option><worldbody>',
      ),
    );
    const imp = importFile(f);
    expect(imp.model.equalities).toBeUndefined();
    expect(imp.notes.some((n) => /flag equality="disable": no equality constraint rows/.test(n.message))).toBe(true);
  });

  test('.arow: written by `achilles import` and loaded back to the same constraints (the joints carry their refs: y0, x0)', () => {
    const m = importFile(FIXTURE).model;
    const f = join(dir, 'eq.arow');
    writeFileSync(f, writeArow(m, ['test']));
    const back = loadScene(f);
    const strip = (e: EqualityDesc) => {
      const { source: _s, ...rest } = e;
      return rest;
    };
    expect(back.equalities).toEqual(m.equalities!.map(strip));
    expect(back.bodies.map((b) => b.ref)).toEqual(m.bodies.map((b) => b.ref));
    // the re-expanded polynomial is the same constraint: y − y0 − P(x − x0) = y − Q(x)
    const fingers = m.equalities![1];
    const Q = polycoefAtZero(fingers);
    for (const x of [-0.03, 0, 0.01, 0.05]) {
      const d = x - fingers.ref![1];
      const p = fingers.polycoef!.reduce((s, a, k) => s + a * d ** k, 0) + fingers.ref![0];
      expect(Q.reduce((s, a, k) => s + a * x ** k, 0)).toBeCloseTo(p, 15);
    }
  });

  test('import stage: the equality rows and the constrained q̈ against MuJoCo on the original XML (f64 to round-off, f32 to its bars)', async () => {
    const ref = (await constrainedFixtureReference(PYTHON, 1, { name: 'import:mjcf-equality.xml', path: FIXTURE }))!;
    expect(ref.perState).toBeDefined();
    for (const precision of ['f64', 'f32'] as const) {
      const rows = constrainedRows(ref, precision, engineAddon());
      expect(rows.some((r) => r.field === 'rows.dist')).toBe(true);
      expect(rows.filter((r) => r.status === 'fail').map((r) => `${precision} ${r.field} ${r.state} ${r.error}`)).toEqual([]);
    }
    const f64 = constrainedRows(ref, 'f64', engineAddon());
    const worst = (field: string) => Math.max(...f64.filter((r) => r.field === field).map((r) => r.error));
    expect(worst('rows.dist')).toBeLessThan(1e-14);
    expect(worst('rows.R')).toBeLessThan(1e-13);
    expect(worst('qacc (constraints on)')).toBeLessThan(1e-11);
  }, 60_000);

  test('round trip: import → MJCF export → MuJoCo has the same constraints (eq_active0, solref, solimp; anchors, frames, rows, q̈)', async () => {
    const m = importFile(FIXTURE).model;
    const exported = join(dir, 'exported.xml');
    writeFileSync(exported, exportMjcf(m, { contacts: false }));
    const script = String.raw`
import mujoco, sys, json, numpy as np
def view(path, qpos, qvel):
    m = mujoco.MjModel.from_xml_path(path); d = mujoco.MjData(m)
    d.qpos[:] = qpos; d.qvel[:] = qvel; mujoco.mj_forward(m, d)
    out = {}
    for i in range(m.neq):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_EQUALITY, i)
        e = {"type": int(m.eq_type[i]), "active": bool(m.eq_active0[i]), "solref": m.eq_solref[i].tolist(), "solimp": m.eq_solimp[i].tolist()}
        o1, o2 = int(m.eq_obj1id[i]), int(m.eq_obj2id[i])
        if int(m.eq_type[i]) in (int(mujoco.mjtEq.mjEQ_CONNECT), int(mujoco.mjtEq.mjEQ_WELD)):
            data = m.eq_data[i]
            if int(m.eq_objtype[i]) == int(mujoco.mjtObj.mjOBJ_BODY):
                a1, a2 = (data[0:3], data[3:6]) if int(m.eq_type[i]) == int(mujoco.mjtEq.mjEQ_CONNECT) else (data[3:6], data[0:3])
                p1 = d.xpos[o1] + d.xmat[o1].reshape(3, 3) @ a1; p2 = d.xpos[o2] + d.xmat[o2].reshape(3, 3) @ a2
                q1 = np.zeros(4); mujoco.mju_mulQuat(q1, d.xquat[o1], data[6:10]); q2 = d.xquat[o2].copy()
            else:
                p1, p2 = d.site_xpos[o1], d.site_xpos[o2]
                q1 = np.zeros(4); mujoco.mju_mulQuat(q1, d.xquat[m.site_bodyid[o1]], m.site_quat[o1])
                q2 = np.zeros(4); mujoco.mju_mulQuat(q2, d.xquat[m.site_bodyid[o2]], m.site_quat[o2])
            e["p1"], e["p2"] = list(p1), list(p2)
            if int(m.eq_type[i]) == int(mujoco.mjtEq.mjEQ_WELD):
                rel = np.zeros(4); neg = np.zeros(4); mujoco.mju_negQuat(neg, q2); mujoco.mju_mulQuat(rel, neg, q1)
                e["rel"] = list(rel * np.sign(rel[0])); e["torquescale"] = float(m.eq_data[i][10])
        else:
            e["joints"] = [mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, o) for o in (o1, o2) if o >= 0]
        rows = [k for k in range(d.nefc) if d.efc_type[k] == mujoco.mjtConstraint.mjCNSTR_EQUALITY and d.efc_id[k] == i]
        e["pos"] = [float(d.efc_pos[k]) for k in rows]
        out[name] = e
    return {"eq": out, "qacc": d.qacc.tolist()}
args = json.loads(sys.argv[3])
print(json.dumps([view(sys.argv[1], args["qpos"], args["qvel"]), view(sys.argv[2], args["qpos"], args["qvel"])]))
`;
    // a state away from qpos0, moving (the same numbers in both: the export keeps MuJoCo's qpos layout)
    const qpos = m.bodies.flatMap((b) =>
      b.joint === 'free' ? [b.q0[0] + 0.02, b.q0[1] - 0.01, b.q0[2], 0.96, 0.1, -0.2, 0.15] : b.q0.map((x) => x + 0.1),
    );
    const n = Math.hypot(0.96, 0.1, -0.2, 0.15);
    m.bodies.forEach((b, i) => {
      if (b.joint !== 'free') return;
      const o = m.bodies.slice(0, i).reduce((s, c) => s + c.q0.length, 0);
      for (let k = 3; k < 7; k++) qpos[o + k] /= n;
    });
    const qvel = m.bodies.flatMap((b) => b.v0.map((_, k) => 0.3 - 0.1 * k));
    const r = await spawnAsync(PYTHON, ['-c', script, FIXTURE, exported, JSON.stringify({ qpos, qvel })]);
    expect(r.status, r.stderr).toBe(0);
    const [orig, back] = JSON.parse(r.stdout) as { eq: Record<string, Record<string, unknown>>; qacc: number[] }[];
    expect(Object.keys(back.eq)).toEqual(Object.keys(orig.eq));
    const close = (a: unknown, b: unknown, tol: number, what: string) => {
      const fa = [a].flat(2) as number[];
      const fb = [b].flat(2) as number[];
      expect(fa.length, what).toBe(fb.length);
      fa.forEach((x, k) => expect(Math.abs(x - fb[k]), `${what}[${k}] ${x} vs ${fb[k]}`).toBeLessThanOrEqual(tol));
    };
    for (const [name, o] of Object.entries(orig.eq)) {
      const b = back.eq[name];
      expect((o.pos as number[]).length, `${name} rows`).toBe(
        o.active ? ({ 0: 3, 1: 6, 2: 1 } as Record<number, number>)[o.type as number] : 0,
      );
      for (const k of ['type', 'active', 'solref', 'solimp', 'torquescale', 'joints']) expect(b[k], `${name}.${k}`).toEqual(o[k]);
      for (const k of ['p1', 'p2', 'rel', 'pos']) if (o[k] !== undefined) close(b[k], o[k], 1e-14, `${name}.${k}`);
    }
    const scale = Math.max(1, ...orig.qacc.map(Math.abs));
    close(
      back.qacc.map((x) => x / scale),
      orig.qacc.map((x) => x / scale),
      1e-11,
      'qacc',
    );
  }, 60_000);
});
