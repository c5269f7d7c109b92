// One pair's contacts (narrow_pair) and the collision pass over a block of lanes (broad phase,
// then narrow phase where any lane's inflated AABBs overlap).
#pragma once

#include "../isa_namespace.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../model.hpp"
#include "narrow.hpp"
#include "narrow_convex.hpp"
#include "pair_filter.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Core of a shape, decided by its extents (its kind only names the everyday case):
/// 0 plane, 1 point (sphere), 2 segment along z (capsule), 3 box.
template <class T>
inline int core_rank(const ShapeGeom<T>& g) {
  if (g.kind == ShapeKind::Plane) return 0;
  if (g.h[0] == 0 && g.h[1] == 0) return g.h[2] == 0 ? 1 : 2;
  return 3;
}

template <class V>
inline CoreBox<V> core_box(const ShapeGeom<ScalarOf<V>>& g, const Transform<V>& X) {
  CoreBox<V> c;
  c.R = X.R;
  c.p = X.p;
  for (int k = 0; k < 3; ++k) c.h[k] = V(g.h[k]);
  return c;
}

/// Contacts of shapes a and b at world poses Xa, Xb: normals from a to b, ≤ kPairPoints points, each active
/// when its signed distance is below `thr` (the pair's margin + gap).
template <class V>
inline void narrow_pair(ShapeGeom<ScalarOf<V>> a, const Transform<V>& Xa, ShapeGeom<ScalarOf<V>> b, const Transform<V>& Xb, ScalarOf<V> thr,
                        Manifold<V>& m) {
  using T = ScalarOf<V>;
  if (is_convex_kind(a.kind) || is_convex_kind(b.kind)) return narrow_convex_pair(a, Xa, b, Xb, thr, m);
  if (ACH_BUG(CollisionBoxAxisSwapped))
    for (ShapeGeom<T>* g : {&a, &b})
      if (g->kind == ShapeKind::Box || g->kind == ShapeKind::RoundedBox) {
        const T x = g->h[0];
        g->h[0] = g->h[1];
        g->h[1] = x;
      }
  if (ACH_BUG(CollisionRadiusDropped)) b.r = T(0);
  if (ACH_BUG(CollisionMarginIgnored)) thr = T(0);
  // compute in core order (plane < point < segment < box) and swap back at the end
  const bool swap = core_rank(a) > core_rank(b);
  const ShapeGeom<T>& P = swap ? b : a;
  const ShapeGeom<T>& Q = swap ? a : b;
  const Transform<V>& XP = swap ? Xb : Xa;
  const Transform<V>& XQ = swap ? Xa : Xb;
  const T zmax = thr + P.r + Q.r;
  const T size = P.h[0] + P.h[1] + P.h[2] + Q.h[0] + Q.h[1] + Q.h[2] + P.r + Q.r;
  const T dupTol = T(1e-6) * size * (sizeof(T) == 4 ? T(100) : T(1));
  const int rp = core_rank(P), rq = core_rank(Q);
  CoreContact<V> c;
  clear(c);
  const Vec3<V> zQ = col(XQ.R, 2), zP = col(XP.R, 2);
  if (rp == 0) {
    if (rq == 1) {
      plane_corners<V, 1>(XP, &XQ.p, 1, zmax, dupTol, c);
    } else if (rq == 2) {
      const Vec3<V> ends[2] = {XQ.p + V(Q.h[2]) * zQ, XQ.p - V(Q.h[2]) * zQ};
      plane_corners<V, 2>(XP, ends, 2, zmax, dupTol, c);
    } else if (rq == 3) {
      Vec3<V> corners[8];
      const int n = box_corners(core_box(Q, XQ), Q.h, corners);
      plane_corners<V, 8>(XP, corners, n, zmax, dupTol, c);
    } // plane–plane never pairs
  } else if (rp == 1 && rq == 1) {
    point_point(XP.p, XQ.p, splat3<V>(0, 0, 1), c);
  } else if (rp == 1 && rq == 2) {
    const Vec3<V> q0 = XQ.p - V(Q.h[2]) * zQ, dq = V(2 * Q.h[2]) * zQ;
    const V t = vclamp(dot(XP.p - q0, dq) / V(dot(dq, dq)), V(0), V(1));
    point_point(XP.p, q0 + t * dq, any_perpendicular(zQ), c);
  } else if (rp == 1 && rq == 3) {
    Vec3<V> surf, nBox;
    V sd;
    point_box(core_box(Q, XQ), XP.p, surf, nBox, sd);
    c.n = -nBox;
    c.pa[0] = XP.p;
    c.dc[0] = sd;
    c.has[0] = mask_true<V>();
  } else if (rp == 2 && rq == 2) {
    segment_pair(XP.p - V(P.h[2]) * zP, V(2 * P.h[2]) * zP, XQ.p - V(Q.h[2]) * zQ, V(2 * Q.h[2]) * zQ, zmax, dupTol, c);
  } else {
    box_box(core_box(P, XP), P.h, core_box(Q, XQ), Q.h, zmax, c);
  }
  // MuJoCo's contact: distance between the surfaces, position midway between them; one normal for all
  Vec3<V> n = c.n;
  if (swap) n = -n;
  if (ACH_BUG(CollisionNormalFlipped)) n = -n;
  m.shared_normal = true;
  for (int i = 0; i < 4; ++i) {
    m.n[i] = n;
    m.dist[i] = c.dc[i] - V(P.r + Q.r);
    m.on[i] = vand(c.has[i], m.dist[i] < V(thr));
    m.pos[i] = c.pa[i] + (V(P.r) + V(0.5) * m.dist[i]) * c.n;
  }
  for (int i = 4; i < kPairPoints; ++i) {
    m.n[i] = n;
    m.dist[i] = V(T(0));
    m.on[i] = mask_false<V>();
    m.pos[i] = splat3<V>(0, 0, 0);
  }
}

/// The collision tables in the kernel's scalar type.
template <class T>
struct KShape {
  ShapeGeom<T> geom;
  int body;
  T R_BS[9], p_BS[3];
  T inflate;                                       // margin + gap: the AABB grows by it
  std::shared_ptr<const std::vector<double>> vert; // convex: the hull vertices geom.vert points at (shared by copies)
  std::shared_ptr<const std::vector<int>> graph;   // convex: the hull graph geom.graph points at
  std::shared_ptr<const std::vector<int>> extrema; // convex: the seeds geom.extrema points at
  std::shared_ptr<const HullPolygonData> polygons; // convex: the polygons geom.polygons points at
  double margin, gap;                              // a pair's threshold sums the two shapes' in double (pair_threshold)
};

template <class T>
struct KCollision {
  std::vector<KShape<T>> shapes;
  std::vector<int> planes; // the plane shapes (unbounded: the broad phase pairs them with every shape)
  PairFilter filter;
  // a small model's every admitted pair, in (a, b) order (pair_filter.hpp listed_pairs): the broad
  // phase tests these; a larger model's sweeps and prunes (collision/broad_phase.hpp)
  std::vector<ShapePair> listed_pairs;
  bool listed;
  explicit KCollision(const Model& m) : filter(m) {
    refuse_unsupported_pairs(m);
    listed = ach::listed_pairs(m, listed_pairs);
    for (const Shape& s : m.shapes) {
      KShape<T> k{};
      k.geom.kind = s.kind;
      for (int e = 0; e < 3; ++e) k.geom.h[e] = T(s.half[e]);
      k.geom.r = T(s.radius);
      for (int e = 0; e < 3; ++e) k.geom.size[e] = T(s.size[e]);
      if (!s.vert.empty()) {
        k.vert = std::make_shared<const std::vector<double>>(s.vert);
        k.geom.vert = k.vert->data();
        k.geom.nvert = static_cast<int>(s.vert.size() / 3);
      }
      if (!s.graph.empty()) {
        k.graph = std::make_shared<const std::vector<int>>(s.graph);
        k.geom.graph = k.graph->data();
      }
      if (!s.extrema.empty()) {
        k.extrema = std::make_shared<const std::vector<int>>(s.extrema);
        k.geom.extrema = k.extrema->data();
      }
      if (s.polygons.npoly() > 0) {
        k.polygons = std::make_shared<const HullPolygonData>(s.polygons);
        k.geom.polygons = k.polygons.get();
      }
      if (s.kind == ShapeKind::Convex) k.geom.rbound = convex_geom(k.geom).s.rbound;
      k.geom.multiccd = m.multiccd;
      k.body = s.body;
      for (int e = 0; e < 9; ++e) k.R_BS[e] = T(s.R_BS[e]);
      for (int e = 0; e < 3; ++e) k.p_BS[e] = T(s.p_BS[e]);
      k.inflate = T(s.margin + s.gap);
      k.margin = s.margin;
      k.gap = s.gap;
      if (s.kind == ShapeKind::Plane) planes.push_back(static_cast<int>(shapes.size()));
      shapes.push_back(k);
    }
  }
  /// A pair of shapes that may touch and that the engine cannot collide as MuJoCo does (convex_pair.hpp)
  /// stops the load, naming both shapes and what would keep them apart.
  void refuse_unsupported_pairs(const Model& m) const {
    const int n = static_cast<int>(m.shapes.size());
    for (int a = 0; a < n; ++a) {
      if (!is_convex_kind(m.shapes[a].kind)) continue;
      for (int b = 0; b < n; ++b) {
        if (b == a || (b < a && is_convex_kind(m.shapes[b].kind))) continue;                            // each pair once
        const double thr = m.shapes[a].margin + m.shapes[b].margin + m.shapes[a].gap + m.shapes[b].gap; // MuJoCo's collider margin
        const char* why = convex_pair_unsupported(m.shapes[a].kind, m.shapes[b].kind, thr > 0, m.multiccd);
        if (!why)
          why = convex_pair_missing_polygons(m.shapes[a].kind, m.shapes[a].polygons.npoly() > 0, m.shapes[b].kind, m.shapes[b].polygons.npoly() > 0,
                                             thr > 0, m.multiccd);
        if (!why || !filter.admits(std::min(a, b), std::max(a, b), false)) continue;
        throw std::invalid_argument("shapes '" + m.shapes[a].name + "' (" + shape_kind_name(m.shapes[a].kind) + ") and '" + m.shapes[b].name + "' (" +
                                    shape_kind_name(m.shapes[b].kind) + ") can touch, but " + why +
                                    ": keep them apart with contype/conaffinity or an exclude");
      }
    }
  }

  /// A pair's contact threshold: margin_a + margin_b + gap_a + gap_b (a point is on below it).
  T pair_threshold(int a, int b) const { return T(shapes[a].margin + shapes[b].margin + shapes[a].gap + shapes[b].gap); }
};

/// World pose of every shape: X_WS = X_WB · X_BS (static shapes: X_BS is already world).
template <class V>
inline void pass_shape_poses(const KCollision<ScalarOf<V>>& C, const Transform<V>* X_WB, Transform<V>* X_WS) {
  for (std::size_t s = 0; s < C.shapes.size(); ++s) {
    const KShape<ScalarOf<V>>& k = C.shapes[s];
    Transform<V> X_BS;
    for (int e = 0; e < 9; ++e) X_BS.R.m[e] = V(k.R_BS[e]);
    X_BS.p = {V(k.p_BS[0]), V(k.p_BS[1]), V(k.p_BS[2])};
    X_WS[s] = k.body < 0 ? X_BS : compose(X_WB[k.body], X_BS);
  }
}

/// Broad phase: do the world AABBs (inflated by margin + gap) of a pair's shapes overlap? Planes
/// are unbounded and overlap everything.
template <class V>
inline MaskOf<V> aabb_overlap(const KShape<ScalarOf<V>>& a, const Transform<V>& Xa, const KShape<ScalarOf<V>>& b, const Transform<V>& Xb) {
  if (a.geom.kind == ShapeKind::Plane || b.geom.kind == ShapeKind::Plane) return mask_true<V>();
  MaskOf<V> all = mask_true<V>();
  const V ca[3] = {Xa.p.x, Xa.p.y, Xa.p.z}, cb[3] = {Xb.p.x, Xb.p.y, Xb.p.z};
  for (int w = 0; w < 3; ++w) {
    V ea = V(a.geom.r + a.inflate), eb = V(b.geom.r + b.inflate);
    for (int k = 0; k < 3; ++k) {
      ea = ea + vabs(Xa.R.m[w * 3 + k]) * V(a.geom.h[k]);
      eb = eb + vabs(Xb.R.m[w * 3 + k]) * V(b.geom.h[k]);
    }
    all = vand(all, vabs(cb[w] - ca[w]) <= ea + eb);
  }
  return all;
}

} // namespace ACH_ISA_NS
} // namespace ach
