// The exact signed distance of a pair with a cylinder or an ellipsoid (and a shape that is not a
// point: the sphere's case is closed-form in exact.ts), from support functions alone:
//   sd = max over unit u of g(u),  g(u) = −h_A(u) − h_B(−u)  (u from A to B),
// g(u) being the separation of the two shapes along u (D = A − B: g = −h_D); for separated shapes
// sd is their distance, for overlapping ones minus the penetration depth, and the maximiser is the
// normal. Every g(u) is a lower bound on sd, so the answer can only err low.
// Search: g at 642 directions (an icosahedron subdivided twice, spacing ≈ 0.15 rad), then
// Nelder–Mead in the tangent plane from the best directions that are local maxima of the sample,
// restarted at its own answer with a shrinking simplex until it no longer moves (g is Lipschitz and
// piecewise smooth: its maximum is a smooth stationary point, a ridge or a vertex of the normal fan,
// all of which a restarted simplex settles on). Witness points: see directionSearchContact. The accuracy this reaches is measured against
// closed forms and the polytope method (test/collision-direction-search.test.ts, docs).

import type { ExactContact } from './exact-contact.js';
import { add, coreVertices, cross, dot, isPolytopeCore, norm, scale, sub, unit, type Pose, type ShapeGeom, type V3 } from './geometry.js';
import { minNormPoint } from './min-norm.js';
import { supportFace, supportPoint } from './support.js';

/** The support value of a shape as a fast closure (a polytope's world vertices made once). */
function supportFn(s: ShapeGeom, X: Pose): (d: V3) => number {
  if (isPolytopeCore(s)) {
    const vs = coreVertices(s, X);
    const r = s.radius;
    return (d) => {
      let m = -Infinity;
      for (const v of vs) m = Math.max(m, v[0] * d[0] + v[1] * d[1] + v[2] * d[2]);
      return m + r * norm(d);
    };
  }
  return (d) => dot(supportPoint(s, X, d), d);
}

/** Unit directions of an icosahedron subdivided `levels` times (10·4^levels + 2 of them). */
function sphereDirections(levels: number): V3[] {
  const t = (1 + Math.sqrt(5)) / 2;
  let verts: V3[] = [
    [-1, t, 0],
    [1, t, 0],
    [-1, -t, 0],
    [1, -t, 0],
    [0, -1, t],
    [0, 1, t],
    [0, -1, -t],
    [0, 1, -t],
    [t, 0, -1],
    [t, 0, 1],
    [-t, 0, -1],
    [-t, 0, 1],
  ].map((v) => unit(v));
  let faces = [
    [0, 11, 5],
    [0, 5, 1],
    [0, 1, 7],
    [0, 7, 10],
    [0, 10, 11],
    [1, 5, 9],
    [5, 11, 4],
    [11, 10, 2],
    [10, 7, 6],
    [7, 1, 8],
    [3, 9, 4],
    [3, 4, 2],
    [3, 2, 6],
    [3, 6, 8],
    [3, 8, 9],
    [4, 9, 5],
    [2, 4, 11],
    [6, 2, 10],
    [8, 6, 7],
    [9, 8, 1],
  ];
  for (let l = 0; l < levels; l++) {
    const mid = new Map<string, number>();
    const m = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let i = mid.get(key);
      if (i === undefined) {
        i = verts.length;
        verts.push(unit([verts[a][0] + verts[b][0], verts[a][1] + verts[b][1], verts[a][2] + verts[b][2]]));
        mid.set(key, i);
      }
      return i;
    };
    faces = faces.flatMap(([a, b, c]) => {
      const [ab, bc, ca] = [m(a, b), m(b, c), m(c, a)];
      return [
        [a, ab, ca],
        [b, bc, ab],
        [c, ca, bc],
        [ab, bc, ca],
      ];
    });
  }
  verts = verts.map((v) => unit(v));
  return verts;
}
const DIRECTIONS = sphereDirections(3); // 642 directions
const SPACING = 0.16; // their largest neighbour angle (rad), about

/** Maximises f over the 2-D plane by Nelder–Mead from x0 with initial step `step`; stops when the
 *  simplex is below `xtol` across or after `iters` steps. */
function nelderMead(f: (x: number, y: number) => number, x0: [number, number], step: number, xtol: number, iters: number) {
  let S: { x: [number, number]; v: number }[] = [x0, [x0[0] + step, x0[1]], [x0[0], x0[1] + step]].map((x) => ({
    x: x as [number, number],
    v: f(x[0], x[1]),
  }));
  const mk = (x: [number, number]) => ({ x, v: f(x[0], x[1]) });
  for (let k = 0; k < iters; k++) {
    S.sort((p, q) => q.v - p.v); // best first
    const size = Math.max(
      Math.hypot(S[1].x[0] - S[0].x[0], S[1].x[1] - S[0].x[1]),
      Math.hypot(S[2].x[0] - S[0].x[0], S[2].x[1] - S[0].x[1]),
    );
    if (size < xtol) break;
    const c: [number, number] = [(S[0].x[0] + S[1].x[0]) / 2, (S[0].x[1] + S[1].x[1]) / 2];
    const along = (t: number): [number, number] => [c[0] + t * (S[2].x[0] - c[0]), c[1] + t * (S[2].x[1] - c[1])];
    const r = mk(along(-1));
    if (r.v > S[0].v) {
      const e = mk(along(-2));
      S[2] = e.v > r.v ? e : r;
    } else if (r.v > S[1].v) S[2] = r;
    else {
      const inner = mk(along(r.v > S[2].v ? -0.5 : 0.5));
      if (inner.v > Math.max(r.v, S[2].v)) S[2] = inner;
      else S = [S[0], ...S.slice(1).map((p) => mk([(p.x[0] + S[0].x[0]) / 2, (p.x[1] + S[0].x[1]) / 2]))];
    }
  }
  S.sort((p, q) => q.v - p.v);
  return S[0];
}

/** The maximiser of g near u0: Nelder–Mead in u0's tangent plane, restarted about its own answer
 *  (each restart from a simplex 10× the last one's final size) until g stops improving. */
function refine(g: (u: V3) => number, u0: V3): { u: V3; v: number } {
  let u = u0;
  let v = g(u);
  let step = SPACING / 2;
  for (let restart = 0; restart < 8; restart++) {
    const a = Math.abs(u[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0];
    const t1 = unit(cross(u, a));
    const t2 = cross(u, t1);
    const at = (x: number, y: number): V3 =>
      unit([u[0] + x * t1[0] + y * t2[0], u[1] + x * t1[1] + y * t2[1], u[2] + x * t1[2] + y * t2[2]]);
    const best = nelderMead((x, y) => g(at(x, y)), [0, 0], step, 1e-14, 600);
    const moved = Math.hypot(...best.x);
    if (!(best.v > v)) break;
    u = at(best.x[0], best.x[1]);
    v = best.v;
    step = Math.max(10 * moved, 1e-9);
  }
  return { u, v };
}

/** The exact contact of a and b by the direction search (see the file comment). */
export function directionSearchContact(a: ShapeGeom, Xa: Pose, b: ShapeGeom, Xb: Pose): ExactContact {
  const hA = supportFn(a, Xa);
  const hB = supportFn(b, Xb);
  const g = (u: V3) => -hA(u) - hB([-u[0], -u[1], -u[2]]);
  const vals = DIRECTIONS.map(g);
  // seeds: the sample's best directions that beat every sample within 1.5 spacings (local maxima)
  const order = [...vals.keys()].sort((i, j) => vals[j] - vals[i]);
  const seeds: number[] = [];
  for (const i of order) {
    if (seeds.length === 4) break;
    if (seeds.some((j) => dot(DIRECTIONS[i], DIRECTIONS[j]) > Math.cos(1.5 * SPACING))) continue;
    seeds.push(i);
  }
  let best = { u: DIRECTIONS[order[0]], v: -Infinity };
  for (const i of seeds) {
    const r = refine(g, DIRECTIONS[i]);
    if (r.v > best.v) best = r;
  }
  const n = best.u;
  const dist = best.v;
  // Witnesses: a on A's face along n and b on B's along −n with b − a = dist·n, from the convex
  // weights of the minimum-norm point of {a_i + dist·n − b_j} (≈ 0: the faces' projections meet),
  // as exact.ts takes them for polytopes. The faces hold the points within 1e-6 of the size of
  // their support planes (the normal is known to ~3e-8 rad).
  const size = Math.max(norm(sub(Xa.pos, Xb.pos)), ...a.halfExtents, ...b.halfExtents, a.radius, b.radius);
  const FA = supportFace(a, Xa, n, 1e-6 * size);
  const FB = supportFace(b, Xb, scale(n, -1), 1e-6 * size);
  const pairs: [number, number][] = [];
  const D: V3[] = [];
  FA.forEach((p, i) =>
    FB.forEach((q, j) => {
      pairs.push([i, j]);
      D.push(sub(add(p, scale(n, dist)), q));
    }),
  );
  const mn = minNormPoint(D);
  let pointA: V3 = [0, 0, 0];
  let pointB: V3 = [0, 0, 0];
  mn.idx.forEach((k, m) => {
    pointA = add(pointA, scale(FA[pairs[k][0]], mn.w[m]));
    pointB = add(pointB, scale(FB[pairs[k][1]], mn.w[m]));
  });
  return { dist, normal: n, pointA, pointB, pos: scale(add(pointA, pointB), 0.5), gap: Infinity };
}
