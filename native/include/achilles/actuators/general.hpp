// MuJoCo's general actuator on a joint, term by term as mj_fwdActuation and mj_nextActivation
// define it (engine_forward.c, engine_support.c), for the types this engine follows exactly:
//
//   ℓ = g·q, ℓ̇ = g·q̇ (joint transmission, one coordinate);  u = ctrl clamped to ctrlrange
//   act_dot:  integrator  u;   filter, filterexact  (u − act)/τ,  τ = max(mjMINVAL, dynprm₀)
//   next act (mj_nextActivation, h the time step):
//             filterexact  act + act_dot·τ·(1 − e^(−h/τ));   otherwise  act + act_dot·h
//             then clamped to actrange when actlimited
//   input:    dyntype none: u;  otherwise act, or with actearly the next act (from this act_dot)
//   gain:     fixed  gainprm₀;   affine  gainprm₀ + gainprm₁·ℓ + gainprm₂·ℓ̇
//   bias:     none   0;          affine  biasprm₀ + biasprm₁·ℓ + biasprm₂·ℓ̇
//   force = gain·input, then force += bias (clamped to forcerange afterwards, in forces.hpp)
//
// The products and sums are evaluated in MuJoCo's order, so f64 results are MuJoCo's bits.
#pragma once

#include "../isa_namespace.hpp"

#include <algorithm>
#include <cmath>

#include "../bugs.hpp"
#include "../lane_values.hpp"
#include "../model.hpp"
#include "../simd.hpp"
#include "../vmath.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

constexpr double kMjMinVal = 1e-15; // MuJoCo's mjMINVAL

/// One general actuator's parameters as the kernel reads them (T: the batch's precision). gainprm
/// and biasprm are read per lane (rows LaneSlots::Gain and Bias of its actuator); these are the batch's
/// model's, whose zeros the kernels test (the same in every robot: lane_difference.cpp).
template <class T>
struct KGeneral {
  DynType dyn = DynType::None;
  GainType gain = GainType::Fixed;
  BiasType bias = BiasType::None;
  T gainprm[3] = {}, biasprm[3] = {};
  T tau = 1;         // max(mjMINVAL, dynprm₀)
  T h = 0;           // the integrator's time step (a substep)
  T exact_decay = 0; // 1 − e^(−h/τ), computed in double as MuJoCo does
  bool act_limited = false, act_early = false;
  T act_lo = 0, act_hi = 0;
  int act_adr = -1; // index into the act state (−1: no dynamics)

  KGeneral() = default;
  KGeneral(const Actuator& a, double h_step, int adr) : dyn(a.dyntype), gain(a.gaintype), bias(a.biastype), act_adr(adr) {
    for (int k = 0; k < 3; ++k) gainprm[k] = T(a.gainprm[k]), biasprm[k] = T(a.biasprm[k]);
    const double tau_d = std::max(kMjMinVal, a.dynprm[0]);
    tau = T(tau_d);
    h = T(h_step);
    exact_decay = T(1 - std::exp(-h_step / tau_d));
    act_limited = a.act_limited;
    act_early = a.act_early;
    act_lo = T(a.act_lo);
    act_hi = T(a.act_hi);
  }
};

/// act_dot of a stateful actuator at control u and activation act.
template <class V>
inline V activation_rate(const KGeneral<ScalarOf<V>>& G, const V& u, const V& act) {
  using T = ScalarOf<V>;
  if (G.dyn == DynType::Integrator) return u;
  // the planted bug: the filter's time constant one step too long
  const T tau = ACH_BUG(FilterTimeConstOffByOne) ? G.tau + G.h : G.tau;
  return (u - act) / V(tau);
}

/// MuJoCo's mj_nextActivation: act one step of h on from act at rate act_dot, clamped to actrange.
template <class V>
inline V next_activation(const KGeneral<ScalarOf<V>>& G, const V& act, const V& act_dot) {
  V next = G.dyn == DynType::FilterExact ? act + (act_dot * V(G.tau)) * V(G.exact_decay) : act + act_dot * V(G.h);
  if (G.act_limited) next = vclamp(next, V(G.act_lo), V(G.act_hi));
  return next;
}

/// The force before forcerange: gain·input + bias, at length ℓ and velocity ℓ̇. `act`, `act_dot`:
/// this actuator's activation and its rate (read only with dynamics). `lanes`, `first`: the per-lane
/// rows and the actuator's first row (lane_values.hpp).
template <class V>
inline V general_force(const KGeneral<ScalarOf<V>>& G, const ScalarOf<V>* lanes, int first, const V& u, const V& act, const V& act_dot,
                       const V& length, const V& velocity) {
  using T = ScalarOf<V>;
  auto gainprm = [&](int k) { return lane_value<V>(lanes, first + LaneSlots::Gain + k); };
  auto biasprm = [&](int k) { return lane_value<V>(lanes, first + LaneSlots::Bias + k); };
  V input = u;
  if (G.dyn != DynType::None) input = G.act_early ? next_activation(G, act, act_dot) : act;
  V gain = gainprm(0);
  if (G.gain == GainType::Affine) gain = (gain + gainprm(1) * length) + gainprm(2) * velocity;
  V bias = V(T(0));
  if (G.bias == BiasType::Affine) bias = (biasprm(0) + biasprm(1) * length) + biasprm(2) * velocity;
  if (ACH_BUG(AffineBiasSign)) bias = -bias; // the planted bug: the affine bias enters with the wrong sign
  return gain * input + bias;
}

} // namespace ACH_ISA_NS
} // namespace ach
