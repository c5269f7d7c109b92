// The Articulated Body Algorithm on one block of lanes: O(n) forward dynamics.
//
//   velocity:  X_PB = X_PJ·X_J(q);  v_B = X_PB⁻¹ v_P + S q̇;  c = S̊q̇ + v_B × S q̇;  pA = v_B ×* I v_B
//   backward:  IA = I + Σ children's shares;  U = IA S;  D = Sᵀ U;  u = τ − Sᵀ pA;
//              IA_P += X*(IA − U D⁻¹ Uᵀ)X⁻¹;  pA_P += X*(pA + Ia c + U D⁻¹ u)
//   forward:   a' = X_PB⁻¹ a_P + c;  q̈ = D⁻¹(u − Uᵀ a');  a_B = a' + S q̈,   a_world = [0; −g]
//
// Joints whose S is one coordinate axis (the common hinge about x, y or z) take a path that
// skips S's zeros; every other joint takes the general path with S as nv spatial columns.
#pragma once

#include "isa_namespace.hpp"

#include "joints.hpp"
#include "passes.hpp"
#include "passive/fluid.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Body i's rigid inertia about its joint frame's origin, as packs. Robots that differ: each lane its
/// robot's, from the block's rows (KModel::lanes). Identical robots: broadcast from the joint's own
/// constants, the same values (10 per body, read in every sweep: their rows would cost a cache line
/// each, which measured 3–5 % of the quadruped's step).
template <class V>
ACH_INLINE RigidInertia<V> rigid_inertia(const KModel<ScalarOf<V>>& M, int i) {
  if (!M.per_lane) {
    const KJoint<ScalarOf<V>>& J = M.joints[i];
    return {V(J.m), const_vec<V>(J.h), Sym3<V>{V(J.I_o[0]), V(J.I_o[1]), V(J.I_o[2]), V(J.I_o[3]), V(J.I_o[4]), V(J.I_o[5])}};
  }
  auto at = [&](int slot) { return M.template lane<V>(slot); };
  return {at(LaneSlots::mass(i)), Vec3<V>{at(LaneSlots::h(i, 0)), at(LaneSlots::h(i, 1)), at(LaneSlots::h(i, 2))},
          Sym3<V>{at(LaneSlots::I_o(i, 0)), at(LaneSlots::I_o(i, 1)), at(LaneSlots::I_o(i, 2)), at(LaneSlots::I_o(i, 3)), at(LaneSlots::I_o(i, 4)),
                  at(LaneSlots::I_o(i, 5))}};
}

/// Per-joint working set of one block, in the scratch arena.
template <class V>
struct JointWork {
  Transform<V> X;  // X_PB
  Motion<V> vel;   // v_B
  Motion<V> c;     // velocity-product acceleration
  ABInertia<V> IA; // articulated inertia
  Force<V> pA;     // articulated bias force
  Motion<V> acc;   // a_B
  Motion<V>* S;    // nv columns (general path)
  Force<V>* U;     // nv columns
  V* Dinv;         // nv × nv
  V* u;            // nv
};

// ---- one coordinate axis: S = e_K --------------------------------------------------------------

template <int K, class V>
ACH_INLINE V comp(const Motion<V>& m) {
  if constexpr (K == 0)
    return m.w.x;
  else if constexpr (K == 1)
    return m.w.y;
  else if constexpr (K == 2)
    return m.w.z;
  else if constexpr (K == 3)
    return m.v.x;
  else if constexpr (K == 4)
    return m.v.y;
  else
    return m.v.z;
}
template <int K, class V>
ACH_INLINE V comp(const Force<V>& f) {
  if constexpr (K == 0)
    return f.n.x;
  else if constexpr (K == 1)
    return f.n.y;
  else if constexpr (K == 2)
    return f.n.z;
  else if constexpr (K == 3)
    return f.f.x;
  else if constexpr (K == 4)
    return f.f.y;
  else
    return f.f.z;
}
template <int K, class V>
ACH_INLINE void add_comp(Motion<V>& m, const V& s) {
  if constexpr (K == 0)
    m.w.x += s;
  else if constexpr (K == 1)
    m.w.y += s;
  else if constexpr (K == 2)
    m.w.z += s;
  else if constexpr (K == 3)
    m.v.x += s;
  else if constexpr (K == 4)
    m.v.y += s;
  else
    m.v.z += s;
}
/// a × (s·e_k) for a 3-vector a and coordinate axis k.
template <int k, class V>
ACH_INLINE Vec3<V> cross_axis(const Vec3<V>& a, const V& s) {
  const V z(ScalarOf<V>(0));
  if constexpr (k == 0)
    return {z, a.z * s, -(a.y * s)};
  else if constexpr (k == 1)
    return {-(a.z * s), z, a.x * s};
  else
    return {a.y * s, -(a.x * s), z};
}
/// m × (s·e_K).
template <int K, class V>
ACH_INLINE Motion<V> cross_motion_axis(const Motion<V>& m, const V& s) {
  if constexpr (K < 3)
    return {cross_axis<K>(m.w, s), cross_axis<K>(m.v, s)};
  else {
    const V z(ScalarOf<V>(0));
    return {{z, z, z}, cross_axis<K - 3>(m.w, s)};
  }
}
/// IA·e_K.
template <int K, class V>
ACH_INLINE Force<V> ia_column(const ABInertia<V>& I) {
  if constexpr (K < 3) {
    const Sym3<V>& A = I.A;
    const V a0 = K == 0 ? A.xx : (K == 1 ? A.xy : A.xz);
    const V a1 = K == 0 ? A.xy : (K == 1 ? A.yy : A.yz);
    const V a2 = K == 0 ? A.xz : (K == 1 ? A.yz : A.zz);
    return {{a0, a1, a2}, {I.B.m[K * 3 + 0], I.B.m[K * 3 + 1], I.B.m[K * 3 + 2]}};
  } else {
    constexpr int k = K - 3;
    const Sym3<V>& C = I.C;
    const V c0 = k == 0 ? C.xx : (k == 1 ? C.xy : C.xz);
    const V c1 = k == 0 ? C.xy : (k == 1 ? C.yy : C.yz);
    const V c2 = k == 0 ? C.xz : (k == 1 ? C.yz : C.zz);
    return {{I.B.m[0 * 3 + k], I.B.m[1 * 3 + k], I.B.m[2 * 3 + k]}, {c0, c1, c2}};
  }
}

/// Σ_k M(r, k)·a_k in ascending k without k = skip, where a_skip is an exact zero (the full sum's value).
template <int skip, class V, class Mr>
ACH_INLINE V row_dot_skip(const Mr& M, int r, const Vec3<V>& a) {
  if constexpr (skip == 0)
    return M(r, 1) * a.y + M(r, 2) * a.z;
  else if constexpr (skip == 1)
    return M(r, 0) * a.x + M(r, 2) * a.z;
  else
    return M(r, 0) * a.x + M(r, 1) * a.y;
}
/// IA·c for the velocity-product acceleration of a joint along coordinate axis K, c = v × (q̇·e_K):
/// its component K (for a slide, its whole angular part too) is an exact zero, left out of the sums.
template <int K, class V>
ACH_INLINE Force<V> mul_axis_bias(const ABInertia<V>& I, const Motion<V>& c) {
  const Sym3<V>&A = I.A, &C = I.C;
  auto sym = [](const Sym3<V>& S) {
    return [&S](int r, int k) -> const V& {
      const int lo = r < k ? r : k, hi = r < k ? k : r;
      return lo == hi ? (lo == 0 ? S.xx : lo == 1 ? S.yy : S.zz) : (lo == 0 ? (hi == 1 ? S.xy : S.xz) : S.yz);
    };
  };
  auto b = [&I](int r, int k) -> const V& { return I.B.m[r * 3 + k]; };
  auto bt = [&I](int r, int k) -> const V& { return I.B.m[k * 3 + r]; };
  constexpr int k = K % 3;
  Force<V> f;
  if constexpr (K < 3) {
    f.n = {row_dot_skip<k>(sym(A), 0, c.w) + row_dot_skip<k>(b, 0, c.v), row_dot_skip<k>(sym(A), 1, c.w) + row_dot_skip<k>(b, 1, c.v),
           row_dot_skip<k>(sym(A), 2, c.w) + row_dot_skip<k>(b, 2, c.v)};
    f.f = {row_dot_skip<k>(bt, 0, c.w) + row_dot_skip<k>(sym(C), 0, c.v), row_dot_skip<k>(bt, 1, c.w) + row_dot_skip<k>(sym(C), 1, c.v),
           row_dot_skip<k>(bt, 2, c.w) + row_dot_skip<k>(sym(C), 2, c.v)};
  } else {
    f.n = {row_dot_skip<k>(b, 0, c.v), row_dot_skip<k>(b, 1, c.v), row_dot_skip<k>(b, 2, c.v)};
    f.f = {row_dot_skip<k>(sym(C), 0, c.v), row_dot_skip<k>(sym(C), 1, c.v), row_dot_skip<k>(sym(C), 2, c.v)};
  }
  return f;
}

/// I −= a·bᵀ (upper triangles of the symmetric blocks; callers keep the total symmetric).
template <class V>
ACH_INLINE void subtract_outer(ABInertia<V>& I, const Force<V>& a, const Force<V>& b) {
  I.A.xx -= a.n.x * b.n.x;
  I.A.yy -= a.n.y * b.n.y;
  I.A.zz -= a.n.z * b.n.z;
  I.A.xy -= a.n.x * b.n.y;
  I.A.xz -= a.n.x * b.n.z;
  I.A.yz -= a.n.y * b.n.z;
  const V an[3] = {a.n.x, a.n.y, a.n.z}, bf[3] = {b.f.x, b.f.y, b.f.z};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) I.B.m[r * 3 + c] -= an[r] * bf[c];
  I.C.xx -= a.f.x * b.f.x;
  I.C.yy -= a.f.y * b.f.y;
  I.C.zz -= a.f.z * b.f.z;
  I.C.xy -= a.f.x * b.f.y;
  I.C.xz -= a.f.x * b.f.z;
  I.C.yz -= a.f.y * b.f.z;
}
template <class V>
ACH_INLINE Force<V> scale(const V& s, const Force<V>& f) {
  return {s * f.n, s * f.f};
}
template <class V>
ACH_INLINE Motion<V> scale(const V& s, const Motion<V>& m) {
  return {s * m.w, s * m.v};
}
template <class V>
ACH_INLINE V dot(const Force<V>& f, const Motion<V>& m) {
  return dot(m, f);
}

/// D⁻¹ for a small symmetric positive-definite D (n <= 6), by Gauss–Jordan without pivoting
/// (D = Sᵀ IA S is SPD for a physical model, so the diagonal pivots stay positive).
template <class V>
ACH_INLINE void invert_spd(int n, const V* D, V* Dinv) {
  using T = ScalarOf<V>;
  V a[36], b[36];
  for (int k = 0; k < n * n; ++k) {
    a[k] = D[k];
    b[k] = V(T((k / n) == (k % n) ? 1 : 0));
  }
  for (int p = 0; p < n; ++p) {
    const V inv = T(1) / a[p * n + p];
    for (int c = 0; c < n; ++c) {
      a[p * n + c] = a[p * n + c] * inv;
      b[p * n + c] = b[p * n + c] * inv;
    }
    for (int r = 0; r < n; ++r) {
      if (r == p) continue;
      const V f = a[r * n + p];
      for (int c = 0; c < n; ++c) {
        a[r * n + c] -= f * a[p * n + c];
        b[r * n + c] -= f * b[p * n + c];
      }
    }
  }
  for (int k = 0; k < n * n; ++k) Dinv[k] = b[k];
}

/// Call f.operator()<K>() with the coordinate axis K (0..5) known at compile time.
template <class F>
ACH_INLINE void on_unit_axis(int k, F& f) {
  switch (k) {
    case 0:
      f.template operator()<0>();
      break;
    case 1:
      f.template operator()<1>();
      break;
    case 2:
      f.template operator()<2>();
      break;
    case 3:
      f.template operator()<3>();
      break;
    case 4:
      f.template operator()<4>();
      break;
    default:
      f.template operator()<5>();
      break;
  }
}

// ---- the three sweeps ------------------------------------------------------------------------

/// Root → leaves: placements, velocities, bias accelerations; IA and pA start as the rigid bodies'.
template <class V>
inline void pass_velocity(const KModel<ScalarOf<V>>& M, JointWork<V>* W, const V* q, const V* qd) {
  const FlopScope<V> flops(FlopPass::Velocity);
  using T = ScalarOf<V>;
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) {
    const KJoint<T>& J = M.joints[i];
    JointWork<V>& w = W[i];
    const V* qi = q + J.qoff;
    const V* qdi = qd + J.voff;
    w.X = joint_placement<V>(J, qi);
    const V z(T(0));
    Motion<V> vel = J.parent >= 0 ? motion_to_child(J, w.X, W[J.parent].vel) : Motion<V>{{z, z, z}, {z, z, z}};
    Motion<V> c;
    if (J.unit_axis >= 0) {
      auto unit = [&]<int K>() ACH_ALWAYS_INLINE {
        add_comp<K>(vel, qdi[0]);
        c = ACH_BUG(CoriolisDropped) ? Motion<V>{{z, z, z}, {z, z, z}} : cross_motion_axis<K>(vel, qdi[0]);
      };
      on_unit_axis(J.unit_axis, unit);
    } else if (J.nv > 0) {
      Motion<V> cJ;
      if (J.type == JointType::Revolute) {
        w.S[0] = {const_vec<V>(J.axis), {z, z, z}};
        cJ = {{z, z, z}, {z, z, z}};
      } else if (J.type == JointType::Prismatic) {
        w.S[0] = {{z, z, z}, const_vec<V>(J.axis)};
        cJ = {{z, z, z}, {z, z, z}};
      } else {
        multi_dof_subspace<V>(J, qi, qdi, w.X.R, w.S, cJ);
      }
      Motion<V> vJ = scale(qdi[0], w.S[0]);
      for (int k = 1; k < J.nv; ++k) vJ = vJ + scale(qdi[k], w.S[k]);
      vel = vel + vJ;
      c = ACH_BUG(CoriolisDropped) ? cJ : cJ + cross_motion(vel, vJ);
    } else {
      c = {{z, z, z}, {z, z, z}};
    }
    w.vel = vel;
    w.c = c;
    const RigidInertia<V> I = rigid_inertia<V>(M, i);
    if (J.parent < 0) {
      // A root's c = [0; −ω × v] (free, planar) or 0 is folded into its bias force, which then
      // reduces analytically to v ×* I v + I c = [ω × Io ω; −ω × (h × ω)]: the two large
      // m·ω × v terms cancel in exact arithmetic and are never formed, so a fast-moving,
      // spinning floating body keeps float32 precision in its linear acceleration.
      const Vec3<V> w_B = vel.w;
      const Force<V> self{cross(w_B, mul(I.Io, w_B)), -cross(w_B, cross(I.h, w_B))};
      w.pA = ACH_BUG(GyroSign) ? Force<V>{-self.n, -self.f} : self;
    } else {
      const Force<V> gyro = cross_force(vel, mul(I, vel));
      w.pA = ACH_BUG(GyroSign) ? Force<V>{-gyro.n, -gyro.f} : gyro;
    }
  }
}

/// Per-lane additions to the ABA's D beyond the model's constants (implicitfast's −h·qDeriv, implicit.hpp):
/// `diag` per dof, added to D's diagonal; `free` a full nv × nv block (row-major) per joint with
/// `free_slot[joint] >= 0` (a standalone free body's, not symmetric), added to its D as well.
template <class V>
struct StepExtra {
  const V* diag;
  const V* free;
  const int* free_slot;
};

/// Leaves → root: fold each articulated body into its parent. `stepping`: D gets the step's
/// addition (armature + h·damping in semi-implicit Euler), otherwise the armature only; `X`
/// (optional): per-lane additions on top (implicitfast).
template <class V>
inline void pass_aba_backward(const KModel<ScalarOf<V>>& M, JointWork<V>* W, const V* tau, bool stepping = false, const StepExtra<V>* X = nullptr) {
  const FlopScope<V> flops(FlopPass::AbaBackward);
  using T = ScalarOf<V>;
  for (int i = static_cast<int>(M.joints.size()) - 1; i >= 0; --i) {
    const KJoint<T>& J = M.joints[i];
    JointWork<V>& w = W[i];
    const V* taui = tau + J.voff;
    const int d_slot = stepping ? LaneSlots::d_step(i) : LaneSlots::d_forward(i); // D's addition, per lane
    // IA and pA become Ia = IA − U D⁻¹ Uᵀ and pa in place: only U, D⁻¹ and u are read after
    // this sweep (a copy here cost a several-KB block move per block-step).
    ABInertia<V>& Ia = w.IA;
    if (!J.has_child) Ia = to_articulated(rigid_inertia<V>(M, i));
    Force<V>& pa = w.pA;
    if (J.unit_axis >= 0) {
      auto unit = [&]<int K>() ACH_ALWAYS_INLINE {
        const Force<V> U = ia_column<K>(w.IA);
        V Dinv;
        if (!X) {
          Dinv = J.has_d ? T(1) / (comp<K>(U) + M.template lane<V>(d_slot)) : T(1) / comp<K>(U);
        } else {
          const V d = J.has_d ? comp<K>(U) + M.template lane<V>(d_slot) : comp<K>(U);
          Dinv = T(1) / (d + X->diag[J.voff]);
        }
        const V u = taui[0] - comp<K>(w.pA);
        w.U[0] = U;
        w.Dinv[0] = Dinv;
        w.u[0] = u;
        if (J.parent < 0) return;
        subtract_outer(Ia, U, scale(Dinv, U));
        pa = pa + mul_axis_bias<K>(Ia, w.c) + scale(Dinv * u, U);
      };
      on_unit_axis(J.unit_axis, unit);
    } else if (J.nv > 0) {
      const int nv = J.nv;
      V D[36];
      for (int k = 0; k < nv; ++k) {
        w.U[k] = mul(w.IA, w.S[k]);
        w.u[k] = taui[k] - dot(w.S[k], w.pA);
      }
      for (int r = 0; r < nv; ++r)
        for (int c = 0; c < nv; ++c) D[r * nv + c] = dot(w.S[r], w.U[c]);
      if (J.has_d) {
        const V d = M.template lane<V>(d_slot);
        for (int r = 0; r < nv; ++r) D[r * nv + r] += d;
      }
      if (X) {
        const int slot = X->free_slot[i];
        if (slot >= 0)
          for (int k = 0; k < nv * nv; ++k) D[k] += X->free[slot * 36 + k];
        else
          for (int r = 0; r < nv; ++r) D[r * nv + r] += X->diag[J.voff + r];
      }
      invert_spd(nv, D, w.Dinv);
      if (J.parent >= 0) {
        // Ia = IA − Σ_r U_r (D⁻¹U)_rᵀ;  pa = pA + Ia c + Σ_r U_r (D⁻¹u)_r
        for (int r = 0; r < nv; ++r) {
          Force<V> DU = scale(w.Dinv[r * nv], w.U[0]);
          V Du = w.Dinv[r * nv] * w.u[0];
          for (int c = 1; c < nv; ++c) {
            DU = DU + scale(w.Dinv[r * nv + c], w.U[c]);
            Du += w.Dinv[r * nv + c] * w.u[c];
          }
          subtract_outer(Ia, w.U[r], DU);
          pa = pa + scale(Du, w.U[r]);
        }
        pa = pa + mul(Ia, w.c);
      }
    } else if (J.parent >= 0) {
      pa = pa + mul(Ia, w.c);
    }
    if (J.parent >= 0) {
      JointWork<V>& P = W[J.parent];
      if (J.first_child) {
        // IA_P = I_P + this share, formed in registers (the same sum as += onto a stored I_P)
        ABInertia<V> IA_P = to_articulated(rigid_inertia<V>(M, J.parent));
        add_to(IA_P, inertia_to_parent(J, w.X, Ia));
        P.IA = IA_P;
      } else {
        add_to(P.IA, inertia_to_parent(J, w.X, Ia));
      }
      // A root parent's bias already holds its own I·c (see pass_velocity); its children bring
      // their share Ia·c_root with them, so the root never needs IA·c.
      if (M.joints[J.parent].fold_c) pa = pa + mul(Ia, motion_to_child(J, w.X, P.c));
      P.pA = P.pA + force_to_parent(J, w.X, pa);
    }
  }
}

/// Root → leaves: accelerations.
template <class V>
inline void pass_aba_forward(const KModel<ScalarOf<V>>& M, JointWork<V>* W, V* qdd) {
  const FlopScope<V> flops(FlopPass::AbaForward);
  using T = ScalarOf<V>;
  const V z(T(0));
  // a_world = −g, each lane its robot's gravity (the planted bug: +g); a negation, exactly the
  // −1·g of a broadcast constant
  const V gx = M.template lane<V>(LaneSlots::gravity(0)), gy = M.template lane<V>(LaneSlots::gravity(1)),
          gz = M.template lane<V>(LaneSlots::gravity(2));
  const Motion<V> a_world = ACH_BUG(GravitySign) ? Motion<V>{{z, z, z}, {gx, gy, gz}} : Motion<V>{{z, z, z}, {-gx, -gy, -gz}};
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) {
    const KJoint<T>& J = M.joints[i];
    JointWork<V>& w = W[i];
    // A root's c is already inside its bias force (pass_velocity): add it after solving for q̈.
    const bool root = J.parent < 0;
    Motion<V> a = root ? motion_to_child(J, w.X, a_world) : motion_to_child(J, w.X, W[J.parent].acc) + w.c;
    V* qddi = qdd + J.voff;
    if (J.unit_axis >= 0) {
      auto unit = [&]<int K>() ACH_ALWAYS_INLINE {
        const V x = w.Dinv[0] * (w.u[0] - dot(w.U[0], a));
        qddi[0] = x;
        add_comp<K>(a, x);
      };
      on_unit_axis(J.unit_axis, unit);
    } else if (J.nv > 0) {
      const int nv = J.nv;
      V rhs[6];
      for (int k = 0; k < nv; ++k) rhs[k] = w.u[k] - dot(w.U[k], a);
      for (int r = 0; r < nv; ++r) {
        V x = w.Dinv[r * nv] * rhs[0];
        for (int c = 1; c < nv; ++c) x += w.Dinv[r * nv + c] * rhs[c];
        qddi[r] = x;
      }
      for (int k = 0; k < nv; ++k) a = a + scale(qddi[k], w.S[k]);
    }
    w.acc = root ? a + w.c : a;
  }
}

/// Forward dynamics: q̈ = FD(q, q̇, τ + qfrc_fluid) (stepping: with the step's D addition, and X's, see pass_aba_backward).
template <class V>
inline void forward_dynamics(const KModel<ScalarOf<V>>& M, JointWork<V>* W, const V* q, const V* qd, const V* tau, V* qdd, bool stepping = false,
                             const StepExtra<V>* X = nullptr) {
  pass_velocity(M, W, q, qd);
  if (M.fluid.on) pass_fluid<V>(M, W); // MuJoCo's qfrc_fluid, as external forces on the links
  pass_aba_backward(M, W, tau, stepping, X);
  pass_aba_forward(M, W, qdd);
}

/// Root → leaves: X_WB of every body (after pass_velocity).
template <class V>
inline void pass_pose(const KModel<ScalarOf<V>>& M, const JointWork<V>* W, Transform<V>* X_WB) {
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) {
    const int p = M.joints[i].parent;
    if (p < 0) {
      X_WB[i] = W[i].X;
    } else if (ACH_BUG(BodyAsWorldRotation)) {
      X_WB[i] = {mul(W[i].X.R, X_WB[p].R), X_WB[p].p + mul(X_WB[p].R, W[i].X.p)};
    } else {
      X_WB[i] = compose(X_WB[p], W[i].X);
    }
  }
}

/// Kinetic ½ Σ vᵀ I v and potential −Σ m g·p_WBcm energy (after pass_velocity and pass_pose).
template <class V>
inline void pass_energy(const KModel<ScalarOf<V>>& M, const JointWork<V>* W, const Transform<V>* X_WB, V& kinetic, V& potential) {
  using T = ScalarOf<V>;
  V ke(T(0)), pe(T(0));
  const Vec3<V> g{M.template lane<V>(LaneSlots::gravity(0)), M.template lane<V>(LaneSlots::gravity(1)), M.template lane<V>(LaneSlots::gravity(2))};
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) {
    const RigidInertia<V> I = rigid_inertia<V>(M, i);
    ke += T(0.5) * dot(W[i].vel, mul(I, W[i].vel));
    const Vec3<V> com = !M.per_lane ? const_vec<V>(M.joints[i].com)
                                    : Vec3<V>{M.template lane<V>(LaneSlots::com(i, 0)), M.template lane<V>(LaneSlots::com(i, 1)),
                                              M.template lane<V>(LaneSlots::com(i, 2))};
    const Vec3<V> p_cm = X_WB[i].p + mul(X_WB[i].R, com);
    pe -= I.m * dot(g, p_cm);
  }
  kinetic = ke;
  potential = pe;
}

} // namespace ACH_ISA_NS
} // namespace ach
