// Loads the native addon (the engine, or its planted-bug twin for `achilles validate`).

import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

export interface NativeStepResult {
  robotSteps: number;
  nonFinite: { step: number; robot: number; joint: string } | null;
  /** A bad control (NaN, |u| > 1e10) the call found before its first step, which it then did not take
   *  (nothing advanced): the step it would have taken (0-based), the robot, the actuator's name, the value. */
  nonFiniteControl: { step: number; robot: number; actuator: string; value: number } | null;
}

export type NativeFieldName =
  | 'q'
  | 'v'
  | 'tau'
  | 'qacc'
  | 'kinetic'
  | 'potential'
  | 'bodyPos'
  | 'bodyRot'
  | 'energyRef'
  | 'driftMax'
  | 'kineticPeak'
  | 'qaccWarm'
  | 'ctrl'
  | 'ctrlTarget'
  | 'actuatorForce'
  | 'bodyVel'
  | 'bodyAcc' // sensors
  | 'act' // general actuators: activations, and actuator_force / act_dot at the current state (forward())
  | 'actuatorForceNow'
  | 'actDotNow'
  | 'qfrcConstraint' // BatchOptions.record
  | 'cfrcExt'
  | 'recordBodyPos'
  | 'recordBodyRot'
  | 'recordBodyVel'
  | 'qfrcActuator'
  | 'recordXipos'
  | 'recordCinert'
  | 'recordCvel'
  | 'mjcfSensorData'; // sense(): an MJCF model's sensordata (native/include/achilles/sensors/mjcf_sensors.hpp)

/** One constraint row of one robot at one state (MuJoCo's efc_* of that row). */
export interface ConstraintRow {
  kind: 'limit' | 'contact' | 'friction' | 'tendon-limit' | 'tendon-friction' | 'equality';
  /** The limited (or dry-friction) joint's body index, the contact pair's number (ConstraintContact.pair), the tendon's index (tendon-*) or the equality's index in ModelDesc.equalities (MuJoCo's efc_id). */
  id: number;
  /** limit, tendon-limit: 0 lower, 1 upper side. */
  side?: number;
  /** equality: the row within its constraint (connect 0..2, weld 0..5, joint 0). */
  row?: number;
  /** friction: which of the joint's dofs. */
  dof?: number;
  /** contact: point slot 0..4 of the pair (slot 4: multiccd's fifth contact). */
  point?: number;
  /** Pyramid edge 0..2(condim − 1) − 1: J_n ± μJ_t1, J_n ± μJ_t2, then J_n ± μ_spin·J_spin (condim 4) and J_n ± μ_roll·J_roll1, J_roll2 (condim 6); 0 for condim 1 and limits; under the elliptic cone the row 0..condim − 1: J_n, J_t1, J_t2, J_spin, J_roll1, J_roll2. */
  edge: number;
  /** efc_pos (dist), efc_vel (J·v), efc_aref, efc_R, efc_D, the impedance and efc_force. */
  dist: number;
  vel: number;
  aref: number;
  R: number;
  D: number;
  imp: number;
  force: number;
  /** The row of J (nv numbers). */
  J: number[];
}
export interface ConstraintContact {
  /** The pair's number among this evaluation's pairs (ConstraintRow.id of its rows), and its shapes (a < b). */
  pair: number;
  shapeA: number;
  shapeB: number;
  point: number;
  dist: number;
  pos: number[];
  /** Rows n (shape a → b), t1, t2: MuJoCo's frame, signed as our rows. */
  frame: number[];
  /** Normal and the two friction forces in that frame, then the torsional and two rolling torques (0 below condim 4 and 6; MuJoCo's mju_decodePyramid). */
  force: number[];
}
export interface ConstraintState {
  qaccSmooth: number[];
  qacc: number[];
  qfrcConstraint: number[];
  rows: ConstraintRow[];
  contacts: ConstraintContact[];
  /** Every tendon's length and velocity at the state (models with constraints; else empty). */
  tendonLength: number[];
  tendonVelocity: number[];
}

export interface NativeBatch {
  /** monitor: also track each robot's largest |E − energyRef| (driftMax) and peak kinetic energy over every step. */
  /** `hold`: the controls written before the call act over all k steps (Batch::step). */
  step(k: number, monitor?: boolean, hold?: boolean): NativeStepResult;
  forward(): void;
  observe(): void;
  /** Shape poses, broad and narrow phase at the current state: the contacts `contacts()` reads. */
  collide(): void;
  /** Detection and the constraint solve at the current state (warm start included), as the next step
   *  starts: qacc, and the contacts with their forces. */
  /** With record (a record: true batch): keep this evaluation's fields (Batch.lastEvaluation); with
   *  robots, only the blocks of lanes holding them are evaluated. */
  constrain(record?: boolean, robots?: number[]): void;
  /** One robot's active contact points from the last collide() or constrain(). */
  contacts(robot: number): ContactPoints;
  /** Every pair of shapes the contact filter admits (a < b), in row order: quadratic in the shapes. */
  candidatePairs(): { a: number; b: number }[];
  /** One robot's rows and accelerations at the current state, solved with `iterations` (from qacc_smooth,
   *  or from the stored warm start with `warm`). */
  constraints(robot: number, iterations: number, warm: boolean): ConstraintState;
  reset(): void;
  /** Sensors: qacc, body velocities and accelerations (bodyVel, bodyAcc) and poses (bodyPos, bodyRot) at the current state. */
  sense(): void;
  /** Robot `robot` runs with `model`'s per-robot parameters (gravity, masses, centres of mass,
   *  inertias, joint damping and armature, shape frictions, actuator gains and control ranges, in
   *  its lane); throws naming the first difference when `model` differs from the batch's in more. */
  setRobotModel(robot: number, model: object): void;
  field(name: NativeFieldName): Float32Array | Float64Array;
  /** hasPairs: some two shapes may touch (the contact filter admits a pair). */
  info(): { stride: number; nq: number; nv: number; nu: number; na: number; isa: string; steps: number; hasPairs: boolean };
}

/** One robot's active contact points (MuJoCo's d->contact), pair by pair in (a, b) order, point
 *  slots 0..4 within a pair: point k is between shapes shapeA[k] < shapeB[k] (model.shapes
 *  indices); dist[k] signed (negative: penetration); pos[3k..] the world point midway between the
 *  surfaces; normal[3k..] the unit normal from shape a to shape b; force[3k..] the normal and the
 *  two friction forces in MuJoCo's contact frame (constrain(); 0 after collide() and for points
 *  beyond the margin but within the gap). */
export interface ContactPoints {
  shapeA: Int32Array;
  shapeB: Int32Array;
  point: Int32Array;
  dist: Float64Array;
  pos: Float64Array;
  normal: Float64Array;
  force: Float64Array;
}

/** One shape of a standalone narrow-phase query (world pose given separately): a sphere-swept box
 *  or plane by halfExtents and radius; a cylinder or ellipsoid by `size` (MuJoCo's geom_size), a
 *  convex shape by its hull's `vertices` and optional `faces` (as a model's shapes give them). */
export interface ShapeQuery {
  kind: 'sphere' | 'capsule' | 'box' | 'rounded-box' | 'plane' | 'cylinder' | 'ellipsoid' | 'convex';
  halfExtents: [number, number, number];
  radius: number;
  size?: [number, number, number];
  vertices?: number[];
  faces?: number[];
}
/** A pair for `collideShapePairs`: world poses (quat [w,x,y,z]); contacts with dist < margin. */
export interface PairQuery {
  a: ShapeQuery;
  b: ShapeQuery;
  poseA: { pos: [number, number, number]; quat: [number, number, number, number] };
  poseB: { pos: [number, number, number]; quat: [number, number, number, number] };
  margin: number;
}
/** Contacts of one pair: normal from a to b; `count` active points, midway between the surfaces. */
export interface PairContacts {
  count: number;
  normal: [number, number, number];
  points: [number, number, number][];
  dists: number[];
  /** Each point's own normal (multiccd's points carry their re-run's; the others repeat `normal`). */
  normals: [number, number, number][];
}

export interface CpuInfo {
  sse2: boolean;
  avx2: boolean;
  avx512: boolean;
  /** The widest f32 width; f64 packs half as many per register (use widestLanes() in lanes.ts per precision). */
  widestLanes: number;
  compiler: string;
}

export interface NativeAddon {
  NativeBatch: new (model: object, options: object) => NativeBatch;
  cpuInfo(): CpuInfo;
  isBugBuild: boolean;
  /** Bytes of a batch's state storage for (model, options), computed without allocating it. */
  storageBytes(model: object, options: object): number;
  /** '' when `robotModel` may run in a lane of a batch of `model` (setRobotModel accepts it), else
   *  its first difference. */
  laneDifference(model: object, robotModel: object): string;
  /** The batch's narrow phase on single pairs (lanes 1, the chosen precision; planted bugs in the bug build). */
  collideShapePairs(pairs: PairQuery[], options?: { precision?: 'f32' | 'f64' }): PairContacts[];
  plantedBugs?: () => string[];
  setBug?: (name: string) => void;
}

/** The package root (src/util/package-root.ts: one place for it, below every room). */
export { packageRoot };

/** The source build's output (cmake-js, `npm run build:native`). */
export const SOURCE_BUILD_DIR = join(packageRoot, 'build', 'native', 'Release');
/** The prebuilt addons an npm package carries for this platform (scripts/prepack.mjs fills it). */
export const PREBUILD_DIR = join(packageRoot, 'prebuilds', `${process.platform}-${process.arch}`);

/**
 * Where addon `file` may lie, in the order tried. A source build exists only where someone built
 * one (a development checkout, or an install whose prebuild did not load and so built from source),
 * so it is the deliberate choice and comes first; a prebuild can then never shadow a fresher build.
 * Otherwise the prebuild shipped in the package.
 */
export function addonCandidates(file: string): string[] {
  return [join(SOURCE_BUILD_DIR, file), join(PREBUILD_DIR, file)];
}

const BUILD_HINT =
  `build it from source with \`npm run build:native\` in ${packageRoot} ` +
  '(needs cmake-js, g++, cmake and libxsimd-dev: sudo apt-get install g++ cmake libxsimd-dev)';

/** Loads the first candidate that loads; the error names every path tried and why each failed. */
export function loadFirst<T>(file: string, what: string, candidates = addonCandidates(file)): T {
  const failures: string[] = [];
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    try {
      const addon = createRequire(import.meta.url)(path) as T;
      // Rare (a broken source build beside a good prebuild), but never silent: say which one runs.
      if (failures.length) process.stderr.write(`achilles: ${failures.join('; ')}; using ${path}\n`);
      return addon;
    } catch (e) {
      failures.push(`${path} does not load: ${(e as Error).message}`);
    }
  }
  if (failures.length === 0) {
    throw new Error(
      `the ${what} is not built: no source build (${candidates[0]}) and no prebuilt one for ` +
        `${process.platform}-${process.arch} (${candidates.slice(1).join(', ')}); ${BUILD_HINT}`,
    );
  }
  throw new Error(`the ${what} cannot be loaded: ${failures.join('; ')}; ${BUILD_HINT}`);
}

const cache = new Map<string, NativeAddon>();

function load(name: 'achilles' | 'achilles_bugs'): NativeAddon {
  const hit = cache.get(name);
  if (hit) return hit;
  const what = name === 'achilles' ? 'native engine' : 'planted-bug engine (achilles validate; a source build only)';
  const addon = loadFirst<NativeAddon>(`${name}.node`, what);
  cache.set(name, addon);
  return addon;
}

/** The engine. */
export function engineAddon(): NativeAddon {
  return load('achilles');
}

/** The engine with planted bugs compiled in; only `achilles validate` uses it. */
export function bugAddon(): NativeAddon {
  return load('achilles_bugs');
}
