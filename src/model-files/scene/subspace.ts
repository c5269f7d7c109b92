// Maps the active columns of an arow-style motion subspace S (rows ωx ωy ωz vx vy vz) to one of the
// engine's joint types. Only the subspaces the engine implements exactly are accepted; anything
// else (screws, scaled axes, 2-DOF sets, ...) is refused rather than approximated.

import type { JointType, Vec3 } from '../../engine/model-desc.js';
import { norm3 } from '../../engine/math.js';

export const SUPPORTED_SUBSPACES =
  'no active column (fixed), one unit angular column (revolute), one unit linear column (prismatic), ' +
  'three columns equal to the angular identity (ball), or six columns equal to the 6x6 identity (free)';

const TOL = 1e-9;

export type SubspaceResult = { joint: JointType; axis: Vec3 } | { error: string };

/** `cols[k]` is the k-th active column, 6 numbers [ω; v]. */
export function classifySubspace(cols: readonly number[][]): SubspaceResult {
  const isUnit = (v: number[]): boolean => Math.abs(norm3(v) - 1) <= TOL;
  const isZero = (v: number[]): boolean => norm3(v) <= TOL;
  if (cols.length === 0) return { joint: 'fixed', axis: [0, 0, 1] };
  if (cols.length === 1) {
    const w = cols[0].slice(0, 3);
    const v = cols[0].slice(3, 6);
    if (isZero(v) && isUnit(w)) return { joint: 'revolute', axis: unitize(w) };
    if (isZero(w) && isUnit(v)) return { joint: 'prismatic', axis: unitize(v) };
    const why =
      isZero(w) || isZero(v)
        ? `a non-unit column [${cols[0].join(', ')}]`
        : `a screw (mixed angular and linear) column [${cols[0].join(', ')}]`;
    return { error: why };
  }
  const isIdentity = (rows: number, n: number): boolean =>
    cols.every((c, k) => c.every((x, r) => Math.abs(x - (r === k && r < rows ? 1 : 0)) <= TOL)) && cols.length === n;
  if (cols.length === 3 && isIdentity(3, 3)) return { joint: 'ball', axis: [0, 0, 1] };
  if (cols.length === 6 && isIdentity(6, 6)) return { joint: 'free', axis: [0, 0, 1] };
  return {
    error: `${cols.length} active columns that are not ${cols.length === 3 ? 'the angular identity' : cols.length === 6 ? 'the identity' : 'a supported set'}`,
  };
}

function unitize(v: number[]): Vec3 {
  const n = norm3(v);
  return [v[0] / n, v[1] / n, v[2] / n];
}
