// Stage 15: sensors (noise, bias, drift, latency, filters, frame schedule) on their own two scenario
// models, each statistic within 5 standard errors of its estimate (the machinery: stage.ts beside
// this file). Its planted bugs are TypeScript's (src/sensors/planted-bugs.ts).

import { PRECISIONS } from '../../engine/api.js';
import { SENSOR_BUGS, setPlantedSensorBug, type SensorBug } from '../../sensors/planted-bugs.js';
import type { ValidationStage } from '../validation-stage.js';
import { sensorRows } from './stage.js';

export const sensorsStage: ValidationStage<null> = {
  name: 'sensors',
  description: 'Sensor noise, drift, latency, filters and frame schedule against their statistics',
  gates: ['sensors'],
  precisions: PRECISIONS,
  // its own two scenario models: a --model subset skips it
  underModelSubset: false,
  bugBuild: false,
  catches: {
    sensors: ['sensor-latency-off-by-one', 'noise-stream-shared-between-lanes'],
  },
  ownBugs: { names: SENSOR_BUGS, set: (name) => setPlantedSensorBug(name as SensorBug | 'none'), listedWhenNotRun: true },
  rows: (_ref, ctx) => sensorRows(ctx.precision, ctx.addon, { seed: ctx.seed }),
};
