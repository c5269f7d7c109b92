// MuJoCo's mj_collision (and mj_geomDistance) on the stage's pairs, one Python process for the
// batch (validation/mujoco_collide.py). Rounded boxes have no MuJoCo geom: those pairs are left out.

import { fileURLToPath } from 'node:url';
import { runPythonJson } from '../mujoco-ref.js';
import type { ShapePairCase } from './pairs.js';

export interface MujocoPairResult {
  count: number;
  dists: number[];
  points: number[][];
  /** Per contact, from a to b. */
  normals: number[][];
  geomDistance: number;
}

const SCRIPT = fileURLToPath(new URL('../../../validation/mujoco_collide.py', import.meta.url));

export const mujocoCanModel = (p: ShapePairCase) => p.a.kind !== 'rounded-box' && p.b.kind !== 'rounded-box';

/** MuJoCo's answer per pair (undefined for pairs with a rounded box). */
export async function mujocoContacts(python: string, pairs: readonly ShapePairCase[]): Promise<(MujocoPairResult | undefined)[]> {
  const idx = pairs.map((p, i) => (mujocoCanModel(p) ? i : -1)).filter((i) => i >= 0);
  const req = idx.map((i) => {
    const p = pairs[i];
    return { a: p.a, b: p.b, poseA: p.poseA, poseB: p.poseB, margin: p.margin, distmax: 2 * p.size };
  });
  const res = (await runPythonJson(python, SCRIPT, { pairs: req }, req.length)) as MujocoPairResult[];
  const out: (MujocoPairResult | undefined)[] = pairs.map(() => undefined);
  idx.forEach((i, k) => (out[i] = res[k]));
  return out;
}
