// MuJoCo as the validation reference: one `python3 validation/mujoco_ref.py` process per
// query batch (JSON in, JSON out; floats round-trip exactly through Python's repr).

import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type MujocoIntegrator = 'euler' | 'rk4' | 'verlet' | 'midpoint';

interface StateInput {
  /** Default: the model's qpos0. */
  qpos?: number[];
  /** Default: zeros. */
  qvel?: number[];
  /** Constant generalized force (qfrc_applied); default zeros. */
  tau?: number[];
  ctrl?: number[];
}

export interface KinematicsQuery extends StateInput {
  kind: 'kinematics';
}
export interface DynamicsQuery extends StateInput {
  kind: 'dynamics';
}
interface IntegratorInput extends StateInput {
  integrator: MujocoIntegrator;
  /** Step size; default the model's timestep. */
  h?: number;
  /** euler only: compose it from mj_forward + mj_integratePos instead of mj_step. */
  composed?: boolean;
  /** midpoint only: fixed-point iterations (default 4). */
  iters?: number;
}
export interface StepQuery extends IntegratorInput {
  kind: 'step';
}
export interface TrajectoryQuery extends IntegratorInput {
  kind: 'trajectory';
  steps: number;
  /** Record the state after every `every` steps (default 1); the initial state is not recorded. */
  every?: number;
}
export type MujocoQuery = KinematicsQuery | DynamicsQuery | StepQuery | TrajectoryQuery;

export interface KinematicsResult {
  /** Per body except the world, in body order. */
  xpos: number[][];
  /** Row-major 3×3 per body. */
  xmat: number[][];
}
export interface DynamicsResult {
  /** Dense nv×nv mass matrix. */
  qM: number[][];
  qfrc_bias: number[];
  qacc: number[];
  /** [potential, kinetic]. */
  energy: [number, number];
}
export interface StepResult {
  qpos: number[];
  qvel: number[];
}
export interface TrajectoryResult {
  qpos: number[][];
  qvel: number[][];
}

export type MujocoResult<Q extends MujocoQuery> = Q extends KinematicsQuery
  ? KinematicsResult
  : Q extends DynamicsQuery
    ? DynamicsResult
    : Q extends StepQuery
      ? StepResult
      : TrajectoryResult;
export type MujocoResults<Qs extends readonly MujocoQuery[]> = { [K in keyof Qs]: MujocoResult<Qs[K]> };

export const MUJOCO_PY_HINT =
  'the MuJoCo validation reference needs Python 3 with MuJoCo: run `pip install mujoco` ' +
  '(set ACHILLES_PYTHON to choose the interpreter)';

const SCRIPT = fileURLToPath(new URL('../../validation/mujoco_ref.py', import.meta.url));

/** The Python side encodes non-finite floats as strings (JSON has no NaN token). */
function revive(_key: string, v: unknown): unknown {
  if (v === 'NaN') return NaN;
  if (v === 'Infinity') return Infinity;
  if (v === '-Infinity') return -Infinity;
  return v;
}

/** Runs a Python reference script with `request` as JSON on stdin and returns its `results`
 *  (exactly `count` of them). Every failure (no interpreter, a crash, an error the script
 *  reports, a malformed answer) becomes a rejected promise with a message that says which. */
export function runPythonJson(python: string, script: string, request: unknown, count: number): Promise<unknown[]> {
  const name = script.split('/').pop();
  return new Promise((resolve, reject) => {
    const child = spawn(python, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => reject(new Error(`${MUJOCO_PY_HINT} (${e.message})`)));
    child.on('close', (code) => {
      const text = Buffer.concat(out).toString('utf8');
      let parsed: { error?: string; results?: unknown[] };
      try {
        parsed = JSON.parse(text, revive);
      } catch {
        const stderr = Buffer.concat(err).toString('utf8').trim();
        reject(new Error(`${name} exited ${code} without a JSON answer: ${stderr || text.slice(0, 500)}`));
        return;
      }
      if (parsed.error !== undefined) reject(new Error(`MuJoCo reference: ${parsed.error}`));
      else if (!Array.isArray(parsed.results) || parsed.results.length !== count)
        reject(new Error('MuJoCo reference: malformed answer (result count differs from query count)'));
      else resolve(parsed.results);
    });
    child.stdin.end(JSON.stringify(request));
  });
}

export class MujocoReference {
  private constructor(
    readonly python: string,
    readonly version: string,
  ) {}

  /** Checks once that python3 and mujoco import; throws with install steps otherwise. */
  static open(python: string = process.env.ACHILLES_PYTHON || 'python3'): MujocoReference {
    const r = spawnSync(python, ['-c', 'import numpy, mujoco; print(mujoco.__version__)'], { encoding: 'utf8' });
    if (r.error || r.status !== 0) {
      const why = r.error ? r.error.message : r.stderr.trim().split('\n').pop();
      throw new Error(`${MUJOCO_PY_HINT} (${python}: ${why})`);
    }
    return new MujocoReference(python, r.stdout.trim());
  }

  /** Answers all queries about one model in a single Python process. */
  query<const Qs extends readonly MujocoQuery[]>(xml: string, queries: Qs): Promise<MujocoResults<Qs>> {
    return runPythonJson(this.python, SCRIPT, { xml, queries }, queries.length) as Promise<MujocoResults<Qs>>;
  }
}
