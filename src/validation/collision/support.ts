// Exact support functions of the collision stage's shapes in world coordinates: the farthest point
// of the shape along a direction d and its value h(d) = max over the shape of d·x.
//   sphere-swept core (sphere, capsule, box, rounded box) and convex hull: max over the core's
//   vertices, plus r‖d‖ (a ball adds r to each support value);
//   cylinder, ellipsoid: closed forms (smooth-shapes.ts) in the shape frame;
//   plane (the half-space z ≤ 0 of its frame): bounded only along its own normal.

import {
  add,
  coreVertices,
  dot,
  mulMtV,
  mulMV,
  norm,
  planeNormal,
  rotation,
  scale,
  sub,
  type Pose,
  type ShapeGeom,
  type V3,
} from './geometry.js';
import { cylinderSupport, ellipsoidSupport } from './smooth-shapes.js';

/** The shape's farthest point along world direction d (d ≠ 0; a plane has none). */
export function supportPoint(s: ShapeGeom, X: Pose, d: readonly number[]): V3 {
  if (s.kind === 'plane') throw new Error('a plane has no support point');
  if (s.kind === 'cylinder' || s.kind === 'ellipsoid') {
    const R = rotation(X.quat);
    const local = mulMtV(R, d);
    const p = s.kind === 'cylinder' ? cylinderSupport(s.size!, local) : ellipsoidSupport(s.size!, local);
    return add(X.pos, mulMV(R, p));
  }
  const vs = coreVertices(s, X);
  let best = vs[0];
  for (const v of vs) if (dot(v, d) > dot(best, d)) best = v;
  return s.radius ? add(best, scale(d, s.radius / norm(d))) : best;
}

/** h(d) = max over the shape of d·x; a plane's is +∞ but along its own outward normal. */
export function supportValue(s: ShapeGeom, X: Pose, d: readonly number[]): number {
  if (s.kind === 'plane') {
    const np = planeNormal(X);
    return Math.abs(dot(np, d) - 1) < 1e-12 ? dot(np, X.pos) : Infinity;
  }
  return dot(supportPoint(s, X, d), d);
}

/** The points spanning the shape's face along unit n (its points within `tol` of the support
 *  plane; a cylinder's cap drawn as 64 rim points, whose hull lies inside the cap): every convex
 *  combination of them is on the surface up to `tol`. A smooth point gives itself alone. */
export function supportFace(s: ShapeGeom, X: Pose, n: V3, tol: number): V3[] {
  if (s.kind === 'ellipsoid') return [supportPoint(s, X, n)];
  const R = rotation(X.quat);
  if (s.kind === 'cylinder') {
    const local = mulMtV(R, n);
    const [r, l] = s.size!;
    const radial = Math.hypot(local[0], local[1]);
    const world = (p: readonly number[]) => add(X.pos, mulMV(R, p));
    // the cap's rim when it lies flat within tol over its diameter; the side's line within tol over its length
    if (2 * r * radial <= tol) {
      const z = local[2] > 0 ? l : -l;
      return Array.from({ length: 64 }, (_, k) => world([r * Math.cos((k * Math.PI) / 32), r * Math.sin((k * Math.PI) / 32), z]));
    }
    const p = supportPoint(s, X, n);
    if (2 * l * Math.abs(local[2]) <= tol) {
      const c = mulMtV(R, sub(p, X.pos));
      return [world([c[0], c[1], l]), world([c[0], c[1], -l])];
    }
    return [p];
  }
  const vs = coreVertices(s, X);
  const h = Math.max(...vs.map((v) => dot(v, n)));
  return vs.filter((v) => dot(v, n) >= h - tol).map((v) => add(v, scale(n, s.radius)));
}
