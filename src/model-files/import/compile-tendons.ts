// MJCF fixed tendons as the engine's: joints by name become their links.

import type { TendonDesc } from '../../engine/model-desc.js';
import { SceneError } from '../common/errors.js';
import type { Links } from './compile-links.js';
import type { IrModel } from './ir.js';

/** MuJoCo's default springlength (−1) is the length at the joints' spring references (qpos_spring:
 *  springref for hinges and slides). */
export function tendonsOf(ir: IrModel, { bodies, jointLink }: Links): TendonDesc[] {
  const springref = new Map<string, number>();
  for (const b of ir.bodies) for (const j of b.joints) springref.set(j.name, j.springref);
  return (ir.tendons ?? []).map((t) => {
    const d: TendonDesc = {
      name: t.name,
      joints: t.joints.map((j) => {
        const link = jointLink.get(j.joint);
        if (link === undefined)
          throw new SceneError({
            ...j.source,
            subject: `tendon '${t.name}'`,
            found: `joint '${j.joint}', which the model does not have`,
            expected: 'the name of a hinge or slide joint',
          });
        return { body: link, coef: j.coef };
      }),
      source: t.source,
    };
    // the engine's islands join at most two kinematic trees per constraint row (MuJoCo has no limit)
    const rootOf = (l: number): number => (bodies[l].parent < 0 ? l : rootOf(bodies[l].parent));
    const trees = new Set(d.joints.map((j) => rootOf(j.body)));
    if (trees.size > 2)
      throw new SceneError({
        ...t.source,
        subject: `tendon '${t.name}'`,
        found: `joints in ${trees.size} separate kinematic trees`,
        expected: 'joints of at most two trees (bodies under <worldbody>)',
      });
    if (t.range) d.range = t.range;
    if (t.limit) d.limit = t.limit;
    if (t.frictionloss) d.frictionloss = t.frictionloss;
    if (t.stiffness) d.stiffness = t.stiffness;
    if (t.damping) d.damping = t.damping;
    if (t.springlength) d.springlength = t.springlength;
    else if (t.stiffness) {
      const L = t.joints.reduce((s, j) => s + j.coef * (springref.get(j.joint) ?? 0), 0);
      d.springlength = [L, L];
    }
    return d;
  });
}
