// A contact point's Jacobian, kept per point rather than per row. On each body, in the body's frame:
// the point r and the directions n, μ·t1, μ·t2 (zero in lanes where the point is off), and for
// condim 4 and 6 the axes μ_spin·n, μ_roll·t1, μ_roll·t2 the bodies' relative rotation is read on. A
// body motion m moves the point at v_p = m.v + m.w × r, so
//
//   s = (n, μt1, μt2)·v_p,b − (n, μt1, μt2)·v_p,a        (the normal and friction speeds)
//   w = (μ_s·n, μ_r·t1, μ_r·t2)·(ω_b − ω_a)              (the torsional and rolling speeds)
//   pyramid rows (pair k):  J_2k·x = s_n + s_k,  J_2k+1·x = s_n − s_k,  s_k = s_1, s_2, w_n, w_1, w_2
//   Jᵀf:  the force F = f_n·n + f_1·μt1 + f_2·μt2 at the point and the torque τ = f_3·μ_s·n +
//         f_4·μ_r·t1 + f_5·μ_r·t2: (r × F + τ, F) on b, minus on a, with f_n = Σ f_e, f_k = f_2k − f_2k+1
//
//   elliptic rows (P.elliptic; μ = μ_s = μ_r = 1 in J):  J_n·x = s_n, J_t1·x = s_1, J_t2·x = s_2, then w_n, w_1, w_2
//
// which are MuJoCo's rows J_n ± μ_k·J_k (mj_instantiateContact: J_k the translational rows along t1,
// t2, then the rotational rows about n, t1, t2) with the sums taken in another order. Three
// directions and one point serve a point's four rows, and each body's wrench is summed once: a third
// of the loads of keeping each row's body-frame wrench.
#pragma once

#include "../isa_namespace.hpp"

#include "../bugs.hpp"
#include "../spatial.hpp"
#include "tables.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class V>
struct PointJ {
  Vec3<V> r, n, t1, t2; // body frame: the point, the normal, μ·t1, μ·t2
  Vec3<V> wn, w1, w2;   // body frame: μ_spin·n (condim 4, 6), μ_roll·t1, μ_roll·t2 (condim 6); never read below
};

/// The body frame's axes of the point's rotational rows (condim 4: the spin, 6: spin and rolling),
/// from the world's n, t1, t2 and the pair's torsional and rolling frictions.
template <class V>
inline void point_rotation_axes(PointJ<V>& J, const Transform<V>& X_WB, const Vec3<V>& n, const Vec3<V>& t1, const Vec3<V>& t2, int condim,
                                const V& mu_spin, const V& mu_roll, const MaskOf<V>& on) {
  const V z(ScalarOf<V>(0));
  auto keep = [&](const Vec3<V>& a) { return Vec3<V>{vselect(on, a.x, z), vselect(on, a.y, z), vselect(on, a.z, z)}; };
  // planted: the spin read about the first tangent instead of the normal
  J.wn = keep(mulT(X_WB.R, mu_spin * (ACH_BUG(ContactTorsionAxis) ? t1 : n)));
  if (condim < 6) return;
  const V& mr = ACH_BUG(ContactRollingCoefficient) ? mu_spin : mu_roll; // planted: rolling scaled by the torsional coefficient
  J.w1 = keep(mulT(X_WB.R, mr * t1));
  J.w2 = keep(mulT(X_WB.R, mr * t2));
}

/// J's point p and world directions n, μt1, μt2 on the body at X_WB, zeroed where `on` is false
/// (the rotation axes are point_rotation_axes', left as they are).
template <class V>
inline void point_jacobian(PointJ<V>& J, const Transform<V>& X_WB, const Vec3<V>& p, const Vec3<V>& n, const Vec3<V>& mt1, const Vec3<V>& mt2,
                           const MaskOf<V>& on) {
  const V z(ScalarOf<V>(0));
  auto keep = [&](const Vec3<V>& a) { return Vec3<V>{vselect(on, a.x, z), vselect(on, a.y, z), vselect(on, a.z, z)}; };
  J.r = keep(mulT(X_WB.R, p - X_WB.p));
  J.n = keep(mulT(X_WB.R, n));
  J.t1 = keep(mulT(X_WB.R, mt1));
  J.t2 = keep(mulT(X_WB.R, mt2));
}

/// The point's speeds along (n, μt1, μt2) under body motion m.
template <class V>
inline Vec3<V> point_speeds(const PointJ<V>& J, const Motion<V>& m) {
  const Vec3<V> v = m.v + cross(m.w, J.r);
  return {dot(J.n, v), dot(J.t1, v), dot(J.t2, v)};
}

/// out[e] = J_e·x for the point's P.rows rows, from the motions x gives its two bodies (ma, mb;
/// unread for the world).
template <class V>
inline void point_rows(const KContactPair<ScalarOf<V>>& P, const PointJ<V>& Ja, const PointJ<V>& Jb, const Motion<V>& ma, const Motion<V>& mb,
                       V* out) {
  const V z(ScalarOf<V>(0));
  Vec3<V> s = P.body_b >= 0 ? point_speeds(Jb, mb) : Vec3<V>{z, z, z};
  if (P.body_a >= 0) s = s - point_speeds(Ja, ma);
  out[0] = s.x;
  if (P.rows == 1) return;
  if (P.elliptic) {
    out[1] = s.y;
    out[2] = s.z;
    if (P.rows == 3) return;
    const Vec3<V> wb = P.body_b >= 0 ? mb.w : Vec3<V>{z, z, z};
    out[3] = dot(Jb.wn, wb);
    if (P.body_a >= 0) out[3] -= dot(Ja.wn, ma.w);
    if (P.rows == 4) return;
    out[4] = dot(Jb.w1, wb), out[5] = dot(Jb.w2, wb);
    if (P.body_a >= 0) out[4] -= dot(Ja.w1, ma.w), out[5] -= dot(Ja.w2, ma.w);
    return;
  }
  out[0] = s.x + s.y;
  out[1] = s.x - s.y;
  out[2] = s.x + s.z;
  out[3] = ACH_BUG(ContactEdgeSign) ? s.x + s.z : s.x - s.z; // the planted bug: J_3 = J_n + μJ_t2
  if (P.rows == 4) return;
  const Vec3<V> wb = P.body_b >= 0 ? mb.w : Vec3<V>{z, z, z};
  V w[3] = {dot(Jb.wn, wb), z, z};
  if (P.body_a >= 0) w[0] -= dot(Ja.wn, ma.w);
  if (P.rows == 10) {
    w[1] = dot(Jb.w1, wb), w[2] = dot(Jb.w2, wb);
    if (P.body_a >= 0) w[1] -= dot(Ja.w1, ma.w), w[2] -= dot(Ja.w2, ma.w);
  }
  for (int k = 0; 4 + 2 * k < P.rows; ++k) {
    out[4 + 2 * k] = s.x + w[k];
    out[5 + 2 * k] = s.x - w[k];
  }
}

/// Fa −=, Fb += the body wrenches of the point's row forces f[0 .. P.rows) (a world side is unread).
template <class V>
inline void point_transpose(const KContactPair<ScalarOf<V>>& P, const PointJ<V>& Ja, const PointJ<V>& Jb, const V* f, Force<V>& Fa, Force<V>& Fb) {
  const V z(ScalarOf<V>(0));
  V fn = f[0], f1 = z, f2 = z, fw[3] = {z, z, z};
  if (P.elliptic) { // the rows are the contact frame's: f_n, f_1, f_2, then the torques
    f1 = f[1], f2 = f[2];
    for (int e = 3; e < P.rows; ++e) fw[e - 3] = f[e];
  } else if (P.rows >= 4) {
    fn = f[0] + f[1] + f[2] + f[3];
    f1 = f[0] - f[1];
    f2 = ACH_BUG(ContactEdgeSign) ? f[2] + f[3] : f[2] - f[3];
    for (int e = 4; e < P.rows; ++e) fn += f[e];
    for (int k = 0; 4 + 2 * k < P.rows; ++k) fw[k] = f[4 + 2 * k] - f[5 + 2 * k];
  }
  const bool turns = P.condim > 3, rolls = P.condim == 6;
  auto wrench = [&](const PointJ<V>& J) {
    const Vec3<V> Fp = fn * J.n + f1 * J.t1 + f2 * J.t2;
    Vec3<V> tau = cross(J.r, Fp);
    if (turns) tau = tau + fw[0] * J.wn;
    if (rolls) tau = tau + fw[1] * J.w1 + fw[2] * J.w2;
    return Force<V>{tau, Fp};
  };
  if (P.body_b >= 0) {
    const Force<V> w = wrench(Jb);
    Fb = {Fb.n + w.n, Fb.f + w.f};
  }
  if (P.body_a >= 0) {
    const Force<V> w = wrench(Ja);
    Fa = {Fa.n - w.n, Fa.f - w.f};
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
