// `--spread RAD` (achilles run and bench): start robots 1..copies-1 from slightly different
// positions, so one run shows how sensitive the motion is (a chaotic double pendulum fans out). Deterministic: the offset of
// robot r, coordinate k is a fixed hash of (r, k), the same on every machine and every run.
// Robot 0 always starts exactly at the scene's state. Only 1-DOF joints (revolute, prismatic)
// are offset: adding to a quaternion's components would leave the unit sphere.

import type { Batch } from './batch.js';
import { coordinateLayout, type ModelDesc } from './model-desc.js';

/** A uniform number in [-1, 1) from (robot, coordinate): splitmix32-style integer hash. */
export function unitOffset(robot: number, coord: number): number {
  let h = (Math.imul(robot, 0x9e3779b1) ^ Math.imul(coord + 1, 0x85ebca77)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 2 ** 31 - 1;
}

/** Robot r's q (in place): every 1-DOF coordinate offset by spread · unitOffset(r, k); robot 0 unchanged.
 *  Also used by `achilles bench --spread`, which gives MuJoCo's robot r the same start. */
export function spreadRobot(bodies: ModelDesc['bodies'], q: number[], r: number, spread: number): void {
  if (spread === 0 || r === 0) return;
  const { qOffset } = coordinateLayout(bodies);
  bodies.forEach((b, i) => {
    if (b.joint === 'revolute' || b.joint === 'prismatic') q[qOffset[i]] += spread * unitOffset(r, qOffset[i]);
  });
}

/** Offset every 1-DOF coordinate of robots 1.. by spread · unitOffset(r, k). */
export function applySpread(batch: Batch, spread: number): void {
  if (spread === 0) return;
  for (let r = 1; r < batch.copies; r++) {
    const q = batch.getRobot(r).q;
    spreadRobot(batch.model.bodies, q, r, spread);
    batch.setRobot(r, { q });
  }
}
