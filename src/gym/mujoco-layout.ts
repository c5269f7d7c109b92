// mjData's per-body and per-site fields of one robot, from a record: true batch's per-link record
// (Batch.lastEvaluation): MuJoCo's body i + 1 is carried by link bodies[i].link at offset
// bodies[i].offset in that link's frame (same orientation; engine/model-desc.ts MujocoLayout); body 0,
// the world, sits at the origin with no external force. The twin of python/src/achilles/gym/vector.py's
// _MujocoLayout.

import type { MujocoLayout } from '../engine/model-desc.js';
import type { Val } from './expr.js';

/** The quantities this module gives a task (task files name them as MuJoCo does). */
export const RECORDED_QUANTITIES = ['xpos', 'site_xpos', 'cfrc_ext', 'qfrc_constraint'] as const;

export interface RecordViews {
  bodyPos: ArrayLike<number>;
  bodyRot: ArrayLike<number>;
  cfrcExt: ArrayLike<number>;
  qfrcConstraint: ArrayLike<number>;
}

/** Robot r's xpos (nbody × 3), site_xpos (nsite × 3), cfrc_ext (nbody × 6) and qfrc_constraint (nv). */
export function recordedValues(layout: MujocoLayout, rec: RecordViews, stride: number, nv: number, r: number): Record<string, Val> {
  const at = (a: ArrayLike<number>, k: number): number => a[k * stride + r];
  const xpos: number[][] = [[0, 0, 0]];
  const xmat: number[][] = [[1, 0, 0, 0, 1, 0, 0, 0, 1]];
  const cfrc: number[][] = [[0, 0, 0, 0, 0, 0]];
  for (const b of layout.bodies) {
    const R = Array.from({ length: 9 }, (_, e) => at(rec.bodyRot, b.link * 9 + e));
    const o = b.offset;
    xpos.push([0, 1, 2].map((i) => at(rec.bodyPos, b.link * 3 + i) + R[i * 3] * o[0] + R[i * 3 + 1] * o[1] + R[i * 3 + 2] * o[2]));
    xmat.push(R);
    cfrc.push(Array.from({ length: 6 }, (_, e) => at(rec.cfrcExt, b.link * 6 + e)));
  }
  const site = layout.sites.map((s) => {
    const p = xpos[s.body];
    const R = xmat[s.body];
    return [0, 1, 2].map((i) => p[i] + R[i * 3] * s.pos[0] + R[i * 3 + 1] * s.pos[1] + R[i * 3 + 2] * s.pos[2]);
  });
  const qfrc = Array.from({ length: nv }, (_, k) => at(rec.qfrcConstraint, k));
  return { xpos, site_xpos: site, cfrc_ext: cfrc, qfrc_constraint: qfrc };
}
