// Stage 7 (over time): the double pendulum released from horizontal, 10 s at 2 ms, per integrator.
//
// Two checks. (1) The drift max|E(t) − E(0)| from the engine's own energy() against the order the
// schemes must show: Verlet below Euler, midpoint and RK4 at least two orders of magnitude below
// Euler (physics expectations, not rounding floors: the bar column holds the required ratio).
// (2) E(t) against MuJoCo's energy along MuJoCo's own run of the same scheme, judged like a
// trajectory: the floor is the largest change (|ΔV| + |ΔT|) over MuJoCo's float32-perturbed runs (model constants
// and initial state × (1 + δ), |δ| ≤ 2⁻²⁴, once; every step the fully perturbed float32 step: M
// and b, the integrator's stored intermediates and the state; recorded in float32: see
// trajectory.ts) for f32, or its ulp-nudged run for f64, and once that floor passes
// 1e-2 (the release is chaotic) the runs are no longer comparable and are skipped.

import type { Precision } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import { CLASSIC_INTEGRATORS as INTEGRATORS, type ClassicIntegrator as IntegratorName, type ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { exportMjcf } from '../model-files/scene/index.js';
import { judgeOverTime } from './judge.js';
import { queryMujocoSplit, type ExtraQuery, type RolloutResult } from './reference.js';
import { seedFor } from './rng.js';
import { F32_RUN_PERTURBATIONS } from './states.js';
import { perturbedRollouts, rolloutF32 } from './trajectory.js';
import type { CheckRow } from './types.js';

export const ENERGY_SECONDS = 10;
export const ENERGY_DT = 0.002;
const EVERY = 10; // MuJoCo energy every 20 ms: 500 samples per run

export interface EnergyReference {
  model: ModelDesc;
  steps: number;
  runs: Record<IntegratorName, { exact: RolloutResult; f32: RolloutResult[]; ulp: RolloutResult }>;
}

export async function energyReference(python: string, pendulum: ModelDesc, seed = 1): Promise<EnergyReference> {
  const model: ModelDesc = { ...pendulum, world: { ...pendulum.world, dt: ENERGY_DT, substeps: 1 } };
  const steps = Math.round(ENERGY_SECONDS / ENERGY_DT);
  const q = model.bodies.flatMap((b) => b.q0);
  const v = model.bodies.flatMap((b) => b.v0);
  const models: Record<string, string> = { exact: exportMjcf(model) };
  const qs: ExtraQuery[] = INTEGRATORS.flatMap((integrator) => {
    const base = { kind: 'rollout' as const, integrator, steps, every: EVERY, energy: true };
    const p = perturbedRollouts(model, seedFor(seed, 'energy', 'f32-run'), base);
    Object.assign(models, p.models);
    return [
      { ...base, model: 'exact', h: ENERGY_DT, qpos: q, qvel: v },
      { ...base, model: 'exact', h: ENERGY_DT, qpos: q, qvel: v, round: 'ulp' as const },
      ...p.queries,
    ];
  });
  const res = (await queryMujocoSplit(python, models, qs, 2)) as RolloutResult[];
  const runs = {} as EnergyReference['runs'];
  const per = 2 + F32_RUN_PERTURBATIONS;
  INTEGRATORS.forEach(
    (g, j) => (runs[g] = { exact: res[per * j], ulp: res[per * j + 1], f32: res.slice(per * j + 2, per * (j + 1)).map(rolloutF32) }),
  );
  return { model, steps, runs };
}

/** Total energy after every step (index 0: the start). */
export function engineEnergy(
  model: ModelDesc,
  precision: Precision,
  addon: NativeAddon,
  integrator: IntegratorName,
  steps: number,
): number[] {
  const b = new Batch(model, { copies: 1, precision, integrator, dt: ENERGY_DT, substeps: 1 }, addon);
  const out = [b.energy().total[0]];
  for (let k = 0; k < steps; k++) {
    b.stepRaw(1);
    out.push(b.energy().total[0]);
  }
  return out;
}

const total = (e: [number, number]) => e[0] + e[1];
export const drift = (E: readonly number[]) => Math.max(...E.map((x) => Math.abs(x - E[0])));

export interface EnergyOutcome {
  rows: CheckRow[];
  /** Per integrator: the engine's energy series and drift, and MuJoCo's drift along its own run. */
  series: Record<IntegratorName, { engine: number[]; drift: number; mujocoDrift: number }>;
}

export function energyRows(ref: EnergyReference, precision: Precision, addon: NativeAddon, model = 'double-pendulum'): EnergyOutcome {
  const rows: CheckRow[] = [];
  const series = {} as EnergyOutcome['series'];
  for (const g of INTEGRATORS) {
    const E = engineEnergy(ref.model, precision, addon, g, ref.steps);
    const run = ref.runs[g];
    const mjE = run.exact.energy!.map(total);
    series[g] = { engine: E, drift: drift(E), mujocoDrift: drift(mjE) };
    // The energy scale of this run: the largest |kinetic| or |potential| MuJoCo sees.
    const scale = Math.max(...run.exact.energy!.flatMap((e) => [Math.abs(e[0]), Math.abs(e[1])]));
    // E = potential + kinetic, two numbers an engine computes (and stores) separately, so the
    // floor of E is the sum of the two components' changes: in the perturbed run they can cancel
    // by coincidence (with E ≈ 0 and −V ≈ T both stored in float32 they round to the same
    // magnitude), which an engine's independent round-off does not.
    const floorRuns = precision === 'f32' ? run.f32 : [run.ulp];
    const ex = run.exact.energy!;
    const samples = mjE.map((ref0, k) => ({
      state: k,
      t: k * EVERY * ENERGY_DT,
      error: Math.abs(E[k * EVERY] - ref0) / scale,
      stateFloor: Math.max(...floorRuns.map((r) => (Math.abs(r.energy![k][0] - ex[k][0]) + Math.abs(r.energy![k][1] - ex[k][1])) / scale)),
    }));
    rows.push(...judgeOverTime({ stage: 'energy', model, precision, field: `${g}.E(t)` }, samples));
  }
  const euler = series.euler.drift;
  const order: [IntegratorName, number, string][] = [
    ['verlet', 1, 'Verlet must drift less than Euler'],
    ['midpoint', 1e-2, 'midpoint: orders of magnitude below Euler'],
    ['rk4', 1e-2, 'RK4: orders of magnitude below Euler'],
  ];
  for (const [g, bar, note] of order) {
    const ratio = series[g].drift / euler;
    rows.push({
      stage: 'energy',
      model,
      precision,
      state: 0,
      t: ENERGY_SECONDS,
      field: `${g}.drift/euler.drift`,
      error: ratio,
      stateFloor: NaN,
      floor: NaN,
      factor: 1,
      bar,
      status: Number.isFinite(ratio) && ratio <= bar ? 'pass' : 'fail',
      note,
    });
  }
  return { rows, series };
}
