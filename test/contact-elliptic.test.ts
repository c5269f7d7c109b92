// MuJoCo's elliptic friction cone (cone="elliptic"): the rows (J, R, aref), forces and converged
// accelerations against MuJoCo 3.14 per state for condim 3, 4 and 6 at impratio 1 and 100, with
// contacts in all three zones of the cone (top: separating, bottom: sticking, middle: sliding);
// bit-identical results in every lane width; the planted bugs caught.
import { beforeAll, describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { withSolver, type ModelDesc } from '../src/engine/model-desc.js';
import { bugAddon } from '../src/engine/native.js';
import type { LaneWidth, Precision } from '../src/engine/api.js';
import { laneCells } from './helpers/lanes.js';
import { rng } from './helpers/engine.js';
import { quadruped, quadrupedStates, rollingBalls, rollingBallStates } from './helpers/condim-scenes.js';
import { cbody, cshape } from './helpers/contact-scene.js';
import { compareRows, mujocoRows, type MjState, type RowsWorst, type State } from './helpers/mujoco-rows.js';

const ELLIPTIC = 7; // mjCNSTR_CONTACT_ELLIPTIC
const ZONE = { top: 0, bottom: 1, middle: 4 }; // mjCNSTRSTATE_SATISFIED, _QUADRATIC, _CONE

/** The model under the elliptic cone at `impratio`, its contact shapes at `condim` when given. */
function elliptic(model: ModelDesc, impratio: number, condim?: 3 | 4 | 6): ModelDesc {
  const shapes = condim === undefined ? model.shapes : model.shapes!.map((s) => (s.condim ? { ...s, condim } : s));
  return { ...model, name: `${model.name}-elliptic`, shapes, solver: { ...model.solver!, impratio, cone: 'elliptic' } };
}

/** The states with their velocities a hundredth as large. */
const slow = (states: State[]) => states.map((s) => ({ ...s, qvel: s.qvel.map((v) => v * 0.01) }));

/** How many of MuJoCo's elliptic contacts (their first rows) lie in each zone over the states. */
function zones(ref: MjState[]): Record<keyof typeof ZONE, number> {
  const n = { top: 0, bottom: 0, middle: 0 };
  for (const s of ref)
    s.type.forEach((t, i) => {
      if (t !== ELLIPTIC || (i > 0 && s.type[i - 1] === ELLIPTIC && s.id[i - 1] === s.id[i])) return;
      for (const z of Object.keys(ZONE) as (keyof typeof ZONE)[]) if (s.state[i] === ZONE[z]) n[z]++;
    });
  return n;
}

/** f64 bars, a few times the worst measured over the cases: rows to round-off (MuJoCo's formulas in
 *  another order: J 1.1e-15, aref 2.2e-13, R 1.4e-13 relative), forces 1.4e-11 and Newton's qacc 6.5e-14
 *  relative, our CG after CG_ITERATIONS 7.0e-11 (its floor at impratio 100). Both Newtons run until their
 *  line search stalls (tolerance 0): at MuJoCo's 1e-15 the stiff cone of condim 3 at impratio 100 (μ' = μ/10,
 *  Dm ≈ 100·D0) stops both on the improvement test up to 1e-9 short of the optimum, at different iterates. */
const F64 = { J: 1e-13, dist: 1e-13, aref: 1e-11, R: 1e-12, force: 1e-10, qacc: 1e-12, qaccCg: 1e-9 };
/** Our CG's iterations for its converged answer: the stiff cone (condim 3 at impratio 100) converges slowly in
 *  CG (one state: 3.9e-7 from MuJoCo's answer after 3000 iterations, 3.6e-11 after 10000). */
const CG_ITERATIONS = 10000;
/** Newton stopped after one iteration against MuJoCo's (measured 1.4e-12 relative; with the line search capped
 *  at the pyramid's 16 evaluations the condim-3 and condim-4 feet at impratio 100 stopped short: 0.33). */
const NEWTON1 = 1e-11;

/** Newton after one iteration in f32 against MuJoCo's (f64): the float32 rounding of the Hessian M + JᵀDJ
 *  (measured 1.9e-4 worst, on the condim-3 feet nearly at rest; 4e-6 to 3e-5 on the others), the same
 *  whether the line search bisects down to 8ε or stops at 16× its slope's rounding floor. With the floor
 *  taken with √ε instead of ε (a stop ~2900× too early; measured with a probe build) it is 4.5e-3. */
const NEWTON1_F32 = 5e-4;

describe('the elliptic cone vs MuJoCo (per state, condim 3, 4, 6, impratio 1 and 100)', () => {
  const cases = [
    { name: 'quadruped, condim-6 feet, impratio 100', model: elliptic(quadruped(), 100), states: quadrupedStates(10, 5) },
    { name: 'quadruped, condim-6 feet, impratio 1', model: elliptic(quadruped(), 1), states: quadrupedStates(10, 6) },
    { name: 'quadruped, condim-3 feet, impratio 100', model: elliptic(quadruped(), 100, 3), states: quadrupedStates(10, 7) },
    { name: 'quadruped, condim-4 feet, impratio 100', model: elliptic(quadruped(), 100, 4), states: quadrupedStates(10, 8) },
    { name: 'balls (condim 6 and 4), impratio 1.7', model: elliptic(rollingBalls(), 1.7), states: rollingBallStates(10, 21) },
    // nearly at rest: the feet stick (the bottom zone)
    { name: 'quadruped nearly at rest, condim-6 feet, impratio 1', model: elliptic(quadruped(), 1), states: slow(quadrupedStates(10, 9)) },
    {
      name: 'quadruped nearly at rest, condim-3 feet, impratio 100',
      model: elliptic(quadruped(), 100, 3),
      states: slow(quadrupedStates(10, 10)),
    },
  ];
  const refs: MjState[][] = [];
  beforeAll(async () => {
    refs.push(...(await Promise.all(cases.map((c) => mujocoRows(c.model, c.states, { newtonTol: 0 })))));
  }, 120_000);

  cases.forEach((c, k) => {
    it(`${c.name}: J, dist, aref, R, forces, qacc (Newton and CG converged)`, () => {
      const w = compareRows(c.model, c.states, refs[k], 'f64', undefined, 0, CG_ITERATIONS);
      console.log(`${c.name} (f64)`, JSON.stringify(w), 'zones', JSON.stringify(zones(refs[k])));
      expect(w.rows).toBeGreaterThan(20);
      for (const f of Object.keys(F64) as (keyof typeof F64)[]) expect(w[f], f).toBeLessThan(F64[f]);
    });
  });

  /** The worst |qacc − MuJoCo's| / max(1, |MuJoCo's|) after one Newton iteration from a cold start. */
  const newton1Worst = (precision: 'f32' | 'f64', tolerance: number): number => {
    let worst = 0;
    cases.forEach((c, k) => {
      const b = new Batch(withSolver(c.model, 'newton', tolerance, 1), { copies: 1, precision, lanes: 1 });
      c.states.forEach((st, i) => {
        b.setRobot(0, { q: st.qpos, v: st.qvel });
        const ours = b.constraints(0, { iterations: 1, warm: false }).qacc;
        const mj = refs[k][i].qacc_newton1;
        const scale = Math.max(1, ...mj.map(Math.abs));
        worst = Math.max(worst, ...mj.map((x, j) => Math.abs(x - ours[j]) / scale));
      });
    });
    console.log(`Newton after one iteration vs MuJoCo (${precision})`, worst);
    return worst;
  };

  it("Newton after one iteration: MuJoCo's cone Hessian and exact step (a converged answer cannot tell a wrong Hessian)", () => {
    const worst = newton1Worst('f64', 1e-14);
    expect(worst).toBeLessThan(NEWTON1);
  });

  it("Newton after one iteration in f32: the line search's float32 stop (slope below 16× its rounding floor) keeps MuJoCo's exact step", () => {
    // MuJoCo's default tolerance: its slope stop (gtol) is live, and in float32 the rounding floor with it
    const worst = newton1Worst('f32', 1e-8);
    expect(worst).toBeLessThan(NEWTON1_F32);
  });

  it('the states put contacts in all three zones of the cone', () => {
    const all = refs.map(zones).reduce((a, z) => ({ top: a.top + z.top, bottom: a.bottom + z.bottom, middle: a.middle + z.middle }));
    console.log('zones over the cases', JSON.stringify(all));
    expect(all.top).toBeGreaterThan(0);
    expect(all.bottom).toBeGreaterThan(0);
    expect(all.middle).toBeGreaterThan(0);
  });

  it('in f32: the same rows and accelerations to f32 round-off', () => {
    const worst: Partial<RowsWorst> = {};
    cases.forEach((c, k) => {
      const w = compareRows(c.model, c.states, refs[k], 'f32', undefined, 0, CG_ITERATIONS);
      console.log(`${c.name} (f32)`, JSON.stringify(w));
      for (const f of ['J', 'R', 'force', 'qacc'] as const) worst[f] = Math.max(worst[f] ?? 0, w[f]);
    });
    expect(worst.J).toBeLessThan(F32.J);
    expect(worst.R).toBeLessThan(F32.R);
    expect(worst.force).toBeLessThan(F32.force);
    expect(worst.qacc).toBeLessThan(F32.qacc);
  });

  describe('planted bugs (bug build): each fails a per-state bar', () => {
    const bugs = bugAddon();
    const under = (name: string, run: () => RowsWorst) => {
      try {
        bugs.setBug!(name);
        return run();
      } finally {
        bugs.setBug!('none');
      }
    };
    it("cone-friction-r-impratio-ignored: R of the quadruped's friction rows (impratio 100)", () => {
      expect(
        under('cone-friction-r-impratio-ignored', () => compareRows(cases[0].model, cases[0].states, refs[0], 'f64', bugs, 0)).R,
      ).toBeGreaterThan(F64.R);
    });
    it('cone-middle-dm-factor: the forces and accelerations of sliding contacts', () => {
      const w = under('cone-middle-dm-factor', () => compareRows(cases[1].model, cases[1].states, refs[1], 'f64', bugs, 0));
      expect(w.force).toBeGreaterThan(F64.force);
      expect(w.qacc).toBeGreaterThan(F64.qacc);
    });
    it('the bug build without a bug passes the bars', () => {
      const w = compareRows(cases[0].model, cases[0].states, refs[0], 'f64', bugs, 0);
      expect(w.R).toBeLessThan(F64.R);
      expect(w.qacc).toBeLessThan(F64.qacc);
    });
  });
});

/** The sliding box's force ratios against μ (relative; measured 2.8e-16 per point, 6.7e-13 on the body's
 *  acceleration, Newton at tolerance 1e-14): round-off and the solve's convergence. */
const BOX_BAR = 1e-11;

/** f32 bars, a few times the worst measured over the cases: J 7.2e-7 (a few ulps of the unit lever arms),
 *  R 9.7e-5, force 3.0e-3 and qacc 1.2e-5 relative, the forces and R from the condim-4 and condim-3 feet at
 *  impratio 100 (friction rows' R 1/100 of the normal's; the cone's Dm ≈ 100·D0 magnifies the round-off). */
const F32 = { J: 2e-6, R: 3e-4, force: 1e-2, qacc: 5e-5 };

describe('the elliptic cone: bit-identical in every lane, lane width and thread count', () => {
  const cells = laneCells();
  const model = elliptic(quadruped(), 100);
  const start = quadrupedStates(7, 40);
  const run = (m: ModelDesc, precision: Precision, lanes: LaneWidth, robots: number[], threads = 1) => {
    const b = new Batch(m, { copies: robots.length, precision, lanes, threads });
    robots.forEach((r, k) => {
      const g = rng(500 + r);
      b.setRobot(k, { q: start[r].qpos, v: start[r].qvel.map((v) => v + (g() - 0.5)) });
    });
    b.step(40);
    return robots.map((_, k) => {
      const s = b.getRobot(k);
      return [...s.q, ...s.v, ...s.qacc];
    });
  };
  for (const method of ['newton', 'cg'] as const)
    for (const precision of ['f32', 'f64'] as const) {
      const widths = cells.filter((c) => c.precision === precision && !c.skip).map((c) => c.lanes);
      it(`${method} ${precision} at lanes ${widths.join(', ')}`, () => {
        const m = withSolver(model, method, method === 'newton' ? 1e-8 : 0, 30);
        const alone = [0, 3, 6].map((r) => run(m, precision, 1, [r])[0]);
        for (const lanes of widths) {
          const all = run(m, precision, lanes, [0, 1, 2, 3, 4, 5, 6]);
          [0, 3, 6].forEach((r, k) => expect(all[r], `lanes ${lanes} robot ${r}`).toEqual(alone[k]));
          const threaded = run(m, precision, lanes, [0, 1, 2, 3, 4, 5, 6], 2);
          [0, 3, 6].forEach((r, k) => expect(threaded[r], `lanes ${lanes}, 2 threads, robot ${r}`).toEqual(alone[k]));
        }
        expect(alone[0]).not.toEqual(alone[1]);
      });
    }
});

// A box sliding on a plane (condim 3). In the cone's middle zone (sliding) MuJoCo's force lies on the
// cone's surface, f_j = −f_0·U_j·μ_j/T, so ‖f_t‖ = μ·f_n at every point whatever the softness
// (Σ (f_j/μ_j)² = f_0²), and the box's horizontal acceleration is m·‖a_h‖ = μ·Σ f_n while all its points
// slide one way (launched diagonally from rest: no yaw, so its rocking moves every point alike). The
// pyramid's cross-section |f_1| + |f_2| ≤ μ·f_n gives μ/√2 along the diagonal instead.
describe('closed form: a box sliding diagonally on a plane, ‖f_t‖ = μ·f_n per point and m·‖a_h‖ = μ·Σ f_n', () => {
  const MU = 0.2,
    G = 9.81,
    M = 2;
  const box = (cone: 'elliptic' | 'pyramidal'): ModelDesc => ({
    name: `sliding-box-${cone}`,
    bodies: [
      cbody('box', -1, 'free', [0, 0, 0], [0, 0, 0.05, 1, 0, 0, 0], 6, {
        mass: M,
        com: [0, 0, 0],
        inertia: [0.0067, 0.0067, 0.0067, 0, 0, 0],
      }),
    ],
    world: { gravity: [0, 0, -G], dt: 0.002, integrator: 'euler', duration: 1, substeps: 1 },
    files: [],
    shapes: [
      cshape('ground', -1, 'plane', [0, 0, 0], 0, [0, 0, 0], undefined, { friction: MU }),
      cshape('box', 0, 'box', [0.1, 0.1, 0.05], 0, [0, 0, 0], undefined, { friction: MU }),
    ],
    excludes: [],
    solver: { iterations: 100, impratio: 1, tolerance: 1e-14, method: 'newton', cone },
  });
  /** Over the slide (every 5 steps for 0.3 s, states with contacts): the worst |‖f_t‖/f_n − μ·k|/μ over the
   *  points and |m·‖a_h‖/Σ f_n − μ·k|/μ, k = 1 (elliptic) or 1/√2 (pyramidal), and how many states. */
  const slide = (cone: 'elliptic' | 'pyramidal', k: number) => {
    const b = new Batch(box(cone), { copies: 1, precision: 'f64', lanes: 1 });
    b.step(500); // the normal settles (time constant 0.02 s)
    const d = 1 / Math.SQRT2;
    b.setRobot(0, { q: b.getRobot(0).q, v: [d, d, 0, 0, 0, 0] });
    const worst = { point: 0, body: 0, states: 0 };
    for (let s = 0; s < 30; s++) {
      b.step(5);
      const c = b.constraints(0);
      if (!c.contacts.some((p) => p.force[0] > 0)) continue;
      worst.states++;
      let fn = 0;
      for (const p of c.contacts) {
        if (p.force[0] === 0) continue; // detected but separating (the top zone)
        fn += p.force[0];
        worst.point = Math.max(worst.point, Math.abs(Math.hypot(p.force[1], p.force[2]) / p.force[0] - MU * k) / MU);
      }
      worst.body = Math.max(worst.body, Math.abs((M * Math.hypot(c.qacc[0], c.qacc[1])) / fn - MU * k) / MU);
    }
    return worst;
  };
  it('elliptic: μ', () => {
    const w = slide('elliptic', 1);
    console.log('sliding box, elliptic', JSON.stringify(w));
    expect(w.states).toBeGreaterThan(15);
    expect(w.point).toBeLessThan(BOX_BAR);
    expect(w.body).toBeLessThan(BOX_BAR);
  });
  it('pyramidal: μ/√2 along the diagonal (the two cones differ here)', () => {
    const w = slide('pyramidal', Math.SQRT1_2);
    console.log('sliding box, pyramidal', JSON.stringify(w));
    expect(w.point).toBeLessThan(BOX_BAR);
    expect(w.body).toBeLessThan(BOX_BAR);
  });
});
