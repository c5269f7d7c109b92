// Time integrators over one block: each advances (q, q̇) by h from the block's inputs, with
// q ⊕ h·v the joint-wise position update of joints.hpp.
//
//   euler     (semi-implicit, as MuJoCo)  v' = v + h·a(q,v);  q' = q ⊕ h·v'
//   verlet    v½ = v + h/2·a0;  q' = q ⊕ h·v½;  a1 = a(q', v½);  v' = v½ + h/2·a1
//             (velocity-dependent forces see the half-step velocity: the scheme's known weakness)
//   midpoint  vm = v + h/2·a0, then n times { qm = q ⊕ h/2·vm; vm = v + h/2·a(qm, vm) };
//             v' = 2·vm − v;  q' = q ⊕ h·vm
//   rk4       classical Runge–Kutta, stages X_i = X0 + h·Σ A_ij k_j (positions through ⊕), as MuJoCo
//
// a(q, v) is the `acc` callable: forward dynamics, and where the model has contacts or limits,
// detection and the constraint solve at that (q, v) too (every stage of RK4, as MuJoCo's RK4).
#pragma once

#include "isa_namespace.hpp"

#include "aba.hpp"
#include "engine.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// The block-local arrays the integrators work in (views into the scratch arena).
template <class V> struct BlockState {
  V *q, *v, *tau;     // inputs, then outputs (q', v')
  V *qacc;            // a(q, v) at the step's start
  V *qs, *vs, *a;     // a stage state and its acceleration
  V *qsum, *asum;     // weighted sums of stage velocities / accelerations (rk4), vm (midpoint)
  JointWork<V>* W;
};

template <class V> inline void integrate_positions(const KModel<ScalarOf<V>>& M, V* q_out, const V* q_in, const V* v, const V& h) {
  for (const auto& J : M.joints) integrate_joint<V>(J, q_out + J.qoff, q_in + J.qoff, v + J.voff, h);
}

/// a(q, v) = FD(q, v, τ): the models with nothing to constrain.
template <class V> struct SmoothAcc {
  const KModel<ScalarOf<V>>& M;
  BlockState<V>& s;
  void operator()(const V* q, const V* v, V* a) const { forward_dynamics(M, s.W, q, v, s.tau, a); }
};

template <class V, class Acc> inline void step_euler(const KModel<ScalarOf<V>>& M, BlockState<V>& s, const V& h, V* a0, const Acc& acc) {
  acc(s.q, s.v, a0);
  for (int k = 0; k < M.nv; ++k) s.v[k] += h * a0[k];
  integrate_positions(M, s.q, s.q, s.v, h);
}

template <class V, class Acc> inline void step_verlet(const KModel<ScalarOf<V>>& M, BlockState<V>& s, const V& h, V* a0, const Acc& acc) {
  using T = ScalarOf<V>;
  const V hh = T(0.5) * h;
  acc(s.q, s.v, a0);
  for (int k = 0; k < M.nv; ++k) s.v[k] += hh * a0[k]; // v½
  integrate_positions(M, s.q, s.q, s.v, h);
  acc(s.q, s.v, s.a);
  const V* a1 = ACH_BUG(VerletStaleAccel) ? a0 : s.a;
  for (int k = 0; k < M.nv; ++k) s.v[k] += hh * a1[k];
}

template <class V, class Acc>
inline void step_midpoint(const KModel<ScalarOf<V>>& M, BlockState<V>& s, const V& h, V* a0, int iterations, const Acc& acc) {
  using T = ScalarOf<V>;
  const V hh = T(0.5) * h;
  V* vm = s.qsum;
  acc(s.q, s.v, a0);
  for (int k = 0; k < M.nv; ++k) vm[k] = s.v[k] + hh * a0[k];
  for (int it = 0; it < iterations; ++it) {
    integrate_positions(M, s.qs, s.q, vm, hh);
    acc(s.qs, vm, s.a);
    for (int k = 0; k < M.nv; ++k) vm[k] = s.v[k] + hh * s.a[k];
  }
  integrate_positions(M, s.q, s.q, vm, h);
  for (int k = 0; k < M.nv; ++k) s.v[k] = T(2) * vm[k] - s.v[k];
}

template <class V, class Acc> inline void step_rk4(const KModel<ScalarOf<V>>& M, BlockState<V>& s, const V& h, V* a0, const Acc& acc) {
  using T = ScalarOf<V>;
  // Butcher tableau: A sub-diagonal (1/2, 1/2, 1), weights B.
  const T A[3] = {T(0.5), T(0.5), T(1)};
  const T B[4] = {T(1) / T(6), T(1) / T(3), T(1) / T(3), T(1) / T(6)};
  const T Bbug[4] = {T(1) / T(6), T(1) / T(6), T(1) / T(3), T(1) / T(3)};
  const T* w = ACH_BUG(Rk4Weight) ? Bbug : B;
  V* vsum = s.qsum; // Σ B_i v_i (a velocity-sized array)
  acc(s.q, s.v, a0);
  for (int k = 0; k < M.nv; ++k) {
    vsum[k] = w[0] * s.v[k];
    s.asum[k] = w[0] * a0[k];
  }
  const V* v_prev = s.v;
  const V* a_prev = a0;
  for (int stage = 1; stage < 4; ++stage) {
    const V step = A[stage - 1] * h;
    // X_i = X0 + h·A·k_{i−1}: positions move along the previous stage's velocity.
    integrate_positions(M, s.qs, s.q, v_prev, step);
    for (int k = 0; k < M.nv; ++k) s.vs[k] = s.v[k] + step * a_prev[k];
    acc(s.qs, s.vs, s.a);
    for (int k = 0; k < M.nv; ++k) {
      vsum[k] += w[stage] * s.vs[k];
      s.asum[k] += w[stage] * s.a[k];
    }
    // The next stage reads this stage's (v, a) from vs and a before overwriting them.
    v_prev = s.vs;
    a_prev = s.a;
  }
  integrate_positions(M, s.q, s.q, vsum, h);
  for (int k = 0; k < M.nv; ++k) s.v[k] += h * s.asum[k];
}

} // namespace ACH_ISA_NS
} // namespace ach
