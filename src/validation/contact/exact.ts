// The `contact-exact` stage: the engine against answers worked out without it.
//   drop.dist     a ball dropped on a plane (scenes/ball-on-plane.arow, physical stiffness and
//                 damping): its distance to the plane at every recorded step against MuJoCo's soft
//                 contact stepped on its own in 1-D (formulas.ts dropBall: the spring-damper, its
//                 impedance curve and the half-quadratic release, semi-implicit Euler at the scene's
//                 dt). Four drop heights, one per robot of one batch.
//   drop.lanes    each of those robots bit-identical to its drop run alone (lanes 1, one robot).
//   rest.dist     a box resting on a plane, started at the static equilibrium of its four corner
//                 contacts (formulas.ts staticDistance): it must stay there.
//   incline.*     scenes/incline.arow: the sliding block's acceleration against g(sin θ − μ cos θ),
//                 the ball's against (5/7)·g·sin θ, and the sticking block's creep against the
//                 sliding block's speed. Soft friction is not Coulomb's: MuJoCo's own run of the same
//                 scene deviates too, and that measured deviation (×2) is the bar; the creep speeds,
//                 ours and MuJoCo's, are stated in the report.
// Bars of the 1-D runs: f64 F64_BAR of the scale (drop height); f32 F32_FACTOR × the floor over
// time (judgeOverTime), measured as the 1-D run's own change when its start is perturbed by a
// float32 half-ulp and its state stored in float32 after every step (F32_PERTURBATIONS draws).

import { join } from 'node:path';
import type { Precision } from '../../engine/api.js';
import type { ModelDesc, ShapeDesc } from '../../engine/model-desc.js';
import { packageRoot, type NativeAddon } from '../../engine/native.js';
import { loadScene } from '../../model-files/scene/index.js';
import { judgeOverTime } from '../judge.js';
import { Rng, seedFor } from '../rng.js';
import { F32_PERTURBATIONS, HALF_ULP32 } from '../states.js';
import type { CheckRow, Sample } from '../types.js';
import {
  dropBall,
  inclineSlideAcceleration,
  normalAcceleration,
  pairParams,
  rollingAcceleration,
  staticDistance,
  type NormalContact,
} from './formulas.js';
import { mujocoRollout, type RolloutAnswer } from './mujoco.js';
import { engineRollout } from './rollout.js';

export const DROP_HEIGHTS = [0.3, 0.25, 0.2, 0.15];
export const RECORD_EVERY = 5;
export const INCLINE_THETA = Math.PI / 6;
/** The incline's accelerations are fitted over this window (s): after the first contact transient. */
export const FIT_WINDOW: [number, number] = [0.5, 1.5];

export const sceneModel = (name: string): ModelDesc => loadScene(join(packageRoot, 'scenes', `${name}.arow`));

/** One body on the static world plane: its pair's 1-D normal contact (points: contacts sharing the load). */
export function normalContactOf(model: ModelDesc, points: number): NormalContact {
  const shapes = model.shapes ?? [];
  const plane = shapes.find((s) => s.kind === 'plane') as ShapeDesc;
  const own = shapes.find((s) => s.body === 0) as ShapeDesc;
  return {
    ...pairParams(plane, own),
    dt: model.world.dt / model.world.substeps,
    impratio: model.solver?.impratio ?? 1,
    mass: model.bodies[0].mass,
    points,
  };
}

/** A box of 0.2 m and 2 kg on the plane, at rest at its static equilibrium (4 corner contacts). */
export function restingBoxModel(): ModelDesc {
  const m = 2;
  const h = 0.1;
  const model: ModelDesc = {
    name: 'resting-box',
    bodies: [
      {
        name: 'box',
        parent: -1,
        pos: [0, 0, 0],
        quat: [1, 0, 0, 0],
        joint: 'free',
        axis: [0, 0, 1],
        mass: m,
        com: [0, 0, 0],
        inertia: [(m * 0.08) / 12, (m * 0.08) / 12, (m * 0.08) / 12, 0, 0, 0],
        q0: [0, 0, h, 1, 0, 0, 0],
        v0: [0, 0, 0, 0, 0, 0],
        tau: [0, 0, 0, 0, 0, 0],
      },
    ],
    world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'euler', duration: 0.5, substeps: 1 },
    files: [],
    shapes: [
      {
        name: 'box/box',
        body: 0,
        kind: 'box',
        halfExtents: [h, h, h],
        radius: 0,
        pos: [0, 0, 0],
        quat: [1, 0, 0, 0],
        friction: 1,
        contype: 1,
        conaffinity: 1,
        margin: 0,
        gap: 0,
      },
      {
        name: 'ground',
        body: -1,
        kind: 'plane',
        halfExtents: [0, 0, 0],
        radius: 0,
        pos: [0, 0, 0],
        quat: [1, 0, 0, 0],
        friction: 1,
        contype: 1,
        conaffinity: 1,
        margin: 0,
        gap: 0,
      },
    ],
  };
  const rest = staticDistance(normalContactOf(model, 4), 9.81);
  model.bodies[0].q0[2] = h + rest;
  return model;
}

/** The 1-D run's float32 floor over time: the body's height (offset + distance: what the engine
 *  stores) perturbed by a half-ulp at the start, and height and velocity stored in float32 every step. */
function floorOverTime(c: NormalContact, dist0: number, offset: number, steps: number, seed: string): number[] {
  const exact = dropBall(c, 9.81, dist0, 0, steps, RECORD_EVERY).dist;
  const floor = exact.map(() => 0);
  for (let k = 0; k < F32_PERTURBATIONS; k++) {
    const rng = new Rng(seedFor(0, seed, String(k)));
    let z = Math.fround((offset + dist0) * (1 + HALF_ULP32 * (2 * rng.next() - 1)));
    let v = 0;
    for (let s = 1; s <= steps; s++) {
      const d = z - offset;
      const { a } = normalAcceleration(c, -9.81, d, v);
      v = Math.fround(v + c.dt * a);
      z = Math.fround(z + c.dt * v);
      if (s % RECORD_EVERY === 0) {
        const i = s / RECORD_EVERY - 1;
        floor[i] = Math.max(floor[i], Math.abs(z - offset - exact[i]));
      }
    }
  }
  return floor;
}

export interface ContactExactReference {
  incline: RolloutAnswer;
  /** Per 1-D case: the floor over time (absolute, m). */
  dropFloors: number[][];
  restFloor: number[];
}

export async function contactExactReference(python: string): Promise<ContactExactReference> {
  const incline = sceneModel('incline');
  const steps = Math.round(incline.world.duration / incline.world.dt);
  const mj = mujocoRollout(python, incline, { steps, every: RECORD_EVERY });
  const ball = sceneModel('ball-on-plane');
  const bc = normalContactOf(ball, 1);
  const r = ball.shapes?.find((s) => s.body === 0)?.radius ?? 0;
  const dropSteps = Math.round(ball.world.duration / ball.world.dt);
  const dropFloors = DROP_HEIGHTS.map((h, i) => floorOverTime(bc, h - r, r, dropSteps, `drop-${i}`));
  const box = restingBoxModel();
  const restFloor = floorOverTime(
    normalContactOf(box, 4),
    box.bodies[0].q0[2] - 0.1,
    0.1,
    Math.round(box.world.duration / box.world.dt),
    'rest',
  );
  return { incline: await mj, dropFloors, restFloor };
}

/** Acceleration along the slope fitted (least squares) to the velocity over FIT_WINDOW. */
export function slopeAcceleration(t: readonly number[], v: readonly number[][], body: number): number {
  const dir = [Math.cos(INCLINE_THETA), 0, -Math.sin(INCLINE_THETA)];
  const xs: number[] = [];
  const ys: number[] = [];
  t.forEach((tt, k) => {
    if (tt < FIT_WINDOW[0] - 1e-12 || tt > FIT_WINDOW[1] + 1e-12) return;
    xs.push(tt);
    ys.push(dir.reduce((s, d, j) => s + d * v[k][6 * body + j], 0));
  });
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, k) => {
    sxy += (x - mx) * (ys[k] - my);
    sxx += (x - mx) * (x - mx);
  });
  return sxy / sxx;
}
/** Speed along the slope of `body` at the last record. */
export function slopeSpeed(v: readonly number[][], body: number): number {
  const last = v[v.length - 1];
  return Math.abs(Math.cos(INCLINE_THETA) * last[6 * body] - Math.sin(INCLINE_THETA) * last[6 * body + 2]);
}

export interface InclineSummary {
  precision: Precision;
  slide: { ours: number; mujoco: number; exact: number };
  roll: { ours: number; mujoco: number; exact: number };
  /** Sticking block's speed along the slope at the end (m/s): the creep soft friction allows. */
  creep: { ours: number; mujoco: number };
}

export function contactExactRows(
  ref: ContactExactReference,
  precision: Precision,
  addon: NativeAddon,
): { rows: CheckRow[]; incline?: InclineSummary } {
  const rows: CheckRow[] = [];
  const id = (model: string, field: string) => ({ stage: 'contact-exact' as const, model, precision, field });
  // --- the dropped ball: four heights, four robots of one batch
  const ball = sceneModel('ball-on-plane');
  const bc = normalContactOf(ball, 1);
  const r = ball.shapes?.find((s) => s.body === 0)?.radius ?? 0;
  const steps = Math.round(ball.world.duration / ball.world.dt);
  const states = DROP_HEIGHTS.map((h) => ({ q: [0, 0, h, 1, 0, 0, 0], v: [0, 0, 0, 0, 0, 0], tau: [0, 0, 0, 0, 0, 0] }));
  const run = engineRollout(ball, precision, addon, { steps, every: RECORD_EVERY, states });
  DROP_HEIGHTS.forEach((h, i) => {
    const want = dropBall(bc, 9.81, h - r, 0, steps, RECORD_EVERY).dist;
    const scale = h - r;
    const samples: Sample[] = want.map((w, k) => ({
      state: i,
      t: run.t[k],
      error: Math.abs(run.q[i][k][2] - r - w) / scale,
      stateFloor: ref.dropFloors[i][k] / scale,
    }));
    rows.push(...judgeOverTime(id('ball-on-plane', `drop.dist (from ${h} m)`), samples));
  });
  // each robot of that batch bit-identical to the same drop run alone (no lane reads another's state)
  let laneDiff = 0;
  DROP_HEIGHTS.forEach((_, i) => {
    const alone = engineRollout(ball, precision, addon, { steps, every: RECORD_EVERY, states: [states[i]], lanes: 1 });
    alone.q[0].forEach((q, k) =>
      q.forEach(
        (x, j) => (laneDiff = Object.is(x, run.q[i][k][j]) ? laneDiff : Math.max(laneDiff, Math.abs(x - run.q[i][k][j]) || Infinity)),
      ),
    );
  });
  rows.push({
    ...id('ball-on-plane', 'drop.lanes (each robot vs alone)'),
    state: 0,
    t: undefined,
    error: laneDiff,
    stateFloor: 0,
    floor: 0,
    factor: 0,
    bar: 0,
    status: laneDiff === 0 ? 'pass' : 'fail',
    note: 'bit-identical required (determinism across batch size and lanes)',
  });
  // --- the box at rest at its static equilibrium
  const box = restingBoxModel();
  const rest = box.bodies[0].q0[2] - 0.1;
  const boxRun = engineRollout(box, precision, addon, { steps: Math.round(box.world.duration / box.world.dt), every: RECORD_EVERY });
  rows.push(
    ...judgeOverTime(
      id('resting-box', 'rest.dist'),
      boxRun.t.map((t, k) => ({
        state: 0,
        t,
        error: Math.abs(boxRun.q[0][k][2] - 0.1 - rest) / Math.abs(rest),
        stateFloor: ref.restFloor[k] / Math.abs(rest),
      })),
    ),
  );
  // --- the incline
  const incline = sceneModel('incline');
  const iSteps = Math.round(incline.world.duration / incline.world.dt);
  const ir = engineRollout(incline, precision, addon, { steps: iSteps, every: RECORD_EVERY });
  const mjT = ref.incline.qpos.map((_, k) => (k + 1) * RECORD_EVERY * incline.world.dt);
  const mu = (name: string) => incline.shapes?.find((s) => s.body === incline.bodies.findIndex((b) => b.name === name))?.friction ?? NaN;
  const g = 9.81;
  const summary: InclineSummary = {
    precision,
    slide: {
      ours: slopeAcceleration(ir.t, ir.v[0], 1),
      mujoco: slopeAcceleration(mjT, ref.incline.qvel, 1),
      exact: inclineSlideAcceleration(INCLINE_THETA, mu('sliding-block'), g),
    },
    roll: {
      ours: slopeAcceleration(ir.t, ir.v[0], 2),
      mujoco: slopeAcceleration(mjT, ref.incline.qvel, 2),
      exact: rollingAcceleration(INCLINE_THETA, g),
    },
    creep: { ours: slopeSpeed(ir.v[0], 0), mujoco: slopeSpeed(ref.incline.qvel, 0) },
  };
  const accelRow = (field: string, a: { ours: number; mujoco: number; exact: number }) => {
    const deviation = Math.abs(a.mujoco - a.exact) / Math.abs(a.exact);
    const error = Math.abs(a.ours - a.exact) / Math.abs(a.exact);
    const ok = Number.isFinite(error) && error <= 2 * deviation;
    return {
      ...id('incline', field),
      state: 0,
      t: undefined,
      error,
      stateFloor: deviation,
      floor: deviation,
      factor: 2,
      bar: 2 * deviation,
      status: ok ? 'pass' : 'fail',
      note: `ours ${a.ours}, MuJoCo ${a.mujoco}, Coulomb ${a.exact} m/s²`,
    } as CheckRow;
  };
  rows.push(accelRow('incline.slide (g(sin θ − μ cos θ))', summary.slide));
  rows.push(accelRow('incline.roll ((5/7) g sin θ)', summary.roll));
  // sticking: its creep speed over the sliding block's speed, against MuJoCo's same ratio (×2)
  const slideSpeed = { ours: slopeSpeed(ir.v[0], 1), mujoco: slopeSpeed(ref.incline.qvel, 1) };
  const mjRatio = summary.creep.mujoco / slideSpeed.mujoco;
  const ourRatio = summary.creep.ours / slideSpeed.ours;
  rows.push({
    ...id('incline', 'incline.stick (creep / sliding speed)'),
    state: 0,
    t: undefined,
    error: ourRatio,
    stateFloor: mjRatio,
    floor: mjRatio,
    factor: 2,
    bar: 2 * mjRatio,
    status: Number.isFinite(ourRatio) && ourRatio <= 2 * mjRatio ? 'pass' : 'fail',
    note: `creep: ours ${summary.creep.ours} m/s, MuJoCo ${summary.creep.mujoco} m/s (tan θ = ${Math.tan(INCLINE_THETA).toFixed(3)} < μ = ${mu('sticking-block')}: Coulomb says 0)`,
  });
  return { rows, incline: summary };
}
