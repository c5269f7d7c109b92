// The MJCF sensors (ir.ts IrSensor) compiled against the engine's model: each object named is
// resolved to what the engine's evaluation reads (engine/mjcf-sensors.ts), and each sensor gets
// MuJoCo's sensor_adr and sensor_dim (adr: the running sum of the dims, in file order).

import type { ActuatorDesc, BodyDesc, MjcfSensorDesc, Quat, SensorFrameDesc, TendonDesc, Vec3 } from '../../engine/model-desc.js';
import { coordinateLayout } from '../../engine/model-desc.js';
import { SceneError } from '../common/errors.js';
import { principalOf } from './geom-inertia.js';
import type { BodyMap, IrModel, IrSensor, SensorObjType, SensorType } from './ir.js';

const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const IDENTITY: Quat = [1, 0, 0, 0];

/** MuJoCo's sensor_dim and sensor_datatype of each type the importer follows. */
function shapeOf(type: SensorType): { dim: number; datatype: MjcfSensorDesc['datatype'] } {
  switch (type) {
    case 'jointpos':
    case 'jointvel':
    case 'actuatorpos':
    case 'actuatorvel':
    case 'actuatorfrc':
      return { dim: 1, datatype: 'real' };
    case 'framequat':
      return { dim: 4, datatype: 'quaternion' };
    case 'touch':
      return { dim: 1, datatype: 'positive' };
    case 'framexaxis':
    case 'frameyaxis':
    case 'framezaxis':
      return { dim: 3, datatype: 'axis' };
    default:
      return { dim: 3, datatype: 'real' };
  }
}

export function compileSensors(
  ir: IrModel,
  bodies: BodyDesc[],
  bodyMap: BodyMap[],
  jointLink: Map<string, number>,
  actuators: ActuatorDesc[],
  tendons: TendonDesc[],
): MjcfSensorDesc[] {
  const { qOffset, vOffset } = coordinateLayout(bodies);
  const missing = (s: IrSensor, what: string, name: string, expected: string): never => {
    throw new SceneError({
      ...s.objSource,
      subject: s.name ? `sensor '${s.name}'` : `<${s.type}>`,
      found: `${what} '${name}', which the model does not have`,
      expected,
    });
  };
  const bodyIndex = (s: IrSensor, name: string): number => {
    if (name === 'world') return -1;
    const i = ir.bodies.findIndex((b) => b.name === name);
    return i >= 0 ? i : missing(s, 'body', name, 'the name of a body');
  };
  /** The frame of MuJoCo object (type, name) in its link (get_xpos_xmat, get_xquat). */
  const frameOf = (s: IrSensor, type: SensorObjType, name: string): SensorFrameDesc => {
    if (type === 'xbody' || type === 'body') {
      const b = bodyIndex(s, name);
      if (b < 0) return { link: -1, pos: [0, 0, 0], quat: IDENTITY }; // the world: xipos = xpos = 0
      const { link, offset } = bodyMap[b];
      if (type === 'xbody') return { link, pos: offset, quat: IDENTITY };
      const B = ir.bodies[b];
      // mjOBJ_BODY: the inertial frame, xipos and xquat·body_iquat
      return { link, pos: add(offset, B.ipos), quat: (B.principal ?? principalOf(B.inertia)).quat };
    }
    for (let b = 0; b < ir.bodies.length; b++) {
      const B = ir.bodies[b];
      const found = type === 'site' ? B.sites?.find((x) => x.name === name) : B.geoms.find((x) => x.name === name);
      if (found) return { link: bodyMap[b].link, pos: add(bodyMap[b].offset, found.pos), quat: found.quat };
    }
    const world = type === 'site' ? ir.worldSites?.find((x) => x.name === name) : ir.worldGeoms.find((x) => x.name === name);
    if (world) return { link: -1, pos: world.pos, quat: world.quat };
    return missing(
      s,
      type,
      name,
      `the name of a ${type}${type === 'geom' ? ' that collides (geoms with contype = conaffinity = 0 are not kept)' : ''}`,
    );
  };
  const joint = (s: IrSensor): number => {
    const link = jointLink.get(s.objname);
    if (link === undefined) return missing(s, 'joint', s.objname, 'the name of a hinge or slide joint');
    const t = bodies[link].joint;
    if (t !== 'revolute' && t !== 'prismatic')
      throw new SceneError({
        ...s.objSource,
        subject: `sensor '${s.name}'`,
        found: `a ${t} joint`,
        expected: 'a hinge or slide joint (MuJoCo: "joint must be slide or hinge in sensor")',
      });
    return link;
  };
  /** actuator_length (or velocity) as Σ coef·x over q (or v): gear·x of a joint, gear·Σ coef·x of a fixed tendon. */
  const actuatorTerms = (a: ActuatorDesc, offset: number[]): { index: number; coef: number }[] =>
    a.tendon !== undefined
      ? tendons[a.tendon].joints.map((j) => ({ index: offset[j.body], coef: a.gear[0] * j.coef }))
      : [{ index: offset[a.body], coef: a.gear[0] }];
  const actuator = (s: IrSensor): number => {
    const k = actuators.findIndex((a) => a.name === s.objname);
    return k >= 0 ? k : missing(s, 'actuator', s.objname, 'the name of an actuator');
  };

  let adr = 0;
  return (ir.sensors ?? []).map((s) => {
    const { dim, datatype } = shapeOf(s.type);
    const d: MjcfSensorDesc = { name: s.name, type: s.type, adr, dim, datatype, cutoff: s.cutoff, noise: s.noise, source: s.source };
    adr += dim;
    switch (s.type) {
      case 'jointpos':
        d.terms = [{ index: qOffset[joint(s)], coef: 1 }];
        break;
      case 'jointvel':
        d.terms = [{ index: vOffset[joint(s)], coef: 1 }];
        break;
      case 'actuatorpos':
        d.terms = actuatorTerms(actuators[actuator(s)], qOffset);
        break;
      case 'actuatorvel':
        d.terms = actuatorTerms(actuators[actuator(s)], vOffset);
        break;
      case 'actuatorfrc':
        d.actuator = actuator(s);
        break;
      case 'subtreecom': {
        const root = bodyIndex(s, s.objname);
        const inside = (b: number): boolean => b === root || (b >= 0 && inside(ir.bodies[b].parent));
        const members = ir.bodies.map((_, b) => b).filter((b) => root < 0 || inside(b));
        if (!members.some((b) => ir.bodies[b].mass > 0))
          throw new SceneError({
            ...s.objSource,
            subject: `sensor '${s.name}'`,
            found: `body '${s.objname}', whose subtree has no mass`,
            expected: 'a body whose subtree has mass (MuJoCo then reads the body centre itself; not followed)',
          });
        d.links = members.map((b) => bodyMap[b].link);
        break;
      }
      case 'gyro':
      case 'velocimeter':
      case 'accelerometer':
        d.obj = frameOf(s, 'site', s.objname);
        break;
      case 'touch': {
        // the site's zone: its shape and size (mju_rayGeom of the contact rays)
        d.obj = frameOf(s, 'site', s.objname);
        const site = [...ir.bodies.flatMap((b) => b.sites ?? []), ...(ir.worldSites ?? [])].find((x) => x.name === s.objname)!;
        d.zone = { type: site.type, size: site.size };
        break;
      }
      case 'force':
      case 'torque': {
        // cfrc_int of the site's body: the subtree's inertial forces less its contact wrenches, which
        // the engine keeps about the subtree centre of mass of the body's tree (hence the tree's links)
        d.obj = frameOf(s, 'site', s.objname);
        const body = ir.bodies.findIndex((b) => b.sites?.some((x) => x.name === s.objname));
        const refuse = (found: string, expected: string): never => {
          throw new SceneError({ ...s.objSource, subject: `sensor '${s.name}'`, found, expected });
        };
        if (body < 0) refuse('a site of the world body', 'a site on a moving body (the world has no interaction force)');
        if ((ir.equalities ?? []).some((e) => e.type === 'connect' || e.type === 'weld'))
          refuse(
            `a ${s.type} sensor in a model with connect or weld constraints`,
            "a model without them (their forces enter MuJoCo's cfrc_ext; the engine's contact wrenches do not carry them yet)",
          );
        let root = body;
        while (ir.bodies[root].parent >= 0) root = ir.bodies[root].parent;
        const under = (b: number, top: number): boolean => b === top || (b >= 0 && under(ir.bodies[b].parent, top));
        d.links = ir.bodies
          .map((_, b) => b)
          .filter((b) => under(b, body))
          .map((b) => bodyMap[b].link);
        d.treeLinks = ir.bodies
          .map((_, b) => b)
          .filter((b) => under(b, root))
          .map((b) => bodyMap[b].link);
        break;
      }
      default:
        d.obj = frameOf(s, s.objtype as SensorObjType, s.objname);
        if (s.ref) d.ref = frameOf({ ...s, objSource: s.ref.source }, s.ref.type, s.ref.name);
    }
    return d;
  });
}
