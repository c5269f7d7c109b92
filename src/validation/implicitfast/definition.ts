// Stage: MuJoCo's implicitfast integrator (M − h·qDeriv: damping, velocity-dependent actuators, tendon
// dampers, standalone free bodies' gyroscopic block; with contacts) against MuJoCo's own (stage.ts).

import { PRECISIONS } from '../../engine/api.js';
import type { ValidationStage } from '../validation-stage.js';
import { implicitReference, implicitRows, type ImplicitReference } from './stage.js';

export const implicitfastStage: ValidationStage<ImplicitReference> = {
  name: 'implicitfast',
  description:
    'The implicitfast integrator (one step per state; q, q̇ and act at every step of runs with actuators, contacts, tendons) against MuJoCo',
  gates: ['implicitfast'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  // what this gate caught in its own run (`achilles validate --stage implicitfast`, default seed)
  catches: {
    implicitfast: ['implicitfast-derivative-dropped', 'actuator-tendon-moment-sign'],
  },
  reference(ctx) {
    ctx.log('reference: implicitfast (MuJoCo steps and runs)');
    return implicitReference(ctx.python, ctx.seed);
  },
  rows: (ref, ctx) => implicitRows(ref, ctx.precision, ctx.addon),
};
