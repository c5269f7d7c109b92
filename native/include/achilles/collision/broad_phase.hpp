// The broad phase of one block: the pairs of shapes whose world boxes (inflated by margin + gap)
// overlap in some lane and that MuJoCo's filter admits, in (a, b) order, which is the order of the
// contact rows. A small model tests each of its listed pairs lane by lane (KCollision::listed).
// Otherwise, sweep and prune: each shape's box is the union of its lanes' boxes; the boxes are
// sorted along the axis where their centres spread most, and a sweep tests only the boxes whose
// intervals meet on that axis. A plane is unbounded: it pairs with every other shape the filter
// admits. Each pair the sweep finds is then tested lane by lane (aabb_overlap), so the list is exactly
// the admitted pairs that overlap in some lane, whichever axis or path found them: a lane's rows
// never depend on the other lanes of its block.
#pragma once

#include "../isa_namespace.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "collide.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// A found pair's shapes a < b from its key a·2³² + b.
inline int pair_a(std::uint64_t key) { return static_cast<int>(key >> 32); }
inline int pair_b(std::uint64_t key) { return static_cast<int>(key & 0xffffffffu); }

/// One worker's broad-phase scratch (sized by the shapes at load; `pairs` grows to the most found).
template <class V>
struct BroadPhaseWork {
  std::vector<double> lo, hi;       // per shape and axis (s·3 + w): the union of its lanes' boxes
  std::vector<int> order;           // the bounded shapes, sorted by lo along the sweep axis
  std::vector<std::uint64_t> pairs; // found pairs, a·2³² + b (a < b)
  std::vector<int> listed;          // a listing model's: each found pair's place in KCollision::listed_pairs
  struct Lanes {
    MaskOf<V> on;
  };
  std::vector<Lanes> overlap; // each found pair's lanes whose boxes overlap (aabb_overlap; wrapped: no vector<bool>)
  explicit BroadPhaseWork(std::size_t nshapes = 0) : lo(nshapes * 3), hi(nshapes * 3) {
    order.reserve(nshapes);
    pairs.reserve(4 * nshapes); // so a worker meeting a new block seldom allocates (collide() in steady state: never)
    listed.reserve(4 * nshapes);
    overlap.reserve(4 * nshapes);
  }
};

/// The union over lanes of each bounded shape's box (non-finite lanes left out: their own test fails
/// anyway), widened by a relative 1e-5 so that rounding never loses a pair a lane's test keeps.
/// Returns the bounded shapes with a finite box in bw.order.
template <class V>
inline void shape_boxes(const KCollision<ScalarOf<V>>& C, const Transform<V>* X_WS, BroadPhaseWork<V>& bw) {
  using T = ScalarOf<V>;
  constexpr int W = lanes_of<V>;
  bw.order.clear();
  for (std::size_t s = 0; s < C.shapes.size(); ++s) {
    const KShape<T>& k = C.shapes[s];
    if (k.geom.kind == ShapeKind::Plane) continue;
    const Transform<V>& X = X_WS[s];
    const V c[3] = {X.p.x, X.p.y, X.p.z};
    bool finite = false;
    for (int w = 0; w < 3; ++w) {
      V e = V(k.geom.r + k.inflate);
      for (int j = 0; j < 3; ++j) e = e + vabs(X.R.m[w * 3 + j]) * V(k.geom.h[j]);
      alignas(64) T cl[W], el[W];
      vstore(cl, c[w]);
      vstore(el, e);
      double lo = INFINITY, hi = -INFINITY;
      const int lanes = ACH_BUG(CollisionBroadPhaseFirstLane) ? 1 : W; // the planted bug: lane 0's box for the block
      for (int l = 0; l < lanes; ++l) {
        const double a = double(cl[l]) - double(el[l]), b = double(cl[l]) + double(el[l]);
        if (!std::isfinite(a) || !std::isfinite(b)) continue;
        lo = std::min(lo, a);
        hi = std::max(hi, b);
      }
      const double pad = 1e-5 * (std::fabs(lo) + std::fabs(hi)) + 1e-30;
      bw.lo[s * 3 + w] = lo - pad;
      bw.hi[s * 3 + w] = hi + pad;
      finite = w == 0 ? lo <= hi : finite && lo <= hi;
    }
    if (finite) bw.order.push_back(static_cast<int>(s));
  }
}

/// The block's overlapping admitted pairs, in (a, b) order, into bw.pairs, with the lanes where
/// each overlaps (bw.overlap; and, for a model that lists its pairs, each one's place in the list,
/// bw.listed).
template <class V>
inline void broad_phase(const KCollision<ScalarOf<V>>& C, const Transform<V>* X_WS, BroadPhaseWork<V>& bw) {
  bw.pairs.clear();
  bw.listed.clear();
  bw.overlap.clear();
  if (C.listed) {
    for (std::size_t k = 0; k < C.listed_pairs.size(); ++k) {
      const int a = C.listed_pairs[k].a, b = C.listed_pairs[k].b;
      const MaskOf<V> on = aabb_overlap(C.shapes[a], X_WS[a], C.shapes[b], X_WS[b]);
      // the planted bug: a listed pair is kept only where the block's first lane overlaps
      if (!(ACH_BUG(CollisionBroadPhaseFirstLane) ? vlane(on, 0) : vany(on))) continue;
      bw.pairs.push_back(static_cast<std::uint64_t>(a) << 32 | static_cast<std::uint32_t>(b));
      bw.listed.push_back(static_cast<int>(k));
      bw.overlap.push_back({on});
    }
    return;
  }
  shape_boxes(C, X_WS, bw);
  auto keep = [&](int a, int b) {
    if (a > b) std::swap(a, b);
    if (!C.filter.admits(a, b)) return;
    if (!vany(aabb_overlap(C.shapes[a], X_WS[a], C.shapes[b], X_WS[b]))) return;
    bw.pairs.push_back(static_cast<std::uint64_t>(a) << 32 | static_cast<std::uint32_t>(b));
  };
  for (int p : C.planes)
    for (int s : bw.order) keep(p, s);
  // the sweep axis: the one along which the box centres spread most
  int axis = 0;
  if (bw.order.size() > 2) {
    double spread[3];
    for (int w = 0; w < 3; ++w) {
      double mean = 0, sq = 0;
      for (int s : bw.order) mean += 0.5 * (bw.lo[s * 3 + w] + bw.hi[s * 3 + w]);
      mean /= double(bw.order.size());
      for (int s : bw.order) {
        const double d = 0.5 * (bw.lo[s * 3 + w] + bw.hi[s * 3 + w]) - mean;
        sq += d * d;
      }
      spread[w] = sq;
    }
    axis = spread[1] > spread[axis] ? 1 : axis;
    axis = spread[2] > spread[axis] ? 2 : axis;
  }
  std::sort(bw.order.begin(), bw.order.end(), [&](int a, int b) {
    const double la = bw.lo[a * 3 + axis], lb = bw.lo[b * 3 + axis];
    return la < lb || (la == lb && a < b);
  });
  const int n = static_cast<int>(bw.order.size());
  const int u = (axis + 1) % 3, v = (axis + 2) % 3;
  for (int i = 0; i < n; ++i) {
    const int a = bw.order[i];
    const double end = bw.hi[a * 3 + axis];
    for (int j = i + 1; j < n; ++j) {
      const int b = bw.order[j];
      if (bw.lo[b * 3 + axis] > end) break;
      if (bw.lo[b * 3 + u] > bw.hi[a * 3 + u] || bw.lo[a * 3 + u] > bw.hi[b * 3 + u]) continue;
      if (bw.lo[b * 3 + v] > bw.hi[a * 3 + v] || bw.lo[a * 3 + v] > bw.hi[b * 3 + v]) continue;
      keep(a, b);
    }
  }
  std::sort(bw.pairs.begin(), bw.pairs.end());
  for (std::uint64_t key : bw.pairs) {
    const int a = pair_a(key), b = pair_b(key);
    bw.overlap.push_back({aabb_overlap(C.shapes[a], X_WS[a], C.shapes[b], X_WS[b])});
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
