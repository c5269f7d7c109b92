// The exact signed distance between two sphere-swept boxes (or one and a plane), written for the
// validation independently of the engine and by a different method:
//   cores as convex polytopes (8 corners each), D = core_A − core_B their Minkowski difference
//   (64 points); sd(cores) = −min over unit n of h_D(n), with h_D the support function of D;
//   • origin outside conv(D): sd = ‖x‖, x the minimum-norm point of conv(D) (Wolfe's algorithm),
//     normal n = −x/‖x‖ (from A to B);
//   • origin inside: sd = −min over the hull's faces of its offset (the hull of D built here),
//     normal = that face's outward normal;
//   then sd(shapes) = sd(cores) − r_A − r_B, exactly, overlap included (sweeping by a ball adds r to
//   each support function). Witness points come from the same convex combination on each side.
// A plane (half-space z <= 0 of its frame) against a shape: the lowest core corner along its
// normal, minus the radius (a cylinder's or ellipsoid's lowest point: its closed-form support point).
// Convex hulls are polytope cores too (their vertices; radius 0). A sphere against a cylinder or an
// ellipsoid: the centre's exact signed distance to it (smooth-shapes.ts) minus the radius, the
// normal the outward one at the nearest point. Any other pair with a cylinder or an ellipsoid: the
// direction search over g(u) = −h_A(u) − h_B(−u) (direction-search.ts).

import { directionSearchContact } from './direction-search.js';
import type { ExactContact } from './exact-contact.js';
export type { ExactContact } from './exact-contact.js';
import { convexHull } from './hull.js';
import { minNormPoint } from './min-norm.js';
import {
  add,
  coreVertices,
  dot,
  isPolytopeCore,
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
import { cylinderPoint, ellipsoidPoint } from './smooth-shapes.js';
import { supportPoint, supportValue } from './support.js';

/** Separation of the two shapes along unit n (from A to B): min over B of n·b − max over A of n·a − r_A − r_B.
 *  The exact distance is the largest of these over n; any other n gives less. A plane side is
 *  unbounded except along its own normal. */
export function separationAlong(a: ShapeGeom, Xa: Pose, b: ShapeGeom, Xb: Pose, n: readonly number[]): number {
  return -supportValue(a, Xa, n) - supportValue(b, Xb, scale(n, -1));
}

function planeContact(plane: Pose, s: ShapeGeom, X: Pose): ExactContact {
  const n = planeNormal(plane);
  if (!isPolytopeCore(s)) {
    const pointB = supportPoint(s, X, scale(n, -1));
    const dist = dot(n, sub(pointB, plane.pos));
    const pointA = sub(pointB, scale(n, dist));
    return { dist, normal: n, pointA, pointB, pos: scale(add(pointA, pointB), 0.5), gap: Infinity };
  }
  const vs = coreVertices(s, X);
  const heights = vs.map((v) => dot(n, sub(v, plane.pos)));
  const low = Math.min(...heights);
  // The deepest corner (several tie on a face lying flat: their mean is on that face too).
  const tied = vs.filter((_, k) => heights[k] - low <= 1e-12 * (Math.abs(low) + shapeExtent(s)));
  const core = scale(
    tied.reduce((acc, v) => add(acc, v), [0, 0, 0] as V3),
    1 / tied.length,
  );
  const pointB = sub(core, scale(n, s.radius));
  const dist = low - s.radius;
  const pointA = sub(pointB, scale(n, dist));
  return { dist, normal: n, pointA, pointB, pos: scale(add(pointA, pointB), 0.5), gap: Infinity };
}

const shapeExtent = (s: ShapeGeom) => Math.max(...s.halfExtents) + s.radius;

/** A sphere (centre c, radius r) as shape B against a cylinder or ellipsoid A: sd = sd_A(c) − r,
 *  normal the outward one at A's nearest point q (c = q + n·sd_A(c)). */
function sphereSmoothContact(a: ShapeGeom, Xa: Pose, c: V3, r: number): ExactContact {
  const R = rotation(Xa.quat);
  const local = mulMtV(R, sub(c, Xa.pos));
  const near = a.kind === 'cylinder' ? cylinderPoint(a.size!, local) : ellipsoidPoint(a.size!, local);
  const n = mulMV(R, near.n);
  const pointA = add(Xa.pos, mulMV(R, near.q));
  const pointB = sub(c, scale(n, r));
  return { dist: near.sd - r, normal: n, pointA, pointB, pos: scale(add(pointA, pointB), 0.5), gap: Infinity };
}

const flip = (c: ExactContact): ExactContact => ({ ...c, normal: scale(c.normal, -1), pointA: c.pointB, pointB: c.pointA });

/** The exact contact between shape a at Xa and shape b at Xb (not both planes). */
export function exactContact(a: ShapeGeom, Xa: Pose, b: ShapeGeom, Xb: Pose): ExactContact {
  if (a.kind === 'plane' && b.kind === 'plane') throw new Error('plane–plane has no contact');
  if (a.kind === 'plane') return planeContact(Xa, b, Xb);
  if (b.kind === 'plane') return flip(planeContact(Xb, a, Xa));
  if (!isPolytopeCore(a) || !isPolytopeCore(b)) {
    if (b.kind === 'sphere' && !isPolytopeCore(a)) return sphereSmoothContact(a, Xa, Xb.pos, b.radius);
    if (a.kind === 'sphere' && !isPolytopeCore(b)) return flip(sphereSmoothContact(b, Xb, Xa.pos, a.radius));
    return directionSearchContact(a, Xa, b, Xb);
  }
  return polytopeContact(a, Xa, b, Xb);
}

/** Two polytope cores swept by balls (see the file comment). */
function polytopeContact(a: ShapeGeom, Xa: Pose, b: ShapeGeom, Xb: Pose): ExactContact {
  const A = coreVertices(a, Xa);
  const B = coreVertices(b, Xb);
  // D = A − B without repeated points (a sphere's 8 corners coincide): pairs[k] = [i, l] of D[k].
  const D: V3[] = [];
  const pairs: [number, number][] = [];
  const seen = new Set<string>();
  A.forEach((p, i) =>
    B.forEach((q, l) => {
      const d = sub(p, q);
      const key = d.join(',');
      if (seen.has(key)) return;
      seen.add(key);
      D.push(d);
      pairs.push([i, l]);
    }),
  );
  const pair = (k: number) => pairs[k];
  const witness = (idx: readonly number[], w: readonly number[]) => {
    let pa: V3 = [0, 0, 0];
    let pb: V3 = [0, 0, 0];
    idx.forEach((k, j) => {
      const [i, l] = pair(k);
      pa = add(pa, scale(A[i], w[j]));
      pb = add(pb, scale(B[l], w[j]));
    });
    return [pa, pb] as const;
  };
  const size = Math.max(...D.map(norm), shapeExtent(a), shapeExtent(b));
  const mn = minNormPoint(D);
  const sep = norm(mn.x);
  const finish = (coreDist: number, n: V3, ca: V3, cb: V3, gap: number): ExactContact => {
    const pointA = add(ca, scale(n, a.radius));
    const pointB = sub(cb, scale(n, b.radius));
    return { dist: coreDist - a.radius - b.radius, normal: n, pointA, pointB, pos: scale(add(pointA, pointB), 0.5), gap };
  };
  if (sep > 1e-11 * size) {
    const [ca, cb] = witness(mn.idx, mn.w);
    return finish(sep, scale(mn.x, -1 / sep), ca, cb, Infinity);
  }
  // The origin is in conv(D) (up to round-off): penetration depth from the hull's faces.
  const faces = convexHull(D);
  if (!faces) {
    // Flat D through the origin (cores touching in a plane or less): depth 0, normal not unique.
    const [ca, cb] = witness(mn.idx, mn.w);
    return finish(0, [0, 0, 1], ca, cb, 0);
  }
  let best = faces[0];
  for (const f of faces) if (f.off < best.off) best = f;
  // Second best among faces of a different plane (normal apart by more than round-off).
  let gap = Infinity;
  for (const f of faces) if (dot(f.n, best.n) < 1 - 1e-12) gap = Math.min(gap, f.off - best.off);
  // Witness: the origin's projection onto the best plane, as a convex combination of a face of it.
  const q = scale(best.n, best.off);
  let chosen: { idx: number[]; w: number[] } | null = null;
  let worstNeg = -Infinity;
  for (const f of faces) {
    if (dot(f.n, best.n) < 1 - 1e-9 || f.off - best.off > 1e-12 * size) continue;
    const w = barycentric(D[f.v[0]], D[f.v[1]], D[f.v[2]], q);
    const m = Math.min(...w);
    if (m > worstNeg) [worstNeg, chosen] = [m, { idx: [...f.v], w: w.map((x) => Math.max(x, 0)) }];
  }
  const c = chosen ?? { idx: [...best.v], w: [1 / 3, 1 / 3, 1 / 3] };
  const s = c.w.reduce((x, y) => x + y, 0);
  const [ca, cb] = witness(
    c.idx,
    c.w.map((x) => x / s),
  );
  return finish(-best.off, best.n, ca, cb, gap);
}

function barycentric(a: V3, b: V3, c: V3, p: V3): [number, number, number] {
  const v0 = sub(b, a);
  const v1 = sub(c, a);
  const v2 = sub(p, a);
  const d00 = dot(v0, v0);
  const d01 = dot(v0, v1);
  const d11 = dot(v1, v1);
  const d20 = dot(v2, v0);
  const d21 = dot(v2, v1);
  const den = d00 * d11 - d01 * d01;
  const v = (d11 * d20 - d01 * d21) / den;
  const w = (d00 * d21 - d01 * d20) / den;
  return [1 - v - w, v, w];
}
