// Typed loader for the native MuJoCo timing addon (build/mujoco/Release/achilles_mujoco.node),
// which links the pip wheel's libmujoco.so. The WebAssembly MuJoCo is never a fallback: its
// timings would not be a fair comparison, so a missing addon is an error with install steps.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../engine/native.js';
import { hasMujocoPrebuild, loadMujocoPrebuild } from './mujoco-prebuild.js';

export type MujocoMode = 'per-robot' | 'merged';
/** Loop order of `per-robot` mode; `blocked` (the default) measured faster, see timeSteps. */
export type MujocoOrder = 'blocked' | 'interleaved';

export interface TimeStepsOptions {
  /** MJCF. `per-robot`: one robot. `merged`: `robotsPerModel` robots laid out one after another. */
  xml: string;
  mode: MujocoMode;
  /** Total robots simulated. */
  copies: number;
  /** `merged` only: robots in the xml (default `copies`: one mjData holds them all). */
  robotsPerModel?: number;
  steps: number;
  /** Every trajectory restarts from (qpos0, qvel0) after this many steps (untimed). */
  restartEvery: number;
  /** One robot's (tiled in merged mode), the whole model's, or one per robot (copies × the
   *  robot's length: robot r starts from its own); default model qpos0 / zeros. */
  qpos0?: ArrayLike<number>;
  qvel0?: ArrayLike<number>;
  /** Per-step controls, rows × copies × nu (robot after robot), row i for ctrlEvery steps from step
   *  i·ctrlEvery of every restart segment (rows · ctrlEvery ≥ restartEvery); copied into each
   *  mjData's ctrl before its step, inside the timing. Absent: zero controls. */
  ctrl?: Float32Array;
  ctrlEvery?: number;
  order?: MujocoOrder;
}

export interface TimeStepsResult {
  /** steady_clock seconds of the stepping loop only (no compile, no restarts). */
  seconds: number;
  /** Robot-steps that ended finite (merged: a bad mjData step counts robotsPerModel). */
  robotSteps: number;
  /** Robot-steps that produced a non-finite or MuJoCo-rejected (bad qpos/qvel/qacc) state. */
  nonFinite: number;
  /** Time spent in the (excluded) restarts, to show it is negligible. */
  restartSeconds: number;
  order: MujocoOrder;
}

export interface TimeCollisionOptions {
  /** MJCF of one robot, contacts on (they are disabled while stepping, enabled for mj_collision). */
  xml: string;
  /** Robots (one mjData each). */
  copies: number;
  steps: number;
  restartEvery: number;
  /** As timeSteps': one start for all, or one per robot. */
  qpos0?: ArrayLike<number>;
  qvel0?: ArrayLike<number>;
  /** As timeSteps' (applied in the untimed stepping). */
  ctrl?: Float32Array;
  ctrlEvery?: number;
}

export interface TimeCollisionResult {
  /** steady_clock seconds inside mj_collision calls only. */
  seconds: number;
  /** mj_collision calls (one per robot-step that stayed finite). */
  robotSteps: number;
  nonFinite: number;
  /** Contacts found over all calls (a sanity check that detection did work). */
  contacts: number;
}

export interface StepTraceOptions {
  xml: string;
  steps: number;
  qpos0?: ArrayLike<number>;
  qvel0?: ArrayLike<number>;
  ctrl?: ArrayLike<number>;
  /** Constant qfrc_applied. */
  tau?: ArrayLike<number>;
  /** MuJoCo's own integrators only; default the xml's. */
  integrator?: 'euler' | 'rk4';
  timestep?: number;
}

export interface StepTraceResult {
  /** State after each step, row-major steps × nq and steps × nv. */
  qpos: Float64Array;
  qvel: Float64Array;
  nq: number;
  nv: number;
}

export interface MujocoNative {
  timeSteps(opts: TimeStepsOptions): TimeStepsResult;
  /** mj_collision alone (after mj_kinematics) over the states of a contact-free trajectory. */
  timeCollision(opts: TimeCollisionOptions): TimeCollisionResult;
  stepTrace(opts: StepTraceOptions): StepTraceResult;
  info(): { version: string; lib: string };
}

// Absolute, so it works from an installed package's directory as well as from a clone.
export const MUJOCO_BUILD_COMMAND = `node ${packageRoot}/scripts/find-mujoco.mjs --build`;

/** Where the addon lies: from src/bench or dist/bench, two levels below the package root. */
export function mujocoAddonPath(): string {
  return fileURLToPath(new URL('../../build/mujoco/Release/achilles_mujoco.node', import.meta.url));
}

export const MUJOCO_INSTALL_HINT =
  'the native MuJoCo timing addon is not built. Install MuJoCo with `pip install mujoco`, then run ' +
  '`npm run build:mujoco` (or `' +
  MUJOCO_BUILD_COMMAND +
  '`); if MuJoCo lives elsewhere, set ' +
  'ACHILLES_MUJOCO_DIR to the directory holding libmujoco.so.* and include/mujoco before building.';

let cached: MujocoNative | undefined;

export function loadMujocoNative(): MujocoNative {
  if (cached) return cached;
  const path = mujocoAddonPath();
  if (!existsSync(path)) {
    // An npm package carries a prebuilt addon instead, for the MuJoCo release it was packed with.
    if (hasMujocoPrebuild()) return (cached = loadMujocoPrebuild<MujocoNative>(MUJOCO_INSTALL_HINT));
    throw new Error(`${MUJOCO_INSTALL_HINT} (looked for ${path})`);
  }
  try {
    cached = createRequire(import.meta.url)(path) as MujocoNative;
  } catch (e) {
    // Typically libmujoco.so moved (the rpath names the pip directory it was built against).
    throw new Error(`${MUJOCO_INSTALL_HINT} Loading ${path} failed: ${(e as Error).message}`);
  }
  return cached;
}
