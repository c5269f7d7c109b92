// The constraint rows as linear maps over the packed used rows: J·x (rows_times) and Jᵀ·f
// (rows_transpose), MuJoCo's mj_mulJacVec and mj_mulJacTVec, walking the contact points' Jacobians
// through the tree instead of a stored J. Rows of trees idle in every lane can be skipped.
#pragma once

#include "../isa_namespace.hpp"

#include "rows.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Whether row slot r touches only trees in `idle` (none when idle is null).
template <class V>
inline bool row_idle(const ConstraintWork<V>& cw, int r, const unsigned char* idle) {
  if (!idle) return false;
  const int ta = cw.row_tree_a[r], tb = cw.row_tree_b[r];
  return (ta >= 0 || tb >= 0) && (ta < 0 || idle[ta]) && (tb < 0 || idle[tb]);
}

/// out[u] = J_r·x for the used rows after the equality rows and before the contact rows (dry
/// friction and limits: J on a dof, a tendon's dofs or a ball joint's three).
template <class V>
inline void scalar_rows_times(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const V* x, V* out, const unsigned char* idle = nullptr) {
  const V zero(ScalarOf<V>(0));
  for (int u = cw.neq_used; u < cw.first_contact_used; ++u) {
    const int r = cw.used[u];
    if (row_idle(cw, r, idle)) {
      out[u] = zero;
      continue;
    }
    if (r < cw.first_limit) {
      const KFriction<ScalarOf<V>>& F = KC.frictions[r - cw.neq_rows];
      out[u] = F.tendon < 0 ? x[F.dof] : tendon_dot(KC.tendons[F.tendon], x);
      continue;
    }
    const KLimit<ScalarOf<V>>& L = KC.limits[(r - cw.first_limit) / 2];
    if (L.ball) {
      const Vec3<V>& J = cw.ball_J[r - cw.first_limit];
      out[u] = J.x * x[L.dof] + J.y * x[L.dof + 1] + J.z * x[L.dof + 2];
      continue;
    }
    out[u] = cw.lim_sign[r] * (L.tendon < 0 ? x[L.dof] : tendon_dot(KC.tendons[L.tendon], x));
  }
}

/// out[u] = J_r·x for every used row r = used[u] (x's body motions taken from `motions`); rows of
/// idle trees only (x = 0 there) get 0.
template <class V>
inline void rows_times(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const Motion<V>* motions, const V* x, V* out,
                       const unsigned char* idle = nullptr) {
  scalar_rows_times(KC, cw, x, out, idle);
  const V zero(ScalarOf<V>(0));
  const Motion<V> none = zero_motion<V>();
  // the equality rows: used in slot order from u = 0 (all on)
  for (std::size_t k = 0; k < KC.equalities.size(); ++k) {
    const KEquality<ScalarOf<V>>& e = KC.equalities[k];
    if (row_idle(cw, e.row, idle)) {
      for (int i = 0; i < e.rows; ++i) out[e.row + i] = zero;
      continue;
    }
    equality_times(e, cw.eqj[k], e.body1 >= 0 ? motions[e.body1] : none, e.body2 >= 0 ? motions[e.body2] : none, x, out + e.row);
  }
  for (int k = 0; k < cw.npts; ++k) {
    const int u = cw.pt_u[k], slot = cw.pt_slot[k];
    const KContactPair<ScalarOf<V>>& P = cw.pair[slot / kPairPoints];
    if (row_idle(cw, cw.used[u], idle)) {
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
    const int pair = cw.pt_slot[k] / kPairPoints;
    const KContactPair<T>& P = cw.pair[pair];
    int end = k + 1;
    while (end < cw.npts && cw.pt_slot[end] / kPairPoints == pair) ++end;
    if (row_idle(cw, cw.used[cw.pt_u[k]], idle)) { // a pair's rows share their trees
      k = end;
      continue;
    }
    // two bodies (the filter pairs no shapes of one weld body, collision/filter.cpp)
    Force<V> Fa = P.body_a >= 0 ? cw.F[P.body_a] : none, Fb = P.body_b >= 0 ? cw.F[P.body_b] : none;
    for (; k < end; ++k) point_transpose(P, cw.pj_a[cw.pt_slot[k]], cw.pj_b[cw.pt_slot[k]], f + cw.pt_u[k], Fa, Fb);
    if (P.body_a >= 0) cw.F[P.body_a] = Fa;
    if (P.body_b >= 0) cw.F[P.body_b] = Fb;
  }
  for (std::size_t k = 0; k < KC.equalities.size(); ++k) { // connect and weld: body wrenches
    const KEquality<T>& e = KC.equalities[k];
    if (e.type != EqualityType::Joint && !row_idle(cw, e.row, idle)) equality_wrenches(e, cw.eqj[k], f + e.row, cw.F);
  }
  for (int k = 0; k < M.nv; ++k)
    if (!(idle && idle[KC.tree_of_dof[k]])) qfrc[k] = V(T(0));
  pass_wrench_to_joints(M, W, cw.F, qfrc, idle ? cw.joint_idle : nullptr);
  for (std::size_t k = 0; k < KC.equalities.size(); ++k) { // joint couplings: their two dofs
    const KEquality<T>& e = KC.equalities[k];
    if (e.type != EqualityType::Joint || row_idle(cw, e.row, idle)) continue;
    qfrc[e.dof1] = qfrc[e.dof1] + f[e.row];
    if (e.dof2 >= 0) qfrc[e.dof2] = qfrc[e.dof2] + cw.eqj[k].c * f[e.row];
  }
  for (int u = cw.neq_used; u < cw.first_contact_used; ++u) {
    const int r = cw.used[u];
    if (row_idle(cw, r, idle)) continue;
    const int tendon = r < cw.first_limit ? KC.frictions[r - cw.neq_rows].tendon : KC.limits[(r - cw.first_limit) / 2].tendon;
    if (tendon >= 0) {
      tendon_add(KC.tendons[tendon], cw.lim_sign[r] * f[u], qfrc);
      continue;
    }
    if (r >= cw.first_limit && KC.limits[(r - cw.first_limit) / 2].ball) {
      const Vec3<V>& J = cw.ball_J[r - cw.first_limit];
      const int d = KC.limits[(r - cw.first_limit) / 2].dof;
      qfrc[d] = qfrc[d] + J.x * f[u];
      qfrc[d + 1] = qfrc[d + 1] + J.y * f[u];
      qfrc[d + 2] = qfrc[d + 2] + J.z * f[u];
      continue;
    }
    const int dof = r < cw.first_limit ? KC.frictions[r - cw.neq_rows].dof : KC.limits[(r - cw.first_limit) / 2].dof;
    qfrc[dof] = qfrc[dof] + cw.lim_sign[r] * f[u];
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
