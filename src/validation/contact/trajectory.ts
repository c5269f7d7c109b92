// The `contact-trajectory` stage: the engine against MuJoCo over time, same scene, same contact
// settings, semi-implicit Euler at the scene's dt (MuJoCo: the exported model, Newton solver):
//   dominoes    scenes/domino-amplifier.arow, 8 s: each domino's first time past 45° within
//               DOMINO_TIP_BAR of MuJoCo's, and every domino's final angle within DOMINO_REST_BAR.
//               These are the tolerances; MuJoCo's own sensitivity (contact-anchors §4.4:
//               solver choice 4–8 ms and 0.07–0.09°, solref ×2 up to 0.51°, μ 0.6 166 ms) makes
//               56 ms loose for solver choices and tight for friction, 0.3° tighter than a solref or
//               margin change. But the amplifier also amplifies round-off. MuJoCo started one ulp
//               away (dominoTwinStarts) moves the later tip times by up to 56 ms with Newton and
//               by up to 268 ms with CG capped at 20 iterations (the scene's solver, and ours), and
//               rest angles by tenths of a degree; our engine moves as much (scripts/
//               domino-sensitivity.py). So "MuJoCo's time" is the range its runs span from the
//               scene's start and its DOMINO_TWINS twins, and each gate measures ours from that
//               range (0 inside it), with the bars: tip times (ours at the scene's 20
//               iterations) from MuJoCo's Newton and CG-20 runs; rest angles (ours converged,
//               DOMINO_REST_ITERATIONS) from its Newton runs. For f32 the range also holds MuJoCo's
//               Newton runs with the state rounded to float32 after every step, from twins one
//               float32 ulp apart: the round-off of the precision at hand.
//   box-stack   scenes/box-stack.arow, 10 s: stands in both engines (every box's tilt below
//               STACK_TILT_BAR and its centre within STACK_DRIFT_BAR of where it started, in 3-D:
//               it settles by under a millimetre, a box falling through the floor or off moves more).
//   limit-pendulum  a hinge swinging into both ends of its range for 2 s: its angle against
//               MuJoCo's at every step; bars as the trajectory stage (judgeOverTime): f64 F64_BAR,
//               f32 F32_FACTOR × MuJoCo's own change over time when the model and the start are
//               perturbed by a float32 half-ulp and the state is stored in float32 after every step
//               (F32_PERTURBATIONS twins).
//   lanes       the box stack for 1 s in a batch at the widest lanes, robot 0 the scene and the
//               others displaced: robot 0 must be bit-identical to the scene run alone (lanes 1):
//               no lane may read another lane's state (a warm start, a row) — the determinism contract.

import { widestLanes } from '../../engine/lanes.js';
import type { Precision } from '../../engine/api.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { judgeOverTime } from '../judge.js';
import { Rng, seedFor } from '../rng.js';
import { F32_PERTURBATIONS, perturbedModels, perturbState } from '../states.js';
import type { CheckRow } from '../types.js';
import { sceneModel } from './exact.js';
import { limitPendulumModel } from './models.js';
import { contactXml, initialState, mujocoRollout, queryContact, type ContactQuery, type RolloutAnswer, type StateQuery } from './mujoco.js';
import { engineRollout } from './rollout.js';
import { ciSampling } from '../sampling.js';

export const DOMINO_TIP_DEG = 45;
export const DOMINO_TIP_BAR = 0.056;
export const DOMINO_REST_BAR = 0.3;
/** MuJoCo runs of the dominoes from starts one ulp away from the scene's (dominoTwinStarts), per solver. */
export const DOMINO_TWINS = 8;
export const STACK_TILT_BAR = 2;
export const STACK_DRIFT_BAR = 0.02;
const PENETRATION_EVERY = 10;

/** Tilt (deg) of a free body's z axis from the world's z, from its quaternion at q[o+3..o+6]. */
export function tiltDeg(q: readonly number[], o: number): number {
  const x = q[o + 4];
  const y = q[o + 5];
  const c = Math.min(1, Math.max(-1, 1 - 2 * (x * x + y * y)));
  return (Math.acos(c) * 180) / Math.PI;
}

/** Per free body of the record list: first time past `deg` (Infinity: never) and the final tilt. */
export function tipTimes(
  qs: readonly number[][],
  t: readonly number[],
  nbody: number,
  deg = DOMINO_TIP_DEG,
): { tip: number[]; rest: number[] } {
  const tip: number[] = [];
  const rest: number[] = [];
  for (let b = 0; b < nbody; b++) {
    const k = qs.findIndex((q) => tiltDeg(q, 7 * b) > deg);
    tip.push(k < 0 ? Infinity : t[k]);
    rest.push(tiltDeg(qs[qs.length - 1], 7 * b));
  }
  return { tip, rest };
}

/** x nudged by `ulps` units in the last place of a double, or of a float (x a float) with `f32`. */
export function nudgeUlps(x: number, ulps: number, f32 = false): number {
  const step = x < 0 ? -ulps : ulps; // the bit pattern of a negative number runs the other way
  if (f32) {
    const f = new Float32Array([x]);
    new Int32Array(f.buffer)[0] += step;
    return f[0];
  }
  const f = new Float64Array([x]);
  new BigInt64Array(f.buffer)[0] += BigInt(step);
  return f[0];
}

/** The domino start and `n` twins, twin k with one free body's x position one ulp up (bodies in
 *  turn, then one ulp down): round-off-sized changes of the start. `f32`: float32 ulps, from the
 *  start rounded to float32 (what a float32 engine holds). */
export function dominoTwinStarts(model: ModelDesc, n: number, f32 = false): StateQuery[] {
  const s0 = initialState(model);
  const q0 = f32 ? s0.qpos.map(Math.fround) : s0.qpos;
  const nb = model.bodies.length;
  return Array.from({ length: n + 1 }, (_, k) => {
    const qpos = q0.slice();
    const b = (k - 1) % nb;
    if (k > 0) qpos[7 * b] = nudgeUlps(qpos[7 * b], Math.floor((k - 1) / nb) % 2 ? -1 : 1, f32);
    return { ...s0, qpos };
  });
}

/** Distance from x to the range of `runs` (0 inside it; runs that never tip are Infinity). */
export function distanceToRange(x: number, runs: readonly number[]): number {
  if (runs.some((r) => r === x)) return 0;
  const lo = Math.min(...runs);
  const hi = Math.max(...runs);
  if (x >= lo && x <= hi) return 0;
  const d = Math.min(Math.abs(x - lo), Math.abs(x - hi));
  return Number.isNaN(d) ? Infinity : d;
}

export interface DominoRuns<T> {
  newton: T[];
  cg20: T[];
  newton32: T[];
}

/** f applied to every run of every kind. */
const mapRuns = <A, B>(r: DominoRuns<A>, f: (a: A) => B): DominoRuns<B> => ({
  newton: r.newton.map(f),
  cg20: r.cg20.map(f),
  newton32: r.newton32.map(f),
});

export interface ContactTrajectoryReference {
  /** MuJoCo's runs, each from the scene's start and then its DOMINO_TWINS twins (dominoTwinStarts):
   *  Newton, CG capped at 20 iterations, and Newton with the state rounded to float32 (f32 twins). */
  domino: { model: ModelDesc; runs: DominoRuns<RolloutAnswer>; t: number[] };
  stack: { model: ModelDesc; newton: RolloutAnswer; t: number[] };
  pendulum: { model: ModelDesc; newton: RolloutAnswer; twins: RolloutAnswer[]; t: number[] };
}

const times = (n: number, every: number, dt: number) => Array.from({ length: n }, (_, k) => (k + 1) * every * dt);

export async function contactTrajectoryReference(python: string, seed: number): Promise<ContactTrajectoryReference> {
  const domino = sceneModel('domino-amplifier');
  const dSteps = Math.round(domino.world.duration / domino.world.dt);
  const stack = sceneModel('box-stack');
  const sSteps = Math.round(stack.world.duration / stack.world.dt);
  const pend = limitPendulumModel();
  const pSteps = Math.round(pend.world.duration / pend.world.dt);
  const twins = perturbedModels(pend, F32_PERTURBATIONS, seedFor(seed, 'limit-pendulum', 'contact-f32'));
  const s0 = initialState(pend);
  const twinRuns = twins.map((tm, k) => {
    const p = perturbState(
      pend,
      { q: s0.qpos, v: s0.qvel, tau: s0.tau },
      new Rng(seedFor(seed, 'limit-pendulum', 'contact-f32-state', String(k))),
    );
    return mujocoRollout(python, tm, { steps: pSteps, round32: true, state: { qpos: p.q, qvel: p.v, tau: p.tau } });
  });
  // the dominoes: one Python process per kind of run, each from the start and its twins
  const cg20 = { solver: 'cg' as const, iterations: domino.solver?.iterations ?? 20, tolerance: 0 };
  const dominoRuns = (starts: StateQuery[], o: object) =>
    queryContact(
      python,
      contactXml(domino),
      starts.map((st): ContactQuery => ({ kind: 'rollout', steps: dSteps, ...o, ...st })),
    ) as Promise<RolloutAnswer[]>;
  const starts64 = dominoTwinStarts(domino, DOMINO_TWINS);
  const [newton, cg, newton32, [sn, pn, ...pt]] = await Promise.all([
    dominoRuns(starts64, {}),
    dominoRuns(starts64, cg20),
    dominoRuns(dominoTwinStarts(domino, DOMINO_TWINS, true), { round32: true }),
    Promise.all([
      mujocoRollout(python, stack, { steps: sSteps, every: PENETRATION_EVERY }),
      mujocoRollout(python, pend, { steps: pSteps }),
      ...twinRuns,
    ]),
  ]);
  return {
    domino: { model: domino, runs: { newton, cg20: cg, newton32 }, t: times(newton[0].qpos.length, 1, domino.world.dt) },
    stack: { model: stack, newton: sn, t: times(sn.qpos.length, PENETRATION_EVERY, stack.world.dt) },
    pendulum: { model: pend, newton: pn, twins: pt, t: times(pn.qpos.length, 1, pend.world.dt) },
  };
}

export interface DominoSummary {
  precision: Precision;
  /** The gated values, ours: tip times at the scene's iterations, rest angles at DOMINO_REST_ITERATIONS;
   *  MuJoCo's: [run][domino], run 0 from the scene's start, then its twins. `gated`: the runs whose
   *  range the gate measures ours from. */
  tip: { ours: number[]; mujoco: DominoRuns<number[]>; gated: (keyof DominoRuns<number[]>)[] };
  rest: { ours: number[]; mujoco: DominoRuns<number[]>; gated: (keyof DominoRuns<number[]>)[] };
  /** Penetration over time (m, the deepest acting contact), ours and MuJoCo's, box stack. */
  penetration: { t: number; source: string; depth: number }[];
}

/** CG iterations of the rest-angle run. Measured on the dominoes (f64, against MuJoCo Newton): 60
 *  iterations leave rest angles up to 0.43° off, 150 at most 0.10° (the bar is 0.3°). */
export const DOMINO_REST_ITERATIONS = 150;

/** CI samples: the planted-bug sweep leaves out the dominoes (8 s of ten bodies, the stage's
 *  longest run; every contact bug is also caught by the other gates and the per-state stage), the
 *  default run sweeps everything. */
export const sweepDominoes = () => !ciSampling();

export function contactTrajectoryRows(
  ref: ContactTrajectoryReference,
  precision: Precision,
  addon: NativeAddon,
  sweep = false,
): { rows: CheckRow[]; domino: DominoSummary } {
  const rows: CheckRow[] = [];
  const dominoes = !sweep || sweepDominoes();
  const one = (model: string, field: string, state: number, error: number, bar: number, note: string): CheckRow => ({
    stage: 'contact-trajectory',
    model,
    precision,
    state,
    t: undefined,
    field,
    error,
    stateFloor: NaN,
    floor: bar,
    factor: 1,
    bar,
    status: Number.isFinite(error) && error <= bar ? 'pass' : 'fail',
    note,
  });
  // --- dominoes
  const d = ref.domino;
  const nb = d.model.bodies.length;
  const dSteps = d.runs.newton[0].qpos.length;
  const mj = mapRuns(d.runs, (r) => tipTimes(r.qpos, d.t, nb));
  const f32 = precision === 'f32';
  const tipGated: (keyof DominoRuns<unknown>)[] = f32 ? ['newton', 'cg20', 'newton32'] : ['newton', 'cg20'];
  const restGated: (keyof DominoRuns<unknown>)[] = f32 ? ['newton', 'newton32'] : ['newton'];
  // Tip times at the scene's 20 iterations. Rest angles are the converged solve's: 20 iterations
  // leave MuJoCo's own CG up to 1.3° from its Newton run, so the rest gate runs ours at
  // DOMINO_REST_ITERATIONS (the 20-iteration angle beside it).
  const o = dominoes ? tipTimes(engineRollout(d.model, precision, addon, { steps: dSteps }).q[0], d.t, nb) : { tip: [], rest: [] };
  const restModel = { ...d.model, solver: { ...(d.model.solver ?? { iterations: 20, impratio: 1 }), iterations: DOMINO_REST_ITERATIONS } };
  const oc = dominoes ? tipTimes(engineRollout(restModel, precision, addon, { steps: dSteps }).q[0], d.t, nb) : { tip: [], rest: [] };
  const span = (kind: keyof DominoRuns<unknown>, field: 'tip' | 'rest', b: number, digits: number) => {
    const xs = mj[kind].map((x) => x[field][b]);
    return `${xs[0].toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
  };
  const gatedRuns = (kinds: (keyof DominoRuns<unknown>)[], field: 'tip' | 'rest', b: number) =>
    kinds.flatMap((k) => mj[k].map((x) => x[field][b]));
  const runsNote = (field: 'tip' | 'rest', b: number, digits: number, unit: string) =>
    `MuJoCo Newton ${span('newton', field, b, digits)}${unit}, CG-20 ${span('cg20', field, b, digits)}${unit}, Newton rounded to f32 ${span('newton32', field, b, digits)}${unit} (from the start and its ${DOMINO_TWINS} one-ulp twins)`;
  for (let b = 0; b < (dominoes ? nb : 0); b++) {
    rows.push(
      one(
        'domino-amplifier',
        'domino.tip (s)',
        b,
        distanceToRange(o.tip[b], gatedRuns(tipGated, 'tip', b)),
        DOMINO_TIP_BAR,
        `domino${b}: ours ${o.tip[b].toFixed(3)} s; ${runsNote('tip', b, 3, ' s')}; gated on ${tipGated.join(', ')}`,
      ),
    );
    rows.push(
      one(
        'domino-amplifier',
        'domino.rest (deg)',
        b,
        distanceToRange(oc.rest[b], gatedRuns(restGated, 'rest', b)),
        DOMINO_REST_BAR,
        `domino${b}: ours ${oc.rest[b].toFixed(3)}° (${DOMINO_REST_ITERATIONS} iterations; ${o.rest[b].toFixed(3)}° at ${d.model.solver?.iterations ?? 20}); ${runsNote('rest', b, 3, '°')}; gated on ${restGated.join(', ')}`,
      ),
    );
  }
  // --- box stack: stands in both
  const s = ref.stack;
  const sr = engineRollout(s.model, precision, addon, {
    steps: s.newton.qpos.length * PENETRATION_EVERY,
    every: PENETRATION_EVERY,
    penetration: true,
  });
  const standing = (qs: readonly number[][]) => {
    let tilt = 0;
    let drift = 0;
    const q0 = s.model.bodies.flatMap((b) => b.q0);
    for (const q of qs)
      for (let b = 0; b < s.model.bodies.length; b++) {
        tilt = Math.max(tilt, tiltDeg(q, 7 * b));
        drift = Math.max(drift, Math.hypot(q[7 * b] - q0[7 * b], q[7 * b + 1] - q0[7 * b + 1], q[7 * b + 2] - q0[7 * b + 2]));
        if (!q.every(Number.isFinite)) tilt = Infinity;
      }
    return { tilt, drift };
  };
  const so = standing(sr.q[0]);
  const sm = standing(s.newton.qpos);
  const mjStands = sm.tilt <= STACK_TILT_BAR && sm.drift <= STACK_DRIFT_BAR;
  const stackNote = `ours: tilt ${so.tilt.toExponential(2)}°, drift ${so.drift.toExponential(2)} m; MuJoCo: tilt ${sm.tilt.toExponential(2)}°, drift ${sm.drift.toExponential(2)} m${mjStands ? '' : " (MuJoCo's stack fell: the reference does not stand)"}`;
  rows.push(one('box-stack', 'stack.tilt (deg)', 0, mjStands ? so.tilt : Infinity, STACK_TILT_BAR, stackNote));
  rows.push(one('box-stack', 'stack.drift (m)', 0, mjStands ? so.drift : Infinity, STACK_DRIFT_BAR, stackNote));
  // --- limit pendulum: angle over time against MuJoCo, floors from MuJoCo's perturbed twins
  const p = ref.pendulum;
  const pr = engineRollout(p.model, precision, addon, { steps: p.newton.qpos.length });
  const samples = p.newton.qpos.map((q, k) => {
    const floor = precision === 'f32' ? Math.max(0, ...p.twins.map((tw) => Math.abs(Math.fround(tw.qpos[k][0]) - q[0]))) : 0;
    return { state: 0, t: p.t[k], error: Math.abs(pr.q[0][k][0] - q[0]), stateFloor: floor };
  });
  rows.push(...judgeOverTime({ stage: 'contact-trajectory', model: 'limit-pendulum', precision, field: 'angle (rad)' }, samples));
  // --- lanes: robot 0 in a full-width batch with displaced neighbours = robot 0 alone
  const lanes = widestLanes(addon.cpuInfo(), precision);
  const base = s.model.bodies.flatMap((b) => b.q0);
  const st0 = {
    q: base,
    v: new Array<number>(6 * s.model.bodies.length).fill(0),
    tau: new Array<number>(6 * s.model.bodies.length).fill(0),
  };
  const states = Array.from({ length: lanes }, (_, r) =>
    r === 0 ? st0 : { ...st0, q: base.map((x, k) => (k % 7 === 2 ? x + 0.002 * r * (1 + (k % 3)) : x)) },
  );
  const steps = Math.round(1 / s.model.world.dt);
  const wide = engineRollout(s.model, precision, addon, { steps, every: steps, states, lanes });
  const alone = engineRollout(s.model, precision, addon, { steps, every: steps, states: [st0], lanes: 1 });
  let diff = 0;
  wide.q[0][0].forEach(
    (x, k) =>
      (diff = Object.is(x, alone.q[0][0][k])
        ? diff
        : Math.max(diff, Number.isNaN(x - alone.q[0][0][k]) ? Infinity : Math.abs(x - alone.q[0][0][k]) || Infinity)),
  );
  rows.push({
    ...one(
      'box-stack',
      `lanes (robot 0 of ${lanes} vs alone, 1 s)`,
      0,
      diff,
      0,
      "bit-identical required: no lane reads another lane's state",
    ),
    status: diff === 0 ? 'pass' : 'fail',
  });
  const penetration = [
    ...sr.t.map((t, k) => ({ t, source: `achilles ${precision}`, depth: -sr.mindist[0][k] })),
    ...s.t.map((t, k) => ({ t, source: 'MuJoCo (Newton)', depth: -s.newton.mindist[k] })),
  ].filter((x) => Number.isFinite(x.depth));
  const field = (f: 'tip' | 'rest'): DominoRuns<number[]> => mapRuns(mj, (x) => x[f]);
  return {
    rows,
    domino: {
      precision,
      tip: { ours: o.tip, mujoco: field('tip'), gated: tipGated },
      rest: { ours: oc.rest, mujoco: field('rest'), gated: restGated },
      penetration,
    },
  };
}
