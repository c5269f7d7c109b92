// The package's public entry point: `import { loadScene, Batch, RlEnv } from 'achilles-sim'`.
// Re-exports only. Deep imports (`achilles-sim/dist/...`) keep working but are internal: their
// paths may change between releases, these names do not without a major version.

// Scenes: .arow files, and MJCF or URDF models recognised by content.
export { loadScene, SceneError, exportMjcf, type LoadSceneOptions } from './model-files/scene/index.js';

// The batched engine.
export { Batch, NonFiniteStateError, coordinateNames, laneDifference } from './engine/batch.js';
export {
  PRECISIONS,
  LANE_WIDTHS,
  type Precision,
  type LaneWidth,
  type Real,
  type BatchOptions,
  type BatchApi,
  type NonFiniteInfo,
} from './engine/api.js';
export { registerLanes, supportedLanes, widestLanes } from './engine/lanes.js';
export {
  engineAddon,
  type CpuInfo,
  type ShapeQuery,
  type PairQuery,
  type PairContacts,
  type ConstraintState,
  type ConstraintRow,
  type ConstraintContact,
} from './engine/native.js';
export { INTEGRATORS, JOINT_TYPES, SHAPE_KINDS } from './engine/model-desc.js';
export type {
  ModelDesc,
  BodyDesc,
  ShapeDesc,
  ActuatorDesc,
  TendonDesc,
  SensorDesc,
  WorldSettings,
  SolverSettings,
  IntegratorName,
  JointType,
  ShapeKind,
  Vec3,
  Quat,
} from './engine/model-desc.js';

// Control: learning loops and controller modules.
export { RlEnv, type RlEnvOptions, type Observation } from './control/rl.js';
export { resolveController, loadControllerModule, type ControllerChoice } from './control/load.js';
export { ControlLoop, type Controller, type ControlIO } from './control/controller.js';
export { NonFiniteControlError, ControllerError } from './control/errors.js';

// Sensors.
export { withNamedParameters } from './params/named.js';
export { setNamedParameters, setRobotParameters, LANE_KINDS } from './params/lanes.js';
export { PARAMETER_KINDS } from './params/names.js';
export { SensorBank, SensorReadings, readSensors, SENSOR_KINDS } from './sensors/index.js';

// Gymnasium's MuJoCo tasks (tasks/gymnasium/*.json) as a vector env.
export { GymVecEnv, makeVec, type GymVecEnvOptions, type StepResult } from './gym/vec-env.js';
