// Stage 13: contact against exact answers (a resting box's forces, a block on an incline) and
// MuJoCo (the machinery: ../contact/exact.ts).

import { PRECISIONS } from '../../engine/api.js';
import { contactReport } from '../contact/definition.js';
import { contactExactReference, contactExactRows, type ContactExactReference } from '../contact/exact.js';
import type { ValidationStage } from '../validation-stage.js';

export const contactExactStage: ValidationStage<ContactExactReference> = {
  name: 'contact-exact',
  description: 'Contact forces and motion against closed forms (resting box, incline) and MuJoCo',
  gates: ['contact-exact'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  catches: {
    'contact-exact': [
      'gravity-sign',
      'collision-normal-flipped',
      'contact-edge-sign',
      'contact-r-dropped',
      'contact-aref-damping-sign',
      'contact-warmstart-other-lane',
      'contact-tangent-frame',
    ],
  },
  reference(ctx) {
    ctx.log('reference: contact-exact (MuJoCo Newton runs)');
    return contactExactReference(ctx.python);
  },
  prepareReport: (_ref, result) => void contactReport(result),
  rows(ref, ctx) {
    const c = contactExactRows(ref, ctx.precision, ctx.addon);
    if (c.incline && ctx.report) contactReport(ctx.report).incline.push(c.incline);
    return c.rows;
  },
};
