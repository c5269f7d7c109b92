// Each robot's model parameter values: drawn by src/params/draws.ts, a pure function of (seed, robot,
// parameter name), so robot r's model is the same in any batch, lane, lane width, shard or thread.

import { draw, type Distribution } from './draws.js';
import { parameterBug } from './bugs.js';
import type { ParameterTarget, ParameterValue } from './names.js';

/** A parameter drawn per robot, resolved against the model. */
export interface ModelDraw {
  /** As written (`mass_scale:torso`); its random numbers are keyed by parameterKey(name). */
  name: string;
  key: number;
  dist: Distribution;
  target: ParameterTarget;
  /** The seed it is drawn with when not the caller's (a scene's own randomize.seed in a sweep). */
  seed?: number;
}

/** Robot `robot`'s values of `draws`. `lanes`: the lane width it runs at, which must not matter (it is
 *  passed only so that the planted lane-width bug can be shown caught). */
export function robotParameters(draws: readonly ModelDraw[], seed: number, robot: number, lanes: number): ParameterValue[] {
  let source = robot;
  if (parameterBug('params-neighbour-robot')) source = robot + 1;
  if (parameterBug('params-draw-lane-width')) source = (source ^ (lanes - 1)) >>> 0;
  return draws.map((d) => ({ target: d.target, value: draw(d.dist, d.seed ?? seed, source, d.key), name: d.name }));
}
