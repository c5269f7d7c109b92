// The equality rows at one state (MuJoCo's mj_instantiateEquality, mj_makeImpedance for a block of
// rows, mj_referenceConstraint with mj_Jdotv), for one block of lanes; the constants and what each
// type means are in equality_spec.hpp and tables.hpp (KEquality).
//
// J is kept per constraint, not per row: for connect and weld the two bodies' rotations R1, R2 and
// the rotation rows' matrix G (applied to ω1 − ω2 in world axes), so with body motions m (body frame)
//
//   translation:  J·x = R1 (m1.v + m1.w × p1) − R2 (m2.v + m2.w × p2)
//   rotation:     J·x = G R1 m1.w − G R2 m2.w,   G = ½·ts·(w·1 − [v]×)·R2eᵀ,  qe = (w, v)
//   Jᵀf:          on body 1 the wrench (p1 × F + (G R1)ᵀ f_rot, F) with F = R1ᵀ f_tran; minus on body 2
//
// and for a joint coupling J = e_dof1 + c·e_dof2, c = −P'(d). qe is the relative rotation
// R2eᵀ R1e (R1e = R1·Q1, R2e = R2·Q2) as a quaternion with w >= 0: MuJoCo composes it from its body
// quaternions, whose sign is a convention; a row's pos, J, aref and force all flip with it and its
// cost does not, so the dynamics are the same either way.
//
// J̇·v (mj_Jdotv, subtracted from aref): a body point's acceleration at q̈ = 0 is
// R (a.v + a.w × p + ω × (v + ω × p)) with (a.w, a.v) the body's bias acceleration (the ABA's c
// summed from the root); the rotation rows' term is ½·ts·Im((P.w, R2eᵀ P.v) ⊗ qe) with
// P = (−½|Δω|², Δω̇ + ½ Δω × (ω1 + ω2)), Δω = ω1 − ω2 (world) and Δω̇ the bias angular accelerations'
// difference: MuJoCo's three product-rule terms summed in closed form.
#pragma once

#include "../isa_namespace.hpp"

#include "../aba.hpp"
#include "../bugs.hpp"
#include "../joints.hpp"
#include "tables.hpp"
#include "tree.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// One equality constraint's Jacobian at the evaluated state (see the file comment).
template <class V>
struct EqualityJ {
  Mat3<V> R1, R2; // the bodies' world rotations (identity for the world)
  Mat3<V> G1, G2; // weld: G·R1, G·R2
  V c;            // joint: the coefficient on joint 2's dof, −P'(d)
};

template <class V>
inline Mat3<V> identity3() {
  using T = ScalarOf<V>;
  const V o(T(1)), z(T(0));
  return {{o, z, z, z, o, z, z, z, o}};
}
template <class V>
inline Mat3<V> const_mat3(const ScalarOf<V>* m) {
  Mat3<V> R;
  for (int k = 0; k < 9; ++k) R.m[k] = V(m[k]);
  return R;
}
template <class V>
inline Mat3<V> transpose3(const Mat3<V>& A) {
  return {{A.m[0], A.m[3], A.m[6], A.m[1], A.m[4], A.m[7], A.m[2], A.m[5], A.m[8]}};
}

/// The unit quaternion (w, v) of rotation matrix R with w >= 0 (Shepperd's method: the largest of
/// w², x², y², z² is taken from the diagonal, the others from the off-diagonal sums; chosen lane-wise).
template <class V>
inline void rotation_quat(const Mat3<V>& R, V& w, Vec3<V>& v) {
  using T = ScalarOf<V>;
  const V* m = R.m;
  const V zero(T(0)), one(T(1)), half(T(0.5)), tiny = V(T(kMinVal));
  const V tr = m[0] + m[4] + m[8];
  const V sw = half * vsqrt(vmax(zero, one + tr)), sx = half * vsqrt(vmax(zero, one + m[0] - m[4] - m[8]));
  const V sy = half * vsqrt(vmax(zero, one - m[0] + m[4] - m[8])), sz = half * vsqrt(vmax(zero, one - m[0] - m[4] + m[8]));
  const V iw = T(0.25) / vmax(tiny, sw), ix = T(0.25) / vmax(tiny, sx), iy = T(0.25) / vmax(tiny, sy), iz = T(0.25) / vmax(tiny, sz);
  // candidates: (w, x, y, z) from each pivot
  const V a[4][4] = {{sw, (m[7] - m[5]) * iw, (m[2] - m[6]) * iw, (m[3] - m[1]) * iw},
                     {(m[7] - m[5]) * ix, sx, (m[1] + m[3]) * ix, (m[2] + m[6]) * ix},
                     {(m[2] - m[6]) * iy, (m[1] + m[3]) * iy, sy, (m[5] + m[7]) * iy},
                     {(m[3] - m[1]) * iz, (m[2] + m[6]) * iz, (m[5] + m[7]) * iz, sz}};
  const MaskOf<V> px = vand(m[0] > tr, vand(m[0] >= m[4], m[0] >= m[8]));
  const MaskOf<V> py = vand(vnot(px), vand(m[4] > tr, m[4] >= m[8]));
  const MaskOf<V> pz = vand(vnot(vor(px, py)), m[8] > tr);
  V q[4];
  for (int k = 0; k < 4; ++k) q[k] = vselect(px, a[1][k], vselect(py, a[2][k], vselect(pz, a[3][k], a[0][k])));
  const MaskOf<V> neg = q[0] < zero;
  w = vselect(neg, -q[0], q[0]);
  v = {vselect(neg, -q[1], q[1]), vselect(neg, -q[2], q[2]), vselect(neg, -q[3], q[3])};
}

/// out[0 .. e.rows) = J·x of equality e, from the motions x gives its bodies (m1, m2; zero for the
/// world) or, for a joint coupling, x itself.
template <class V>
inline void equality_times(const KEquality<ScalarOf<V>>& e, const EqualityJ<V>& J, const Motion<V>& m1, const Motion<V>& m2, const V* x, V* out) {
  if (e.type == EqualityType::Joint) {
    out[0] = e.dof2 >= 0 ? x[e.dof1] + J.c * x[e.dof2] : x[e.dof1];
    return;
  }
  using T = ScalarOf<V>;
  const V z(T(0));
  Vec3<V> t{z, z, z};
  if (e.body1 >= 0) t = mul(J.R1, m1.v + cross(m1.w, const_vec<V>(e.p1)));
  if (e.body2 >= 0) t = t - mul(J.R2, m2.v + cross(m2.w, const_vec<V>(e.p2)));
  out[0] = t.x, out[1] = t.y, out[2] = t.z;
  if (e.type != EqualityType::Weld) return;
  Vec3<V> r{z, z, z};
  if (e.body1 >= 0) r = mul(J.G1, m1.w);
  if (e.body2 >= 0) r = r - mul(J.G2, m2.w);
  out[3] = r.x, out[4] = r.y, out[5] = r.z;
}

/// Body wrenches (F, body frames) of equality e's row forces f[0 .. e.rows) (connect, weld).
template <class V>
inline void equality_wrenches(const KEquality<ScalarOf<V>>& e, const EqualityJ<V>& J, const V* f, Force<V>* F) {
  const Vec3<V> ft{f[0], f[1], f[2]};
  const bool weld = e.type == EqualityType::Weld;
  if (e.body1 >= 0) {
    const Vec3<V> Fb = mulT(J.R1, ft);
    Vec3<V> n = cross(const_vec<V>(e.p1), Fb);
    if (weld) n = n + mulT(J.G1, Vec3<V>{f[3], f[4], f[5]});
    F[e.body1] = {F[e.body1].n + n, F[e.body1].f + Fb};
  }
  if (e.body2 >= 0) {
    const Vec3<V> Fb = mulT(J.R2, ft);
    Vec3<V> n = cross(const_vec<V>(e.p2), Fb);
    if (weld) n = n + mulT(J.G2, Vec3<V>{f[3], f[4], f[5]});
    F[e.body2] = {F[e.body2].n - n, F[e.body2].f - Fb};
  }
}

/// A body point's acceleration at q̈ = 0 in world axes (J̇·v of the point): R (a.v + a.w × p + ω × (v + ω × p)).
template <class V>
inline Vec3<V> point_bias_acc(const Mat3<V>& R, const Motion<V>& vel, const Motion<V>& a, const Vec3<V>& p) {
  return mul(R, a.v + cross(a.w, p) + cross(vel.w, vel.v + cross(vel.w, p)));
}

} // namespace ACH_ISA_NS
} // namespace ach
