// An orientation in a scene: `quat: [w, x, y, z]` (normalised; a zero quaternion is an error) or
// `rpy: [r, p, y]` (radians, URDF order), never both. Links, shapes and inertia frames read it alike.

import type { Quat } from '../../engine/model-desc.js';
import { rpyToQuat } from '../../engine/math.js';
import { readVec, type Ctx, type Entry } from './yaml-read.js';

/** The orientation given by `quat` or `rpy` in the mapping m, or undefined when it gives neither. */
export function readOrientation(ctx: Ctx, m: Map<string, Entry>, subject: string): Quat | undefined {
  if (m.has('quat') && m.has('rpy')) ctx.fail(m.get('rpy')?.keyNode, subject, 'both `quat` and `rpy`', 'at most one of them');
  if (m.has('quat')) {
    const qn = m.get('quat')?.value;
    const q = readVec(ctx, qn, `${subject}.quat`, 4);
    const n = Math.hypot(...q);
    if (!(n > 1e-12)) ctx.fail(qn, `${subject}.quat`, 'a zero quaternion', 'a nonzero quaternion [w, x, y, z] (it is normalised)');
    return q.map((x) => x / n) as Quat;
  }
  if (m.has('rpy')) return rpyToQuat(readVec(ctx, m.get('rpy')?.value, `${subject}.rpy`, 3));
  return undefined;
}
