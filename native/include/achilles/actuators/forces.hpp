// Joint forces from the state and the controls, added to the scene's τ before each dynamics
// evaluation (MuJoCo's mj_passive and mj_fwdActuation, evaluated at every stage as MuJoCo does).
//
//   τ_eff = τ − d ∘ q̇ − k ∘ (q − q_ref) + Σ_t J_tᵀ(−k_t·x_t − b_t·L̇_t) + Σ_a g_a·force_a(u_a, g_a·q, g_a·q̇)
//
// (tendons: MuJoCo's fixed-tendon spring-damper, x_t = L_t's distance outside the dead band
// [springlength₀, springlength₁]; tendon damping stays explicit in Euler, as MuJoCo's mj_EulerSkip,
// which makes only dof damping implicit)
//
// The armature and Euler's implicit damping are not forces: they enter the ABA's D (kmodel.hpp).
// The controls arrive once per step (double-buffered, see kernel_impl.hpp): u is clamped to
// ctrlrange and, for servos with a rate limit, the effective target moves toward it by at most
// rate·dt per step. General actuators (general.hpp) read their activation act and give its rate
// act_dot at every evaluation; the integrators advance act (integrators.hpp).
#pragma once

#include "../isa_namespace.hpp"

#include <vector>

#include "../lane_values.hpp"
#include "../model.hpp"
#include "../simd.hpp"
#include "../vmath.hpp"
#include "general.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class T>
struct KActuator {
  int qoff, voff, nv;
  ActuatorKind kind;
  T gear[6];
  T kp, kv;
  bool clamp_ctrl, clamp_force;
  T ctrl_lo, ctrl_hi, force_lo, force_hi;
  T rate_dt;       // the target's largest move per step (0: unlimited)
  KGeneral<T> gen; // kind General: MuJoCo's general actuator
  // A tendon transmission (on_tendon; qoff, voff, nv unused): per entry of the tendon, its joint's
  // coordinate and dof, its coefficient and the moment gear₀·coef (MuJoCo's actuator_moment).
  bool on_tendon = false;
  std::vector<int> trn_qadr, trn_dof;
  std::vector<T> trn_coef, trn_moment;
  // A body transmission (an adhesion, MuJoCo's mjTRN_BODY; qoff, voff, nv unused): the body whose
  // contacts it pulls on. Its moment depends on the contacts: applied after detection (adhesion.hpp).
  bool on_body = false;
  int trn_body = -1;
  // kp, kv, the control range and the general actuator's gainprm and biasprm are read per lane, from
  // rows slot.. (lane_values.hpp); the scalars above are the batch's model's.
  int slot;
};

template <class T>
struct KPassive {
  int qoff, voff, nv;
  // damping and armature are read per lane (KForces::lanes, rows damping_slot and armature_slot);
  // these scalars are the batch's model's, and whether they are 0 is the same for every robot
  // (lane_difference.cpp), so the tests on them pick the same terms in every lane.
  T damping, stiffness, springref, armature;
  int damping_slot, armature_slot;
};

/// A fixed tendon with a spring or a damper (contact/tendon.hpp).
template <class T>
struct KTendonPassive {
  std::vector<int> qadr, dof;
  std::vector<T> coef;
  T stiffness, damping, lower, upper;
};

template <class T>
struct KForces {
  std::vector<KActuator<T>> act;
  std::vector<KTendonPassive<T>> tendons;
  std::vector<KPassive<T>> passive; // joints with any damping, stiffness or armature
  bool forces = false;              // any damping, stiffness or actuator: τ_eff differs from τ
  int nu = 0;
  int na = 0; // activation states (MuJoCo's na): the general actuators with dynamics, in actuator order
  // The per-lane constants (lane_values.hpp) of the block being evaluated, as KModel::lanes.
  const T* lanes = nullptr;
  LaneRows<T> own_lanes;

  KForces(const KForces& o) { *this = o; }
  KForces& operator=(const KForces& o) {
    act = o.act, tendons = o.tendons, passive = o.passive;
    forces = o.forces, nu = o.nu, na = o.na;
    own_lanes = o.own_lanes;
    lanes = o.lanes == o.own_lanes.data() ? own_lanes.data() : o.lanes; // a copy reads its own rows
    return *this;
  }

  /// dt: the step (the servos' rate limits); h: the integrator's step (dt / substeps; act's dynamics).
  KForces(const Model& model, double dt, double h = 0) : nu(static_cast<int>(model.actuators.size())), own_lanes(uniform_lanes<T>(model, 0, false)) {
    lanes = own_lanes.data();
    for (std::size_t i = 0; i < model.joints.size(); ++i) {
      const Joint& j = model.joints[i];
      if (j.damping == 0 && j.stiffness == 0 && j.armature == 0) continue;
      const int n = static_cast<int>(i);
      passive.push_back(
          {j.qoff, j.voff, j.nv, T(j.damping), T(j.stiffness), T(j.springref), T(j.armature), LaneSlots::damping(n), LaneSlots::armature(n)});
      if (j.damping != 0 || j.stiffness != 0) forces = true;
    }
    for (const Tendon& t : model.tendons) {
      if (t.stiffness == 0 && t.damping == 0) continue;
      KTendonPassive<T> k{};
      for (std::size_t i = 0; i < t.joints.size(); ++i) {
        k.qadr.push_back(model.joints[t.joints[i]].qoff);
        k.dof.push_back(model.joints[t.joints[i]].voff);
        k.coef.push_back(T(t.coefs[i]));
      }
      k.stiffness = T(t.stiffness);
      k.damping = T(t.damping);
      k.lower = T(t.springlength[0]);
      k.upper = T(t.springlength[1]);
      tendons.push_back(std::move(k));
      forces = true;
    }
    for (const Actuator& a : model.actuators) {
      KActuator<T> k{};
      if (a.trn_body >= 0) {
        k.on_body = true;
        k.trn_body = a.trn_body;
      } else if (a.tendon >= 0) {
        const Tendon& t = model.tendons[a.tendon];
        k.on_tendon = true;
        for (std::size_t e = 0; e < t.joints.size(); ++e) {
          k.trn_qadr.push_back(model.joints[t.joints[e]].qoff);
          k.trn_dof.push_back(model.joints[t.joints[e]].voff);
          k.trn_coef.push_back(T(t.coefs[e]));
          k.trn_moment.push_back(T(a.gear[0] * t.coefs[e])); // in double, as MuJoCo's mju_scl(ten_J, gear)
        }
      } else {
        const Joint& j = model.joints[a.joint];
        k.qoff = j.qoff;
        k.voff = j.voff;
        k.nv = j.nv;
      }
      k.kind = a.kind;
      for (int e = 0; e < 6; ++e) k.gear[e] = T(a.gear[e]);
      k.kp = T(a.kp);
      k.kv = T(a.kv);
      k.clamp_ctrl = a.ctrl_limited;
      k.clamp_force = a.force_limited;
      k.ctrl_lo = T(a.ctrl_lo);
      k.ctrl_hi = T(a.ctrl_hi);
      k.force_lo = T(a.force_lo);
      k.force_hi = T(a.force_hi);
      k.rate_dt = T(a.rate * dt);
      k.slot = LaneSlots::actuator(model.joints.size(), static_cast<int>(act.size()));
      if (a.kind == ActuatorKind::General) k.gen = KGeneral<T>(a, h, a.stateful() ? na++ : -1);
      act.push_back(k);
      forces = true;
    }
  }
};

/// A tendon's length L and its spring's stretch x outside the dead band [lower, upper] (0 inside).
template <class V>
inline V tendon_stretch(const KTendonPassive<ScalarOf<V>>& P, const V* q) {
  using T = ScalarOf<V>;
  V L = V(P.coef[0]) * q[P.qadr[0]];
  for (std::size_t k = 1; k < P.qadr.size(); ++k) L += V(P.coef[k]) * q[P.qadr[k]];
  return vselect(L > V(P.upper), L - V(P.upper), vselect(L < V(P.lower), L - V(P.lower), V(T(0))));
}

/// An actuator's length through its tendon: MuJoCo's ten_length·gear₀, L = Σ coef_k·q_k in the tendon's order.
template <class V>
inline V actuator_tendon_length(const KActuator<ScalarOf<V>>& A, const V* q) {
  V L = V(A.trn_coef[0]) * q[A.trn_qadr[0]];
  for (std::size_t k = 1; k < A.trn_qadr.size(); ++k) L += V(A.trn_coef[k]) * q[A.trn_qadr[k]];
  return L * V(A.gear[0]);
}

/// An actuator's velocity through its tendon: MuJoCo's actuator_velocity = moment·q̇.
template <class V>
inline V actuator_tendon_velocity(const KActuator<ScalarOf<V>>& A, const V* qd) {
  V v = V(A.trn_moment[0]) * qd[A.trn_dof[0]];
  for (std::size_t k = 1; k < A.trn_dof.size(); ++k) v += V(A.trn_moment[k]) * qd[A.trn_dof[k]];
  return v;
}

/// The controls a step uses: clamped to ctrlrange, then (servos with a rate limit) the target
/// moved toward them by at most rate·dt from where it was. `target` is per-actuator state.
template <class V>
inline void step_controls(const KForces<ScalarOf<V>>& F, const V* ctrl, V* target, V* u) {
  for (int a = 0; a < F.nu; ++a) {
    const auto& A = F.act[a];
    V c = ctrl[a];
    if (A.clamp_ctrl) c = vclamp(c, lane_value<V>(F.lanes, A.slot + LaneSlots::CtrlLo), lane_value<V>(F.lanes, A.slot + LaneSlots::CtrlHi));
    if (A.rate_dt > 0) {
      c = target[a] + vclamp(c - target[a], V(-A.rate_dt), V(A.rate_dt));
      target[a] = c;
    }
    u[a] = c;
  }
}

/// The controls acting now, between steps (forward(), observation): those of the step just
/// taken, held — clamped, and a rate-limited servo at its current target (it does not move again).
template <class V>
inline void held_controls(const KForces<ScalarOf<V>>& F, const V* ctrl, const V* target, V* u) {
  for (int a = 0; a < F.nu; ++a) {
    const auto& A = F.act[a];
    V c = ctrl[a];
    if (A.clamp_ctrl) c = vclamp(c, lane_value<V>(F.lanes, A.slot + LaneSlots::CtrlLo), lane_value<V>(F.lanes, A.slot + LaneSlots::CtrlHi));
    u[a] = A.rate_dt > 0 ? target[a] : c;
  }
}

/// τ_eff at (q, q̇) with controls u and activations act; returns τ itself when the model has no joint
/// forces. act_dot: each activation's rate at this state (written). force_out (optional): each
/// actuator's scalar force (MuJoCo's actuator_force).
template <class V>
inline const V* joint_efforts(const KForces<ScalarOf<V>>& F, int nv, const V* q, const V* qd, const V* tau, const V* u, const V* act, V* act_dot,
                              V* tau_eff, V* force_out) {
  if (!F.forces) return tau;
  for (int k = 0; k < nv; ++k) tau_eff[k] = tau[k];
  for (const auto& P : F.passive) {
    if (P.stiffness != 0) tau_eff[P.voff] -= V(P.stiffness) * (q[P.qoff] - V(P.springref));
    if (P.damping != 0) {
      const V d = lane_value<V>(F.lanes, P.damping_slot);
      for (int k = 0; k < P.nv; ++k) tau_eff[P.voff + k] -= d * qd[P.voff + k];
    }
  }
  for (const auto& P : F.tendons) {
    V f = V(ScalarOf<V>(0));
    if (P.stiffness != 0) f = -(V(P.stiffness) * tendon_stretch(P, q));
    if (P.damping != 0) {
      V Ld = V(P.coef[0]) * qd[P.dof[0]];
      for (std::size_t k = 1; k < P.dof.size(); ++k) Ld += V(P.coef[k]) * qd[P.dof[k]];
      f = f - V(P.damping) * Ld;
    }
    for (std::size_t k = 0; k < P.dof.size(); ++k) tau_eff[P.dof[k]] += V(P.coef[k]) * f;
  }
  for (int a = 0; a < F.nu; ++a) {
    const auto& A = F.act[a];
    V force;
    if (A.kind == ActuatorKind::Motor) {
      force = u[a];
    } else {
      // ℓ and ℓ̇: g·q and g·q̇ on a one-dof joint (servos and general actuators: checked at load), or the tendon's
      // a body transmission has ℓ = 0 and a force that reads no ℓ̇ (checked at load)
      const V len = A.on_body ? V(ScalarOf<V>(0)) : A.on_tendon ? actuator_tendon_length(A, q) : V(A.gear[0]) * q[A.qoff];
      const V vel = A.on_body ? V(ScalarOf<V>(0)) : A.on_tendon ? actuator_tendon_velocity(A, qd) : V(A.gear[0]) * qd[A.voff];
      if (A.kind == ActuatorKind::General) {
        const int i = A.gen.act_adr;
        V state = u[a], rate = u[a]; // read only with dynamics
        if (i >= 0) {
          state = act[i];
          rate = act_dot[i] = activation_rate(A.gen, u[a], act[i]);
        }
        force = general_force(A.gen, F.lanes, A.slot, u[a], state, rate, len, vel);
      } else {
        const V kp = lane_value<V>(F.lanes, A.slot + LaneSlots::Kp), kv = lane_value<V>(F.lanes, A.slot + LaneSlots::Kv);
        if (A.kind == ActuatorKind::Position)
          force = kp * u[a] - kp * len - kv * vel;
        else
          force = kv * u[a] - kv * vel;
      }
    }
    if (A.clamp_force) force = vclamp(force, V(A.force_lo), V(A.force_hi));
    if (force_out) force_out[a] = force;
    if (A.on_body) continue; // its moment needs this state's contacts: adhesion.hpp adds it after detection
    if (A.on_tendon) {
      // qfrc_actuator = momentᵀ·force (the planted bug: the last dof's moment with the wrong sign)
      const std::size_t n = A.trn_dof.size();
      for (std::size_t k = 0; k < n; ++k) {
        const V m(ACH_BUG(ActuatorTendonMomentSign) && k + 1 == n ? -A.trn_moment[k] : A.trn_moment[k]);
        tau_eff[A.trn_dof[k]] += m * force;
      }
    } else {
      for (int k = 0; k < A.nv; ++k) tau_eff[A.voff + k] += V(A.gear[k]) * force;
    }
  }
  return tau_eff;
}

/// The passive terms of the energy, as MuJoCo's: ½·k·(q − q_ref)² and ½·k_t·x_t² of the tendons (potential)
/// and ½·armature·q̇² (kinetic).
template <class V>
inline void passive_energy(const KForces<ScalarOf<V>>& F, const V* q, const V* qd, V& kinetic, V& potential) {
  using T = ScalarOf<V>;
  for (const auto& P : F.passive) {
    if (P.stiffness != 0) {
      const V d = q[P.qoff] - V(P.springref);
      potential += T(0.5) * V(P.stiffness) * (d * d);
    }
    if (P.armature != 0) {
      const V a = lane_value<V>(F.lanes, P.armature_slot);
      for (int k = 0; k < P.nv; ++k) kinetic += T(0.5) * a * (qd[P.voff + k] * qd[P.voff + k]);
    }
  }
  for (const auto& P : F.tendons)
    if (P.stiffness != 0) {
      const V x = tendon_stretch(P, q);
      potential += T(0.5) * V(P.stiffness) * (x * x);
    }
}

} // namespace ACH_ISA_NS
} // namespace ach
