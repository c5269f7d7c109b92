// The constraint rows and the solve against MuJoCo 3.14 itself, per state (f64): the same scene
// exported to MJCF, pyramidal cone, warm start off. Rows are matched by content (MuJoCo orders
// contacts by geom pair). Bars are a few hundred ulps above what was measured (see each line).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { execFileAsync } from './helpers/spawn-async.js';
import { Batch } from '../src/engine/batch.js';
import { exportMjcf } from '../src/model-files/scene/mjcf-writer.js';
import { contactScene } from './helpers/contact-scene.js';
import { rng } from './helpers/engine.js';
import { matchRows, type MjState } from './helpers/mujoco-rows.js';

const unit = (q: number[]) => {
  const n = Math.hypot(...q);
  return q.map((x) => x / n);
};

describe('constraint rows and accelerations vs MuJoCo (per state, f64)', () => {
  it('dry friction, limits and pyramidal contacts of spheres, a capsule and a box on a plane: J, dist, aref, R, D, forces and qacc', async () => {
    const model = contactScene();
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    const tolerant = new Batch({ ...model, solver: { ...model.solver!, tolerance: 1e-8 } }, { copies: 1, precision: 'f64', lanes: 1 });
    const g = rng(11);
    const states = Array.from({ length: 8 }, () => ({
      qpos: [
        (g() - 0.5) * 0.2,
        (g() - 0.5) * 0.2,
        0.1 + (g() - 0.7) * 0.004,
        ...unit([1, (g() - 0.5) * 0.3, (g() - 0.5) * 0.3, g() - 0.5]),
        0.5,
        0,
        0.05 + (g() - 0.7) * 0.004,
        ...unit([1, (g() - 0.5) * 0.05, (g() - 0.5) * 0.05, g() - 0.5]),
        -0.52 + g() * 0.03,
        0.58 + g() * 0.04,
        -0.4,
        0.2,
        0.04 + (g() - 0.6) * 0.003,
        ...unit([1, (g() - 0.5) * 0.01, (g() - 0.5) * 0.01, g() - 0.5]),
      ],
      qvel: Array.from({ length: b.nv }, () => (g() - 0.5) * 0.6),
    }));
    const geoms = Object.fromEntries(
      (model.shapes ?? [])
        .filter((s) => s.solref || s.solimp || s.condim)
        .map((s) => [s.name, { solref: s.solref, solimp: s.solimp, condim: s.condim }]),
    );
    const joints = Object.fromEntries(
      model.bodies
        .filter((x) => x.range || x.frictionloss)
        .map((x) => [
          x.name,
          { ...(x.range ? { range: x.range } : {}), ...(x.limit ?? {}), ...(x.frictionloss ? { frictionloss: x.frictionloss } : {}) },
        ]),
    );
    const script = fileURLToPath(new URL('./helpers/contact_ref.py', import.meta.url));
    const req = { xml: exportMjcf(model, { contacts: true }), impratio: model.solver!.impratio, geoms, joints, states, cg: 20 };
    // awaited, not synchronous: the worker's event loop keeps turning meanwhile (issue 23)
    const ref = JSON.parse(await execFileAsync('python3', [script], { input: JSON.stringify(req) })) as { states: MjState[] };
    const worst = { J: 0, dist: 0, aref: 0, R: 0, D: 0, force: 0, qacc: 0, smooth: 0, cg20: 0, cg20tol: 0 };
    let rows = 0;
    states.forEach((st, k) => {
      b.setRobot(0, { q: st.qpos, v: st.qvel });
      const ours = b.constraints(0, { iterations: 3000 });
      const mj = ref.states[k];
      expect(ours.rows.length, `state ${k}: row count`).toBe(mj.J.length);
      for (const { r, best, err } of matchRows(ours.rows, mj.J)) {
        rows++;
        worst.J = Math.max(worst.J, err);
        worst.dist = Math.max(worst.dist, Math.abs(mj.pos[best] - r.dist));
        worst.aref = Math.max(worst.aref, Math.abs(mj.aref[best] - r.aref) / Math.max(1, Math.abs(mj.aref[best])));
        worst.R = Math.max(worst.R, Math.abs(mj.R[best] - r.R) / mj.R[best]);
        worst.D = Math.max(worst.D, Math.abs(mj.D[best] - r.D) / mj.D[best]);
        worst.force = Math.max(worst.force, Math.abs(mj.force[best] - r.force) / Math.max(1, Math.abs(mj.force[best])));
      }
      const scale = Math.max(1, ...mj.qacc.map(Math.abs));
      worst.qacc = Math.max(worst.qacc, ...mj.qacc.map((x, c) => Math.abs(x - ours.qacc[c]) / scale));
      worst.smooth = Math.max(worst.smooth, ...mj.qacc_smooth.map((x, c) => Math.abs(x - ours.qaccSmooth[c]) / scale));
      const ours20 = b.constraints(0, { iterations: 20 }).qacc;
      worst.cg20 = Math.max(worst.cg20, ...mj.qacc_cg.map((x, c) => Math.abs(x - ours20[c]) / scale));
      tolerant.setRobot(0, { q: st.qpos, v: st.qvel });
      const oursTol = tolerant.constraints(0).qacc;
      worst.cg20tol = Math.max(worst.cg20tol, ...mj.qacc_cg_tol.map((x, c) => Math.abs(x - oursTol[c]) / scale));
    });
    expect(rows).toBeGreaterThan(100);
    // measured (22:50): J 8.9e-16, dist 1.1e-16, aref 1.1e-13, R/D 3.2e-15, force 8.8e-14, qacc 2.2e-15, CG-20 1.6e-15
    expect(worst.J).toBeLessThan(1e-13);
    expect(worst.dist).toBeLessThan(1e-13);
    expect(worst.aref).toBeLessThan(1e-11);
    expect(worst.R).toBeLessThan(1e-12);
    expect(worst.D).toBeLessThan(1e-12);
    expect(worst.force).toBeLessThan(1e-9);
    expect(worst.qacc).toBeLessThan(1e-10);
    expect(worst.smooth).toBeLessThan(1e-12);
    // our 20 CG iterations are MuJoCo's (per island, Hager–Zhang, exact line search)
    expect(worst.cg20).toBeLessThan(1e-8);
    // and with MuJoCo's default tolerance 1e-8 (solver.tolerance), each island stops where MuJoCo's does
    expect(worst.cg20tol).toBeLessThan(1e-8);
    console.log('worst vs MuJoCo', JSON.stringify(worst));
  }, 60_000);
});
