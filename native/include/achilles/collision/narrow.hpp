// Narrow phase: the contact manifold of two shapes, written once over the lane pack V.
//
// Every non-plane shape is a core (point, segment or box) swept by a radius, so
//     sd(A, B) = sd(core_A, core_B) − r_A − r_B                              (exact, overlap included)
// with the cores' normal. The core routines below return, per point i, a point pa_i on core A,
// the core separation dc_i along the pair normal n (A → B), and whether the point exists; finish()
// turns them into MuJoCo's contact: dist_i = dc_i − r_A − r_B, pos_i midway between the two
// surfaces, active iff dist_i < margin + gap (both shapes' summed).
//
// Exactness: point 0 always carries the pair's exact signed distance.
//  * point/segment cores: closed form (Ericson, Real-Time Collision Detection §5.1).
//  * box cores (and a segment against a box, as a box with zero extents): overlapping cores get
//    the exact penetration depth from the 15 separating axes (for polyhedra the minimum is at a
//    face normal of the Minkowski difference: a face normal or an edge × edge direction);
//    separated cores get the true closest-feature distance (vertex–box both ways and every edge
//    pair), since a separating axis only bounds the distance from below there.
//  * plane: the deepest core vertex.
// Manifolds (≤ 4 points): when the pair touches along a face (the best axis is a face normal, or
// the separated cores' distance is attained across a face), the incident face of the other box
// is clipped against the reference face: candidates are the incident vertices inside the
// reference rectangle, the reference corners inside the incident face, and the crossings of the
// incident edges with the reference sides (24 in all). Candidates whose distance is within the
// margin are reduced to 4 by reduce4(): the deepest, the farthest from it, the farthest from that
// line, and the farthest on the other side of the line (ties: lowest candidate index). Edge–edge
// contacts give one point; parallel capsules give two (the ends of the overlap); a box on a plane
// reduces its (up to 8) distinct corners the same way.
// Points other than 0 carry their own core separation along n minus both radii: exact for boxes,
// capsules and spheres; on rounded boxes tilted against each other the sweep is taken along n, so a
// secondary point's distance can read up to r·(1 − cos tilt) deeper than its true surface gap.
// Lanes never branch apart: per-lane choices are selects; a block only skips work no lane needs.
#pragma once

#include "../isa_namespace.hpp"

#include <limits>

#include "../bugs.hpp"
#include "pair_points.hpp"
#include "shape.hpp"
#include "../vmath.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// A shape as the narrow phase reads it: kind and sizes in the kernel's scalar type.
template <class T>
struct ShapeGeom {
  ShapeKind kind;
  T h[3];
  T r;
  // cylinder, ellipsoid, convex (shape.hpp): MuJoCo's geom_size, and a convex shape's hull vertices
  // (x y z each, in the shape frame, in double as the convex colliders run: narrow_convex.hpp; the
  // storage belongs to KCollision's KShape)
  T size[3] = {T(0), T(0), T(0)};
  const double* vert = nullptr;
  int nvert = 0;
  const int* graph = nullptr;                // a convex shape's hull graph (MuJoCo's mesh_graph layout), or none
  const int* extrema = nullptr;              // with a graph: its 27 hill-climbing seeds (hull_graph.hpp hull_extrema)
  const HullPolygonData* polygons = nullptr; // with faces: its polygons (hull_polygons.hpp), for the face clipping
  double rbound = 0;                         // its MuJoCo rbound, made once at load (convex_pair.hpp convex_geom), or 0
  bool multiccd = true;                      // the model's flag multiccd (Model::multiccd), which the convex collider of the shape's pairs reads
};

/// A pair's contacts in MuJoCo's order, each with its own normal: the closed forms below give every
/// point the pair's one normal (and leave slot 4 off); multiccd's perturbed points (convex.hpp) carry
/// the normal of their own re-run. `shared_normal`: every lane's points share n[0] (the rows then make
/// one contact frame for the pair).
template <class V>
struct Manifold {
  Vec3<V> n[kPairPoints];    // unit, from shape a to shape b
  Vec3<V> pos[kPairPoints];  // midway between the surfaces
  V dist[kPairPoints];       // signed distance (negative: penetration)
  MaskOf<V> on[kPairPoints]; // slot holds a contact
  bool shared_normal;
};

template <class V>
struct CoreContact {
  Vec3<V> n;
  Vec3<V> pa[4];
  V dc[4];
  MaskOf<V> has[4];
};

template <class V>
struct CoreBox {
  Mat3<V> R;
  Vec3<V> p;
  V h[3];
};

template <class T>
struct Tol {
  static constexpr T eps = std::numeric_limits<T>::epsilon();
};

template <class V>
inline void clear(CoreContact<V>& c) {
  c.n = splat3<V>(0, 0, 1);
  for (int i = 0; i < 4; ++i) {
    c.pa[i] = splat3<V>(0, 0, 0);
    c.dc[i] = V(0);
    c.has[i] = mask_false<V>();
  }
}

/// n = d/|d|, or `fallback` where d is zero.
template <class V>
inline Vec3<V> normalize_or(const Vec3<V>& d, const Vec3<V>& fallback, V& len) {
  const V l2 = dot(d, d);
  len = vsqrt(l2);
  const MaskOf<V> ok = l2 > V(0);
  const V inv = V(1) / vselect(ok, len, V(1));
  return sel3(ok, inv * d, fallback);
}

/// A unit vector perpendicular to d (d ≠ 0), for the normals of coincident cores.
template <class V>
inline Vec3<V> any_perpendicular(const Vec3<V>& d) {
  const Vec3<V> c1 = cross(d, splat3<V>(1, 0, 0)), c2 = cross(d, splat3<V>(0, 1, 0));
  const Vec3<V> c = sel3(dot(c1, c1) > dot(c2, c2), c1, c2);
  V len;
  return normalize_or(c, splat3<V>(0, 0, 1), len);
}

// ---- closest points -----------------------------------------------------------------------

/// Closest points of segments p1 + s·d1 and p2 + t·d2, s, t ∈ [0, 1] (Ericson §5.1.9, degenerate
/// segments included).
template <class V>
inline void segment_segment(const Vec3<V>& p1, const Vec3<V>& d1, const Vec3<V>& p2, const Vec3<V>& d2, V& s, V& t) {
  const Vec3<V> r = p1 - p2;
  const V a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r), c = dot(d1, r), b = dot(d1, d2);
  const MaskOf<V> aPos = a > V(0), ePos = e > V(0);
  const V sa = vselect(aPos, a, V(1)), se = vselect(ePos, e, V(1));
  const V denom = a * e - b * b;
  const MaskOf<V> dPos = denom > V(0);
  s = vselect(dPos, vclamp((b * f - c * e) / vselect(dPos, denom, V(1)), V(0), V(1)), V(0));
  const V tn = (b * s + f) / se;
  s = vselect(tn < V(0), vclamp(-c / sa, V(0), V(1)), vselect(tn > V(1), vclamp((b - c) / sa, V(0), V(1)), s));
  t = vclamp(tn, V(0), V(1));
  // degenerate segments: a point against a segment, or two points
  t = vselect(aPos, t, vclamp(f / se, V(0), V(1)));
  s = vselect(aPos, s, V(0));
  s = vselect(ePos, s, vclamp(-c / sa, V(0), V(1)));
  t = vselect(ePos, t, V(0));
  s = vselect(vor(aPos, ePos), s, V(0));
}

/// Closest point of box (R, p, h) to the world point P, the signed distance (negative inside)
/// and the outward normal at the closest surface point (local axis of least penetration inside).
template <class V>
inline void point_box(const CoreBox<V>& B, const Vec3<V>& P, Vec3<V>& surf, Vec3<V>& n, V& sd) {
  const Vec3<V> q = mulT(B.R, P - B.p);
  const V qa[3] = {q.x, q.y, q.z};
  V c[3], d[3];
  for (int k = 0; k < 3; ++k) {
    c[k] = vclamp(qa[k], -B.h[k], B.h[k]);
    d[k] = qa[k] - c[k];
  }
  const V l2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  const MaskOf<V> outside = l2 > V(0);
  const V len = vsqrt(l2);
  const V inv = V(1) / vselect(outside, len, V(1));
  // inside: the face of least penetration (first axis on ties)
  V best = vabs(qa[0]) - B.h[0];
  V nl[3] = {vsign(qa[0]), V(0), V(0)};
  V s[3] = {vsign(qa[0]) * B.h[0], qa[1], qa[2]};
  for (int k = 1; k < 3; ++k) {
    const V pen = vabs(qa[k]) - B.h[k];
    const MaskOf<V> better = pen > best;
    best = vselect(better, pen, best);
    for (int j = 0; j < 3; ++j) {
      nl[j] = vselect(better, j == k ? vsign(qa[k]) : V(0), nl[j]);
      s[j] = vselect(better, j == k ? vsign(qa[k]) * B.h[k] : qa[j], s[j]);
    }
  }
  for (int j = 0; j < 3; ++j) {
    nl[j] = vselect(outside, d[j] * inv, nl[j]);
    s[j] = vselect(outside, c[j], s[j]);
  }
  sd = vselect(outside, len, best);
  n = mul(B.R, Vec3<V>{nl[0], nl[1], nl[2]});
  surf = B.p + mul(B.R, Vec3<V>{s[0], s[1], s[2]});
}

/// Closest point of box (R, p, h) to P (P itself when inside).
template <class V>
inline Vec3<V> clamp_to_box(const CoreBox<V>& B, const Vec3<V>& P) {
  const Vec3<V> q = mulT(B.R, P - B.p);
  return B.p + mul(B.R, Vec3<V>{vclamp(q.x, -B.h[0], B.h[0]), vclamp(q.y, -B.h[1], B.h[1]), vclamp(q.z, -B.h[2], B.h[2])});
}

// ---- manifold reduction -------------------------------------------------------------------

/// Keep ≤ 4 of K candidates (plane coordinates x, y; separation z; core-A point pa): the deepest,
/// the farthest from it, the farthest from the line through both, and the farthest on the other
/// side of that line. Points closer than `tol` (length) are duplicates. Strict compares: ties keep
/// the lowest index, so the choice is the same on every lane width.
template <class V, int K>
inline void reduce4(const V* x, const V* y, const V* z, const Vec3<V>* pa, const MaskOf<V>* valid, ScalarOf<V> tol, CoreContact<V>& out) {
  // candidates invalid in every lane change nothing below: walk the others, in index order
  int live[K], nlive = 0;
  for (int k = 0; k < K; ++k)
    if (vany(valid[k])) live[nlive++] = k;
  V bx = V(0), by = V(0), bz = V(0);
  Vec3<V> bp = splat3<V>(0, 0, 0);
  MaskOf<V> found = mask_false<V>();
  for (int e = 0; e < nlive; ++e) {
    const int k = live[e];
    const MaskOf<V> better = vand(valid[k], vor(vnot(found), z[k] < bz));
    bx = vselect(better, x[k], bx);
    by = vselect(better, y[k], by);
    bz = vselect(better, z[k], bz);
    bp = sel3(better, pa[k], bp);
    found = vor(found, valid[k]);
  }
  out.has[0] = found;
  out.pa[0] = bp;
  out.dc[0] = bz;
  const V x0 = bx, y0 = by;
  // farthest from point 0
  V best = V(tol * tol);
  MaskOf<V> f1 = mask_false<V>();
  V x1 = V(0), y1 = V(0), z1 = V(0);
  Vec3<V> p1 = splat3<V>(0, 0, 0);
  for (int e = 0; e < nlive; ++e) {
    const int k = live[e];
    const V dx = x[k] - x0, dy = y[k] - y0;
    const V sc = dx * dx + dy * dy;
    const MaskOf<V> better = vand(valid[k], sc > best);
    best = vselect(better, sc, best);
    x1 = vselect(better, x[k], x1);
    y1 = vselect(better, y[k], y1);
    z1 = vselect(better, z[k], z1);
    p1 = sel3(better, pa[k], p1);
    f1 = vor(f1, better);
  }
  out.has[1] = vand(found, f1);
  out.pa[1] = p1;
  out.dc[1] = z1;
  // farthest from the line 0–1, then farthest on the other side
  const V ex = x1 - x0, ey = y1 - y0;
  const V len01 = vsqrt(ex * ex + ey * ey);
  const V areaTol = V(tol) * len01;
  V best2 = areaTol, signed2 = V(0), z2 = V(0);
  MaskOf<V> f2 = mask_false<V>();
  Vec3<V> p2 = splat3<V>(0, 0, 0);
  for (int e = 0; e < nlive; ++e) {
    const int k = live[e];
    const V ar = ex * (y[k] - y0) - ey * (x[k] - x0);
    const MaskOf<V> better = vand(valid[k], vabs(ar) > best2);
    best2 = vselect(better, vabs(ar), best2);
    signed2 = vselect(better, ar, signed2);
    z2 = vselect(better, z[k], z2);
    p2 = sel3(better, pa[k], p2);
    f2 = vor(f2, better);
  }
  out.has[2] = vand(out.has[1], f2);
  out.pa[2] = p2;
  out.dc[2] = z2;
  const V side = vsign(signed2);
  V best3 = areaTol, z3 = V(0);
  MaskOf<V> f3 = mask_false<V>();
  Vec3<V> p3 = splat3<V>(0, 0, 0);
  for (int e = 0; e < nlive; ++e) {
    const int k = live[e];
    const V ar = -side * (ex * (y[k] - y0) - ey * (x[k] - x0));
    const MaskOf<V> better = vand(valid[k], ar > best3);
    best3 = vselect(better, ar, best3);
    z3 = vselect(better, z[k], z3);
    p3 = sel3(better, pa[k], p3);
    f3 = vor(f3, better);
  }
  out.has[3] = vand(out.has[2], f3);
  out.pa[3] = p3;
  out.dc[3] = z3;
}

// ---- core pairs ---------------------------------------------------------------------------

/// Distinct corners of a box core (a zero extent collapses its two signs into one).
template <class V>
inline int box_corners(const CoreBox<V>& B, const ScalarOf<V>* h, Vec3<V>* out) {
  int n = 0;
  const int sx = h[0] > 0 ? 2 : 1, sy = h[1] > 0 ? 2 : 1, sz = h[2] > 0 ? 2 : 1;
  const Vec3<V> ax = col(B.R, 0), ay = col(B.R, 1), az = col(B.R, 2);
  for (int i = 0; i < sx; ++i)
    for (int j = 0; j < sy; ++j)
      for (int k = 0; k < sz; ++k) {
        const V a = i ? -B.h[0] : B.h[0], b = j ? -B.h[1] : B.h[1], c = k ? -B.h[2] : B.h[2];
        out[n++] = B.p + a * ax + b * ay + c * az;
      }
  return n;
}

/// Plane (static, A) against any core B given by its distinct corners: deepest corner first.
template <class V, int K>
inline void plane_corners(const Transform<V>& XP, const Vec3<V>* corners, int n, ScalarOf<V> zmax, ScalarOf<V> tol, CoreContact<V>& out) {
  const Vec3<V> u = col(XP.R, 0), v = col(XP.R, 1), nP = col(XP.R, 2);
  V x[K], y[K], z[K];
  Vec3<V> pa[K];
  MaskOf<V> valid[K];
  for (int k = 0; k < K; ++k) {
    if (k < n) {
      const Vec3<V> d = corners[k] - XP.p;
      x[k] = dot(d, u);
      y[k] = dot(d, v);
      z[k] = dot(d, nP);
      pa[k] = corners[k] - z[k] * nP;
      valid[k] = z[k] < V(zmax);
    } else {
      x[k] = y[k] = z[k] = V(0);
      pa[k] = splat3<V>(0, 0, 0);
      valid[k] = mask_false<V>();
    }
  }
  reduce4<V, K>(x, y, z, pa, valid, tol, out);
  out.n = nP;
}

/// Two points: one contact (a on core A).
template <class V>
inline void point_point(const Vec3<V>& a, const Vec3<V>& b, const Vec3<V>& fallback, CoreContact<V>& out) {
  V len;
  out.n = normalize_or(b - a, fallback, len);
  out.pa[0] = a;
  out.dc[0] = len;
  out.has[0] = mask_true<V>();
}

/// Segment a0 + s·da (core A) against segment b0 + t·db (core B); a second point at the far end of
/// the overlap when the segments are parallel to within 1e-3 rad.
template <class V>
inline void segment_pair(const Vec3<V>& a0, const Vec3<V>& da, const Vec3<V>& b0, const Vec3<V>& db, ScalarOf<V> zmax, ScalarOf<V> tol,
                         CoreContact<V>& out) {
  V s, t;
  segment_segment(a0, da, b0, db, s, t);
  const Vec3<V> pa = a0 + s * da, pb = b0 + t * db;
  // coincident cores: perpendicular to both axes (or to A's), oriented from A's centre to B's
  const Vec3<V> cr = cross(da, db);
  V crl;
  const Vec3<V> fb0 = normalize_or(cr, any_perpendicular(sel3(dot(da, da) > V(0), da, sel3(dot(db, db) > V(0), db, splat3<V>(0, 0, 1)))), crl);
  const Vec3<V> centres = (b0 + V(0.5) * db) - (a0 + V(0.5) * da);
  const Vec3<V> fb = vsign(dot(fb0, centres)) * fb0;
  V len;
  out.n = normalize_or(pb - pa, fb, len);
  out.pa[0] = pa;
  out.dc[0] = len;
  out.has[0] = mask_true<V>();
  // parallel: the other end of the overlap of B's projection on A
  const V aa = dot(da, da), bb = dot(db, db);
  const MaskOf<V> parallel = vand(vand(aa > V(0), bb > V(0)), dot(cr, cr) <= V(1e-6) * aa * bb);
  // closest points inside both segments (crossing axes): pb − pa is along da × db, whose direction
  // is exact to the rotations' rounding, while pb − pa carries the positions' rounding over len
  const MaskOf<V> inside = vand(vand(s > V(0), s < V(1)), vand(t > V(0), t < V(1)));
  out.n = sel3(vand(vand(inside, vnot(parallel)), len > V(0)), vsign(dot(fb0, pb - pa)) * fb0, out.n);
  const V sa = vselect(aa > V(0), aa, V(1));
  const V u0 = dot(b0 - a0, da) / sa, u1 = dot(b0 + db - a0, da) / sa;
  const V lo = vmax(V(0), vmin(u0, u1)), hi = vmin(V(1), vmax(u0, u1));
  const V s2 = vselect(vabs(lo - s) > vabs(hi - s), lo, hi);
  const Vec3<V> q = a0 + s2 * da;
  const V t2 = vclamp(dot(q - b0, db) / vselect(bb > V(0), bb, V(1)), V(0), V(1));
  const Vec3<V> q2 = b0 + t2 * db;
  const V dc2 = dot(q2 - q, out.n);
  out.pa[1] = q;
  out.dc[1] = dc2;
  out.has[1] = vand(vand(parallel, hi > lo), vand(vabs(s2 - s) * vsqrt(aa) > V(tol), dc2 < V(zmax)));
}

/// Box core A against box core B (either may have zero extents: a segment is a box (0, 0, l)).
template <class V>
inline void box_box(const CoreBox<V>& A, const ScalarOf<V>* ha, const CoreBox<V>& B, const ScalarOf<V>* hb, ScalarOf<V> zmax, CoreContact<V>& out) {
  using T = ScalarOf<V>;
  const T S = ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2] + T(1e-30);
  const T tieTol = T(64) * Tol<T>::eps * S;
  const T dupTol = T(1e-6) * S * (sizeof(T) == 4 ? T(100) : T(1));
  const T edgeMin = sizeof(T) == 4 ? T(5e-3) : T(6e-6); // |a_i × b_j| below this: skip (≈ ε^(1/3))
  const Vec3<V> a[3] = {col(A.R, 0), col(A.R, 1), col(A.R, 2)};
  const Vec3<V> b[3] = {col(B.R, 0), col(B.R, 1), col(B.R, 2)};
  const Vec3<V> t = B.p - A.p;
  V C[3][3], AC[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      C[i][j] = dot(a[i], b[j]);
      AC[i][j] = vabs(C[i][j]);
    }
  V ta[3], tb[3];
  for (int i = 0; i < 3; ++i) {
    ta[i] = dot(t, a[i]);
    tb[i] = dot(t, b[i]);
  }

  // Separating axes in a fixed order: real faces, real edge pairs, then the degenerate ones
  // (zero-area faces, zero-length edges) which can only tie a real axis. kind: 0..2 face of A,
  // 3..5 face of B, 6 + 3i + j edge pair.
  int order[15], no = 0;
  bool real[15];
  auto faceReal = [](const T* h, int i) { return h[(i + 1) % 3] > 0 && h[(i + 2) % 3] > 0; };
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < 3; ++i)
      if (faceReal(ha, i) == (pass == 0)) {
        real[no] = pass == 0;
        order[no++] = i;
      }
    for (int j = 0; j < 3; ++j)
      if (faceReal(hb, j) == (pass == 0)) {
        real[no] = pass == 0;
        order[no++] = 3 + j;
      }
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        if ((ha[i] > 0 && hb[j] > 0) == (pass == 0)) {
          real[no] = pass == 0;
          order[no++] = 6 + 3 * i + j;
        }
  }
  V best = V(-std::numeric_limits<T>::infinity());
  Vec3<V> nBest = splat3<V>(0, 0, 1);
  MaskOf<V> isFaceA[3], isFaceB[3], isEdge[9];
  for (int k = 0; k < 3; ++k) {
    isFaceA[k] = mask_false<V>();
    isFaceB[k] = mask_false<V>();
  }
  for (int k = 0; k < 9; ++k) isEdge[k] = mask_false<V>();
  for (int o = 0; o < 15; ++o) {
    const int kind = order[o];
    V sep;
    Vec3<V> n;
    MaskOf<V> ok = mask_true<V>();
    if (kind < 3) {
      const int i = kind;
      sep = vabs(ta[i]) - A.h[i] - (B.h[0] * AC[i][0] + B.h[1] * AC[i][1] + B.h[2] * AC[i][2]);
      n = vsign(ta[i]) * a[i];
    } else if (kind < 6) {
      const int j = kind - 3;
      sep = vabs(tb[j]) - B.h[j] - (A.h[0] * AC[0][j] + A.h[1] * AC[1][j] + A.h[2] * AC[2][j]);
      n = vsign(tb[j]) * b[j];
    } else {
      const int i = (kind - 6) / 3, j = (kind - 6) % 3;
      const Vec3<V> L = cross(a[i], b[j]);
      const V len = vsqrt(dot(L, L));
      ok = len > V(edgeMin);
      const V inv = V(1) / vselect(ok, len, V(1));
      const Vec3<V> Ln = inv * L;
      const V rA = A.h[0] * vabs(dot(a[0], Ln)) + A.h[1] * vabs(dot(a[1], Ln)) + A.h[2] * vabs(dot(a[2], Ln));
      const V rB = B.h[0] * vabs(dot(b[0], Ln)) + B.h[1] * vabs(dot(b[1], Ln)) + B.h[2] * vabs(dot(b[2], Ln));
      const V tl = dot(t, Ln);
      sep = vabs(tl) - rA - rB;
      n = vsign(tl) * Ln;
    }
    const MaskOf<V> better = vand(ok, o == 0 ? mask_true<V>() : sep > best + V(kind >= 6 || !real[o] ? tieTol : T(0)));
    best = vselect(better, sep, best);
    nBest = sel3(better, n, nBest);
    for (int k = 0; k < 3; ++k) {
      isFaceA[k] = vselect_mask(better, kind == k, isFaceA[k]);
      isFaceB[k] = vselect_mask(better, kind == 3 + k, isFaceB[k]);
    }
    for (int k = 0; k < 9; ++k) isEdge[k] = vselect_mask(better, kind == 6 + k, isEdge[k]);
  }
  MaskOf<V> faceA = vor(vor(isFaceA[0], isFaceA[1]), isFaceA[2]);
  MaskOf<V> faceB = vor(vor(isFaceB[0], isFaceB[1]), isFaceB[2]);
  const MaskOf<V> overlap = best <= V(0);
  V exact = best;
  Vec3<V> n = nBest;
  Vec3<V> pointA = A.p;
  MaskOf<V> pointType = mask_false<V>();

  // Edge-pair axis: the closest points of the two edges supporting it (A's along n, B's along −n).
  const MaskOf<V> edgeAxis = vand(vnot(faceA), vnot(faceB));
  Vec3<V> eA = A.p, eB = B.p, dA = splat3<V>(0, 0, 0), dB = splat3<V>(0, 0, 0);
  V sE = V(0), tE = V(0);
  if (vany(edgeAxis)) {
    for (int k = 0; k < 3; ++k) {
      const V gA = vsign(dot(nBest, a[k])) * A.h[k], gB = -vsign(dot(nBest, b[k])) * B.h[k];
      eA = eA + gA * a[k];
      eB = eB + gB * b[k];
      MaskOf<V> selA = mask_false<V>(), selB = mask_false<V>();
      for (int j = 0; j < 3; ++j) {
        selA = vor(selA, isEdge[3 * k + j]);
        selB = vor(selB, isEdge[3 * j + k]);
      }
      dA = sel3(selA, (V(-2) * gA) * a[k], dA);
      dB = sel3(selB, (V(-2) * gB) * b[k], dB);
    }
    segment_segment(eA, dA, eB, dB, sE, tE);
  }

  // Separated cores within reach: the true distance between closest features.
  const MaskOf<V> near = vand(vnot(overlap), best < V(zmax));
  if (vany(near)) {
    V d2 = V(std::numeric_limits<T>::infinity());
    Vec3<V> pa = A.p, pb = B.p;
    auto keep = [&](const Vec3<V>& p, const Vec3<V>& q) {
      const Vec3<V> d = q - p;
      const V l2 = dot(d, d);
      const MaskOf<V> m = l2 < d2;
      d2 = vselect(m, l2, d2);
      pa = sel3(m, p, pa);
      pb = sel3(m, q, pb);
    };
    Vec3<V> ca[8], cb[8];
    const int na = box_corners(A, ha, ca), nb = box_corners(B, hb, cb);
    for (int k = 0; k < na; ++k) keep(ca[k], clamp_to_box(B, ca[k]));
    for (int k = 0; k < nb; ++k) keep(clamp_to_box(A, cb[k]), cb[k]);
    // edges along each non-zero axis
    for (int i = 0; i < 3; ++i) {
      if (!(ha[i] > 0)) continue;
      const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
      for (int ua = 0; ua < (ha[i1] > 0 ? 2 : 1); ++ua)
        for (int va = 0; va < (ha[i2] > 0 ? 2 : 1); ++va) {
          const Vec3<V> e0 = A.p + (ua ? -A.h[i1] : A.h[i1]) * a[i1] + (va ? -A.h[i2] : A.h[i2]) * a[i2] - A.h[i] * a[i];
          const Vec3<V> ed = (V(2) * A.h[i]) * a[i];
          for (int j = 0; j < 3; ++j) {
            if (!(hb[j] > 0)) continue;
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            for (int ub = 0; ub < (hb[j1] > 0 ? 2 : 1); ++ub)
              for (int vb = 0; vb < (hb[j2] > 0 ? 2 : 1); ++vb) {
                const Vec3<V> f0 = B.p + (ub ? -B.h[j1] : B.h[j1]) * b[j1] + (vb ? -B.h[j2] : B.h[j2]) * b[j2] - B.h[j] * b[j];
                const Vec3<V> fd = (V(2) * B.h[j]) * b[j];
                V s, tt;
                segment_segment(e0, ed, f0, fd, s, tt);
                keep(e0 + s * ed, f0 + tt * fd);
              }
          }
        }
    }
    V len;
    const Vec3<V> nc = normalize_or(pb - pa, nBest, len);
    // Keep the best axis where it attains the distance: its normal is then exact to the rotations'
    // rounding, while pb − pa carries the positions' rounding over len. Decided from where the
    // closest points lie, to their own rounding (a distance test cannot: a point e past a face's
    // edge adds only e²/2h to the distance h but turns the normal by e/h).
    //  * a face: the other core's closest point lies over the face (tangential coordinates in the
    //    reference box within the face rectangle);
    //  * an edge pair: the supporting edges' closest points lie inside both edges (clamped
    //    parameters strictly between 0 and 1), so they differ along the axis only.
    const Vec3<V> qA = mulT(A.R, pb - A.p), qB = mulT(B.R, pa - B.p);
    const V q[3] = {vselect(faceA, qA.x, qB.x), vselect(faceA, qA.y, qB.y), vselect(faceA, qA.z, qB.z)};
    auto amax = [](const Vec3<V>& p) { return vmax(vabs(p.x), vmax(vabs(p.y), vabs(p.z))); };
    const V overTol = V(T(8) * Tol<T>::eps) * (V(S) + amax(A.p) + amax(B.p));
    MaskOf<V> acrossFace = vor(faceA, faceB);
    for (int k = 0; k < 3; ++k) {
      const MaskOf<V> normalAxis = vor(isFaceA[k], isFaceB[k]);
      acrossFace = vand(acrossFace, vor(normalAxis, vabs(q[k]) - vselect(faceA, A.h[k], B.h[k]) <= overTol));
    }
    const MaskOf<V> acrossEdges = vand(vand(edgeAxis, vand(sE > V(0), sE < V(1))), vand(tE > V(0), tE < V(1)));
    exact = vselect(near, len, exact);
    pointType = vand(near, vnot(vor(acrossFace, acrossEdges)));
    n = sel3(pointType, nc, n);
    pointA = pa;
  }
  faceA = vand(faceA, vnot(pointType));
  faceB = vand(vand(faceB, vnot(faceA)), vnot(pointType));
  const MaskOf<V> edgeType = vand(vand(vnot(faceA), vnot(faceB)), vnot(pointType));

  clear(out);
  out.n = n;
  // point type: the closest features
  out.pa[0] = pointA;
  out.dc[0] = exact;
  out.has[0] = pointType;

  // edge–edge: the closest points of the two supporting edges
  out.pa[0] = sel3(edgeType, eA + sE * dA, out.pa[0]);
  out.has[0] = vor(out.has[0], edgeType);

  // face: clip the incident face against the reference face
  const MaskOf<V> faceType = vor(faceA, faceB);
  if (vany(faceType)) {
    // reference box (A where faceA, else B) and incident box, per lane
    CoreBox<V> Rf, In;
    for (int e = 0; e < 9; ++e) {
      Rf.R.m[e] = vselect(faceA, A.R.m[e], B.R.m[e]);
      In.R.m[e] = vselect(faceA, B.R.m[e], A.R.m[e]);
    }
    Rf.p = sel3(faceA, A.p, B.p);
    In.p = sel3(faceA, B.p, A.p);
    for (int k = 0; k < 3; ++k) {
      Rf.h[k] = vselect(faceA, A.h[k], B.h[k]);
      In.h[k] = vselect(faceA, B.h[k], A.h[k]);
    }
    const Vec3<V> nR = sel3(faceA, n, -n); // out of the reference face, toward the incident box
    MaskOf<V> ax[3];
    for (int k = 0; k < 3; ++k) ax[k] = vor(isFaceA[k], isFaceB[k]);
    const Vec3<V> r0 = col(Rf.R, 0), r1 = col(Rf.R, 1), r2 = col(Rf.R, 2);
    const Vec3<V> u = sel3(ax[0], r1, sel3(ax[1], r2, r0));
    const Vec3<V> v = sel3(ax[0], r2, sel3(ax[1], r0, r1));
    const V hn = vselect(ax[0], Rf.h[0], vselect(ax[1], Rf.h[1], Rf.h[2]));
    const V eu = vselect(ax[0], Rf.h[1], vselect(ax[1], Rf.h[2], Rf.h[0]));
    const V ev = vselect(ax[0], Rf.h[2], vselect(ax[1], Rf.h[0], Rf.h[1]));
    const Vec3<V> cR = Rf.p + hn * nR;
    // incident face: the face of the incident box most anti-parallel to nR
    const Vec3<V> i0 = col(In.R, 0), i1 = col(In.R, 1), i2 = col(In.R, 2);
    const V g0 = dot(i0, nR), g1 = dot(i1, nR), g2 = dot(i2, nR);
    const MaskOf<V> k0 = vand(vabs(g0) >= vabs(g1), vabs(g0) >= vabs(g2));
    const MaskOf<V> k1 = vand(vnot(k0), vabs(g1) >= vabs(g2));
    const Vec3<V> nI0 = sel3(k0, i0, sel3(k1, i1, i2));
    const V gk = vselect(k0, g0, vselect(k1, g1, g2));
    const V hk = vselect(k0, In.h[0], vselect(k1, In.h[1], In.h[2]));
    const Vec3<V> e1 = sel3(k0, i1, sel3(k1, i2, i0)), e2 = sel3(k0, i2, sel3(k1, i0, i1));
    const V h1 = vselect(k0, In.h[1], vselect(k1, In.h[2], In.h[0])), h2 = vselect(k0, In.h[2], vselect(k1, In.h[0], In.h[1]));
    const Vec3<V> nI = (-vsign(gk)) * nI0; // incident face normal, toward the reference
    const Vec3<V> cI = In.p + hk * nI;
    const T inTol = T(64) * Tol<T>::eps * S;
    constexpr int K = 24;
    V x[K], y[K], z[K];
    Vec3<V> pa[K];
    MaskOf<V> valid[K];
    auto put = [&](int k, const Vec3<V>& P, const MaskOf<V>& ok) {
      const Vec3<V> d = P - cR;
      x[k] = dot(d, u);
      y[k] = dot(d, v);
      z[k] = dot(d, nR);
      const Vec3<V> onRef = cR + x[k] * u + y[k] * v;
      pa[k] = sel3(faceA, onRef, P);
      valid[k] = vand(ok, z[k] < V(zmax));
    };
    // incident corners, in polygon order
    Vec3<V> P[4];
    const V s1[4] = {V(1), V(-1), V(-1), V(1)}, s2[4] = {V(1), V(1), V(-1), V(-1)};
    for (int c = 0; c < 4; ++c) {
      P[c] = cI + (s1[c] * h1) * e1 + (s2[c] * h2) * e2;
      const Vec3<V> d = P[c] - cR;
      const MaskOf<V> inside = vand(vabs(dot(d, u)) <= eu + V(inTol), vabs(dot(d, v)) <= ev + V(inTol));
      put(c, P[c], ACH_BUG(CollisionManifoldClip) ? mask_true<V>() : inside);
    }
    // reference corners inside the incident face (projected along nR onto its plane)
    const V den = dot(nR, nI);
    const V sden = vselect(vabs(den) > V(0), den, V(1));
    for (int c = 0; c < 4; ++c) {
      const Vec3<V> Q = cR + (s1[c] * eu) * u + (s2[c] * ev) * v;
      const V lam = dot(cI - Q, nI) / sden;
      const Vec3<V> Pq = Q + lam * nR;
      const Vec3<V> d = Pq - cI;
      const MaskOf<V> inside = vand(vabs(dot(d, e1)) <= h1 + V(inTol), vabs(dot(d, e2)) <= h2 + V(inTol));
      put(4 + c, Pq, inside);
    }
    // incident edges crossing the reference sides x = ±eu, y = ±ev
    for (int c = 0; c < 4; ++c) {
      const Vec3<V> p0 = P[c], p1 = P[(c + 1) % 4];
      const V x0 = dot(p0 - cR, u), x1 = dot(p1 - cR, u), y0 = dot(p0 - cR, v), y1 = dot(p1 - cR, v);
      for (int side = 0; side < 4; ++side) {
        const bool alongX = side < 2;
        const V bound = (side % 2 == 0 ? V(1) : V(-1)) * (alongX ? eu : ev);
        const V c0 = alongX ? x0 : y0, c1 = alongX ? x1 : y1, o0 = alongX ? y0 : x0, o1 = alongX ? y1 : x1;
        const V oe = alongX ? ev : eu;
        const V dd = c1 - c0;
        const MaskOf<V> crosses = vabs(dd) > V(0);
        const V tt = (bound - c0) / vselect(crosses, dd, V(1));
        const V o = o0 + tt * (o1 - o0);
        const MaskOf<V> ok = vand(vand(crosses, vand(tt >= V(0), tt <= V(1))), vabs(o) <= oe + V(inTol));
        put(8 + 4 * c + side, p0 + tt * (p1 - p0), ok);
      }
    }
    CoreContact<V> f;
    reduce4<V, K>(x, y, z, pa, valid, dupTol, f);
    // no candidate within reach although the pair is (clipped rim): the deepest incident corner
    Vec3<V> deep = P[0];
    V dz = dot(P[0] - cR, nR);
    for (int c = 1; c < 4; ++c) {
      const V zc = dot(P[c] - cR, nR);
      deep = sel3(zc < dz, P[c], deep);
      dz = vmin(zc, dz);
    }
    const Vec3<V> deepA = sel3(faceA, deep - dz * nR, deep);
    f.pa[0] = sel3(f.has[0], f.pa[0], deepA);
    f.has[0] = mask_true<V>();
    for (int i = 0; i < 4; ++i) {
      out.pa[i] = sel3(faceType, f.pa[i], out.pa[i]);
      out.dc[i] = vselect(faceType, f.dc[i], out.dc[i]);
      out.has[i] = vselect_mask(faceType, f.has[i], out.has[i]);
    }
  }
  out.dc[0] = exact; // point 0 carries the exact distance
}

} // namespace ACH_ISA_NS
} // namespace ach
