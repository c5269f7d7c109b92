// Time integrators over one block: each advances (q, q̇) by h from the block's inputs, with
// q ⊕ h·v the joint-wise position update of joints.hpp.
//
//   euler     (semi-implicit, as MuJoCo)  v' = v + h·a(q,v);  q' = q ⊕ h·v'
//             with damping a = (M + h·D)⁻¹·f, D = diag(damping): implicit in the damping, as MuJoCo's
//             (the ABA adds h·damping to the joints' D); verlet, midpoint and rk4 keep damping explicit
//   implicitfast  (MuJoCo's) as euler, with a = (M − h·qDeriv)⁻¹·f, qDeriv = ∂f/∂q̇ without the
//             Coriolis/centrifugal part: damping, actuators, tendon dampers (implicit.hpp)
//   verlet    v½ = v + h/2·a0;  q' = q ⊕ h·v½;  a1 = a(q', v½);  v' = v½ + h/2·a1
//             (velocity-dependent forces see the half-step velocity: the scheme's known weakness)
//   midpoint  vm = v + h/2·a0, then n times { qm = q ⊕ h/2·vm; vm = v + h/2·a(qm, vm) };
//             v' = 2·vm − v;  q' = q ⊕ h·vm
//   rk4       classical Runge–Kutta, stages X_i = X0 + h·Σ A_ij k_j (positions through ⊕), as MuJoCo
//
// a(q, v) is the `acc` callable: forward dynamics, and where the model has contacts or limits,
// detection and the constraint solve at that (q, v) too (every stage of RK4, as MuJoCo's RK4).
//
// Activations (general actuators with dynamics, MuJoCo's act) advance as MuJoCo's integrators
// advance them (engine_forward.c): each evaluation reads the act at `act_now` and writes act_dot;
//   euler  act' = next(act, act_dot(q, v, act))                                  (mj_advance)
//   rk4    stage i reads act_i = act + h·A_i·act_dot_{i−1} (unclamped), and
//          act' = next(act, Σ B_i·act_dot_i)                                     (mj_RungeKutta)
// (implicitfast advances act as euler) with next = mj_nextActivation (actuators/general.hpp). Verlet and midpoint are not MuJoCo's
// integrators: a model with activations is refused with them (kernel_impl.hpp).
#pragma once

#include "isa_namespace.hpp"

#include "aba.hpp"
#include "actuators/forces.hpp"
#include "engine.hpp"
#include "implicit.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// The block-local arrays the integrators work in (views into the scratch arena).
template <class V>
struct BlockState {
  V *q, *v, *tau; // inputs, then outputs (q', v')
  V* qacc;        // a(q, v) at the step's start
  V *qs, *vs, *a; // a stage state and its acceleration
  V *qsum, *asum; // weighted sums of stage velocities / accelerations (rk4), vm (midpoint)
  JointWork<V>* W;
  // Joint forces (actuators/forces.hpp): the step's controls u, τ_eff of the evaluation at hand,
  // and each actuator's force at the step's start.
  const KForces<ScalarOf<V>>* F;
  V *u, *tau_eff, *force;
  // Activations (MuJoCo's act, na of them): the state, the act the next evaluation reads (act by
  // default; an RK4 stage's otherwise), that evaluation's act_dot, a stage's act and RK4's Σ B_i·act_dot_i.
  V *act, *act_dot, *act_stage, *act_sum;
  const V* act_now;
};

/// act ← mj_nextActivation(act, rate) for every activation.
template <class V>
inline void advance_activations(BlockState<V>& s, const V* rate) {
  for (const auto& A : s.F->act)
    if (A.gen.act_adr >= 0) s.act[A.gen.act_adr] = next_activation(A.gen, s.act[A.gen.act_adr], rate[A.gen.act_adr]);
}

/// τ + passive + actuator forces at (q, q̇), for one dynamics evaluation (MuJoCo evaluates them
/// at every stage); `first`: the step's start, whose actuator forces are recorded.
template <class V>
inline const V* efforts(const KModel<ScalarOf<V>>& M, BlockState<V>& s, const V* q, const V* v, bool first = false) {
  return joint_efforts(*s.F, M.nv, q, v, s.tau, s.u, s.act_now, s.act_dot, s.tau_eff, first ? s.force : nullptr);
}

template <class V>
inline void integrate_positions(const KModel<ScalarOf<V>>& M, V* q_out, const V* q_in, const V* v, const V& h) {
  const FlopScope<V> flops(FlopPass::Positions);
  for (const auto& J : M.joints) integrate_joint<V>(J, q_out + J.qoff, q_in + J.qoff, v + J.voff, h);
}

/// a(q, v) = FD(q, v, τ + passive + actuator forces): the models with nothing to constrain.
/// `first`: the step's start (its actuator forces are recorded); `stepping`: semi-implicit Euler's
/// evaluation, whose damping is implicit (the ABA adds h·damping to the joints' D). With `I`
/// (implicitfast, implicit.hpp), the stepping evaluation solves (M − h·qDeriv)·q̈ = f instead.
template <class V>
struct SmoothAcc {
  const KModel<ScalarOf<V>>& M;
  BlockState<V>& s;
  const KImplicit<ScalarOf<V>>* I = nullptr;
  ImplicitWork<V>* iw = nullptr;
  V h = V(ScalarOf<V>(0));
  void operator()(const V* q, const V* v, V* a, bool first = false, bool stepping = false) const {
    const V* f = efforts(M, s, q, v, first);
    if (I && stepping && I->solve) {
      implicit_terms(*I, *s.F, *iw, M.nv, q, v, s.u, s.act_now, s.act_dot, s.force, h);
      forward_dynamics(M, s.W, q, v, f, a, true, &iw->extra);
      implicit_tendons(M, *I, *s.F, s.W, *iw, h, a);
      return;
    }
    forward_dynamics(M, s.W, q, v, f, a, stepping);
  }
};

template <class V, class Acc>
inline void step_euler(const KModel<ScalarOf<V>>& M, BlockState<V>& s, const V& h, V* a0, const Acc& acc) {
  acc(s.q, s.v, a0, true, true);
  if (s.F->na) advance_activations(s, s.act_dot);
  for (int k = 0; k < M.nv; ++k) s.v[k] += h * a0[k];
  integrate_positions(M, s.q, s.q, s.v, h);
}

template <class V, class Acc>
inline void step_verlet(const KModel<ScalarOf<V>>& M, BlockState<V>& s, const V& h, V* a0, const Acc& acc) {
  using T = ScalarOf<V>;
  const V hh = T(0.5) * h;
  acc(s.q, s.v, a0, true);
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
  acc(s.q, s.v, a0, true);
  for (int k = 0; k < M.nv; ++k) vm[k] = s.v[k] + hh * a0[k];
  for (int it = 0; it < iterations; ++it) {
    integrate_positions(M, s.qs, s.q, vm, hh);
    acc(s.qs, vm, s.a);
    for (int k = 0; k < M.nv; ++k) vm[k] = s.v[k] + hh * s.a[k];
  }
  integrate_positions(M, s.q, s.q, vm, h);
  for (int k = 0; k < M.nv; ++k) s.v[k] = T(2) * vm[k] - s.v[k];
}

template <class V, class Acc>
inline void step_rk4(const KModel<ScalarOf<V>>& M, BlockState<V>& s, const V& h, V* a0, const Acc& acc) {
  using T = ScalarOf<V>;
  // Butcher tableau: A sub-diagonal (1/2, 1/2, 1), weights B.
  const T A[3] = {T(0.5), T(0.5), T(1)};
  const T B[4] = {T(1) / T(6), T(1) / T(3), T(1) / T(3), T(1) / T(6)};
  const T Bbug[4] = {T(1) / T(6), T(1) / T(6), T(1) / T(3), T(1) / T(3)};
  const T* w = ACH_BUG(Rk4Weight) ? Bbug : B;
  V* vsum = s.qsum; // Σ B_i v_i (a velocity-sized array)
  const int na = s.F->na;
  acc(s.q, s.v, a0, true);
  for (int k = 0; k < M.nv; ++k) {
    vsum[k] = w[0] * s.v[k];
    s.asum[k] = w[0] * a0[k];
  }
  for (int k = 0; k < na; ++k) s.act_sum[k] = w[0] * s.act_dot[k];
  const V* v_prev = s.v;
  const V* a_prev = a0;
  for (int stage = 1; stage < 4; ++stage) {
    const V step = A[stage - 1] * h;
    // X_i = X0 + h·A·k_{i−1}: positions move along the previous stage's velocity.
    integrate_positions(M, s.qs, s.q, v_prev, step);
    for (int k = 0; k < M.nv; ++k) s.vs[k] = s.v[k] + step * a_prev[k];
    for (int k = 0; k < na; ++k) s.act_stage[k] = s.act[k] + step * s.act_dot[k]; // act_dot: the previous stage's
    if (na) s.act_now = s.act_stage;
    acc(s.qs, s.vs, s.a);
    for (int k = 0; k < M.nv; ++k) {
      vsum[k] += w[stage] * s.vs[k];
      s.asum[k] += w[stage] * s.a[k];
    }
    for (int k = 0; k < na; ++k) s.act_sum[k] += w[stage] * s.act_dot[k];
    // The next stage reads this stage's (v, a) from vs and a before overwriting them.
    v_prev = s.vs;
    a_prev = s.a;
  }
  if (na) {
    s.act_now = s.act;
    advance_activations(s, s.act_sum);
  }
  integrate_positions(M, s.q, s.q, vsum, h);
  for (int k = 0; k < M.nv; ++k) s.v[k] += h * s.asum[k];
}

} // namespace ACH_ISA_NS
} // namespace ach
