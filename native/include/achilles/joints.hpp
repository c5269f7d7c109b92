// What each joint type means: its placement X_PB(q), its motion subspace S (in B) and its
// velocity-product term S̊q̇, and how its coordinates move along a velocity (q ⊕ h·v).
#pragma once

#include "isa_namespace.hpp"

#include "bugs.hpp"
#include "kmodel.hpp"
#include "spatial.hpp"
#include "trig.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class V>
ACH_INLINE V bc(ScalarOf<V> s) {
  return V(s);
}

template <class V>
ACH_INLINE Mat3<V> const_mat(const ScalarOf<V>* m) {
  Mat3<V> R;
  for (int k = 0; k < 9; ++k) R.m[k] = V(m[k]);
  return R;
}
template <class V>
ACH_INLINE Vec3<V> const_vec(const ScalarOf<V>* a) {
  return {V(a[0]), V(a[1]), V(a[2])};
}

/// R = rot(a, θ) = c·1 + s·[a]× + (1 − c)·a aᵀ, from (s, c) = (sin θ, cos θ), unit axis a.
template <class V>
ACH_INLINE Mat3<V> axis_rotation(const ScalarOf<V>* a, const V& s, const V& c) {
  using T = ScalarOf<V>;
  const V t = T(1) - c;
  const T x = a[0], y = a[1], z = a[2];
  return Mat3<V>{{c + t * (x * x), t * (x * y) - s * z, t * (x * z) + s * y, t * (x * y) + s * z, c + t * (y * y), t * (y * z) - s * x,
                  t * (x * z) - s * y, t * (y * z) + s * x, c + t * (z * z)}};
}

/// The rotation about a coordinate axis k (0, 1, 2), with no multiplications by zero.
template <class V>
ACH_INLINE Mat3<V> coord_rotation(int k, const V& s, const V& c) {
  using T = ScalarOf<V>;
  const V o(T(1)), z(T(0));
  switch (k) {
    case 0:
      return Mat3<V>{{o, z, z, z, c, -s, z, s, c}};
    case 1:
      return Mat3<V>{{c, z, s, z, o, z, -s, z, c}};
    default:
      return Mat3<V>{{c, -s, z, s, c, z, z, z, o}};
  }
}

template <class V>
struct Quat {
  V w, x, y, z;
};

template <class V>
ACH_INLINE Quat<V> normalized(const Quat<V>& q) {
  const V inv = ScalarOf<V>(1) / vsqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  return {q.w * inv, q.x * inv, q.y * inv, q.z * inv};
}
template <class V>
ACH_INLINE Mat3<V> quat_to_matrix(const Quat<V>& q) {
  using T = ScalarOf<V>;
  const V ww = q.w * q.w, xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  const V wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z, xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  return Mat3<V>{{ww + xx - yy - zz, T(2) * (xy - wz), T(2) * (xz + wy), T(2) * (xy + wz), ww - xx + yy - zz, T(2) * (yz - wx), T(2) * (xz - wy),
                  T(2) * (yz + wx), ww - xx - yy + zz}};
}
template <class V>
ACH_INLINE Quat<V> quat_mul(const Quat<V>& a, const Quat<V>& b) {
  return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
          a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
/// exp of the rotation vector h·ω as a unit quaternion: [cos(θ/2), sin(θ/2)·ω/|ω|], θ = h|ω|.
/// Near θ = 0 the Taylor series of sin(θ/2)/|ω| takes over (no division by zero reaches the result).
template <class V>
ACH_INLINE Quat<V> quat_exp(const Vec3<V>& w, const V& h) {
  using T = ScalarOf<V>;
  const V n = vsqrt(dot(w, w));
  const V half = T(0.5) * h * n;
  V s, c;
  sincos(half, s, c);
  const auto small = half < T(sizeof(T) == 4 ? 1e-3 : 1e-6);
  const V safe_n = vselect(small, V(T(1)), n);
  const V k = vselect(small, T(0.5) * h * (T(1) - half * half * T(1.0 / 6.0)), s / safe_n);
  return {c, k * w.x, k * w.y, k * w.z};
}

template <class V>
ACH_INLINE Quat<V> load_quat(const V* q) {
  return {q[0], q[1], q[2], q[3]};
}

/// X_PB(q) = X_PJ · X_J(q).
template <class V>
ACH_INLINE Transform<V> joint_placement(const KJoint<ScalarOf<V>>& J, const V* q) {
  using T = ScalarOf<V>;
  const Vec3<V> zero{V(T(0)), V(T(0)), V(T(0))};
  Transform<V> X_JB{coord_rotation(0, V(T(0)), V(T(1))), zero};
  switch (J.type) {
    case JointType::Revolute: {
      V s, c;
      sincos(ACH_BUG(HingeSign) ? -q[0] : q[0], s, c);
      const int k = static_cast<int>(J.axis_kind);
      X_JB.R = k < 3 ? coord_rotation(k, s, c) : axis_rotation<V>(J.axis, s, c);
      X_JB.p = zero;
      break;
    }
    case JointType::Prismatic:
      X_JB.R = coord_rotation(0, V(T(0)), V(T(1)));
      X_JB.p = {q[0] * J.axis[0], q[0] * J.axis[1], q[0] * J.axis[2]};
      break;
    case JointType::Ball:
      X_JB.R = quat_to_matrix(normalized(load_quat(q)));
      X_JB.p = zero;
      break;
    case JointType::Free:
      X_JB.R = quat_to_matrix(normalized(load_quat(q + 3)));
      X_JB.p = {q[0], q[1], q[2]};
      return X_JB; // a free joint's placement is the identity
    case JointType::Planar: {
      V s, c;
      sincos(q[2], s, c);
      X_JB.R = axis_rotation<V>(J.axis, s, c);
      X_JB.p = {q[0] * J.u[0] + q[1] * J.w[0], q[0] * J.u[1] + q[1] * J.w[1], q[0] * J.u[2] + q[1] * J.w[2]};
      break;
    }
    case JointType::Fixed:
      X_JB.R = coord_rotation(0, V(T(0)), V(T(1)));
      X_JB.p = zero;
      break;
  }
  const Vec3<V> p_PJ = const_vec<V>(J.p_PJ);
  if (J.R_PJ_identity) return {X_JB.R, p_PJ + X_JB.p};
  const Mat3<V> R_PJ = const_mat<V>(J.R_PJ);
  return {mul(R_PJ, X_JB.R), p_PJ + mul(R_PJ, X_JB.p)};
}

/// f(R_PB, p_PB) with joint J's placement in its own form: R_PB an AxisRotation when it turns
/// about a coordinate axis of P (J.rot_axis; (c, s) read back from the matrix), and then p_PB an
/// AxisOffset when the origin lies on a coordinate axis (J.offset_axis); else the full matrix and vector.
template <class V, class Rot, class F>
ACH_INLINE decltype(auto) with_offset(const KJoint<ScalarOf<V>>& J, const Rot& R, const Vec3<V>& p, F&& f) {
  switch (J.offset_axis) {
    case 0:
      return f(R, AxisOffset<0, V>{p.x});
    case 1:
      return f(R, AxisOffset<1, V>{p.y});
    case 2:
      return f(R, AxisOffset<2, V>{p.z});
    default:
      return f(R, p);
  }
}
template <class V, class F>
ACH_INLINE decltype(auto) with_placement(const KJoint<ScalarOf<V>>& J, const Transform<V>& X, F&& f) {
  const Mat3<V>& R = X.R;
  switch (J.rot_axis) {
    case 0:
      return with_offset(J, AxisRotation<0, V>{R.m[4], R.m[7]}, X.p, f);
    case 1:
      return with_offset(J, AxisRotation<1, V>{R.m[8], R.m[2]}, X.p, f);
    case 2:
      return with_offset(J, AxisRotation<2, V>{R.m[0], R.m[3]}, X.p, f);
    default:
      return f(R, X.p);
  }
}
/// X_PB⁻¹·m, X_PB*·f and X_PB* I X_PB⁻¹ for joint J's placement X_PB, through with_placement.
template <class V>
ACH_INLINE Motion<V> motion_to_child(const KJoint<ScalarOf<V>>& J, const Transform<V>& X, const Motion<V>& m_P) {
  return with_placement(J, X, [&](const auto& R, const auto& p) ACH_ALWAYS_INLINE { return motion_to_child(R, p, m_P); });
}
template <class V>
ACH_INLINE Force<V> force_to_parent(const KJoint<ScalarOf<V>>& J, const Transform<V>& X, const Force<V>& f_B) {
  return with_placement(J, X, [&](const auto& R, const auto& p) ACH_ALWAYS_INLINE { return force_to_parent(R, p, f_B); });
}
template <class V>
ACH_INLINE ABInertia<V> inertia_to_parent(const KJoint<ScalarOf<V>>& J, const Transform<V>& X, const ABInertia<V>& I) {
  return with_placement(J, X, [&](const auto& R, const auto& p) ACH_ALWAYS_INLINE { return inertia_to_parent(R, p, I); });
}

/// The columns of a multi-DOF joint's motion subspace S in B (nv of them), and c_J = S̊ q̇.
/// `X_JB_R` is R_JB (for free joints, R_WB).
template <class V>
ACH_INLINE void multi_dof_subspace(const KJoint<ScalarOf<V>>& J, const V* q, const V* qd, const Mat3<V>& R_PB, Motion<V>* S, Motion<V>& cJ) {
  using T = ScalarOf<V>;
  const V z(T(0)), o(T(1));
  const Vec3<V> zero{z, z, z};
  switch (J.type) {
    case JointType::Ball:
      S[0] = {{o, z, z}, zero};
      S[1] = {{z, o, z}, zero};
      S[2] = {{z, z, o}, zero};
      cJ = {zero, zero};
      break;
    case JointType::Free: {
      // v = [v_W; ω_B]: S = [[0, 1], [R_WBᵀ, 0]] (rows angular; linear), S̊q̇ = [0; −ω_B × (R_WBᵀ v_W)].
      const Mat3<V>& R = R_PB;
      for (int k = 0; k < 3; ++k) S[k] = {zero, {R.m[k * 3 + 0], R.m[k * 3 + 1], R.m[k * 3 + 2]}};
      S[3] = {{o, z, z}, zero};
      S[4] = {{z, o, z}, zero};
      S[5] = {{z, z, o}, zero};
      const Vec3<V> w{qd[3], qd[4], qd[5]};
      const Vec3<V> vB = mulT(R, Vec3<V>{qd[0], qd[1], qd[2]});
      cJ = {zero, -cross(w, vB)};
      break;
    }
    case JointType::Planar: {
      // S = [[0, 0, n], [R_Jᵀu, R_Jᵀw, 0]] with R_Jᵀu = c·u − s·w, R_Jᵀw = s·u + c·w.
      V s, c;
      sincos(q[2], s, c);
      const Vec3<V> u = const_vec<V>(J.u), w = const_vec<V>(J.w);
      const Vec3<V> uB = c * u - s * w;
      const Vec3<V> wB = s * u + c * w;
      S[0] = {zero, uB};
      S[1] = {zero, wB};
      S[2] = {const_vec<V>(J.axis), zero};
      const Vec3<V> omega = qd[2] * const_vec<V>(J.axis);
      cJ = {zero, -cross(omega, qd[0] * uB + qd[1] * wB)};
      break;
    }
    default:
      cJ = {zero, zero};
      break;
  }
}

/// q_out = q_in ⊕ h·v for one joint (q_out may alias q_in). Orientations move along the body-frame
/// angular velocity: R ← R · exp(h[ω]×), as MuJoCo's mj_integratePos.
template <class V>
ACH_INLINE void integrate_joint(const KJoint<ScalarOf<V>>& J, V* q_out, const V* q_in, const V* v, const V& h) {
  switch (J.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
      q_out[0] = q_in[0] + h * v[0];
      break;
    case JointType::Planar:
      for (int k = 0; k < 3; ++k) q_out[k] = q_in[k] + h * v[k];
      break;
    case JointType::Ball:
    case JointType::Free: {
      const int lin = J.type == JointType::Free ? 3 : 0;
      for (int k = 0; k < lin; ++k) q_out[k] = q_in[k] + h * v[k];
      const Quat<V> dq = quat_exp(Vec3<V>{v[lin], v[lin + 1], v[lin + 2]}, h);
      const Quat<V> q0 = load_quat(q_in + lin);
      const Quat<V> q1 = normalized(ACH_BUG(FreeQuatWorldFrame) ? quat_mul(dq, q0) : quat_mul(q0, dq));
      q_out[lin] = q1.w;
      q_out[lin + 1] = q1.x;
      q_out[lin + 2] = q1.y;
      q_out[lin + 3] = q1.z;
      break;
    }
    case JointType::Fixed:
      break;
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
