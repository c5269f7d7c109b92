// The exact references: (1) the closed-form double pendulum at every state of a 10 s engine run
// (each state is checked on its own, so chaos cannot amplify anything), and (2) the joint
// accelerations printed in shared/achilles-arow/README.md §4 for the four shared scenes.

import type { Precision } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import type { ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { exportMjcf } from '../model-files/scene/index.js';
import { doublePendulumParams } from './closed-form.js';
import { doublePendulumAccel, type DoublePendulumParams } from './double-pendulum-exact.js';
import { judgeField } from './judge.js';
import { F32_FACTOR, F64_BAR, maxAbs, relErr } from './metrics.js';
import type { DynamicsResult } from './mujoco-ref.js';
import { queryMujoco } from './reference.js';
import { perturbedParams } from './per-state.js';
import { Rng, seedFor } from './rng.js';
import { F32_PERTURBATIONS, perturbed, perturbedModels, perturbState } from './states.js';
import type { CheckRow } from './types.js';

export const RUN_SECONDS = 10;
const EVERY = 5; // every 5th step goes into the report (1000 rows per run); all are checked

/** README §4, rad/s², printed to 7 decimals. */
export const README_QACC: Record<string, number[]> = {
  two_joint_arm: [14.1258999, -23.0908763],
  two_joint_arm_small_swing: [7.06295, -11.5454381],
  three_joint_arm: [13.5412583, -19.6149204, 9.6031511],
  asymmetric_two_joint_arm: [8.6695878, 0],
};
const README_HALF_ULP = 0.5e-7;

export interface ClosedFormRun {
  rows: CheckRow[];
  t: number[];
  error: number[];
}

/** Floor per state: the closed form's largest change over F32_PERTURBATIONS perturbations of its
 *  parameters and of the state and torques (each number × (1 + δ), |δ| ≤ 2⁻²⁴, seeded), its
 *  answer stored in float32: the float32 sensitivity of the closed form itself at that state (the
 *  engine's state is float32 in an f32 run, so rounding it would change nothing, and rounding the
 *  parameters leaves the exactly representable ones unmoved; see per-state.ts). */
export function closedFormRun(name: string, model: ModelDesc, precision: Precision, addon: NativeAddon, seed = 1): ClosedFormRun | null {
  const p = doublePendulumParams(model);
  if (!p) return null;
  const twins = perturbedParams(p, F32_PERTURBATIONS, seedFor(seed, name, 'closed-form-run'));
  const b = new Batch(model, { copies: 1, precision }, addon);
  const steps = Math.round(RUN_SECONDS / b.dt);
  const samples: { state: number; t: number; error: number; stateFloor: number }[] = [];
  for (let k = 0; k <= steps; k++) {
    if (k > 0) b.stepRaw(1);
    b.forwardUnconstrained();
    const r = b.getRobot(0);
    if (![...r.q, ...r.v, ...r.qacc].every(Number.isFinite)) {
      // A diverged run (only a planted bug does this) fails here rather than in the formula.
      samples.push({ state: k, t: k * b.dt, error: Infinity, stateFloor: 0 });
      break;
    }
    const s = { phi: r.q[0], psi: r.q[1], phiDot: r.v[0], psiDot: r.v[1] };
    const tau: [number, number] = [r.tau[0], r.tau[1]];
    const exact = doublePendulumAccel(p, s, tau);
    let floor = 0;
    twins.forEach((pj, j) => {
      const rng = new Rng(seedFor(seed, name, 'closed-form-state', String(k), String(j)));
      const [phi, psi, phiDot, psiDot, t0, t1] = perturbed([s.phi, s.psi, s.phiDot, s.psiDot, tau[0], tau[1]], rng);
      const e = relErr(doublePendulumAccel(pj, { phi, psi, phiDot, psiDot }, [t0, t1]).map(Math.fround), exact);
      floor = Number.isNaN(e) ? Infinity : Math.max(floor, e);
    });
    samples.push({ state: k, t: k * b.dt, error: relErr(r.qacc, exact), stateFloor: floor });
  }
  const rows = judgeField({ stage: 'exact', model: name, precision, field: 'qacc-closed-form-10s' }, samples);
  return {
    rows: rows.filter((r) => r.state % EVERY === 0 || r.status === 'fail'),
    t: samples.map((s) => s.t),
    error: samples.map((s) => s.error),
  };
}

/** Engine-independent numbers for the README check: MuJoCo's qacc at the initial state for each
 *  float32-perturbed twin of the model and state (see states.perturbModel), stored in float32. */
export async function readmeReference(python: string, model: ModelDesc, seed = 1): Promise<number[][]> {
  const q = model.bodies.flatMap((b) => b.q0);
  const v = model.bodies.flatMap((b) => b.v0);
  const twins = perturbedModels(model, F32_PERTURBATIONS, seedFor(seed, 'readme'));
  const models: Record<string, string> = { exact: exportMjcf(model) };
  twins.forEach((t, k) => (models[`p${k}`] = exportMjcf(t)));
  const res = (await queryMujoco(
    python,
    models,
    twins.map((_, k) => {
      const x = perturbState(model, { q, v, tau: v.map(() => 0) }, new Rng(seedFor(seed, 'readme-state', String(k))));
      return { model: `p${k}`, kind: 'dynamics' as const, qpos: x.q, qvel: x.v };
    }),
  )) as DynamicsResult[];
  return res.map((d) => d.qacc.map(Math.fround));
}

/** The README's values are printed to 7 decimals: that rounding is the reference's own floor.
 *  f64 bar: max(1e-9, 3 × that); f32 bar: 3 × the larger of it and the float32 floor (the largest
 *  change over the perturbed twins' answers, less the printing floor). */
export function readmeRows(name: string, model: ModelDesc, precision: Precision, addon: NativeAddon, qacc32: number[][]): CheckRow[] {
  const want = README_QACC[name];
  if (!want) return [];
  const b = new Batch(model, { copies: 1, precision }, addon);
  b.forwardUnconstrained();
  const got = b.getRobot(0).qacc;
  const printed = README_HALF_ULP / maxAbs(want);
  const floor = precision === 'f64' ? printed : Math.max(printed, ...qacc32.map((a) => relErr(a, want) - printed));
  const bar = precision === 'f64' ? Math.max(F64_BAR, F32_FACTOR * printed) : F32_FACTOR * floor;
  const error = relErr(got, want);
  return [
    {
      stage: 'exact',
      model: name,
      precision,
      state: 0,
      t: 0,
      field: 'qacc-readme',
      error,
      stateFloor: floor,
      floor,
      factor: F32_FACTOR,
      bar,
      status: error <= bar ? 'pass' : 'fail',
      note: `README §4: ${want.join(', ')}`,
    },
  ];
}
