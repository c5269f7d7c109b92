// Stage 17: MuJoCo's sensors of imported MJCF models (engine/mjcf-sensors.ts) against MuJoCo's
// sensordata per state (the machinery: stage.ts beside this file). Its planted bugs: the engine's sensor pass's (native,
// swept with the bug build) and the host's touch evaluation's (TypeScript, swept through this stage alone).

import { PRECISIONS } from '../../engine/api.js';
import type { ValidationStage } from '../validation-stage.js';
import { MJCF_SENSOR_BUGS, MJCF_SENSOR_NATIVE_BUGS, setMjcfSensorBug, mjcfSensorBug } from './bugs.js';
import { mjcfSensorsReference, mjcfSensorsRows, type MjcfSensorsReference } from './stage.js';

/** States per fixture (the first at qpos0): a wrong frame or sign shows at any state. */
const SENSOR_STATES = 16;

export const mjcfSensorsStage: ValidationStage<MjcfSensorsReference> = {
  name: 'mjcf-sensors',
  description: "MJCF sensors (jointpos .. velocimeter) against MuJoCo's sensordata per state",
  gates: ['mjcf-sensors'],
  precisions: PRECISIONS,
  // its own fixtures: a --model subset skips it
  underModelSubset: false,
  // the engine's sensor pass has planted bugs of its own
  bugBuild: true,
  catches: { 'mjcf-sensors': [...MJCF_SENSOR_NATIVE_BUGS, ...MJCF_SENSOR_BUGS] },
  ownBugs: { names: MJCF_SENSOR_BUGS, set: setMjcfSensorBug, listedWhenNotRun: false },
  reference: (ctx) => mjcfSensorsReference(ctx.python, ctx.seed, SENSOR_STATES),
  rows: (ref, ctx) => mjcfSensorsRows(ref, ctx.precision, ctx.addon, mjcfSensorBug()),
};
