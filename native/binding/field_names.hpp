// The storage fields by the names both bindings (Node and Python) give them: one table, so a field
// added to the engine is reachable from both under the same name.
#pragma once

#include <string>
#include <utility>

#include "achilles/engine.hpp"

namespace ach::binding {

inline constexpr std::pair<const char*, FieldId> kFieldNames[] = {
    {"q", FieldId::Q},
    {"v", FieldId::V},
    {"tau", FieldId::Tau},
    {"qacc", FieldId::Qacc},
    {"kinetic", FieldId::Kinetic},
    {"potential", FieldId::Potential},
    {"bodyPos", FieldId::BodyPos},
    {"bodyRot", FieldId::BodyRot},
    {"energyRef", FieldId::EnergyRef},
    {"driftMax", FieldId::DriftMax},
    {"kineticPeak", FieldId::KineticPeak},
    {"qaccWarm", FieldId::QaccWarm},
    {"ctrl", FieldId::Ctrl},
    {"ctrlTarget", FieldId::CtrlTarget},
    {"actuatorForce", FieldId::ActuatorForce},
    {"bodyVel", FieldId::BodyVel}, // sensors
    {"bodyAcc", FieldId::BodyAcc}, // sensors
    {"act", FieldId::Act},         // general actuators' activations
    {"actuatorForceNow", FieldId::ActuatorForceNow},
    {"actDotNow", FieldId::ActDotNow},
    {"qfrcConstraint", FieldId::QfrcConstraint}, // BatchOptions::record
    {"cfrcExt", FieldId::CfrcExt},               // BatchOptions::record
    {"recordBodyPos", FieldId::RecordBodyPos},   // BatchOptions::record
    {"recordBodyRot", FieldId::RecordBodyRot},   // BatchOptions::record
    {"qfrcActuator", FieldId::QfrcActuator},     // BatchOptions::record
    {"recordBodyVel", FieldId::RecordBodyVel},   // BatchOptions::record
    {"recordXipos", FieldId::RecordXipos},       // BatchOptions::record
    {"recordCinert", FieldId::RecordCinert},     // BatchOptions::record
    {"recordCvel", FieldId::RecordCvel},         // BatchOptions::record
    {"mjcfSensorData", FieldId::MjcfSensorData}, // sense(): an MJCF model's sensordata
};

/// The field called `name`; false when there is none.
inline bool field_by_name(const std::string& name, FieldId& out) {
  for (const auto& [n, f] : kFieldNames)
    if (name == n) {
      out = f;
      return true;
    }
  return false;
}

} // namespace ach::binding
