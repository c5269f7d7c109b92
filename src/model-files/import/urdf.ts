// URDF → the import IR, as MuJoCo's own URDF reader (xml_urdf.cc) compiles it by default:
// links become bodies in depth-first order from the root links (children in joint order), the
// joint's origin places the child, the root links are welded to the world, visual geometry is
// discarded, and bodies without joints (fixed joints, the roots) are fused into their parent
// (compiler fusestatic, on for URDF): their mass, inertia and collision geometry join the parent's,
// the root's join the world. A link without <inertial> gets its mass from its collision geometry
// at 1000 kg/m³, as in MuJoCo (plain URDF would make it massless): the import says so.

import { dirname, isAbsolute, join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { DEFAULT_ROLLING_FRICTION, DEFAULT_TORSIONAL_FRICTION, type Quat, type Vec3 } from '../../engine/model-desc.js';
import { inertiaProblem, quatMul, quatRotate, rotateInertia, type Inertia6 } from '../../engine/math.js';
import { urdfRpyQuat, zaxisQuat } from './frames.js';
import { inertiaFromGeoms, inertiaOverflows, inferGeomMass, offCentre } from './geom-inertia.js';
import type { ImportNote, IrBody, IrGeom, IrJoint, IrModel } from './ir.js';
import { readMeshFile } from './mesh/load.js';
import { applyMesh } from './mesh/geom.js';
import { MeshError, processMesh } from './mesh/process.js';
import { quote } from '../common/errors.js';
import type { Reader } from './read-attrs.js';
import type { Pos, XmlAttr, XmlElement } from './xml.js';

const JOINT_TYPES = ['revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar', 'spherical'] as const;

interface Link {
  el: XmlElement;
  name: string;
  parent: number;
  joint?: XmlElement;
  children: number[];
}

export function readUrdf(r: Reader, root: XmlElement, notes: ImportNote[]): IrModel {
  const note = (kind: ImportNote['kind'], at: Pos, message: string): void => void notes.push({ kind, source: r.span(at), message });
  const child = (el: XmlElement, name: string): XmlElement | undefined => el.children.find((c) => c.name === name);
  const need = (el: XmlElement, name: string, subject: string): XmlAttr =>
    el.attrs.get(name) ?? r.fail(el, subject, `no ${name}`, `${name}="..."`);
  const links: Link[] = [];
  const byName = new Map<string, number>();
  for (const c of root.children) {
    if (c.name === 'link') {
      const name = need(c, 'name', '<link>').value;
      if (byName.has(name)) r.fail(c, `link '${name}'`, 'a second link of this name', 'unique link names');
      byName.set(name, links.length);
      links.push({ el: c, name, parent: -1, children: [] });
    } else if (c.name === 'joint') continue;
    else if (c.name === 'mujoco') note('skipped', c, 'the <mujoco> extension is not read (compiler and option keep their defaults)');
    else if (['material', 'gazebo', 'transmission'].includes(c.name)) note('skipped', c, `<${c.name}> does not change the dynamics`);
    // MuJoCo's URDF reader looks only for the elements it knows and ignores the rest (ros2_control,
    // extensions of other tools): so does the import, with a note
    else note('skipped', c, `<${quote(c.name, 60, '')}> is not URDF's; MuJoCo's URDF reader ignores it, and so does the import`);
  }
  if (links.length === 0) r.fail(root, '<robot>', 'no links', 'at least one <link>');
  for (const j of root.children.filter((c) => c.name === 'joint')) {
    const name = need(j, 'name', '<joint>').value;
    const p = child(j, 'parent');
    const ch = child(j, 'child');
    if (!p || !ch) r.fail(j, `joint '${name}'`, 'a missing <parent> or <child>', '<parent link="A"/> and <child link="B"/>');
    const pi = byName.get(need(p, 'link', `joint '${name}' parent`).value);
    const ci = byName.get(need(ch, 'link', `joint '${name}' child`).value);
    if (pi === undefined || ci === undefined)
      r.fail(
        pi === undefined ? p : ch,
        `joint '${name}'`,
        `link '${(pi === undefined ? p : ch).attrs.get('link')!.value}', which the robot does not have`,
        `one of ${[...byName.keys()].slice(0, 8).join(', ')}`,
      );
    if (links[ci].parent >= 0)
      r.fail(ch, `joint '${name}'`, `a second parent for link '${links[ci].name}'`, 'a tree (each link has one parent joint)');
    if (child(j, 'mimic'))
      r.fail(
        child(j, 'mimic')!,
        `joint '${name}' mimic`,
        'a mimic joint',
        'independent joints (a mimic couples two joints, which the URDF import does not read; in MJCF the coupling is an <equality><joint> constraint, which it does)',
      );
    links[ci].parent = pi;
    links[ci].joint = j;
    links[pi].children.push(ci);
  }
  // Depth-first from the roots, in link order (MuJoCo's AddToTree).
  const order: number[] = [];
  const seen = new Set<number>();
  const dfs = (i: number): void => {
    seen.add(i);
    order.push(i);
    for (const c of links[i].children) dfs(c);
  };
  links.forEach((l, i) => l.parent < 0 && dfs(i));
  if (order.length !== links.length) {
    const bad = links.find((_, i) => !seen.has(i))!;
    r.fail(bad.joint ?? bad.el, `link '${bad.name}'`, 'a cycle of joints', 'a tree');
  }

  const num3 = (el: XmlElement | undefined, name: string, subject: string, dflt: Vec3): Vec3 => {
    const a = el?.attrs.get(name);
    return a ? (r.nums(a, subject, 3) as Vec3) : [...dflt];
  };
  const origin = (el: XmlElement, subject: string): { pos: Vec3; quat: Quat } => {
    const o = child(el, 'origin');
    const rpy = num3(o, 'rpy', `${subject} origin rpy`, [0, 0, 0]);
    return { pos: num3(o, 'xyz', `${subject} origin xyz`, [0, 0, 0]), quat: rpy.some((x) => x !== 0) ? urdfRpyQuat(rpy) : [1, 0, 0, 0] };
  };

  // Every link as a MuJoCo body (before fusing): frame, joints, inertia, collision geoms.
  const bodies: (IrBody & { link: number })[] = [];
  const index = new Map<number, number>();
  for (const li of order) {
    const l = links[li];
    const subject = `link '${l.name}'`;
    const body: IrBody & { link: number } = {
      link: li,
      name: l.name,
      parent: l.parent < 0 ? -1 : index.get(l.parent)!,
      pos: [0, 0, 0],
      quat: [1, 0, 0, 0],
      joints: [],
      mass: 0,
      ipos: [0, 0, 0],
      inertia: [0, 0, 0, 0, 0, 0],
      geoms: [],
      source: r.span(l.el),
    };
    index.set(li, bodies.length);
    if (l.joint) {
      const j = l.joint;
      const jname = j.attrs.get('name')!.value;
      const ts = `joint '${jname}'`;
      const type = r.choice(need(j, 'type', ts), `${ts} type`, JOINT_TYPES);
      const o = origin(j, ts);
      body.pos = o.pos;
      body.quat = o.quat;
      const axisRaw = num3(child(j, 'axis'), 'xyz', `${ts} axis`, [1, 0, 0]);
      const an = Math.hypot(...axisRaw);
      const axis: Vec3 = an > 0 ? [axisRaw[0] / an, axisRaw[1] / an, axisRaw[2] / an] : [1, 0, 0];
      if (!(an >= 1e-14) && ['revolute', 'continuous', 'prismatic', 'planar'].includes(type))
        r.fail(child(j, 'axis')!, `${ts} axis`, 'a zero axis', 'a nonzero direction');
      const mk = (name: string, t: IrJoint['type'], ax: Vec3): IrJoint => ({
        name,
        type: t,
        pos: [0, 0, 0],
        axis: ax,
        ref: 0,
        damping: 0,
        stiffness: 0,
        springref: 0,
        armature: 0,
        frictionloss: 0,
        source: r.span(j),
      });
      switch (type) {
        case 'revolute':
        case 'continuous':
          body.joints.push(mk(jname, 'hinge', axis));
          break;
        case 'prismatic':
          body.joints.push(mk(jname, 'slide', axis));
          break;
        case 'floating':
          body.joints.push(mk(jname, 'free', axis));
          break;
        case 'spherical':
          body.joints.push(mk(jname, 'ball', axis));
          break;
        case 'planar': {
          // As MuJoCo: slides along the x and y columns of the frame whose z is the axis, a hinge about it.
          const zq = zaxisQuat(axis);
          const ex = quatRotate(zq, [1, 0, 0]);
          const ey = quatRotate(zq, [0, 1, 0]);
          body.joints.push(mk(`${jname}_TX`, 'slide', ex), mk(`${jname}_TY`, 'slide', ey), mk(`${jname}_RZ`, 'hinge', axis));
          note('as-mujoco', j, `planar joint '${jname}' → slides ${jname}_TX, ${jname}_TY and hinge ${jname}_RZ (as MuJoCo)`);
          break;
        }
        case 'fixed':
          break;
      }
      const dyn = child(j, 'dynamics');
      if (dyn && body.joints.length) {
        const d = dyn.attrs.get('damping');
        const f = dyn.attrs.get('friction');
        // MuJoCo takes negative ones as written; the engine cannot run them
        const nonNegative = (a: XmlAttr, what: string): number => {
          const x = r.num(a, `${ts} ${what}`);
          if (!(x >= 0))
            r.fail(a, `${ts} ${what}`, a.value.trim(), 'a number >= 0 (MuJoCo takes a negative one as written; the engine cannot run it)');
          return x;
        };
        for (const jj of body.joints) {
          if (d) jj.damping = nonNegative(d, 'damping');
          if (f) jj.frictionloss = nonNegative(f, 'friction');
        }
      }
      const lim = child(j, 'limit');
      if (lim && body.joints.length) {
        const lo = lim.attrs.get('lower');
        const hi = lim.attrs.get('upper');
        const jj = body.joints[0];
        if (lo && hi) {
          const a = r.num(lo, `${ts} limit lower`);
          const b = r.num(hi, `${ts} limit upper`);
          if (a <= b && body.joints.length === 1) {
            jj.range = [a, b];
            jj.limit = { solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 };
            if (type === 'continuous') note('as-mujoco', lim, `continuous joint '${jname}' with lower/upper: limited, as MuJoCo reads it`);
          } else if (a > b) note('as-mujoco', lim, `joint '${jname}': lower > upper, so unlimited (as MuJoCo)`);
        } else if (lo || hi) note('as-mujoco', lim, `joint '${jname}': only one of lower/upper, so unlimited (as MuJoCo)`);
        if (lim.attrs.get('effort'))
          note(
            'dropped',
            lim.attrs.get('effort')!,
            `joint '${jname}': effort limit (MuJoCo's actfrcrange) bounds actuator forces; the URDF has no actuators`,
          );
        if (lim.attrs.get('velocity'))
          note('dropped', lim.attrs.get('velocity')!, `joint '${jname}': velocity limit (MuJoCo ignores it too)`);
      }
      if (child(j, 'safety_controller'))
        note('skipped', child(j, 'safety_controller')!, `joint '${jname}': safety_controller is not simulated`);
    }
    // Inertial.
    const inert = child(l.el, 'inertial');
    let explicit = false;
    if (inert) {
      const mEl = child(inert, 'mass');
      const iEl = child(inert, 'inertia');
      if (!mEl || !iEl)
        r.fail(
          inert,
          `${subject} inertial`,
          `no <${mEl ? 'inertia' : 'mass'}>`,
          '<mass value="M"/> and <inertia ixx=".." iyy=".." izz=".." ixy=".." ixz=".." iyz=".."/>',
        );
      body.mass = r.num(need(mEl, 'value', `${subject} mass`), `${subject} mass`);
      if (!(body.mass >= 0)) r.fail(mEl, `${subject} mass`, String(body.mass), 'a mass >= 0');
      const o = origin(inert, `${subject} inertial`);
      const comp = ['ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz'].map((k) => {
        const a = iEl.attrs.get(k);
        return a ? r.num(a, `${subject} inertia ${k}`) : 0;
      }) as Inertia6;
      body.ipos = o.pos;
      body.inertia = rotateInertia(comp, o.quat);
      explicit = true;
      if (body.mass > 0 && comp.some((x) => x !== 0)) {
        const bad = inertiaProblem(comp);
        if (bad) r.fail(iEl, `${subject} inertia`, bad, 'a physical inertia (positive definite, A + B >= C)');
      }
      if (inertiaOverflows(body)) {
        const xyz = child(inert, 'origin')?.attrs.get('xyz');
        const far = body.inertia.every(Number.isFinite) && xyz;
        r.fail(
          far ? xyz : iEl,
          `${subject} inertial`,
          far
            ? `a centre of mass whose parallel-axis inertia m·|xyz|² overflows`
            : 'an inertia that overflows once turned by the origin rpy',
          'a mass, origin and inertia whose inertia about the link origin stays finite (the engine forms it at load)',
        );
      }
    }
    // Collision geometry (visual geometry is discarded, as MuJoCo's discardvisual default for URDF).
    let k = 0;
    for (const c of l.el.children) {
      if (c.name === 'visual') {
        note('skipped', c, `${subject}: visual geometry discarded (as MuJoCo's URDF import)`);
        continue;
      }
      if (c.name !== 'collision') continue;
      const g = collisionGeom(r, c, `${l.name}/geom${k++}`, origin(c, `${subject} collision`), note);
      inferGeomMass(g, undefined, explicit ? 0 : 1000);
      body.geoms.push(g);
    }
    if (!explicit) {
      const gi = inertiaFromGeoms(body.geoms);
      if (gi && inertiaOverflows(gi))
        r.fail(
          l.el.children.find((c) => c.name === 'collision') ?? l.el,
          `${subject} collision`,
          `collision geometry whose mass at 1000 kg/m³ (${gi.mass}) and inertia overflow`,
          'collision geometry whose mass and inertia stay finite, or an <inertial>',
        );
      if (gi) {
        body.mass = gi.mass;
        body.ipos = gi.ipos;
        body.inertia = gi.inertia;
        note(
          'as-mujoco',
          l.el,
          `${subject} has no <inertial>: mass ${fmt(gi.mass)} kg from its collision geometry at 1000 kg/m³, as MuJoCo does (plain URDF would make it massless)`,
        );
      }
    }
    bodies.push(body);
  }

  // Fuse bodies without joints into their parent (the roots into the world), as fusestatic.
  const ir: IrModel = {
    name: root.attrs.get('name')?.value ?? 'urdf-robot',
    format: 'urdf',
    bodies: [],
    worldGeoms: [],
    option: {
      timestep: 0.002,
      gravity: [0, 0, -9.81],
      integrator: 'euler',
      iterations: 100,
      impratio: 1,
      cone: 'pyramidal',
      solver: 'newton',
      tolerance: 1e-8,
    },
    actuators: [],
    excludes: [],
  };
  // For each original body: where its frame now lives (kept body index or -1 for world, and X_KB).
  const place: { kept: number; pos: Vec3; quat: Quat }[] = [];
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    const parentPlace = b.parent < 0 ? { kept: -1, pos: [0, 0, 0] as Vec3, quat: [1, 0, 0, 0] as Quat } : place[b.parent];
    // X_KB = X_KP · X_PB
    const pos: Vec3 = addV(parentPlace.pos, quatRotate(parentPlace.quat, b.pos));
    const quat = quatMul(parentPlace.quat, b.quat);
    const free = b.joints.some((j) => j.type === 'free');
    if (free && parentPlace.kept >= 0)
      r.fail(
        links[b.link].joint!,
        `joint '${b.joints[0].name}'`,
        'a floating joint on a link whose parent moves',
        'floating joints only on links attached to the fixed root',
      );
    if (b.joints.length === 0) {
      place.push({ kept: parentPlace.kept, pos, quat });
      const geoms = b.geoms.map((g) => ({ ...g, pos: addV(pos, quatRotate(quat, g.pos)), quat: quatMul(quat, g.quat) }));
      if (parentPlace.kept < 0) {
        ir.worldGeoms.push(...geoms);
        if (b.parent >= 0 || b.mass > 0)
          note(
            'as-mujoco',
            b.source,
            `link '${b.name}' is fixed to the world: fused into it${b.mass > 0 ? ` (its ${fmt(b.mass)} kg do not move)` : ''}, as MuJoCo's fusestatic`,
          );
      } else {
        const K = ir.bodies[parentPlace.kept];
        fuseInertia(K, b.mass, addV(pos, quatRotate(quat, b.ipos)), rotateInertia(b.inertia, quat));
        K.geoms.push(...geoms);
        note('as-mujoco', b.source, `link '${b.name}' (fixed joint) fused into '${K.name}', as MuJoCo's fusestatic`);
      }
      continue;
    }
    place.push({ kept: ir.bodies.length, pos: [0, 0, 0], quat: [1, 0, 0, 0] });
    ir.bodies.push({
      name: b.name,
      parent: parentPlace.kept,
      pos,
      quat,
      joints: b.joints,
      mass: b.mass,
      ipos: b.ipos,
      inertia: b.inertia,
      geoms: b.geoms,
      source: b.source,
    });
  }
  return ir;
}

/** Adds a rigid mass (m, CoM c, inertia I about c, all in K's frame) to body K's inertia. */
function fuseInertia(K: IrBody, m: number, c: Vec3, I: Inertia6): void {
  if (!(m > 0)) return;
  const M = K.mass + m;
  const com: Vec3 = [(K.mass * K.ipos[0] + m * c[0]) / M, (K.mass * K.ipos[1] + m * c[1]) / M, (K.mass * K.ipos[2] + m * c[2]) / M];
  const a = offCentre(K.mass, [K.ipos[0] - com[0], K.ipos[1] - com[1], K.ipos[2] - com[2]]);
  const b = offCentre(m, [c[0] - com[0], c[1] - com[1], c[2] - com[2]]);
  K.inertia = K.inertia.map((x, k) => x + a[k] + I[k] + b[k]) as Inertia6;
  K.mass = M;
  K.ipos = com;
}

function collisionGeom(
  r: Reader,
  c: XmlElement,
  name: string,
  o: { pos: Vec3; quat: Quat },
  note: (k: ImportNote['kind'], at: XmlElement | XmlAttr, m: string) => void,
): IrGeom {
  const geo =
    c.children.find((x) => x.name === 'geometry') ??
    r.fail(c, `collision '${name}'`, 'no <geometry>', '<geometry> with box, cylinder, sphere, capsule or mesh');
  const shape = geo.children[0] ?? r.fail(geo, `collision '${name}' geometry`, 'nothing', 'box, cylinder, sphere, capsule or mesh');
  const g: IrGeom = {
    name: c.attrs.get('name')?.value ?? name,
    type: 'box',
    size: [0, 0, 0],
    pos: o.pos,
    quat: o.quat,
    contype: 1,
    conaffinity: 1,
    friction: 1,
    torsionalFriction: DEFAULT_TORSIONAL_FRICTION,
    rollingFriction: DEFAULT_ROLLING_FRICTION,
    condim: 3,
    margin: 0,
    gap: 0,
    priority: 0,
    solmix: 1,
    mass: 0,
    inertia: [0, 0, 0],
    source: r.span(c),
  };
  const pos = (a: XmlAttr | undefined, subject: string): number => {
    if (!a) r.fail(shape, subject, 'a missing size', "the shape's size attributes");
    const x = r.num(a, subject);
    if (!(x > 0)) r.fail(a, subject, String(x), 'a positive size');
    return x;
  };
  switch (shape.name) {
    case 'box': {
      const a = shape.attrs.get('size') ?? r.fail(shape, 'box', 'no size', 'size="lx ly lz"');
      const s = r.nums(a, 'box size', 3);
      if (!s.every((x) => x > 0)) r.fail(a, 'box size', quote(a.value), 'three positive edge lengths');
      g.size = [s[0] / 2, s[1] / 2, s[2] / 2];
      break;
    }
    case 'cylinder':
    case 'capsule':
      g.type = shape.name;
      g.size = [pos(shape.attrs.get('radius'), `${shape.name} radius`), pos(shape.attrs.get('length'), `${shape.name} length`) / 2, 0];
      break;
    case 'sphere':
      g.type = 'sphere';
      g.size = [pos(shape.attrs.get('radius'), 'sphere radius'), 0, 0];
      break;
    case 'mesh': {
      const f = shape.attrs.get('filename') ?? r.fail(shape, 'mesh', 'no filename', 'filename="PATH"');
      const scaleA = shape.attrs.get('scale');
      const scale = (scaleA ? r.nums(scaleA, 'mesh scale', 3) : [1, 1, 1]) as Vec3;
      const path = resolveMesh(r.file, f.value);
      const read = readMeshFile(path);
      if ('problem' in read)
        r.fail(
          f,
          'mesh filename',
          `${path}: ${read.problem}`,
          "a readable STL or OBJ file (package://PKG/... is looked up in the folders above the URDF; relative paths from the URDF's folder)",
        );
      if (read.format === 'ASCII STL')
        note(
          'as-mujoco',
          f,
          `${path} is an ASCII STL, which MuJoCo's STL decoder refuses (binary only); its triangles are read and processed as MuJoCo processes the binary STL of them`,
        );
      if (read.droppedAfterLine !== undefined)
        note(
          'as-mujoco',
          f,
          `${path}:${read.droppedAfterLine} starts a second object; its faces are ignored, as MuJoCo reads only an OBJ's first shape`,
        );
      g.type = 'mesh';
      try {
        // MuJoCo's URDF reader makes each mesh an asset with the default (legacy) inertia
        const mesh = processMesh({
          vert: read.vert,
          face: read.face,
          scale,
          refpos: [0, 0, 0],
          refquat: [1, 0, 0, 0],
          inertia: 'legacy',
          needHull: true,
        });
        applyMesh(g, mesh, true);
      } catch (e) {
        // a scale that overflows the vertices is reported at scale=
        const at = e instanceof MeshError && e.attr === 'scale' ? scaleA : undefined;
        if (e instanceof MeshError) r.fail(at ?? f, at ? 'mesh scale' : 'mesh filename', e.found, e.expected);
        throw e;
      }
      // compile.ts notes the box once for every mesh geom, MJCF's and URDF's alike
      break;
    }
    default:
      r.fail(shape, `collision '${name}' geometry`, `<${shape.name}>`, 'box, cylinder, sphere, capsule or mesh');
  }
  return g;
}

/** package://PKG/rest → the first folder named PKG at or above the URDF's folder (or its parent's
 *  children); a relative path → from the URDF's folder. */
export function resolveMesh(urdf: string, name: string): string {
  const m = /^package:\/\/([^/]+)\/(.*)$/.exec(name);
  if (m) {
    let dir = resolve(dirname(urdf));
    for (;;) {
      for (const cand of [join(dir, m[1]), ...(dir.endsWith(`/${m[1]}`) ? [dir] : [])])
        if (existsSync(join(cand, m[2]))) return join(cand, m[2]);
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
    return join(dirname(urdf), m[2]);
  }
  const rel = name.replace(/^file:\/\//, '');
  return isAbsolute(rel) ? rel : join(dirname(urdf), rel);
}

const addV = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const fmt = (x: number): string => String(Number(x.toPrecision(6)));
