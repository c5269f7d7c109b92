// Stage 8: the double pendulum against its closed form along a 10 s run, and the README's quoted
// accelerations (the machinery: ../exact.ts).

import { PRECISIONS } from '../../engine/api.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import { closedFormRun, readmeReference, readmeRows, README_QACC } from '../exact.js';
import type { CheckRow } from '../types.js';
import type { ValidationStage } from '../validation-stage.js';

interface ExactReference {
  /** Every smooth-dynamics model (those without a closed form give no rows). */
  models: ReadonlyMap<string, ModelDesc>;
  /** MuJoCo's float32 answers at the README's states, per model the README quotes. */
  readme: Map<string, number[][]>;
}

export const exactStage: ValidationStage<ExactReference> = {
  name: 'exact',
  description: 'The double pendulum against its closed-form equations of motion, and the accelerations the README quotes',
  gates: ['exact'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  catches: {
    exact: ['hinge-sign', 'parallel-axis-dropped', 'gyroscopic-sign', 'coriolis-dropped', 'gravity-sign'],
  },
  async reference(ctx) {
    const models = new Map(ctx.smooth.map((m) => [m.name, m.model]));
    const readme = new Map<string, number[][]>();
    for (const name of Object.keys(README_QACC)) {
      const m = models.get(name);
      if (m) readme.set(name, await readmeReference(ctx.python, m, ctx.seed));
    }
    return { models, readme };
  },
  rows(ref, ctx) {
    const rows: CheckRow[] = [];
    for (const [name, model] of ref.models) {
      const run = closedFormRun(name, model, ctx.precision, ctx.addon, ctx.seed);
      if (run) {
        rows.push(...run.rows);
        ctx.report?.closedForm.push({ model: name, precision: ctx.precision, t: run.t, error: run.error });
      }
      const q32 = ref.readme.get(name);
      if (q32) rows.push(...readmeRows(name, model, ctx.precision, ctx.addon, q32));
    }
    return rows;
  },
};
