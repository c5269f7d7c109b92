// Stages 1–5 (and the per-state half of 7): the engine against MuJoCo at random states.
//
// For every state x the reference answers twice: at x with the model as written, and at
// x rounded to float32 with every model constant rounded to float32, its answer then stored in
// float32. The difference between the two is that state's float32 floor: the error of an engine
// that computes exactly but, like any float32 engine, reads and writes float32 numbers.

import type { Precision } from '../engine/api.js';
import { INTEGRATORS, type IntegratorName, type ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { exportMjcf } from '../scene/index.js';
import { doublePendulumAccel, type DoublePendulumParams } from './double-pendulum-exact.js';
import { doublePendulumParams } from './closed-form.js';
import { engineAnswers, engineStep } from './engine-eval.js';
import { judgeField } from './judge.js';
import { maxAbs, quatAngle, relErr } from './metrics.js';
import type { DynamicsResult, KinematicsResult, StepResult } from './mujoco-ref.js';
import { queryMujoco, type ExtraQuery } from './reference.js';
import { seedFor } from './rng.js';
import { plainCoordinates, quaternionOffsets, randomStates, roundModel, roundState, type TestState } from './states.js';
import type { CheckRow, Sample, StageName } from './types.js';

export interface PerStateReference {
  name: string;
  model: ModelDesc;
  states: TestState[];
  tauScale: number;
  kin: KinematicsResult[];
  kin32: KinematicsResult[];
  /** Exact at (x, τ); float32-rounded at (x̃, τ̃) and (x̃, 0). */
  dyn: DynamicsResult[];
  dyn32: DynamicsResult[];
  dyn32zero: DynamicsResult[];
  step: Record<IntegratorName, StepResult[]>;
  step32: Record<IntegratorName, StepResult[]>;
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

export async function perStateReference(python: string, name: string, model: ModelDesc, n: number, seed: number): Promise<PerStateReference> {
  const xml = exportMjcf(model);
  const xml32 = exportMjcf(roundModel(model));
  const tauScale = await torqueScale(python, name, model, xml, seed);
  const states = randomStates(model, n, seedFor(seed, name, 'states'), tauScale);
  const h = model.world.dt / model.world.substeps;
  const qs: ExtraQuery[] = [];
  for (const s of states) {
    const r = roundState(s);
    qs.push({ model: 'exact', kind: 'kinematics', qpos: s.q });
    qs.push({ model: 'f32', kind: 'kinematics', qpos: r.q });
    qs.push({ model: 'exact', kind: 'dynamics', qpos: s.q, qvel: s.v, tau: s.tau });
    qs.push({ model: 'f32', kind: 'dynamics', qpos: r.q, qvel: r.v, tau: r.tau });
    qs.push({ model: 'f32', kind: 'dynamics', qpos: r.q, qvel: r.v });
    for (const integrator of INTEGRATORS) {
      qs.push({ model: 'exact', kind: 'step', integrator, h, qpos: s.q, qvel: s.v, tau: s.tau });
      qs.push({ model: 'f32', kind: 'step', integrator, h: Math.fround(h), qpos: r.q, qvel: r.v, tau: r.tau });
    }
  }
  const raw = await queryMujoco(python, { exact: xml, f32: xml32 }, qs);
  // Every answer of the float32 twin is stored in float32, as the float32 engine's outputs are.
  const res = raw.map((r, i) => ((qs[i].model === 'f32' ? roundDeep(r) : r) as typeof r));
  const per = 5 + 2 * INTEGRATORS.length;
  const at = <T>(i: number, k: number) => res[i * per + k] as T;
  const step = {} as Record<IntegratorName, StepResult[]>;
  const step32 = {} as Record<IntegratorName, StepResult[]>;
  INTEGRATORS.forEach((g, j) => {
    step[g] = states.map((_, i) => at<StepResult>(i, 5 + 2 * j));
    step32[g] = states.map((_, i) => at<StepResult>(i, 6 + 2 * j));
  });
  return {
    name,
    model,
    states,
    tauScale,
    kin: states.map((_, i) => at(i, 0)),
    kin32: states.map((_, i) => at(i, 1)),
    dyn: states.map((_, i) => at(i, 2)),
    dyn32: states.map((_, i) => at(i, 3)),
    dyn32zero: states.map((_, i) => at(i, 4)),
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

const matVec = (M: number[][], x: readonly number[]) => M.map((row) => row.reduce((s, m, j) => s + m * x[j], 0));

/** Rows of every per-state gate for one model at one precision, with `addon` as the engine;
 *  `n` states (a prefix of the reference's states; the bug sweep uses fewer). */
export function perStateRows(ref: PerStateReference, precision: Precision, addon: NativeAddon, only: ReadonlySet<StageName>, n = ref.states.length): CheckRow[] {
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
    field('kinematics', 'pos', each((i) => [relErr(e.pos[i], flat(ref.kin[i].xpos)), relErr(flat(ref.kin32[i].xpos), flat(ref.kin[i].xpos))]));
    field('kinematics', 'rot', each((i) => [relErr(e.rot[i], flat(ref.kin[i].xmat)), relErr(flat(ref.kin32[i].xmat), flat(ref.kin[i].xmat))]));
    // M·Δq̈ = Δτ: the engine's response to τ, mapped back through MuJoCo's mass matrix.
    const dq = (a: number[], b: number[]) => a.map((x, k) => x - b[k]);
    field('mass-matrix', 'M·Δqacc', each((i) => {
      const M = ref.dyn[i].qM;
      const tau = states[i].tau;
      return [relErr(matVec(M, dq(e.qacc[i], e.qacc0[i])), tau), relErr(matVec(M, dq(ref.dyn32[i].qacc, ref.dyn32zero[i].qacc)), tau)];
    }));
    // −M·q̈(τ = 0) = bias (Coriolis, centrifugal, gravity).
    field('bias', '−M·qacc0', each((i) => {
      const M = ref.dyn[i].qM;
      const neg = (a: number[]) => matVec(M, a).map((x) => -x);
      return [relErr(neg(e.qacc0[i]), ref.dyn[i].qfrc_bias), relErr(neg(ref.dyn32zero[i].qacc), ref.dyn[i].qfrc_bias)];
    }));
    field('forward', 'qacc', each((i) => [relErr(e.qacc[i], ref.dyn[i].qacc), relErr(ref.dyn32[i].qacc, ref.dyn[i].qacc)]));
    const dp = doublePendulumParams(ref.model);
    if (dp) field('forward', 'qacc-closed-form', closedFormSamples(dp, states, e.qacc));
    // Energy is a scalar that crosses zero: its scale is the largest |value| over the states.
    for (const [k, key] of [[1, 'kinetic'], [0, 'potential']] as const) {
      const got = key === 'kinetic' ? e.kinetic : e.potential;
      const scale = maxAbs(states.map((_, i) => ref.dyn[i].energy[k]));
      field('energy', key, each((i) => [relErr([got[i]], [ref.dyn[i].energy[k]], scale), relErr([ref.dyn32[i].energy[k]], [ref.dyn[i].energy[k]], scale)]));
    }
  }
  if (only.has('step')) {
    const plain = plainCoordinates(ref.model);
    const quats = quaternionOffsets(ref.model);
    const pick = (q: readonly number[]) => plain.map((k) => q[k]);
    const worstAngle = (a: readonly number[], b: readonly number[]) => Math.max(0, ...quats.map((o) => quatAngle(a.slice(o, o + 4), b.slice(o, o + 4))));
    for (const g of INTEGRATORS) {
      const s = engineStep(ref.model, precision, addon, g, states);
      const R = ref.step[g];
      const R32 = ref.step32[g];
      if (plain.length) field('step', `${g}.q`, each((i) => [relErr(pick(s.q[i]), pick(R[i].qpos)), relErr(pick(R32[i].qpos), pick(R[i].qpos))]));
      // Orientation error in radians (a unit quaternion's scale is 1), sign-independent.
      if (quats.length) field('step', `${g}.orientation`, each((i) => [worstAngle(s.q[i], R[i].qpos), worstAngle(R32[i].qpos, R[i].qpos)]));
      if (ref.model.bodies.some((b) => b.joint !== 'fixed')) field('step', `${g}.v`, each((i) => [relErr(s.v[i], R[i].qvel), relErr(R32[i].qvel, R[i].qvel)]));
    }
  }
  return rows;
}

/** q̈ from the closed form at each state; its floor is the closed form's own change when its
 *  parameters and state are rounded to float32 and its answer is stored in float32. */
function closedFormSamples(p: DoublePendulumParams, states: readonly TestState[], qacc: number[][]): Sample[] {
  const p32 = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, Math.fround(v)])) as unknown as DoublePendulumParams;
  return states.map((s, i) => {
    const at = (pp: DoublePendulumParams, x: TestState) =>
      doublePendulumAccel(pp, { phi: x.q[0], psi: x.q[1], phiDot: x.v[0], psiDot: x.v[1] }, [x.tau[0], x.tau[1]]);
    const exact = at(p, s);
    return { state: i, error: relErr(qacc[i], exact), stateFloor: relErr(at(p32, roundState(s)).map(Math.fround), exact) };
  });
}
