// MuJoCo's primal problem (engine_solver.c mj_solPrimal, one driver for CG and Newton), for one
// block of lanes:
//
//   minimize  ½(a − a₀)ᵀM(a − a₀) + Σ_i ½ D_i (J_i a − aref_i)²   over rows on with J_i a − aref_i < 0
//             (an elliptic cone's point: its three-zone cost over its rows together, cone.hpp)
//
//   grad = M(a − a₀) − Jᵀf,  f_i = −D_i (J_i a − aref_i) on active rows;  Mgrad = M⁻¹ grad (CG) or H⁻¹ grad (Newton)
//   search₀ = −Mgrad;  exact line search on the piecewise quadratic (1-D Newton, bracketed);
//   then the next search direction: Hager–Zhang's conjugate one (cg.hpp) or −H⁻¹ grad (newton.hpp)
//
// solve_primal is the driver; its iteration is MuJoCo Warp's _solver_iteration, a few named calls:
// search_products (PrimalPrepare), line_search (PrimalSearch), take_step (the move and
// PrimalUpdateConstraint), update_gradient (PrimalUpdateGrad), the direction's update_Mgrad
// (PrimalUpdateMgrad; Newton's Hessian first), test_convergence and the direction's update_search.
// Every lane runs the same fixed number of iterations; a lane whose line search finds no
// improvement (α = 0: MuJoCo stops there) keeps its answer, its search direction zeroed.
#pragma once

#include "../../isa_namespace.hpp"

#include "../../vmath.hpp"
#include "../../contact/islands.hpp"
#include "line_search.hpp"
#include "../../contact/row_products.hpp"
#include "../../contact/rows.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Row u's force at its jar (mj_constraintUpdate_impl), returning its cost: a friction row's
/// f = −D·jar clamped to ±frictionloss (Huber cost); a limit's or contact's f = −D·jar where on and
/// violated, else 0.
template <class V>
inline V update_force(ConstraintWork<V>& cw, int u) {
  using T = ScalarOf<V>;
  const V jar = cw.jar[u];
  if (u < cw.neq_used) { // equality: two-sided, always quadratic
    cw.u_force[u] = -(cw.u_D[u] * jar);
    return T(0.5) * cw.u_D[u] * jar * jar;
  }
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

/// Every row's force at jar (an elliptic point's rows together, cone.hpp); returns the constraint cost.
template <class V>
inline V update_forces(ConstraintWork<V>& cw) {
  V cost(ScalarOf<V>(0));
  for (int u = 0; u < cw.nused; ++u) {
    const int dim = cw.u_cone[u];
    if (dim == 0)
      cost += update_force(cw, u);
    else if (dim > 0)
      cost += update_cone(cw, u, dim);
  }
  return cost;
}

/// Packs the used rows' solver inputs in `used` order (ConstraintWork's u_ arrays), and lists
/// each tree's rows in that order (equality rows, then friction rows, as they come in `used`).
template <class V>
inline void pack_rows(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  const int nt = KC.ntrees;
  cw.neq_used = cw.nfric_used = cw.first_contact_used = cw.npts = 0;
  for (int t = 0; t <= nt; ++t) cw.tree_row_start[t] = 0;
  for (int t = 0; t < nt; ++t) cw.tree_nfric[t] = cw.tree_neq[t] = 0;
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    const int t = row_tree(cw, r);
    if (r < cw.neq_rows) {
      cw.neq_used = u + 1;
      ++cw.tree_neq[t];
    } else if (r < cw.first_limit) {
      cw.nfric_used = u + 1;
      ++cw.tree_nfric[t];
    }
    cw.u_tree[u] = t;
    ++cw.tree_row_start[t + 1];
    if (r < cw.first_contact) {
      cw.first_contact_used = u + 1;
    } else if (const int slot = cw.row_point[r - cw.first_contact]; cw.npts == 0 || cw.pt_slot[cw.npts - 1] != slot) {
      cw.pt_u[cw.npts] = u; // a point's rows are used together, in edge order
      cw.pt_slot[cw.npts++] = slot;
    }
    cw.u_on[u] = cw.on[r];
    cw.u_D[u] = cw.D[r];
    cw.u_R[u] = cw.R[r];
    cw.u_aref[u] = cw.aref[r];
    cw.u_floss[u] = V(cw.floss[r]);
    cw.u_cone[u] = 0;
    if (r >= cw.first_contact) {
      const int p = cw.row_point[r - cw.first_contact] / kPairPoints;
      const KContactPair<ScalarOf<V>>& P = cw.pair[p];
      if (P.elliptic) {
        cw.u_cone[u] = (r - cw.pair_row[p]) % P.rows == 0 ? P.rows : -1;
        cw.u_cone_mu[u] = cw.cone_mu[r];
      }
    }
  }
  for (int t = 0; t < nt; ++t) cw.tree_row_start[t + 1] += cw.tree_row_start[t];
  int* fill = cw.tree_fill;
  for (int t = 0; t < nt; ++t) fill[t] = cw.tree_row_start[t];
  for (int u = 0; u < cw.nused; ++u) cw.tree_rows[fill[cw.u_tree[u]]++] = u;
}

template <class V>
inline V dotv(const V* a, const V* b, int n) {
  V s(ScalarOf<V>(0));
  for (int k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

/// Marks the trees done in every lane of the block (cw.tree_idle, and their joints in
/// cw.joint_idle); returns cw.tree_idle, or null when there are none. A done lane's step is 0 and its
/// search 0, so its a, M(a − a₀), rows, forces, qfrc and M⁻¹ grad stay as they are: a tree done in
/// every lane needs none of the loop's products, and leaving it alone gives the same bits as
/// computing it (MuJoCo's CG stops a finished island outright). A tendon row joining an idle tree
/// to a busy one adds straight into both trees' qfrc, so both stay busy.
template <class V>
inline const unsigned char* mark_idle(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw,
                                      const MaskOf<V>* done) {
  const int nt = KC.ntrees;
  unsigned char* idle = cw.tree_idle;
  bool any = false;
  for (int t = 0; t < nt; ++t) any = (idle[t] = !vany(vnot(done[t]))) || any;
  for (bool changed = any; changed;) {
    changed = false;
    for (int u = 0; u < cw.first_contact_used; ++u) {
      const int ta = cw.row_tree_a[cw.used[u]], tb = cw.row_tree_b[cw.used[u]];
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

/// Whether the primal solve takes its products (M·x, J·x, Jᵀf, diag M) from newton_prepare's dense
/// M and J (Newton: formed once per solve) or from passes over the tree (CG).
template <class T>
inline bool dense_products(const KConstraints<T>& KC) {
  return KC.method == SolverMethod::newton;
}

/// The dofs row slot r's J can touch, ascending, and how many (n): a friction or limit row's from
/// the tables, a contact row's from its pair (list_contact_pairs).
template <class V>
inline const int* row_dofs(const KConstraints<ScalarOf<V>>& KC, const ConstraintWork<V>& cw, int r, int& n) {
  if (r < cw.first_contact) {
    n = KC.row_dof_start[r + 1] - KC.row_dof_start[r];
    return KC.row_dofs.data() + KC.row_dof_start[r];
  }
  const int p = cw.row_point[r - cw.first_contact] / kPairPoints;
  n = cw.pair_dof_start[p + 1] - cw.pair_dof_start[p];
  return cw.pair_dofs + cw.pair_dof_start[p];
}

/// The Newton solve's products, from newton_prepare's dense M (lower triangle) and J (MuJoCo's
/// mj_mulM and mj_mulJacVec / mj_mulJacTVec over its qM and efc_J), formed once per solve: cheaper
/// than a pass over the tree for the few dofs Newton takes (nv ≤ kNewtonMaxDofs). Dofs of trees in
/// `idle` (per tree, may be null) keep what out holds, and rows of idle trees get 0, as the tree
/// products (mul_M, rows_times, rows_transpose) do.
///   out = M·x: M(k, i) ≠ 0 only for i = k or i an ancestor of k (or k of i)
template <class V>
inline void dense_mul_M(const KConstraints<ScalarOf<V>>& KC, const ConstraintWork<V>& cw, int nv, const V* x, V* out, const unsigned char* idle) {
  const int* parent = KC.dof_parent.data();
  const V* Mm = cw.newton_M;
  for (int k = 0; k < nv; ++k)
    if (!idle || !idle[KC.tree_of_dof[k]]) out[k] = Mm[k * (nv + 1)] * x[k];
  for (int k = 0; k < nv; ++k) {
    if (idle && idle[KC.tree_of_dof[k]]) continue;
    for (int i = parent[k]; i >= 0; i = parent[i]) {
      out[k] += Mm[k * nv + i] * x[i];
      out[i] += Mm[k * nv + i] * x[k];
    }
  }
}

///   out[u] = J_u·x over the row's dofs
template <class V>
inline void dense_rows_times(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, int nv, const V* x, V* out, const unsigned char* idle) {
  const V zero(ScalarOf<V>(0));
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    if (row_idle(cw, r, idle)) {
      out[u] = zero;
      continue;
    }
    int nd;
    const int* dofs = row_dofs(KC, cw, r, nd);
    const V* Ju = cw.newton_J + u * nv;
    V s = zero;
    for (int a = 0; a < nd; ++a) s += Ju[dofs[a]] * x[dofs[a]];
    out[u] = s;
  }
}

///   qfrc = Jᵀ·f (f packed by used row), idle trees' dofs left as they are. A contact row can join an
///   idle tree to a busy one: on in a lane where the two trees are one island, done there, and off
///   in a lane where the busy tree is still going; its force still reaches the busy tree's dofs.
template <class V>
inline void dense_rows_transpose(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, int nv, const V* f, V* qfrc, const unsigned char* idle) {
  const V zero(ScalarOf<V>(0));
  for (int k = 0; k < nv; ++k)
    if (!idle || !idle[KC.tree_of_dof[k]]) qfrc[k] = zero;
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    if (row_idle(cw, r, idle)) continue;
    int nd;
    const int* dofs = row_dofs(KC, cw, r, nd);
    const V* Ju = cw.newton_J + u * nv;
    for (int a = 0; a < nd; ++a)
      if (!idle || !idle[KC.tree_of_dof[dofs[a]]]) qfrc[dofs[a]] += Ju[dofs[a]] * f[u];
  }
}

/// The start (MuJoCo's warmstart()): qacc_smooth, or with `use_warm` the warm start where its
/// cost is not higher; leaves a, Mrel = M(a − a₀) and jar = J·a − aref. Dofs of trees in no island
/// keep qacc_smooth.
template <class V>
inline void warm_start(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw,
                       bool use_warm) {
  using T = ScalarOf<V>;
  const int nv = M.nv, nu = cw.nused;
  const V zero(T(0));
  const MaskOf<V>* in_island = cw.per_tree.in_island;
  const bool dense = dense_products(KC);
  auto J_times = [&](const V* x, V* out) {
    if (dense) return dense_rows_times(KC, cw, nv, x, out, nullptr);
    pass_body_motion(M, W, x, cw.tw.m);
    rows_times(KC, cw, cw.tw.m, x, out);
  };
  J_times(cw.a0, cw.jar);
  for (int u = 0; u < nu; ++u) cw.jar[u] = cw.jar[u] - cw.u_aref[u];
  for (int k = 0; k < nv; ++k) {
    cw.a[k] = cw.a0[k];
    cw.Mrel[k] = zero;
  }
  if (!use_warm) return;
  const V cost_smooth = update_forces(cw);
  for (int k = 0; k < nv; ++k) cw.tmp[k] = cw.warm[k] - cw.a0[k];
  if (dense)
    dense_mul_M(KC, cw, nv, cw.tmp, cw.tmp2, nullptr); // M(warm − a₀)
  else
    mul_M(M, W, cw.tw, cw.tmp, cw.tmp2);
  const V gauss = T(0.5) * dotv(cw.tmp, cw.tmp2, nv);
  for (int u = 0; u < nu; ++u) cw.jv[u] = cw.jar[u]; // keep jar(a₀)
  J_times(cw.warm, cw.jar);
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

/// The gradient at the current forces (MuJoCo's PrimalUpdateGrad): qfrc = Jᵀf,
/// grad = M(a − a₀) − qfrc. Mgrad is the direction's (update_Mgrad: M⁻¹ grad for CG, H⁻¹ grad for
/// Newton). Idle trees keep theirs.
template <class V>
inline void update_gradient(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw,
                            const unsigned char* idle = nullptr) {
  if (dense_products(KC))
    dense_rows_transpose(KC, cw, M.nv, cw.u_force, cw.qfrc, idle);
  else
    rows_transpose(M, KC, W, cw, cw.u_force, cw.qfrc, idle);
  for (int k = 0; k < M.nv; ++k) cw.grad[k] = cw.Mrel[k] - cw.qfrc[k];
}

/// MuJoCo's termination before the first step (3.11+), tolerance > 0: scale = 1/Σ diag(M) over the
/// island, and the island is done when ½·scale·gᵀM⁻¹g < tol.
template <class V>
inline void tolerance_start(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  const int nv = M.nv, nt = KC.ntrees;
  const V tol(T(KC.tolerance));
  V* scale = cw.per_tree.scale;
  MaskOf<V>* done = cw.per_tree.done;
  if (dense_products(KC))
    for (int k = 0; k < nv; ++k) cw.tmp[k] = cw.newton_M[k * (nv + 1)];
  else
    mass_diagonal(M, W, cw.Ic, cw.tmp);
  for (int k = 0; k < nv; ++k) cw.tmp2[k] = V(T(1));
  tree_dot(KC, cw.tmp, cw.tmp2, scale);
  island_sum(KC, cw, scale);
  for (int t = 0; t < nt; ++t) scale[t] = T(1) / scale[t];
  V* gap = cw.per_tree.c1; // c1 is free until the first iteration
  tree_dot(KC, cw.grad, cw.Mgrad, gap);
  island_sum(KC, cw, gap);
  for (int t = 0; t < nt; ++t) done[t] = vmax(V(T(0)), T(0.5) * scale[t] * gap[t]) < tol;
}

/// Whether every island of every lane is done: the remaining iterations would change nothing.
template <class V>
inline bool all_done(const KConstraints<ScalarOf<V>>& KC, const ConstraintWork<V>& cw) {
  bool all = true;
  for (int t = 0; t < KC.ntrees && all; ++t) all = !vany(vnot(cw.per_tree.done[t]));
  return all;
}

/// The line search's quadratic along the search direction d: Mv = M·d, jv = J·d, and per island
/// c1 = dᵀM(a − a₀), c2 = ½dᵀMd; with elliptic cones and tolerance > 0, also the island's slope
/// tolerance gtol = tolerance·ls_tolerance·‖d‖/scale (PrimalSearch; scale = 1/Σ diag(M), tolerance_start).
template <class V>
inline void search_products(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw,
                            const unsigned char* idle, const unsigned char* idle_joints) {
  using T = ScalarOf<V>;
  const int nt = KC.ntrees;
  if (dense_products(KC)) {
    dense_mul_M(KC, cw, M.nv, cw.search, cw.Mv, idle);
    dense_rows_times(KC, cw, M.nv, cw.search, cw.jv, idle);
  } else {
    mul_M(M, W, cw.tw, cw.search, cw.Mv, idle_joints); // leaves the search's body motions in tw.m
    rows_times(KC, cw, cw.tw.m, cw.search, cw.jv, idle);
  }
  V *c1 = cw.per_tree.c1, *c2 = cw.per_tree.c2, *gtol = cw.per_tree.gtol;
  tree_dot(KC, cw.search, cw.Mrel, c1);
  tree_dot(KC, cw.search, cw.Mv, c2);
  const bool slope_tolerance = KC.elliptic && KC.tolerance > 0;
  if (slope_tolerance) tree_dot(KC, cw.search, cw.search, gtol);
  V* const sums[] = {c1, c2, gtol};
  island_sums(KC, cw, sums, slope_tolerance ? 3 : 2);
  for (int t = 0; t < nt; ++t) c2[t] = T(0.5) * c2[t];
  if (slope_tolerance) {
    const V tol(T(KC.tolerance * kLsTolerance));
    for (int t = 0; t < nt; ++t) gtol[t] = tol * vsqrt(gtol[t]) / cw.per_tree.scale[t];
  }
}

/// The step to the line search's α (done islands take 0): a += α·d, M(a − a₀) += α·M·d, and each
/// busy row's jar += α·J·d and its force (mj_solPrimal's constraint update). The gradient moves to
/// gradold, Mgradold for the Hager–Zhang direction.
template <class V>
inline void take_step(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const unsigned char* idle) {
  using T = ScalarOf<V>;
  const int nt = KC.ntrees, nu = cw.nused;
  const V zero(T(0));
  const MaskOf<V>* done = cw.per_tree.done;
  const V* alpha = cw.per_tree.best;
  for (int t = 0; t < nt; ++t) cw.per_tree.best[t] = vselect(done[t], zero, alpha[t]);
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
    if (row_idle(cw, cw.used[u], idle)) continue;
    const int t = cw.u_tree[u];
    cw.jar[u] = vselect(done[t], cw.jar[u], cw.jar[u] + alpha[t] * cw.jv[u]);
    if (cw.u_cone[u] == 0) update_force(cw, u);
  }
  if (KC.elliptic) // an elliptic point's forces once all its rows have their jar
    for (int u = 0; u < nu; ++u)
      if (cw.u_cone[u] > 0 && !row_idle(cw, cw.used[u], idle)) update_cone(cw, u, cw.u_cone[u]);
}

/// MuJoCo's gradient test for island t: scale·‖g‖ < tol (per_tree.gg holds the island's gᵀg).
template <class V>
inline MaskOf<V> gradient_small(const SolverTrees<V>& pt, int t, const V& tol) {
  return pt.scale[t] * vsqrt(pt.gg[t]) < tol;
}

/// MuJoCo's termination after a step (tolerance > 0): an island is done once
/// 0 < scale·improvement < tol or scale·‖g‖ < tol.
template <class V>
inline void tolerance_test(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  const V tol(T(KC.tolerance));
  SolverTrees<V>& pt = cw.per_tree;
  for (int t = 0; t < KC.ntrees; ++t) {
    const V improvement = pt.scale[t] * -pt.best_cost[t];
    pt.done[t] = vor(pt.done[t], vor(vand(improvement > V(T(0)), improvement < tol), gradient_small(pt, t, tol)));
  }
}

/// The line search along cw.search (line_search.hpp), with the cost MuJoCo's termination reads
/// only when the tolerance is on.
template <class V>
inline void primal_search(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, bool tolerant) {
  if (tolerant)
    line_search<true>(KC, cw);
  else
    line_search<false>(KC, cw);
}

/// MuJoCo's "no improvement: done": an island whose line search found α = 0 stops.
template <class V>
inline void stop_without_improvement(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  const V zero(ScalarOf<V>(0));
  for (int t = 0; t < KC.ntrees; ++t) cw.per_tree.done[t] = vor(cw.per_tree.done[t], cw.per_tree.best[t] == zero);
}

/// MuJoCo's termination after a step: the direction's island sums (which its update_search reads
/// too), then with tolerance > 0 the improvement and gradient tests (tolerance_test) and Newton's
/// decrement test.
template <class Direction, class V>
inline void test_convergence(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, bool tolerant, const unsigned char* idle) {
  Direction::island_sums(KC, cw, tolerant, idle);
  if (!tolerant) return;
  tolerance_test(KC, cw);
  Direction::decrement_test(KC, cw);
}

/// The constrained accelerations of one block by the primal solver `Direction` (ConjugateGradient,
/// cg.hpp, or Newton, newton.hpp; MuJoCo's mj_solPrimal with flg_Newton): cw.a0 holds
/// qacc_smooth, rows are built; with `use_warm`, cw.warm competes with qacc_smooth as MuJoCo's
/// warmstart(); dofs of trees in no island keep qacc_smooth. Writes cw.a, cw.force (by row slot),
/// cw.qfrc. The direction supplies what differs: prepare (Newton's dense M and J), start (Mgrad,
/// the start's certificate and the first search), update_Mgrad, island_sums, decrement_test and
/// update_search. Done islands stay exactly as they are, so the block stops when all lanes are done.
template <class Direction, class V>
inline void solve_primal(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw,
                         int iterations, bool use_warm) {
  using T = ScalarOf<V>;
  const int nv = M.nv, nt = KC.ntrees;
  find_islands(KC, cw);
  pack_rows(KC, cw);
  Direction::prepare(M, KC, W, cw);
  warm_start(M, KC, W, cw, use_warm);
  update_forces(cw);
  update_gradient(M, KC, W, cw);
  MaskOf<V>* done = cw.per_tree.done;
  for (int t = 0; t < nt; ++t) done[t] = mask_false<V>();
  const bool tolerant = KC.tolerance > 0;
  Direction::start(M, KC, W, cw, tolerant);
  for (int k = 0; k < nv; ++k) cw.Mv[k] = V(T(0)); // idle trees' M·search (their search is 0)
  for (int it = 0; it < iterations; ++it) {
    if (all_done(KC, cw)) break;
    const unsigned char* idle = mark_idle(M, KC, cw, done);
    const unsigned char* idle_joints = idle ? cw.joint_idle : nullptr;
    search_products(M, KC, W, cw, idle, idle_joints);
    primal_search(KC, cw, tolerant);
    take_step(KC, cw, idle);
    update_gradient(M, KC, W, cw, idle);
    Direction::update_Mgrad(M, KC, W, cw, idle, idle_joints);
    stop_without_improvement(KC, cw);
    test_convergence<Direction>(KC, cw, tolerant, idle);
    Direction::update_search(KC, cw, idle);
  }
  for (int u = 0; u < cw.nused; ++u) cw.force[cw.used[u]] = cw.u_force[u];
}

} // namespace ACH_ISA_NS
} // namespace ach
