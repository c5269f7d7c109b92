// Which collider answers a pair, in the engine and in MuJoCo 3.14 (engine_collision_driver.c's
// table; the engine follows it: native collision/convex_pair.hpp), and where MuJoCo's answer is
// itself approximate. The closed forms (sphere, capsule, box and plane among themselves; a plane
// with a cylinder, an ellipsoid or a mesh; sphere–cylinder) are exact to round-off; every other pair
// with a cylinder, an ellipsoid or a mesh goes to the general convex collider (GJK, then EPA when
// overlapping), which stops once its bounds are ccd_tolerance apart (an absolute length, 1e-6 m by
// default) or after ccd_iterations, and adds multiccd's points: the query rerun with both shapes
// tilted by ±1e-3 rad about the first contact.

import { CCD_DEFAULTS } from '../../model-files/import/convex-pairs.js';
import type { ShapeKind } from '../../engine/model-desc.js';

/** MuJoCo's ccd_tolerance (m) and ccd_iterations, the engine's too. */
export const CCD_TOLERANCE = CCD_DEFAULTS.ccd_tolerance;
export const CCD_ITERATIONS = CCD_DEFAULTS.ccd_iterations;
/** multiccd's tilt of each shape about the first contact (rad; convex.hpp). */
export const MULTICCD_TILT = 1e-3;

const isNew = (k: ShapeKind) => k === 'cylinder' || k === 'ellipsoid' || k === 'convex';

/** 'ccd' when the pair goes to the general convex collider (engine and MuJoCo alike), else 'closed-form'. */
export function pairCollider(a: ShapeKind, b: ShapeKind): 'ccd' | 'closed-form' {
  if (!isNew(a) && !isNew(b)) return 'closed-form';
  if (a === 'plane' || b === 'plane') return 'closed-form';
  if ((a === 'sphere' && b === 'cylinder') || (a === 'cylinder' && b === 'sphere')) return 'closed-form';
  return 'ccd';
}

/** Whether multiccd may add points (mjc_Convex with neither shape a sphere or an ellipsoid). */
export const multiccdPossible = (a: ShapeKind, b: ShapeKind): boolean =>
  pairCollider(a, b) === 'ccd' && ![a, b].some((k) => k === 'sphere' || k === 'ellipsoid');

/** Why MuJoCo's answer on the pair is not exact to round-off ('' where it is). */
export function mujocoApproximation(a: ShapeKind, b: ShapeKind): string {
  const why: string[] = [];
  if (pairCollider(a, b) === 'ccd')
    why.push(`convex collider (GJK/EPA) to ccd_tolerance ${CCD_TOLERANCE} m within ${CCD_ITERATIONS} iterations`);
  if (multiccdPossible(a, b)) why.push(`multiccd's extra points from shapes tilted by ${MULTICCD_TILT} rad`);
  if (a === 'convex' || b === 'convex') why.push('mesh vertices stored in float32');
  return why.join('; ');
}
