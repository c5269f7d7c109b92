// <worldbody> and <body>, as MuJoCo's mjXReader::Body: the body tree depth first (MuJoCo's body
// order), each body's frame, then its children in file order (joints, geoms, inertial; the sites an
// equality constraint names (site.ts); other sites, cameras and lights skipped with a note), its
// inertia, and last its child bodies. The
// meta-elements <frame> (frame.ts) and <replicate> (replicate.ts) create no body: their children
// belong to the enclosing body, read in place (once per replica), each placed by the frame between
// them and that body, so joints, geoms and child bodies keep MuJoCo's document order.

import { quote } from '../../common/errors.js';
import type { IrBody, IrGeom, IrSite } from '../ir.js';
import { describeEl, type Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';
import { sections, vec3, type MjcfContext } from './context.js';
import { checkClass, classOf } from './defaults.js';
import { checkPlaced, framePlacement, placeGeom, placeJoint, placePose, type Placement, type Pose } from './frame.js';
import { readGeom } from './geom.js';
import { setBodyInertia } from './inertial.js';
import { readJoint } from './joint.js';
import { orientation } from './orientation.js';
import { noteReplicatedName, replicaPlacements } from './replicate.js';
import { readSite } from './site.js';

/** What a body's elements (its own and those in its frames and replicas) add up to. */
interface BodyContent {
  geoms: IrGeom[];
  /** Its sites, in file order. */
  sites: IrSite[];
  inertial?: { el: XmlElement; frame?: Pose };
  /** Child bodies in MuJoCo's order, each with where it lands. */
  bodies: { el: XmlElement; placement: Placement }[];
}

/** Every <worldbody> (at least one): its geoms are the world's, its bodies the roots of the tree. */
export function readWorldbodies(ctx: MjcfContext): void {
  const worldbody = sections(ctx, 'worldbody');
  if (worldbody.length === 0) ctx.r.fail(ctx.root, '<mujoco>', 'no <worldbody>', "a <worldbody> with the robot's bodies");
  for (const wb of worldbody) {
    const content: BodyContent = { geoms: [], sites: [], bodies: [] };
    readBodyChildren(ctx, wb, undefined, { childclass: 'main', suffix: '', copies: 1 }, content);
    ctx.ir.worldGeoms.push(...content.geoms);
    if (content.sites.length) (ctx.ir.worldSites ??= []).push(...content.sites);
    for (const b of content.bodies) readBody(ctx, b.el, -1, b.placement);
  }
}

/** A <body> whose parent is body `parent` (-1: the world), placed by `placement`. */
function readBody(ctx: MjcfContext, el: XmlElement, parent: number, placement: Placement): void {
  const r: Reader = ctx.r;
  const { ir } = ctx;
  const cc = el.attrs.get('childclass');
  if (cc) checkClass(ctx, cc, `${describeEl(el)} childclass`);
  const given = el.attrs.get('name')?.value;
  const name = given !== undefined ? given + placement.suffix : `body${ir.bodies.length + 1}`;
  if (given !== undefined) noteReplicatedName(ctx, 'body', given, placement);
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
  placePose(placement.frame, body);
  checkPlaced(ctx, el, body.pos);
  const bi = ir.bodies.length;
  ir.bodies.push(body);
  // The body's own elements: no frame between them and it yet; the replicas' suffix goes on.
  const content: BodyContent = { geoms: [], sites: [], bodies: [] };
  const own: Placement = { childclass: cc?.value ?? placement.childclass, suffix: placement.suffix, copies: placement.copies };
  if (placement.copiedBy) own.copiedBy = placement.copiedBy;
  readBodyChildren(ctx, el, body, own, content);
  body.geoms = content.geoms;
  if (content.sites.length) body.sites = content.sites;
  setBodyInertia(ctx, body, content.geoms, content.inertial?.el, content.inertial?.frame);
  for (const b of content.bodies) readBody(ctx, b.el, bi, b.placement);
}

/** The elements of `el` (a body, or the world body when `body` is undefined; or a <frame> or
 *  <replicate> inside one) other than child bodies, in file order: joints are added to the body,
 *  geoms, the <inertial> and the child bodies to `content`. */
function readBodyChildren(ctx: MjcfContext, el: XmlElement, body: IrBody | undefined, placement: Placement, content: BodyContent): void {
  const r: Reader = ctx.r;
  const isWorld = body === undefined;
  const bodyName = body?.name ?? 'world';
  for (const c of el.children) {
    switch (c.name) {
      case 'body':
        content.bodies.push({ el: c, placement });
        break;
      case 'inertial':
        if (isWorld) r.fail(c, '<inertial>', 'an inertial in <worldbody>', 'inertials only in bodies');
        if (placement.replicate)
          r.fail(
            c,
            '<inertial>',
            `an <inertial> inside a <replicate> (line ${placement.replicate.line}) of body '${bodyName}'`,
            "the body's <inertial> outside the replicate (MuJoCo drops an inertial inside one)",
          );
        if (content.inertial)
          r.fail(
            c,
            '<inertial>',
            `a second <inertial> for body '${bodyName}' (the first at line ${content.inertial.el.line})`,
            'one <inertial> per body, frames included',
          );
        content.inertial = { el: c, frame: placement.frame };
        break;
      case 'joint':
      case 'freejoint': {
        if (isWorld) r.fail(c, `<${c.name}>`, 'a joint in <worldbody>', 'joints only in bodies');
        if (c.name === 'freejoint' && placement.replicate)
          r.fail(
            c,
            '<freejoint>',
            `a <freejoint> inside a <replicate> (line ${placement.replicate.line})`,
            'a free joint outside replicate, or in a body the replicate copies (MuJoCo: "the replicate expansion rejects them")',
          );
        const j = readJoint(ctx, c, classOf(ctx, c, placement.childclass), bodyName, body.joints.length);
        const given = c.attrs.get('name')?.value;
        if (given !== undefined) {
          j.name = given + placement.suffix;
          noteReplicatedName(ctx, 'joint', given, placement);
        }
        placeJoint(placement.frame, j);
        checkPlaced(ctx, c, j.pos);
        body.joints.push(j);
        break;
      }
      case 'geom': {
        const g = readGeom(ctx, c, classOf(ctx, c, placement.childclass), bodyName, content.geoms.length, isWorld);
        if (g) {
          if (c.attrs.get('name')) g.name += placement.suffix;
          placeGeom(placement.frame, g);
          checkPlaced(ctx, c, g.pos);
          content.geoms.push(g);
        }
        break;
      }
      case 'frame':
        readBodyChildren(ctx, c, body, framePlacement(ctx, c, placement), content);
        break;
      case 'replicate':
        for (const copy of replicaPlacements(ctx, c, placement)) readBodyChildren(ctx, c, body, copy, content);
        break;
      case 'site': {
        // Every site is kept, in MuJoCo's order (site_xpos, which tasks read) and for the equality
        // constraints that name them; unnamed ones as ''.
        const given = c.attrs.get('name')?.value;
        const name = given === undefined ? '' : given + placement.suffix;
        const site = readSite(ctx, c, classOf(ctx, c, placement.childclass), name);
        placePose(placement.frame, site);
        checkPlaced(ctx, c, site.pos);
        content.sites.push(site);
        if (given !== undefined) noteReplicatedName(ctx, 'site', given, placement);
        if (!ctx.equalitySites.has(name) || name === '')
          ctx.note(
            'skipped',
            c,
            '<site> does not change the dynamics: a site only marks a point (its position is kept, for the tasks that read site_xpos and the sensors that read it; spatial tendons on sites are not imported)',
          );
        break;
      }
      case 'camera':
      case 'light':
        ctx.note('skipped', c, `<${c.name}> does not change the dynamics: it is for rendering`);
        break;
      case 'composite':
      case 'flexcomp':
      case 'plugin':
      case 'attach':
        r.fail(
          c,
          `<${c.name}>`,
          `<${c.name}> in a body`,
          'body, frame, replicate, inertial, joint, freejoint, geom, site, camera, light (composite, flexcomp, plugin and attach are not supported)',
        );
        break;
      default:
        r.fail(
          c,
          `<${c.name}>`,
          'an element MJCF does not define in a body',
          'body, frame, replicate, inertial, joint, freejoint, geom, site, camera, light',
        );
    }
  }
}
