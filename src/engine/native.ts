// Loads the native addon (the engine, or its planted-bug twin for `achilles validate`).

import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface NativeStepResult {
  robotSteps: number;
  nonFinite: { step: number; robot: number; joint: string } | null;
}

export type NativeFieldName =
  | 'q' | 'v' | 'tau' | 'qacc' | 'kinetic' | 'potential' | 'bodyPos' | 'bodyRot'
  | 'contactActive' | 'contactDist' | 'contactPos' | 'contactNormal' | 'energyRef' | 'driftMax' | 'kineticPeak'
  | 'qaccWarm' | 'contactForce'
  | 'ctrl' | 'ctrlTarget' | 'actuatorForce'
  | 'bodyVel' | 'bodyAcc'; // sensors

/** One constraint row of one robot at one state (MuJoCo's efc_* of that row). */
export interface ConstraintRow {
  kind: 'limit' | 'contact' | 'friction' | 'tendon-limit' | 'tendon-friction';
  /** The limited (or dry-friction) joint's body index, the candidate pair index (contact), or the tendon's index (tendon-*). */
  id: number;
  /** limit, tendon-limit: 0 lower, 1 upper side. */
  side?: number;
  /** friction: which of the joint's dofs. */
  dof?: number;
  /** contact: point slot 0..3 of the pair. */
  point?: number;
  /** Pyramid edge 0..3: J_n + μJ_t1, J_n − μJ_t1, J_n + μJ_t2, J_n − μJ_t2 (0 for condim 1 and limits). */
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
  pair: number;
  point: number;
  dist: number;
  pos: number[];
  /** Rows n (shape a → b), t1, t2: MuJoCo's frame, signed as our rows. */
  frame: number[];
  /** Normal and the two friction forces in that frame (MuJoCo's mju_decodePyramid). */
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
  step(k: number, monitor?: boolean): NativeStepResult;
  forward(): void;
  observe(): void;
  /** Shape poses, broad and narrow phase at the current state: fills the contact fields. */
  collide(): void;
  /** Detection and the constraint solve at the current state (warm start included), as the next step
   *  starts: qacc, the contact fields and contactForce. */
  constrain(): void;
  /** One robot's rows and accelerations at the current state, solved with `iterations` (from qacc_smooth,
   *  or from the stored warm start with `warm`). */
  constraints(robot: number, iterations: number, warm: boolean): ConstraintState;
  reset(): void;
  /** Sensors: qacc, body velocities and accelerations (bodyVel, bodyAcc) and poses (bodyPos, bodyRot) at the current state. */
  sense(): void;
  field(name: NativeFieldName): Float32Array | Float64Array;
  /** pairs: the candidate shape pairs (indices into ModelDesc.shapes, a < b), in contact-slot order. */
  info(): { stride: number; nq: number; nv: number; nu: number; isa: string; steps: number; pairs: { a: number; b: number }[] };
}

/** One shape of a standalone narrow-phase query (world pose given separately). */
export interface ShapeQuery {
  kind: 'sphere' | 'capsule' | 'box' | 'rounded-box' | 'plane';
  halfExtents: [number, number, number];
  radius: number;
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
  /** The batch's narrow phase on single pairs (lanes 1, the chosen precision; planted bugs in the bug build). */
  collideShapePairs(pairs: PairQuery[], options?: { precision?: 'f32' | 'f64' }): PairContacts[];
  plantedBugs?: () => string[];
  setBug?: (name: string) => void;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The package root (this file is src/engine/native.ts or dist/engine/native.js). */
export const packageRoot = resolve(here, '..', '..');

const cache = new Map<string, NativeAddon>();

function load(name: 'achilles' | 'achilles_bugs'): NativeAddon {
  const hit = cache.get(name);
  if (hit) return hit;
  const path = join(packageRoot, 'build', 'native', 'Release', `${name}.node`);
  if (!existsSync(path)) {
    throw new Error(
      `the native engine is not built (${path} is missing). Build it with: npm run build:native ` +
        `(needs g++, cmake and libxsimd-dev: sudo apt-get install g++ cmake libxsimd-dev)`,
    );
  }
  const addon = createRequire(import.meta.url)(path) as NativeAddon;
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
