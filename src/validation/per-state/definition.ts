// Stages 1–5 and the per-state half of energy: the engine against MuJoCo at random states of every
// smooth-dynamics model (the machinery: ../per-state.ts).

import { PRECISIONS } from '../../engine/api.js';
import { perStateReference, perStateRows, type PerStateReference } from '../per-state.js';
import { pool } from '../pool.js';
import type { CheckRow } from '../types.js';
import type { ValidationStage } from '../validation-stage.js';

export const perStateStage: ValidationStage<PerStateReference[]> = {
  name: 'per-state',
  description: 'Kinematics, mass matrix, bias forces, forward dynamics, one step and energy at random states, against MuJoCo',
  gates: ['kinematics', 'mass-matrix', 'bias', 'forward', 'step', 'energy'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  catches: {
    kinematics: ['hinge-sign', 'body-as-world-rotation'],
    'mass-matrix': ['hinge-sign', 'parallel-axis-dropped'],
    bias: ['hinge-sign', 'parallel-axis-dropped', 'gyroscopic-sign', 'coriolis-dropped', 'gravity-sign'],
    forward: ['hinge-sign', 'parallel-axis-dropped', 'gyroscopic-sign', 'coriolis-dropped', 'gravity-sign'],
    step: [
      'hinge-sign',
      'parallel-axis-dropped',
      'gyroscopic-sign',
      'coriolis-dropped',
      'gravity-sign',
      'rk4-weight',
      'verlet-stale-acceleration',
      'free-quaternion-world-frame',
      'torque-one-step-late',
    ],
    // energy: declared by the energy stage (../energy/definition.ts), whose gate name these rows share
  },
  reference: (ctx) =>
    pool(ctx.smooth, 2, async ({ name, model }) => {
      ctx.log(`reference: ${name} (${ctx.states} states)`);
      return perStateReference(ctx.python, name, model, ctx.states, ctx.seed);
    }),
  prepareReport(refs, result) {
    for (const r of refs) result.tauScale[r.name] = r.tauScale;
  },
  rows(refs, ctx) {
    const rows: CheckRow[] = [];
    for (const r of refs) rows.push(...perStateRows(r, ctx.precision, ctx.addon, ctx.stages, Math.min(ctx.states, r.states.length)));
    return rows;
  },
};
