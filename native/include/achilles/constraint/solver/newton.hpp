// MuJoCo's Newton solver (engine_solver.c mj_solPrimal with flg_Newton = 1) for one block of lanes:
// the primal problem of primal.hpp (its driver solve_primal), searched along the Newton direction
//
//   H = M + Σ_{rows in their quadratic piece} D_i J_iᵀ J_i        (MakeHessian / FactorizeHessian)
//         + Σ_{elliptic points in the cone's middle zone} J_pᵀ H_c J_p   (HessianCone, cone.hpp)
//   Mgrad = H⁻¹ grad,  search = −Mgrad                             (PrimalUpdateMgrad)
//   done when  0 < scale·improvement < tol,  scale·‖grad‖ < tol,  or  ½·scale·gradᵀH⁻¹grad < tol
//
// with the same exact line search, step and per-island bookkeeping as the CG solve (cg.hpp). Each lane
// factors its own dense H (nv ≤ kNewtonMaxDofs): M and the used rows' J are formed once per solve
// (they do not change while it iterates), H is re-formed and factored after every step (MuJoCo
// updates its factor by rank-one changes as rows change piece; the same matrix up to rounding).
// H is block-diagonal over a lane's islands, and a dense Cholesky of a block-diagonal matrix adds
// only exact zeros across blocks, so each island gets its own Newton direction: the per-island
// step sizes of the line search apply unchanged.
#pragma once

#include "../../isa_namespace.hpp"

#include "../../bugs.hpp"
#include "primal.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Whether row u lies in its quadratic piece at jar (MuJoCo's mjCNSTRSTATE_QUADRATIC): a friction row
/// within ±R·f, a limit or contact row on and violated (as update_force).
template <class V>
inline MaskOf<V> quadratic(const ConstraintWork<V>& cw, int u) {
  using T = ScalarOf<V>;
  const V jar = cw.jar[u];
  if (u < cw.neq_used) return mask_true<V>(); // equality rows: always quadratic
  if (u < cw.nfric_used) {
    const V Rf = cw.u_R[u] * cw.u_floss[u];
    return vand(-Rf < jar, jar < Rf);
  }
  if (cw.u_cone[u] != 0) return cw.u_cone_bottom[u];         // an elliptic point's rows: its bottom zone (cone.hpp)
  if (ACH_BUG(NewtonHessianInactiveRows)) return cw.u_on[u]; // the planted bug: satisfied rows counted too
  return vand(cw.u_on[u], jar < V(T(0)));
}

/// Dense M (newton_M, lower triangle) and the used rows' J (newton_J, row u at u·nv, on the dofs of
/// its row_dofs), once per solve. Body Jacobians first (newton_Jb, root to leaves: the parent's
/// columns moved into the child's frame, then the joint's own S), then
///   M = Σ_bodies Jbᵀ I Jb + armature      (mul_M's matrix: RNEA of each unit velocity)
///   J_u[k] = the row's speed under dof k's column (point_rows on the pair's two bodies).
template <class V>
inline void newton_prepare(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  const int nv = M.nv, n = static_cast<int>(M.joints.size());
  const V zero(T(0));
  Motion<V>* Jb = cw.newton_Jb;
  V* Mm = cw.newton_M;
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j <= i; ++j) Mm[i * nv + j] = zero;
  for (int i = 0; i < n; ++i) {
    const auto& J = M.joints[i];
    Motion<V>* Ji = Jb + static_cast<std::size_t>(i) * nv;
    if (J.parent >= 0) {
      const Motion<V>* Jp = Jb + static_cast<std::size_t>(J.parent) * nv;
      for (int e = KC.chain_dof_start[J.parent]; e < KC.chain_dof_start[J.parent + 1]; ++e) {
        const int k = KC.chain_dofs[e];
        Ji[k] = motion_to_child(J, W[i].X, Jp[k]);
      }
    }
    for (int c = 0; c < J.nv; ++c) {
      V x[6] = {zero, zero, zero, zero, zero, zero};
      x[c] = V(T(1));
      Motion<V> m = zero_motion<V>();
      add_subspace<V>(J, W[i], x, m);
      Ji[J.voff + c] = m;
    }
    const RigidInertia<V> I = rigid_inertia<V>(M, i);
    const int* c = KC.chain_dofs.data() + KC.chain_dof_start[i];
    const int nc = KC.chain_dof_start[i + 1] - KC.chain_dof_start[i];
    for (int a = 0; a < nc; ++a) {
      const Force<V> f = mul(I, Ji[c[a]]);
      V* Mrow = Mm + c[a] * nv;
      for (int b = 0; b <= a; ++b) Mrow[c[b]] += dot(Ji[c[b]], f);
    }
    if (J.has_d)
      for (int k = 0; k < J.nv; ++k) Mm[(J.voff + k) * (nv + 1)] += M.template lane<V>(LaneSlots::d_forward(i));
  }
  V* x = cw.tmp;
  V* jcol = cw.jv;
  for (int k = 0; k < nv; ++k) x[k] = zero;
  if (cw.first_contact_used > cw.neq_used)
    for (int k = 0; k < nv; ++k) {
      x[k] = V(T(1));
      scalar_rows_times(KC, cw, x, jcol);
      for (int u = cw.neq_used; u < cw.first_contact_used; ++u) cw.newton_J[u * nv + k] = jcol[u];
      x[k] = zero;
    }
  const Motion<V> none = zero_motion<V>();
  for (std::size_t q = 0; q < KC.equalities.size(); ++q) { // equality rows (u = slot), on the dofs they touch
    const KEquality<T>& e = KC.equalities[q];
    int ndofs;
    const int* dofs = row_dofs(KC, cw, e.row, ndofs);
    for (int a = 0; a < ndofs; ++a) {
      const int k = dofs[a];
      x[k] = V(T(1));
      V out[6];
      equality_times(e, cw.eqj[q], e.body1 >= 0 ? Jb[static_cast<std::size_t>(e.body1) * nv + k] : none,
                     e.body2 >= 0 ? Jb[static_cast<std::size_t>(e.body2) * nv + k] : none, x, out);
      for (int i = 0; i < e.rows; ++i) cw.newton_J[(e.row + i) * nv + k] = out[i];
      x[k] = zero;
    }
  }
  for (int p = 0; p < cw.npts; ++p) {
    const int u = cw.pt_u[p], slot = cw.pt_slot[p], r = cw.used[u];
    const KContactPair<T>& P = cw.pair[slot / kPairPoints];
    const Motion<V>* Ja = P.body_a >= 0 ? Jb + static_cast<std::size_t>(P.body_a) * nv : nullptr;
    const Motion<V>* Jbb = P.body_b >= 0 ? Jb + static_cast<std::size_t>(P.body_b) * nv : nullptr;
    int ndofs;
    const int* dofs = row_dofs(KC, cw, r, ndofs);
    for (int e = 0; e < ndofs; ++e) {
      const int k = dofs[e];
      V out[kMaxPointRows];
      point_rows(P, cw.pj_a[slot], cw.pj_b[slot], Ja ? Ja[k] : none, Jbb ? Jbb[k] : none, out);
      for (int q = 0; q < P.rows; ++q) cw.newton_J[(u + q) * nv + k] = out[q];
    }
  }
}

/// H += Σ_{e < kRows} w_e·J_eᵀJ_e over rows u .. u + kRows (a contact point's rows share their dofs),
/// w = +D where a row entered its quadratic piece at this update (newton_dq; every row at the first),
/// −D where it left, 0 elsewhere: each entry is loaded and stored once per point, its terms summed in
/// edge order. A point with w = 0 in every lane is skipped (adding its zeros gives the same bits).
template <int kRows, class V>
inline void add_rows(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, int u, int nv) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  V D[kRows];
  bool any = false;
  for (int e = 0; e < kRows; ++e) {
    const V d = cw.u_D[u + e];
    D[e] = vselect(cw.newton_dq[u + e], vselect(cw.newton_quad[u + e], d, -d), zero);
    any = any || vany(cw.newton_dq[u + e]);
  }
  if (!any) return;
  const V* J[kRows];
  for (int e = 0; e < kRows; ++e) J[e] = cw.newton_J + static_cast<std::size_t>(u + e) * nv;
  int n;
  const int* dofs = row_dofs(KC, cw, cw.used[u], n);
  V* L = cw.newton_H;
  for (int a = 0; a < n; ++a) { // J's structural zeros would add only zeros
    const int i = dofs[a];
    V DJ[kRows];
    for (int e = 0; e < kRows; ++e) DJ[e] = D[e] * J[e][i];
    V* Li = L + i * nv;
    for (int b = 0; b <= a; ++b) {
      const int j = dofs[b];
      V s = DJ[0] * J[0][j];
      for (int e = 1; e < kRows; ++e) s += DJ[e] * J[e][j];
      Li[j] += s;
    }
  }
}

/// H = LᵀDL in place along the dof tree (MuJoCo's mj_factorM; KC.newton_tree: H is nonzero only
/// between a dof and its ancestors, and so is L): D on the diagonal, L below it (unit diagonal).
/// From the leaves up: L(k,i) = H(k,i)/D(k) for each ancestor i of k, then H(i,j) −= L(k,i)·H(k,j)
/// for the ancestors j of i (j = i included).
template <class V>
inline void factor_tree(const KConstraints<ScalarOf<V>>& KC, V* L, int nv) {
  using T = ScalarOf<V>;
  const int* parent = KC.dof_parent.data();
  for (int k = nv - 1; k >= 0; --k) {
    V* Lk = L + k * nv;
    Lk[k] = vmax(Lk[k], V(T(kMinVal))); // D(k), kept for newton_solve
    const V invD = V(T(1)) / Lk[k];
    for (int i = parent[k]; i >= 0; i = parent[i]) {
      const V lki = Lk[i] * invD;
      V* Li = L + i * nv;
      for (int j = i; j >= 0; j = parent[j]) Li[j] -= lki * Lk[j];
      Lk[i] = lki;
    }
  }
}

/// MuJoCo's dense mju_cholFactor of the lower triangle L (a pivot below mjMINVAL raised to it),
/// over the block's envelope: row i's first column any lane holds nonzero, first(i). L keeps that
/// envelope (Cholesky fills in only to the right of a row's first nonzero), so every product
/// skipped below, L(i,k)·L(j,k) with k < max(first(i), first(j)), is an exact zero in every lane,
/// and the entries left of first(i) stay the +0 they were copied as. Skipping them gives the dense
/// loop's bits: a running sum s starts from an entry of H, never −0 (H starts as M + 0), an exact
/// cancellation rounds to +0, and s − (±0) = s for any s ≠ −0. Islands of one lane that are apart
/// (loose bodies, separate robots' trees) thus cost what their own blocks cost, not nv³/6.
template <class V>
inline void factor_dense_envelope(V* L, int nv) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  const V mindiag = V(T(kMinVal));
  int first[kNewtonMaxDofs];
  for (int i = 0; i < nv; ++i) {
    const V* Li = L + i * nv;
    int j = 0;
    while (j < i && !vany(vnot(Li[j] == zero))) ++j;
    first[i] = j;
  }
  for (int j = 0; j < nv; ++j) {
    V* Lj = L + j * nv;
    V d = Lj[j];
    for (int k = first[j]; k < j; ++k) d -= Lj[k] * Lj[k];
    const V piv = vsqrt(vmax(d, mindiag));
    Lj[j] = piv;
    const V inv = V(T(1)) / piv;
    for (int i = j + 1; i < nv; ++i) {
      if (first[i] > j) continue; // L(i,j) is +0: left of row i's envelope
      V* Li = L + i * nv;
      V s = Li[j];
      for (int k = first[i] > first[j] ? first[i] : first[j]; k < j; ++k) s -= Li[k] * Lj[k];
      Li[j] = s * inv;
    }
  }
}

/// M's own factor in newton_L (as newton_factor's, with no rows): along the dof tree (factor_tree,
/// M's sparsity always allows it) or MuJoCo's dense Cholesky. Newton's start takes its M⁻¹
/// certificate from it (tree as H's factor: KC.newton_tree), PGS its AR and answer (tree).
template <class V>
inline void newton_factor_M(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, int nv, bool tree) {
  V* L = cw.newton_L;
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j <= i; ++j) L[i * nv + j] = cw.newton_M[i * nv + j];
  if (tree)
    factor_tree(KC, L, nv);
  else
    factor_dense_envelope(L, nv);
}

/// The factor of H = M + Σ D_u·J_uᵀJ_u over the rows in their quadratic piece at the current jar, in
/// newton_L: along the tree (factor_tree) or MuJoCo's dense mju_cholFactor over the block's
/// envelope (factor_dense_envelope). H is formed at the first call and then updated by the rows that
/// changed piece (MuJoCo's HessianIncremental updates its factor by the same rank-one terms); L is
/// kept when no row changed piece in any lane. H starts as M + 0 (so no
/// entry is −0), which makes skipping a row whose D is 0 in every lane, or a dof its J cannot touch,
/// give the same bits as adding its zeros: a lane's factor never depends on the other lanes of its block.
template <class V>
inline void newton_factor(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, int nv, bool first) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  // elliptic cones: the middle zone's Hessian changes with jar, so H is formed afresh every time
  // (MuJoCo's HessianCone: the cone terms added to a copy of the rows' factor)
  if (KC.elliptic) first = true;
  bool changed = first;
  for (int u = 0; u < cw.nused; ++u) {
    const MaskOf<V> q = quadratic(cw, u);
    cw.newton_dq[u] = first ? q : vxor(q, cw.newton_quad[u]);
    changed = changed || vany(cw.newton_dq[u]);
    cw.newton_quad[u] = q;
  }
  if (!changed) return; // no row changed piece in any lane: H, and so L, is what it was
  V* H = cw.newton_H;
  if (first) {
    const V* Mm = cw.newton_M;
    for (int i = 0; i < nv; ++i)
      for (int j = 0; j <= i; ++j) H[i * nv + j] = Mm[i * nv + j] + zero;
  }
  for (int u = 0; u < cw.first_contact_used; ++u) add_rows<1>(KC, cw, u, nv);
  for (int p = 0; p < cw.npts; ++p) {
    const int u = cw.pt_u[p];
    switch (cw.pair[cw.pt_slot[p] / kPairPoints].rows) {
      case 1:
        add_rows<1>(KC, cw, u, nv);
        break;
      case 3:
        add_rows<3>(KC, cw, u, nv);
        break;
      case 4:
        add_rows<4>(KC, cw, u, nv);
        break;
      case 6:
        add_rows<6>(KC, cw, u, nv);
        break;
      default:
        add_rows<10>(KC, cw, u, nv);
        break;
    }
  }
  if (KC.elliptic)
    for (int p = 0; p < cw.npts; ++p) {
      const int u = cw.pt_u[p];
      if (cw.u_cone[u] <= 0) continue;
      int n;
      const int* dofs = row_dofs(KC, cw, cw.used[u], n);
      add_cone_hessian(cw, u, cw.u_cone[u], dofs, n, nv);
    }
  V* L = cw.newton_L;
  for (int i = 0; i < nv; ++i)
    for (int j = 0; j <= i; ++j) L[i * nv + j] = H[i * nv + j];
  if (KC.newton_tree) {
    factor_tree(KC, L, nv);
    return;
  }
  factor_dense_envelope(L, nv);
}

/// x = L⁻¹ D⁻¹ L⁻ᵀ g from factor_tree's L (MuJoCo's mj_solveM; x may not alias g).
template <class V>
inline void solve_factored_tree(const KConstraints<ScalarOf<V>>& KC, const V* L, int nv, const V* g, V* x) {
  const int* parent = KC.dof_parent.data();
  for (int k = 0; k < nv; ++k) x[k] = g[k];
  for (int k = nv - 1; k >= 0; --k)
    for (int i = parent[k]; i >= 0; i = parent[i]) x[i] -= L[k * nv + i] * x[k];
  for (int k = 0; k < nv; ++k) x[k] = x[k] / L[k * nv + k];
  for (int k = 0; k < nv; ++k)
    for (int i = parent[k]; i >= 0; i = parent[i]) x[k] -= L[k * nv + i] * x[i];
}

/// x = H⁻¹ g from newton_L: along the tree (factor_tree), or dense: L y = g, then Lᵀ x = y (x may not alias g).
template <class V>
inline void newton_solve(const KConstraints<ScalarOf<V>>& KC, const ConstraintWork<V>& cw, int nv, const V* g, V* x) {
  const V* L = cw.newton_L;
  if (KC.newton_tree) {
    solve_factored_tree(KC, L, nv, g, x);
    return;
  }
  for (int i = 0; i < nv; ++i) {
    V s = g[i];
    for (int k = 0; k < i; ++k) s -= L[i * nv + k] * x[k];
    x[i] = s / L[i * nv + i];
  }
  for (int i = nv - 1; i >= 0; --i) {
    V s = x[i];
    for (int k = i + 1; k < nv; ++k) s -= L[k * nv + i] * x[k];
    x[i] = s / L[i * nv + i];
  }
}

/// Per island: gᵀg (per_tree.gg) and gᵀH⁻¹g (per_tree.c1, free at the end of an iteration).
template <class V>
inline void newton_sums(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  SolverTrees<V>& pt = cw.per_tree;
  tree_dot(KC, cw.grad, cw.grad, pt.gg);
  tree_dot(KC, cw.grad, cw.Mgrad, pt.c1);
  V* const sums[] = {pt.gg, pt.c1};
  island_sums(KC, cw, sums, 2);
}

/// The gradient and Newton-decrement criteria (tolerance > 0), from newton_sums: with `both`, an
/// island is done when both hold (the start, after the M⁻¹ certificate); else when either does
/// (with tolerance_test's improvement, after a step).
template <class V>
inline void newton_tolerance(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, bool both) {
  using T = ScalarOf<V>;
  const V tol(T(KC.tolerance)), zero(T(0));
  SolverTrees<V>& pt = cw.per_tree;
  for (int t = 0; t < KC.ntrees; ++t) {
    const MaskOf<V> gradient = gradient_small(pt, t, tol);
    const MaskOf<V> decrement = vmax(zero, T(0.5) * pt.scale[t] * pt.c1[t]) < tol;
    pt.done[t] = vor(pt.done[t], both ? vand(gradient, decrement) : vor(gradient, decrement));
  }
}

/// search = −Mgrad on islands still going, 0 on done ones (idle trees keep their 0).
template <class V>
inline void newton_direction(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const unsigned char* idle) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  for (int t = 0; t < KC.ntrees; ++t) {
    if (idle && idle[t]) continue;
    const MaskOf<V> stop = cw.per_tree.done[t];
    for (int e = KC.tree_dof_start[t]; e < KC.tree_dof_start[t + 1]; ++e) {
      const int k = KC.tree_dofs[e];
      cw.search[k] = vselect(stop, zero, -cw.Mgrad[k]);
    }
  }
}

/// Newton's direction, as solve_primal's `Direction` (the stages of mj_solPrimal with flg_Newton).
struct Newton {
  /// newton_prepare: M and J, from which every product of the solve is taken.
  template <class V>
  static void prepare(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw) {
    newton_prepare(M, KC, W, cw);
  }

  /// With tolerance > 0 the certificate first: Mgrad = M⁻¹ grad, the duality gap
  /// ½·scale·gᵀM⁻¹g < tol and, for Newton, the gradient too. Islands not done then: the Hessian
  /// (MakeHessian, FactorizeHessian), Mgrad = H⁻¹ grad and the decrement test; search = −Mgrad.
  template <class V>
  static void start(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw, bool tolerant) {
    using T = ScalarOf<V>;
    const int nv = M.nv, nt = KC.ntrees;
    MaskOf<V>* done = cw.per_tree.done;
    if (tolerant) {
      newton_factor_M(KC, cw, nv, KC.newton_tree); // Mgrad = M⁻¹ grad: the certificate's
      newton_solve(KC, cw, nv, cw.grad, cw.Mgrad);
      tolerance_start(M, KC, W, cw); // the duality gap ½·scale·gᵀM⁻¹g < tol ...
      newton_sums(KC, cw);
      for (int t = 0; t < nt; ++t) // ... and, for Newton, the gradient too
        done[t] = vand(done[t], gradient_small(cw.per_tree, t, V(T(KC.tolerance))));
    }
    if (!all_done(KC, cw)) {
      newton_factor(KC, cw, nv, true);
      newton_solve(KC, cw, nv, cw.grad, cw.Mgrad);
      if (tolerant) {
        newton_sums(KC, cw);
        newton_tolerance(KC, cw, true);
      }
    }
    newton_direction(KC, cw, nullptr);
  }

  /// MuJoCo's HessianIncremental and PrimalUpdateMgrad for Newton: H at the new row states
  /// (newton_factor), Mgrad = H⁻¹ grad.
  template <class V>
  static void update_Mgrad(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>*, ConstraintWork<V>& cw,
                           const unsigned char*, const unsigned char*) {
    newton_factor(KC, cw, M.nv, false);
    newton_solve(KC, cw, M.nv, cw.grad, cw.Mgrad);
  }

  /// gᵀg and gᵀH⁻¹g, read by the tests only (tolerance > 0).
  template <class V>
  static void island_sums(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, bool tolerant, const unsigned char*) {
    if (tolerant) newton_sums(KC, cw);
  }

  /// MuJoCo's "flg_Newton && decrement < tol", with the gradient test again (newton_tolerance).
  template <class V>
  static void decrement_test(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
    newton_tolerance(KC, cw, false);
  }

  template <class V>
  static void update_search(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const unsigned char* idle) {
    newton_direction(KC, cw, idle);
  }
};

} // namespace ACH_ISA_NS
} // namespace ach
