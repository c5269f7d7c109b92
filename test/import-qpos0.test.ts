// Joint refs inside a chain (MuJoCo's qpos0 ≠ the engine's q = 0 away from the root): the constants
// MuJoCo's mj_setConst makes at qpos0 (body_invweight0, dof_invweight0, so every constraint row's R
// through diagApprox) are made by the engine at the joints' `ref` (BodyDesc.ref → native Joint::ref),
// the MJCF import fills ref, the .arow and MJCF writers carry it. Fixture mjcf-qpos0.xml: a four-bar
// whose coupler has ref −20° (a connect closes it, the crank limited, dry friction on the coupler)
// and an arm whose foot slides (ref 0.1, limited) and turns (ref 15°) and lands on the floor.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Batch, toNativeModel } from '../src/engine/batch.js';
import { engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { exportMjcf, loadScene } from '../src/model-files/scene/index.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { polycoefAbout } from '../src/model-files/scene/equality.js';
import { constrainedFixtureReference, constrainedRows, TRAJECTORY_SECONDS } from '../src/validation/import/constrained.js';
import { FIXTURE_DIR } from '../src/validation/import/stage.js';
import { spawnAsync } from './helpers/spawn-async.js';

const FIXTURE = join(FIXTURE_DIR, 'mjcf-qpos0.xml');
const PYTHON = process.env.ACHILLES_PYTHON || 'python3';
const dir = mkdtempSync(join(tmpdir(), 'achilles-qpos0-'));
const deg = Math.PI / 180;

describe('joint refs: MuJoCo qpos0 inside a chain', () => {
  test('the import keeps each hinge and slide ref on its link (q stays MuJoCo qpos, starting at ref)', () => {
    const m = importFile(FIXTURE).model;
    const by = (n: string) => m.bodies.find((b) => b.name === n)!;
    expect(by('coupler').ref).toBeCloseTo(-20 * deg, 15);
    expect(by('extend').ref).toBe(0.1);
    expect(by('ankle').ref).toBeCloseTo(15 * deg, 15);
    for (const n of ['crank', 'rocker', 'swing']) expect(by(n).ref).toBeUndefined();
    for (const n of ['coupler', 'extend', 'ankle']) expect(by(n).q0).toEqual([by(n).ref]);
    // the binding gets ref only where there is one (models without refs hand the addon the same object)
    const nb = toNativeModel(m).bodies as Record<string, unknown>[];
    expect(nb.map((b) => b.ref)).toEqual(m.bodies.map((b) => b.ref));
    expect(nb.filter((b) => 'ref' in b).length).toBe(3);
  });

  test('import stage: rows (R especially), constrained q̈ and the trajectory against MuJoCo on the original XML', async () => {
    expect(TRAJECTORY_SECONDS['import:mjcf-qpos0.xml']).toBeGreaterThan(0);
    const ref = (await constrainedFixtureReference(PYTHON, 1, { name: 'import:mjcf-qpos0.xml', path: FIXTURE }))!;
    expect(ref.perState && ref.trajectory).toBeTruthy();
    // every kind of row the fixture is about is there: equality (0), dry friction (1), joint limits (3), contacts (6)
    const types = new Set(ref.perState!.ref.mujoco.flatMap((a) => a.efc.type));
    for (const t of [0, 1, 3, 6]) expect(types.has(t), `constraint type ${t}`).toBe(true);
    for (const precision of ['f64', 'f32'] as const) {
      const rows = constrainedRows(ref, precision, engineAddon());
      expect(rows.some((r) => r.field === 'rows.R')).toBe(true);
      expect(rows.some((r) => r.field === 'trajectory q (constraints on)')).toBe(true);
      expect(rows.filter((r) => r.status === 'fail').map((r) => `${precision} ${r.field} ${r.state} ${r.error}`)).toEqual([]);
    }
    const f64 = constrainedRows(ref, 'f64', engineAddon());
    const worst = (field: string) => Math.max(...f64.filter((r) => r.field === field).map((r) => r.error));
    expect(worst('rows.R')).toBeLessThan(1e-13);
    expect(worst('qacc (constraints on)')).toBeLessThan(1e-11);
  }, 120_000);

  test('a connect left to be made at qpos0 is made natively with the joints at ref (as the importer makes it, as MuJoCo)', () => {
    const m = importFile(FIXTURE).model;
    const { anchor2: _a, ...loop } = m.equalities![0];
    const bare = { ...m, equalities: [loop] };
    const q = m.bodies.flatMap((b) => b.q0.map((x, k) => x + 0.3 - 0.2 * k));
    const state = { q, v: q.map(() => 0), tau: q.map(() => 0) };
    const dist = (model: typeof m) => {
      const b = new Batch(model, { copies: 1, precision: 'f64' }, engineAddon());
      b.setRobot(0, state);
      return b
        .constraints(0, { iterations: 0 })
        .rows.filter((r) => r.kind === 'equality')
        .map((r) => r.dist);
    };
    const given = dist(m);
    const made = dist(bare);
    expect(made.length).toBe(3);
    made.forEach((d, k) => expect(Math.abs(d - given[k])).toBeLessThan(1e-15));
    expect(Math.max(...given.map(Math.abs))).toBeGreaterThan(1e-3); // the state is away from qpos0
  });

  test('.arow: written by `achilles import` and loaded back with the same refs and constraints', () => {
    const m = importFile(FIXTURE).model;
    const f = join(dir, 'qpos0.arow');
    writeFileSync(f, writeArow(m, ['test']));
    const back = loadScene(f);
    expect(back.bodies.map((b) => b.ref)).toEqual(m.bodies.map((b) => b.ref));
    expect(back.equalities!.map(({ source: _s, ...e }) => e)).toEqual(m.equalities!.map(({ source: _s, ...e }) => e));
    const nb = toNativeModel(back).bodies as Record<string, unknown>[];
    expect(nb.map((b) => b.ref)).toEqual(m.bodies.map((b) => b.ref));
  });

  test('.arow: `ref` on a revolute or prismatic joint, refused on others at its line; 0 is no ref', () => {
    const write = (joint: string) => {
      const f = join(dir, 's.arow');
      writeFileSync(f, `scene: s\nlinks:\n  - name: a\n    parent: world\n    joint: ${joint}\n    mass: 1\n    inertia: [1, 1, 1]\n`);
      return f;
    };
    expect(loadScene(write('{ type: revolute, axis: [0, 1, 0], ref: -0.3 }')).bodies[0].ref).toBe(-0.3);
    expect(loadScene(write('{ type: prismatic, axis: [0, 1, 0], ref: 0 }')).bodies[0].ref).toBeUndefined();
    expect(() => loadScene(write('{ type: ball, ref: 0.1 }'))).toThrow(
      /s\.arow:5:\d+: .*ref.*expected a ref on revolute and prismatic joints only/,
    );
  });

  test('a joint equality written about its joints’ refs is the same constraint', () => {
    const e = {
      polycoef: [0.01, -0.8, 0.3, 0.2, -0.1] as [number, number, number, number, number],
      ref: [0.02, -0.05] as [number, number],
      joint2: 1,
    };
    const c = polycoefAbout(e, [0.3, 0.4]);
    for (const x of [-0.3, 0, 0.1, 0.7]) {
      const y1 = e.polycoef.reduce((s, a, k) => s + a * (x - e.ref[1]) ** k, 0) + e.ref[0];
      const y2 = c.reduce((s, a, k) => s + a * (x - 0.4) ** k, 0) + 0.3;
      expect(y2).toBeCloseTo(y1, 14);
    }
    expect(polycoefAbout(e, [0.02, -0.05])).toEqual(e.polycoef);
    const one = { polycoef: [0.2, 1, 0, 0, 0] as [number, number, number, number, number], ref: [0.1, 0] as [number, number] };
    expect(polycoefAbout(one, [0.4, 0])[0] + 0.4).toBeCloseTo(0.3, 15);
  });

  test('round trip: import → MJCF export → MuJoCo has the same qpos0 and inverse weights as the original file', async () => {
    const m = importFile(FIXTURE).model;
    const exported = join(dir, 'exported.xml');
    writeFileSync(exported, exportMjcf(m, { contacts: true }));
    const script = String.raw`
import mujoco, sys, json
out = []
for p in sys.argv[1:3]:
    m = mujoco.MjModel.from_xml_path(p)
    out.append({"qpos0": m.qpos0.tolist(), "body": m.body_invweight0.flatten().tolist(), "dof": m.dof_invweight0.tolist()})
print(json.dumps(out))
`;
    const r = await spawnAsync(PYTHON, ['-c', script, FIXTURE, exported]);
    expect(r.status, r.stderr).toBe(0);
    const [orig, back] = JSON.parse(r.stdout) as { qpos0: number[]; body: number[]; dof: number[] }[];
    const close = (a: number[], b: number[], tol: number, what: string) => {
      expect(a.length, what).toBe(b.length);
      a.forEach((x, k) =>
        expect(Math.abs(x - b[k]), `${what}[${k}] ${x} vs ${b[k]}`).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b[k]))),
      );
    };
    close(back.qpos0, orig.qpos0, 1e-15, 'qpos0');
    // the exported bodies are the engine's links: a massless link per extra joint, so body ids differ;
    // the dofs are the same, and the moving bodies' weights are the same set
    close(back.dof, orig.dof, 1e-12, 'dof_invweight0');
    const nonzero = (a: number[]) => a.filter((x) => x > 1e-9).sort((x, y) => x - y);
    for (const x of nonzero(orig.body))
      expect(
        nonzero(back.body).some((y) => Math.abs(x - y) <= 1e-12 * x),
        `body_invweight0 ${x}`,
      ).toBe(true);
  }, 60_000);
});
