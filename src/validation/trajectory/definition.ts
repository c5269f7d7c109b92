// Stage 6: rollouts of every smooth-dynamics model against MuJoCo's, over time (the machinery:
// ../trajectory.ts). Torques are scaled as the per-state stage measured each model's gravity
// torques (1 when that stage does not run).

import { PRECISIONS } from '../../engine/api.js';
import { perStateStage } from '../per-state/definition.js';
import { pool } from '../pool.js';
import { trajectoryReference, trajectoryRows, trajectoryScenarios, type TrajectoryReference } from '../trajectory.js';
import type { CheckRow } from '../types.js';
import type { ValidationStage } from '../validation-stage.js';

export const trajectoryStage: ValidationStage<TrajectoryReference[]> = {
  name: 'trajectory',
  description: 'Rollouts of every integrator against MuJoCo, the error over time against its running float32 floor',
  gates: ['trajectory'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  catches: {
    trajectory: [
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
  },
  async reference(ctx) {
    const tauScale = new Map(((await ctx.referenceOf(perStateStage)) ?? []).map((r) => [r.name, r.tauScale]));
    const models = new Map(ctx.smooth.map((m) => [m.name, m.model]));
    return pool(
      trajectoryScenarios(models, (n) => tauScale.get(n) ?? 1, ctx.seed),
      2,
      async (sc) => {
        ctx.log(`reference: ${sc.name} (${sc.seconds} s)`);
        return trajectoryReference(ctx.python, sc, ctx.seed);
      },
    );
  },
  rows(refs, ctx) {
    const rows: CheckRow[] = [];
    for (const t of refs) rows.push(...trajectoryRows(t, ctx.precision, ctx.addon));
    return rows;
  },
};
