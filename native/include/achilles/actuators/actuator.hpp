// Actuators and passive joint forces as the model holds them (MuJoCo's definitions).
//
//   passive, per dof of a joint:   τ −= damping·q̇;   hinge/slide: τ −= stiffness·(q − springref)
//   armature: added to the joint-space inertia diagonal (to the ABA's D = Sᵀ·IA·S + armature)
//   actuator a on joint J, gear g (the direction in J projected onto J's free axes, length nv):
//     length ℓ = g·q (hinge/slide),  velocity ℓ̇ = g·q̇
//     force  = motor: u;  position: kp·u − kp·ℓ − kv·ℓ̇;  velocity: kv·u − kv·ℓ̇   (MuJoCo's gain·u + bias)
//     u is the control clamped to ctrlrange (servos: after the rate limit), force clamped to forcerange;
//     τ[J's dofs] += g·force
//   actuator a on fixed tendon t (MuJoCo's mjTRN_TENDON, mj_transmission), L = Σ coef_k·q_k:
//     length ℓ = L·g₀,  moment m_k = g₀·coef_k on each of t's dofs,  velocity ℓ̇ = Σ m_k·q̇_k,  τ[dof_k] += m_k·force
//   general (MuJoCo's mj_fwdActuation, engine_forward.c; general.hpp has the formulas): an activation
//     state act (dyntype integrator, filter, filterexact), force = gain·input + bias with input = u
//     (dyntype none) or act (its next value with actearly), gain = gainprm₀ [+ gainprm₁·ℓ + gainprm₂·ℓ̇],
//     bias = 0 or biasprm₀ + biasprm₁·ℓ + biasprm₂·ℓ̇; revolute and prismatic joints only
//   actuator a on body B's contacts (MuJoCo's mjTRN_BODY, an adhesion; actuators/adhesion.hpp): general,
//     dyntype none, gain fixed, bias none (force = gainprm₀·u, clamped), ℓ = 0; its moment is minus the
//     mean over the N contacts of B's shapes detected at this state of their normal Jacobians,
//     moment = −(1/N)·Σ_c n_c·(J_b(p_c) − J_a(p_c)), so τ += momentᵀ·force pulls B onto what it touches
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ach {

enum class ActuatorKind : std::uint8_t { Motor, Position, Velocity, General };

/// MuJoCo's mjtDyn, mjtGain and mjtBias: the subsets this engine follows exactly.
enum class DynType : std::uint8_t { None, Integrator, Filter, FilterExact };
enum class GainType : std::uint8_t { Fixed, Affine };
enum class BiasType : std::uint8_t { None, Affine };

struct Actuator {
  std::string name;
  int joint = -1;
  /// MuJoCo's tendon transmission: the fixed tendon it pulls (index into Model::tendons; joint is −1,
  /// gear[0] its only gear); −1: a joint transmission.
  int tendon = -1;
  /// MuJoCo's body transmission (an adhesion): the body (index into Model::joints, the link carrying its
  /// shapes) whose contacts it pulls on; joint and tendon are −1 and the gear is unread. −1: none.
  int trn_body = -1;
  ActuatorKind kind = ActuatorKind::Motor;
  double gear[6] = {0, 0, 0, 0, 0, 0}; // first nv entries used
  double kp = 0, kv = 0;
  bool ctrl_limited = false, force_limited = false;
  double ctrl_lo = 0, ctrl_hi = 0, force_lo = 0, force_hi = 0;
  /// Servos: the largest rate (ctrl units per second) of the effective target; 0: no limit.
  double rate = 0;
  // General actuators (kind General), as MuJoCo's mjModel holds them: the first three of dynprm,
  // gainprm and biasprm (the only ones these types read), actrange with actlimited, actearly.
  // A position-like actuator (gainprm₀ = −biasprm₁) with biasprm₂ > 0 means a dampratio: finalize
  // turns it into biasprm₂ = −dampratio·2·√(kp·m), m the reflected inertia (engine_setconst.c).
  DynType dyntype = DynType::None;
  GainType gaintype = GainType::Fixed;
  BiasType biastype = BiasType::None;
  double dynprm[3] = {1, 0, 0}, gainprm[3] = {1, 0, 0}, biasprm[3] = {0, 0, 0};
  bool act_limited = false, act_early = false;
  double act_lo = 0, act_hi = 0;
  /// Has an activation state (MuJoCo's actnum 1): a general actuator with dynamics.
  bool stateful() const { return kind == ActuatorKind::General && dyntype != DynType::None; }
};

struct Model;
/// Check the passive parameters and the actuators against the joints (called by Model::finalize).
/// Throws std::invalid_argument naming the joint or actuator.
void finalize_actuators(Model& model);

/// MuJoCo's mj_setConst dampratio conversion (actuators/dampratio.cpp): every position-like general
/// actuator's biasprm₂ > 0 becomes −biasprm₂·2·√(kp·Σ dof_M0/gear²), M0 the mass matrix at qpos0.
void resolve_dampratios(Model& model);

/// M⁻¹ at MuJoCo's qpos0 (hinges and slides at their ref, balls at the identity; armature included),
/// dense nv × nv row-major, from the ABA's accelerations of unit forces at rest without gravity
/// (actuators/dampratio.cpp).
std::vector<double> inverse_mass_at_qpos0(const Model& model);

/// MuJoCo's mjCModel::AutoSpringDamper (actuators/springdamper.cpp): a joint's springdamper
/// [timeconst τ, dampratio ζ] becomes stiffness m/(τ²·ζ²) and damping 2·m/τ, m = 1/dof_invweight0.
void resolve_springdampers(Model& model);

} // namespace ach
