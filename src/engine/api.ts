// The public engine surface: what `run`, `validate`, `bench` and users' own programs build on.
// Implemented by `batch.ts` over the native addon.

import type { IntegratorName, ModelDesc } from './model-desc.js';
import type { ContactPoints } from './native.js';

export type Precision = 'f32' | 'f64';
export type LaneWidth = 1 | 4 | 8 | 16;
export const PRECISIONS: readonly Precision[] = ['f32', 'f64'];
export const LANE_WIDTHS: readonly LaneWidth[] = [1, 4, 8, 16];

export type Real = Float32Array | Float64Array;

export interface BatchOptions {
  /** Number of robots (copies of the model) in the batch. */
  copies: number;
  /** Default 'f32' (the API is for throughput). The CLI's `run` defaults to f64 instead (a trace is
   *  for reading); pass precision explicitly to get the same numbers as a default `achilles run`. */
  precision?: Precision;
  lanes?: LaneWidth; // default: the widest that fits one register of this CPU (src/engine/lanes.ts registerLanes)
  integrator?: IntegratorName; // default: the scene's
  dt?: number; // default: the scene's
  substeps?: number; // default: the scene's
  midpointIterations?: number; // default 4
  threads?: number; // default 1
  /** Keep what MuJoCo's mjData holds after mj_step, from each step call's last evaluation (see
   *  Batch.lastEvaluation). Models with constraints only. Default false. */
  record?: boolean;
}

/** Thrown by `step` when a state turns NaN or infinite. */
export interface NonFiniteInfo {
  /** 1-based index of the step (since the batch was made) that produced the non-finite state. */
  step: number;
  robot: number;
  /** Name of the first joint (in model order) with a non-finite coordinate or velocity. */
  joint: string;
}

/**
 * A batch of `copies` robots, stepped together, one robot per SIMD lane.
 *
 * State arrays are structure-of-arrays views on native memory (no copy):
 *   q[k * stride + r] is coordinate k of robot r (k < nq), likewise v, tau, qacc (k < nv).
 * `stride` >= copies (padded to the lane width); entries r >= copies are padding.
 */
export interface BatchApi {
  readonly model: ModelDesc;
  readonly copies: number;
  readonly stride: number;
  readonly lanes: LaneWidth;
  readonly precision: Precision;
  readonly integrator: IntegratorName;
  readonly dt: number;
  readonly nq: number;
  readonly nv: number;
  readonly nbody: number;
  /** Steps taken since the batch was made (or last `reset`). */
  readonly steps: number;
  readonly time: number;
  readonly q: Real;
  readonly v: Real;
  readonly tau: Real;
  readonly qacc: Real;
  /** Advance every robot k steps. Throws NonFiniteStateError on a NaN/inf state, and
   *  NonFiniteControlError (nothing stepped) on a control that is NaN, ±Infinity or |u| > 1e10.
   *  `holdControls`: the controls written before the call act over all k steps (a frame skip). */
  step(k?: number, opts?: { holdControls?: boolean }): void;
  /**
   * qacc at the current state as the next step starts from it, like MuJoCo's mj_forward: forward
   * dynamics, then, when the model has constraints (contacts, joint or tendon limits, dry friction),
   * detection and the constraint solve, warm-started as the step's own solve is. So after
   * `forward()`, an Euler step without joint damping gives v + dt·qacc exactly. (With damping,
   * Euler then solves (M + dt·D) q̈ = f + Jᵀλ, as MuJoCo's mj_Euler does after mj_forward.) Fills
   * qacc and, for models with shapes, the contacts (`contacts(r)`); nothing is stepped, the warm start is
   * read and never written. For the smooth, unconstrained acceleration use forwardUnconstrained().
   */
  forward(): void;
  /** qacc = M⁻¹(τ − bias) at the current state with every constraint ignored: MuJoCo's
   *  qacc_smooth. Equal to forward() for a model without constraints. */
  forwardUnconstrained(): void;
  /** Kinetic, potential and total energy of each robot at the current state (length copies). */
  energy(): { kinetic: Real; potential: Real; total: Real };
  /** World pose of every body at the current state: pos[(i*3+c)*stride + r], rot[(i*9+c)*stride + r] (R_WB row-major). */
  kinematics(): { pos: Real; rot: Real };
  /**
   * Collision detection at the current state of every robot: shape poses, broad phase (world AABBs
   * inflated by margin + gap, sweep and prune), narrow phase. Like `kinematics()`, nothing is
   * stepped; `contacts(r)` then lists robot r's active points (dist < the pair's summed margin + gap).
   */
  collide(): void;
  /** Robot r's active contact points from the last collide(), constrain() or forward() (see ContactPoints). */
  contacts(robot: number): ContactPoints;
  /** Every pair of shapes MuJoCo's contact filter admits (indices into model.shapes, a < b), in
   *  contact-row order; computed on first use, quadratic in the shapes (for inspection: stepping
   *  never lists them, its broad phase asks the filter of each overlapping pair). */
  readonly pairs: readonly { a: number; b: number }[];
  /** Actuators (model.actuators) and their double-buffered controls: `ctrl[a * stride + r]` is what
   *  the next step reads (a view that alternates halves: take it anew after every step); each step
   *  clears the half it does not read, so unwritten controls read 0. `actuatorForce[a * stride + r]`
   *  is each actuator's force at the last step's start. For RL loops see src/control/rl.ts. */
  readonly nu: number;
  readonly ctrl: Real;
  readonly actuatorForce: Real;
  /** Put every robot back at the model's initial state (tau too) and zero the step counter. */
  reset(): void;
  /** Copy one robot's state out (robot-major, plain arrays). */
  getRobot(r: number): { q: number[]; v: number[]; tau: number[]; qacc: number[] };
  /** Set one robot's state; fields left out are unchanged. */
  setRobot(r: number, s: { q?: ArrayLike<number>; v?: ArrayLike<number>; tau?: ArrayLike<number> }): void;
  /** Robot r runs with `model`'s per-robot parameters (gravity, masses, centres of mass, inertias,
   *  joint damping and armature, shape frictions, actuator gains and control ranges), in its
   *  lane; `model` equals the batch's in everything else, or this throws naming the difference. */
  setRobotModel(r: number, model: ModelDesc): void;
}
