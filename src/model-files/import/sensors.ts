// The MJCF sensors (ir.ts IrSensor) compiled against the engine's model: each object named is
// resolved to what the engine's evaluation reads (engine/mjcf-sensors.ts), and each sensor gets
// MuJoCo's sensor_adr and sensor_dim (adr: the running sum of the dims, in file order).

import type { ActuatorDesc, BodyDesc, MjcfSensorDesc, Quat, SensorFrameDesc, TendonDesc, Vec3 } from '../../engine/model-desc.js';
import { coordinateLayout } from '../../engine/model-desc.js';
import { add3 } from '../../engine/math.js';
import { SceneError } from '../common/errors.js';
import { principalOf } from './geom-inertia.js';
import type { BodyMap, IrModel, IrSensor, SensorObjType, SensorType } from './ir.js';

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

/** What a sensor's object names resolve to in the engine's model, each name not found refused at its
 *  attribute. */
class SensorObjects {
  private readonly qOffset: number[];
  private readonly vOffset: number[];

  constructor(
    private readonly ir: IrModel,
    private readonly bodies: BodyDesc[],
    private readonly bodyMap: BodyMap[],
    private readonly jointLink: Map<string, number>,
    private readonly actuators: ActuatorDesc[],
    private readonly tendons: TendonDesc[],
  ) {
    ({ qOffset: this.qOffset, vOffset: this.vOffset } = coordinateLayout(bodies));
  }

  missing(s: IrSensor, what: string, name: string, expected: string): never {
    throw new SceneError({
      ...s.objSource,
      subject: s.name ? `sensor '${s.name}'` : `<${s.type}>`,
      found: `${what} '${name}', which the model does not have`,
      expected,
    });
  }

  bodyIndex(s: IrSensor, name: string): number {
    if (name === 'world') return -1;
    const i = this.ir.bodies.findIndex((b) => b.name === name);
    return i >= 0 ? i : this.missing(s, 'body', name, 'the name of a body');
  }

  /** The frame of MuJoCo object (type, name) in its link (get_xpos_xmat, get_xquat). */
  frameOf(s: IrSensor, type: SensorObjType, name: string): SensorFrameDesc {
    const { ir, bodyMap } = this;
    if (type === 'xbody' || type === 'body') {
      const b = this.bodyIndex(s, name);
      if (b < 0) return { link: -1, pos: [0, 0, 0], quat: IDENTITY }; // the world: xipos = xpos = 0
      const { link, offset } = bodyMap[b];
      if (type === 'xbody') return { link, pos: offset, quat: IDENTITY };
      const B = ir.bodies[b];
      // mjOBJ_BODY: the inertial frame, xipos and xquat·body_iquat
      return { link, pos: add3(offset, B.ipos), quat: (B.principal ?? principalOf(B.inertia)).quat };
    }
    for (let b = 0; b < ir.bodies.length; b++) {
      const B = ir.bodies[b];
      const found = type === 'site' ? B.sites?.find((x) => x.name === name) : B.geoms.find((x) => x.name === name);
      if (found) return { link: bodyMap[b].link, pos: add3(bodyMap[b].offset, found.pos), quat: found.quat };
    }
    const world = type === 'site' ? ir.worldSites?.find((x) => x.name === name) : ir.worldGeoms.find((x) => x.name === name);
    if (world) return { link: -1, pos: world.pos, quat: world.quat };
    return this.missing(
      s,
      type,
      name,
      `the name of a ${type}${type === 'geom' ? ' that collides (geoms with contype = conaffinity = 0 are not kept)' : ''}`,
    );
  }

  /** A hinge or slide joint's coordinate as Σ coef·x over q (or v). */
  jointTerms(s: IrSensor, on: 'q' | 'v'): { index: number; coef: number }[] {
    const link = this.jointLink.get(s.objname);
    if (link === undefined) return this.missing(s, 'joint', s.objname, 'the name of a hinge or slide joint');
    const t = this.bodies[link].joint;
    if (t !== 'revolute' && t !== 'prismatic')
      throw new SceneError({
        ...s.objSource,
        subject: `sensor '${s.name}'`,
        found: `a ${t} joint`,
        expected: 'a hinge or slide joint (MuJoCo: "joint must be slide or hinge in sensor")',
      });
    return [{ index: (on === 'q' ? this.qOffset : this.vOffset)[link], coef: 1 }];
  }

  actuator(s: IrSensor): number {
    const k = this.actuators.findIndex((a) => a.name === s.objname);
    return k >= 0 ? k : this.missing(s, 'actuator', s.objname, 'the name of an actuator');
  }

  /** actuator_length (or velocity) as Σ coef·x over q (or v): gear·x of a joint, gear·Σ coef·x of a fixed tendon. */
  actuatorTerms(s: IrSensor, on: 'q' | 'v'): { index: number; coef: number }[] {
    const a = this.actuators[this.actuator(s)];
    const offset = on === 'q' ? this.qOffset : this.vOffset;
    return a.tendon !== undefined
      ? this.tendons[a.tendon].joints.map((j) => ({ index: offset[j.body], coef: a.gear[0] * j.coef }))
      : [{ index: offset[a.body], coef: a.gear[0] }];
  }

  /** The links of the subtree a subtreecom sensor weighs (all bodies for the world). */
  subtreeLinks(s: IrSensor): number[] {
    const { ir } = this;
    const root = this.bodyIndex(s, s.objname);
    const inside = (b: number): boolean => b === root || (b >= 0 && inside(ir.bodies[b].parent));
    const members = ir.bodies.map((_, b) => b).filter((b) => root < 0 || inside(b));
    if (!members.some((b) => ir.bodies[b].mass > 0))
      throw new SceneError({
        ...s.objSource,
        subject: `sensor '${s.name}'`,
        found: `body '${s.objname}', whose subtree has no mass`,
        expected: 'a body whose subtree has mass (MuJoCo then reads the body centre itself; not followed)',
      });
    return members.map((b) => this.bodyMap[b].link);
  }

  /** A force or torque sensor's cfrc_int of the site's body: the subtree's inertial forces less its
   *  contact wrenches, which the engine keeps about the subtree centre of mass of the body's tree
   *  (hence the tree's links). */
  interactionLinks(s: IrSensor): { links: number[]; treeLinks: number[] } {
    const { ir, bodyMap } = this;
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
    const linksUnder = (top: number): number[] =>
      ir.bodies
        .map((_, b) => b)
        .filter((b) => under(b, top))
        .map((b) => bodyMap[b].link);
    return { links: linksUnder(body), treeLinks: linksUnder(root) };
  }

  /** A touch sensor's zone: its site's shape and size (mju_rayGeom of the contact rays). */
  zone(s: IrSensor): MjcfSensorDesc['zone'] {
    const { ir } = this;
    const site = [...ir.bodies.flatMap((b) => b.sites ?? []), ...(ir.worldSites ?? [])].find((x) => x.name === s.objname)!;
    return { type: site.type, size: site.size };
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
  const o = new SensorObjects(ir, bodies, bodyMap, jointLink, actuators, tendons);
  let adr = 0;
  return (ir.sensors ?? []).map((s) => {
    const { dim, datatype } = shapeOf(s.type);
    const d: MjcfSensorDesc = { name: s.name, type: s.type, adr, dim, datatype, cutoff: s.cutoff, noise: s.noise, source: s.source };
    adr += dim;
    switch (s.type) {
      case 'jointpos':
      case 'jointvel':
        d.terms = o.jointTerms(s, s.type === 'jointpos' ? 'q' : 'v');
        break;
      case 'actuatorpos':
      case 'actuatorvel':
        d.terms = o.actuatorTerms(s, s.type === 'actuatorpos' ? 'q' : 'v');
        break;
      case 'actuatorfrc':
        d.actuator = o.actuator(s);
        break;
      case 'subtreecom':
        d.links = o.subtreeLinks(s);
        break;
      case 'gyro':
      case 'velocimeter':
      case 'accelerometer':
        d.obj = o.frameOf(s, 'site', s.objname);
        break;
      case 'touch':
        d.obj = o.frameOf(s, 'site', s.objname);
        d.zone = o.zone(s);
        break;
      case 'force':
      case 'torque':
        d.obj = o.frameOf(s, 'site', s.objname);
        Object.assign(d, o.interactionLinks(s));
        break;
      default:
        d.obj = o.frameOf(s, s.objtype as SensorObjType, s.objname);
        if (s.ref) d.ref = o.frameOf({ ...s, objSource: s.ref.source }, s.ref.type, s.ref.name);
    }
    return d;
  });
}
