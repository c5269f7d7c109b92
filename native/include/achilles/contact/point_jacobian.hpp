// A contact point's Jacobian, kept per point rather than per row. On each body, in the body's frame:
// the point r and the directions n, μ·t1, μ·t2 (zero in lanes where the point is off). A body motion m
// moves the point at v_p = m.v + m.w × r, so
//
//   s = (n, μt1, μt2)·v_p,b − (n, μt1, μt2)·v_p,a        (the normal and friction speeds)
//   pyramid rows:  J_0·x = s_n + s_1,  J_1·x = s_n − s_1,  J_2·x = s_n + s_2,  J_3·x = s_n − s_2
//   Jᵀf:           the force F = f_n·n + f_1·μt1 + f_2·μt2 at the point: (r × F, F) on b, minus on a,
//                  with f_n = Σ f_e,  f_1 = f_0 − f_1,  f_2 = f_2 − f_3
//
// which are MuJoCo's rows J_n ± μ·J_t (mj_instantiateContact) with the sums taken in another order.
// Three directions and one point serve a point's four rows, and each body's wrench is summed once:
// a third of the loads of keeping each row's body-frame wrench.
#pragma once

#include "../isa_namespace.hpp"

#include "../bugs.hpp"
#include "../spatial.hpp"
#include "tables.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class V> struct PointJ {
  Vec3<V> r, n, t1, t2; // body frame: the point, the normal, μ·t1, μ·t2
};

/// The point p with world directions n, μt1, μt2 on the body at X_WB, zeroed where `on` is false.
template <class V>
inline PointJ<V> point_jacobian(const Transform<V>& X_WB, const Vec3<V>& p, const Vec3<V>& n, const Vec3<V>& mt1, const Vec3<V>& mt2,
                                const MaskOf<V>& on) {
  const V z(ScalarOf<V>(0));
  auto keep = [&](const Vec3<V>& a) { return Vec3<V>{vselect(on, a.x, z), vselect(on, a.y, z), vselect(on, a.z, z)}; };
  return {keep(mulT(X_WB.R, p - X_WB.p)), keep(mulT(X_WB.R, n)), keep(mulT(X_WB.R, mt1)), keep(mulT(X_WB.R, mt2))};
}

/// The point's speeds along (n, μt1, μt2) under body motion m.
template <class V> inline Vec3<V> point_speeds(const PointJ<V>& J, const Motion<V>& m) {
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
  out[0] = s.x + s.y;
  out[1] = s.x - s.y;
  out[2] = s.x + s.z;
  out[3] = ACH_BUG(ContactEdgeSign) ? s.x + s.z : s.x - s.z; // the planted bug: J_3 = J_n + μJ_t2
}

/// Fa −=, Fb += the body wrenches of the point's row forces f[0 .. P.rows) (a world side is unread).
template <class V>
inline void point_transpose(const KContactPair<ScalarOf<V>>& P, const PointJ<V>& Ja, const PointJ<V>& Jb, const V* f, Force<V>& Fa, Force<V>& Fb) {
  V fn = f[0], f1(ScalarOf<V>(0)), f2(ScalarOf<V>(0));
  if (P.rows == 4) {
    fn = f[0] + f[1] + f[2] + f[3];
    f1 = f[0] - f[1];
    f2 = ACH_BUG(ContactEdgeSign) ? f[2] + f[3] : f[2] - f[3];
  }
  auto wrench = [&](const PointJ<V>& J) {
    const Vec3<V> Fp = fn * J.n + f1 * J.t1 + f2 * J.t2;
    return Force<V>{cross(J.r, Fp), Fp};
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
