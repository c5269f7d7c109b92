// Convex (mesh hull) shapes for the collision stage: random point clouds made into hulls the way
// the engine makes a mesh's (engine/quickhull.ts, as MuJoCo's qhull: the corners alone are the
// vertices, the triangles hand the native side its hull graph), and the exact signed distance from
// a point to such a hull:
//   outside: ‖x‖, x the minimum-norm point of conv(v_k − p) (Wolfe's algorithm, min-norm.ts);
//   inside: max over the hull's face planes of n·p − off (< 0: the nearest face's depth).

import { convexHull } from '../../engine/quickhull.js';
import type { Rng } from '../rng.js';
import { minNormPoint } from './min-norm.js';
import type { ShapeGeom, V3 } from './geometry.js';

/** A convex shape: the hull of 8–40 random points in an ellipsoid of semi-axes between 0.3 s and
 *  s, moved so the points' mean is the origin (inside the hull: the pairs' generator slides B out
 *  of A from coinciding origins). */
export function randomHull(s: number, rng: Rng): ShapeGeom {
  const n = 8 + Math.floor(rng.next() * 33);
  const axes = [0, 1, 2].map(() => rng.uniform(0.3, 1) * s);
  const pts: number[] = [];
  for (let i = 0; i < n; i++) {
    // uniform in the unit ball (a normal direction, radius ∝ u^(1/3)), then stretched
    const d = [rng.normal(), rng.normal(), rng.normal()];
    const l = Math.hypot(d[0], d[1], d[2]);
    const r = Math.cbrt(rng.next());
    for (let k = 0; k < 3; k++) pts.push((axes[k] * r * d[k]) / l);
  }
  const mean = [0, 1, 2].map((k) => pts.filter((_, i) => i % 3 === k).reduce((a, b) => a + b, 0) / n);
  for (let i = 0; i < pts.length; i++) pts[i] -= mean[i % 3];
  const hull = convexHull(pts);
  const index = new Map(hull.vert.map((v, i) => [v, i]));
  const vertices = hull.vert.flatMap((v) => [pts[3 * v], pts[3 * v + 1], pts[3 * v + 2]]);
  const faces = hull.face.map((v) => index.get(v)!);
  const half = [0, 1, 2].map((k) => Math.max(...vertices.filter((_, i) => i % 3 === k).map(Math.abs))) as V3;
  return { kind: 'convex', halfExtents: half, radius: 0, vertices, faces };
}

interface Plane {
  n: V3;
  off: number;
}
const planesOf = new WeakMap<readonly number[], Plane[]>();

/** The hull's face planes (outward unit normal, offset n·v over the face's vertices, the largest
 *  over all vertices so each plane supports the whole hull against round-off). */
function hullPlanes(s: ShapeGeom): Plane[] {
  const v = s.vertices!;
  const cached = planesOf.get(v);
  if (cached) return cached;
  const f = s.faces!;
  const P = (i: number): V3 => [v[3 * i], v[3 * i + 1], v[3 * i + 2]];
  const out: Plane[] = [];
  for (let k = 0; k < f.length; k += 3) {
    const [a, b, c] = [P(f[k]), P(f[k + 1]), P(f[k + 2])];
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const cr: V3 = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const l = Math.hypot(...cr);
    const n: V3 = [cr[0] / l, cr[1] / l, cr[2] / l];
    let off = -Infinity;
    for (let i = 0; i < v.length; i += 3) off = Math.max(off, n[0] * v[i] + n[1] * v[i + 1] + n[2] * v[i + 2]);
    out.push({ n, off });
  }
  planesOf.set(v, out);
  return out;
}

/** Signed distance from local point p to the convex shape's surface (see the file comment). */
export function hullPointDistance(s: ShapeGeom, p: readonly number[]): number {
  const planes = hullPlanes(s);
  let worst = -Infinity;
  for (const { n, off } of planes) worst = Math.max(worst, n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - off);
  if (worst <= 0) return worst;
  const v = s.vertices!;
  const D: V3[] = [];
  for (let i = 0; i < v.length; i += 3) D.push([v[i] - p[0], v[i + 1] - p[1], v[i + 2] - p[2]]);
  const x = minNormPoint(D).x;
  return Math.hypot(x[0], x[1], x[2]);
}
