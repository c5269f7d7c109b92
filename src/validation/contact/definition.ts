// Stage 12: the constraint rows and forces of the engine's contact solver at random states of the
// contact scenes, against MuJoCo's (the machinery: per-state.ts beside this file; contact-exact/ and
// contact-trajectory/ use this folder's models, formulas and MuJoCo runs too).

import { PRECISIONS } from '../../engine/api.js';
import type { SuiteResult } from '../suite-result.js';
import type { CheckRow } from '../types.js';
import type { ValidationStage } from '../validation-stage.js';
import { lineSearchStopReference, lineSearchStopRows, type LineSearchStopReference } from './line-search-stop.js';
import { contactStateCount, contactStateReferences, contactStateRows, type ContactStateReference } from './per-state.js';

interface ContactReference {
  states: ContactStateReference[];
  /** The elliptic line search's float32 stop (line-search-stop.ts). */
  stop: LineSearchStopReference;
}

/** The report's contact section, shared by the three contact stages. */
export const contactReport = (result: SuiteResult): NonNullable<SuiteResult['contact']> =>
  (result.contact ??= { states: [], incline: [], domino: [] });

export const contactStage: ValidationStage<ContactReference> = {
  name: 'contact',
  description: 'Contact constraint rows, impedances and solved forces at random states, against MuJoCo',
  gates: ['contact'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  catches: {
    contact: [
      'hinge-sign',
      'parallel-axis-dropped',
      'gyroscopic-sign',
      'coriolis-dropped',
      'gravity-sign',
      'collision-normal-flipped',
      'collision-radius-dropped',
      'collision-margin-ignored',
      'contact-edge-sign',
      'contact-r-dropped',
      'contact-aref-damping-sign',
      'limit-sign',
      'contact-tangent-frame',
      'newton-hessian-inactive-rows',
      'contact-impratio-ignored',
      'contact-torsion-axis',
      'contact-rolling-coefficient',
      'pgs-shuffle-skipped',
      'contact-perturbed-normal-shared',
      'contact-multiccd-flag-ignored',
      'line-search-floor-sqrt-eps',
      'contact-clip-side-skipped',
      'contact-plane-mesh-least-aligned',
      'contact-cylinder-cap-phase',
    ],
  },
  async reference(ctx) {
    ctx.log('reference: contact (MuJoCo constraint rows, Newton and CG-20)');
    const [states, stop] = await Promise.all([
      contactStateReferences(ctx.python, ctx.seed, ctx.states),
      lineSearchStopReference(ctx.python, ctx.seed, contactStateCount(ctx.states)),
    ]);
    return { states, stop };
  },
  prepareReport: (_ref, result) => void contactReport(result),
  rows(refs, ctx) {
    const rows: CheckRow[] = [];
    for (const r of refs.states) {
      const c = contactStateRows(r, ctx.precision, ctx.addon, Math.min(ctx.states, r.states.length));
      rows.push(...c.rows);
      if (ctx.report) contactReport(ctx.report).states.push(c.summary);
    }
    rows.push(...lineSearchStopRows(refs.stop, ctx.precision, ctx.addon, Math.min(ctx.states, refs.stop.states.length)));
    return rows;
  },
};
