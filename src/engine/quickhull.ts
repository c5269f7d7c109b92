// The convex hull of a point set (MuJoCo builds it with qhull "Qt": triangulated facets whose
// vertices are input points; a point within round-off of a facet is not a vertex). Quickhull:
// start from a tetrahedron of extreme points, then repeatedly take the point furthest outside a
// face, remove every face it sees and close the hole with a fan of faces from the horizon to it.
// Distances below `eps` (scaled to the point set's size) count as "on the face", so coplanar and
// duplicate points never become vertices and round-off never carves a face inward.

export interface Hull {
  /** Indices into the input points of the hull's vertices, ascending. */
  vert: number[];
  /** Triangles (three input-point indices each), counter-clockwise seen from outside. */
  face: number[];
}

/** Why no hull exists (the points are degenerate within `eps`); `kind` as MuJoCo names it. */
export class HullError extends Error {
  constructor(readonly kind: 'colocated' | 'collinear' | 'coplanar' | 'unclosed') {
    super(`points are ${kind}`);
  }
}

interface Face {
  a: number;
  b: number;
  c: number;
  /** Unit outward normal and offset: distance of p = n·p − d. */
  n: [number, number, number];
  d: number;
  /** Input points outside this face (distance > eps), not yet on the hull. */
  outside: number[];
  alive: boolean;
}

/** Relative tolerance: a few hundred ulps of the coordinates' magnitude (qhull's round-off bound is
 *  of this order; points this close to a face are on it). */
const REL_EPS = 256 * Number.EPSILON;

/** The hull of `p` (x y z per point). Throws HullError when the points span no volume. A point
 *  that became a vertex before the points around it (one in the middle of an edge or a face of the
 *  final hull) is not a corner: such points are found (cornerVertices) and the hull is made again
 *  without them, so the vertices are the corners alone, as qhull's merged facets leave them. */
export function convexHull(p: ArrayLike<number>): Hull {
  const first = quickhull(p);
  const corners = cornerVertices(p, first, tolerance(p));
  if (corners.length === first.vert.length) return first;
  const sub: number[] = [];
  for (const i of corners) sub.push(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
  const again = quickhull(sub);
  return { vert: again.vert.map((i) => corners[i]), face: again.face.map((i) => corners[i]) };
}

/** Distances below this are round-off: REL_EPS times the coordinates' magnitude. */
function tolerance(p: ArrayLike<number>): number {
  let scale = 0;
  for (let i = 0; i < p.length; i++) scale = Math.max(scale, Math.abs(p[i]));
  return REL_EPS * 3 * Math.max(scale, Number.MIN_VALUE);
}

/** The hull vertices that stick out: v is a corner when, along the angle-weighted mean d of its
 *  faces' normals, every neighbouring vertex u lies below it by more than eps (d·(u − v) < −eps);
 *  a point on an edge or inside a face has a neighbour level with it. */
function cornerVertices(p: ArrayLike<number>, h: Hull, eps: number): number[] {
  const n = Math.floor(p.length / 3);
  const d = new Float64Array(3 * n);
  const nbrs = new Map<number, Set<number>>();
  const at = (i: number): number[] => [p[3 * i], p[3 * i + 1], p[3 * i + 2]];
  for (let f = 0; f < h.face.length; f += 3) {
    const c = [h.face[f], h.face[f + 1], h.face[f + 2]];
    const P = c.map(at);
    const u = [P[1][0] - P[0][0], P[1][1] - P[0][1], P[1][2] - P[0][2]];
    const w = [P[2][0] - P[0][0], P[2][1] - P[0][1], P[2][2] - P[0][2]];
    const nn = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const len = Math.hypot(nn[0], nn[1], nn[2]);
    if (!(len > 0)) continue;
    for (let k = 0; k < 3; k++) {
      const [a, b, e] = [P[k], P[(k + 1) % 3], P[(k + 2) % 3]];
      const ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
      const ae = [e[0] - a[0], e[1] - a[1], e[2] - a[2]];
      const cos = (ab[0] * ae[0] + ab[1] * ae[1] + ab[2] * ae[2]) / (Math.hypot(ab[0], ab[1], ab[2]) * Math.hypot(ae[0], ae[1], ae[2]));
      const angle = Math.acos(Math.max(-1, Math.min(1, cos)));
      for (let j = 0; j < 3; j++) d[3 * c[k] + j] += (angle * nn[j]) / len;
      const s = nbrs.get(c[k]) ?? new Set<number>();
      s.add(c[(k + 1) % 3]).add(c[(k + 2) % 3]);
      nbrs.set(c[k], s);
    }
  }
  return h.vert.filter((v) => {
    const dl = Math.hypot(d[3 * v], d[3 * v + 1], d[3 * v + 2]);
    if (!(dl > 0)) return false;
    for (const u of nbrs.get(v) ?? []) {
      const below =
        (d[3 * v] * (p[3 * u] - p[3 * v]) + d[3 * v + 1] * (p[3 * u + 1] - p[3 * v + 1]) + d[3 * v + 2] * (p[3 * u + 2] - p[3 * v + 2])) /
        dl;
      if (!(below < -eps)) return false;
    }
    return true;
  });
}

function quickhull(p: ArrayLike<number>): Hull {
  const n = Math.floor(p.length / 3);
  const eps = tolerance(p);
  const x = (i: number, k: number): number => p[3 * i + k];

  const [i0, i1, i2, i3] = initialSimplex(p, n, eps);
  const faces: Face[] = [];
  // directed edge a→b (key a*n+b) → the face that has it
  const edgeFace = new Map<number, number>();

  const makeFace = (a: number, b: number, c: number): number => {
    const u = [x(b, 0) - x(a, 0), x(b, 1) - x(a, 1), x(b, 2) - x(a, 2)];
    const v = [x(c, 0) - x(a, 0), x(c, 1) - x(a, 1), x(c, 2) - x(a, 2)];
    const nx = u[1] * v[2] - u[2] * v[1];
    const ny = u[2] * v[0] - u[0] * v[2];
    const nz = u[0] * v[1] - u[1] * v[0];
    const len = Math.hypot(nx, ny, nz);
    const nn: [number, number, number] = len > 0 ? [nx / len, ny / len, nz / len] : [0, 0, 0];
    // offset from the face's centroid (less round-off than from one corner)
    const d = (nn[0] * (x(a, 0) + x(b, 0) + x(c, 0)) + nn[1] * (x(a, 1) + x(b, 1) + x(c, 1)) + nn[2] * (x(a, 2) + x(b, 2) + x(c, 2))) / 3;
    const id = faces.length;
    faces.push({ a, b, c, n: nn, d, outside: [], alive: true });
    edgeFace.set(a * n + b, id);
    edgeFace.set(b * n + c, id);
    edgeFace.set(c * n + a, id);
    return id;
  };
  const dist = (f: Face, i: number): number => f.n[0] * x(i, 0) + f.n[1] * x(i, 1) + f.n[2] * x(i, 2) - f.d;

  // the tetrahedron, each face wound so that the fourth point is behind it
  const orient = (a: number, b: number, c: number, behind: number): number => {
    const u = [x(b, 0) - x(a, 0), x(b, 1) - x(a, 1), x(b, 2) - x(a, 2)];
    const v = [x(c, 0) - x(a, 0), x(c, 1) - x(a, 1), x(c, 2) - x(a, 2)];
    const w = [x(behind, 0) - x(a, 0), x(behind, 1) - x(a, 1), x(behind, 2) - x(a, 2)];
    const side = w[0] * (u[1] * v[2] - u[2] * v[1]) + w[1] * (u[2] * v[0] - u[0] * v[2]) + w[2] * (u[0] * v[1] - u[1] * v[0]);
    return side > 0 ? makeFace(a, c, b) : makeFace(a, b, c);
  };
  const start = [orient(i0, i1, i2, i3), orient(i0, i1, i3, i2), orient(i0, i2, i3, i1), orient(i1, i2, i3, i0)];
  assignOutside(
    start.map((id) => faces[id]),
    rangeExcept(n, [i0, i1, i2, i3]),
    dist,
    eps,
  );

  const pending: number[] = [...start];
  while (pending.length > 0) {
    const fid = pending.pop()!;
    const f = faces[fid];
    if (!f.alive || f.outside.length === 0) continue;
    // the point furthest outside this face becomes a vertex
    let eye = f.outside[0];
    let best = dist(f, eye);
    for (const i of f.outside) {
      const di = dist(f, i);
      if (di > best) [eye, best] = [i, di];
    }
    // the faces the eye sees, grown from f across shared edges
    const visible: number[] = [fid];
    const seen = new Set<number>([fid]);
    for (let k = 0; k < visible.length; k++) {
      const g = faces[visible[k]];
      for (const [s, t] of edgesOf(g)) {
        const h = edgeFace.get(t * n + s)!;
        if (seen.has(h)) continue;
        seen.add(h);
        if (dist(faces[h], eye) > eps) visible.push(h);
      }
    }
    // horizon: edges of visible faces whose neighbour across them is not visible
    const visibleSet = new Set(visible);
    const horizon: [number, number][] = [];
    for (const id of visible) for (const [s, t] of edgesOf(faces[id])) if (!visibleSet.has(edgeFace.get(t * n + s)!)) horizon.push([s, t]);
    const orphans: number[] = [];
    for (const id of visible) {
      const g = faces[id];
      g.alive = false;
      for (const i of g.outside) if (i !== eye) orphans.push(i);
      g.outside = [];
      for (const [s, t] of edgesOf(g)) if (edgeFace.get(s * n + t) === id) edgeFace.delete(s * n + t);
    }
    const made = horizon.map(([s, t]) => makeFace(s, t, eye));
    assignOutside(
      made.map((id) => faces[id]),
      orphans,
      dist,
      eps,
    );
    pending.push(...made);
  }

  const face: number[] = [];
  const used = new Uint8Array(n);
  for (const f of faces) {
    if (!f.alive) continue;
    // a closed surface: every edge has its twin on a live face
    for (const [s, t] of edgesOf(f)) {
      const h = edgeFace.get(t * n + s);
      if (h === undefined || !faces[h].alive) throw new HullError('unclosed');
    }
    face.push(f.a, f.b, f.c);
    used[f.a] = used[f.b] = used[f.c] = 1;
  }
  const vert: number[] = [];
  for (let i = 0; i < n; i++) if (used[i]) vert.push(i);
  return { vert, face };
}

const edgesOf = (f: Face): [number, number][] => [
  [f.a, f.b],
  [f.b, f.c],
  [f.c, f.a],
];

function rangeExcept(n: number, skip: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (!skip.includes(i)) out.push(i);
  return out;
}

/** Gives each point to the face it is furthest outside of (beyond eps); points inside all are dropped. */
function assignOutside(fs: Face[], pts: number[], dist: (f: Face, i: number) => number, eps: number): void {
  for (const i of pts) {
    let best: Face | undefined;
    let bd = eps;
    for (const f of fs) {
      const di = dist(f, i);
      if (di > bd) [best, bd] = [f, di];
    }
    best?.outside.push(i);
  }
}

/** Four points spanning a tetrahedron: the farthest pair among the axis extremes, the point
 *  farthest from their line, then the point farthest from their plane. */
function initialSimplex(p: ArrayLike<number>, n: number, eps: number): [number, number, number, number] {
  const x = (i: number, k: number): number => p[3 * i + k];
  const ext: number[] = [];
  for (let k = 0; k < 3; k++) {
    let lo = 0;
    let hi = 0;
    for (let i = 1; i < n; i++) {
      if (x(i, k) < x(lo, k)) lo = i;
      if (x(i, k) > x(hi, k)) hi = i;
    }
    ext.push(lo, hi);
  }
  let i0 = 0;
  let i1 = 0;
  let far = -1;
  for (const a of ext)
    for (const b of ext) {
      const d = Math.hypot(x(a, 0) - x(b, 0), x(a, 1) - x(b, 1), x(a, 2) - x(b, 2));
      if (d > far) [i0, i1, far] = [a, b, d];
    }
  if (!(far > eps)) throw new HullError('colocated');
  const u = [x(i1, 0) - x(i0, 0), x(i1, 1) - x(i0, 1), x(i1, 2) - x(i0, 2)].map((c) => c / far);
  let i2 = -1;
  far = eps;
  for (let i = 0; i < n; i++) {
    const w = [x(i, 0) - x(i0, 0), x(i, 1) - x(i0, 1), x(i, 2) - x(i0, 2)];
    const c = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    const d = Math.hypot(c[0], c[1], c[2]);
    if (d > far) [i2, far] = [i, d];
  }
  if (i2 < 0) throw new HullError('collinear');
  const v = [x(i2, 0) - x(i0, 0), x(i2, 1) - x(i0, 1), x(i2, 2) - x(i0, 2)];
  const nrm = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const len = Math.hypot(nrm[0], nrm[1], nrm[2]);
  let i3 = -1;
  far = eps;
  for (let i = 0; i < n; i++) {
    const d = Math.abs((nrm[0] * (x(i, 0) - x(i0, 0)) + nrm[1] * (x(i, 1) - x(i0, 1)) + nrm[2] * (x(i, 2) - x(i0, 2))) / len);
    if (d > far) [i3, far] = [i, d];
  }
  if (i3 < 0) throw new HullError('coplanar');
  return [i0, i1, i2, i3];
}
