// Convex hull of a finite 3-D point set by incremental construction (add one point at a time,
// delete the faces it sees, close the hole from its horizon). Faces are triangles with outward
// unit normals; coplanar neighbours stay separate triangles of the same plane, which is all the
// penetration depth needs (the smallest plane offset over the faces).

import { cross, dot, norm, sub, type V3 } from './geometry.js';

export interface HullFace {
  /** Indices into the input points, counter-clockwise seen from outside. */
  v: [number, number, number];
  /** Outward unit normal and offset: n·p = off on the face, n·p <= off for every input point. */
  n: V3;
  off: number;
}

function face(P: readonly V3[], a: number, b: number, c: number): HullFace {
  // The normal from the cross product at the vertex with the widest angle is the best conditioned;
  // for the small hulls here the plain one, recomputed from the longest edges, is enough.
  const c1 = cross(sub(P[b], P[a]), sub(P[c], P[a]));
  const c2 = cross(sub(P[c], P[b]), sub(P[a], P[b]));
  const c3 = cross(sub(P[a], P[c]), sub(P[b], P[c]));
  const best = [c1, c2, c3].reduce((x, y) => (norm(y) > norm(x) ? y : x));
  const l = norm(best);
  const n: V3 = [best[0] / l, best[1] / l, best[2] / l];
  const off = Math.max(dot(n, P[a]), dot(n, P[b]), dot(n, P[c]));
  return { v: [a, b, c], n, off };
}

/** The hull's faces, or null when the points are (numerically) flat: no interior. */
export function convexHull(P: readonly V3[]): HullFace[] | null {
  let scale = 0;
  for (const p of P) scale = Math.max(scale, norm(p));
  scale *= 2; // bounds every pairwise distance too
  const eps = 1e-13 * Math.max(scale, 1e-300);
  // Initial tetrahedron: two far points, the farthest from their line, the farthest from that plane.
  const i0 = 0;
  let i1 = 0;
  for (let i = 0; i < P.length; i++) if (norm(sub(P[i], P[i0])) > norm(sub(P[i1], P[i0]))) i1 = i;
  let i2 = -1;
  let best = 0;
  const e = sub(P[i1], P[i0]);
  for (let i = 0; i < P.length; i++) {
    const d = norm(cross(e, sub(P[i], P[i0])));
    if (d > best) [best, i2] = [d, i];
  }
  if (i2 < 0 || best <= eps * norm(e)) return null;
  const nrm = cross(e, sub(P[i2], P[i0]));
  let i3 = -1;
  best = 0;
  for (let i = 0; i < P.length; i++) {
    const d = Math.abs(dot(nrm, sub(P[i], P[i0]))) / norm(nrm);
    if (d > best) [best, i3] = [d, i];
  }
  if (i3 < 0 || best <= eps) return null;
  const inside: V3 = [0, 1, 2].map((k) => (P[i0][k] + P[i1][k] + P[i2][k] + P[i3][k]) / 4) as V3;
  const oriented = (a: number, b: number, c: number) => {
    const f = face(P, a, b, c);
    return dot(f.n, inside) > f.off ? face(P, a, c, b) : f;
  };
  let faces = [oriented(i0, i1, i2), oriented(i0, i1, i3), oriented(i0, i2, i3), oriented(i1, i2, i3)];
  const used = new Set([i0, i1, i2, i3]);
  const owner = new Int32Array(P.length * P.length).fill(-1);
  for (let p = 0; p < P.length; p++) {
    if (used.has(p)) continue;
    const visible = faces.map((f) => dot(f.n, P[p]) - f.off > eps);
    if (!visible.some(Boolean)) continue;
    // Horizon: directed edges of visible faces whose twin belongs to a face that stays.
    faces.forEach((f, k) => {
      for (let j = 0; j < 3; j++) owner[f.v[j] * P.length + f.v[(j + 1) % 3]] = k;
    });
    const next: HullFace[] = faces.filter((_, k) => !visible[k]);
    faces.forEach((f, k) => {
      if (!visible[k]) return;
      for (let j = 0; j < 3; j++) {
        const a = f.v[j];
        const b = f.v[(j + 1) % 3];
        const twin = owner[b * P.length + a];
        if (twin >= 0 && !visible[twin]) next.push(face(P, a, b, p));
      }
    });
    // Clear the edge table where this round wrote it (cheaper than clearing all n² entries).
    for (const f of faces) for (let j = 0; j < 3; j++) owner[f.v[j] * P.length + f.v[(j + 1) % 3]] = -1;
    faces = next;
  }
  // Offsets over all points: a face is a supporting plane of the whole set.
  for (const f of faces) for (const p of P) f.off = Math.max(f.off, dot(f.n, p));
  return faces;
}
