// Actuators and passive joint forces as the model holds them (MuJoCo's definitions).
//
//   passive, per dof of a joint:   τ −= damping·q̇;   hinge/slide: τ −= stiffness·(q − springref)
//   armature: added to the joint-space inertia diagonal (to the ABA's D = Sᵀ·IA·S + armature)
//   actuator a on joint J, gear g (the direction in J projected onto J's free axes, length nv):
//     length ℓ = g·q (hinge/slide),  velocity ℓ̇ = g·q̇
//     force  = motor: u;  position: kp·u − kp·ℓ − kv·ℓ̇;  velocity: kv·u − kv·ℓ̇   (MuJoCo's gain·u + bias)
//     u is the control clamped to ctrlrange (servos: after the rate limit), force clamped to forcerange;
//     τ[J's dofs] += g·force
#pragma once

#include <cstdint>
#include <string>

namespace ach {

enum class ActuatorKind : std::uint8_t { Motor, Position, Velocity };

struct Actuator {
  std::string name;
  int joint = -1;
  ActuatorKind kind = ActuatorKind::Motor;
  double gear[6] = {0, 0, 0, 0, 0, 0}; // first nv entries used
  double kp = 0, kv = 0;
  bool ctrl_limited = false, force_limited = false;
  double ctrl_lo = 0, ctrl_hi = 0, force_lo = 0, force_hi = 0;
  /// Servos: the largest rate (ctrl units per second) of the effective target; 0: no limit.
  double rate = 0;
};

struct Model;
/// Check the passive parameters and the actuators against the joints (called by Model::finalize).
/// Throws std::invalid_argument naming the joint or actuator.
void finalize_actuators(Model& model);

} // namespace ach
