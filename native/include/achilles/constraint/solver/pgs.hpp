// MuJoCo's PGS solver (engine_solver.c solPGS, called per island by mj_fwdConstraint) for one block
// of lanes: projected Gauss–Seidel on the dual problem
//
//   minimize  ½ fᵀ AR f + fᵀ b   over f: equality rows free, friction rows |f| ≤ frictionloss,
//             limit and contact rows (pyramid edges) f ≥ 0,   AR = J M⁻¹ Jᵀ + diag(R), b = J a₀ − aref
//
// a sweep visits each row (a pyramidal contact's edges are rows of their own) in an order shuffled
// afresh each sweep (Fisher–Yates with PCG32, seeded 0/1 per island call), setting
//   f_c ← proj(f_c − res_c / AR_cc),  res_c = b_c + AR_c·f  (AR_c·f in mju_dot's order)
// and keeping the old f_c when the cost would rise by more than 1e-10. Nesterov momentum before
// each sweep: f ← proj(f + β(f − f_prev)), β = (k − 1)/(k + 2), with O'Donoghue–Candès restarts
// (k = 0 when the sweep's correction opposes the extrapolation). A sweep's improvement (the cost
// decrease × 1/(meaninertia·nv)) below the tolerance ends the island's solve. The start is
// MuJoCo's warmstart(): the primal forces at the warm start's acceleration, or 0 when their dual
// cost is positive; the answer a = a₀ + M⁻¹Jᵀf (mj_dualFinish).
//
// MuJoCo 3.14 was checked to do exactly this (the numpy replay of solPGS, shuffle and momentum,
// matches its efc_force on humanoid states to 1.3e-15; either one left out, to 1e-2).
//
// Each lane has its own rows (those on in it: MuJoCo's efc rows), islands, block count and shuffled
// order, so the sweeps run scalar per lane and island, on AR formed vectorized for the block's
// used rows: a lane's answer is the same whatever lanes share its block.
#pragma once

#include <cstdint>

#include "../../isa_namespace.hpp"

#include "../../bugs.hpp"
#include "newton.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// MuJoCo's PCG32 step (pcg32_next): the 64-bit LCG's state, permuted to 32 bits by xorshift and a
/// data-dependent rotation.
inline std::uint32_t pcg32_next(std::uint64_t& state, std::uint64_t inc) {
  const std::uint64_t old = state;
  state = old * 6364136223846793005ULL + (inc | 1);
  const auto xorshifted = static_cast<std::uint32_t>(((old >> 18u) ^ old) >> 27u);
  const auto rot = static_cast<std::uint32_t>(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((0u - rot) & 31u));
}

/// One sweep's shuffle of solPGS (Fisher–Yates from the last row down, on the previous sweep's order).
inline void pgs_shuffle(int* order, int n, std::uint64_t& state, std::uint64_t inc) {
  for (int i = n - 1; i > 0; --i) {
    const int j = static_cast<int>(pcg32_next(state, inc) % static_cast<std::uint32_t>(i + 1));
    const int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
}

/// solPGS's row orders, tabled: its PCG32 stream restarts at every island call (state 0, increment
/// 1, one draw discarded), so the order of sweep `it` depends on the island's row count n and on it
/// alone. Built once, for n ≤ kRows and the first kSweeps sweeps (a sweep's shuffle is a chain of
/// 64-bit products and divisions that the sweep's own updates would otherwise wait beside); a
/// longer solve goes on from the last tabled order and the stream's state after it (state_after).
struct PgsOrders {
  static constexpr int kRows = 32, kSweeps = 64;
  std::uint8_t orders[(kRows * (kRows + 1) / 2 + 1) * kSweeps] = {}; // n's sweeps from start(n)
  std::uint64_t state_after[kRows + 1] = {};
  static constexpr int start(int n) { return n * (n - 1) / 2 * kSweeps; }
  const std::uint8_t* order(int n, int it) const { return orders + start(n) + it * n; }
  PgsOrders(); // drawn by PgsSweepOrder (below)
};

inline const PgsOrders& pgs_orders() {
  static const PgsOrders table; // thread-safe initialization
  return table;
}

/// The row order of each sweep of one island call of n rows: PgsOrders' while they last (when
/// `tabled`), then the stream continued, in `scratch` (n ints); rows in order when not `shuffled`.
class PgsSweepOrder {
 public:
  PgsSweepOrder(int n, int* scratch, bool shuffled, bool tabled = true)
      : n_(n), order_(scratch), shuffled_(shuffled), tabled_(tabled && shuffled && n <= PgsOrders::kRows) {
    if (tabled_) {
      state_ = pgs_orders().state_after[n];
      const std::uint8_t* last = pgs_orders().order(n, PgsOrders::kSweeps - 1);
      for (int c = 0; c < n; ++c) order_[c] = last[c];
    } else {
      for (int c = 0; c < n; ++c) order_[c] = c;
      pcg32_next(state_, 1);
    }
  }
  /// Sets the order of sweep `it` (called for it = 0, 1, 2, ... in turn).
  void sweep(int it) {
    row_ = tabled_ && it < PgsOrders::kSweeps ? pgs_orders().order(n_, it) : nullptr;
    if (!row_ && shuffled_) pgs_shuffle(order_, n_, state_, 1);
  }
  /// The row visited s-th in this sweep.
  int operator[](int s) const { return row_ ? row_[s] : order_[s]; }
  /// The stream's state after the sweeps drawn so far.
  std::uint64_t state() const { return state_; }

 private:
  int n_;
  int* order_;
  bool shuffled_, tabled_;
  std::uint64_t state_ = 0;
  const std::uint8_t* row_ = nullptr;
};

inline PgsOrders::PgsOrders() {
  for (int n = 1; n <= kRows; ++n) {
    int scratch[kRows];
    PgsSweepOrder drawn(n, scratch, /*shuffled=*/true, /*tabled=*/false);
    for (int it = 0; it < kSweeps; ++it) {
      drawn.sweep(it);
      for (int s = 0; s < n; ++s) orders[start(n) + it * n + s] = static_cast<std::uint8_t>(drawn[s]);
    }
    state_after[n] = drawn.state();
  }
}

/// One island's rows in `used` order (equality rows, ne of them, then friction rows, nf, then limit
/// and contact rows) with their AR (n × n), b and frictionloss: solPGS's sweeps from the force in f.
template <class T>
struct PgsIsland {
  int n, ne, nf;
  const T *A, *b, *floss;
  T* f;
  T *ARinv, *Acc, *prev, *mom; // scratch, n each
  int* order;                  // scratch, n
};

/// MuJoCo's dense dot product (mju_dot, engine_util_blas.c, the order of its AVX path too): four
/// partial sums over i ≡ 0, 1, 2, 3 (mod 4), joined as (s₀ + s₂) + (s₁ + s₃), then the last n mod 4
/// products summed left to right and added. Its order, so the residual rounds as MuJoCo's; and four
/// independent chains of additions instead of one, which is what a sweep waits on.
template <class T>
inline T mju_dot(const T* a, const T* b, int n) {
  T s0(0), s1(0), s2(0), s3(0);
  int i = 0;
  for (; i <= n - 4; i += 4) {
    s0 += a[i] * b[i];
    s1 += a[i + 1] * b[i + 1];
    s2 += a[i + 2] * b[i + 2];
    s3 += a[i + 3] * b[i + 3];
  }
  T res = (s0 + s2) + (s1 + s3);
  switch (n - i) {
    case 3:
      res += a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2];
      break;
    case 2:
      res += a[i] * b[i] + a[i + 1] * b[i + 1];
      break;
    case 1:
      res += a[i] * b[i];
      break;
    default:
      break;
  }
  return res;
}

/// The force projected on row c's set: friction rows onto [−floss, floss], limits and contacts onto f ≥ 0.
template <class T>
inline T pgs_project(const PgsIsland<T>& I, int c, T f) {
  if (c < I.ne) return f;
  if (c < I.ne + I.nf) return f < -I.floss[c] ? -I.floss[c] : (f > I.floss[c] ? I.floss[c] : f);
  return f < T(0) ? T(0) : f;
}

/// solPGS on one island of one lane: at most `maxiter` sweeps, stopping after a sweep whose scaled
/// improvement is below `tolerance`.
template <class T>
inline void pgs_island(const PgsIsland<T>& I, int maxiter, double tolerance, T scale) {
  const int n = I.n;
  T* f = I.f;
  for (int c = 0; c < n; ++c) {
    I.ARinv[c] = T(1) / I.A[c * n + c];
    I.Acc[c] = T(1) / I.ARinv[c]; // costChange's AR_cc as solPGS sets it (1/ARinv, not AR_cc), once per solve
    I.prev[c] = f[c];
  }
  PgsSweepOrder order(n, I.order, !ACH_BUG(PgsShuffleSkipped)); // the planted bug: rows visited in order every sweep
  int k = 0;                                                    // Nesterov's counter, 0 after a restart
  for (int it = 0; it < maxiter; ++it) {
    const T beta = it > 0 ? T(k - 1) / T(k + 2) : T(0);
    if (beta > T(0)) {
      for (int c = 0; c < n; ++c) {
        const T saved = f[c];
        f[c] += beta * (f[c] - I.prev[c]);
        I.prev[c] = saved;
      }
      for (int c = I.ne; c < n; ++c) f[c] = pgs_project(I, c, f[c]);
    } else {
      for (int c = 0; c < n; ++c) I.prev[c] = f[c];
    }
    for (int c = 0; c < n; ++c) I.mom[c] = f[c];
    order.sweep(it);
    T improvement(0);
    for (int s = 0; s < n; ++s) {
      const int c = order[s];
      const T res = I.b[c] + mju_dot(I.A + c * n, f, n); // MuJoCo's residual()
      const T old = f[c];
      const T fc = pgs_project(I, c, old - res * I.ARinv[c]);
      // costChange: ½δ²·AR_cc + δ·res, the old force kept when it rises past 1e-10
      const T delta = fc - old;
      const T change = T(0.5) * delta * delta * I.Acc[c] + delta * res;
      const bool rises = change > T(1e-10);
      f[c] = rises ? old : fc;
      improvement -= rises ? T(0) : change;
    }
    improvement *= scale;
    bool restart = false;
    if (it > 0) {
      T dot(0);
      for (int c = 0; c < n; ++c) dot += (f[c] - I.mom[c]) * (I.mom[c] - I.prev[c]);
      restart = dot < T(0);
    }
    k = restart ? 0 : k + 1;
    if (improvement < tolerance) break;
  }
}

/// Whether pair P's contacts come before pair Q's in MuJoCo's d->contact (and so efc) order: mj_collision
/// visits body pairs by signature (lower body id, then higher; the world, body 0, first), and within one
/// the lower body's geoms, then the higher's, in geom order. Links number MuJoCo's bodies in order and
/// shapes keep its geoms' order within a body, the world's shapes listed after the bodies' (import
/// compile.ts): a world shape's rank is its index, a body shape's its index + nshapes.
template <class T>
inline bool mujoco_contact_before(const KContactPair<T>& P, const KContactPair<T>& Q, int nshapes) {
  auto key = [nshapes](const KContactPair<T>& X, int* k) {
    const bool a_low = X.body_a <= X.body_b;
    const int lo_shape = a_low ? X.shape_a : X.shape_b, hi_shape = a_low ? X.shape_b : X.shape_a;
    k[0] = a_low ? X.body_a : X.body_b;
    k[1] = a_low ? X.body_b : X.body_a;
    k[2] = lo_shape + (k[0] < 0 ? 0 : nshapes);
    k[3] = hi_shape + nshapes;
  };
  int a[4], b[4];
  key(P, a);
  key(Q, b);
  for (int e = 0; e < 4; ++e)
    if (a[e] != b[e]) return a[e] < b[e];
  return false;
}

/// The most rows dual_prepare walks up the tree together.
inline constexpr int kPgsWalkRows = 4;

/// The dofs in `dofs` (nd of them) and all their ancestors, ascending, into out; returns how many.
inline int ancestor_closure(const int* parent, int nv, const int* dofs, int nd, int* out) {
  bool in[kNewtonMaxDofs] = {};
  for (int a = 0; a < nd; ++a)
    for (int i = dofs[a]; i >= 0 && !in[i]; i = parent[i]) in[i] = true;
  int n = 0;
  for (int k = 0; k < nv; ++k)
    if (in[k]) out[n++] = k;
  return n;
}

/// The dual problem of the dual solvers (PGS, noslip): AR over the used rows and b = J·a₀ − aref,
/// per lane into pgs_AR and pgs_b; pgs_on marks the rows in each lane's problem. With M = LᵀDL along the dof tree (factor_tree of
/// newton_prepare's M, as MuJoCo's mj_factorM), M⁻¹ = L⁻¹D⁻¹L⁻ᵀ and
///   AR_uv = J_u M⁻¹ J_vᵀ + R_u·[u = v] = Σ_k y_u(k)·y_v(k)/D(k) + …,   y_u = L⁻ᵀJ_uᵀ
/// where y_u, found from the leaves up, lives on the dofs of row u and their ancestors (the chains of
/// the bodies it touches), so row u's sums run over those alone.
template <class V>
inline void dual_prepare(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  constexpr int L = lanes_of<V>;
  const int nv = M.nv, n = cw.nused;
  const V zero(T(0));
  const V* J = cw.newton_J; // row u on its row_dofs only (newton_prepare writes no others; none are read)
  newton_prepare(M, KC, W, cw);
  newton_factor_M(KC, cw, nv, /*tree=*/true);
  const V* Lm = cw.newton_L;
  const int* parent = KC.dof_parent.data();
  V* Y = cw.pgs_MinvJ;
  V* yD = cw.tmp;
  // a row in a lane's problem: equality and friction rows always, others where on (a row that is
  // off in a lane takes no part there, whatever its J holds)
  auto in_lane = [&](int u) { return u < cw.nfric_used ? mask_true<V>() : cw.u_on[u]; };
  for (int u0 = 0; u0 < n;) {
    int nd;
    const int* dofs = row_dofs(KC, cw, cw.used[u0], nd);
    int g = 1; // rows u0 .. u0 + g − 1 on the same dofs (a contact pair's rows): one closure, their walks together
    for (int nd2; g < kPgsWalkRows && u0 + g < n && row_dofs(KC, cw, cw.used[u0 + g], nd2) == dofs;) ++g;
    int cl[kNewtonMaxDofs];
    const int nc = ancestor_closure(parent, nv, dofs, nd, cl);
    // y_u = L⁻ᵀJ_uᵀ, from the leaves up; 0 off u's dofs and ancestors, where later rows read it
    for (int r = 0; r < g; ++r) {
      V* yu = Y + (u0 + r) * nv;
      for (int k = 0; k < nv; ++k) yu[k] = zero; // zeroed row by row as it is made: in cache, not one sweep of n·nv
      for (int a = 0; a < nd; ++a) yu[dofs[a]] = J[(u0 + r) * nv + dofs[a]];
    }
    for (int a = nc - 1; a >= 0; --a) {
      const int k = cl[a];
      for (int i = parent[k]; i >= 0; i = parent[i]) {
        const V lki = Lm[k * nv + i];
        for (int r = 0; r < g; ++r) { // g independent chains, each row's in its own order
          V* yu = Y + (u0 + r) * nv;
          yu[i] -= lki * yu[k];
        }
      }
    }
    for (int u = u0; u < u0 + g; ++u) {
      // AR(u, v) is read only in lanes whose problem has both rows (pgs_lane, and the start's cost
      // below, which masks the others out): a row pair that no lane has together is left unwritten
      const MaskOf<V> in_u = in_lane(u);
      if (!vany(in_u)) continue;
      const V* yu = Y + u * nv;
      // AR's row u up to the diagonal, mirrored (MuJoCo's AR is symmetric): (y_u/D)·y_v over u's dofs
      for (int a = 0; a < nc; ++a) yD[cl[a]] = yu[cl[a]] / Lm[cl[a] * (nv + 1)];
      auto put = [&](int v, V s) {
        if (v == u) s += cw.u_R[u];
        vstore(cw.pgs_AR + (u * n + v) * L, s);
        if (v != u) vstore(cw.pgs_AR + (v * n + u) * L, s);
      };
      int v = 0;
      for (; v + 3 <= u; v += 4) { // four rows v at once: four independent sums, each in the closure's order
        if (!vany(vand(in_u, vor(vor(in_lane(v), in_lane(v + 1)), vor(in_lane(v + 2), in_lane(v + 3)))))) continue;
        const V *y0 = Y + v * nv, *y1 = y0 + nv, *y2 = y1 + nv, *y3 = y2 + nv;
        V s0 = zero, s1 = zero, s2 = zero, s3 = zero;
        for (int a = 0; a < nc; ++a) {
          const int k = cl[a];
          const V d = yD[k];
          s0 += d * y0[k];
          s1 += d * y1[k];
          s2 += d * y2[k];
          s3 += d * y3[k];
        }
        put(v, s0), put(v + 1, s1), put(v + 2, s2), put(v + 3, s3);
      }
      for (; v <= u; ++v) {
        if (!vany(vand(in_u, in_lane(v)))) continue;
        const V* yv = Y + v * nv;
        V s = zero;
        for (int a = 0; a < nc; ++a) s += yD[cl[a]] * yv[cl[a]];
        put(v, s);
      }
    }
    u0 += g;
  }
  // b at a₀ (into cw.jv too, where pgs_start reads it)
  V* b = cw.jv;
  for (int u = 0; u < n; ++u) {
    int nd;
    const int* dofs = row_dofs(KC, cw, cw.used[u], nd);
    V s = zero;
    for (int a = 0; a < nd; ++a) s += J[u * nv + dofs[a]] * cw.a0[dofs[a]];
    b[u] = s - cw.u_aref[u];
    vstore(cw.pgs_b + u * L, b[u]);
  }
  bool on[L];
  for (int u = 0; u < n; ++u) {
    mask_bools(cw.u_on[u], on);
    for (int l = 0; l < L; ++l) cw.pgs_on[u * L + l] = u < cw.nfric_used || on[l]; // equality and friction rows are always in
  }
}

/// PGS's start force per lane into pgs_f (after dual_prepare): the primal forces at the warm start
/// (update_forces), kept where fᵀb + ½fᵀ·AR·f ≤ 0, else 0 (MuJoCo's warmstart for PGS).
template <class V>
inline void pgs_start(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, bool use_warm) {
  using T = ScalarOf<V>;
  constexpr int L = lanes_of<V>;
  const int nv = M.nv, n = cw.nused;
  const V zero(T(0));
  const V* J = cw.newton_J;
  const V* b = cw.jv;
  auto in_lane = [&](int u) { return u < cw.nfric_used ? mask_true<V>() : cw.u_on[u]; };
  if (use_warm) {
    for (int u = 0; u < n; ++u) {
      int nd;
      const int* dofs = row_dofs(KC, cw, cw.used[u], nd);
      V w = zero;
      for (int a = 0; a < nd; ++a) w += J[u * nv + dofs[a]] * cw.warm[dofs[a]];
      cw.jar[u] = w - cw.u_aref[u];
    }
    update_forces(cw);
    V cost = zero;
    for (int u = 0; u < n; ++u) {
      V ARf = zero;
      for (int v = 0; v < n; ++v) ARf += vselect(in_lane(v), load<V>(cw.pgs_AR + (u * n + v) * L) * cw.u_force[v], zero);
      cost += vselect(in_lane(u), cw.u_force[u] * (b[u] + T(0.5) * ARf), zero);
    }
    const MaskOf<V> cold = cost > zero;
    for (int u = 0; u < n; ++u) vstore(cw.pgs_f + u * L, vselect(cold, zero, cw.u_force[u]));
  } else {
    for (int u = 0; u < n; ++u) vstore(cw.pgs_f + u * L, zero);
  }
}

/// One island of one lane as the dual solvers see it (pgs_lane, noslip.hpp): its rows (used indices,
/// in MuJoCo's efc order), their dense AR (n × n, in cw.pgs_A) and per row b, frictionloss, R and the
/// force (in cw.pgs_vec; the force is written back to pgs_f after `solve`).
template <class T>
struct DualIsland {
  const int* rows;
  int n, ne, nf;
  const T *A, *b, *floss, *R;
  T* f;
  T* scratch; // kPgsVecs − 4 more vectors, each of nused
};

/// Lane l's islands (MuJoCo's, from find_islands' labels), each handed to solve(DualIsland) with its
/// forces from pgs_f and written back after; rows not in the lane's problem get 0.
template <class V, class Solve>
inline void for_each_island(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, int l, Solve&& solve) {
  using T = ScalarOf<V>;
  constexpr int L = lanes_of<V>;
  const int n = cw.nused;
  int *rows = cw.pgs_int, *island = rows + n;
  int nrows = 0;
  for (int u = 0; u < n; ++u) {
    if (cw.pgs_on[u * L + l])
      rows[nrows++] = u;
    else
      cw.pgs_f[u * L + l] = T(0);
  }
  T *b = cw.pgs_vec, *f = b + n, *floss = f + n, *R = floss + n, *scratch = R + n;
  // islands in the order of their first row; a row's island is its tree's label in this lane
  for (int first = 0; first < nrows; ++first) {
    const int u0 = rows[first];
    if (u0 < 0) continue; // taken by an earlier island
    const int label = cw.label[cw.u_tree[u0] * L + l];
    int m = 0, ne = 0, nf = 0;
    for (int e = first; e < nrows; ++e) {
      const int u = rows[e];
      if (u < 0 || cw.label[cw.u_tree[u] * L + l] != label) continue;
      island[m++] = u;
      rows[e] = -1;
      if (u < cw.neq_used)
        ++ne;
      else if (u < cw.nfric_used)
        ++nf;
    }
    // the contact rows in MuJoCo's contact order (insertion sort: stable, keeping a point's edges in
    // order, and allocation-free), the other rows' order being MuJoCo's already
    const int nshapes = static_cast<int>(KC.shapes.size());
    auto point_of = [&](int u) { return cw.row_point[cw.used[u] - cw.first_contact]; };
    // mjc_PlaneCapsule gives the capsule's +axis end first: the end further along MuJoCo's t1, the capsule
    // axis for both points (our t1 is MuJoCo's signed to our a → b order: −t1 where mj_swap)
    auto along_axis = [&](int slot) {
      const Vec3<V>& pos = cw.mf[slot / kPairPoints].pos[slot % kPairPoints];
      const Vec3<V>& t1 = cw.frame[slot * 3 + 1];
      return vlane(pos.x, l) * vlane(t1.x, l) + vlane(pos.y, l) * vlane(t1.y, l) + vlane(pos.z, l) * vlane(t1.z, l);
    };
    auto before = [&](int u, int v) {
      const int su = point_of(u), sv = point_of(v);
      const KContactPair<T>&P = cw.pair[su / kPairPoints], &Q = cw.pair[sv / kPairPoints];
      if (su / kPairPoints != sv / kPairPoints) return mujoco_contact_before(P, Q, nshapes);
      if (su == sv) return false;
      if (P.box_on_plane >= 0) return vlane(cw.mj_corner[su], l) < vlane(cw.mj_corner[sv], l);
      if (P.capsule_on_plane < 0) return false;
      return P.mj_swap ? along_axis(su) < along_axis(sv) : along_axis(su) > along_axis(sv);
    };
    int c0 = 0;
    while (c0 < m && island[c0] < cw.first_contact_used) ++c0;
    for (int i = c0 + 1; i < m; ++i) {
      const int u = island[i];
      int j = i;
      for (; j > c0 && before(u, island[j - 1]); --j) island[j] = island[j - 1];
      island[j] = u;
    }
    for (int i = 0; i < m; ++i) {
      const int u = island[i];
      b[i] = cw.pgs_b[u * L + l];
      f[i] = cw.pgs_f[u * L + l];
      floss[i] = cw.floss[cw.used[u]];
      R[i] = vlane(cw.u_R[u], l);
      for (int j = 0; j < m; ++j) cw.pgs_A[i * m + j] = cw.pgs_AR[(u * n + island[j]) * L + l];
    }
    solve(DualIsland<T>{island, m, ne, nf, cw.pgs_A, b, floss, R, f, scratch});
    for (int i = 0; i < m; ++i) cw.pgs_f[island[i] * L + l] = f[i];
  }
}

/// Lane l's islands, each solved by pgs_island from pgs_f (its forces written back; rows not in
/// the lane's problem get 0).
template <class V>
inline void pgs_lane(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, int l, int nv, int iterations) {
  using T = ScalarOf<V>;
  const T scale = pgs_scale(KC, cw.lanes, nv, l);
  int* order = cw.pgs_int + 2 * cw.nused;
  for_each_island(KC, cw, l, [&](const DualIsland<T>& D) {
    const int n = cw.nused; // the scratch vectors' stride
    T *ARinv = D.scratch, *Acc = ARinv + n, *prev = Acc + n, *mom = prev + n;
    PgsIsland<T> I{D.n, D.ne, D.nf, D.A, D.b, D.floss, D.f, ARinv, Acc, prev, mom, order};
    pgs_island(I, iterations, KC.tolerance, scale);
  });
}

/// mj_dualFinish after a dual solve: the forces from pgs_f, qfrc = Jᵀf and a = a₀ + M⁻¹qfrc (M⁻¹
/// from dual_prepare's factor), the forces back to their row slots.
template <class V>
inline void dual_finish(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw) {
  constexpr int L = lanes_of<V>;
  const int nv = M.nv;
  for (int u = 0; u < cw.nused; ++u) cw.u_force[u] = load<V>(cw.pgs_f + u * L);
  rows_transpose(M, KC, W, cw, cw.u_force, cw.qfrc);
  solve_factored_tree(KC, cw.newton_L, nv, cw.qfrc, cw.tmp);
  for (int k = 0; k < nv; ++k) cw.a[k] = cw.tmp[k] + cw.a0[k];
  for (int u = 0; u < cw.nused; ++u) cw.force[cw.used[u]] = cw.u_force[u];
}

/// The constrained accelerations of one block by PGS (the contract of solve_constraints): a = a₀ + M⁻¹Jᵀf.
template <class V>
inline void solve_pgs(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw, int iterations,
                      bool use_warm) {
  constexpr int L = lanes_of<V>;
  find_islands(KC, cw);
  pack_rows(KC, cw);
  cw.reserve_pgs(cw.nused);
  dual_prepare(M, KC, W, cw);
  pgs_start(M, KC, cw, use_warm);
  for (int l = 0; l < L; ++l) pgs_lane(KC, cw, l, M.nv, iterations);
  dual_finish(M, KC, W, cw);
}

} // namespace ACH_ISA_NS
} // namespace ach
