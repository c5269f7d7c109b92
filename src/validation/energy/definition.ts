// Stage 7 (its run half): the double pendulum's energy over 10 s for every integrator, against
// MuJoCo's drift on its own run (the machinery: ../energy.ts).

import { PRECISIONS } from '../../engine/api.js';
import { energyReference, energyRows, type EnergyReference } from '../energy.js';
import type { ValidationStage } from '../validation-stage.js';

export const energyStage: ValidationStage<EnergyReference> = {
  name: 'energy',
  description: 'Energy drift of the double pendulum over 10 s, every integrator, against MuJoCo on its own run',
  gates: ['energy'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  // The per-state stage's energy rows share this gate: these are the bugs either catches.
  catches: {
    energy: [
      'hinge-sign',
      'body-as-world-rotation',
      'parallel-axis-dropped',
      'gyroscopic-sign',
      'coriolis-dropped',
      'gravity-sign',
      'rk4-weight',
      'verlet-stale-acceleration',
    ],
  },
  async reference(ctx) {
    const pendulum = ctx.smooth.find((m) => m.name === 'double-pendulum');
    return pendulum ? energyReference(ctx.python, pendulum.model, ctx.seed) : undefined;
  },
  rows(ref, ctx) {
    const e = energyRows(ref, ctx.precision, ctx.addon);
    if (ctx.report) ctx.report.energy[ctx.precision] = e.series;
    return e.rows;
  },
};
