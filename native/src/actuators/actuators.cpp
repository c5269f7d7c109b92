// Load-time checks of passive joint parameters and actuators.
#include <cmath>
#include <stdexcept>
#include <string>

#include "achilles/model.hpp"

namespace ach {

namespace {
[[noreturn]] void fail_actuator(const Actuator& a, const std::string& what) { throw std::invalid_argument("actuator '" + a.name + "': " + what); }
bool finite(double x) { return std::isfinite(x); }

/// A general actuator: MuJoCo's parameters, finite; a length ℓ = g·q needs one coordinate (a joint's,
/// or a tendon's length: j null).
void check_general(const Actuator& a, const Joint* j) {
  if (j && j->type != JointType::Revolute && j->type != JointType::Prismatic)
    fail_actuator(a, "general actuators drive revolute and prismatic joints only (the length g·q needs one coordinate)");
  for (int k = 0; k < 3; ++k)
    if (!finite(a.dynprm[k]) || !finite(a.gainprm[k]) || !finite(a.biasprm[k])) fail_actuator(a, "dynprm, gainprm and biasprm must be finite");
  if (a.kp != 0 || a.kv != 0) fail_actuator(a, "a general actuator takes gainprm and biasprm, not kp and kv");
  if (a.act_limited && !(a.act_lo <= a.act_hi && finite(a.act_lo) && finite(a.act_hi))) fail_actuator(a, "actrange must be [lo, hi] with lo <= hi");
}
} // namespace

void finalize_actuators(Model& model) {
  for (const Joint& j : model.joints) {
    const std::string where = "joint '" + j.name + "': ";
    if (!finite(j.damping) || j.damping < 0) throw std::invalid_argument(where + "damping must be finite and >= 0");
    if (!finite(j.stiffness) || j.stiffness < 0) throw std::invalid_argument(where + "stiffness must be finite and >= 0");
    if (!finite(j.armature) || j.armature < 0) throw std::invalid_argument(where + "armature must be finite and >= 0");
    if (!finite(j.springref)) throw std::invalid_argument(where + "springref must be finite");
    const bool one_dof = j.type == JointType::Revolute || j.type == JointType::Prismatic;
    if (!one_dof && (j.stiffness != 0 || j.springref != 0))
      throw std::invalid_argument(where + "stiffness and springref apply to revolute and prismatic joints only");
    if (j.nv == 0 && (j.damping != 0 || j.armature != 0)) throw std::invalid_argument(where + "a fixed joint takes no damping or armature");
  }
  const int n = static_cast<int>(model.joints.size()), nt = static_cast<int>(model.tendons.size());
  for (const Actuator& a : model.actuators) {
    const Joint* jp = nullptr; // the joint it drives (null: a tendon or body transmission)
    if (a.trn_body >= 0) {
      if (a.trn_body >= n) fail_actuator(a, "body index " + std::to_string(a.trn_body) + " is out of range");
      if (a.joint != -1 || a.tendon != -1) fail_actuator(a, "a transmission through a body alone (not with a joint or a tendon)");
      // the moment changes with the contacts and ℓ̇ = moment·q̇ with it: only a force gainprm₀·u reads neither
      if (a.kind != ActuatorKind::General || a.dyntype != DynType::None || a.gaintype != GainType::Fixed || a.biastype != BiasType::None)
        fail_actuator(a, "a body transmission (adhesion) takes a general actuator with dyntype none, gaintype fixed and biastype none");
    } else if (a.tendon >= 0) {
      if (a.tendon >= nt) fail_actuator(a, "tendon index " + std::to_string(a.tendon) + " is out of range");
      if (a.joint != -1) fail_actuator(a, "a transmission through a joint or a tendon, not both");
      const Tendon& t = model.tendons[a.tendon];
      if (t.joints.empty()) fail_actuator(a, "tendon '" + t.name + "' has no joints: nothing to pull");
      for (int k = 0; k < 6; ++k)
        if (!finite(a.gear[k]) || (k >= 1 && a.gear[k] != 0)) fail_actuator(a, "a tendon transmission takes one finite gear (gear[0])");
    } else {
      if (a.joint < 0 || a.joint >= n) fail_actuator(a, "joint index " + std::to_string(a.joint) + " is out of range");
      const Joint& j = model.joints[a.joint];
      jp = &j;
      if (j.nv == 0) fail_actuator(a, "joint '" + j.name + "' is fixed: nothing to drive");
      for (int k = 0; k < 6; ++k)
        if (!finite(a.gear[k]) || (k >= j.nv && a.gear[k] != 0)) fail_actuator(a, "gear must be finite with joint '" + j.name + "''s nv entries");
      const bool one_dof = j.type == JointType::Revolute || j.type == JointType::Prismatic;
      if (a.kind != ActuatorKind::Motor && !one_dof)
        fail_actuator(a, "servos drive revolute and prismatic joints only (a servo's length g·q needs one coordinate)");
    }
    if (!finite(a.kp) || !finite(a.kv) || a.kp < 0 || a.kv < 0) fail_actuator(a, "kp and kv must be finite and >= 0");
    if (a.ctrl_limited && !(a.ctrl_lo <= a.ctrl_hi && finite(a.ctrl_lo) && finite(a.ctrl_hi)))
      fail_actuator(a, "ctrlrange must be [lo, hi] with lo <= hi");
    if (a.force_limited && !(a.force_lo <= a.force_hi && finite(a.force_lo) && finite(a.force_hi)))
      fail_actuator(a, "forcerange must be [lo, hi] with lo <= hi");
    if (!finite(a.rate) || a.rate < 0) fail_actuator(a, "the rate limit must be finite and >= 0 (0: none)");
    if (a.rate != 0 && (a.kind == ActuatorKind::Motor || a.kind == ActuatorKind::General))
      fail_actuator(a, "a rate limit applies to servos (position, velocity) only");
    if (a.kind == ActuatorKind::General) check_general(a, jp);
  }
}

} // namespace ach
