// mjData's per-body and per-site fields of one robot, from a record: true batch's per-link record
// (Batch.lastEvaluation): MuJoCo's body i + 1 is carried by link bodies[i].link at offset
// bodies[i].offset in that link's frame (same orientation; engine/model-desc.ts MujocoLayout); body 0,
// the world, sits at the origin with no external force. The twin of python/src/achilles/gym/vector.py's
// _MujocoLayout.

import type { BodyDesc, MujocoLayout } from '../engine/model-desc.js';
import type { Val } from './expr.js';

/** The quantities this module gives a task (task files name them as MuJoCo does). */
export const RECORDED_QUANTITIES = [
  'xpos',
  'xipos',
  'site_xpos',
  'body_mass',
  'cinert',
  'cvel',
  'cfrc_ext',
  'qfrc_constraint',
  'qfrc_actuator',
] as const;

export interface RecordViews {
  bodyPos: ArrayLike<number>;
  bodyRot: ArrayLike<number>;
  cfrcExt: ArrayLike<number>;
  qfrcConstraint: ArrayLike<number>;
  qfrcActuator: ArrayLike<number>;
  xipos: ArrayLike<number>;
  cinert: ArrayLike<number>;
  cvel: ArrayLike<number>;
}

type V3 = [number, number, number];
const mulR = (R: number[], x: readonly number[]): V3 =>
  [0, 1, 2].map((i) => R[i * 3] * x[0] + R[i * 3 + 1] * x[1] + R[i * 3 + 2] * x[2]) as V3;

/** Robot r's xpos, xipos (nbody × 3), site_xpos (nsite × 3), body_mass (nbody), cinert (nbody × 10),
 *  cvel (nbody × 6), cfrc_ext (nbody × 6), qfrc_constraint and qfrc_actuator (nv). `links`: the
 *  model's bodies (the record's links: their masses). cinert (mj_comPos's: the inertia about the
 *  subtree CoM of the body's tree in world axes, then m·(xipos − c) and m), cvel (mj_comVel's) and
 *  xipos are the engine's (kernel/mujoco_record.hpp), taken from each body's link. */
export function recordedValues(
  layout: MujocoLayout,
  links: readonly BodyDesc[],
  rec: RecordViews,
  stride: number,
  nv: number,
  r: number,
): Record<string, Val> {
  const at = (a: ArrayLike<number>, k: number): number => a[k * stride + r];
  const row = (a: ArrayLike<number>, l: number, k: number): number[] => Array.from({ length: k }, (_, e) => at(a, l * k + e));
  const xpos: number[][] = [[0, 0, 0]];
  const xipos: number[][] = [[0, 0, 0]];
  const xmat: number[][] = [[1, 0, 0, 0, 1, 0, 0, 0, 1]];
  const cfrc: number[][] = [[0, 0, 0, 0, 0, 0]];
  const bodyMass: number[] = [0];
  const cinert: number[][] = [new Array<number>(10).fill(0)];
  const cvel: number[][] = [[0, 0, 0, 0, 0, 0]];
  for (const b of layout.bodies) {
    const l = b.link;
    const p = row(rec.bodyPos, l, 3);
    const R = row(rec.bodyRot, l, 9);
    const o = mulR(R, b.offset);
    xpos.push([0, 1, 2].map((i) => p[i] + o[i]));
    xipos.push(row(rec.xipos, l, 3));
    xmat.push(R);
    cfrc.push(row(rec.cfrcExt, l, 6));
    bodyMass.push(links[l].mass);
    cinert.push(row(rec.cinert, l, 10));
    cvel.push(row(rec.cvel, l, 6));
  }
  const site = layout.sites.map((s) => {
    const p = xpos[s.body];
    const o = mulR(xmat[s.body], s.pos);
    return [0, 1, 2].map((i) => p[i] + o[i]);
  });
  const column = (a: ArrayLike<number>): number[] => Array.from({ length: nv }, (_, k) => at(a, k));
  return {
    xpos,
    xipos,
    site_xpos: site,
    body_mass: bodyMass,
    cinert,
    cvel,
    cfrc_ext: cfrc,
    qfrc_constraint: column(rec.qfrcConstraint),
    qfrc_actuator: column(rec.qfrcActuator),
  };
}
