// The contact stage's check of the elliptic line search's float32 stop (constraint/solver/line_search.hpp): in
// float32 an island's search also settles once |f′(α)| < kSlopeFloorFactor × the slope's rounding floor
// ε·(|c1| + |2α·c2| + Σ|row terms of f′|), since MuJoCo's gtol lies below float32 rounding there. A
// converged answer cannot show that stop (a sloppier search only slows the solve), so the check runs the
// float32 Newton solve short of convergence, one iteration per island from a cold start, at MuJoCo's
// tolerance 1e-8 (its slope stop and the rounding floor are live), against MuJoCo 3.14's first Newton
// step run to its exact minimum (mujoco_contact.py `newton1`: tolerance 1e-14, ls_iterations 200):
//   qacc.newton1.stop   ours (f32, tolerance 1e-8) against MuJoCo's exact first step
// Floor, per state: the same float32 step with the line search run until its steps reach rounding
// (tolerance 0: no slope stop, bisection down to 8ε), against the same reference: what float32 arithmetic
// inside one Newton step (H = M + JᵀDJ, its factor, the cone's terms) costs with no stop at all. The bar
// is F32_FACTOR × the largest floor over the states (judgeField), so the stop may cost at most what
// float32 already costs, not a figure picked to pass. Measured (32 states, seed 1): the stopped step is
// bit-identical to the unstopped one at every state (worst 1.35e-5 against MuJoCo, bar 4.05e-5); with
// the floor taken with √ε for ε (planted bug `line-search-floor-sqrt-eps`, a stop ~2900× too early) 3 of
// the 32 states fail (worst 1.41e-4, 3.5 × the bar; state 1 among them, within CI's 8).
// The solve is float32 whatever the pass, so its rows are labelled f32; they are made in the f64 pass,
// which the planted-bug sweep (f64 only) also runs, so the sweep sees them and the normal run makes
// them once.

import { Batch } from '../../engine/batch.js';
import { withSolver, type ModelDesc } from '../../engine/model-desc.js';
import type { Precision } from '../../engine/api.js';
import type { NativeAddon } from '../../engine/native.js';
import { judgeField } from '../judge.js';
import { relErr } from '../metrics.js';
import { seedFor } from '../rng.js';
import type { TestState } from '../states.js';
import type { CheckRow } from '../types.js';
import { ballsStates, spinBallsModel } from './models.js';
import { mujocoConstraints, type ConstraintAnswer } from './mujoco.js';

/** MuJoCo's default tolerance: its slope stop gtol is live, and in float32 the rounding floor with it. */
const STOP_TOLERANCE = 1e-8;

export interface LineSearchStopReference {
  name: string;
  model: ModelDesc;
  states: TestState[];
  mujoco: ConstraintAnswer[];
}

/** The spin balls (a condim-6 sphere, a condim-4 capsule, condim-1 spheres) under the elliptic cone. */
export function ellipticStopModel(): ModelDesc {
  const m = spinBallsModel();
  return { ...m, name: 'contact-elliptic-stop', solver: { ...m.solver!, cone: 'elliptic' } };
}

export async function lineSearchStopReference(python: string, seed: number, states: number): Promise<LineSearchStopReference> {
  const model = ellipticStopModel();
  const xs = ballsStates(states, seedFor(seed, model.name));
  const mujoco = await mujocoConstraints(
    python,
    model,
    xs.map((s) => ({ qpos: s.q, qvel: s.v, tau: s.tau })),
  );
  return { name: model.name, model, states: xs, mujoco };
}

/** Our float32 Newton after one iteration at each state, at `tolerance`. */
function newton1F32(addon: NativeAddon, model: ModelDesc, states: readonly TestState[], tolerance: number): number[][] {
  const b = new Batch(withSolver(model, 'newton', tolerance, 1), { copies: states.length, precision: 'f32' }, addon);
  states.forEach((s, r) => b.setRobot(r, s));
  return states.map((_, r) => [...b.constraints(r, { iterations: 1, warm: false }).qacc]);
}

/** The check's rows: made in the f64 pass only (see above), labelled f32. */
export function lineSearchStopRows(ref: LineSearchStopReference, precision: Precision, addon: NativeAddon, maxStates: number): CheckRow[] {
  if (precision !== 'f64') return [];
  const states = ref.states.slice(0, maxStates);
  const stopped = newton1F32(addon, ref.model, states, STOP_TOLERANCE);
  const unstopped = newton1F32(addon, ref.model, states, 0);
  const samples = states.map((_, i) => ({
    state: i,
    error: relErr(stopped[i], ref.mujoco[i].newton1.qacc),
    stateFloor: relErr(unstopped[i], ref.mujoco[i].newton1.qacc),
  }));
  const note = 'float32 Newton after one iteration at tolerance 1e-8 (the slope stops live); floor: the same step unstopped (tolerance 0)';
  return judgeField({ stage: 'contact', model: ref.name, precision: 'f32', field: 'qacc.newton1.stop' }, samples).map((r) => ({
    ...r,
    note: r.note || note,
  }));
}
