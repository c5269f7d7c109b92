// Plain float64 geometry for the exact collision reference: 3-vectors, poses, and shapes as
// convex core polytopes (a box's 8 corners, duplicates kept when half-extents are zero) swept by
// a ball. Written for the validation only: nothing here is shared with the native engine.

import type { ShapeKind } from '../../engine/model-desc.js';

export type V3 = [number, number, number];

export const add = (a: readonly number[], b: readonly number[]): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: readonly number[], b: readonly number[]): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: readonly number[], s: number): V3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: readonly number[], b: readonly number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: readonly number[], b: readonly number[]): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const norm = (a: readonly number[]): number => Math.hypot(a[0], a[1], a[2]);
export const unit = (a: readonly number[]): V3 => scale(a, 1 / norm(a));

/** Angle between two directions (rad), stable near 0 and π (atan2 of |a×b| and a·b). */
export const angle = (a: readonly number[], b: readonly number[]): number => {
  const r = Math.atan2(norm(cross(a, b)), dot(a, b));
  return Number.isFinite(r) ? r : Infinity;
};

/** A world pose: position and unit quaternion [w, x, y, z]. */
export interface Pose {
  pos: V3;
  quat: [number, number, number, number];
}

/** The shape as the contract's collideShapePairs takes it: a sphere-swept box or a plane
 *  (halfExtents, radius), or one of MuJoCo's cylinder, ellipsoid (`size`: MuJoCo's geom_size) and
 *  convex (`vertices`: its hull's vertices, x y z each in the shape frame; `faces`: the hull's
 *  triangles, three vertex indices each, outward counter-clockwise). For those three, halfExtents
 *  is the box bounding them and radius 0 (as the engine's ShapeDesc has them). */
export interface ShapeGeom {
  kind: ShapeKind;
  halfExtents: V3;
  radius: number;
  size?: V3;
  vertices?: number[];
  faces?: number[];
}

/** Whether the shape is a convex polytope core swept by a ball (every kind but plane, cylinder and ellipsoid). */
export const isPolytopeCore = (s: ShapeGeom): boolean => s.kind !== 'plane' && s.kind !== 'cylinder' && s.kind !== 'ellipsoid';

/** Row-major rotation matrix of a quaternion (normalised first, so a perturbed one stays a rotation). */
export function rotation(q: readonly number[]): number[] {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  const [w, x, y, z] = [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - w * z),
    2 * (x * z + w * y),
    2 * (x * y + w * z),
    1 - 2 * (x * x + z * z),
    2 * (y * z - w * x),
    2 * (x * z - w * y),
    2 * (y * z + w * x),
    1 - 2 * (x * x + y * y),
  ];
}
export const mulMV = (R: readonly number[], v: readonly number[]): V3 => [
  R[0] * v[0] + R[1] * v[1] + R[2] * v[2],
  R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
  R[6] * v[0] + R[7] * v[1] + R[8] * v[2],
];
export const mulMtV = (R: readonly number[], v: readonly number[]): V3 => [
  R[0] * v[0] + R[3] * v[1] + R[6] * v[2],
  R[1] * v[0] + R[4] * v[1] + R[7] * v[2],
  R[2] * v[0] + R[5] * v[1] + R[8] * v[2],
];

/** The core's 8 corners in world coordinates (sphere: 8 copies of the centre; capsule: 4 + 4 of its
 *  segment's ends). Duplicates are harmless to every algorithm here and keep the indexing fixed. */
export function coreVertices(s: ShapeGeom, X: Pose): V3[] {
  const R = rotation(X.quat);
  const out: V3[] = [];
  if (s.kind === 'convex') {
    const v = s.vertices ?? [];
    for (let i = 0; i < v.length; i += 3) out.push(add(X.pos, mulMV(R, [v[i], v[i + 1], v[i + 2]])));
    return out;
  }
  if (!isPolytopeCore(s)) throw new Error(`a ${s.kind} has no polytope core`);
  for (let k = 0; k < 8; k++) {
    const local: V3 = [
      k & 1 ? s.halfExtents[0] : -s.halfExtents[0],
      k & 2 ? s.halfExtents[1] : -s.halfExtents[1],
      k & 4 ? s.halfExtents[2] : -s.halfExtents[2],
    ];
    out.push(add(X.pos, mulMV(R, local)));
  }
  return out;
}

/** Outward unit normal of a plane shape (its frame's +z) in the world. */
export const planeNormal = (X: Pose): V3 => {
  const R = rotation(X.quat);
  return [R[2], R[5], R[8]];
};

/** A shape's size: the largest half-extent plus the radius (a plane has none: 0); for a cylinder,
 *  ellipsoid and convex shape the largest half-extent of its bounding box (halfExtents). */
export const shapeSize = (s: ShapeGeom): number => (s.kind === 'plane' ? 0 : Math.max(...s.halfExtents) + s.radius);
