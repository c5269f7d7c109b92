// Products with the joint-space inertia M through the tree, never forming M (all O(n)):
//
//   body motion   V_B(x) = X_PB⁻¹ V_P(x) + S x_B               (the velocity x would give every body)
//   M·x           RNEA without velocity and gravity: f_B = I_B V_B(x); τ = Sᵀ f_B; f_P += X* f_B
//   M⁻¹·τ         ABA with zero velocity, reusing U, D⁻¹ (and so IA) of the step's ABA at this state:
//                 u = τ − Sᵀ p;  p_P += X*(p + U D⁻¹ u);  a' = X⁻¹ a_P;  x = D⁻¹(u − Uᵀ a');  a = a' + S x
//   Jᵀ·wrenches   τ = Sᵀ F_B;  F_P += X* F_B                   (F_B: body-frame wrenches of the rows' forces)
//
// Every product reads the placements X and subspaces S that pass_velocity left in JointWork. With
// `skip` (per joint), the solver's products leave the joints of trees it has finished alone: their
// outputs keep what they held (pass_body_motion gives them zero motion).
#pragma once

#include "../isa_namespace.hpp"

#include "../aba.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Per-joint temporaries of the products (separate from JointWork so the step's ABA stays intact).
template <class V>
struct TreeWork {
  Motion<V>* m; // body motions
  Force<V>* f;  // body forces
};

template <class V>
inline Motion<V> zero_motion() {
  const V z(ScalarOf<V>(0));
  return {{z, z, z}, {z, z, z}};
}
template <class V>
inline Force<V> zero_force() {
  const V z(ScalarOf<V>(0));
  return {{z, z, z}, {z, z, z}};
}

// A free joint's S = [[0, 1], [R_WBᵀ, 0]] (joints.hpp): its products skip the zero blocks. They add the
// same nonzero terms in the same order as the general loops, leaving out only terms x·0.

/// m += S·x for joint J.
template <class V>
inline void add_subspace(const KJoint<ScalarOf<V>>& J, const JointWork<V>& w, const V* x, Motion<V>& m) {
  if (J.unit_axis >= 0) {
    auto unit = [&]<int K>() { add_comp<K>(m, x[0]); };
    on_unit_axis(J.unit_axis, unit);
  } else if (J.type == JointType::Free) {
    m.v = m.v + x[0] * w.S[0].v + x[1] * w.S[1].v + x[2] * w.S[2].v;
    m.w = {m.w.x + x[3], m.w.y + x[4], m.w.z + x[5]};
  } else {
    for (int k = 0; k < J.nv; ++k) m = m + scale(x[k], w.S[k]);
  }
}
/// τ = Sᵀ·f for joint J.
template <class V>
inline void subspace_transpose(const KJoint<ScalarOf<V>>& J, const JointWork<V>& w, const Force<V>& f, V* tau) {
  if (J.unit_axis >= 0) {
    auto unit = [&]<int K>() { tau[0] = comp<K>(f); };
    on_unit_axis(J.unit_axis, unit);
  } else if (J.type == JointType::Free) {
    for (int k = 0; k < 3; ++k) tau[k] = dot(w.S[k].v, f.f);
    tau[3] = f.n.x, tau[4] = f.n.y, tau[5] = f.n.z;
  } else {
    for (int k = 0; k < J.nv; ++k) tau[k] = dot(w.S[k], f);
  }
}

/// Root → leaves: the body motions V_B(x) (body frame).
template <class V>
inline void pass_body_motion(const KModel<ScalarOf<V>>& M, const JointWork<V>* W, const V* x, Motion<V>* out, const unsigned char* skip = nullptr) {
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) {
    if (skip && skip[i]) {
      out[i] = zero_motion<V>();
      continue;
    }
    const auto& J = M.joints[i];
    Motion<V> m = J.parent >= 0 ? motion_to_child(J, W[i].X, out[J.parent]) : zero_motion<V>();
    if (J.nv > 0) add_subspace<V>(J, W[i], x + J.voff, m);
    out[i] = m;
  }
}

/// Leaves → root: τ = Jᵀ of the body wrenches F (consumed: F holds subtree sums afterwards).
template <class V>
inline void pass_wrench_to_joints(const KModel<ScalarOf<V>>& M, const JointWork<V>* W, Force<V>* F, V* tau, const unsigned char* skip = nullptr) {
  for (int i = static_cast<int>(M.joints.size()) - 1; i >= 0; --i) {
    if (skip && skip[i]) continue;
    const auto& J = M.joints[i];
    if (J.nv > 0) subspace_transpose<V>(J, W[i], F[i], tau + J.voff);
    if (J.parent >= 0) F[J.parent] = F[J.parent] + force_to_parent(J, W[i].X, F[i]);
  }
}

/// M·x (body motions of x left in T.m).
template <class V>
inline void mul_M(const KModel<ScalarOf<V>>& M, const JointWork<V>* W, TreeWork<V>& T, const V* x, V* out, const unsigned char* skip = nullptr) {
  pass_body_motion(M, W, x, T.m, skip);
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) {
    if (skip && skip[i]) continue;
    const RigidInertia<V> I = rigid_inertia<V>(M, i);
    T.f[i] = mul(I, T.m[i]);
  }
  pass_wrench_to_joints(M, W, T.f, out, skip);
  // The armature lives only in the ABA's D (M's diagonal): add it here too, so M·x and the solver's
  // M⁻¹·x (solve_M, from the same ABA's factors) are products with the same matrix.
  for (int i = 0; i < n; ++i)
    if (const auto& J = M.joints[i]; J.has_d && !(skip && skip[i]))
      for (int k = 0; k < J.nv; ++k) out[J.voff + k] += M.template lane<V>(LaneSlots::d_forward(i)) * x[J.voff + k];
}

/// M⁻¹·τ from the factors (U, D⁻¹) of the ABA last run at this state.
template <class V>
inline void solve_M(const KModel<ScalarOf<V>>& M, const JointWork<V>* W, TreeWork<V>& T, const V* tau, V* out, const unsigned char* skip = nullptr) {
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) T.f[i] = zero_force<V>();
  V* u = out; // out holds u during the backward sweep (each joint's slots, written once)
  for (int i = n - 1; i >= 0; --i) {
    if (skip && skip[i]) continue;
    const auto& J = M.joints[i];
    const JointWork<V>& w = W[i];
    const bool root = J.parent < 0; // a root passes nothing on: p is not needed
    Force<V> p = T.f[i];
    if (J.unit_axis >= 0) {
      auto unit = [&]<int K>() {
        const V ui = tau[J.voff] - comp<K>(p);
        u[J.voff] = ui;
        if (!root) p = p + scale(w.Dinv[0] * ui, w.U[0]);
      };
      on_unit_axis(J.unit_axis, unit);
    } else if (J.nv > 0) {
      const int nv = J.nv;
      V Stf[6];
      subspace_transpose<V>(J, w, T.f[i], Stf);
      for (int k = 0; k < nv; ++k) u[J.voff + k] = tau[J.voff + k] - Stf[k];
      for (int r = 0; r < nv && !root; ++r) {
        V Du = w.Dinv[r * nv] * u[J.voff];
        for (int c = 1; c < nv; ++c) Du += w.Dinv[r * nv + c] * u[J.voff + c];
        p = p + scale(Du, w.U[r]);
      }
    }
    if (!root) T.f[J.parent] = T.f[J.parent] + force_to_parent(J, w.X, p);
  }
  for (int i = 0; i < n; ++i) {
    if (skip && skip[i]) continue;
    const auto& J = M.joints[i];
    const JointWork<V>& w = W[i];
    Motion<V> a = J.parent >= 0 ? motion_to_child(J, w.X, T.m[J.parent]) : zero_motion<V>();
    V* xi = out + J.voff;
    if (J.unit_axis >= 0) {
      auto unit = [&]<int K>() {
        const V x = w.Dinv[0] * (xi[0] - dot(w.U[0], a));
        xi[0] = x;
        add_comp<K>(a, x);
      };
      on_unit_axis(J.unit_axis, unit);
    } else if (J.nv > 0) {
      const int nv = J.nv;
      V rhs[6];
      for (int k = 0; k < nv; ++k) rhs[k] = J.parent >= 0 ? xi[k] - dot(w.U[k], a) : xi[k]; // a root's a' is 0
      for (int r = 0; r < nv; ++r) {
        V x = w.Dinv[r * nv] * rhs[0];
        for (int c = 1; c < nv; ++c) x += w.Dinv[r * nv + c] * rhs[c];
        xi[r] = x;
      }
      add_subspace<V>(J, w, xi, a);
    }
    T.m[i] = a;
  }
}

/// diag(M) by the composite-rigid-body recursion: Ic = I + Σ_children X* Ic X;  M_kk = S_kᵀ Ic S_k.
template <class V>
inline void mass_diagonal(const KModel<ScalarOf<V>>& M, const JointWork<V>* W, ABInertia<V>* Ic, V* diag) {
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) Ic[i] = to_articulated(rigid_inertia<V>(M, i));
  for (int i = n - 1; i >= 0; --i) {
    const auto& J = M.joints[i];
    if (J.unit_axis >= 0) {
      auto unit = [&]<int K>() { diag[J.voff] = comp<K>(ia_column<K>(Ic[i])); };
      on_unit_axis(J.unit_axis, unit);
    } else {
      for (int k = 0; k < J.nv; ++k) diag[J.voff + k] = dot(W[i].S[k], mul(Ic[i], W[i].S[k]));
    }
    if (J.parent >= 0) add_to(Ic[J.parent], inertia_to_parent(J, W[i].X, Ic[i]));
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
