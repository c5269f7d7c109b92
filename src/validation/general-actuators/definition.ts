// Stage: MuJoCo's general actuators (every dyntype, gaintype and biastype the engine follows, with
// activation states advanced by Euler and RK4) against MuJoCo (the machinery: stage.ts beside this file).

import { PRECISIONS } from '../../engine/api.js';
import type { ValidationStage } from '../validation-stage.js';
import { generalReference, generalRows, type GeneralReference } from './stage.js';

export const generalActuatorsStage: ValidationStage<GeneralReference> = {
  name: 'general-actuators',
  description: 'General actuators (actuator_force, act_dot, qacc per state; q and act along Euler and RK4 runs) against MuJoCo',
  gates: ['general-actuators'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  // what this gate caught in its own run (`achilles validate --stage general-actuators`, default seed):
  // its two planted bugs, and the dynamics bugs its runs reach
  catches: {
    'general-actuators': [
      'hinge-sign',
      'parallel-axis-dropped',
      'gyroscopic-sign',
      'coriolis-dropped',
      'gravity-sign',
      'rk4-weight',
      'actuator-effort-one-step-late',
      'damping-explicit-in-euler',
      'actuator-filter-time-constant-off-by-one-step',
      'actuator-affine-bias-sign',
      'actuator-tendon-moment-sign',
    ],
  },
  reference(ctx) {
    ctx.log('reference: general-actuator arm (MuJoCo states and runs)');
    return generalReference(ctx.python, ctx.seed);
  },
  rows: (ref, ctx) => generalRows(ref, ctx.precision, ctx.addon),
};
