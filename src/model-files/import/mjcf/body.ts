// <worldbody> and <body>, as MuJoCo's mjXReader::Body: the body tree depth first (MuJoCo's body
// order), each body's frame, then its children in file order (joints, geoms, inertial; sites,
// cameras and lights skipped with a note), its inertia, and last its child bodies.

import { quote } from '../../common/errors.js';
import type { IrBody, IrGeom } from '../ir.js';
import { describeEl, type Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';
import { sections, vec3, type MjcfContext } from './context.js';
import { checkClass, classOf } from './defaults.js';
import { readGeom } from './geom.js';
import { setBodyInertia } from './inertial.js';
import { readJoint } from './joint.js';
import { orientation } from './orientation.js';

/** Every <worldbody> (at least one): its geoms are the world's, its bodies the roots of the tree. */
export function readWorldbodies(ctx: MjcfContext): void {
  const worldbody = sections(ctx, 'worldbody');
  if (worldbody.length === 0) ctx.r.fail(ctx.root, '<mujoco>', 'no <worldbody>', "a <worldbody> with the robot's bodies");
  for (const wb of worldbody) {
    const { geoms } = readBodyChildren(ctx, wb, undefined, 'main');
    ctx.ir.worldGeoms.push(...geoms);
    for (const c of wb.children) if (c.name === 'body') readBody(ctx, c, -1, 'main');
  }
}

/** A <body> whose parent is body `parent` (-1: the world); `inherited` is the childclass above it. */
function readBody(ctx: MjcfContext, el: XmlElement, parent: number, inherited: string): void {
  const r: Reader = ctx.r;
  const { ir } = ctx;
  const cc = el.attrs.get('childclass');
  if (cc) checkClass(ctx, cc, `${describeEl(el)} childclass`);
  const ownClass = cc?.value ?? inherited;
  const name = el.attrs.get('name')?.value ?? `body${ir.bodies.length + 1}`;
  for (const f of ['mocap', 'gravcomp']) {
    const a = el.attrs.get(f);
    if (a && a.value !== 'false' && a.value !== '0') r.fail(a, `body '${name}' ${f}`, quote(a.value), `no ${f} (not supported)`);
  }
  const body: IrBody = {
    name,
    parent,
    pos: vec3(ctx, el.attrs.get('pos'), `body '${name}' pos`, [0, 0, 0]),
    quat: orientation(ctx, (n) => el.attrs.get(n), `body '${name}'`, el),
    joints: [],
    mass: 0,
    ipos: [0, 0, 0],
    inertia: [0, 0, 0, 0, 0, 0],
    geoms: [],
    source: r.span(el),
  };
  const bi = ir.bodies.length;
  ir.bodies.push(body);
  const { geoms, inertial } = readBodyChildren(ctx, el, body, ownClass);
  body.geoms = geoms;
  setBodyInertia(ctx, body, geoms, inertial);
  for (const c of el.children) if (c.name === 'body') readBody(ctx, c, bi, ownClass);
}

/** The elements of a body (`body` undefined: the world body) other than its child bodies, in file
 *  order: joints are added to the body; its geoms and its <inertial> (if any) are returned. */
function readBodyChildren(
  ctx: MjcfContext,
  el: XmlElement,
  body: IrBody | undefined,
  ownClass: string,
): { geoms: IrGeom[]; inertial?: XmlElement } {
  const r: Reader = ctx.r;
  const isWorld = body === undefined;
  const bodyName = body?.name ?? 'world';
  let inertial: XmlElement | undefined;
  const geoms: IrGeom[] = [];
  for (const c of el.children) {
    switch (c.name) {
      case 'body':
        break;
      case 'inertial':
        if (isWorld) r.fail(c, '<inertial>', 'an inertial in <worldbody>', 'inertials only in bodies');
        inertial = c;
        break;
      case 'joint':
      case 'freejoint':
        if (isWorld) r.fail(c, `<${c.name}>`, 'a joint in <worldbody>', 'joints only in bodies');
        body.joints.push(readJoint(ctx, c, classOf(ctx, c, ownClass), bodyName, body.joints.length));
        break;
      case 'geom': {
        const g = readGeom(ctx, c, classOf(ctx, c, ownClass), bodyName, geoms.length, isWorld);
        if (g) geoms.push(g);
        break;
      }
      case 'site':
      case 'camera':
      case 'light':
        ctx.note(
          'skipped',
          c,
          `<${c.name}> does not change the dynamics: ${c.name === 'site' ? 'a site only marks a point (for sensors and spatial tendons, which are not imported)' : 'it is for rendering'}`,
        );
        break;
      case 'frame':
      case 'replicate':
      case 'composite':
      case 'flexcomp':
      case 'plugin':
      case 'attach':
        r.fail(
          c,
          `<${c.name}>`,
          `<${c.name}> in a body`,
          'body, inertial, joint, freejoint, geom, site, camera, light (inline frames and replicates are not supported)',
        );
        break;
      default:
        r.fail(
          c,
          `<${c.name}>`,
          'an element MJCF does not define in a body',
          'body, inertial, joint, freejoint, geom, site, camera, light',
        );
    }
  }
  return { geoms, inertial };
}
