// MuJoCo's elliptic friction cone (engine_core_constraint.c mj_makeImpedance, mj_constraintUpdate_impl;
// engine_solver.c PrimalPrepare, ellipticCostDif, PrimalEval, HessianCone) for one contact point's
// rows u .. u + dim (normal, then the condim − 1 friction directions), per lane.
//
//   R_0 = max(mjMINVAL, (1 − imp)/imp · tran),  R_1 = R_0/impratio,  R_j+1 = R_1·μ_1²/μ_j+1²  (j ≥ 1)
//   μ = μ_1·√(R_1/R_0)  (the regularised cone's slope, MuJoCo's contact mu)
//   U_0 = μ·jar_0, U_j = μ_j·jar_j;  N = U_0,  T = |U_1..|          (the cone made circular)
//   top    N ≥ μT:          f = 0,        cost 0
//   bottom μN + T ≤ 0:      f = −D·jar,   cost ½Σ D_j jar_j²
//   middle otherwise:       Dm = D_0/(μ²(1 + μ²)),  cost ½Dm(N − μT)²,
//                           f_0 = −Dm(N − μT)μ,  f_j = −f_0·U_j·μ_j/T
// with the middle zone's Hessian in jar (Newton): Dm·S·A·S, S = diag(μ, μ_1 ..),
//   A = [[1, −μUᵀ/T], [−μU/T, μN/T³·UUᵀ + (μ² − μN/T)·I]].
// Along a line jar + α·jv: N(α) = U_0 + αV_0, T(α)² = UU + α(2UV + αVV) (V = the scaled jv).
// The per-row μ_j (μ for the normal) are cw.cone_mu's; the point's rows are marked in u_cone.
#pragma once

#include "../isa_namespace.hpp"

#include "../bugs.hpp"
#include "../vmath.hpp"
#include "work.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// The middle zone's Dm = D_0/(μ²(1 + μ²)) (planted: without the (1 + μ²)).
template <class V>
inline V cone_Dm(const V& D0, const V& mu) {
  using T = ScalarOf<V>;
  const V mu2 = mu * mu;
  return ACH_BUG(ConeMiddleDmFactor) ? D0 / mu2 : D0 / (mu2 * (T(1) + mu2));
}

/// The rows' R of an elliptic point from R_0 (mj_makeImpedance): R_1 = R_0/impratio (planted: R_0),
/// R_j+1 = R_1·μ_1²/μ_j+1²; mu_reg = μ_1·√(R_1/R_0). fric: μ_1 .. μ_dim−1 (t1, t2, spin, roll, roll).
template <class V>
inline void cone_R(const V& R0, ScalarOf<V> impratio, const V* fric, int dim, V* R, V& mu_reg) {
  R[0] = R0;
  R[1] = ACH_BUG(ConeFrictionRImpratioIgnored) ? R0 : R0 / V(impratio);
  mu_reg = fric[0] * vsqrt(R[1] / R0);
  for (int j = 1; j < dim - 1; ++j) R[j + 1] = R[1] * fric[0] * fric[0] / (fric[j] * fric[j]);
}

/// The zones of (N, T): top N ≥ μT; bottom μN + T ≤ 0; middle between (T = 0 falls in top or bottom).
template <class V>
inline void cone_zones(const V& N, const V& T, const V& mu, MaskOf<V>& top, MaskOf<V>& bottom, MaskOf<V>& middle) {
  top = N >= mu * T;
  bottom = vand(vnot(top), mu * N + T <= V(ScalarOf<V>(0)));
  middle = vnot(vor(top, bottom));
}

/// Forces, zones (u_cone_bottom, u_cone_middle on every row of the point) and cost of the point at
/// rows u .. u + dim, from jar (mj_constraintUpdate_impl's elliptic branch). Lanes where the point is
/// off (J = 0, aref = 0: jar = 0, the top zone) get force 0.
template <class V>
inline V update_cone(ConstraintWork<V>& cw, int u, int dim) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  const V* jar = cw.jar + u;
  const V* fr = cw.u_cone_mu + u;
  const V mu = fr[0];
  const V N = jar[0] * mu;
  V U[6], TT = zero, quad = zero;
  for (int j = 1; j < dim; ++j) {
    U[j] = jar[j] * fr[j];
    TT += U[j] * U[j];
  }
  for (int j = 0; j < dim; ++j) quad += cw.u_D[u + j] * jar[j] * jar[j];
  const V Tn = vsqrt(TT);
  MaskOf<V> top, bottom, middle;
  cone_zones(N, Tn, mu, top, bottom, middle);
  const MaskOf<V> on = cw.u_on[u];
  bottom = vand(bottom, on);
  middle = vand(middle, on);
  const V Dm = cone_Dm(cw.u_D[u], mu);
  const V NmT = N - mu * Tn;
  const V Tsafe = vselect(middle, Tn, V(T(1)));
  const V f0 = -(Dm * NmT * mu);
  cw.u_force[u] = vselect(bottom, -(cw.u_D[u] * jar[0]), vselect(middle, f0, zero));
  for (int j = 1; j < dim; ++j) cw.u_force[u + j] = vselect(bottom, -(cw.u_D[u + j] * jar[j]), vselect(middle, -f0 / Tsafe * U[j] * fr[j], zero));
  for (int j = 0; j < dim; ++j) {
    cw.u_cone_bottom[u + j] = bottom;
    cw.u_cone_middle[u + j] = middle;
  }
  return vselect(bottom, T(0.5) * quad, vselect(middle, T(0.5) * Dm * NmT * NmT, zero));
}

/// The point's line quantities (PrimalPrepare): q0 = ½Σ D jar², q1 = Σ D jar·jv, q2 = ½Σ D jv²,
/// U_0, V_0, UU, UV, VV, Dm and μ.
template <class V>
struct ConeLine {
  V q0, q1, q2, U0, V0, UU, UV, VV, Dm, mu;
  MaskOf<V> on;
};

template <class V>
inline ConeLine<V> cone_line(const ConstraintWork<V>& cw, int u, int dim) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  ConeLine<V> c;
  c.q0 = c.q1 = c.q2 = c.UU = c.UV = c.VV = zero;
  const V *jar = cw.jar + u, *jv = cw.jv + u, *fr = cw.u_cone_mu + u, *D = cw.u_D + u;
  for (int j = 0; j < dim; ++j) {
    c.q0 += D[j] * jar[j] * jar[j];
    c.q1 += D[j] * jar[j] * jv[j];
    c.q2 += D[j] * jv[j] * jv[j];
  }
  c.q0 = T(0.5) * c.q0;
  c.q2 = T(0.5) * c.q2;
  c.mu = fr[0];
  c.U0 = jar[0] * c.mu;
  c.V0 = jv[0] * c.mu;
  for (int j = 1; j < dim; ++j) {
    const V Uj = jar[j] * fr[j], Vj = jv[j] * fr[j];
    c.UU += Uj * Uj;
    c.UV += Uj * Vj;
    c.VV += Vj * Vj;
  }
  c.Dm = cone_Dm(D[0], c.mu);
  c.on = cw.u_on[u];
  return c;
}

/// The zones at step α: N(α), T(α) and the masks (off lanes: top).
template <class V>
inline void cone_line_zones(const ConeLine<V>& c, const V& alpha, V& N, V& Tn, MaskOf<V>& top, MaskOf<V>& bottom, MaskOf<V>& middle) {
  N = c.U0 + alpha * c.V0;
  Tn = vsqrt(vmax(V(ScalarOf<V>(0)), c.UU + alpha * (ScalarOf<V>(2) * c.UV + alpha * c.VV)));
  cone_zones(N, Tn, c.mu, top, bottom, middle);
  top = vor(top, vnot(c.on));
  bottom = vand(bottom, c.on);
  middle = vand(middle, c.on);
}

/// The point's slope and curvature at α (PrimalEval), added to g and h: in the bottom (quadratic)
/// and middle zones; the top zone adds nothing. ga gets |the slope's term| (line_eval's rounding
/// floor of the slope; unused, it compiles away).
template <class V>
inline void cone_line_slope(const ConeLine<V>& c, const V& alpha, const V& N, const V& Tn, const MaskOf<V>& bottom, const MaskOf<V>& middle, V& g,
                            V& h, V& ga) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  const V Ts = vselect(middle, Tn, V(T(1)));
  const V T1 = (c.UV + alpha * c.VV) / Ts;
  const V T2v = c.VV / Ts - (c.UV + alpha * c.VV) * T1 / (Ts * Ts);
  const V r = N - c.mu * Tn, r1 = c.V0 - c.mu * T1;
  const V term = vselect(bottom, T(2) * alpha * c.q2 + c.q1, vselect(middle, c.Dm * r * r1, zero));
  g += term;
  ga += vabs(term);
  h += vselect(bottom, T(2) * c.q2, vselect(middle, c.Dm * (r1 * r1 - r * c.mu * T2v), zero));
}

/// The point's cost change cost(α) − cost(0) (ellipticCostDif) from its zones at α and at 0.
template <class V>
inline V cone_cost_change(const ConeLine<V>& c, const V& alpha, const V& N, const V& Tn, const MaskOf<V>& top, const MaskOf<V>& bottom,
                          const MaskOf<V>& middle, const V& T0, const MaskOf<V>& top0, const MaskOf<V>& bottom0, const MaskOf<V>& middle0) {
  using T = ScalarOf<V>;
  const V zero(T(0)), half(T(0.5));
  const V dq = alpha * (alpha * c.q2 + c.q1);
  const V r = N - c.mu * Tn, r0 = c.U0 - c.mu * T0;
  // both middle: the rationalised difference (no cancellation): T − T0 = (T² − T0²)/(T + T0)
  const V Tsum = vselect(vand(middle, middle0), Tn + T0, V(T(1)));
  const V dT = alpha * (T(2) * c.UV + alpha * c.VV) / Tsum;
  const V rd = alpha * c.V0 - c.mu * dT;
  const V mm = half * c.Dm * rd * (T(2) * r0 + rd);
  const V b0 = c.mu * c.U0 + T0, b = c.mu * N + Tn;
  V d = zero;
  d = vselect(vand(bottom0, bottom), dq, d);
  d = vselect(vand(middle0, middle), mm, d);
  d = vselect(vand(middle0, bottom), dq + half * c.Dm * b0 * b0, d);
  d = vselect(vand(bottom0, middle), dq - half * c.Dm * b * b, d);
  d = vselect(vand(top0, bottom), dq + c.q0, d);
  d = vselect(vand(top0, middle), half * c.Dm * r * r, d);
  d = vselect(vand(middle0, top), -(half * c.Dm * r0 * r0), d);
  d = vselect(vand(bottom0, top), -c.q0, d);
  return d;
}

/// Adds the point's cost change cost(α) − cost(0) (ellipticCostDif; with kCost), slope and
/// curvature at α (PrimalEval) to c, g, h, |its slope term| to ga, and to n 1 where its zone at α differs from that at
/// α_from or is the middle one (a Newton step there lands on no piece's minimum: the search goes on).
template <bool kStart, bool kCost, class V>
inline void cone_line_eval(const ConeLine<V>& c, const V& alpha, const V& alpha_from, V& cost, V& g, V& h, V& ga, V& n) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  V N, Tn;
  MaskOf<V> top, bottom, middle;
  cone_line_zones(c, alpha, N, Tn, top, bottom, middle);
  cone_line_slope(c, alpha, N, Tn, bottom, middle, g, h, ga);
  if constexpr (kStart) return;
  V N0, T0;
  MaskOf<V> top0, bottom0, middle0;
  cone_line_zones(c, zero, N0, T0, top0, bottom0, middle0);
  if constexpr (kCost) cost += cone_cost_change(c, alpha, N, Tn, top, bottom, middle, T0, top0, bottom0, middle0);
  V Nf, Tf;
  MaskOf<V> topf, bottomf, middlef;
  cone_line_zones(c, alpha_from, Nf, Tf, topf, bottomf, middlef);
  const MaskOf<V> moved = vor(vor(vxor(top, topf), vxor(bottom, bottomf)), middle);
  n += vselect(moved, V(T(1)), zero);
}

/// A line search's constants of an elliptic point of dim >= 3 rows, kept from its start: cone_line's
/// sums, T at α = 0, and the point's zones at α = 0 and at the last evaluated step (which is the next
/// evaluation's α_from), in the point's row slots of four per-row arrays (4·dim >= 12 slots). Each
/// evaluation then forms no sums and one set of zones instead of three; every value is the one
/// cone_line_eval computes afresh, so the search's results are the same bits.
template <class V>
struct ConeSlots {
  V* a[4];
  int u;
  ConeSlots(ConstraintWork<V>& cw, int u) : a{cw.ls_cost0, cw.ls_djv2, cw.ls_cone_a, cw.ls_cone_b}, u(u) {}
  V& operator[](int k) const { return a[k & 3][u + (k >> 2)]; }
};
enum ConeSlot { kSlotQ0, kSlotQ1, kSlotQ2, kSlotU0, kSlotV0, kSlotUU, kSlotUV, kSlotVV, kSlotDm, kSlotT0, kSlotZone0, kSlotZoneFrom };

/// A zone as a number (top 1, bottom 2, middle 0: cone_zones' three masks partition the lanes).
template <class V>
inline V zone_code(const MaskOf<V>& top, const MaskOf<V>& bottom) {
  using T = ScalarOf<V>;
  return vselect(top, V(T(1)), vselect(bottom, V(T(2)), V(T(0))));
}

/// cone_line_eval for a point of dim >= 3 rows, its constants read from (kStart: written to) ConeSlots.
template <bool kStart, bool kCost, class V>
inline void cone_line_eval_kept(ConstraintWork<V>& cw, int u, int dim, const V& alpha, V& cost, V& g, V& h, V& ga, V& n) {
  using T = ScalarOf<V>;
  const ConeSlots<V> s(cw, u);
  ConeLine<V> c;
  if constexpr (kStart) {
    c = cone_line(cw, u, dim);
    const V vals[] = {c.q0, c.q1, c.q2, c.U0, c.V0, c.UU, c.UV, c.VV, c.Dm};
    for (int k = 0; k < 9; ++k) s[k] = vals[k];
    V N0, T0;
    MaskOf<V> top0, bottom0, middle0;
    cone_line_zones(c, V(T(0)), N0, T0, top0, bottom0, middle0);
    s[kSlotT0] = T0;
    s[kSlotZone0] = s[kSlotZoneFrom] = zone_code<V>(top0, bottom0);
  } else {
    c.q0 = s[kSlotQ0], c.q1 = s[kSlotQ1], c.q2 = s[kSlotQ2], c.U0 = s[kSlotU0], c.V0 = s[kSlotV0];
    c.UU = s[kSlotUU], c.UV = s[kSlotUV], c.VV = s[kSlotVV], c.Dm = s[kSlotDm];
    c.mu = cw.u_cone_mu[u];
    c.on = cw.u_on[u];
  }
  const V zero(T(0));
  V N, Tn;
  MaskOf<V> top, bottom, middle;
  cone_line_zones(c, alpha, N, Tn, top, bottom, middle);
  cone_line_slope(c, alpha, N, Tn, bottom, middle, g, h, ga);
  if constexpr (kStart) return;
  const V z0 = s[kSlotZone0], zf = s[kSlotZoneFrom];
  if constexpr (kCost) {
    const V T0 = s[kSlotT0];
    const MaskOf<V> top0 = z0 == V(T(1)), bottom0 = z0 == V(T(2)), middle0 = z0 == zero;
    cost += cone_cost_change(c, alpha, N, Tn, top, bottom, middle, T0, top0, bottom0, middle0);
  }
  const V z = zone_code<V>(top, bottom);
  s[kSlotZoneFrom] = z;
  const MaskOf<V> moved = vor(z != zf, middle);
  n += vselect(moved, V(T(1)), zero);
}

/// H += J_pᵀ·H_c·J_p for the point at rows u .. u + dim in the lanes of its middle zone (HessianCone),
/// J_p the point's rows of newton_J (row u at u·nv), over the dofs its rows touch (n of them).
template <class V>
inline void add_cone_hessian(ConstraintWork<V>& cw, int u, int dim, const int* dofs, int n, int nv) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  const MaskOf<V> middle = cw.u_cone_middle[u];
  if (!vany(middle)) return;
  const V *jar = cw.jar + u, *fr = cw.u_cone_mu + u;
  const V mu = fr[0], N = jar[0] * mu;
  V U[6], TT = zero;
  for (int j = 1; j < dim; ++j) {
    U[j] = jar[j] * fr[j];
    TT += U[j] * U[j];
  }
  const V Tn = vselect(middle, vsqrt(TT), V(T(1)));
  const V Dm = vselect(middle, cone_Dm(cw.u_D[u], mu), zero);
  V Hc[6][6];
  Hc[0][0] = V(T(1));
  const V s0 = -mu / Tn, s1 = mu * N / (Tn * Tn * Tn), s2 = mu * mu - mu * N / Tn;
  for (int j = 1; j < dim; ++j) {
    Hc[0][j] = s0 * U[j];
    for (int k = 1; k <= j; ++k) Hc[k][j] = s1 * U[j] * U[k];
    Hc[j][j] += s2;
  }
  for (int k = 0; k < dim; ++k)
    for (int j = k; j < dim; ++j) {
      Hc[k][j] = Hc[k][j] * (Dm * fr[k] * fr[j]);
      Hc[j][k] = Hc[k][j];
    }
  const V* J[6];
  for (int e = 0; e < dim; ++e) J[e] = cw.newton_J + static_cast<std::size_t>(u + e) * nv;
  V* H = cw.newton_H;
  for (int a = 0; a < n; ++a) {
    const int i = dofs[a];
    V w[6];
    for (int f = 0; f < dim; ++f) {
      V s = J[0][i] * Hc[0][f];
      for (int e = 1; e < dim; ++e) s += J[e][i] * Hc[e][f];
      w[f] = s;
    }
    V* Hi = H + i * nv;
    for (int b = 0; b <= a; ++b) {
      const int j = dofs[b];
      V s = w[0] * J[0][j];
      for (int f = 1; f < dim; ++f) s += w[f] * J[f][j];
      Hi[j] += s;
    }
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
