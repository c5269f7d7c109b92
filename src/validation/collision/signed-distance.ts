// A world point's exact signed distance to a shape, over every kind: the boxes, capsules and
// spheres of geometry.ts, cylinders and ellipsoids (smooth-shapes.ts) and hulls (hull-shapes.ts).
// Apart from geometry.ts, which those files build on.

import { dot, mulMtV, planeNormal, rotation, sub, type Pose, type ShapeGeom } from './geometry.js';
import { hullPointDistance } from './hull-shapes.js';
import { cylinderPoint, ellipsoidPoint } from './smooth-shapes.js';

/** Exact signed distance from a world point to a shape's surface (negative inside):
 *  q = |p_S| − h, sd = ‖max(q, 0)‖ + min(max_i q_i, 0) − r; a plane's is its height above it;
 *  cylinder, ellipsoid and convex: smooth-shapes.ts and hull-shapes.ts. */
export function pointSignedDistance(s: ShapeGeom, X: Pose, p: readonly number[]): number {
  if (s.kind === 'plane') return dot(planeNormal(X), sub(p, X.pos));
  const local = mulMtV(rotation(X.quat), sub(p, X.pos));
  if (s.kind === 'cylinder') return cylinderPoint(s.size!, local).sd;
  if (s.kind === 'ellipsoid') return ellipsoidPoint(s.size!, local).sd;
  if (s.kind === 'convex') return hullPointDistance(s, local);
  const q = [0, 1, 2].map((i) => Math.abs(local[i]) - s.halfExtents[i]);
  const outside = Math.hypot(Math.max(q[0], 0), Math.max(q[1], 0), Math.max(q[2], 0));
  return outside + Math.min(Math.max(q[0], q[1], q[2]), 0) - s.radius;
}
