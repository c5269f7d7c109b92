// Stage 6: whole runs against MuJoCo's run of the same integrator, compared at >= 64 sampled times.
//
// Floors over a horizon. float32: MuJoCo's run with every model constant and the initial state
// perturbed once by a float32 half-ulp relative (each number × (1 + δ), |δ| ≤ 2⁻²⁴, seeded), and
// every step the fully perturbed float32 step of the per-state floor (validate_extra.py `rollout`
// with round 'perturb'): MuJoCo's M and b perturbed per entry at every dynamics evaluation, every
// intermediate the engine's integrator stores (accelerations, stage velocities and positions,
// quaternion increments and products, RK4's weights and sums) and the state itself (the initial
// one too) stored with a float32 error, recorded in float32, against its unperturbed run; the
// floor at time t is the largest change over F32_RUN_PERTURBATIONS such runs. The runs vary two
// things a float32 engine's round-off does and a single kind of draw misses (runs k mod 4):
// M and b perturbed by a fresh draw at every evaluation, or by one draw fixed for the whole run
// (an engine's errors at nearby states repeat: they grow linearly over the steps, not as a random
// walk); and stored numbers multiplied by (1 + δ), or rounded to float32 to nearest (a float32
// state swallows increments below its half-ulp, step after step, which an unbiased δ never does:
// the spinning box's 5 rad/s spin barely changes per step). A float32 engine's state carries at
// least that much error, so this is what float32 alone does to the reference. float64: every
// state component nudged by one float64 ulp per step is the float64 round-off floor. Chaotic
// scenes amplify both exponentially, so they are run over short horizons only, and a sample
// whose floor has grown past 1e-2 is reported as skipped (judgeOverTime).

import type { Precision } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import { CLASSIC_INTEGRATORS as INTEGRATORS, type ClassicIntegrator as IntegratorName, type ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { exportMjcf } from '../model-files/scene/index.js';
import { judgeOverTime } from './judge.js';
import { quatAngle, relErr } from './metrics.js';
import { queryMujocoSplit, type ExtraQuery, type RolloutResult } from './reference.js';
import { Rng, seedFor } from './rng.js';
import { F32_RUN_PERTURBATIONS, perturbedModels, plainCoordinates, quaternionOffsets } from './states.js';
import type { CheckRow, StageName } from './types.js';
import { ciSampling } from './sampling.js';

export const SAMPLES = 80;

export interface Scenario {
  /** Label in reports: the model and the setting. */
  name: string;
  model: ModelDesc;
  seconds: number;
  why: string;
}

/** The runs of stage 6. `tauScale(name)` is the model's gravity-torque scale (per-state stages). */
export function trajectoryScenarios(models: ReadonlyMap<string, ModelDesc>, tauScale: (name: string) => number, seed: number): Scenario[] {
  const out: Scenario[] = [];
  // Without gravity a constant torque spins the chain up smoothly; the torque is a tenth of the
  // gravity-torque scale so that after 4 s the joints turn a few revolutions per second, well
  // resolved by a 2 ms step.
  for (const name of ['arm7', 'double-pendulum']) {
    const m = models.get(name);
    if (!m) continue;
    const rng = new Rng(seedFor(seed, name, 'torque'));
    const s = 0.1 * tauScale(name);
    const model: ModelDesc = {
      ...m,
      world: { ...m.world, gravity: [0, 0, 0] },
      bodies: m.bodies.map((b) => ({ ...b, tau: b.tau.map(() => s * rng.normal()) })),
    };
    out.push({ name: `${name} (no gravity, constant τ)`, model, seconds: 4, why: 'torque-driven, no gravity: regular motion' });
  }
  const swing = models.get('two_joint_arm_small_swing');
  // 20 s (CI: the first 5 s, a quarter of the comparison: its float32-floor runs step MuJoCo in Python
  // and took 91 s, the longest reference of the suite).
  if (swing)
    out.push({ name: 'two_joint_arm_small_swing', model: swing, seconds: ciSampling() ? 5 : 20, why: '30° from hanging: quasi-periodic' });
  // Chaotic or unstable from their own initial states: neighbouring runs separate exponentially,
  // so a long comparison would only measure the amplification of round-off. 0.5 s keeps the
  // floor small while still covering hundreds of steps.
  const chaotic: Record<string, string> = {
    'double-pendulum': 'released from horizontal: chaotic',
    two_joint_arm: 'released from horizontal: chaotic',
    three_joint_arm: 'released from horizontal: chaotic',
    asymmetric_two_joint_arm: 'out-of-plane spin: chaotic',
    'humanoid-tree': 'inverted spherical pendulum with flailing limbs: unstable',
    'spinning-box': 'spin about the intermediate axis: unstable (Dzhanibekov)',
    'slider-ball': 'spherical pendulum with a puck: chaotic',
    'crossing-pendulums': 'two double pendulums (two trees) released from horizontal: chaotic',
    'capsule-arm': 'arm on a massless universal shoulder released with a twist: chaotic',
    'domino-amplifier':
      'ten free dominoes of 5·10⁴ mass range, first tipped (compared without contacts, as every smooth-dynamics stage: free fall)',
  };
  for (const [name, why] of Object.entries(chaotic)) {
    const m = models.get(name);
    if (m) out.push({ name: `${name} (short)`, model: m, seconds: 0.5, why });
  }
  return out;
}

export interface TrajectoryReference {
  scenario: Scenario;
  steps: number;
  every: number;
  /** Per integrator: the exact run, the float32-perturbed runs (recorded in float32), the ulp run. */
  runs: Record<IntegratorName, { exact: RolloutResult; f32: RolloutResult[]; ulp: RolloutResult }>;
}

/** Every recorded number of a perturbed run stored in float32, as a float32 engine's are. */
export const rolloutF32 = (r: RolloutResult): RolloutResult => ({
  qpos: r.qpos.map((x) => x.map(Math.fround)),
  qvel: r.qvel.map((x) => x.map(Math.fround)),
  energy: r.energy?.map(([a, b]) => [Math.fround(a), Math.fround(b)]),
});

/** The rollout queries of one integrator's float32 floor: each perturbed twin p_k (model
 *  constants and initial state perturbed once) run with the fully perturbed float32 step; run k
 *  draws M and b afresh at every evaluation (k even) or once (k odd), and perturbs (k mod 4 < 2)
 *  or rounds to float32 (k mod 4 >= 2) what it stores. */
export function perturbedRollouts(
  m: ModelDesc,
  seed: number,
  base: Omit<Extract<ExtraQuery, { kind: 'rollout' }>, 'model' | 'h' | 'qpos' | 'qvel' | 'tau' | 'round' | 'fixed' | 'storage' | 'seed'>,
): { models: Record<string, string>; queries: ExtraQuery[] } {
  const twins = perturbedModels(m, F32_RUN_PERTURBATIONS, seed);
  const models: Record<string, string> = {};
  const queries: ExtraQuery[] = twins.map((t, k) => {
    models[`p${k}`] = exportMjcf(t);
    const x = initial(t);
    return {
      ...base,
      model: `p${k}`,
      h: t.world.dt / t.world.substeps,
      qpos: x.q,
      qvel: x.v,
      tau: x.tau,
      round: 'perturb',
      fixed: k % 2 === 1,
      storage: k % 4 >= 2 ? 'round' : 'perturb',
      seed: seedFor(seed, 'run', String(k)),
    };
  });
  return { models, queries };
}

export const initial = (m: ModelDesc) => ({
  q: m.bodies.flatMap((b) => b.q0),
  v: m.bodies.flatMap((b) => b.v0),
  tau: m.bodies.flatMap((b) => b.tau),
});

export async function trajectoryReference(python: string, sc: Scenario, seed: number): Promise<TrajectoryReference> {
  const m = sc.model;
  const h = m.world.dt / m.world.substeps;
  const steps = Math.round(sc.seconds / h);
  const every = Math.max(1, Math.floor(steps / SAMPLES));
  const x = initial(m);
  const qs: ExtraQuery[] = [];
  const models: Record<string, string> = { exact: exportMjcf(m) };
  const K = F32_RUN_PERTURBATIONS;
  for (const integrator of INTEGRATORS) {
    const base = { kind: 'rollout' as const, integrator, steps, every };
    qs.push({ ...base, model: 'exact', h, qpos: x.q, qvel: x.v, tau: x.tau });
    qs.push({ ...base, model: 'exact', h, qpos: x.q, qvel: x.v, tau: x.tau, round: 'ulp' });
    const p = perturbedRollouts(m, seedFor(seed, sc.name, 'f32-run'), base);
    Object.assign(models, p.models);
    qs.push(...p.queries);
  }
  // Two processes: the fully perturbed runs are a Python loop over every step.
  const res = (await queryMujocoSplit(python, models, qs, 2)) as RolloutResult[];
  const runs = {} as TrajectoryReference['runs'];
  const per = 2 + K;
  INTEGRATORS.forEach(
    (g, j) => (runs[g] = { exact: res[per * j], ulp: res[per * j + 1], f32: res.slice(per * j + 2, per * j + 2 + K).map(rolloutF32) }),
  );
  return { scenario: sc, steps, every, runs };
}

/** The engine's run, sampled like the reference (one robot, from the model's initial state). */
export function engineRun(
  model: ModelDesc,
  precision: Precision,
  addon: NativeAddon,
  integrator: IntegratorName,
  steps: number,
  every: number,
) {
  const b = new Batch(model, { copies: 1, precision, integrator, substeps: 1 }, addon);
  const q: number[][] = [];
  const v: number[][] = [];
  for (let k = every; k <= steps; k += every) {
    b.stepRaw(every);
    const r = b.getRobot(0);
    q.push(r.q);
    v.push(r.v);
  }
  return { q, v };
}

export function trajectoryRows(ref: TrajectoryReference, precision: Precision, addon: NativeAddon): CheckRow[] {
  const m = ref.scenario.model;
  const plain = plainCoordinates(m);
  const quats = quaternionOffsets(m);
  const pick = (q: readonly number[]) => plain.map((k) => q[k]);
  const angle = (a: readonly number[], b: readonly number[]) =>
    Math.max(0, ...quats.map((o) => quatAngle(a.slice(o, o + 4), b.slice(o, o + 4))));
  const h = m.world.dt / m.world.substeps;
  const rows: CheckRow[] = [];
  const stage: StageName = 'trajectory';
  for (const g of INTEGRATORS) {
    const e = engineRun(m, precision, addon, g, ref.steps, ref.every);
    const { exact, f32: r32, ulp } = ref.runs[g];
    const floorRuns = precision === 'f32' ? r32 : [ulp];
    const fields: [string, (k: number, run: RolloutResult | typeof e) => number][] = [];
    const qOf = (run: RolloutResult | typeof e, k: number) => ('qpos' in run ? run.qpos[k] : run.q[k]);
    const vOf = (run: RolloutResult | typeof e, k: number) => ('qvel' in run ? run.qvel[k] : run.v[k]);
    if (plain.length) fields.push([`${g}.q`, (k, run) => relErr(pick(qOf(run, k)), pick(exact.qpos[k]))]);
    if (quats.length) fields.push([`${g}.orientation`, (k, run) => angle(qOf(run, k), exact.qpos[k])]);
    fields.push([`${g}.v`, (k, run) => relErr(vOf(run, k), exact.qvel[k])]);
    for (const [field, err] of fields) {
      const samples = exact.qpos.map((_, k) => ({
        state: k,
        t: (k + 1) * ref.every * h,
        error: err(k, e),
        stateFloor: Math.max(...floorRuns.map((run) => err(k, run))),
      }));
      rows.push(...judgeOverTime({ stage, model: ref.scenario.name, precision, field }, samples));
    }
  }
  return rows;
}
