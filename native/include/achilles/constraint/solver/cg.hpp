// MuJoCo's CG (engine_solver.c mj_solPrimal with flg_Newton = 0): the primal solve of primal.hpp
// preconditioned by M, its search direction Hager–Zhang's conjugate one:
//
//   Mgrad = M⁻¹ grad,  search₀ = −Mgrad
//   y = grad − gradold,  β = (yᵀMgrad − 2(yᵀM⁻¹y/dᵀy)·dᵀgrad)/dᵀy  floored at −1/(‖d‖·min(0.01, ‖grad‖)),
//   0 when dᵀy < mjMINVAL (restart);  search = β·search − Mgrad
//   done before the first step when ½·scale·gradᵀM⁻¹grad < tol (the certificate), after a step on
//   tolerance_test's improvement or gradient
//
// M⁻¹ and M· are passes over the tree (tree.hpp), as every product of the CG solve.
#pragma once

#include "../../isa_namespace.hpp"

#include "primal.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Per island, the Hager–Zhang sums over its dofs with y = g − g_old: dᵀy, yᵀMy, yᵀMg, dᵀg, dᵀd and
/// gᵀg (the last also the termination's gradient norm).
template <class V>
inline void direction_sums(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const unsigned char* idle) {
  using T = ScalarOf<V>;
  const int nt = KC.ntrees;
  const V zero(T(0));
  SolverTrees<V>& pt = cw.per_tree;
  const V *search = cw.search, *grad = cw.grad, *Mgrad = cw.Mgrad, *gradold = cw.gradold, *Mgradold = cw.Mgradold;
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
    pt.dy[t] = dy, pt.ymy[t] = ymy, pt.ymg[t] = ymg;
    pt.dg[t] = dg, pt.dd[t] = dd, pt.gg[t] = gg;
  }
  V* const hz[] = {pt.dy, pt.ymy, pt.ymg, pt.dg, pt.dd, pt.gg};
  island_sums(KC, cw, hz, 6);
}

/// The next search direction per island (Hager–Zhang, from direction_sums):
/// β = (yᵀMg − 2(yᵀMy/dᵀy)·dᵀg)/dᵀy floored at −1/(‖d‖·min(0.01, ‖g‖)), 0 when dᵀy < mjMINVAL;
/// d = β·d − M⁻¹g, and 0 on done islands.
template <class V>
inline void hager_zhang_direction(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const unsigned char* idle) {
  using T = ScalarOf<V>;
  const int nt = KC.ntrees;
  const V zero(T(0));
  SolverTrees<V>& pt = cw.per_tree;
  V* beta = pt.c1; // c1 is not needed again this iteration
  for (int t = 0; t < nt; ++t) {
    const V d_dot_y = pt.dy[t];
    const MaskOf<V> restart = d_dot_y < V(T(kMinVal));
    const V dy = vselect(restart, V(T(1)), d_dot_y);
    const V beta_hz = (pt.ymg[t] - T(2) * (pt.ymy[t] / dy) * pt.dg[t]) / dy;
    const V eta_k = V(T(-1)) / vmax(V(T(kMinVal)), vsqrt(pt.dd[t]) * vmin(V(T(0.01)), vsqrt(pt.gg[t])));
    beta[t] = vselect(restart, zero, vmax(eta_k, beta_hz));
  }
  V* search = cw.search;
  const V* Mgrad = cw.Mgrad;
  for (int t = 0; t < nt; ++t) {
    if (idle && idle[t]) continue; // its search is already 0
    const V b = beta[t];
    const MaskOf<V> stop = pt.done[t];
    for (int e = KC.tree_dof_start[t]; e < KC.tree_dof_start[t + 1]; ++e) {
      const int k = KC.tree_dofs[e];
      search[k] = vselect(stop, zero, b * search[k] - Mgrad[k]);
    }
  }
}

/// The conjugate-gradient direction, as solve_primal's `Direction`.
struct ConjugateGradient {
  /// Nothing to form: CG's products pass over the tree.
  template <class V>
  static void prepare(const KModel<ScalarOf<V>>&, const KConstraints<ScalarOf<V>>&, const JointWork<V>*, ConstraintWork<V>&) {}

  /// Mgrad = M⁻¹ grad, search = −Mgrad, and with tolerance > 0 the certificate (tolerance_start).
  template <class V>
  static void start(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw, bool tolerant) {
    solve_M(M, W, cw.tw, cw.grad, cw.Mgrad);
    for (int k = 0; k < M.nv; ++k) cw.search[k] = -cw.Mgrad[k];
    if (tolerant) tolerance_start(M, KC, W, cw);
  }

  /// MuJoCo's PrimalUpdateMgrad for CG: Mgrad = M⁻¹ grad (idle joints keep theirs).
  template <class V>
  static void update_Mgrad(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>&, const JointWork<V>* W, ConstraintWork<V>& cw,
                           const unsigned char*, const unsigned char* idle_joints) {
    solve_M(M, W, cw.tw, cw.grad, cw.Mgrad, idle_joints);
  }

  /// The Hager–Zhang sums, every iteration (their gᵀg is also the termination's gradient).
  template <class V>
  static void island_sums(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, bool, const unsigned char* idle) {
    direction_sums(KC, cw, idle);
  }

  /// CG has no decrement test.
  template <class V>
  static void decrement_test(const KConstraints<ScalarOf<V>>&, ConstraintWork<V>&) {}

  template <class V>
  static void update_search(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const unsigned char* idle) {
    hager_zhang_direction(KC, cw, idle);
  }
};

} // namespace ACH_ISA_NS
} // namespace ach
