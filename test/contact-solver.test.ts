// The native constraint solver (issue 10): determinism with contacts and limits, the soft
// contact's static equilibrium, the diagnostic's invariants, and models without constraints untouched.
import { describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { solverRun, type IntegratorName, type ModelDesc } from '../src/engine/model-desc.js';
import type { LaneWidth, Precision } from '../src/engine/api.js';
import { cellTitle, laneCells } from './helpers/lanes.js';
import { contactScene, restingSphere } from './helpers/contact-scene.js';
import { rng } from './helpers/engine.js';
import { join } from 'node:path';
import { bugAddon, packageRoot } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';

const cells = laneCells();

/** Robot r's start: the scene's, with seeded velocities (so the lanes of a block differ). */
function run(
  model: ModelDesc,
  precision: Precision,
  lanes: LaneWidth,
  copies: number,
  steps: number,
  threads = 1,
  robots: number[] = [...Array(copies).keys()],
) {
  const b = new Batch(model, { copies, precision, lanes, threads });
  for (let r = 0; r < copies; r++) {
    const g = rng(77 + (robots[r] ?? r));
    b.setRobot(r, { v: Array.from({ length: b.nv }, () => (g() - 0.5) * 1.5) });
  }
  b.step(steps);
  return Array.from({ length: copies }, (_, r) => {
    const s = b.getRobot(r);
    return [...s.q, ...s.v, ...s.qacc];
  });
}

describe('contacts and limits: bit-identical across lanes, batch sizes, threads and repeats', () => {
  for (const integrator of ['euler', 'rk4', 'verlet', 'midpoint'] as IntegratorName[])
    for (const precision of ['f32', 'f64'] as const) {
      const widths = cells.filter((c) => c.precision === precision && !c.skip).map((c) => c.lanes);
      it(`${integrator} ${precision} at lanes ${widths.join(', ')}`, () => {
        const model = contactScene(integrator);
        const steps = integrator === 'euler' ? 120 : 60;
        const alone = [0, 5, 10].map((r) => run(model, precision, 1, 1, steps, 1, [r])[0]);
        for (const lanes of widths)
          for (const copies of [11, 13]) {
            const all = run(model, precision, lanes, copies, steps, copies === 13 ? 2 : 1);
            [0, 5, 10].forEach((r, k) => expect(all[r], `lanes ${lanes} copies ${copies} robot ${r}`).toEqual(alone[k]));
          }
        expect([0, 5, 10].map((r) => run(model, precision, 1, 1, steps, 1, [r])[0])).toEqual(alone);
        expect(alone[0]).not.toEqual(alone[1]); // the comparison can fail
      });
    }
  for (const c of cells.filter((c) => c.skip)) it.skip(cellTitle(`${c.precision} × ${c.lanes} lanes`, c), () => {});
});

describe("with a tolerance (each island stops as MuJoCo's CG does): still bit-identical across lanes and threads", () => {
  for (const precision of ['f32', 'f64'] as const) {
    const widths = cells.filter((c) => c.precision === precision && !c.skip).map((c) => c.lanes);
    it(`euler ${precision} at lanes ${widths.join(', ')}`, () => {
      const base = contactScene();
      const model = { ...base, solver: { ...base.solver!, tolerance: 1e-8 } };
      const alone = [0, 5, 10].map((r) => run(model, precision, 1, 1, 120, 1, [r])[0]);
      for (const lanes of widths) {
        const all = run(model, precision, lanes, 13, 120, 2);
        [0, 5, 10].forEach((r, k) => expect(all[r], `lanes ${lanes} robot ${r}`).toEqual(alone[k]));
      }
      expect(alone[0]).not.toEqual(run(base, precision, 1, 1, 120, 1, [0])[0]); // the tolerance does stop early
    });
  }
});

describe("the Newton solver (MuJoCo's, dense Hessian per lane): bit-identical across lanes and threads, and the same optimum as CG", () => {
  for (const precision of ['f32', 'f64'] as const) {
    const widths = cells.filter((c) => c.precision === precision && !c.skip).map((c) => c.lanes);
    it(`euler ${precision} at lanes ${widths.join(', ')}`, () => {
      const base = contactScene();
      const model = { ...base, solver: { ...base.solver!, iterations: 100, tolerance: 1e-8, method: 'newton' as const } };
      const alone = [0, 5, 10].map((r) => run(model, precision, 1, 1, 120, 1, [r])[0]);
      for (const lanes of widths) {
        const all = run(model, precision, lanes, 13, 120, 2);
        [0, 5, 10].forEach((r, k) => expect(all[r], `lanes ${lanes} robot ${r}`).toEqual(alone[k]));
      }
      const cg = { ...base, solver: { ...base.solver!, tolerance: 1e-8 } };
      expect(alone[0]).not.toEqual(run(cg, precision, 1, 1, 120, 1, [0])[0]); // Newton runs, not CG
    });
  }

  it('converges where CG run long converges (f64, every row kind: friction, limits, contacts)', () => {
    const base = contactScene();
    const newton = new Batch(
      { ...base, solver: { ...base.solver!, iterations: 100, tolerance: 0, method: 'newton' } },
      { copies: 1, precision: 'f64', lanes: 1 },
    );
    const cg = new Batch({ ...base, solver: { ...base.solver!, tolerance: 0 } }, { copies: 1, precision: 'f64', lanes: 1 });
    for (let k = 0; k < 4; k++) {
      newton.step(30);
      const s = newton.getRobot(0);
      cg.setRobot(0, { q: s.q, v: s.v, tau: s.tau });
      const a = newton.constraints(0, { iterations: 30 });
      const b = cg.constraints(0, { iterations: 5000 });
      expect(a.rows.length).toBeGreaterThan(4);
      const scale = Math.max(...b.qacc.map(Math.abs));
      const err = Math.max(...a.qacc.map((x, i) => Math.abs(x - b.qacc[i])));
      expect(err / scale).toBeLessThan(1e-9);
    }
  });

  it('a model over 64 dofs that asks for Newton runs CG, and says so', () => {
    const m = {
      bodies: Array.from({ length: 11 }, () => ({ joint: 'free' })),
      solver: { iterations: 20, impratio: 1, method: 'newton' as const },
    };
    const r = solverRun(m as unknown as Parameters<typeof solverRun>[0]);
    expect(r.method).toBe('cg');
    expect(r.note).toMatch(/66 dofs.*64/);
    expect(solverRun({ ...m, bodies: m.bodies.slice(0, 10) } as unknown as Parameters<typeof solverRun>[0]).method).toBe('newton');
  });
});

describe('soft contact', () => {
  it("a resting frictionless sphere sinks to MuJoCo's static equilibrium r = g·(1 − d)·tc²·dr² (flat impedance d = dmax)", () => {
    for (const [solref, d] of [
      [[0.02, 1], 0.9],
      [[0.05, 0.7], 0.95],
    ] as [[number, number], number][]) {
      const b = new Batch(restingSphere(solref, d), { copies: 1, precision: 'f64', lanes: 1 });
      b.step(3000); // 6 s: the spring-damper has settled
      const z = b.getRobot(0).q[2];
      const expected = 9.81 * (1 - d) * solref[0] ** 2 * solref[1] ** 2;
      expect(Math.abs(0.1 - z - expected) / expected).toBeLessThan(1e-9);
      expect(Math.abs(b.getRobot(0).v[2])).toBeLessThan(1e-10);
    }
  });

  it('the diagnostic: converged forces satisfy f = −D(J·qacc − aref) on violated rows (dry friction: clamped to ±frictionloss) and Jᵀf = qfrc_constraint', () => {
    const model = contactScene();
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    b.step(40);
    const c = b.constraints(0, { iterations: 3000 });
    expect(c.rows.length).toBeGreaterThan(4);
    expect(c.rows.some((r) => r.kind === 'limit')).toBe(true);
    expect(c.rows.filter((r) => r.kind === 'friction').length).toBe(7); // the capsule's 6 dofs and the elbow
    const nv = b.nv;
    const qfrc = new Array(nv).fill(0);
    for (const r of c.rows) {
      const jar = r.J.reduce((s, j, k) => s + j * c.qacc[k], 0) - r.aref;
      const floss = r.kind === 'friction' ? model.bodies[r.id].frictionloss! : 0;
      const expected =
        r.kind === 'friction' ? (jar <= -r.R * floss ? floss : jar >= r.R * floss ? -floss : -r.D * jar) : jar < 0 ? -r.D * jar : 0;
      expect(Math.abs(r.force - expected)).toBeLessThan(1e-6 * Math.max(1, Math.abs(r.force)));
      expect(r.D).toBeCloseTo(1 / r.R, 12);
      r.J.forEach((j, k) => (qfrc[k] += j * r.force));
    }
    qfrc.forEach((f, k) => expect(f).toBeCloseTo(c.qfrcConstraint[k], 8));
    // 20 iterations leave an error; none leaves qacc_smooth
    expect(b.constraints(0, { iterations: 0 }).qacc).toEqual(c.qaccSmooth);
    // nothing in the batch changed
    expect(b.constraints(0, { iterations: 3000 })).toEqual(c);
  });

  it('a model without shapes or limits steps exactly as forward dynamics alone', () => {
    const model = contactScene();
    const bare: ModelDesc = {
      ...model,
      shapes: [],
      bodies: model.bodies.map((x) => ({ ...x, range: undefined, limit: undefined, frictionloss: undefined })),
    };
    const b = new Batch(bare, { copies: 1, precision: 'f64', lanes: 1 });
    b.forward();
    const a0 = b.getRobot(0).qacc;
    expect(b.constraints(0).qacc).toEqual(a0);
    expect(b.constraints(0).rows).toEqual([]);
  });
});

describe('planted constraint bugs (bug build): each visibly changes what the diagnostic or a run reports', () => {
  const bugs = bugAddon();
  /** The state of robot 0 after 30 steps from a moving start, then its rows at 20 iterations. */
  const probe = (lanes: LaneWidth = 1, copies = 1, speed = 1.5, steps = 30, iterations = 20) => {
    const model = contactScene();
    const b = new Batch({ ...model, solver: { iterations, impratio: 1.7 } }, { copies, precision: 'f64', lanes }, bugs);
    for (let r = 0; r < copies; r++) {
      const g = rng(5 + r);
      b.setRobot(r, { v: Array.from({ length: b.nv }, () => (g() - 0.5) * speed) });
    }
    b.step(steps);
    const c = b.constraints(0, { iterations: 20 });
    return { rows: c.rows.map((r) => [r.J, r.aref, r.R]), q: b.getRobot(0).q };
  };
  const cases: Record<string, () => unknown> = {
    'contact-edge-sign': () => probe().rows,
    'contact-r-dropped': () => probe().rows,
    'contact-aref-damping-sign': () => probe().rows,
    'limit-sign': () => probe().rows,
    'contact-tangent-frame': () => probe().rows,
    // lane i warm-starts from lane i + 1: only visible with several different robots in one block
    // (robots settling on the ground, where the warm start wins over qacc_smooth, and 3 CG iterations:
    // 20 converge these small islands to the same bits from any start)
    'contact-warmstart-other-lane': () => probe(4, 4, 0.05, 150, 3).q,
  };
  it('the bug build lists each of them', () => {
    for (const name of Object.keys(cases)) expect(bugs.plantedBugs!()).toContain(name);
  });
  for (const [name, run] of Object.entries(cases))
    it(name, () => {
      try {
        bugs.setBug!('none');
        const clean = run();
        bugs.setBug!(name);
        expect(run()).not.toEqual(clean);
      } finally {
        bugs.setBug!('none');
      }
    });
});

describe('a capsule standing on a plane (its axis along the normal)', () => {
  // mju_makeFrame takes t1 from the capsule's axis; made orthogonal to the normal it is 0, and
  // mju_normalize3 then gives (1, 0, 0). Dividing by its length instead made every row NaN.
  it("gets MuJoCo's frame and lands as MuJoCo does: the ball stops with its tail standing, centre at z = 0.3196 m", () => {
    const { model } = importFile(join(packageRoot, 'test/fixtures/import/mjcf-contact-params.xml'));
    for (const precision of ['f64', 'f32'] as const) {
      const b = new Batch(model, { copies: 1, precision, lanes: 1 });
      let frame: number[] | undefined;
      for (let k = 0; k < 500; k++) {
        b.step(1);
        const c = b.constraints(0);
        if (!frame && c.contacts.length) frame = c.contacts[0].frame;
      }
      expect(frame!.slice(3, 6).map(Math.abs)).toEqual([1, 0, 0]);
      const q = b.getRobot(0).q;
      expect(q.every(Number.isFinite)).toBe(true);
      expect(Math.abs(q[2] - 0.3196)).toBeLessThan(5e-4); // MuJoCo 3.14 (Newton): 0.3196 after 500 steps
    }
  });
});
