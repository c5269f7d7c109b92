// A ball joint's cone limit (MuJoCo's mj_instantiateLimit, mjJNT_BALL): one row when the joint's
// rotation angle comes within `margin` of its range.
//
//   quat   = mju_normalize4(q)                     (w, x, y, z)
//   r      = mju_quat2Vel(quat, 1)                 axis·θ, θ = 2·atan2(|xyz|, w), θ −= 2π when θ > π
//   angle  = mju_normalize3(r)                     (r becomes the unit direction u)
//   dist   = max(range) − angle,  J = −u on the joint's 3 dofs (body-frame angular velocity)
//
// No libm in kernels: atan2 is a fixed sequence of +, −, ×, ÷ (argument reduction to |t| ≤ tan(π/8),
// then the alternating Taylor series to 24 terms: error below 1e-19 in exact arithmetic, a few ulps
// after rounding), the same in every lane.
#pragma once

#include "../isa_namespace.hpp"

#include "work.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// atan(t) for t ≥ 0 (finite or +inf): reduced to |u| ≤ tan(π/8) by π/2 − atan(1/t) and π/4 + atan((t−1)/(t+1)).
template <class V>
inline V atan_nonneg(const V& t) {
  using T = ScalarOf<V>;
  const T pi_2 = T(1.5707963267948966192), pi_4 = T(0.78539816339744830962);
  const MaskOf<V> big = t > V(T(2.4142135623730950488)), mid = vand(vnot(big), t > V(T(0.41421356237309504880)));
  const V safe = vselect(big, t, V(T(1)));
  const V u_big = T(1) / safe;
  const V u_mid = (t - T(1)) / (t + T(1));
  const V u = vselect(big, u_big, vselect(mid, u_mid, t));
  const V u2 = u * u;
  V s(T(1) / T(2 * 23 + 1));
  for (int k = 22; k >= 0; --k) s = V(T(1) / T(2 * k + 1)) - u2 * s;
  const V a = u * s;
  return vselect(big, V(pi_2) - a, vselect(mid, V(pi_4) + a, a));
}

/// atan2(y, x) for y ≥ 0 (MuJoCo calls it with y = |xyz| ≥ 0).
template <class V>
inline V atan2_ynonneg(const V& y, const V& x) {
  using T = ScalarOf<V>;
  const T pi = T(3.14159265358979323846), pi_2 = T(1.5707963267948966192);
  const MaskOf<V> zero = x == V(T(0)), neg = x < V(T(0));
  const V ax = vselect(zero, V(T(1)), vabs(x));
  const V a = atan_nonneg(y / ax);
  return vselect(zero, V(pi_2), vselect(neg, V(pi) - a, a));
}

/// mju_normalize3/4: unchanged when |norm − 1| ≤ mjMINVAL, the default (1,0,0[,0]) below mjMINVAL.
template <class V>
inline V mj_normalize(V* a, int n) {
  using T = ScalarOf<V>;
  V ss = a[0] * a[0];
  for (int i = 1; i < n; ++i) ss = ss + a[i] * a[i];
  const V norm = vsqrt(ss);
  const MaskOf<V> tiny = norm < V(T(kMinVal)), scale = vand(vnot(tiny), vabs(norm - T(1)) > V(T(kMinVal)));
  const V inv = T(1) / vselect(tiny, V(T(1)), norm);
  for (int i = 0; i < n; ++i) a[i] = vselect(tiny, V(T(i == 0 ? 1 : 0)), vselect(scale, a[i] * inv, a[i]));
  return norm;
}

/// The ball joint's rotation angle and the direction u (J = −u) from its quaternion q[0..3].
template <class V>
inline V ball_angle(const V* q, Vec3<V>& u) {
  using T = ScalarOf<V>;
  V quat[4] = {q[0], q[1], q[2], q[3]};
  mj_normalize(quat, 4);
  V axis[3] = {quat[1], quat[2], quat[3]};
  const V sin_a_2 = mj_normalize(axis, 3);
  V speed = T(2) * atan2_ynonneg(sin_a_2, quat[0]);
  speed = vselect(speed > V(T(3.14159265358979323846)), speed - T(2) * T(3.14159265358979323846), speed);
  V r[3] = {axis[0] * speed, axis[1] * speed, axis[2] * speed};
  const V angle = mj_normalize(r, 3);
  u = {r[0], r[1], r[2]};
  return angle;
}

} // namespace ACH_ISA_NS
} // namespace ach
