// Stage 6: whole runs against MuJoCo's run of the same integrator, compared at >= 64 sampled times.
//
// Floors over a horizon: MuJoCo's run with its state rounded to float32 after every step (and the
// model's constants rounded) against its unrounded run is the float32 floor at time t; with every
// state component nudged by one float64 ulp per step it is the float64 round-off floor. Chaotic
// scenes amplify both exponentially, so they are run over short horizons only, and a sample
// whose floor has grown past 1e-2 is reported as skipped (judgeOverTime).

import type { Precision } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import { INTEGRATORS, type IntegratorName, type ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { exportMjcf } from '../scene/index.js';
import { judgeOverTime } from './judge.js';
import { quatAngle, relErr } from './metrics.js';
import { queryMujoco, type ExtraQuery, type RolloutResult } from './reference.js';
import { Rng, seedFor } from './rng.js';
import { f32, plainCoordinates, quaternionOffsets, roundModel } from './states.js';
import type { CheckRow, StageName } from './types.js';

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
  if (swing) out.push({ name: 'two_joint_arm_small_swing', model: swing, seconds: 20, why: '30° from hanging: quasi-periodic' });
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
  runs: Record<IntegratorName, { exact: RolloutResult; f32: RolloutResult; ulp: RolloutResult }>;
}

const initial = (m: ModelDesc) => ({ q: m.bodies.flatMap((b) => b.q0), v: m.bodies.flatMap((b) => b.v0), tau: m.bodies.flatMap((b) => b.tau) });

export async function trajectoryReference(python: string, sc: Scenario): Promise<TrajectoryReference> {
  const m = sc.model;
  const h = m.world.dt / m.world.substeps;
  const steps = Math.round(sc.seconds / h);
  const every = Math.max(1, Math.floor(steps / SAMPLES));
  const x = initial(m);
  const qs: ExtraQuery[] = [];
  for (const integrator of INTEGRATORS) {
    const base = { kind: 'rollout' as const, integrator, steps, every };
    qs.push({ ...base, model: 'exact', h, qpos: x.q, qvel: x.v, tau: x.tau });
    qs.push({ ...base, model: 'f32', h: Math.fround(h), qpos: f32(x.q), qvel: f32(x.v), tau: f32(x.tau), round: 'f32' });
    qs.push({ ...base, model: 'exact', h, qpos: x.q, qvel: x.v, tau: x.tau, round: 'ulp' });
  }
  const res = (await queryMujoco(python, { exact: exportMjcf(m), f32: exportMjcf(roundModel(m)) }, qs)) as RolloutResult[];
  const runs = {} as TrajectoryReference['runs'];
  INTEGRATORS.forEach((g, j) => (runs[g] = { exact: res[3 * j], f32: res[3 * j + 1], ulp: res[3 * j + 2] }));
  return { scenario: sc, steps, every, runs };
}

/** The engine's run, sampled like the reference (one robot, from the model's initial state). */
export function engineRun(model: ModelDesc, precision: Precision, addon: NativeAddon, integrator: IntegratorName, steps: number, every: number) {
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
  const angle = (a: readonly number[], b: readonly number[]) => Math.max(0, ...quats.map((o) => quatAngle(a.slice(o, o + 4), b.slice(o, o + 4))));
  const h = m.world.dt / m.world.substeps;
  const rows: CheckRow[] = [];
  const stage: StageName = 'trajectory';
  for (const g of INTEGRATORS) {
    const e = engineRun(m, precision, addon, g, ref.steps, ref.every);
    const { exact, f32: r32, ulp } = ref.runs[g];
    const floorRun = precision === 'f32' ? r32 : ulp;
    const fields: [string, (k: number, run: RolloutResult | typeof e) => number][] = [];
    const qOf = (run: RolloutResult | typeof e, k: number) => ('qpos' in run ? run.qpos[k] : run.q[k]);
    const vOf = (run: RolloutResult | typeof e, k: number) => ('qvel' in run ? run.qvel[k] : run.v[k]);
    if (plain.length) fields.push([`${g}.q`, (k, run) => relErr(pick(qOf(run, k)), pick(exact.qpos[k]))]);
    if (quats.length) fields.push([`${g}.orientation`, (k, run) => angle(qOf(run, k), exact.qpos[k])]);
    fields.push([`${g}.v`, (k, run) => relErr(vOf(run, k), exact.qvel[k])]);
    for (const [field, err] of fields) {
      const samples = exact.qpos.map((_, k) => ({ state: k, t: (k + 1) * ref.every * h, error: err(k, e), stateFloor: err(k, floorRun) }));
      rows.push(...judgeOverTime({ stage, model: ref.scenario.name, precision, field }, samples));
    }
  }
  return rows;
}
