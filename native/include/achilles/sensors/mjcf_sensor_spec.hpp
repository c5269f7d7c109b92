// MuJoCo's sensors of an imported MJCF model as the model carries them (src/engine/model-desc.ts
// MjcfSensorDesc, read by binding/model_reader.hpp): what mjcf_sensors.hpp evaluates per block.
#pragma once

#include <vector>

namespace ach {

enum class MjcfSensorType {
  JointPos,
  JointVel,
  ActuatorPos,
  ActuatorVel,
  ActuatorFrc,
  FramePos,
  FrameQuat,
  FrameXAxis,
  FrameYAxis,
  FrameZAxis,
  FrameLinVel,
  FrameAngVel,
  SubtreeCom,
  Gyro,
  Velocimeter,
  Accelerometer,
  // evaluated by the host from the contact solve (src/engine/mjcf-sensors.ts): left 0 here
  Force,
  Torque,
  Touch,
};

/// MuJoCo's sensor_datatype: a cutoff clamps Real to [−c, c], Positive to at most c, the others not.
enum class MjcfSensorData { Real, Positive, Axis, Quaternion };

/// A frame fixed in link `link` (−1: the world): origin `pos`, orientation `quat` in the link's frame.
struct MjcfSensorFrame {
  int link = -1;
  double pos[3] = {0, 0, 0};
  double quat[4] = {1, 0, 0, 0};
};

struct MjcfSensor {
  MjcfSensorType type = MjcfSensorType::JointPos;
  MjcfSensorData datatype = MjcfSensorData::Real;
  int adr = 0, dim = 1;
  double cutoff = 0;
  /// jointpos, actuatorpos: Σ coef·q[index]; jointvel, actuatorvel: Σ coef·v[index].
  std::vector<int> term_index;
  std::vector<double> term_coef;
  int actuator = -1;
  MjcfSensorFrame obj, ref;
  bool has_ref = false;
  /// subtreecom: the links of the subtree.
  std::vector<int> links;
};

/// Whether the engine evaluates the sensor (the others need the host's contact data).
inline bool evaluated_natively(MjcfSensorType t) { return t != MjcfSensorType::Force && t != MjcfSensorType::Torque && t != MjcfSensorType::Touch; }

} // namespace ach
