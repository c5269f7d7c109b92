// A scene's `randomize:` block in `achilles run`: every robot starts from its own initial draws
// (robot r's value of P is a hash of (the scene's seed, r, P): src/params/draws.ts), and each robot's
// drawn model parameters are written into the model it runs. Robots whose drawn models differ only in
// per-lane parameters (src/params/lanes.ts: every kind, unless a damping, armature or velocity gain is
// drawn zero for some robots and not others) share the run's batch, one per lane; otherwise the run
// takes one robot (--copies 1): `achilles sweep` runs each such robot alone.

import type { Batch } from '../engine/batch.js';
import type { LaneWidth } from '../engine/api.js';
import type { ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import type { SceneRandomization } from '../model-files/scene/randomize-read.js';
import { withParameters } from '../params/apply.js';
import { draw } from '../params/draws.js';
import { laneSharingProblem, setRobotModels, LANE_KINDS } from '../params/lanes.js';
import { robotParameters } from '../params/robot-values.js';

/** The model the run's batch is made with (robot 0's: the scene's with its drawn parameters written
 *  in) and, with drawn model parameters, every robot's model (robots[r]), which applyRobotModels sets
 *  in the robots' lanes. */
export interface RandomizedModels {
  model: ModelDesc;
  robots?: ModelDesc[];
}

export function randomizedModels(
  model: ModelDesc,
  r: SceneRandomization | undefined,
  copies: number,
  lanes: LaneWidth,
  addon?: NativeAddon,
): RandomizedModels {
  if (!r || r.model.length === 0) return { model };
  const robots = Array.from({ length: copies }, (_, i) => withParameters(model, robotParameters(r.model, r.seed, i, lanes)));
  const problem = laneSharingProblem(
    robots,
    r.model.map((d) => d.target.kind),
    addon,
  );
  if (problem)
    r.at.ctx.fail(
      r.at.node,
      'randomize.model',
      `per-robot model parameters (${r.model.map((d) => d.name).join(', ')}) with ${copies} robots: ${problem}`,
      `one robot (--copies 1), which runs robot 0's drawn model, or draws that keep each damping, armature and velocity gain zero in every robot or in none (per-lane parameters: ${LANE_KINDS.join(', ')})`,
      'robots share a batch only where their models differ in per-lane parameters: `achilles sweep` runs each robot with its own drawn model',
    );
  return { model: robots[0], robots };
}

/** Every robot's drawn model in its lane (robot 0's is the batch's own). */
export function applyRobotModels(batch: Batch, m: RandomizedModels): void {
  if (m.robots) setRobotModels(batch, m.robots);
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
