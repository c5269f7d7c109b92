// Stages 10 and 11: actuators (an actuated arm) and passive forces (springs, damping, armature on
// pendulums), each against MuJoCo's run of the same model (the machinery: stage.ts beside this file).

import { PRECISIONS } from '../../engine/api.js';
import type { ValidationStage } from '../validation-stage.js';
import { actuatorReference, actuatorRows, type ActuatorReference } from './stage.js';

export const actuatorsStage: ValidationStage<ActuatorReference> = {
  name: 'actuators',
  description: 'Actuator and passive forces along runs, against MuJoCo',
  gates: ['actuators', 'passive'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  catches: {
    actuators: [
      'hinge-sign',
      'parallel-axis-dropped',
      'gyroscopic-sign',
      'coriolis-dropped',
      'gravity-sign',
      'rk4-weight',
      'actuator-effort-one-step-late',
      'actuator-gear-not-projected',
      'damping-explicit-in-euler',
    ],
    passive: [
      'hinge-sign',
      'parallel-axis-dropped',
      'gyroscopic-sign',
      'coriolis-dropped',
      'gravity-sign',
      'rk4-weight',
      'free-quaternion-world-frame',
      'damping-explicit-in-euler',
    ],
  },
  reference(ctx) {
    ctx.log('reference: actuated arm and passive pendulums (MuJoCo runs)');
    return actuatorReference(ctx.python, ctx.stages, ctx.seed);
  },
  rows: (ref, ctx) => actuatorRows(ref, ctx.precision, ctx.addon),
};
