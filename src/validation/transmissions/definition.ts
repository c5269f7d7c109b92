// Stage: actuator transmissions beyond joints and fixed tendons (the body transmission of MuJoCo's
// <adhesion>) against MuJoCo (the machinery: stage.ts beside this file).

import { PRECISIONS } from '../../engine/api.js';
import type { ValidationStage } from '../validation-stage.js';
import { transmissionsReference, transmissionsRows, type TransmissionsReference } from './stage.js';

export const transmissionsStage: ValidationStage<TransmissionsReference> = {
  name: 'transmissions',
  description:
    'Adhesion (body transmission: contacts counted, actuator_force, qacc_smooth, qacc per state; q along Euler and RK4 runs) against MuJoCo',
  gates: ['transmissions'],
  precisions: PRECISIONS,
  underModelSubset: false,
  bugBuild: true,
  // its planted bug, and contact-gap-row-kept (a pad's point inside its gap given rows): what this gate
  // caught in its own run (`achilles validate --stage transmissions`, default seed) that concerns it. Its
  // states and runs also catch 13 dynamics, collision and contact bugs other stages declare (hinge-sign,
  // gravity-sign, collision-normal-flipped, contact-r-dropped, ...), left off to keep their tables as they are.
  catches: { transmissions: ['contact-gap-row-kept', 'adhesion-pushes'] },
  reference(ctx) {
    ctx.log('reference: adhesion fixture (MuJoCo states and runs)');
    return transmissionsReference(ctx.python, ctx.seed);
  },
  rows: (ref, ctx) => transmissionsRows(ref, ctx.precision, ctx.addon),
};
