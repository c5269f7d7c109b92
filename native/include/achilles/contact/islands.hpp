// Islands, as MuJoCo's mj_island: the kinematic trees joined by the constraint rows that are on,
// found per lane (each lane has its own contacts). The solver then runs MuJoCo's per-island CG:
// one line search and one β per island, so independent groups of bodies do not share a step.
// Per-lane sums over an island's trees run in tree order whatever the lane width (bit-identical).
#pragma once

#include "../isa_namespace.hpp"

#include "work.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

inline void mask_bools(bool m, bool* out) { out[0] = m; }
#if ACHILLES_SIMD
template <class B, int K>
inline void mask_bools(const WideMask<B, K>& m, bool* out) {
  for (int k = 0; k < K; ++k) m.r[k].store_unaligned(out + k * B::size);
}
#endif

/// The tree a row's scalars are summed into (both of its trees share one island).
template <class V>
inline int row_tree(const ConstraintWork<V>& cw, int r) {
  return cw.row_tree_b[r] >= 0 ? cw.row_tree_b[r] : cw.row_tree_a[r];
}

template <class V>
inline void list_island_members(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw);

/// Per lane: union the trees of every row that is on; cw.label[t·W + l] = the island's lowest tree,
/// or −1 when no row touches the tree's island. cw.per_tree.in_island[t]: the lanes where tree t
/// is in an island.
template <class V>
inline void find_islands(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  constexpr int W = lanes_of<V>;
  const int nt = KC.ntrees;
  int* parent = cw.label;
  unsigned char* touched = cw.has_row;
  for (int t = 0; t < nt; ++t)
    for (int l = 0; l < W; ++l) parent[t * W + l] = t, touched[t * W + l] = 0;
  auto find = [&](int t, int l) {
    while (parent[t * W + l] != t) {
      parent[t * W + l] = parent[parent[t * W + l] * W + l];
      t = parent[t * W + l];
    }
    return t;
  };
  bool on[W > 0 ? W : 1];
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    // a contact point's rows share its trees and lanes: its first row joins them
    if (const int c = r - cw.first_contact; c > 0 && cw.row_point[c] == cw.row_point[c - 1]) continue;
    const int ta = cw.row_tree_a[r], tb = cw.row_tree_b[r];
    mask_bools(cw.on[r], on);
    for (int l = 0; l < W; ++l) {
      if (!on[l]) continue;
      if (ta >= 0) touched[ta * W + l] = 1;
      if (tb >= 0) touched[tb * W + l] = 1;
      if (ta >= 0 && tb >= 0) {
        const int ra = find(ta, l), rb = find(tb, l);
        if (ra < rb)
          parent[rb * W + l] = ra;
        else if (rb < ra)
          parent[ra * W + l] = rb;
      }
    }
  }
  unsigned char* root_has = cw.has_row + static_cast<std::size_t>(nt) * W;
  for (int l = 0; l < W; ++l) {
    for (int t = 0; t < nt; ++t) cw.uf[t] = find(t, l), root_has[t] = 0;
    for (int t = 0; t < nt; ++t) root_has[cw.uf[t]] |= touched[t * W + l];
    for (int t = 0; t < nt; ++t) parent[t * W + l] = root_has[cw.uf[t]] ? cw.uf[t] : -1;
  }
  cw.lone_islands = true;
  for (int t = 0; t < nt; ++t) {
    for (int l = 0; l < W; ++l) {
      cw.red[t * W + l] = cw.label[t * W + l] >= 0 ? T(1) : T(0);
      if (cw.label[t * W + l] >= 0 && cw.label[t * W + l] != t) cw.lone_islands = false;
    }
    cw.per_tree.in_island[t] = load<V>(cw.red + t * W) > V(T(0));
  }
  list_island_members(KC, cw);
}

/// For island_sum's wide path: per tree t, the trees s (ascending) that share t's island in some
/// lane, with the mask of those lanes. Left unlisted (cw.members_listed = false) when they would
/// not fit the slots carved for them; island_sum then sums lane by lane.
template <class V>
inline void list_island_members(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  constexpr int W = lanes_of<V>;
  const int nt = KC.ntrees;
  cw.members_listed = false;
  if (cw.lone_islands) return;
  int n = 0;
  for (int t = 0; t < nt; ++t) {
    cw.member_start[t] = n;
    for (int s = 0; s < nt; ++s) {
      bool any = false;
      for (int l = 0; l < W; ++l) {
        const int lab = cw.label[t * W + l];
        const bool same = lab >= 0 && cw.label[s * W + l] == lab;
        cw.acc_lanes[l] = same ? T(1) : T(0);
        any = any || same;
      }
      if (!any) continue;
      if (n == cw.member_capacity) return;
      cw.member_tree[n] = s;
      cw.member_mask[n] = load<V>(cw.acc_lanes) > V(T(0));
      ++n;
    }
  }
  cw.member_start[nt] = n;
  cw.members_listed = true;
}

/// Up to ConstraintWork::kIslandSums arrays at once: vals[k][t] ← the sum of vals[k] over tree t's
/// island (per lane; trees outside islands keep theirs). Every path adds an island's trees in ascending order
/// from +0, so all give the same bits, and summing several arrays together changes none of them.
template <class V>
inline void island_sums(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, V* const* vals, int n) {
  using T = ScalarOf<V>;
  constexpr int W = lanes_of<V>;
  const int nt = KC.ntrees;
  const V zero(T(0));
  if (cw.lone_islands) { // each island is its own tree: the sum is 0 + x, done lane-wise in one go
    for (int k = 0; k < n; ++k)
      for (int t = 0; t < nt; ++t) vals[k][t] = vselect(cw.per_tree.in_island[t], zero + vals[k][t], vals[k][t]);
    return;
  }
  if (cw.members_listed) {  // lanes where s is not in t's island add +0, which changes no sum
    V* sum = cw.island_tmp; // n × nt
    for (int t = 0; t < nt; ++t) {
      V acc[ConstraintWork<V>::kIslandSums];
      for (int k = 0; k < n; ++k) acc[k] = zero;
      for (int e = cw.member_start[t]; e < cw.member_start[t + 1]; ++e) {
        const MaskOf<V> m = cw.member_mask[e];
        const int s = cw.member_tree[e];
        for (int k = 0; k < n; ++k) acc[k] += vselect(m, vals[k][s], zero);
      }
      for (int k = 0; k < n; ++k) sum[k * nt + t] = vselect(cw.per_tree.in_island[t], acc[k], vals[k][t]);
    }
    for (int k = 0; k < n; ++k)
      for (int t = 0; t < nt; ++t) vals[k][t] = sum[k * nt + t];
    return;
  }
  for (int k = 0; k < n; ++k) {
    for (int t = 0; t < nt; ++t) vstore(cw.red + t * W, vals[k][t]);
    for (int l = 0; l < W; ++l) {
      for (int t = 0; t < nt; ++t) cw.acc[t] = T(0);
      for (int t = 0; t < nt; ++t) {
        const int lab = cw.label[t * W + l];
        if (lab >= 0) cw.acc[lab] = cw.acc[lab] + cw.red[t * W + l];
      }
      for (int t = 0; t < nt; ++t) {
        const int lab = cw.label[t * W + l];
        if (lab >= 0) cw.red[t * W + l] = cw.acc[lab];
      }
    }
    for (int t = 0; t < nt; ++t) vals[k][t] = load<V>(cw.red + t * W);
  }
}

/// vals[t] ← the sum of vals over tree t's island (island_sums of one array).
template <class V>
inline void island_sum(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, V* vals) {
  V* const one[1] = {vals};
  island_sums(KC, cw, one, 1);
}

/// out[t] = Σ_{dofs k of tree t} a_k b_k, in ascending k (in a register: no store per term).
template <class V>
inline void tree_dot(const KConstraints<ScalarOf<V>>& KC, const V* a, const V* b, V* out) {
  for (int t = 0; t < KC.ntrees; ++t) {
    V s(ScalarOf<V>(0));
    for (int e = KC.tree_dof_start[t]; e < KC.tree_dof_start[t + 1]; ++e) s += a[KC.tree_dofs[e]] * b[KC.tree_dofs[e]];
    out[t] = s;
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
