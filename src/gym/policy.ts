// `achilles run MODEL --policy policy.onnx --task ENV`: a trained policy (ONNX, run by the optional
// dependency onnxruntime-node) as the run's controller. Every env step (the task's frame skip) it
// builds each robot's observation from the task file, runs the policy on all robots at once (one
// [copies, obs_dim] float32 batch), and holds the actions as the controls for the next frame_skip
// steps, as Gymnasium's do_simulation does. It also scores each robot as the task does: the return
// (sum of rewards) and the env step at which the task first says `terminated`.

import { sep } from 'node:path';
import type { Controller, ControlIO } from '../control/controller.js';
import type { Batch } from '../engine/batch.js';
import type { BodyDesc, ModelDesc, MujocoLayout } from '../engine/model-desc.js';
import type { Val } from './expr.js';
import { computedQuantities, envValues, missingQuantities, readsRecorded } from './env-values.js';
import { observe, readBefore, stepTerms, type Task } from './task.js';
import { packageRoot } from '../util/package-root.js';
import { shellWord } from '../util/shell-word.js';

interface OrtTensor {
  data: Float32Array;
  dims: readonly number[];
}
interface OrtSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
}
interface Ort {
  InferenceSession: { create(path: string): Promise<OrtSession> };
  Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

/** The onnxruntime-node release the tests and CI run policies with (.ci/run installs the same). */
export const ONNXRUNTIME_NODE_VERSION = '1.30.0';

/** onnxruntime-node, loaded only when a run asks for a policy (an optional dependency). */
async function onnxRuntime(): Promise<Ort> {
  try {
    const specifier: string = 'onnxruntime-node';
    const mod = (await import(specifier)) as { default?: Ort } & Ort;
    return mod.default ?? mod;
  } catch (e) {
    throw new Error(
      `--policy runs ONNX models with onnxruntime-node, which is not installed here (${(e as Error).message.split('\n')[0]}); ` +
        `install it where achilles finds it with: ${onnxRuntimeInstallCommand()}`,
    );
  }
}

/** The command that installs onnxruntime-node where this achilles resolves it, as .ci/run does: its
 *  CPU runtime ships in the npm package, and --ignore-scripts (with ONNXRUNTIME_NODE_INSTALL=skip)
 *  keeps its install script from fetching the CUDA provider; --no-save leaves package.json alone (it
 *  is an optional dependency, not a dependency of the package). */
export function onnxRuntimeInstallCommand(root: string = packageRoot): string {
  // Node resolves a package from the folder that holds the node_modules achilles sits in, if any
  const at = root.lastIndexOf(`${sep}node_modules${sep}`);
  const dir = at >= 0 ? root.slice(0, at) || sep : root;
  return `ONNXRUNTIME_NODE_INSTALL=skip npm install --prefix ${shellWord(dir)} --no-save --ignore-scripts onnxruntime-node@${ONNXRUNTIME_NODE_VERSION}`;
}

export interface PolicyScore {
  /** Env steps taken (control periods completed). */
  envSteps: number;
  /** Per robot: the episode's return (the task's rewards summed up to and including the step that
   *  terminated it; the run itself goes on), and that env step (1-based; null: never). */
  returns: number[];
  terminatedAt: (number | null)[];
}

export class PolicyController implements Controller {
  readonly name: string;
  readonly rate: number;
  private before: Record<string, Val>[] = [];
  private lastAction: Float32Array[] = [];
  private started = false;
  readonly score: PolicyScore;
  private readonly initState: { qpos: number[]; qvel: number[] };
  /** The task reads mjData's post-step fields: the run's batch must be made with `record: true`. */
  readonly needsRecord: boolean;
  private readonly layout?: MujocoLayout;
  private readonly links: readonly BodyDesc[];
  private batch?: Batch;

  private constructor(
    readonly file: string,
    readonly task: Task,
    private readonly ort: Ort,
    private readonly session: OrtSession,
    model: ModelDesc,
    private readonly dt: number,
    copies: number,
  ) {
    this.name = `policy ${file} (${task.id})`;
    this.rate = 1 / (dt * task.frameSkip);
    this.score = { envSteps: 0, returns: new Array(copies).fill(0), terminatedAt: new Array(copies).fill(null) };
    this.initState = { qpos: model.bodies.flatMap((b) => b.q0), qvel: model.bodies.flatMap((b) => b.v0) };
    this.needsRecord = readsRecorded(task);
    this.links = model.bodies;
    if (model.mujoco) {
      this.layout = model.mujoco;
      task.bodies = ['world', ...model.mujoco.bodies.map((b) => b.name)]; // what body('name') reads
    }
  }

  /** The run's batch, once its robots are placed (a record: true batch where needsRecord). Gymnasium's
   *  reset ends in mj_forward, which fills xpos, site_xpos and qfrc_constraint at the start state but
   *  not cfrc_ext (mj_rnePostConstraint runs only after a step): that stays 0 until the first step. */
  attach(batch: Batch): void {
    if (!this.needsRecord) return;
    if (!batch.record) throw new Error(`--task ${this.task.id}: the batch does not record mjData's post-step fields`);
    this.batch = batch;
    batch.constrain({ record: true });
    batch.lastEvaluation().cfrcExt.fill(0);
  }

  static async load(file: string, task: Task, model: ModelDesc, dt: number, copies: number): Promise<PolicyController> {
    const missing = missingQuantities(task, model);
    if (missing.length)
      throw new Error(
        `--task ${task.id}: the task reads ${missing.join(', ')}, which the engine does not compute yet (computed: ${computedQuantities(model).join(', ')})`,
      );
    const ort = await onnxRuntime();
    let session: OrtSession;
    try {
      session = await ort.InferenceSession.create(file);
    } catch (e) {
      throw new Error(`--policy ${file}: onnxruntime could not load it: ${(e as Error).message}`);
    }
    return new PolicyController(file, task, ort, session, model, dt, copies);
  }

  /** One robot's quantities in MuJoCo's layouts, from the batch views. */
  private values(io: ControlIO, r: number, action: Float32Array): Record<string, Val> {
    const recorded =
      this.batch && this.layout ? { recorded: { layout: this.layout, links: this.links, rec: this.batch.lastEvaluation() } } : {};
    return envValues(
      io,
      { initQpos: this.initState.qpos, initQvel: this.initState.qvel, dt: this.dt * this.task.frameSkip, timestep: this.dt, ...recorded },
      r,
      action,
    );
  }

  /** Each robot's quantities and observation now, with the actions in force as its controls (as
   *  Gymnasium's mjData holds them after a step; zero before the first). */
  private observeAll(io: ControlIO): { vals: Record<string, Val>[]; obs: number[][] } {
    const zero = new Float32Array(io.nu);
    const vals = Array.from({ length: io.copies }, (_, r) => this.values(io, r, this.lastAction[r] ?? zero));
    return { vals, obs: vals.map((v) => observe(this.task, v)) };
  }

  /** The task's terms for the env step that just ended, per robot still in its episode (the return
   *  counts its steps up to the one that ended it; the run itself goes on). */
  private scoreStep(vals: Record<string, Val>[], obs: number[][]): void {
    this.score.envSteps++;
    vals.forEach((v, r) => {
      if (this.score.terminatedAt[r] !== null) return;
      const terms = stepTerms(this.task, v, this.before[r], obs[r]);
      this.score.returns[r] += Number(terms.reward);
      if (terms.terminated) this.score.terminatedAt[r] = this.score.envSteps;
    });
  }

  async update(io: ControlIO): Promise<void> {
    const { vals, obs } = this.observeAll(io);
    if (this.started) this.scoreStep(vals, obs);
    this.started = true;
    const n = io.copies;
    const dim = obs[0].length;
    const batch = new Float32Array(n * dim);
    obs.forEach((o, r) => batch.set(o, r * dim));
    const input = this.session.inputNames[0];
    let out: OrtTensor;
    try {
      out = (await this.session.run({ [input]: new this.ort.Tensor('float32', batch, [n, dim]) }))[this.session.outputNames[0]];
    } catch (e) {
      throw new Error(`the policy did not run on ${n} observations of ${dim} (${this.task.id}'s): ${(e as Error).message}`);
    }
    if (out.data.length !== n * io.nu)
      throw new Error(`the policy returned ${out.data.length / n} actions per robot; the model has ${io.nu} actuators`);
    this.lastAction = [];
    this.before = [];
    for (let r = 0; r < n; r++) {
      const a = out.data.slice(r * io.nu, (r + 1) * io.nu);
      this.lastAction.push(a);
      for (let k = 0; k < io.nu; k++) io.ctrl[k * io.stride + r] = a[k];
      this.before.push(readBefore(this.task, { ...vals[r], action: a, ctrl: Array.from(a) }));
    }
  }

  /** Scores the env step the run ended in, when the run ended on a whole env step. */
  finish(io: ControlIO, stepsDone: number): PolicyScore {
    const period = Math.round(1 / (this.rate * this.dt));
    if (this.started && stepsDone % period === 0 && stepsDone / period > this.score.envSteps) {
      const { vals, obs } = this.observeAll(io);
      this.scoreStep(vals, obs);
    }
    return this.score;
  }
}
