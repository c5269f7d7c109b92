// Robots with their own model parameters in one batch, one robot per SIMD lane. The engine holds
// gravity, each body's mass, centre of mass and inertia, each joint's damping and armature and each
// actuator's gains and control range per lane (native/include/achilles/lane_values.hpp), and each
// shape's frictions and the inverse weights the constraints derive from masses and armatures
// (native/include/achilles/contact/lane_constraints.hpp), so robots whose drawn models differ only in
// those share a batch: the batch is made with robot 0's model and every other robot's model is set in
// its lane (Batch.setRobotModel). A damping, armature or velocity gain that is zero in some robots and
// not in others needs a batch per robot: laneSharingProblem says which, and why.

import { laneDifference, type Batch } from '../engine/batch.js';
import type { ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { withParameters } from './apply.js';
import { withNamedParameters } from './named.js';
import type { ParameterKind, ParameterValue } from './names.js';

/** The kinds the engine holds per lane (a drawn kind outside these needs a batch per robot). */
export const LANE_KINDS: readonly ParameterKind[] = [
  'gravity',
  'mass_scale',
  'com_offset',
  'friction',
  'damping',
  'armature',
  'gain',
  'ctrl_range',
];

/** Why robots running `models` (robot i runs models[i]) cannot share one batch made with models[0]:
 *  the first robot whose model differs from robot 0's in more than its per-lane parameters; undefined
 *  when they can. `kinds`: the kinds drawn, a shortcut past the engine's check when one is not per lane. */
export function laneSharingProblem(models: readonly ModelDesc[], kinds: readonly ParameterKind[], addon?: NativeAddon): string | undefined {
  const other = kinds.find((k) => !LANE_KINDS.includes(k));
  if (other && models.length > 1) return `${other} is not a per-lane parameter (per lane: ${LANE_KINDS.join(', ')})`;
  for (let r = 1; r < models.length; r++) {
    const d = laneDifference(models[0], models[r], addon);
    if (d) return `robot ${r}'s model differs from robot 0's in more than its per-lane parameters: ${d}`;
  }
  return undefined;
}

/** Robots 1.. of `batch` (made with models[0]) each get their model in their lane. */
export function setRobotModels(batch: Batch, models: readonly ModelDesc[]): void {
  for (let r = 1; r < models.length; r++) batch.setRobotModel(r, models[r]);
}

/** Robot `robot` of `batch` runs with `values` written into the batch's model (apply.ts). */
export function setRobotParameters(batch: Batch, robot: number, values: readonly ParameterValue[]): void {
  batch.setRobotModel(robot, withParameters(batch.model, values));
}

/** The same by name, as a sweep's randomize.model writes them:
 *  setNamedParameters(batch, 3, { 'gravity.z': -9.7, 'damping:hip': 0.2 }). */
export function setNamedParameters(batch: Batch, robot: number, values: Readonly<Record<string, number>>): void {
  batch.setRobotModel(robot, withNamedParameters(batch.model, values));
}
