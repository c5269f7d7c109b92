// Stage 14: contact rollouts (dominoes, stacks) against MuJoCo's, within the spread of MuJoCo's own
// nudged twins (the machinery: ../contact/trajectory.ts).

import { PRECISIONS } from '../../engine/api.js';
import { contactReport } from '../contact/definition.js';
import { contactTrajectoryReference, contactTrajectoryRows, type ContactTrajectoryReference } from '../contact/trajectory.js';
import type { ValidationStage } from '../validation-stage.js';

export const contactTrajectoryStage: ValidationStage<ContactTrajectoryReference> = {
  name: 'contact-trajectory',
  description: 'Contact rollouts against MuJoCo, within the spread of its own nudged runs',
  gates: ['contact-trajectory'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  catches: {
    'contact-trajectory': [
      'hinge-sign',
      'parallel-axis-dropped',
      'gravity-sign',
      'collision-normal-flipped',
      'contact-edge-sign',
      'contact-r-dropped',
      'contact-aref-damping-sign',
      'contact-warmstart-other-lane',
      'limit-sign',
      'damping-explicit-in-euler',
    ],
  },
  reference(ctx) {
    ctx.log('reference: contact-trajectory (MuJoCo rollouts)');
    return contactTrajectoryReference(ctx.python, ctx.seed);
  },
  prepareReport: (_ref, result) => void contactReport(result),
  rows(ref, ctx) {
    const c = contactTrajectoryRows(ref, ctx.precision, ctx.addon, ctx.report === null);
    if (ctx.report) contactReport(ctx.report).domino.push(c.domino);
    return c.rows;
  },
};
