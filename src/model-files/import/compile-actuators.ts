// MJCF actuators as the engine's: on a hinge or slide joint's link, or pulling a fixed tendon.

import type { ActuatorDesc } from '../../engine/model-desc.js';
import { SceneError } from '../common/errors.js';
import type { Links } from './compile-links.js';
import type { IrActuator, IrModel, IrTendon } from './ir.js';

export function actuatorsOf(ir: IrModel, { bodies, jointLink }: Links): ActuatorDesc[] {
  return ir.actuators.map((a) => {
    if (a.tendon !== undefined) return tendonActuator(a, ir.tendons ?? []);
    const link = jointLink.get(a.joint!);
    if (link === undefined)
      throw new SceneError({
        ...a.source,
        subject: `actuator '${a.name}'`,
        found: `joint '${a.joint}', which the model does not have`,
        expected: 'the name of a hinge or slide joint',
      });
    const j = bodies[link].joint;
    if (j !== 'revolute' && j !== 'prismatic')
      throw new SceneError({
        ...a.source,
        subject: `actuator '${a.name}'`,
        found: `a ${j} joint`,
        expected: 'a hinge or slide joint (actuators on ball and free joints are not supported yet)',
      });
    const d: ActuatorDesc = { name: a.name, body: link, kind: a.kind, gear: [a.gear], kp: a.kp, kv: a.kv, source: a.source };
    if (a.ctrlrange) d.ctrlrange = a.ctrlrange;
    if (a.forcerange) d.forcerange = a.forcerange;
    if (a.general) d.general = a.general;
    return d;
  });
}

/** An actuator pulling a fixed tendon (MuJoCo's mjTRN_TENDON): the tendon by its index, which is its
 *  place among the model's tendons (compiled in the same order). */
function tendonActuator(a: IrActuator, tendons: readonly IrTendon[]): ActuatorDesc {
  const tendon = tendons.findIndex((t) => t.name === a.tendon);
  if (tendon < 0)
    throw new SceneError({
      ...a.source,
      subject: `actuator '${a.name}'`,
      found: `tendon '${a.tendon}', which the model does not have`,
      expected: 'the name of a fixed tendon',
    });
  const d: ActuatorDesc = { name: a.name, body: -1, tendon, kind: a.kind, gear: [a.gear], kp: a.kp, kv: a.kv, source: a.source };
  if (a.ctrlrange) d.ctrlrange = a.ctrlrange;
  if (a.forcerange) d.forcerange = a.forcerange;
  if (a.general) d.general = a.general;
  return d;
}
