// The collision stage's shapes and poses, built by hand for its reference's tests
// (collision-exact, collision-direction-search): one constructor per kind, sizes as the stage's
// ShapeGeom holds them.

import { unit, type Pose, type ShapeGeom, type V3 } from '../../src/validation/collision/geometry.js';

export const I: Pose['quat'] = [1, 0, 0, 0];
export const at = (pos: V3, quat: Pose['quat'] = I): Pose => ({ pos, quat });
/** The rotation by angle a about axis (any length) as a unit quaternion. */
export const axisAngle = (axis: V3, a: number): Pose['quat'] => {
  const u = unit(axis);
  return [Math.cos(a / 2), u[0] * Math.sin(a / 2), u[1] * Math.sin(a / 2), u[2] * Math.sin(a / 2)];
};
export const sphere = (r: number): ShapeGeom => ({ kind: 'sphere', halfExtents: [0, 0, 0], radius: r });
export const capsule = (r: number, half: number): ShapeGeom => ({ kind: 'capsule', halfExtents: [0, 0, half], radius: r });
export const box = (h: V3): ShapeGeom => ({ kind: 'box', halfExtents: h, radius: 0 });
export const rbox = (h: V3, r: number): ShapeGeom => ({ kind: 'rounded-box', halfExtents: h, radius: r });
export const ellipsoid = (e: V3): ShapeGeom => ({ kind: 'ellipsoid', halfExtents: e, radius: 0, size: e });
export const cylinder = (r: number, l: number): ShapeGeom => ({ kind: 'cylinder', halfExtents: [r, r, l], radius: 0, size: [r, l, 0] });
export const plane: ShapeGeom = { kind: 'plane', halfExtents: [0, 0, 0], radius: 0 };
