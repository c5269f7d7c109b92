// Times native MuJoCo (the C loop in native/mujoco, never the WebAssembly build) on the MJCF that
// Achilles exports for the same scene: same dt, integrator, initial states (each robot its own, as
// its Achilles twin), controls and restart schedule.

import type { IntegratorName, ModelDesc } from '../engine/model-desc.js';
import { exportMjcf } from '../model-files/scene/index.js';
import type { MujocoMode, MujocoNative } from './mujoco-native.js';
import type { Runner, Timed } from './runner.js';

/** MuJoCo's name of each engine integrator MuJoCo has; midpoint and verlet get no comparison. */
export type MujocoBenchIntegrator = 'Euler' | 'RK4' | 'implicitfast';
export const MUJOCO_INTEGRATORS: Partial<Record<IntegratorName, MujocoBenchIntegrator>> = {
  euler: 'Euler',
  rk4: 'RK4',
  implicitfast: 'implicitfast',
};

/** Merged models stop getting faster beyond a few dozen robots and take long to compile (measured). */
export const MERGED_GROUP_MAX = 64;

/** Robots per merged model: the largest divisor of copies up to MERGED_GROUP_MAX. */
export function mergedGroup(copies: number, max = MERGED_GROUP_MAX): number {
  for (let g = Math.min(copies, max); g > 1; g--) if (copies % g === 0) return g;
  return 1;
}

/**
 * The exported MJCF minus <custom>: MuJoCo rejects a <numeric> longer than its limit (an arm7 model
 * of ~150+ copies fails to compile), and the timing loop does not read it (tau is applied by no
 * one here; zero for the bundled scenes).
 */
export function benchMjcf(model: ModelDesc, integrator: MujocoBenchIntegrator, copies: number, contacts = false): string {
  return exportMjcf(model, { integrator, copies, contacts }).replace(/\s*<custom>[\s\S]*?<\/custom>/, '');
}

/** MuJoCo's solver for the contact cells: its default Newton (MuJoCo's defaults: 100 iterations,
 *  tolerance 1e-8), or CG capped at 20 iterations (tolerance 1e-8, so it may stop sooner). */
export type MujocoContactSolver = 'newton' | 'cg20';
const SOLVER_OPTIONS: Record<MujocoContactSolver, string> = {
  newton: 'solver="Newton" iterations="100" tolerance="1e-08"',
  cg20: 'solver="CG" iterations="20" tolerance="1e-08"',
};

/** The exported MJCF with contacts on and the option's solver replaced by `solver`'s. */
export function contactBenchMjcf(model: ModelDesc, integrator: MujocoBenchIntegrator, copies: number, solver: MujocoContactSolver): string {
  const xml = benchMjcf(model, integrator, copies, true);
  const out = xml.replace(/solver="[^"]*" iterations="[^"]*" tolerance="[^"]*"/, SOLVER_OPTIONS[solver]);
  if (out === xml) throw new Error('the exported MJCF has no solver options to replace');
  return out;
}

/** What every MuJoCo cell starts from: MuJoCo's integrator, steps per engine step (one MuJoCo step
 *  is one engine substep: exportMjcf's timestep is dt / substeps) and the initial state per robot. */
function mujocoStart(
  model: ModelDesc,
  integrator: IntegratorName,
): { mi: MujocoBenchIntegrator; substeps: number; qpos0: number[]; qvel0: number[] } {
  const mi = MUJOCO_INTEGRATORS[integrator];
  if (!mi) throw new Error(`MuJoCo has no ${integrator} integrator`);
  // The keyframe holds the initial state, but the timing starts from what we pass (per robot, tiled).
  return { mi, substeps: model.world.substeps, qpos0: model.bodies.flatMap((b) => b.q0), qvel0: model.bodies.flatMap((b) => b.v0) };
}

/** What the robots of a cell start from and are driven by, robot after robot (robots.ts): absent
 *  fields mean the scene's start and zero controls. */
export interface MujocoRobots {
  starts?: { qpos: Float64Array; qvel: Float64Array };
  /** randomControls' byRobot: restartEvery rows × copies × nu. */
  ctrl?: Float32Array;
}

/** timeSteps/timeCollision's start and control options: per-robot starts replace the tiled one;
 *  one row of controls holds for `substeps` MuJoCo steps (one engine step). */
function robotOptions(robots: MujocoRobots, start: { qpos0: number[]; qvel0: number[] }, substeps: number) {
  return {
    qpos0: robots.starts?.qpos ?? start.qpos0,
    qvel0: robots.starts?.qvel ?? start.qvel0,
    ...(robots.ctrl ? { ctrl: robots.ctrl, ctrlEvery: substeps } : {}),
  };
}

export class MujocoRunner implements Runner {
  readonly copies: number;
  readonly mode: MujocoMode;
  /** Robots per mjData (1 in per-robot mode). */
  readonly robotsPerModel: number;
  private readonly xml: string;
  private readonly substeps: number;
  private readonly qpos0: number[];
  private readonly qvel0: number[];

  constructor(
    private readonly mj: MujocoNative,
    model: ModelDesc,
    integrator: IntegratorName,
    mode: MujocoMode,
    copies: number,
    private readonly restartEvery: number,
    /** Contacts on with this solver (per-robot mode only); absent: contacts disabled. */
    readonly solver?: MujocoContactSolver,
    private readonly robots: MujocoRobots = {},
  ) {
    const start = mujocoStart(model, integrator);
    this.copies = copies;
    this.mode = mode;
    this.robotsPerModel = mode === 'merged' ? mergedGroup(copies) : 1;
    if (solver && mode !== 'per-robot') throw new Error('MuJoCo contact cells run in per-robot mode');
    this.xml = solver ? contactBenchMjcf(model, start.mi, 1, solver) : benchMjcf(model, start.mi, this.robotsPerModel);
    ({ substeps: this.substeps, qpos0: this.qpos0, qvel0: this.qvel0 } = start);
  }

  run(steps: number): Timed {
    const r = this.mj.timeSteps({
      xml: this.xml,
      mode: this.mode,
      copies: this.copies,
      ...(this.mode === 'merged' ? { robotsPerModel: this.robotsPerModel } : {}),
      steps: steps * this.substeps,
      restartEvery: this.restartEvery * this.substeps,
      ...robotOptions(this.robots, { qpos0: this.qpos0, qvel0: this.qvel0 }, this.substeps),
    });
    return { seconds: r.seconds, robotSteps: r.robotSteps / this.substeps, nonFinite: r.nonFinite / this.substeps };
  }
}

/**
 * MuJoCo's detection alone: mj_collision per robot-step (per-robot mode, one mjData each), timed
 * in C over the states of the same restart schedule; stepping and mj_kinematics are untimed.
 */
export class MujocoCollisionRunner implements Runner {
  readonly copies: number;
  /** Contacts MuJoCo found in the last run (per call, averaged). */
  contactsPerCall = 0;
  private readonly xml: string;
  private readonly substeps: number;
  private readonly qpos0: number[];
  private readonly qvel0: number[];

  constructor(
    private readonly mj: MujocoNative,
    model: ModelDesc,
    integrator: IntegratorName,
    copies: number,
    private readonly restartEvery: number,
    private readonly robots: MujocoRobots = {},
  ) {
    const start = mujocoStart(model, integrator);
    this.copies = copies;
    this.xml = benchMjcf(model, start.mi, 1, true);
    ({ substeps: this.substeps, qpos0: this.qpos0, qvel0: this.qvel0 } = start);
  }

  run(steps: number): Timed {
    const r = this.mj.timeCollision({
      xml: this.xml,
      copies: this.copies,
      steps: steps * this.substeps,
      restartEvery: this.restartEvery * this.substeps,
      ...robotOptions(this.robots, { qpos0: this.qpos0, qvel0: this.qvel0 }, this.substeps),
    });
    this.contactsPerCall = r.robotSteps > 0 ? r.contacts / r.robotSteps : 0;
    // One robot-step of detection = one mj_collision call (substeps: one per substep).
    return { seconds: r.seconds, robotSteps: r.robotSteps / this.substeps, nonFinite: r.nonFinite / this.substeps };
  }
}
