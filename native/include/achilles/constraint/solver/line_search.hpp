// The exact line search of the CG solve (MuJoCo's mj_solPrimal PrimalSearch): per island, the 1-D
// cost along the search direction is convex, piecewise quadratic but for elliptic cones' middle
// zones (cone.hpp); line_eval evaluates it (cost change, slope, curvature) from the packed rows,
// line_search brackets and Newton-steps to its minimum.
#pragma once

#include "../../isa_namespace.hpp"

#include <cmath>
#include <limits>
#include <type_traits>

#include "../../bugs.hpp"
#include "../../vmath.hpp"
#include "../../contact/cone.hpp"
#include "../../contact/islands.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

constexpr int kLineSearchIterations = 16;
/// With elliptic cones: the middle zone's cost is not quadratic, so no Newton step lands on a piece's
/// minimum and a search settles only when its steps reach rounding level (quadratic convergence once
/// bracketed, but more evaluations than a piecewise quadratic needs).
constexpr int kConeLineSearchIterations = 64;
/// MuJoCo's default ls_tolerance (mjOption): with elliptic cones the search stops, as PrimalSearch
/// does, once |f'(α)| < tolerance·ls_tolerance·‖d‖/scale with a cost below that at α = 0.
constexpr double kLsTolerance = 0.01;
/// float32 with elliptic cones: the slope tolerance is at least this many times the slope's
/// rounding floor ε·(|c1| + |2α·c2| + Σ|row terms of f′|) (line_eval's slope_floor). f′ sums tens of
/// terms, each rounded, so its error is a few to tens of ε·Σ|terms|. Measured (docs/contact-validation.md):
/// Newton after one iteration in f32 against MuJoCo is unchanged up to 64 and worsens from ~1000.
constexpr double kSlopeFloorFactor = 16.0;
/// With elliptic cones, bracketed: a Newton step landing within this fraction of the bracket's width
/// from its other end is replaced by bisection (line_search_run).
constexpr double kFarEndFraction = 1.0 / 16;

/// MuJoCo's Huber cost of a dry-friction row at jar = x (quadratic within ±R·f, linear beyond).
template <class V>
inline V friction_cost(const V& x, const V& f, const V& Rf, const V& D) {
  using T = ScalarOf<V>;
  const MaskOf<V> neg = x <= -Rf, pos = x >= Rf;
  return vselect(neg, f * (T(-0.5) * Rf - x), vselect(pos, f * (T(-0.5) * Rf + x), T(0.5) * D * x * x));
}

/// Cost change from α = 0, slope and curvature of every island's 1-D cost at its step alpha[t],
/// and per_tree.crossed: how many of the island's rows lie in another piece of the cost at alpha
/// than at `from` (a row crossing its kink: x = 0, or x = ±R·f for friction). `kStart` is the first
/// evaluation, at α = 0 (alpha and from are not read): it also keeps the line search's per-row
/// constants, a row's cost at α = 0 and D·jv², and its cost change and crossings are 0. Without
/// `kCost` the cost is left out (per_tree.cost holds only the quadratic part): only the tolerance's
/// improvement test reads it, so a solve with a fixed iteration count needs none of it.
/// With `kFloor`, per_tree.slope_floor gets the slope's rounding floor ε·(|c1| + |2α·c2| + Σ|row
/// terms|) (line_search's float32 stop under the elliptic cone).
/// Each tree sums its rows in `used` order, in registers, into its row sums (per_tree.rows_*); a
/// tree settled in every lane (`settled`, when given) has the same step as at the last evaluation,
/// so its row sums are kept rather than summed again, and none of its rows crossed.
template <bool kStart, bool kCost, bool kFloor = false, class V>
inline void line_eval(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw, const V* alpha, const V* from, const MaskOf<V>* settled = nullptr) {
  using T = ScalarOf<V>;
  const int nt = KC.ntrees;
  V *cost = cw.per_tree.cost, *d1 = cw.per_tree.d1, *d2 = cw.per_tree.d2, *crossed = cw.per_tree.crossed;
  V *row_cost = cw.per_tree.rows_cost, *row_d1 = cw.per_tree.rows_d1, *row_d2 = cw.per_tree.rows_d2, *row_crossed = cw.per_tree.rows_crossed;
  [[maybe_unused]] V *floor_sum = cw.per_tree.slope_floor, *row_d1abs = cw.per_tree.rows_d1abs;
  const V zero(T(0)), one(T(1));
  // the arrays in locals: a store of a pack may alias anything, cw's pointers included
  const V *jar = cw.jar, *jvs = cw.jv, *u_D = cw.u_D, *u_floss = cw.u_floss, *u_R = cw.u_R;
  const MaskOf<V>* u_on = cw.u_on;
  V *ls_cost0 = cw.ls_cost0, *ls_djv2 = cw.ls_djv2;
  const int* tree_rows = cw.tree_rows;
  for (int t = 0; t < nt; ++t) {
    if (settled && !vany(vnot(settled[t]))) {
      row_crossed[t] = zero;
      continue;
    }
    const V a = kStart ? zero : alpha[t], a_from = kStart ? zero : from[t];
    V c = zero, g = zero, h = zero, n = zero;
    V ga = zero;                                // Σ|terms of g| (kFloor only)
    const auto add_slope = [&](const V& term) { // g += a row's term of f′, and its size to the floor
      g += term;
      if constexpr (kFloor) ga += vabs(term);
    };
    const int first = cw.tree_row_start[t], eq_end = first + cw.tree_neq[t], fric_end = eq_end + cw.tree_nfric[t], end = cw.tree_row_start[t + 1];
    for (int k = first; k < eq_end; ++k) { // equality rows: one quadratic piece, no kink to cross
      const int u = tree_rows[k];
      const V j0 = jar[u], jv = jvs[u], D = u_D[u];
      if constexpr (kStart) {
        if constexpr (kCost) ls_cost0[u] = T(0.5) * D * j0 * j0;
        const V djv2 = D * jv * jv;
        ls_djv2[u] = djv2;
        add_slope(D * j0 * jv);
        h += djv2;
        continue;
      }
      const V x = j0 + a * jv;
      if constexpr (kCost) c += T(0.5) * D * x * x - ls_cost0[u];
      add_slope(D * x * jv);
      h += ls_djv2[u];
    }
    for (int k = eq_end; k < fric_end; ++k) {
      const int u = tree_rows[k];
      const V j0 = jar[u], jv = jvs[u], D = u_D[u];
      const V f = u_floss[u];
      const V Rf = u_R[u] * f;
      if constexpr (kStart) {
        if constexpr (kCost) ls_cost0[u] = friction_cost(j0, f, Rf, D);
        const V djv2 = D * jv * jv;
        ls_djv2[u] = djv2;
        const MaskOf<V> quad = vand(-Rf < j0, j0 < Rf), neg = j0 <= -Rf;
        add_slope(vselect(quad, D * j0 * jv, vselect(neg, -(f * jv), f * jv)));
        h += vselect(quad, djv2, zero);
        continue;
      }
      const V x = j0 + a * jv, x_from = j0 + a_from * jv;
      if constexpr (kCost) c += friction_cost(x, f, Rf, D) - ls_cost0[u];
      const MaskOf<V> quad = vand(-Rf < x, x < Rf), neg = x <= -Rf;
      const MaskOf<V> quad_from = vand(-Rf < x_from, x_from < Rf), neg_from = x_from <= -Rf;
      add_slope(vselect(quad, D * x * jv, vselect(neg, -(f * jv), f * jv)));
      h += vselect(quad, ls_djv2[u], zero);
      n += vselect(vor(vxor(quad, quad_from), vxor(neg, neg_from)), one, zero);
    }
    for (int k = fric_end; k < end; ++k) {
      const int u = tree_rows[k];
      if (const int dim = cw.u_cone[u]; dim > 0) { // an elliptic point: its dim rows follow in tree_rows
        if (dim >= 3)
          cone_line_eval_kept<kStart, kCost>(cw, u, dim, a, c, g, h, ga, n);
        else
          cone_line_eval<kStart, kCost>(cone_line(cw, u, dim), a, a_from, c, g, h, ga, n);
        k += dim - 1;
        continue;
      }
      const V j0 = jar[u], jv = jvs[u], D = u_D[u];
      if constexpr (kStart) {
        const MaskOf<V> act = vand(u_on[u], j0 < zero);
        if constexpr (kCost) ls_cost0[u] = vselect(act, T(0.5) * D * j0 * j0, zero);
        const V djv2 = D * jv * jv;
        ls_djv2[u] = djv2;
        add_slope(vselect(act, D * j0 * jv, zero));
        h += vselect(act, djv2, zero);
        continue;
      }
      const V x = j0 + a * jv, x_from = j0 + a_from * jv;
      const MaskOf<V> act = vand(u_on[u], x < zero), act_from = vand(u_on[u], x_from < zero);
      if constexpr (kCost) c += vselect(act, T(0.5) * D * x * x, zero) - ls_cost0[u];
      add_slope(vselect(act, D * x * jv, zero));
      h += vselect(act, ls_djv2[u], zero);
      n += vselect(vxor(act, act_from), one, zero);
    }
    row_cost[t] = c;
    row_d1[t] = g;
    row_d2[t] = h;
    row_crossed[t] = n;
    if constexpr (kFloor) row_d1abs[t] = ga;
  }
  for (int t = 0; t < nt; ++t) {
    cost[t] = row_cost[t];
    d1[t] = row_d1[t];
    d2[t] = row_d2[t];
    crossed[t] = row_crossed[t];
  }
  if constexpr (kFloor)
    for (int t = 0; t < nt; ++t) floor_sum[t] = row_d1abs[t];
  V* const sums[] = {cost, d1, d2, crossed, floor_sum};
  island_sums(KC, cw, sums, kFloor ? 5 : 4);
  const V *c1 = cw.per_tree.c1, *c2 = cw.per_tree.c2;
  // the planted bug: the floor taken with √ε for ε (a stop ~2900× too early in float32)
  [[maybe_unused]] const V rounding(ACH_BUG(LineSearchFloorSqrtEps) ? std::sqrt(std::numeric_limits<T>::epsilon())
                                                                    : std::numeric_limits<T>::epsilon());
  for (int t = 0; t < nt; ++t) {
    const V a = alpha[t];
    cost[t] = a * c1[t] + a * a * c2[t] + cost[t];
    d1[t] = c1[t] + T(2) * a * c2[t] + d1[t];
    d2[t] = T(2) * c2[t] + d2[t];
    // f' = c1 + 2α·c2 + Σ rows: its rounding is at most about ε·(|c1| + |2α·c2| + Σ|row terms|)
    if constexpr (kFloor) floor_sum[t] = rounding * (vabs(c1[t]) + vabs(T(2) * a * c2[t]) + floor_sum[t]);
  }
}

/// Exact line search per island: safeguarded 1-D Newton on the convex piecewise quadratic (within
/// one piece a Newton step lands on the minimum), at most kLineSearchIterations evaluations. An
/// island settles once a Newton step lands in the piece it was taken from (no row of the island
/// crossed a kink on the way: the landing point is that piece's minimum, so the cost's), or its
/// Newton step is at rounding level (|Δα| <= 8ε|α|). Without the first rule, round-off in f'(α)
/// keeps the steps jittering: measured, 15.5 (f32) and 16.7 (f64) of at most 17 evaluations per
/// search on the box stack, 2.0 with it. A settled island is left
/// exactly as it is, so stopping when every island of every lane has settled changes no result
/// (each lane's answer never depends on the other lanes of its block). Each island takes
/// the evaluated step with the smallest slope |f'(α)| (MuJoCo's PrimalSearch converges on the slope
/// too, so the answer is not limited by the cost's rounding), 0 when α = 0 is not a descent.
/// With elliptic cones (whose middle zone no Newton step lands on exactly) an island also settles on
/// MuJoCo's own stop, with `kCost` (tolerance > 0): |f'(α)| < gtol (search_products) and
/// cost(α) < cost(0), taking that α (PrimalSearch's SUCCESS). In float32 gtol (1e-10 of the slope's
/// scale at MuJoCo's tolerance 1e-8) lies below the slope's rounding, so there the tolerance is at
/// least kSlopeFloorFactor times that rounding floor (`kFloor`): inside the band where the exact
/// |f'| is below it the computed slope's sign is noise, and bisecting on it locates nothing.
/// Also with elliptic cones: beside a contact whose slip nearly reverses along the line the cost
/// bends sharply in a narrow band (middle-zone curvature ~1/T³), and every Newton step from the
/// flat side lands at the same point just past the band, next to the bracket's other end, which
/// then shrinks by a sliver per evaluation; a Newton step landing within kFarEndFraction of the
/// bracket's other end is replaced by bisection. Measured on the quadruped (bench/RESULTS.md),
/// evaluations per search: f64 19.7 → 7.6 (MuJoCo's stop) → 6.6 (the guard); f32 14.9 → 12.8 → 7.7
/// (guard and floor). The pyramid keeps its rules (its bits are unchanged).
/// c1, c2 (island sums of dᵀM(a − a₀) and ½dᵀMd) are in per_tree.c1, per_tree.c2; the step lands in per_tree.best,
/// and with `kCost` its cost change in per_tree.best_cost.
template <bool kCost, bool kFloor, class V>
inline void line_search_run(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  const int nt = KC.ntrees;
  const V zero(T(0));
  V *alpha = cw.per_tree.alpha, *lo = cw.per_tree.lo, *hi = cw.per_tree.hi, *best = cw.per_tree.best, *slope = cw.per_tree.slope;
  V *best_cost = cw.per_tree.best_cost, *from = cw.per_tree.from;
  const V* crossed = cw.per_tree.crossed;
  const V* cost = cw.per_tree.cost;
  V *d1 = cw.per_tree.d1, *d2 = cw.per_tree.d2;
  MaskOf<V>*has_hi = cw.per_tree.has_hi, *descent = cw.per_tree.descent, *settled = cw.per_tree.settled;
  MaskOf<V>* newton_step = cw.per_tree.newton_step;
  const V eps(T(8) * std::numeric_limits<T>::epsilon());
  const bool mujoco_stop = KC.elliptic && kCost && KC.tolerance > 0;
  const bool far_end_guard = KC.elliptic;
  const V* gtol = cw.per_tree.gtol;
  [[maybe_unused]] const V* slope_floor = cw.per_tree.slope_floor;
  [[maybe_unused]] const V kappa = V(T(kSlopeFloorFactor));
  const V far_end = V(T(kFarEndFraction));
  for (int t = 0; t < nt; ++t) alpha[t] = zero;
  line_eval<true, kCost, kFloor>(KC, cw, alpha, alpha);
  for (int t = 0; t < nt; ++t) {
    best[t] = lo[t] = hi[t] = best_cost[t] = zero;
    slope[t] = vabs(d1[t]);
    has_hi[t] = mask_false<V>();
    descent[t] = d1[t] < zero;
    settled[t] = vnot(descent[t]);
  }
  const int evaluations = KC.elliptic ? kConeLineSearchIterations : kLineSearchIterations;
  for (int it = 0; it < evaluations; ++it) {
    bool moving = false;
    for (int t = 0; t < nt; ++t) {
      const MaskOf<V> curved = d2[t] > zero;
      const V newton = alpha[t] - d1[t] / vselect(curved, d2[t], V(T(1)));
      MaskOf<V> outside = vand(has_hi[t], vor(newton <= lo[t], newton >= hi[t]));
      if (far_end_guard) {
        // the bracket's other end: the one whose slope has the other sign than at alpha
        const V other = vselect(d1[t] < zero, hi[t], lo[t]);
        outside = vor(outside, vand(has_hi[t], vabs(newton - other) < far_end * (hi[t] - lo[t])));
      }
      const V next = vselect(outside, T(0.5) * (lo[t] + hi[t]), newton);
      settled[t] = vor(settled[t], vor(vnot(curved), vabs(next - alpha[t]) <= eps * vabs(next)));
      newton_step[t] = vnot(outside);
      from[t] = alpha[t];
      alpha[t] = vselect(settled[t], alpha[t], next);
      moving = moving || vany(vnot(settled[t]));
    }
    if (!moving) break;
    line_eval<false, kCost, kFloor>(KC, cw, alpha, from, settled);
    for (int t = 0; t < nt; ++t) {
      if (mujoco_stop) { // PrimalSearch's convergence, at this α
        V tol = gtol[t];
        if constexpr (kFloor) tol = vmax(tol, kappa * slope_floor[t]);
        const MaskOf<V> converged = vand(vnot(settled[t]), vand(vabs(d1[t]) < tol, cost[t] < zero));
        best[t] = vselect(converged, alpha[t], best[t]);
        best_cost[t] = vselect(converged, cost[t], best_cost[t]);
        slope[t] = vselect(converged, vabs(d1[t]), slope[t]);
        settled[t] = vor(settled[t], converged);
      }
      const MaskOf<V> better = vabs(d1[t]) < slope[t];
      best[t] = vselect(better, alpha[t], best[t]);
      best_cost[t] = vselect(better, cost[t], best_cost[t]);
      slope[t] = vselect(better, vabs(d1[t]), slope[t]);
      const MaskOf<V> below = d1[t] < zero;
      lo[t] = vselect(below, alpha[t], lo[t]);
      hi[t] = vselect(below, hi[t], alpha[t]);
      has_hi[t] = vor(has_hi[t], vnot(below));
      // a Newton step that stayed in the piece it was taken from lands on that piece's minimum,
      // which is the cost's minimum (convex): nothing further to find
      settled[t] = vor(settled[t], vand(newton_step[t], crossed[t] == zero));
    }
  }
  for (int t = 0; t < nt; ++t) {
    best[t] = vselect(descent[t], best[t], zero);
    best_cost[t] = vselect(descent[t], best_cost[t], zero);
  }
}

/// The line search (line_search_run); in float32 with MuJoCo's stop, also on the slope's rounding floor.
template <bool kCost, class V>
inline void line_search(const KConstraints<ScalarOf<V>>& KC, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  if constexpr (kCost && std::is_same_v<T, float>) {
    if (KC.elliptic && KC.tolerance > 0) return line_search_run<kCost, true>(KC, cw);
  }
  line_search_run<kCost, false>(KC, cw);
}

} // namespace ACH_ISA_NS
} // namespace ach
