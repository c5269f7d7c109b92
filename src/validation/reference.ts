// The validation's MuJoCo client: one `python3 validation/validate_extra.py` process answers every
// query about one model, for the model as written ("exact") and its float32-perturbed twins
// ("p0", "p1", …: every constant multiplied by 1 + δ, |δ| ≤ 2⁻²⁴; see states.perturbModel), so a
// model costs one Python start (see validate_extra.py for the extra `rollout` and `equations` kinds).

import { fileURLToPath } from 'node:url';
import { runPythonJson, type DynamicsResult, type KinematicsResult, type MujocoIntegrator, type StepResult } from './mujoco-ref.js';

/** 'exact', or the name of a perturbed twin ('p0', 'p1', …). */
export type RefModel = string;

interface State {
  qpos?: number[];
  qvel?: number[];
  tau?: number[];
}
export type ExtraQuery =
  | ({ model: RefModel; kind: 'kinematics' } & State)
  | ({ model: RefModel; kind: 'dynamics' } & State)
  | ({ model: RefModel; kind: 'step'; integrator: MujocoIntegrator; h?: number } & State)
  /** MuJoCo's own M q̈ = τ − b solved as written and `k` times with M, b perturbed by a float32
   *  half-ulp per entry (seeded), plus one step per integrator from each with every stored
   *  intermediate of the integrator perturbed too (unless `stages` is false; validate_extra.py). */
  | ({ model: RefModel; kind: 'equations'; h: number; integrators: MujocoIntegrator[]; seed: number; k: number; stages?: boolean } & State)
  | ({
      model: RefModel;
      kind: 'rollout';
      integrator: MujocoIntegrator;
      h?: number;
      steps: number;
      every?: number;
      round?: 'f32' | 'ulp' | 'perturb';
      /** With round 'perturb': one draw of the M and b perturbations for the whole run instead of
       *  a fresh one at every dynamics evaluation (validate_extra.py). */
      fixed?: boolean;
      /** With round 'perturb': how the step's intermediates and the state are stored: perturbed
       *  by a half-ulp (default) or rounded to float32 (round to nearest). */
      storage?: 'perturb' | 'round';
      energy?: boolean;
      seed?: number;
    } & State);

export interface RolloutResult {
  qpos: number[][];
  qvel: number[][];
  /** [potential, kinetic] at the start and after every recorded step (when asked). */
  energy?: [number, number][];
}
export type ExtraResult = KinematicsResult | DynamicsResult | StepResult | RolloutResult;

const SCRIPT = fileURLToPath(new URL('../../validation/validate_extra.py', import.meta.url));

/** Answers all queries in one Python process; results in query order. */
export function queryMujoco(python: string, models: Record<RefModel, string>, queries: readonly ExtraQuery[]): Promise<ExtraResult[]> {
  return runPythonJson(python, SCRIPT, { models, queries }, queries.length) as Promise<ExtraResult[]>;
}

/** queryMujoco over `processes` Python processes at once (queries dealt round-robin, so each gets
 *  a share of every kind); results in query order. For long runs, whose cost is the Python loop. */
export async function queryMujocoSplit(
  python: string,
  models: Record<RefModel, string>,
  queries: readonly ExtraQuery[],
  processes: number,
): Promise<ExtraResult[]> {
  const n = Math.max(1, Math.min(processes, queries.length));
  const parts = await Promise.all(
    Array.from({ length: n }, (_, p) =>
      queryMujoco(
        python,
        models,
        queries.filter((_, i) => i % n === p),
      ),
    ),
  );
  return queries.map((_, i) => parts[i % n][Math.floor(i / n)]);
}
