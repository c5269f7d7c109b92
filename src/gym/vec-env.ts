// Gymnasium's MuJoCo tasks for TypeScript users: `num_envs` envs of one task as the robots of one
// batch, stepped together in SIMD lanes. The twin of python/src/achilles/gym/vector.py: the same
// task files (tasks/gymnasium/*.json, task.ts), the same model files (Gymnasium's own, read from its
// installed package), Gymnasium 1.x v5 semantics under its default vector autoreset mode (next
// step): an env that terminates or is truncated returns its final observation, and its next step()
// resets it instead of stepping it, returning the reset observation with reward 0.
//
//   const env = makeVec('Hopper-v5', 256, { precision: 'f32' });
//   let { obs } = env.reset({ seed: 1 });           // obs[e * env.obsDim + k]
//   for (;;) {
//     const out = env.step(policy(obs));             // actions[e * env.nu + a], float32
//     obs = out.obs;                                 // out.reward[e], out.terminated[e], out.truncated[e]
//   }
//
// Reset noise: env e seeded with s draws from its own stream (seed s + e, as Gymnasium seeds its
// sub-envs), a counter-based hash (src/params/draws.ts), not numpy's generator: the distributions are
// Gymnasium's, the numbers are not, so a seeded episode does not start where Gymnasium's would.

import type { LaneWidth, Precision, Real } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import type { ModelDesc } from '../engine/model-desc.js';
import { importFile } from '../model-files/import/index.js';
import { parameterKey, unitDraw } from '../params/draws.js';
import { computedQuantities, envValues, missingQuantities, readsRecorded, type EnvConstants } from './env-values.js';
import type { Val } from './expr.js';
import { gymnasiumModelPath } from './gymnasium-assets.js';
import { loadTask, observe, readBefore, readResetInfo, resetState, stepTerms, type Task } from './task.js';
import { MAX_CONTROL, isBadControl } from '../control/errors.js';

export interface GymVecEnvOptions {
  precision?: Precision;
  threads?: number;
  lanes?: LaneWidth;
  /** The env's keyword arguments, as Gymnasium's make takes them (e.g. { ctrl_cost_weight: 0.1 }, { xml_file: './my.xml' }). */
  kwargs?: Record<string, unknown>;
}

/** Per env e: obs[e * obsDim + k], reward[e], terminated[e], truncated[e] (0/1); info as Gymnasium's
 *  vector envs give it: info[name][e], and info['_' + name][e] = 1 where env e has that entry.
 *  info.bad_ctrl[e] (only in a step where some env had one): how many of env e's controls MuJoCo
 *  called bad (NaN, or |u| > 1e10 after the clamp to ctrlrange); such an env stepped with all its
 *  controls at 0, as MuJoCo does (mjWARN_BADCTRL), and the step emits one BadControlWarning. */
export interface StepResult {
  obs: Float64Array;
  reward: Float64Array;
  terminated: Uint8Array;
  truncated: Uint8Array;
  info: Record<string, Float64Array | Uint8Array>;
}

const RESET_STREAM = parameterKey('gym reset');

/** The task's refusal reason for a model, or null: quantities the engine does not compute. */
function whyRefused(task: Task, model: ModelDesc): string | null {
  const missing = missingQuantities(task, model);
  if (missing.length)
    return `the task reads ${missing.join(', ')}, which the Achilles engine does not compute yet (computed: ${computedQuantities(model).join(', ')})`;
  return null;
}

export class GymVecEnv {
  readonly task: Task;
  readonly batch: Batch;
  readonly numEnvs: number;
  readonly nq: number;
  readonly nv: number;
  readonly nu: number;
  readonly obsDim: number;
  /** The action space's bounds per actuator (the model's ctrlrange; ±∞ where it has none). */
  readonly actionLow: Float32Array;
  readonly actionHigh: Float32Array;
  /** The env step's duration: the model's timestep × the task's frame skip. */
  readonly dt: number;
  private readonly constants: EnvConstants;
  private readonly recorded: boolean;
  private readonly target0: Float64Array;
  /** MuJoCo's clamp of each control (ctrllimited): ±∞ where the model gives no ctrlrange. */
  private readonly ctrlLo: Float64Array;
  private readonly ctrlHi: Float64Array;
  private seeds: number[];
  private draws: number[];
  private readonly autoreset: Uint8Array;
  private readonly episodeSteps: Int32Array;
  private lastAction: Float32Array[];

  constructor(envId: string, numEnvs: number, opts: GymVecEnvOptions = {}) {
    if (!Number.isInteger(numEnvs) || numEnvs < 1) throw new Error(`numEnvs must be an integer >= 1, got ${numEnvs}`);
    this.task = loadTask(envId, opts.kwargs ?? {});
    const path = gymnasiumModelPath(this.task.model);
    const { model } = importFile(path);
    // MuJoCo's body names (the world first), which body('name') reads, as get_body_com does
    if (model.mujoco) this.task.bodies = ['world', ...model.mujoco.bodies.map((b) => b.name)];
    const refused = whyRefused(this.task, model);
    if (refused) throw new Error(`${envId}: ${refused}`);
    // Record mjData's post-step fields only where the task reads them (it costs a little per step).
    this.recorded = readsRecorded(this.task);
    this.batch = new Batch(model, {
      copies: numEnvs,
      precision: opts.precision ?? 'f32',
      threads: opts.threads ?? 1,
      record: this.recorded,
      ...(opts.lanes === undefined ? {} : { lanes: opts.lanes }),
    });
    const b = this.batch;
    this.numEnvs = numEnvs;
    this.nq = b.nq;
    this.nv = b.nv;
    this.nu = b.nu;
    this.dt = b.dt * this.task.frameSkip;
    if (this.recorded) {
      b.constrain({ record: true }); // mj_forward at the initial state
      b.lastEvaluation().cfrcExt.fill(0);
    }
    this.constants = {
      initQpos: Array.from({ length: b.nq }, (_, k) => b.q[k * b.stride]),
      initQvel: Array.from({ length: b.nv }, (_, k) => b.v[k * b.stride]),
      dt: this.dt,
      timestep: b.dt,
      ...(this.recorded && model.mujoco ? { recorded: { layout: model.mujoco, links: model.bodies, rec: b.lastEvaluation() } } : {}),
    };
    this.target0 = Float64Array.from({ length: b.nu }, (_, a) => b.ctrlTarget[a * b.stride]);
    const ranges = model.actuators ?? [];
    this.ctrlLo = Float64Array.from(ranges, (a) => a.ctrlrange?.[0] ?? -Infinity);
    this.ctrlHi = Float64Array.from(ranges, (a) => a.ctrlrange?.[1] ?? Infinity);
    this.actionLow = Float32Array.from(ranges, (a) => a.ctrlrange?.[0] ?? -Infinity);
    this.actionHigh = Float32Array.from(ranges, (a) => a.ctrlrange?.[1] ?? Infinity);
    this.seeds = Array.from({ length: numEnvs }, (_, e) => e);
    this.draws = new Array(numEnvs).fill(0);
    this.autoreset = new Uint8Array(numEnvs);
    this.episodeSteps = new Int32Array(numEnvs);
    this.lastAction = Array.from({ length: numEnvs }, () => new Float32Array(b.nu));
    this.obsDim = observe(this.task, this.values(0, this.lastAction[0])).length;
  }

  private values(e: number, action: Float32Array): Record<string, Val> {
    return envValues(this.batch, this.constants, e, action);
  }

  /** Env e's next reset numbers: uniform(lo, hi), or a standard normal (Box–Muller, cosine half). */
  private draw(e: number, kind: 'uniform' | 'normal', lo: number, hi: number, size: number): number[] {
    return Array.from({ length: size }, () => {
      const u = unitDraw(this.seeds[e], 0, RESET_STREAM, this.draws[e]++);
      if (kind === 'uniform') return lo + u * (hi - lo);
      const v = unitDraw(this.seeds[e], 0, RESET_STREAM, this.draws[e]++);
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    });
  }

  /** MuJoCo's mj_forward for `envs` only: constrain({ robots: envs }) records those envs alone, the
   *  other envs of their blocks keeping the record of their last step. cfrc_ext of `envs`: 0 after a
   *  reset (mj_resetData zeroes it and mj_forward does not compute it), kept after set_state. */
  private forwardEnvs(envs: number[], cfrcExtZero: boolean): void {
    if (!this.recorded || envs.length === 0) return;
    const b = this.batch;
    const rec = b.lastEvaluation();
    const column = (f: Real, r: number): number[] => Array.from({ length: f.length / b.stride }, (_, k) => f[k * b.stride + r]);
    const put = (f: Real, r: number, x: number[]): void => x.forEach((value, k) => (f[k * b.stride + r] = value));
    const cfrc = envs.map((e) => column(rec.cfrcExt, e));
    b.constrain({ record: true, robots: envs });
    envs.forEach((e, i) => put(rec.cfrcExt, e, cfrcExtZero ? cfrc[i].map(() => 0) : cfrc[i]));
  }

  /** Gymnasium's reset_model for each env of `envs` (its own stream); their observations and reset info. */
  private resetEnvs(envs: number[]): { obs: number[][]; info: Record<string, Val>[] } {
    const b = this.batch;
    const s = b.stride;
    const zero = new Float32Array(this.nu);
    for (const e of envs) {
      const { qpos, qvel } = resetState(this.task, this.values(e, zero), (kind, lo, hi, n) => this.draw(e, kind, lo, hi, n));
      qpos.forEach((x, k) => (b.q[k * s + e] = x));
      qvel.forEach((x, k) => (b.v[k * s + e] = x));
      // the rest of mj_resetData: activations, actuator forces and the warm start 0, servo targets initial
      for (let a = 0; a < b.nu; a++) {
        b.actuatorForce[a * s + e] = 0;
        b.ctrlTarget[a * s + e] = this.target0[a];
      }
      for (let i = 0; i < b.na; i++) b.act[i * s + e] = 0;
      for (let k = 0; k < b.qaccWarm.length / s; k++) b.qaccWarm[k * s + e] = 0;
      this.episodeSteps[e] = 0;
      this.autoreset[e] = 0;
      this.lastAction[e] = zero;
    }
    this.forwardEnvs(envs, true);
    const vals = envs.map((e) => this.values(e, zero));
    return { obs: vals.map((v) => observe(this.task, v)), info: vals.map((v) => readResetInfo(this.task, v)) };
  }

  private info(terms: Record<string, Val>[], envs: number[], names: string[], into: StepResult['info'] = {}): StepResult['info'] {
    for (const name of names) {
      const values = (into[name] as Float64Array | undefined) ?? new Float64Array(this.numEnvs);
      const mask = (into[`_${name}`] as Uint8Array | undefined) ?? new Uint8Array(this.numEnvs);
      envs.forEach((e, i) => {
        const v = terms[i][name];
        values[e] = Number(Array.isArray(v) ? v[0] : v);
        mask[e] = 1;
      });
      into[name] = values;
      into[`_${name}`] = mask;
    }
    return into;
  }

  /** Every env (or those with mask[e] set) to a fresh episode. `seed`: env e's stream starts anew from
   *  seed + e (a list: one seed per env). The observations of envs not reset are their current ones. */
  reset(opts: { seed?: number | number[]; mask?: ArrayLike<number | boolean> } = {}): { obs: Float64Array; info: StepResult['info'] } {
    if (opts.seed !== undefined) {
      const seeds = Array.isArray(opts.seed) ? opts.seed : Array.from({ length: this.numEnvs }, (_, e) => (opts.seed as number) + e);
      if (seeds.length !== this.numEnvs) throw new Error(`reset: ${seeds.length} seeds for ${this.numEnvs} envs`);
      for (const x of seeds)
        if (!Number.isInteger(x) || x < 0 || x > 0xffffffff)
          throw new Error(`reset: a seed must be an integer from 0 to 2^32 - 1, got ${x}`);
      this.seeds = seeds.slice();
      this.draws.fill(0);
    }
    const envs = opts.mask
      ? Array.from({ length: this.numEnvs }, (_, e) => e).filter((e) => Boolean(opts.mask![e]))
      : Array.from({ length: this.numEnvs }, (_, e) => e);
    const { obs: part, info } = this.resetEnvs(envs);
    const obs = this.observeAll();
    envs.forEach((e, i) => obs.set(part[i], e * this.obsDim));
    return {
      obs,
      info: this.info(
        info,
        envs,
        this.task.resetInfo.map(([k]) => k),
      ),
    };
  }

  private observeAll(): Float64Array {
    const obs = new Float64Array(this.numEnvs * this.obsDim);
    for (let e = 0; e < this.numEnvs; e++) obs.set(observe(this.task, this.values(e, this.lastAction[e])), e * this.obsDim);
    return obs;
  }

  /** One env step of every env: actions[e * nu + a], taken as float32 (Gymnasium's action space). */
  step(actions: ArrayLike<number>): StepResult {
    const n = this.numEnvs;
    const nu = this.nu;
    if (actions.length !== n * nu)
      throw new Error(`step: actions must hold numEnvs × nu = ${n} × ${nu} = ${n * nu} numbers, got ${actions.length}`);
    const act = Array.from({ length: n }, (_, e) => Float32Array.from({ length: nu }, (_, a) => actions[e * nu + a]));
    const resetting: number[] = [];
    const stepping: number[] = [];
    for (let e = 0; e < n; e++) (this.autoreset[e] ? resetting : stepping).push(e);
    const before = act.map((a, e) => readBefore(this.task, this.values(e, a)));
    const b = this.batch;
    // do_simulation: the action as ctrl over frame_skip steps, one call (the record is kept once, at its end)
    const c = b.ctrl;
    const badCounts = new Float64Array(n);
    for (let e = 0; e < n; e++) {
      badCounts[e] = this.writeMujocoControls(e, act[e], c);
    }
    b.step(this.task.frameSkip, { holdControls: true });
    this.lastAction = act;
    // The envs that were due a reset: Gymnasium's next-step autoreset resets them instead.
    const reset = this.resetEnvs(resetting);
    const obs = new Float64Array(n * this.obsDim);
    const reward = new Float64Array(n);
    const terminated = new Uint8Array(n);
    const truncated = new Uint8Array(n);
    const terms: Record<string, Val>[] = [];
    for (const e of stepping) {
      const vals = this.values(e, act[e]);
      const o = observe(this.task, vals);
      const t = stepTerms(this.task, vals, before[e], o);
      obs.set(o, e * this.obsDim);
      reward[e] = Number(t.reward);
      terminated[e] = t.terminated ? 1 : 0;
      this.episodeSteps[e]++;
      truncated[e] = this.episodeSteps[e] >= this.task.maxEpisodeSteps ? 1 : 0;
      terms.push(t);
    }
    const info = this.info(terms, stepping, this.task.info);
    resetting.forEach((e, i) => obs.set(reset.obs[i], e * this.obsDim)); // reward 0, not terminated or truncated
    this.info(
      reset.info,
      resetting,
      this.task.resetInfo.map(([k]) => k),
      info,
    );
    for (let e = 0; e < n; e++) this.autoreset[e] = terminated[e] | truncated[e];
    this.reportBadControls(badCounts, info);
    return { obs, reward, terminated, truncated, info };
  }

  /** Env e's action into the controls `c`, as MuJoCo's mj_fwdActuation acts on it; returns how many of
   *  its controls MuJoCo calls bad. MuJoCo clamps a copy of ctrl to ctrlrange, finds a control bad by
   *  mju_isBad (NaN, or |u| > 1e10; 3.14 rejects a finite one too), and then acts on all of the env's
   *  controls as 0 (mjWARN_BADCTRL). So a bad env's controls are written as 0 (MuJoCo's own when 0 is
   *  in every ctrlrange, as in all of Gymnasium's v5 models), and a control only its clamp makes good
   *  (±Infinity, 1e12 on a limited actuator) as its clamped value, which the batch would clamp it to
   *  (the batch refuses it as written); every other control as given. */
  private writeMujocoControls(e: number, action: Float32Array, c: Real): number {
    const b = this.batch;
    let bad = 0;
    for (let a = 0; a < this.nu; a++) {
      const u = action[a];
      const clamped = Math.min(Math.max(u, this.ctrlLo[a]), this.ctrlHi[a]); // NaN stays NaN
      if (isBadControl(clamped)) bad++;
      c[a * b.stride + e] = isBadControl(u) ? clamped : u;
    }
    if (bad > 0) for (let a = 0; a < this.nu; a++) c[a * b.stride + e] = 0;
    return bad;
  }

  /** info.bad_ctrl (and its mask) and one warning naming the envs, in a step where some env had a bad control. */
  private reportBadControls(counts: Float64Array, info: StepResult['info']): void {
    const envs = Array.from(counts.keys()).filter((e) => counts[e] > 0);
    if (envs.length === 0) return;
    info.bad_ctrl = counts;
    info._bad_ctrl = Uint8Array.from(counts, (k) => (k > 0 ? 1 : 0));
    process.emitWarning(
      `the actions of envs [${envs.join(', ')}] hold a control MuJoCo calls bad (NaN, or |u| > 1e10 after the clamp` +
        ' to ctrlrange): as MuJoCo does (mjWARN_BADCTRL), each of those envs stepped with all its controls at 0;' +
        ' info.bad_ctrl counts them per env',
      'BadControlWarning',
    );
  }

  /** Env e at (qpos, qvel) in MuJoCo's order, as Gymnasium's MujocoEnv.set_state (then mj_forward); a
   *  pending autoreset of env e is cleared. */
  setState(e: number, qpos: ArrayLike<number>, qvel: ArrayLike<number>): void {
    if (!Number.isInteger(e) || e < 0 || e >= this.numEnvs) throw new Error(`setState: env ${e} is out of range 0..${this.numEnvs - 1}`);
    if (qpos.length !== this.nq || qvel.length !== this.nv)
      throw new Error(`setState: qpos must hold ${this.nq} numbers and qvel ${this.nv}`);
    const b = this.batch;
    for (let k = 0; k < this.nq; k++) b.q[k * b.stride + e] = qpos[k];
    for (let k = 0; k < this.nv; k++) b.v[k * b.stride + e] = qvel[k];
    this.autoreset[e] = 0;
    this.forwardEnvs([e], false);
  }
}

/** `numEnvs` envs of Gymnasium's `envId` (InvertedPendulum-v5, Hopper-v5, ...) stepped by Achilles. */
export function makeVec(envId: string, numEnvs: number, opts: GymVecEnvOptions = {}): GymVecEnv {
  return new GymVecEnv(envId, numEnvs, opts);
}
