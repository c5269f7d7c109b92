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
  bodyVel: ArrayLike<number>;
  cfrcExt: ArrayLike<number>;
  qfrcConstraint: ArrayLike<number>;
  qfrcActuator: ArrayLike<number>;
}

type V3 = [number, number, number];
const mulR = (R: number[], x: readonly number[]): V3 =>
  [0, 1, 2].map((i) => R[i * 3] * x[0] + R[i * 3 + 1] * x[1] + R[i * 3 + 2] * x[2]) as V3;
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Robot r's xpos, xipos (nbody × 3), site_xpos (nsite × 3), body_mass (nbody), cinert (nbody × 10),
 *  cvel (nbody × 6), cfrc_ext (nbody × 6), qfrc_constraint and qfrc_actuator (nv). `links`: the
 *  model's bodies (the record's links: mass, CoM, inertia, parent). cinert is mj_comPos's: the inertia
 *  about the subtree CoM c of the body's tree in world axes, then m·(xipos − c) and m; cvel is
 *  mj_comVel's: [ω; the velocity of the point c moving with the body], world axes. */
export function recordedValues(
  layout: MujocoLayout,
  links: readonly BodyDesc[],
  rec: RecordViews,
  stride: number,
  nv: number,
  r: number,
): Record<string, Val> {
  const at = (a: ArrayLike<number>, k: number): number => a[k * stride + r];
  // every link's pose, CoM (world) and tree root; each tree's subtree CoM
  const nl = links.length;
  const P: V3[] = [];
  const Rl: number[][] = [];
  const com: V3[] = [];
  const root: number[] = [];
  for (let l = 0; l < nl; l++) {
    const p: V3 = [0, 1, 2].map((i) => at(rec.bodyPos, l * 3 + i)) as V3;
    const R = Array.from({ length: 9 }, (_, e) => at(rec.bodyRot, l * 9 + e));
    const c = mulR(R, links[l].com);
    P.push(p);
    Rl.push(R);
    com.push([p[0] + c[0], p[1] + c[1], p[2] + c[2]]);
    root.push(links[l].parent < 0 ? l : root[links[l].parent]);
  }
  const msum = new Array<number>(nl).fill(0);
  const csum: V3[] = Array.from({ length: nl }, () => [0, 0, 0]);
  for (let l = 0; l < nl; l++) {
    msum[root[l]] += links[l].mass;
    for (let i = 0; i < 3; i++) csum[root[l]][i] += links[l].mass * com[l][i];
  }
  const subtree = (t: number): V3 => (msum[t] > 0 ? (csum[t].map((x) => x / msum[t]) as V3) : com[t]);
  const xpos: number[][] = [[0, 0, 0]];
  const xipos: number[][] = [[0, 0, 0]];
  const xmat: number[][] = [[1, 0, 0, 0, 1, 0, 0, 0, 1]];
  const cfrc: number[][] = [[0, 0, 0, 0, 0, 0]];
  const bodyMass: number[] = [0];
  const cinert: number[][] = [new Array<number>(10).fill(0)];
  const cvel: number[][] = [[0, 0, 0, 0, 0, 0]];
  for (const b of layout.bodies) {
    const l = b.link;
    const R = Rl[l];
    const o = mulR(R, b.offset);
    xpos.push([0, 1, 2].map((i) => P[l][i] + o[i]));
    xipos.push([...com[l]]);
    xmat.push(R);
    cfrc.push(Array.from({ length: 6 }, (_, e) => at(rec.cfrcExt, l * 6 + e)));
    const m = links[l].mass;
    bodyMass.push(m);
    // R·I·Rᵀ + m·(|d|²E − d dᵀ), d = xipos − c
    const c = subtree(root[l]);
    const d: V3 = [com[l][0] - c[0], com[l][1] - c[1], com[l][2] - c[2]];
    const [xx, yy, zz, xy, xz, yz] = links[l].inertia;
    const Ib = [xx, xy, xz, xy, yy, yz, xz, yz, zz];
    const I = (i: number, j: number): number => {
      let s = 0;
      for (let a = 0; a < 3; a++) for (let k = 0; k < 3; k++) s += R[i * 3 + a] * Ib[a * 3 + k] * R[j * 3 + k];
      return s + m * ((i === j ? d[0] * d[0] + d[1] * d[1] + d[2] * d[2] : 0) - d[i] * d[j]);
    };
    cinert.push([I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2), m * d[0], m * d[1], m * d[2], m]);
    const w = mulR(
      R,
      [0, 1, 2].map((e) => at(rec.bodyVel, l * 6 + e)),
    );
    const v = mulR(
      R,
      [3, 4, 5].map((e) => at(rec.bodyVel, l * 6 + e)),
    );
    const arm = cross(w, [c[0] - P[l][0], c[1] - P[l][1], c[2] - P[l][2]]);
    cvel.push([...w, v[0] + arm[0], v[1] + arm[1], v[2] + arm[2]]);
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
