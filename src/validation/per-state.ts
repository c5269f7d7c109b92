// Stages 1–5 (and the per-state half of 7): the engine against MuJoCo at random states.
//
// For every state x the reference answers at x with the model as written, and K more times
// (F32_PERTURBATIONS) with every input number perturbed by a float32 half-ulp: each coordinate,
// velocity and torque of x and each model constant (masses, CoMs, inertias, joint placements,
// axes, gravity, dt) multiplied by 1 + δ, δ uniform in [−2⁻²⁴, 2⁻²⁴] (seeded), quaternions
// renormalised, the answer then stored in float32. The largest change over the K answers is that
// state's float32 floor. Why: a float32 engine's result is at best the exact answer for inputs
// perturbed by a half-ulp each (that is what storing and computing in float32 does), so this is
// the reference's own sensitivity to float32, the floor no float32 engine can beat. Rounding the
// inputs to float32 (the earlier floor) misses every direction in which an input is exactly
// representable (masses 1 or 0.5, zeros, integers), and so on an ill-conditioned model it can
// miss the sensitivity almost entirely. See states.ts (perturbState, perturbModel).
//
// For the fields that come from solving the equations of motion (forward q̈, the mass-matrix and
// bias checks built from q̈, and one step of every integrator) the floor is also the reference's
// sensitivity to storing those equations in float32: at x, K more times (the same K, seeded),
// MuJoCo's own M and b = qfrc_bias have every entry multiplied by 1 + δ (M symmetrically: upper
// triangle perturbed, mirrored), δ uniform in [−2⁻²⁴, 2⁻²⁴], and M̃ q̈ = τ − b̃ is solved in float64
// (a fresh M̃, b̃ at every dynamics evaluation of a step; the step composed in Python from that
// f(q, v) exactly as the engine defines each integrator, with every intermediate the integrator
// stores also perturbed by a fresh half-ulp draw: each acceleration, the stage velocities v½, vm
// and RK4's v_i, the stage positions (quaternions renormalised, and the quaternion increment and
// product of q ⊕ h·v), RK4's weights and running sums, euler's v' and verlet's q' that the rest of
// the step reads; compared with the same composition unperturbed), the answer stored in float32;
// the same K draws of M and b with the intermediates left exact count too (2K answers), so this
// floor is never below the one of M and b alone.
// Why the intermediates: a float32 engine stores each of them, and the last ones feed the answer
// directly (midpoint's v' = 2·vm − v doubles vm's storage error).
// Why: any float32 dynamics computation stores M-like quantities (the mass matrix, or the
// articulated inertias of ABA) entry by entry in float32, and on an ill-conditioned M
// (slider-ball: a 0.1 kg puck on a planar joint at the end of a thin rod on a ball joint) that
// alone moves q̈ by κ(M)·2⁻²⁴, in directions that perturbing the inputs never excites (the input
// twins keep M's near-singular structure intact). The state's floor for those fields is the
// larger of the two changes. See validate_extra.py (`equations`).

import type { Precision } from '../engine/api.js';
import { CLASSIC_INTEGRATORS as INTEGRATORS, type ClassicIntegrator as IntegratorName, type ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { exportMjcf } from '../model-files/scene/index.js';
import { doublePendulumAccel, type DoublePendulumParams } from './double-pendulum-exact.js';
import { doublePendulumParams } from './closed-form.js';
import { engineAnswers, engineStep } from './engine-eval.js';
import { judgeField } from './judge.js';
import { maxAbs, quatAngle, relErr } from './metrics.js';
import type { DynamicsResult, KinematicsResult, StepResult } from './mujoco-ref.js';
import { queryMujoco, type ExtraQuery } from './reference.js';
import { Rng, seedFor } from './rng.js';
import {
  F32_PERTURBATIONS,
  perturbed,
  perturbedModels,
  perturbState,
  plainCoordinates,
  quaternionOffsets,
  randomStates,
  type TestState,
} from './states.js';
import type { CheckRow, Sample, StageName } from './types.js';

export interface PerStateReference {
  name: string;
  model: ModelDesc;
  states: TestState[];
  tauScale: number;
  /** The suite seed (the perturbations are seeded from it). */
  seed: number;
  kin: KinematicsResult[];
  /** [state][perturbation]: the perturbed twins' answers, stored in float32. */
  kin32: KinematicsResult[][];
  /** Exact at (x, τ); perturbed at (x̃, τ̃) and (x̃, 0) (the same x̃ in both). */
  dyn: DynamicsResult[];
  dyn32: DynamicsResult[][];
  dyn32zero: DynamicsResult[][];
  step: Record<IntegratorName, StepResult[]>;
  step32: Record<IntegratorName, StepResult[][]>;
  /** [state]: M q̈ = τ − b solved as written (base) and [perturbation] with M and b perturbed by a
   *  float32 half-ulp per entry (stored in float32): qacc, qacc0 (τ = 0, the same M̃, b̃) and one
   *  step per integrator composed from the perturbed dynamics; 2K perturbations: K with the
   *  integrators' stored intermediates perturbed too, then the same K draws of M, b without. */
  eq: EquationsResult[];
}

export interface EquationAnswer {
  qacc: number[];
  qacc0: number[];
  step: Record<IntegratorName, StepResult>;
}
export interface EquationsResult {
  base: EquationAnswer;
  perturbed: EquationAnswer[];
}

/** Scale of the random torques: the RMS gravity generalized force at random poses (MuJoCo's
 *  qfrc_bias at v = 0), or, without gravity, the RMS velocity-product force at random states. */
async function torqueScale(python: string, name: string, model: ModelDesc, xml: string, seed: number): Promise<number> {
  const probe = randomStates(model, 8, seedFor(seed, name, 'tau-scale'), 0);
  const qs: ExtraQuery[] = probe.flatMap((s) => [
    { model: 'exact' as const, kind: 'dynamics' as const, qpos: s.q, qvel: s.v.map(() => 0) },
    { model: 'exact' as const, kind: 'dynamics' as const, qpos: s.q, qvel: s.v },
  ]);
  const res = (await queryMujoco(python, { exact: xml, f32: xml }, qs)) as DynamicsResult[];
  const rms = (pick: (i: number) => number[]) => {
    const all = probe.flatMap((_, i) => pick(i));
    return Math.sqrt(all.reduce((s, x) => s + x * x, 0) / Math.max(all.length, 1));
  };
  const gravity = rms((i) => res[2 * i].qfrc_bias);
  return gravity > 1e-9 ? gravity : rms((i) => res[2 * i + 1].qfrc_bias) || 1;
}

export async function perStateReference(
  python: string,
  name: string,
  model: ModelDesc,
  n: number,
  seed: number,
): Promise<PerStateReference> {
  const xml = exportMjcf(model);
  const K = F32_PERTURBATIONS;
  const twins = perturbedModels(model, K, seedFor(seed, name));
  const models: Record<string, string> = { exact: xml };
  twins.forEach((t, k) => (models[`p${k}`] = exportMjcf(t)));
  const tauScale = await torqueScale(python, name, model, xml, seed);
  const states = randomStates(model, n, seedFor(seed, name, 'states'), tauScale);
  const h = model.world.dt / model.world.substeps;
  const qs: ExtraQuery[] = [];
  states.forEach((s, i) => {
    qs.push({ model: 'exact', kind: 'kinematics', qpos: s.q });
    qs.push({
      model: 'exact',
      kind: 'equations',
      qpos: s.q,
      qvel: s.v,
      tau: s.tau,
      h,
      integrators: [...INTEGRATORS],
      seed: seedFor(seed, name, 'f32-equations', String(i)),
      k: K,
    });
    qs.push({ model: 'exact', kind: 'dynamics', qpos: s.q, qvel: s.v, tau: s.tau });
    for (const integrator of INTEGRATORS) qs.push({ model: 'exact', kind: 'step', integrator, h, qpos: s.q, qvel: s.v, tau: s.tau });
    for (let k = 0; k < K; k++) {
      const r = perturbState(model, s, new Rng(seedFor(seed, name, 'f32-state', String(i), String(k))));
      const tw = `p${k}`;
      const hk = twins[k].world.dt / twins[k].world.substeps;
      qs.push({ model: tw, kind: 'kinematics', qpos: r.q });
      qs.push({ model: tw, kind: 'dynamics', qpos: r.q, qvel: r.v, tau: r.tau });
      qs.push({ model: tw, kind: 'dynamics', qpos: r.q, qvel: r.v });
      for (const integrator of INTEGRATORS) qs.push({ model: tw, kind: 'step', integrator, h: hk, qpos: r.q, qvel: r.v, tau: r.tau });
    }
  });
  const raw = await queryMujoco(python, models, qs);
  // Every answer of a perturbed twin is stored in float32, as the float32 engine's outputs are.
  // So is every perturbed solve of the equations of motion (the unperturbed base stays float64).
  const res = raw.map((r, i) => {
    if (qs[i].kind === 'equations') {
      const e = r as unknown as EquationsResult;
      return { base: e.base, perturbed: roundDeep(e.perturbed) } as unknown as typeof r;
    }
    return (qs[i].model === 'exact' ? r : roundDeep(r)) as typeof r;
  });
  const G = INTEGRATORS.length;
  const perTwin = 3 + G;
  const per = 3 + G + K * perTwin;
  const at = <T>(i: number, j: number) => res[i * per + j] as T;
  const twin = <T>(i: number, j: number) => Array.from({ length: K }, (_, k) => at<T>(i, 3 + G + k * perTwin + j));
  const step = {} as Record<IntegratorName, StepResult[]>;
  const step32 = {} as Record<IntegratorName, StepResult[][]>;
  INTEGRATORS.forEach((g, j) => {
    step[g] = states.map((_, i) => at<StepResult>(i, 3 + j));
    step32[g] = states.map((_, i) => twin<StepResult>(i, 3 + j));
  });
  return {
    name,
    model,
    states,
    tauScale,
    seed,
    kin: states.map((_, i) => at(i, 0)),
    kin32: states.map((_, i) => twin(i, 0)),
    eq: states.map((_, i) => at(i, 1)),
    dyn: states.map((_, i) => at(i, 2)),
    dyn32: states.map((_, i) => twin(i, 1)),
    dyn32zero: states.map((_, i) => twin(i, 2)),
    step,
    step32,
  };
}

function roundDeep(x: unknown): unknown {
  if (typeof x === 'number') return Math.fround(x);
  if (Array.isArray(x)) return x.map(roundDeep);
  if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, roundDeep(v)]));
  return x;
}

/** A state's float32 floor: the largest change over its perturbed answers (NaN counts as ∞). */
function worst<T>(twins: readonly T[], f: (r: T, k: number) => number): number {
  let m = 0;
  twins.forEach((r, k) => {
    const x = f(r, k);
    m = Number.isNaN(x) ? Infinity : Math.max(m, x);
  });
  return m;
}

/** State i's two float32 floors of forward q̈: perturbing the inputs (state, torques, model
 *  constants) and perturbing the equations of motion (M, b); the state's floor is the larger. */
export function qaccFloors(ref: PerStateReference, i: number): { inputs: number; equations: number } {
  const exact = ref.dyn[i].qacc;
  return { inputs: worst(ref.dyn32[i], (r) => relErr(r.qacc, exact)), equations: worst(ref.eq[i].perturbed, (r) => relErr(r.qacc, exact)) };
}

const matVec = (M: number[][], x: readonly number[]) => M.map((row) => row.reduce((s, m, j) => s + m * x[j], 0));

/** Rows of every per-state gate for one model at one precision, with `addon` as the engine;
 *  `n` states (a prefix of the reference's states; the bug sweep uses fewer). */
export function perStateRows(
  ref: PerStateReference,
  precision: Precision,
  addon: NativeAddon,
  only: ReadonlySet<StageName>,
  n = ref.states.length,
): CheckRow[] {
  const states = ref.states.slice(0, n);
  const rows: CheckRow[] = [];
  const field = (stage: StageName, name: string, samples: Sample[]) => {
    if (only.has(stage)) rows.push(...judgeField({ stage, model: ref.name, precision, field: name }, samples));
  };
  const each = (f: (i: number) => [number, number]): Sample[] =>
    states.map((_, i) => {
      const [error, stateFloor] = f(i);
      return { state: i, error, stateFloor };
    });

  if (only.has('kinematics') || only.has('mass-matrix') || only.has('bias') || only.has('forward') || only.has('energy')) {
    const e = engineAnswers(ref.model, precision, addon, states);
    const flat = (a: number[][]) => a.flat();
    field(
      'kinematics',
      'pos',
      each((i) => [relErr(e.pos[i], flat(ref.kin[i].xpos)), worst(ref.kin32[i], (r) => relErr(flat(r.xpos), flat(ref.kin[i].xpos)))]),
    );
    field(
      'kinematics',
      'rot',
      each((i) => [relErr(e.rot[i], flat(ref.kin[i].xmat)), worst(ref.kin32[i], (r) => relErr(flat(r.xmat), flat(ref.kin[i].xmat)))]),
    );
    // M·Δq̈ = Δτ: the engine's response to τ, mapped back through MuJoCo's mass matrix.
    const dq = (a: number[], b: number[]) => a.map((x, k) => x - b[k]);
    // Each floor below: the larger of the input twins' change and the perturbed equations' change.
    field(
      'mass-matrix',
      'M·Δqacc',
      each((i) => {
        const M = ref.dyn[i].qM;
        const tau = states[i].tau;
        const floor = Math.max(
          worst(ref.dyn32[i], (r, k) => relErr(matVec(M, dq(r.qacc, ref.dyn32zero[i][k].qacc)), tau)),
          worst(ref.eq[i].perturbed, (r) => relErr(matVec(M, dq(r.qacc, r.qacc0)), tau)),
        );
        return [relErr(matVec(M, dq(e.qacc[i], e.qacc0[i])), tau), floor];
      }),
    );
    // −M·q̈(τ = 0) = bias (Coriolis, centrifugal, gravity).
    field(
      'bias',
      '−M·qacc0',
      each((i) => {
        const M = ref.dyn[i].qM;
        const neg = (a: number[]) => matVec(M, a).map((x) => -x);
        const b = ref.dyn[i].qfrc_bias;
        const floor = Math.max(
          worst(ref.dyn32zero[i], (r) => relErr(neg(r.qacc), b)),
          worst(ref.eq[i].perturbed, (r) => relErr(neg(r.qacc0), b)),
        );
        return [relErr(neg(e.qacc0[i]), b), floor];
      }),
    );
    field(
      'forward',
      'qacc',
      each((i) => {
        const { inputs, equations } = qaccFloors(ref, i);
        return [relErr(e.qacc[i], ref.dyn[i].qacc), Math.max(inputs, equations)];
      }),
    );
    const dp = doublePendulumParams(ref.model);
    if (dp) field('forward', 'qacc-closed-form', closedFormSamples(dp, states, e.qacc, seedFor(ref.seed, ref.name, 'closed-form')));
    // Energy is a scalar that crosses zero: its scale is the largest |value| over the states.
    for (const [k, key] of [
      [1, 'kinetic'],
      [0, 'potential'],
    ] as const) {
      const got = key === 'kinetic' ? e.kinetic : e.potential;
      const scale = maxAbs(states.map((_, i) => ref.dyn[i].energy[k]));
      field(
        'energy',
        key,
        each((i) => [
          relErr([got[i]], [ref.dyn[i].energy[k]], scale),
          worst(ref.dyn32[i], (r) => relErr([r.energy[k]], [ref.dyn[i].energy[k]], scale)),
        ]),
      );
    }
  }
  if (only.has('step')) {
    const plain = plainCoordinates(ref.model);
    const quats = quaternionOffsets(ref.model);
    const pick = (q: readonly number[]) => plain.map((k) => q[k]);
    const worstAngle = (a: readonly number[], b: readonly number[]) =>
      Math.max(0, ...quats.map((o) => quatAngle(a.slice(o, o + 4), b.slice(o, o + 4))));
    for (const g of INTEGRATORS) {
      const s = engineStep(ref.model, precision, addon, g, states);
      const R = ref.step[g];
      const R32 = ref.step32[g];
      // The perturbed equations' steps against the same composition unperturbed (E), on R's scale.
      const E = (i: number) => ref.eq[i].base.step[g];
      const E32 = (i: number) => ref.eq[i].perturbed.map((r) => r.step[g]);
      if (plain.length)
        field(
          'step',
          `${g}.q`,
          each((i) => [
            relErr(pick(s.q[i]), pick(R[i].qpos)),
            Math.max(
              worst(R32[i], (r) => relErr(pick(r.qpos), pick(R[i].qpos))),
              worst(E32(i), (r) => relErr(pick(r.qpos), pick(E(i).qpos), maxAbs(pick(R[i].qpos)))),
            ),
          ]),
        );
      // Orientation error in radians (a unit quaternion's scale is 1), sign-independent.
      if (quats.length)
        field(
          'step',
          `${g}.orientation`,
          each((i) => [
            worstAngle(s.q[i], R[i].qpos),
            Math.max(
              worst(R32[i], (r) => worstAngle(r.qpos, R[i].qpos)),
              worst(E32(i), (r) => worstAngle(r.qpos, E(i).qpos)),
            ),
          ]),
        );
      if (ref.model.bodies.some((b) => b.joint !== 'fixed'))
        field(
          'step',
          `${g}.v`,
          each((i) => [
            relErr(s.v[i], R[i].qvel),
            Math.max(
              worst(R32[i], (r) => relErr(r.qvel, R[i].qvel)),
              worst(E32(i), (r) => relErr(r.qvel, E(i).qvel, maxAbs(R[i].qvel))),
            ),
          ]),
        );
    }
  }
  return rows;
}

/** q̈ from the closed form at each state; its floor is the closed form's own largest change over
 *  F32_PERTURBATIONS perturbations of its parameters and of the state and torques by a float32
 *  half-ulp each, its answer stored in float32 (see perturbedParams). */
function closedFormSamples(p: DoublePendulumParams, states: readonly TestState[], qacc: number[][], seed: number): Sample[] {
  const twins = perturbedParams(p, F32_PERTURBATIONS, seed);
  return states.map((s, i) => {
    const at = (pp: DoublePendulumParams, x: TestState) =>
      doublePendulumAccel(pp, { phi: x.q[0], psi: x.q[1], phiDot: x.v[0], psiDot: x.v[1] }, [x.tau[0], x.tau[1]]);
    const exact = at(p, s);
    const floor = worst(twins, (pk, k) => {
      const rng = new Rng(seedFor(seed, 'state', String(i), String(k)));
      const x = { q: perturbed(s.q, rng), v: perturbed(s.v, rng), tau: perturbed(s.tau, rng) };
      return relErr(at(pk, x).map(Math.fround), exact);
    });
    return { state: i, error: relErr(qacc[i], exact), stateFloor: floor };
  });
}

/** K seeded twins of the closed form's parameters, each multiplied by 1 + δ, |δ| ≤ 2⁻²⁴. */
export function perturbedParams(p: DoublePendulumParams, k: number, seed: number): DoublePendulumParams[] {
  const keys = Object.keys(p) as (keyof DoublePendulumParams)[];
  return Array.from({ length: k }, (_, j) => {
    const vals = perturbed(
      keys.map((key) => p[key]),
      new Rng(seedFor(seed, 'params', String(j))),
    );
    return Object.fromEntries(keys.map((key, n) => [key, vals[n]])) as unknown as DoublePendulumParams;
  });
}
