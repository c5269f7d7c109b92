// A scene's `randomize:` block in `achilles run`: every robot starts from its own initial draws
// (robot r's value of P is a hash of (the scene's seed, r, P): src/params/draws.ts), and the model
// parameters drawn for robot 0 are written into the model the run steps. Per-lane model parameters
// are not implemented yet (a batch's robots share its model's constants), so a run with drawn model
// parameters is refused for more than one robot: `achilles sweep` runs each such robot alone.

import type { Batch } from '../engine/batch.js';
import type { LaneWidth } from '../engine/api.js';
import type { ModelDesc } from '../engine/model-desc.js';
import type { SceneRandomization } from '../model-files/scene/randomize-read.js';
import { withParameters } from '../params/apply.js';
import { draw } from '../params/draws.js';
import { robotParameters } from '../params/robot-values.js';

/** The model robot 0 runs: the scene's with its drawn parameters written in. */
export function randomizedModel(model: ModelDesc, r: SceneRandomization | undefined, copies: number, lanes: LaneWidth): ModelDesc {
  if (!r || r.model.length === 0) return model;
  if (copies > 1)
    r.at.ctx.fail(
      r.at.node,
      'randomize.model',
      `per-robot model parameters (${r.model.map((d) => d.name).join(', ')}) with ${copies} robots`,
      "one robot (--copies 1), which runs robot 0's drawn model",
      'per-lane model parameters are not implemented yet: `achilles sweep` runs each robot with its own drawn model',
    );
  return withParameters(model, robotParameters(r.model, r.seed, 0, lanes));
}

/** One line for stderr: what the run draws, and robot 0's drawn model values. */
export function randomizationLine(r: SceneRandomization | undefined, lanes: LaneWidth): string {
  if (!r) return '';
  const values = robotParameters(r.model, r.seed, 0, lanes);
  const model = r.model.map((d, i) => `${d.name} = ${values[i].value}`).join(', ');
  const initial = r.initial.map((d) => d.name).join(', ');
  return `achilles run: randomize (seed ${r.seed}):${initial ? ` each robot's ${initial} drawn;` : ''}${model ? ` robot 0's model: ${model}` : ''}\n`;
}

/** Every robot's drawn initial coordinates and velocities written over its start. */
export function applyInitialDraws(batch: Batch, r: SceneRandomization | undefined): void {
  if (!r || r.initial.length === 0) return;
  for (let i = 0; i < batch.copies; i++) {
    const { q, v } = batch.getRobot(i);
    for (const d of r.initial) (d.field === 'q' ? q : v)[d.index] = draw(d.dist, r.seed, i, d.key);
    batch.setRobot(i, { q, v });
  }
}
