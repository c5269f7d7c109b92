// MuJoCo's primal problem, solved by preconditioned conjugate gradient in acceleration space
// (engine_solver.c mj_solPrimal with flg_Newton = 0), for one block of lanes:
//
//   minimize  ½(a − a₀)ᵀM(a − a₀) + Σ_i ½ D_i (J_i a − aref_i)²   over rows on with J_i a − aref_i < 0
//
//   grad = M(a − a₀) − Jᵀf,  f_i = −D_i (J_i a − aref_i) on active rows;  Mgrad = M⁻¹ grad
//   search₀ = −Mgrad;  exact line search on the piecewise quadratic (1-D Newton, bracketed);
//   Hager–Zhang: β = (yᵀMg − 2(yᵀMy/dᵀy)·dᵀg)/dᵀy, floored at −1/(‖d‖·min(0.01, ‖g‖)), 0 if dᵀy < 1e-15
//
// Every lane runs the same fixed number of iterations; a lane whose line search finds no
// improvement (α = 0: MuJoCo stops there) keeps its answer, its search direction zeroed.
#pragma once

#include "../isa_namespace.hpp"

#include <limits>

#include "islands.hpp"
#include "rows.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

constexpr int kLineSearchIterations = 16;

/// Whether row slot r touches only trees in `idle` (none when idle is null).
template <class T> inline bool row_idle(const KConstraints<T>& KC, int r, const unsigned char* idle) {
  if (!idle) return false;
  const int ta = KC.row_tree_a[r], tb = KC.row_tree_b[r];
  return (ta >= 0 || tb >= 0) && (ta < 0 || idle[ta]) && (tb < 0 || idle[tb]);
}

/// out[u] = J_r·x for every used row r = used[u] (x's body motions taken from `motions`); rows of
/// idle trees only (x = 0 there) get 0.
template <class V>
inline void rows_times(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const Motion<V>* motions, const V* x, V* out,
                       const unsigned char* idle = nullptr) {
  const V zero(ScalarOf<V>(0));
  for (int u = 0; u < cw.first_contact_used; ++u) {
    const int r = cw.used[u];
    if (row_idle(KC, r, idle)) {
      out[u] = zero;
      continue;
    }
    if (r < cw.nfric_rows) {
      const KFriction<ScalarOf<V>>& F = KC.frictions[r];
      out[u] = F.tendon < 0 ? x[F.dof] : tendon_dot(KC.tendons[F.tendon], x);
      continue;
    }
    const KLimit<ScalarOf<V>>& L = KC.limits[(r - cw.nfric_rows) / 2];
    if (L.ball) {
      const Vec3<V>& J = cw.ball_J[r - cw.nfric_rows];
      out[u] = J.x * x[L.dof] + J.y * x[L.dof + 1] + J.z * x[L.dof + 2];
      continue;
    }
    out[u] = cw.lim_sign[r] * (L.tendon < 0 ? x[L.dof] : tendon_dot(KC.tendons[L.tendon], x));
  }
  const Motion<V> none = zero_motion<V>();
  for (int k = 0; k < cw.npts; ++k) {
    const int u = cw.pt_u[k], slot = cw.pt_slot[k];
    const KContactPair<ScalarOf<V>>& P = KC.pairs[slot / 4];
    if (row_idle(KC, cw.used[u], idle)) {
      for (int e = 0; e < P.rows; ++e) out[u + e] = zero;
      continue;
    }
    point_rows(P, cw.pj_a[slot], cw.pj_b[slot], P.body_a >= 0 ? motions[P.body_a] : none, P.body_b >= 0 ? motions[P.body_b] : none, out + u);
  }
}

/// qfrc = Jᵀ·f over the used rows (f packed: f[u] is row used[u]'s). With `idle` (per tree; the
/// joints' flags in cw.joint_idle), the dofs of idle trees keep the qfrc they hold: their rows'
/// forces have not changed since it was computed.
template <class V>
inline void rows_transpose(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw,
                           const V* f, V* qfrc, const unsigned char* idle = nullptr) {
  using T = ScalarOf<V>;
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) cw.F[i] = zero_force<V>();
  // a pair's points follow each other: its bodies' wrenches are summed in registers, then stored
  // (the same additions in the same order as adding into cw.F point by point)
  const Force<V> none = zero_force<V>();
  for (int k = 0; k < cw.npts;) {
    const int pair = cw.pt_slot[k] / 4;
    const KContactPair<T>& P = KC.pairs[pair];
    int end = k + 1;
    while (end < cw.npts && cw.pt_slot[end] / 4 == pair) ++end;
    if (row_idle(KC, cw.used[cw.pt_u[k]], idle)) { // a pair's rows share their trees
      k = end;
      continue;
    }
    // two bodies (the filter pairs no shapes of one weld body, collision/filter.cpp)
    Force<V> Fa = P.body_a >= 0 ? cw.F[P.body_a] : none, Fb = P.body_b >= 0 ? cw.F[P.body_b] : none;
    for (; k < end; ++k) point_transpose(P, cw.pj_a[cw.pt_slot[k]], cw.pj_b[cw.pt_slot[k]], f + cw.pt_u[k], Fa, Fb);
    if (P.body_a >= 0) cw.F[P.body_a] = Fa;
    if (P.body_b >= 0) cw.F[P.body_b] = Fb;
  }
  for (int k = 0; k < M.nv; ++k)
    if (!(idle && idle[KC.tree_of_dof[k]])) qfrc[k] = V(T(0));
  pass_wrench_to_joints(M, W, cw.F, qfrc, idle ? cw.joint_idle : nullptr);
  for (int u = 0; u < cw.first_contact_used; ++u) {
    const int r = cw.used[u];
    if (row_idle(KC, r, idle)) continue;
    const int tendon = r < cw.nfric_rows ? KC.frictions[r].tendon : KC.limits[(r - cw.nfric_rows) / 2].tendon;
    if (tendon >= 0) {
      tendon_add(KC.tendons[tendon], cw.lim_sign[r] * f[u], qfrc);
      continue;
    }
    if (r >= cw.nfric_rows && KC.limits[(r - cw.nfric_rows) / 2].ball) {
      const Vec3<V>& J = cw.ball_J[r - cw.nfric_rows];
      const int d = KC.limits[(r - cw.nfric_rows) / 2].dof;
      qfrc[d] = qfrc[d] + J.x * f[u];
      qfrc[d + 1] = qfrc[d + 1] + J.y * f[u];
      qfrc[d + 2] = qfrc[d + 2] + J.z * f[u];
      continue;
    }
    const int dof = r < cw.nfric_rows ? KC.frictions[r].dof : KC.limits[(r - cw.nfric_rows) / 2].dof;
    qfrc[dof] = qfrc[dof] + cw.lim_sign[r] * f[u];
  }
}

/// MuJoCo's Huber cost of a dry-friction row at jar = x (quadratic within ±R·f, linear beyond).
template <class V> inline V friction_cost(const V& x, const V& f, const V& Rf, const V& D) {
  using T = ScalarOf<V>;
  const MaskOf<V> neg = x <= -Rf, pos = x >= Rf;
  return vselect(neg, f * (T(-0.5) * Rf - x), vselect(pos, f * (T(-0.5) * Rf + x), T(0.5) * D * x * x));
}

/// Row u's force at its jar (mj_constraintUpdate_impl), returning its cost: a friction row's
/// f = −D·jar clamped to ±frictionloss (Huber cost); a limit's or contact's f = −D·jar where on and
/// violated, else 0.
template <class V> inline V update_force(ConstraintWork<V>& cw, int u) {
  using T = ScalarOf<V>;
  const V jar = cw.jar[u];
  if (u < cw.nfric_used) {
    const V f = cw.u_floss[u], R = cw.u_R[u];
    const V Rf = R * f;
    const MaskOf<V> neg = jar <= -Rf, pos = jar >= Rf;
    cw.u_force[u] = vselect(neg, f, vselect(pos, -f, -(cw.u_D[u] * jar)));
    return vselect(neg, T(-0.5) * R * f * f - f * jar, vselect(pos, T(-0.5) * R * f * f + f * jar, T(0.5) * cw.u_D[u] * jar * jar));
  }
  const MaskOf<V> act = vand(cw.u_on[u], jar < V(T(0)));
  cw.u_force[u] = vselect(act, -(cw.u_D[u] * jar), V(T(0)));
  return vselect(act, T(0.5) * cw.u_D[u] * jar * jar, V(T(0)));
}

/// Every row's force at jar; returns the constraint cost.
template <class V> inline V update_forces(ConstraintWork<V>& cw) {
  V cost(ScalarOf<V>(0));
  for (int u = 0; u < cw.nused; ++u) cost += update_force(cw, u);
  return cost;
}

/// Packs the used rows' solver inputs in `used` order (ConstraintWork's u_ arrays), and lists
/// each tree's rows in that order (friction rows first, as they come first in `used`).
template <class V> inline void pack_rows(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  const int nt = KC.ntrees;
  cw.nfric_used = cw.first_contact_used = cw.npts = 0;
  for (int t = 0; t <= nt; ++t) cw.tree_row_start[t] = 0;
  for (int t = 0; t < nt; ++t) cw.tree_nfric[t] = 0;
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    const int t = row_tree(KC, r);
    if (r < cw.nfric_rows) {
      cw.nfric_used = u + 1;
      ++cw.tree_nfric[t];
    }
    cw.u_tree[u] = t;
    ++cw.tree_row_start[t + 1];
    if (r < cw.first_contact) {
      cw.first_contact_used = u + 1;
    } else if (const int slot = KC.row_point[r - cw.first_contact]; cw.npts == 0 || cw.pt_slot[cw.npts - 1] != slot) {
      cw.pt_u[cw.npts] = u; // a point's rows are used together, in edge order
      cw.pt_slot[cw.npts++] = slot;
    }
    cw.u_on[u] = cw.on[r];
    cw.u_D[u] = cw.D[r];
    cw.u_R[u] = cw.R[r];
    cw.u_aref[u] = cw.aref[r];
    cw.u_floss[u] = V(cw.floss[r]);
  }
  for (int t = 0; t < nt; ++t) cw.tree_row_start[t + 1] += cw.tree_row_start[t];
  int* fill = cw.tree_fill;
  for (int t = 0; t < nt; ++t) fill[t] = cw.tree_row_start[t];
  for (int u = 0; u < cw.nused; ++u) cw.tree_rows[fill[cw.u_tree[u]]++] = u;
}

template <class V> inline V dotv(const V* a, const V* b, int n) {
  V s(ScalarOf<V>(0));
  for (int k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

/// Cost change from α = 0, slope and curvature of every island's 1-D cost at its step alpha[t],
/// and tree(TV_CROSSED): how many of the island's rows lie in another piece of the cost at alpha
/// than at `from` (a row crossing its kink: x = 0, or x = ±R·f for friction). `kStart` is the first
/// evaluation, at α = 0 (alpha and from are not read): it also keeps the line search's per-row
/// constants, a row's cost at α = 0 and D·jv², and its cost change and crossings are 0. Without
/// `kCost` the cost is left out (tree(TV_COST) holds only the quadratic part): only the tolerance's
/// improvement test reads it, so a solve with a fixed iteration count needs none of it.
/// Each tree sums its rows in `used` order, in registers, into its row sums (tree(TV_ROWS_*)); a
/// tree settled in every lane (`settled`, when given) has the same step as at the last evaluation,
/// so its row sums are kept rather than summed again, and none of its rows crossed.
template <bool kStart, bool kCost, class V>
inline void line_eval(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const V* alpha, const V* from, const MaskOf<V>* settled = nullptr) {
  using T = ScalarOf<V>;
  const int nt = KC.ntrees;
  V *cost = cw.tree(TV_COST), *d1 = cw.tree(TV_D1), *d2 = cw.tree(TV_D2), *crossed = cw.tree(TV_CROSSED);
  V *row_cost = cw.tree(TV_ROWS_COST), *row_d1 = cw.tree(TV_ROWS_D1), *row_d2 = cw.tree(TV_ROWS_D2), *row_crossed = cw.tree(TV_ROWS_CROSSED);
  const V zero(T(0)), one(T(1));
  // the arrays in locals: a store of a pack may alias anything, cw's pointers included
  const V *jar = cw.jar, *jvs = cw.jv, *u_D = cw.u_D, *u_floss = cw.u_floss, *u_R = cw.u_R;
  const MaskOf<V>* u_on = cw.u_on;
  V *ls_cost0 = cw.ls_cost0, *ls_djv2 = cw.ls_djv2;
  const int* tree_rows = cw.tree_rows;
  for (int t = 0; t < nt; ++t) {
    if (settled && !vany(vnot(settled[t]))) {
      row_crossed[t] = zero;
      continue;
    }
    const V a = kStart ? zero : alpha[t], a_from = kStart ? zero : from[t];
    V c = zero, g = zero, h = zero, n = zero;
    const int first = cw.tree_row_start[t], fric_end = first + cw.tree_nfric[t], end = cw.tree_row_start[t + 1];
    for (int k = first; k < fric_end; ++k) {
      const int u = tree_rows[k];
      const V j0 = jar[u], jv = jvs[u], D = u_D[u];
      const V f = u_floss[u];
      const V Rf = u_R[u] * f;
      if constexpr (kStart) {
        if constexpr (kCost) ls_cost0[u] = friction_cost(j0, f, Rf, D);
        const V djv2 = D * jv * jv;
        ls_djv2[u] = djv2;
        const MaskOf<V> quad = vand(-Rf < j0, j0 < Rf), neg = j0 <= -Rf;
        g += vselect(quad, D * j0 * jv, vselect(neg, -(f * jv), f * jv));
        h += vselect(quad, djv2, zero);
        continue;
      }
      const V x = j0 + a * jv, x_from = j0 + a_from * jv;
      if constexpr (kCost) c += friction_cost(x, f, Rf, D) - ls_cost0[u];
      const MaskOf<V> quad = vand(-Rf < x, x < Rf), neg = x <= -Rf;
      const MaskOf<V> quad_from = vand(-Rf < x_from, x_from < Rf), neg_from = x_from <= -Rf;
      g += vselect(quad, D * x * jv, vselect(neg, -(f * jv), f * jv));
      h += vselect(quad, ls_djv2[u], zero);
      n += vselect(vor(vxor(quad, quad_from), vxor(neg, neg_from)), one, zero);
    }
    for (int k = fric_end; k < end; ++k) {
      const int u = tree_rows[k];
      const V j0 = jar[u], jv = jvs[u], D = u_D[u];
      if constexpr (kStart) {
        const MaskOf<V> act = vand(u_on[u], j0 < zero);
        if constexpr (kCost) ls_cost0[u] = vselect(act, T(0.5) * D * j0 * j0, zero);
        const V djv2 = D * jv * jv;
        ls_djv2[u] = djv2;
        g += vselect(act, D * j0 * jv, zero);
        h += vselect(act, djv2, zero);
        continue;
      }
      const V x = j0 + a * jv, x_from = j0 + a_from * jv;
      const MaskOf<V> act = vand(u_on[u], x < zero), act_from = vand(u_on[u], x_from < zero);
      if constexpr (kCost) c += vselect(act, T(0.5) * D * x * x, zero) - ls_cost0[u];
      g += vselect(act, D * x * jv, zero);
      h += vselect(act, ls_djv2[u], zero);
      n += vselect(vxor(act, act_from), one, zero);
    }
    row_cost[t] = c;
    row_d1[t] = g;
    row_d2[t] = h;
    row_crossed[t] = n;
  }
  for (int t = 0; t < nt; ++t) {
    cost[t] = row_cost[t];
    d1[t] = row_d1[t];
    d2[t] = row_d2[t];
    crossed[t] = row_crossed[t];
  }
  V* const sums[] = {cost, d1, d2, crossed};
  island_sums(KC, cw, sums, 4);
  const V *c1 = cw.tree(TV_C1), *c2 = cw.tree(TV_C2);
  for (int t = 0; t < nt; ++t) {
    const V a = alpha[t];
    cost[t] = a * c1[t] + a * a * c2[t] + cost[t];
    d1[t] = c1[t] + T(2) * a * c2[t] + d1[t];
    d2[t] = T(2) * c2[t] + d2[t];
  }
}

/// Exact line search per island: safeguarded 1-D Newton on the convex piecewise quadratic (within
/// one piece a Newton step lands on the minimum), at most kLineSearchIterations evaluations. An
/// island settles once a Newton step lands in the piece it was taken from (no row of the island
/// crossed a kink on the way: the landing point is that piece's minimum, so the cost's), or its
/// Newton step is at rounding level (|Δα| <= 8ε|α|). Without the first rule, round-off in f'(α)
/// keeps the steps jittering: measured, 15.5 (f32) and 16.7 (f64) of at most 17 evaluations per
/// search on the box stack, 2.0 with it. A settled island is left
/// exactly as it is, so stopping when every island of every lane has settled changes no result
/// (each lane's answer never depends on the other lanes of its block). Each island takes
/// the evaluated step with the smallest slope |f'(α)| (MuJoCo's PrimalSearch converges on the slope
/// too, so the answer is not limited by the cost's rounding), 0 when α = 0 is not a descent.
/// c1, c2 (island sums of dᵀM(a − a₀) and ½dᵀMd) are in tree(TV_C1), tree(TV_C2); the step lands in tree(TV_BEST),
/// and with `kCost` its cost change in tree(TV_BEST_COST).
template <bool kCost, class V> inline void line_search(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  const int nt = KC.ntrees;
  const V zero(T(0));
  V *alpha = cw.tree(TV_ALPHA), *lo = cw.tree(TV_LO), *hi = cw.tree(TV_HI), *best = cw.tree(TV_BEST), *slope = cw.tree(TV_SLOPE);
  V *best_cost = cw.tree(TV_BEST_COST), *from = cw.tree(TV_FROM);
  const V* crossed = cw.tree(TV_CROSSED);
  const V* cost = cw.tree(TV_COST);
  V *d1 = cw.tree(TV_D1), *d2 = cw.tree(TV_D2);
  MaskOf<V> *has_hi = cw.tree_mask(TM_HAS_HI), *descent = cw.tree_mask(TM_DESCENT), *settled = cw.tree_mask(TM_SETTLED);
  MaskOf<V>* newton_step = cw.tree_mask(TM_NEWTON_STEP);
  const V eps(T(8) * std::numeric_limits<T>::epsilon());
  for (int t = 0; t < nt; ++t) alpha[t] = zero;
  line_eval<true, kCost>(KC, cw, alpha, alpha);
  for (int t = 0; t < nt; ++t) {
    best[t] = lo[t] = hi[t] = best_cost[t] = zero;
    slope[t] = vabs(d1[t]);
    has_hi[t] = mask_false<V>();
    descent[t] = d1[t] < zero;
    settled[t] = vnot(descent[t]);
  }
  for (int it = 0; it < kLineSearchIterations; ++it) {
    bool moving = false;
    for (int t = 0; t < nt; ++t) {
      const MaskOf<V> curved = d2[t] > zero;
      const V newton = alpha[t] - d1[t] / vselect(curved, d2[t], V(T(1)));
      const MaskOf<V> outside = vand(has_hi[t], vor(newton <= lo[t], newton >= hi[t]));
      const V next = vselect(outside, T(0.5) * (lo[t] + hi[t]), newton);
      settled[t] = vor(settled[t], vor(vnot(curved), vabs(next - alpha[t]) <= eps * vabs(next)));
      newton_step[t] = vnot(outside);
      from[t] = alpha[t];
      alpha[t] = vselect(settled[t], alpha[t], next);
      moving = moving || vany(vnot(settled[t]));
    }
    if (!moving) break;
    line_eval<false, kCost>(KC, cw, alpha, from, settled);
    for (int t = 0; t < nt; ++t) {
      const MaskOf<V> better = vabs(d1[t]) < slope[t];
      best[t] = vselect(better, alpha[t], best[t]);
      best_cost[t] = vselect(better, cost[t], best_cost[t]);
      slope[t] = vselect(better, vabs(d1[t]), slope[t]);
      const MaskOf<V> below = d1[t] < zero;
      lo[t] = vselect(below, alpha[t], lo[t]);
      hi[t] = vselect(below, hi[t], alpha[t]);
      has_hi[t] = vor(has_hi[t], vnot(below));
      // a Newton step that stayed in the piece it was taken from lands on that piece's minimum,
      // which is the cost's minimum (convex): nothing further to find
      settled[t] = vor(settled[t], vand(newton_step[t], crossed[t] == zero));
    }
  }
  for (int t = 0; t < nt; ++t) {
    best[t] = vselect(descent[t], best[t], zero);
    best_cost[t] = vselect(descent[t], best_cost[t], zero);
  }
}

/// Marks the trees done in every lane of the block (cw.tree_idle, and their joints in
/// cw.joint_idle); returns cw.tree_idle, or null when there are none. A done lane's step is 0 and its
/// search 0, so its a, M(a − a₀), rows, forces, qfrc and M⁻¹ grad stay as they are: a tree done in
/// every lane needs none of the loop's products, and leaving it alone gives the same bits as
/// computing it (MuJoCo's CG stops a finished island outright). A tendon row joining an idle tree
/// to a busy one adds straight into both trees' qfrc, so both stay busy.
template <class V>
inline const unsigned char* mark_idle(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const MaskOf<V>* done) {
  const int nt = KC.ntrees;
  unsigned char* idle = cw.tree_idle;
  bool any = false;
  for (int t = 0; t < nt; ++t) any = (idle[t] = !vany(vnot(done[t]))) || any;
  for (bool changed = any; changed;) {
    changed = false;
    for (int u = 0; u < cw.first_contact_used; ++u) {
      const int ta = KC.row_tree_a[cw.used[u]], tb = KC.row_tree_b[cw.used[u]];
      if (ta >= 0 && tb >= 0 && idle[ta] != idle[tb]) idle[ta] = idle[tb] = 0, changed = true;
    }
  }
  any = false;
  for (int t = 0; t < nt; ++t) any = any || idle[t];
  if (!any) return nullptr;
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) cw.joint_idle[i] = KC.tree_of_joint[i] >= 0 && idle[KC.tree_of_joint[i]];
  return idle;
}

/// The constrained accelerations of one block: cw.a0 holds qacc_smooth, rows are built; with
/// `use_warm`, cw.warm competes with qacc_smooth as MuJoCo's warmstart(); dofs of trees in no island
/// keep qacc_smooth. Writes cw.a, cw.force (by row slot), cw.qfrc.
template <class V>
inline void solve_constraints(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw,
                              int iterations, bool use_warm) {
  using T = ScalarOf<V>;
  const int nv = M.nv, nt = KC.ntrees;
  const V zero(T(0));
  find_islands(KC, cw);
  pack_rows(KC, cw);
  const int nu = cw.nused;
  const MaskOf<V>* in_island = cw.tree_mask(TM_IN_ISLAND);
  // start: qacc_smooth, or the warm start where its cost is not higher
  pass_body_motion(M, W, cw.a0, cw.tw.m);
  rows_times(KC, cw, cw.tw.m, cw.a0, cw.jar);
  for (int u = 0; u < nu; ++u) cw.jar[u] = cw.jar[u] - cw.u_aref[u];
  for (int k = 0; k < nv; ++k) {
    cw.a[k] = cw.a0[k];
    cw.Mrel[k] = zero;
  }
  if (use_warm) {
    const V cost_smooth = update_forces(cw);
    for (int k = 0; k < nv; ++k) cw.tmp[k] = cw.warm[k] - cw.a0[k];
    mul_M(M, W, cw.tw, cw.tmp, cw.tmp2); // M(warm − a₀)
    const V gauss = T(0.5) * dotv(cw.tmp, cw.tmp2, nv);
    for (int u = 0; u < nu; ++u) cw.jv[u] = cw.jar[u]; // keep jar(a₀)
    pass_body_motion(M, W, cw.warm, cw.tw.m);
    rows_times(KC, cw, cw.tw.m, cw.warm, cw.jar);
    for (int u = 0; u < nu; ++u) cw.jar[u] = cw.jar[u] - cw.u_aref[u];
    const V cost_warm = gauss + update_forces(cw);
    const MaskOf<V> warm = cost_warm <= cost_smooth;
    for (int k = 0; k < nv; ++k) {
      // M is block-diagonal over trees, so M(a − a₀) of a tree outside every island is 0 with a = a₀
      const MaskOf<V> w = vand(warm, in_island[KC.tree_of_dof[k]]);
      cw.a[k] = vselect(w, cw.warm[k], cw.a0[k]);
      cw.Mrel[k] = vselect(w, cw.tmp2[k], zero);
    }
    for (int u = 0; u < nu; ++u) cw.jar[u] = vselect(warm, cw.jar[u], cw.jv[u]);
  }
  update_forces(cw);
  rows_transpose(M, KC, W, cw, cw.u_force, cw.qfrc);
  for (int k = 0; k < nv; ++k) cw.grad[k] = cw.Mrel[k] - cw.qfrc[k];
  solve_M(M, W, cw.tw, cw.grad, cw.Mgrad);
  for (int k = 0; k < nv; ++k) cw.search[k] = -cw.Mgrad[k];
  MaskOf<V>* done = cw.tree_mask(TM_DONE);
  for (int t = 0; t < nt; ++t) done[t] = mask_false<V>();
  // MuJoCo's termination (tolerance > 0): scale = 1/Σ diag(M) over the island; an island is done once
  // ½·scale·gᵀM⁻¹g < tol before the first step (3.11+), or after a step when 0 < scale·improvement < tol
  // or scale·‖g‖ < tol. Done islands stay exactly as they are, so the block stops when all lanes are done.
  const bool tolerant = KC.tolerance > 0;
  const V tol(T(KC.tolerance));
  V* scale = cw.tree(TV_SCALE);
  if (tolerant) {
    mass_diagonal(M, W, cw.Ic, cw.tmp);
    for (int k = 0; k < nv; ++k) cw.tmp2[k] = V(T(1));
    tree_dot(KC, cw.tmp, cw.tmp2, scale);
    island_sum(KC, cw, scale);
    for (int t = 0; t < nt; ++t) scale[t] = T(1) / scale[t];
    V* gap = cw.tree(TV_C1);
    tree_dot(KC, cw.grad, cw.Mgrad, gap);
    island_sum(KC, cw, gap);
    for (int t = 0; t < nt; ++t) done[t] = vmax(V(T(0)), T(0.5) * scale[t] * gap[t]) < tol;
  }
  const V* alpha = cw.tree(TV_BEST);
  for (int k = 0; k < nv; ++k) cw.Mv[k] = zero; // idle trees' M·search (their search is 0)
  for (int it = 0; it < iterations; ++it) {
    // every island of every lane done (its line search found no improvement, or the tolerance
    // was met): the remaining iterations would change nothing
    bool all_done = true;
    for (int t = 0; t < nt && all_done; ++t) all_done = !vany(vnot(done[t]));
    if (all_done) break;
    const unsigned char* idle = mark_idle(M, KC, cw, done);
    const unsigned char* idle_joints = idle ? cw.joint_idle : nullptr;
    mul_M(M, W, cw.tw, cw.search, cw.Mv, idle_joints); // leaves the search's body motions in tw.m
    rows_times(KC, cw, cw.tw.m, cw.search, cw.jv, idle);
    V *c1 = cw.tree(TV_C1), *c2 = cw.tree(TV_C2);
    tree_dot(KC, cw.search, cw.Mrel, c1);
    tree_dot(KC, cw.search, cw.Mv, c2);
    V* const c12[] = {c1, c2};
    island_sums(KC, cw, c12, 2);
    for (int t = 0; t < nt; ++t) c2[t] = T(0.5) * c2[t];
    if (tolerant) line_search<true>(KC, cw);
    else line_search<false>(KC, cw); // the cost is read only by the tolerance's test
    for (int t = 0; t < nt; ++t) cw.tree(TV_BEST)[t] = vselect(done[t], zero, alpha[t]);
    // done lanes keep a, Mrel and jar exactly (their step is 0), whether or not their tree is idle
    V *qacc = cw.a, *Mrel = cw.Mrel, *gradold = cw.gradold, *Mgradold = cw.Mgradold, *search = cw.search; // (locals: see line_eval)
    const V *Mv = cw.Mv, *grad = cw.grad, *Mgrad = cw.Mgrad;
    for (int t = 0; t < nt; ++t) {
      if (idle && idle[t]) continue;
      const V al = alpha[t];
      const MaskOf<V> keep = done[t];
      for (int e = KC.tree_dof_start[t]; e < KC.tree_dof_start[t + 1]; ++e) {
        const int k = KC.tree_dofs[e];
        qacc[k] = vselect(keep, qacc[k], qacc[k] + al * search[k]);
        Mrel[k] = vselect(keep, Mrel[k], Mrel[k] + al * Mv[k]);
        gradold[k] = grad[k];
        Mgradold[k] = Mgrad[k];
      }
    }
    for (int u = 0; u < nu; ++u) { // an idle row keeps its jar, and so its force
      if (row_idle(KC, cw.used[u], idle)) continue;
      const int t = cw.u_tree[u];
      cw.jar[u] = vselect(done[t], cw.jar[u], cw.jar[u] + alpha[t] * cw.jv[u]);
      update_force(cw, u);
    }
    rows_transpose(M, KC, W, cw, cw.u_force, cw.qfrc, idle);
    for (int k = 0; k < nv; ++k) cw.grad[k] = cw.Mrel[k] - cw.qfrc[k];
    solve_M(M, W, cw.tw, cw.grad, cw.Mgrad, idle_joints);
    for (int t = 0; t < nt; ++t) done[t] = vor(done[t], alpha[t] == zero);
    // Hager–Zhang direction, per island (its sums also give the termination's gradient norm)
    for (int t = 0; t < nt; ++t) {
      V dy = zero, ymy = zero, ymg = zero, dg = zero, dd = zero, gg = zero;
      if (!(idle && idle[t]))
        for (int e = KC.tree_dof_start[t]; e < KC.tree_dof_start[t + 1]; ++e) {
          const int k = KC.tree_dofs[e];
          const V y = grad[k] - gradold[k];
          const V My = Mgrad[k] - Mgradold[k];
          dy += search[k] * y;
          ymy += y * My;
          ymg += y * Mgrad[k];
          dg += search[k] * grad[k];
          dd += search[k] * search[k];
          gg += grad[k] * grad[k];
        }
      cw.tree(TV_DY)[t] = dy, cw.tree(TV_YMY)[t] = ymy, cw.tree(TV_YMG)[t] = ymg;
      cw.tree(TV_DG)[t] = dg, cw.tree(TV_DD)[t] = dd, cw.tree(TV_GG)[t] = gg;
    }
    V* const hz[] = {cw.tree(TV_DY), cw.tree(TV_YMY), cw.tree(TV_YMG), cw.tree(TV_DG), cw.tree(TV_DD), cw.tree(TV_GG)};
    island_sums(KC, cw, hz, 6);
    if (tolerant)
      for (int t = 0; t < nt; ++t) {
        const V improvement = scale[t] * -cw.tree(TV_BEST_COST)[t];
        const V gradient = scale[t] * vsqrt(cw.tree(TV_GG)[t]);
        done[t] = vor(done[t], vor(vand(improvement > V(T(0)), improvement < tol), gradient < tol));
      }
    V* beta = cw.tree(TV_C1); // reused: c1 is not needed again this iteration
    for (int t = 0; t < nt; ++t) {
      const V d_dot_y = cw.tree(TV_DY)[t];
      const MaskOf<V> restart = d_dot_y < V(T(kMinVal));
      const V dy = vselect(restart, V(T(1)), d_dot_y);
      const V beta_hz = (cw.tree(TV_YMG)[t] - T(2) * (cw.tree(TV_YMY)[t] / dy) * cw.tree(TV_DG)[t]) / dy;
      const V eta_k = V(T(-1)) / vmax(V(T(kMinVal)), vsqrt(cw.tree(TV_DD)[t]) * vmin(V(T(0.01)), vsqrt(cw.tree(TV_GG)[t])));
      beta[t] = vselect(restart, zero, vmax(eta_k, beta_hz));
    }
    for (int t = 0; t < nt; ++t) {
      if (idle && idle[t]) continue; // its search is already 0
      const V b = beta[t];
      const MaskOf<V> stop = done[t];
      for (int e = KC.tree_dof_start[t]; e < KC.tree_dof_start[t + 1]; ++e) {
        const int k = KC.tree_dofs[e];
        search[k] = vselect(stop, zero, b * search[k] - Mgrad[k]);
      }
    }
  }
  for (int u = 0; u < nu; ++u) cw.force[cw.used[u]] = cw.u_force[u];
}

} // namespace ACH_ISA_NS
} // namespace ach
