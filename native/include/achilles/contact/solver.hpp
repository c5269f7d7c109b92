// MuJoCo's primal problem, solved by preconditioned conjugate gradient in acceleration space
// (engine_solver.c mj_solPrimal with flg_Newton = 0), for one block of lanes:
//
//   minimize  ½(a − a₀)ᵀM(a − a₀) + Σ_i ½ D_i (J_i a − aref_i)²   over rows on with J_i a − aref_i < 0
//
//   grad = M(a − a₀) − Jᵀf,  f_i = −D_i (J_i a − aref_i) on active rows;  Mgrad = M⁻¹ grad
//   search₀ = −Mgrad;  exact line search on the piecewise quadratic (1-D Newton, bracketed);
//   Hager–Zhang: β = (yᵀMg − 2(yᵀMy/dᵀy)·dᵀg)/dᵀy, floored at −1/(‖d‖·min(0.01, ‖g‖)), 0 if dᵀy < 1e-15
//
// Every lane runs the same fixed number of iterations; a lane whose line search finds no
// improvement (α = 0: MuJoCo stops there) keeps its answer, its search direction zeroed.
#pragma once

#include "../isa_namespace.hpp"

#include "rows.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

constexpr int kLineSearchIterations = 12;

/// out[r] = J_r·x for every used row (x's body motions taken from `motions`).
template <class V> inline void rows_times(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const Motion<V>* motions, const V* x, V* out) {
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    if (r < cw.nlimit_rows) {
      out[r] = cw.lim_sign[r] * x[KC.limits[r / 2].dof];
    } else {
      const int c = r - cw.nlimit_rows;
      const KContactPair<ScalarOf<V>>& P = KC.pairs[pair_of_row(KC, c)];
      V s = P.body_b >= 0 ? dot(motions[P.body_b], cw.fb[c]) : V(ScalarOf<V>(0));
      if (P.body_a >= 0) s = s - dot(motions[P.body_a], cw.fa[c]);
      out[r] = s;
    }
  }
}

/// qfrc = Jᵀ·f over the used rows.
template <class V> inline void rows_transpose(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W,
                                              ConstraintWork<V>& cw, const V* f, V* qfrc) {
  using T = ScalarOf<V>;
  const int n = static_cast<int>(M.joints.size());
  for (int i = 0; i < n; ++i) cw.F[i] = zero_force<V>();
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    if (r < cw.nlimit_rows) continue;
    const int c = r - cw.nlimit_rows;
    const KContactPair<T>& P = KC.pairs[pair_of_row(KC, c)];
    if (P.body_b >= 0) cw.F[P.body_b] = cw.F[P.body_b] + scale(f[r], cw.fb[c]);
    if (P.body_a >= 0) cw.F[P.body_a] = cw.F[P.body_a] - scale(f[r], cw.fa[c]);
  }
  for (int k = 0; k < M.nv; ++k) qfrc[k] = V(T(0));
  pass_wrench_to_joints(M, W, cw.F, qfrc);
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    if (r >= cw.nlimit_rows) break;
    const int dof = KC.limits[r / 2].dof;
    qfrc[dof] = qfrc[dof] + cw.lim_sign[r] * f[r];
  }
}

/// f = −D·jar where the row is on and violated, else 0; returns Σ ½ D jar² over those rows.
template <class V> inline V update_forces(ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  V cost(T(0));
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    const MaskOf<V> act = vand(cw.on[r], cw.jar[r] < V(T(0)));
    cw.force[r] = vselect(act, -(cw.D[r] * cw.jar[r]), V(T(0)));
    cost += vselect(act, T(0.5) * cw.D[r] * cw.jar[r] * cw.jar[r], V(T(0)));
  }
  return cost;
}

template <class V> inline V dotv(const V* a, const V* b, int n) {
  V s(ScalarOf<V>(0));
  for (int k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

/// The 1-D cost along the search direction at step α: its change from α = 0, slope and curvature.
template <class V> struct LinePoint {
  V alpha, cost, d1, d2;
};
template <class V> inline LinePoint<V> line_eval(const ConstraintWork<V>& cw, const V& c1, const V& c2, const V& alpha) {
  using T = ScalarOf<V>;
  V cost = alpha * c1 + alpha * alpha * c2, d1 = c1 + T(2) * alpha * c2, d2 = T(2) * c2;
  for (int u = 0; u < cw.nused; ++u) {
    const int r = cw.used[u];
    const V j0 = cw.jar[r], jv = cw.jv[r], D = cw.D[r];
    const V x = j0 + alpha * jv;
    const MaskOf<V> act = vand(cw.on[r], x < V(T(0)));
    const MaskOf<V> act0 = vand(cw.on[r], j0 < V(T(0)));
    cost += vselect(act, T(0.5) * D * x * x, V(T(0))) - vselect(act0, T(0.5) * D * j0 * j0, V(T(0)));
    d1 += vselect(act, D * x * jv, V(T(0)));
    d2 += vselect(act, D * jv * jv, V(T(0)));
  }
  return {alpha, cost, d1, d2};
}

/// Exact line search: safeguarded 1-D Newton on the convex piecewise quadratic (within one piece
/// a Newton step lands on the minimum), a fixed number of evaluations; returns the evaluated step
/// with the smallest slope |f'(α)| (MuJoCo's PrimalSearch converges on the slope too, so the answer
/// is not limited by the cost's rounding), 0 when α = 0 is not a descent.
template <class V> inline V line_search(const ConstraintWork<V>& cw, const V& c1, const V& c2) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  LinePoint<V> p = line_eval(cw, c1, c2, zero);
  V best = zero, best_slope = vabs(p.d1), lo = zero, hi = zero;
  MaskOf<V> has_hi = mask_false<V>();
  const MaskOf<V> descent = p.d1 < zero;
  for (int it = 0; it < kLineSearchIterations; ++it) {
    const MaskOf<V> curved = p.d2 > zero;
    const V newton = p.alpha - p.d1 / vselect(curved, p.d2, V(T(1)));
    const MaskOf<V> outside = vand(has_hi, vor(newton <= lo, newton >= hi));
    V next = vselect(outside, T(0.5) * (lo + hi), newton);
    next = vselect(vand(curved, descent), next, p.alpha);
    p = line_eval(cw, c1, c2, next);
    const MaskOf<V> better = vabs(p.d1) < best_slope;
    best = vselect(better, p.alpha, best);
    best_slope = vselect(better, vabs(p.d1), best_slope);
    const MaskOf<V> below = p.d1 < zero;
    lo = vselect(below, p.alpha, lo);
    hi = vselect(below, hi, p.alpha);
    has_hi = vor(has_hi, vnot(below));
  }
  return vselect(descent, best, zero);
}

/// The constrained accelerations of one block: cw.a0 holds qacc_smooth, rows are built; with
/// `use_warm`, cw.warm competes with qacc_smooth as MuJoCo's warmstart(). Writes cw.a, cw.force, cw.qfrc.
template <class V>
inline void solve_constraints(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw,
                              int iterations, bool use_warm) {
  using T = ScalarOf<V>;
  const int nv = M.nv;
  const V zero(T(0));
  // start: qacc_smooth, or the warm start where its cost is not higher
  pass_body_motion(M, W, cw.a0, cw.tw.m);
  rows_times(KC, cw, cw.tw.m, cw.a0, cw.jar);
  for (int u = 0; u < cw.nused; ++u) cw.jar[cw.used[u]] = cw.jar[cw.used[u]] - cw.aref[cw.used[u]];
  for (int k = 0; k < nv; ++k) {
    cw.a[k] = cw.a0[k];
    cw.Mrel[k] = zero;
  }
  if (use_warm) {
    const V cost_smooth = update_forces(cw);
    for (int k = 0; k < nv; ++k) cw.tmp[k] = cw.warm[k] - cw.a0[k];
    mul_M(M, W, cw.tw, cw.tmp, cw.tmp2); // M(warm − a₀)
    const V gauss = T(0.5) * dotv(cw.tmp, cw.tmp2, nv);
    for (int u = 0; u < cw.nused; ++u) cw.jv[cw.used[u]] = cw.jar[cw.used[u]]; // keep jar(a₀)
    pass_body_motion(M, W, cw.warm, cw.tw.m);
    rows_times(KC, cw, cw.tw.m, cw.warm, cw.jar);
    for (int u = 0; u < cw.nused; ++u) cw.jar[cw.used[u]] = cw.jar[cw.used[u]] - cw.aref[cw.used[u]];
    const V cost_warm = gauss + update_forces(cw);
    const MaskOf<V> warm = cost_warm <= cost_smooth;
    for (int k = 0; k < nv; ++k) {
      cw.a[k] = vselect(warm, cw.warm[k], cw.a0[k]);
      cw.Mrel[k] = vselect(warm, cw.tmp2[k], zero);
    }
    for (int u = 0; u < cw.nused; ++u) cw.jar[cw.used[u]] = vselect(warm, cw.jar[cw.used[u]], cw.jv[cw.used[u]]);
  }
  update_forces(cw);
  rows_transpose(M, KC, W, cw, cw.force, cw.qfrc);
  for (int k = 0; k < nv; ++k) cw.grad[k] = cw.Mrel[k] - cw.qfrc[k];
  solve_M(M, W, cw.tw, cw.grad, cw.Mgrad);
  for (int k = 0; k < nv; ++k) cw.search[k] = -cw.Mgrad[k];
  MaskOf<V> done = mask_false<V>();
  for (int it = 0; it < iterations; ++it) {
    mul_M(M, W, cw.tw, cw.search, cw.Mv); // leaves the search's body motions in tw.m
    rows_times(KC, cw, cw.tw.m, cw.search, cw.jv);
    const V c1 = dotv(cw.search, cw.Mrel, nv);
    const V c2 = T(0.5) * dotv(cw.search, cw.Mv, nv);
    const V alpha = vselect(done, zero, line_search(cw, c1, c2));
    for (int k = 0; k < nv; ++k) {
      cw.a[k] += alpha * cw.search[k];
      cw.Mrel[k] += alpha * cw.Mv[k];
      cw.gradold[k] = cw.grad[k];
      cw.Mgradold[k] = cw.Mgrad[k];
    }
    for (int u = 0; u < cw.nused; ++u) cw.jar[cw.used[u]] += alpha * cw.jv[cw.used[u]];
    update_forces(cw);
    rows_transpose(M, KC, W, cw, cw.force, cw.qfrc);
    for (int k = 0; k < nv; ++k) cw.grad[k] = cw.Mrel[k] - cw.qfrc[k];
    solve_M(M, W, cw.tw, cw.grad, cw.Mgrad);
    done = vor(done, alpha == zero);
    // Hager–Zhang direction
    V d_dot_y = zero, y_dot_My = zero, y_dot_Mg = zero, d_dot_g = zero, dd = zero, gg = zero;
    for (int k = 0; k < nv; ++k) {
      const V y = cw.grad[k] - cw.gradold[k];
      const V My = cw.Mgrad[k] - cw.Mgradold[k];
      d_dot_y += cw.search[k] * y;
      y_dot_My += y * My;
      y_dot_Mg += y * cw.Mgrad[k];
      d_dot_g += cw.search[k] * cw.grad[k];
      dd += cw.search[k] * cw.search[k];
      gg += cw.grad[k] * cw.grad[k];
    }
    const MaskOf<V> restart = d_dot_y < V(T(kMinVal));
    const V dy = vselect(restart, V(T(1)), d_dot_y);
    const V beta_hz = (y_dot_Mg - T(2) * (y_dot_My / dy) * d_dot_g) / dy;
    const V eta_k = V(T(-1)) / vmax(V(T(kMinVal)), vsqrt(dd) * vmin(V(T(0.01)), vsqrt(gg)));
    const V beta = vselect(restart, zero, vmax(eta_k, beta_hz));
    for (int k = 0; k < nv; ++k) cw.search[k] = vselect(done, zero, beta * cw.search[k] - cw.Mgrad[k]);
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
