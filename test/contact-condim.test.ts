// Torsional and rolling friction (condim 4 and 6, pyramidal cone): the rows and converged
// accelerations against MuJoCo 3.14 per state, and two closed forms: a spinning ball's spin and a
// rolling ball's speed decaying as the soft pyramid's torsional and rolling edges set.
import { beforeAll, describe, expect, it } from 'vitest';
import { Batch } from '../src/engine/batch.js';
import { withSolver, type ModelDesc } from '../src/engine/model-desc.js';
import { bugAddon, packageRoot, type NativeAddon } from '../src/engine/native.js';
import type { LaneWidth, Precision } from '../src/engine/api.js';
import { importFile } from '../src/model-files/import/index.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { laneCells } from './helpers/lanes.js';
import { sceneError } from './helpers/scene-error.js';
import { rng } from './helpers/engine.js';
import { contactR, DEFAULT_SOLREF, impedance, solParams, stiffnessDamping } from '../src/validation/contact/formulas.js';
import { quadruped, quadrupedStates, rollingBalls, rollingBallStates, singleBall, type BallFriction } from './helpers/condim-scenes.js';
import { compareRows, mujocoRows, type MjState, type RowsWorst } from './helpers/mujoco-rows.js';

/** f32 bars: a few times the worst measured over both scenes (J 4.8e-7 = 4 ulps of the unit lever arms; R 1.1e-5,
 *  force 1.9e-4 and qacc 3.8e-6 relative, all from the quadruped at impratio 100, whose friction edges' R is
 *  1/100 of the normal's: f32's round-off in the imp and R products, magnified by the solve). */
const F32 = { J: 2e-6, R: 5e-5, force: 1e-3, qacc: 2e-5 };

describe('condim 4 and 6 rows and accelerations vs MuJoCo (per state)', () => {
  // the two scenes' states and MuJoCo's rows at them (one Python run each)
  const balls = { model: rollingBalls(), states: rollingBallStates(8, 21) };
  const quad = { model: quadruped(), states: quadrupedStates(8, 5) };
  let ballsRef: MjState[], quadRef: MjState[];
  beforeAll(async () => {
    [ballsRef, quadRef] = await Promise.all([mujocoRows(balls.model, balls.states), mujocoRows(quad.model, quad.states)]);
  }, 60_000);

  it('balls spinning and rolling on a plane (condim 6 and 4, impratio 1.7): J, dist, aref, R, forces, qacc', () => {
    const w = compareRows(balls.model, balls.states, ballsRef);
    console.log('balls vs MuJoCo (f64)', JSON.stringify(w));
    expect(w.rows).toBeGreaterThan(80);
    // measured: J 1.6e-15, dist 0, aref 8.9e-15, R 1.8e-16, force 5.9e-14, qacc (Newton) 4.1e-15, (CG) 4.8e-15
    expect(w.J).toBeLessThan(1e-13);
    expect(w.dist).toBeLessThan(1e-13);
    expect(w.aref).toBeLessThan(1e-11);
    expect(w.R).toBeLessThan(1e-12);
    expect(w.force).toBeLessThan(1e-9);
    expect(w.qacc).toBeLessThan(1e-10);
    expect(w.qaccCg).toBeLessThan(1e-10);
  });

  it('a quadruped on four condim-6 feet, impratio 100', () => {
    const w = compareRows(quad.model, quad.states, quadRef);
    console.log('quadruped vs MuJoCo (f64)', JSON.stringify(w));
    expect(w.rows).toBeGreaterThan(150);
    // measured: J 8.9e-16, dist 1.7e-16, aref 2.2e-13, R 1.5e-15, force 5.8e-12, qacc (Newton) 1.5e-13; CG after
    // 3000 iterations 8.6e-11 (impratio 100 makes the friction rows 100× stiffer: CG's floor, not the rows')
    expect(w.J).toBeLessThan(1e-13);
    expect(w.dist).toBeLessThan(1e-13);
    expect(w.aref).toBeLessThan(1e-11);
    expect(w.R).toBeLessThan(1e-12);
    expect(w.force).toBeLessThan(1e-9);
    expect(w.qacc).toBeLessThan(1e-10);
    expect(w.qaccCg).toBeLessThan(1e-9);
  });

  it('in f32: the same rows to f32 round-off', () => {
    const b = compareRows(balls.model, balls.states, ballsRef, 'f32');
    const q = compareRows(quad.model, quad.states, quadRef, 'f32');
    console.log('balls vs MuJoCo (f32)', JSON.stringify(b));
    console.log('quadruped vs MuJoCo (f32)', JSON.stringify(q));
    for (const w of [b, q]) {
      expect(w.J).toBeLessThan(F32.J);
      expect(w.R).toBeLessThan(F32.R);
      expect(w.force).toBeLessThan(F32.force);
      expect(w.qacc).toBeLessThan(F32.qacc);
    }
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
    it("contact-impratio-ignored: R of the quadruped's edges (impratio 100)", () => {
      expect(under('contact-impratio-ignored', () => compareRows(quad.model, quad.states, quadRef, 'f64', bugs)).R).toBeGreaterThan(1e-12);
    });
    it("contact-torsion-axis: J of the balls' torsional edges", () => {
      expect(under('contact-torsion-axis', () => compareRows(balls.model, balls.states, ballsRef, 'f64', bugs)).J).toBeGreaterThan(1e-13);
    });
    it("contact-rolling-coefficient: J of the balls' rolling edges", () => {
      expect(under('contact-rolling-coefficient', () => compareRows(balls.model, balls.states, ballsRef, 'f64', bugs)).J).toBeGreaterThan(
        1e-13,
      );
    });
    it('the bug build without a bug passes the bars', () => {
      const w = compareRows(quad.model, quad.states, quadRef, 'f64', bugs);
      expect(w.R).toBeLessThan(1e-12);
      expect(w.J).toBeLessThan(1e-13);
    });
  });
});

// One ball (m, r, I = 0.4·m·r²) resting on a plane, every pyramid edge in its quadratic piece (the
// edges' common part c = a_n + B·v_n + K·imp·r outweighs μ_k·(J_k·a + B·v_k), which holds here:
// |c| = m·g/(n_edges·D) = 3.4 (condim 4), 2.1 m/s² (condim 6) against at most 2.1 and 1.1). An edge pair
// J_n ± μ_k·J_k then adds D·(c² + μ_k²·y_k²), y_k = J_k·a + B·v_k, to the cost: the normal part
// cancels, and each friction direction is a linear damper of weight 2·D·μ_k² (D = 1/R_py, MuJoCo's
// R_py = 2·(μ/√impratio)²·R0). So with semi-implicit Euler:
//   spin (condim 4):  I·α = −2Dμ_t²·(α + B·ω)                → ω_k = ω_0·(1 − h·λ)^k, λ = 2DBμ_t²/(I + 2Dμ_t²)
//   rolling (condim 6), slip s = v − ρω, ρ = r + dist/2 (the contact point's lever):
//     m·a = −2Dμ²·(a − ρα + B·s),  I·α = 2Dμ²ρ·(a − ρα + B·s) − 2Dμ_r²·(α + B·ω)
// The engine (Newton, converged) must follow these recurrences step by step.
describe('torsional and rolling friction: a ball spinning and a ball rolling on a plane (closed forms)', () => {
  const settle = (friction: BallFriction, condim: 4 | 6, addon?: NativeAddon) => {
    const model = withSolver(singleBall(friction, condim), 'newton', 1e-15, 100);
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 }, addon);
    b.step(1500); // the normal mode (time constant 0.02 s, critically damped) settles to round-off
    const dist = b.constraints(0).contacts[0].dist;
    const { solref, solimp } = solParams(DEFAULT_SOLREF, friction.solimp, model.world.dt);
    const imp = impedance(solimp, dist, 0);
    const { B } = stiffnessDamping(solref, solimp);
    const D = 1 / contactR({ condim, mu: friction.mu, impratio: model.solver!.impratio }, imp, 1 / friction.m);
    return { b, dist, D, B, h: model.world.dt };
  };
  const spin = (addon?: NativeAddon) => {
    const f: BallFriction = { m: 1, r: 0.1, mu: 2, spin: 0.01, roll: 0.0001, solimp: [0.9, 0.95, 0.0001, 0.5, 2] };
    const { b, D, B, h } = settle(f, 4, addon);
    const I = 0.4 * f.m * f.r * f.r;
    const w0 = 2;
    b.setRobot(0, { q: b.getRobot(0).q, v: [0, 0, 0, 0, 0, w0] });
    const lambda = (2 * D * B * f.spin ** 2) / (I + 2 * D * f.spin ** 2);
    let worst = 0;
    for (let k = 1; k <= 400; k++) {
      b.step(1);
      const w = b.getRobot(0).v[5];
      worst = Math.max(worst, Math.abs(w - w0 * (1 - h * lambda) ** k) / w0);
    }
    return { worst, decayed: b.getRobot(0).v[5] / w0 };
  };
  const roll = (addon?: NativeAddon) => {
    const f: BallFriction = { m: 1, r: 0.1, mu: 2, spin: 0.002, roll: 0.005, solimp: [0.9, 0.95, 0.0001, 0.5, 2] };
    const { b, dist, D, B, h } = settle(f, 6, addon);
    const I = 0.4 * f.m * f.r * f.r;
    const rho = f.r + dist / 2;
    let v = 0.2,
      w = v / rho;
    const v0 = v;
    b.setRobot(0, { q: b.getRobot(0).q, v: [v, 0, 0, 0, w, 0] });
    const k2 = 2 * D * f.mu ** 2,
      q2 = 2 * D * f.roll ** 2;
    let worst = 0;
    for (let k = 1; k <= 400; k++) {
      // [m + k2, −k2ρ; −k2ρ, I + k2ρ² + q2]·[a; α] = [−k2·B·s; k2·ρ·B·s − q2·B·ω]
      const s = v - rho * w;
      const [a11, a12, a22] = [f.m + k2, -k2 * rho, I + k2 * rho * rho + q2];
      const [r1, r2] = [-k2 * B * s, k2 * rho * B * s - q2 * B * w];
      const det = a11 * a22 - a12 * a12;
      v += (h * (r1 * a22 - a12 * r2)) / det;
      w += (h * (a11 * r2 - a12 * r1)) / det;
      b.step(1);
      const ours = b.getRobot(0).v;
      worst = Math.max(worst, Math.abs(ours[0] - v) / v0, (Math.abs(ours[4] - w) * rho) / v0);
    }
    return { worst, decayed: b.getRobot(0).v[0] / v0 };
  };

  it('a condim-4 ball spinning about the normal: ω decays as (1 − h·λ)^k, λ = 2DBμ_t²/(I + 2Dμ_t²)', () => {
    const { worst, decayed } = spin();
    console.log('spin: worst relative error', worst, 'ω/ω0 after 0.8 s', decayed);
    expect(decayed).toBeLessThan(0.2); // it does slow down: to 14% in 0.8 s
    expect(worst).toBeLessThan(1e-12); // measured 1.1e-15 (round-off of the recurrence)
  });

  it("a condim-6 ball rolling: speed and spin follow the rolling and sliding edges' damping", () => {
    const { worst, decayed } = roll();
    console.log('roll: worst relative error', worst, 'v/v0 after 0.8 s', decayed);
    expect(decayed).toBeLessThan(0.9); // 87% of its speed left after 0.8 s
    expect(worst).toBeLessThan(1e-12);
  });

  describe('planted bugs (bug build): each fails its check', () => {
    const bugs = bugAddon();
    const caught = (name: string, run: () => { worst: number }) => {
      try {
        bugs.setBug!(name);
        return run().worst;
      } finally {
        bugs.setBug!('none');
      }
    };
    it('contact-torsion-axis: the spin read about t1 leaves the ball spinning', () => {
      expect(caught('contact-torsion-axis', () => spin(bugs))).toBeGreaterThan(1e-3);
    });
    it('contact-rolling-coefficient: rolling scaled by the torsional coefficient', () => {
      expect(caught('contact-rolling-coefficient', () => roll(bugs))).toBeGreaterThan(1e-3);
    });
  });
});

describe('condim 4 and 6: bit-identical in every lane, lane width and repeat', () => {
  const cells = laneCells();
  // the import fixture: a quadruped landing on condim-6 feet and a condim-4 ball spinning; each
  // robot's velocities perturbed (seeded), Newton (the file's) and CG
  const fixture = importFile(join(packageRoot, 'test/fixtures/import/mjcf-condim.xml'), { keyframe: '0' }).model;
  const run = (model: ModelDesc, precision: Precision, lanes: LaneWidth, copies: number, robots: number[]) => {
    const b = new Batch(model, { copies, precision, lanes });
    robots.forEach((r, k) => {
      const g = rng(300 + r);
      b.setRobot(k, { q: fixture.bodies.flatMap((x) => x.q0), v: fixture.bodies.flatMap((x) => x.v0).map((v) => v + (g() - 0.5)) });
    });
    b.step(80); // through the feet's landing (step 40)
    return robots.map((_, k) => {
      const s = b.getRobot(k);
      return [...s.q, ...s.v, ...s.qacc];
    });
  };
  for (const method of ['newton', 'cg'] as const)
    for (const precision of ['f32', 'f64'] as const) {
      const widths = cells.filter((c) => c.precision === precision && !c.skip).map((c) => c.lanes);
      it(`${method} ${precision} at lanes ${widths.join(', ')}`, () => {
        const model = withSolver(fixture, method, method === 'newton' ? 1e-8 : 0, 30);
        const alone = [0, 3, 6].map((r) => run(model, precision, 1, 1, [r])[0]);
        for (const lanes of widths) {
          const all = run(model, precision, lanes, 7, [0, 1, 2, 3, 4, 5, 6]);
          [0, 3, 6].forEach((r, k) => expect(all[r], `lanes ${lanes} robot ${r}`).toEqual(alone[k]));
        }
        expect(alone[0]).not.toEqual(alone[1]);
      });
    }
});

describe('MJCF import of torsional and rolling friction', () => {
  const dir = mkdtempSync(join(tmpdir(), 'achilles-condim-'));
  const write = (name: string, text: string) => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };
  const scene = (option: string, geom: string) =>
    `<mujoco>\n  <option ${option}/>\n  <default>\n    <geom friction="0.9 0.02 0.002"/>\n  </default>\n  <worldbody>\n    <geom type="plane" size="1 1 0.1"/>\n    <body name="a" pos="0 0 1">\n      <freejoint/>\n      <geom name="g" type="sphere" size="0.1" ${geom}/>\n    </body>\n  </worldbody>\n</mujoco>\n`;
  const refused = (f: string) => sceneError(() => importFile(f));

  it("condim 4 and 6 are read, and a partial friction keeps the class's other parts (MuJoCo's geom_friction)", () => {
    const m = importFile(write('a.xml', scene('impratio="100"', 'condim="6" friction="0.7 0.03"'))).model;
    expect(m.shapes!.find((s) => s.name === 'g')).toMatchObject({
      condim: 6,
      friction: 0.7,
      torsionalFriction: 0.03,
      rollingFriction: 0.002,
    });
    expect(m.solver!.impratio).toBe(100);
    const m4 = importFile(write('b.xml', scene('', 'condim="4"'))).model;
    expect(m4.shapes!.find((s) => s.name === 'g')).toMatchObject({
      condim: 4,
      friction: 0.9,
      torsionalFriction: 0.02,
      rollingFriction: 0.002,
    });
  });

  it('cone="elliptic" is the model\'s cone (no note), pyramidal the default; condim 5 is refused there, saying what is expected', () => {
    const imp = importFile(write('c.xml', scene('cone="elliptic"', '')));
    expect(imp.notes.filter((n) => n.kind === 'approximated')).toEqual([]);
    expect(imp.model.solver!.cone).toBe('elliptic');
    expect(importFile(write('c2.xml', scene('cone="pyramidal"', ''))).model.solver!.cone).toBeUndefined();
    const c = refused(write('d.xml', scene('', 'condim="5"')));
    expect([c.line, c.message.includes('4 (and torsional) or 6 (and rolling)')]).toEqual([10, true]);
  });
});
