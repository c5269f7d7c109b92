// MJCF actuators as the engine's: on a hinge or slide joint's link, pulling a fixed tendon, or pulling
// a body onto its contacts (an adhesion: MuJoCo's body transmission, on the body's last link, which
// carries its geoms).

import type { ActuatorDesc } from '../../engine/model-desc.js';
import { SceneError } from '../common/errors.js';
import type { Links } from './compile-links.js';
import type { BodyMap, IrActuator, IrModel, IrTendon } from './ir.js';

export function actuatorsOf(ir: IrModel, { bodies, bodyMap, jointLink }: Links): ActuatorDesc[] {
  return ir.actuators.map((a) => {
    if (a.tendon !== undefined) return tendonActuator(a, ir.tendons ?? []);
    if (a.body !== undefined) return bodyActuator(a, ir, bodyMap);
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

/** An actuator on a body's contacts (MuJoCo's mjTRN_BODY): the body's link. MuJoCo accepts a body none
 *  of whose geoms can collide (or the world) and the actuator then never acts; such a file is refused. */
function bodyActuator(a: IrActuator, ir: IrModel, bodyMap: readonly BodyMap[]): ActuatorDesc {
  const fail = (found: string, expected: string): never => {
    throw new SceneError({ ...a.source, subject: `actuator '${a.name}'`, found, expected });
  };
  if (a.body === 'world') fail("body 'world'", 'a moving body with a geom that collides (the world has no degrees of freedom to pull)');
  const i = ir.bodies.findIndex((b) => b.name === a.body);
  if (i < 0) fail(`body '${a.body}', which the model does not have`, 'the name of a body');
  if (!ir.bodies[i].geoms.some((g) => g.contype !== 0 || g.conaffinity !== 0))
    fail(
      `body '${a.body}', which has no geom that can collide`,
      "a body with a geom of contype or conaffinity > 0 (an adhesion acts through its body's contacts; here it would never act)",
    );
  const d: ActuatorDesc = {
    name: a.name,
    body: -1,
    bodyTransmission: bodyMap[i].link,
    kind: a.kind,
    gear: [1],
    kp: 0,
    kv: 0,
    source: a.source,
  };
  if (a.ctrlrange) d.ctrlrange = a.ctrlrange;
  if (a.forcerange) d.forcerange = a.forcerange;
  if (a.general) d.general = a.general;
  return d;
}
