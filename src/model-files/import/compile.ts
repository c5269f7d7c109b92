// The imported model (MuJoCo's bodies, each with any number of joints) compiled into the engine's
// ModelDesc, where every link has exactly one joint:
//
//   a body with no joint            → one `fixed` link (MuJoCo welds it to its parent);
//   a body with joints j1 … jn      → a chain of n links, link k named after joint k; links 1 … n−1
//                                     are massless, link n carries the body's mass and geoms.
//
// MuJoCo moves a body by each of its joints in turn about the joint's anchor p_k (in the body frame):
// X_PB(q) = X_PB0 · Π_k Trans(p_k)·X_k(q_k)·Trans(−p_k), with X_k(q) = Rot(a_k, q − ref_k) for a hinge,
// Trans(a_k·(q − ref_k)) for a slide, Rot(quat q) for a ball (engine_core_smooth.c mj_kinematics).
// So link k's joint frame is J_1 = X_PB0·Trans(p_1), J_k = Trans(p_k − p_{k−1}) after link k−1's
// joint, each turned back by ref (Rot(a, −ref), or a shift −ref·a); the body frame is the last link's
// frame shifted by −p_n, so everything the body carries (CoM, geoms, child bodies) moves by −p_n.

import {
  DEFAULT_ROLLING_FRICTION,
  DEFAULT_SOLIMP,
  DEFAULT_SOLREF,
  DEFAULT_TORSIONAL_FRICTION,
  type ActuatorDesc,
  type BodyDesc,
  type EqualityDesc,
  type TendonDesc,
  type JointType,
  type ModelDesc,
  type Quat,
  type ShapeDesc,
  type SourceSpan,
  type Vec3,
  isConvexKind,
} from '../../engine/model-desc.js';
import { quatMul, quatRotate } from '../../engine/math.js';
import { SceneError } from '../common/errors.js';
import { axisAngleQuat } from './frames.js';
import { CCD_DEFAULTS, keepOrStandIn } from './convex-pairs.js';
import { importBug } from './bugs.js';
import { fluidDesc } from './fluid.js';
import { compileSensors } from './sensors.js';
import { keepHullsOrBoxes } from './mesh-hulls.js';
import type { ImportNote, IrActuator, IrBody, IrEquality, IrGeom, IrJoint, IrModel, IrTendon } from './ir.js';

import type { BodyMap } from './ir.js';
export type { BodyMap } from './ir.js';

export interface Compiled {
  model: ModelDesc;
  bodyMap: BodyMap[];
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const JOINT: Record<IrJoint['type'], JointType> = { hinge: 'revolute', slide: 'prismatic', ball: 'ball', free: 'free' };

export function compileIr(ir: IrModel, files: string[], notes: ImportNote[]): Compiled {
  const bodies: BodyDesc[] = [];
  const bodyMap: BodyMap[] = [];
  const shapes: ShapeDesc[] = [];
  const taken = new Set<string>(['world']);
  const unique = (want: string): string => {
    let n = want;
    for (let k = 2; taken.has(n); k++) n = `${want}_${k}`;
    taken.add(n);
    return n;
  };
  const jointLink = new Map<string, number>();
  // MuJoCo-layout offsets, for the keyframe: the engine's q/v order is the same (joint by joint).
  for (let bi = 0; bi < ir.bodies.length; bi++) {
    const b = ir.bodies[bi];
    const parentLink = b.parent < 0 ? -1 : bodyMap[b.parent].link;
    const parentOffset: Vec3 = b.parent < 0 ? [0, 0, 0] : bodyMap[b.parent].offset;
    // X_P'B0 where P' is the parent's last link: the parent body frame sits at parentOffset in it.
    const pos0 = add(parentOffset, b.pos);
    const base = (): Omit<BodyDesc, 'name' | 'parent' | 'pos' | 'quat' | 'joint' | 'axis' | 'q0' | 'v0' | 'tau'> => ({
      mass: 0,
      com: [0, 0, 0],
      inertia: [0, 0, 0, 0, 0, 0],
    });
    let offset: Vec3 = [0, 0, 0];
    if (b.joints.length === 0) {
      bodies.push({
        ...base(),
        name: unique(b.name),
        parent: parentLink,
        pos: pos0,
        quat: b.quat,
        joint: 'fixed',
        axis: [0, 0, 1],
        q0: [],
        v0: [],
        tau: [],
        source: b.source,
      });
    } else {
      let prevAnchor: Vec3 = [0, 0, 0];
      b.joints.forEach((j, k) => {
        const type = JOINT[j.type];
        let pos: Vec3;
        let quat: Quat;
        let q0: number[];
        if (j.type === 'free') {
          if (b.parent >= 0 || k > 0 || b.joints.length > 1) {
            throw new SceneError({
              ...j.source,
              subject: `joint '${j.name}'`,
              found:
                b.parent >= 0
                  ? 'a free joint in a body that is not a child of the world'
                  : 'a free joint beside other joints of the same body',
              expected: 'a free joint only as the single joint of a top-level body (as MuJoCo requires)',
            });
          }
          pos = [0, 0, 0];
          quat = [1, 0, 0, 0];
          q0 = [...b.pos, ...b.quat];
        } else {
          const anchor: Vec3 = j.type === 'slide' ? [0, 0, 0] : j.pos;
          if (k === 0) {
            pos = add(pos0, quatRotate(b.quat, anchor));
            quat = b.quat;
          } else {
            pos = sub(anchor, prevAnchor);
            quat = [1, 0, 0, 0];
          }
          prevAnchor = anchor;
          if (j.type === 'hinge' && j.ref !== 0) quat = quatMul(quat, axisAngleQuat(j.axis, -j.ref));
          if (j.type === 'slide' && j.ref !== 0) {
            const R = k === 0 ? b.quat : ([1, 0, 0, 0] as Quat);
            pos = add(pos, quatRotate(R, [-j.ref * j.axis[0], -j.ref * j.axis[1], -j.ref * j.axis[2]]));
          }
          q0 = j.type === 'ball' ? [1, 0, 0, 0] : [j.ref];
        }
        const parent = k === 0 ? parentLink : bodies.length - 1;
        const link: BodyDesc = {
          ...base(),
          name: unique(j.name),
          parent,
          pos,
          quat,
          joint: type,
          axis: j.type === 'hinge' || j.type === 'slide' ? j.axis : [0, 0, 1],
          q0,
          v0: new Array(type === 'free' ? 6 : type === 'ball' ? 3 : 1).fill(0),
          tau: new Array(type === 'free' ? 6 : type === 'ball' ? 3 : 1).fill(0),
          source: j.source,
        };
        // MuJoCo's qpos0 for this joint (the engine makes its inverse weights there)
        if ((j.type === 'hinge' || j.type === 'slide') && j.ref !== 0) link.ref = j.ref;
        passive(link, j, notes);
        jointLink.set(j.name, bodies.length);
        bodies.push(link);
      });
      offset = [-prevAnchor[0], -prevAnchor[1], -prevAnchor[2]];
    }
    const li = bodies.length - 1;
    const L = bodies[li];
    L.mass = b.mass;
    L.com = add(b.ipos, offset);
    L.inertia = b.inertia;
    bodyMap.push({ name: b.name, link: li, offset });
    for (const g of b.geoms) {
      const sh = shapeOf(g, li, offset, notes);
      if (sh) shapes.push(sh);
    }
    if (b.mass === 0 && b.joints.length > 0 && !weldedMass(ir, bi)) {
      throw new SceneError({
        ...b.source,
        subject: `body '${b.name}'`,
        found: 'joints but no mass (no <inertial> and no geom with mass)',
        expected:
          'a mass > 0 on a body that moves (MuJoCo: "mass and inertia of moving bodies must be larger than mjMINVAL"): add an <inertial> or geoms with density',
      });
    }
  }
  for (const g of ir.worldGeoms) {
    const sh = shapeOf(g, -1, [0, 0, 0], notes);
    if (sh) shapes.push(sh);
  }
  const shapeNames = new Set<string>();
  for (const s of shapes) {
    let n = s.name;
    for (let k = 2; shapeNames.has(n); k++) n = `${s.name}_${k}`;
    s.name = n;
    shapeNames.add(n);
  }
  const actuators: ActuatorDesc[] = ir.actuators.map((a) => {
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
  const moving = shapes.filter((sh) => sh.body >= 0 || sh.kind !== 'plane');
  const excludes: [number, number][] = ir.excludes.map((e) => {
    const find = (n: string): number => {
      if (n === 'world') return -1;
      const i = ir.bodies.findIndex((b) => b.name === n);
      if (i < 0)
        throw new SceneError({
          ...e.source,
          subject: 'contact exclude',
          found: `body '${n}', which the model does not have`,
          expected: 'the names of two bodies',
        });
      return bodyMap[i].link;
    };
    return [find(e.body1), find(e.body2)];
  });
  // Fixed tendons: joints by name → their links; MuJoCo's default springlength (−1) is the length at
  // the joints' spring references (qpos_spring: springref for hinges and slides).
  const springref = new Map<string, number>();
  for (const b of ir.bodies) for (const j of b.joints) springref.set(j.name, j.springref);
  const tendons: TendonDesc[] = (ir.tendons ?? []).map((t) => {
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
  // MuJoCo's filterparent drops contacts between a body and its parent's weld body (both moving). A
  // body with several joints is a chain of links here, so its last link no longer hangs directly from
  // the parent's: exclude that pair explicitly (the links welded to the parent's weld link included).
  const weldOf = (l: number): number => {
    while (l >= 0 && bodies[l].joint === 'fixed') l = bodies[l].parent;
    return l;
  };
  ir.bodies.forEach((b, i) => {
    if (b.joints.length < 2 || b.parent < 0) return;
    const w = weldOf(bodyMap[b.parent].link);
    if (w < 0) return;
    bodies.forEach((_, k) => {
      if (weldOf(k) === w) excludes.push([bodyMap[i].link, k]);
    });
  });
  const model: ModelDesc = {
    name: ir.name,
    bodies,
    world: {
      gravity: ir.option.gravity,
      dt: ir.option.timestep,
      integrator: ir.option.integrator,
      duration: 10,
      substeps: 1,
      ...(ir.multiccdDisabled ? { multiccd: false } : {}),
    },
    files,
    shapes,
    solver: {
      iterations: ir.option.iterations,
      impratio: ir.option.impratio,
      tolerance: ir.option.tolerance,
      method: ir.option.solver,
      ...(ir.option.cone === 'elliptic' ? { cone: 'elliptic' as const } : {}),
      ...(ir.option.noslipIterations > 0
        ? { noslipIterations: ir.option.noslipIterations, noslipTolerance: ir.option.noslipTolerance }
        : {}),
    },
  };
  if (actuators.length) model.actuators = actuators;
  if (excludes.length) model.excludes = excludes;
  if (tendons.length) model.tendons = tendons;
  const sensors = compileSensors(ir, bodies, bodyMap, jointLink, actuators, tendons);
  if (sensors.length) model.mjcfSensors = sensors;
  if (sensors.length && ir.sensorsDisabled) model.mjcfSensorsDisabled = true;
  const equalities = (ir.equalities ?? []).map((e) => equalityDesc(e, ir, bodies, bodyMap, jointLink));
  if (equalities.length) model.equalities = equalities;
  const fluid = fluidDesc(ir, bodyMap);
  if (fluid) model.fluid = fluid;
  keepHullsOrBoxes(model, new Set(shapes.filter((sh) => sh.kind === 'convex')), notes);
  keepOrStandIn(model, notes);
  // GJK/EPA runs for a cylinder, an ellipsoid or a mesh hull against anything but a plane
  const gjk = shapes.some((sh) => isConvexKind(sh.kind));
  for (const c of ir.ccd ?? []) {
    if (gjk)
      throw new SceneError({
        ...c.source,
        subject: `option ${c.key}`,
        found: `"${c.value}"`,
        expected: `${c.key}="${CCD_DEFAULTS[c.key]}" (MuJoCo's default: the engine's GJK/EPA, which this model's cylinders, ellipsoids and mesh hulls use, runs with it only)`,
      });
    notes.push({
      kind: 'skipped',
      source: c.source,
      message: `option ${c.key} is not used: the engine collides no cylinder, ellipsoid or mesh hull of this model (where it would run MuJoCo's GJK/EPA)`,
    });
  }
  return { model, bodyMap };
}

/** The bodies' world frames at MuJoCo's qpos0, as mj_kinematics makes them there (every hinge and
 *  slide at its ref, balls at the identity, free bodies at their pos and quat: each joint's motion
 *  is then the identity, so a body sits at its parent's frame composed with its own pos and quat). */
function qpos0Frames(ir: IrModel): { p: Vec3; q: Quat }[] {
  const out: { p: Vec3; q: Quat }[] = [];
  for (const b of ir.bodies) {
    const P = b.parent < 0 ? { p: [0, 0, 0] as Vec3, q: [1, 0, 0, 0] as Quat } : out[b.parent];
    out.push({ p: add(P.p, quatRotate(P.q, b.pos)), q: normalizeQuat(quatMul(P.q, b.quat)) });
  }
  return out;
}

/** MuJoCo's mju_normalize4: the identity below mjMINVAL, unchanged within mjMINVAL of unit length. */
function normalizeQuat(q: Quat): Quat {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (n < 1e-15) return [1, 0, 0, 0];
  return Math.abs(n - 1) > 1e-15 ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : q;
}

const conj = (q: Quat): Quat => [q[0], -q[1], -q[2], -q[3]];

/** An MJCF equality constraint in the engine's terms: bodies become their links (a point in a body's
 *  frame moves by the link's offset), and what MuJoCo's mj_setConst computes at qpos0 for the body
 *  semantic is computed here at MuJoCo's qpos0 and given explicitly (connect: body2's anchor,
 *  `anchor2`; weld without a relpose quaternion: `relpose`), since the engine makes a missing one at
 *  its own reference pose (hinges and slides at their ref, as MuJoCo, but free bodies at the
 *  identity), which differs where a free body starts away from the origin. Joint constraints keep MuJoCo's y0, x0 (the
 *  joints' refs) in `ref`. */
function equalityDesc(e: IrEquality, ir: IrModel, bodies: BodyDesc[], bodyMap: BodyMap[], jointLink: Map<string, number>): EqualityDesc {
  const d: EqualityDesc = { name: e.name, type: e.type, active: e.active, solref: e.solref, solimp: e.solimp, source: e.source };
  if (e.type === 'joint') {
    const ref = new Map<string, number>();
    for (const b of ir.bodies) for (const j of b.joints) ref.set(j.name, j.ref);
    d.joint1 = jointLink.get(e.joint1!)!;
    if (e.joint2 !== undefined) d.joint2 = jointLink.get(e.joint2)!;
    d.polycoef = e.polycoef;
    const r: [number, number] = [ref.get(e.joint1!) ?? 0, e.joint2 !== undefined ? (ref.get(e.joint2) ?? 0) : 0];
    if (r[0] !== 0 || r[1] !== 0) d.ref = r;
    return d;
  }
  const link = (b: number): number => (b < 0 ? -1 : bodyMap[b].link);
  const inLink = (b: number, p: Vec3): Vec3 => (b < 0 ? [...p] : add(p, bodyMap[b].offset));
  const b1 = e.body1!;
  const b2 = e.body2!;
  d.body1 = link(b1);
  d.body2 = link(b2);
  // the engine refuses a constraint between two bodies that cannot move (MuJoCo makes its rows, with J = 0)
  const moves = (l: number): boolean => {
    for (let k = l; k >= 0; k = bodies[k].parent) if (bodies[k].joint !== 'fixed') return true;
    return false;
  };
  if (!moves(d.body1) && !moves(d.body2))
    throw new SceneError({
      ...e.source,
      subject: `equality '${e.name}'`,
      found: 'a constraint between two bodies that cannot move (both fixed to the world)',
      expected: 'at least one body that moves (the constraint has nothing to act on)',
    });
  if (e.semantic === 'site') {
    const s1 = e.site1!;
    const s2 = e.site2!;
    if (e.type === 'connect') {
      d.anchor = inLink(b1, s1.pos);
      d.anchor2 = inLink(b2, s2.pos);
    } else {
      d.anchor = inLink(b2, s2.pos);
      d.relpose = [...inLink(b1, s1.pos), ...s1.quat];
      d.quat2 = [...s2.quat];
      d.torquescale = e.torquescale;
    }
    return d;
  }
  const X = qpos0Frames(ir);
  const I = { p: [0, 0, 0] as Vec3, q: [1, 0, 0, 0] as Quat };
  const X1 = b1 < 0 ? I : X[b1];
  const X2 = b2 < 0 ? I : X[b2];
  const toLocal = (F: { p: Vec3; q: Quat }, w: Vec3): Vec3 => quatRotate(conj(F.q), sub(w, F.p));
  const anchor = e.anchor!;
  if (e.type === 'connect') {
    // mj_setConst: body2's anchor = where body1's anchor is at qpos0, in body2's frame
    d.anchor = inLink(b1, anchor);
    d.anchor2 = inLink(b2, toLocal(X2, add(X1.p, quatRotate(X1.q, anchor))));
    return d;
  }
  d.anchor = inLink(b2, anchor);
  d.torquescale = e.torquescale;
  const rp = e.relpose;
  if (rp && (rp[3] !== 0 || rp[4] !== 0 || rp[5] !== 0 || rp[6] !== 0)) {
    // given: MuJoCo normalises the quaternion ("just in case") and keeps the position
    d.relpose = [...inLink(b1, [rp[0], rp[1], rp[2]]), ...normalizeQuat([rp[3], rp[4], rp[5], rp[6]])];
  } else {
    // mj_setConst: body2's anchor at qpos0 in body1's frame, and neg(xquat1)·xquat2
    const p1 = toLocal(X1, add(X2.p, quatRotate(X2.q, anchor)));
    d.relpose = [...inLink(b1, p1), ...quatMul(conj(X1.q), X2.q)];
  }
  return d;
}

/** Whether a welded descendant (a body without joints, transitively) of body bi carries mass:
 *  then MuJoCo accepts a massless moving body (user_model.cc). */
function weldedMass(ir: IrModel, bi: number): boolean {
  return ir.bodies.some((c, ci) => c.parent === bi && c.joints.length === 0 && (c.mass > 0 || weldedMass(ir, ci)));
}

/** Range, limit parameters and passive forces, as the joint gives them. */
function passive(link: BodyDesc, j: IrJoint, notes: ImportNote[]): void {
  if (j.range) {
    if (j.type === 'hinge' || j.type === 'slide' || j.type === 'ball') {
      // a ball's range is its cone: [0, max angle] (MuJoCo's mj_instantiateLimit, mjJNT_BALL)
      link.range = j.range;
      link.limit = j.limit ?? { solref: DEFAULT_SOLREF, solimp: DEFAULT_SOLIMP, margin: 0 };
    } else
      notes.push({
        kind: 'dropped',
        source: j.source,
        message: `joint '${j.name}': the range of a ${j.type} joint is not supported; the joint is unlimited`,
      });
  }
  // a springdamper replaces the stiffness and damping (the engine makes them at qpos0, as MuJoCo's compiler)
  if (j.springdamper) {
    link.springdamper = j.springdamper;
    link.springref = j.springref;
  }
  if (j.damping && !j.springdamper) link.damping = j.damping;
  if (j.armature) link.armature = j.armature;
  if (j.frictionloss) link.frictionloss = j.frictionloss;
  if (j.stiffness && !j.springdamper) {
    if (j.type === 'hinge' || j.type === 'slide') {
      link.stiffness = j.stiffness;
      link.springref = j.springref;
    } else
      notes.push({
        kind: 'dropped',
        source: j.source,
        message: `joint '${j.name}': stiffness on a ${j.type} joint is not supported (hinge and slide only)`,
      });
  }
}

/** The geom as a shape (MuJoCo's own kinds; a mesh as its hull, the `convex` kind). */
function shapeOf(g: IrGeom, body: number, offset: Vec3, notes: ImportNote[]): ShapeDesc | undefined {
  if (g.contype === 0 && g.conaffinity === 0) {
    notes.push({
      kind: 'skipped',
      source: g.source,
      message: `geom '${g.name}' collides with nothing (contype = conaffinity = 0): not a collision shape${g.mass > 0 ? ' (its mass still counts, as in MuJoCo)' : ''}`,
    });
    return undefined;
  }
  const s = g.size;
  let kind: ShapeDesc['kind'];
  let h: Vec3 = [0, 0, 0];
  let r = 0;
  let size: Vec3 | undefined;
  let vertices: number[] | undefined;
  switch (g.type) {
    case 'sphere':
      kind = 'sphere';
      r = s[0];
      break;
    case 'capsule':
      kind = 'capsule';
      r = s[0];
      h = [0, 0, s[1]];
      break;
    case 'box':
      kind = 'box';
      h = [...s];
      break;
    case 'plane':
      if (body >= 0)
        throw new SceneError({
          ...g.source,
          subject: `geom '${g.name}'`,
          found: 'a plane on a moving body',
          expected: 'planes only in <worldbody> (static)',
        });
      kind = 'plane';
      break;
    case 'cylinder':
      kind = 'cylinder';
      size = [s[0], s[1], 0];
      h = [s[0], s[0], s[1]];
      break;
    case 'ellipsoid':
      kind = 'ellipsoid';
      size = [s[0], s[1], s[2]];
      h = [s[0], s[1], s[2]];
      break;
    case 'mesh': {
      // The hull in MuJoCo's geom frame (the mesh's centre of mass and principal axes, which the
      // geom's pos and quat absorbed); mesh-hulls.ts turns it into its box where a pair needs that.
      const hull = g.hull;
      if (!hull) throw new Error(`mesh geom '${g.name}' reached the collision shapes without its hull`);
      kind = 'convex';
      vertices = [...hull.vert];
      for (let i = 0; i < vertices.length; i++) h[i % 3] = Math.max(h[i % 3], Math.abs(vertices[i]));
      break;
    }
  }
  const sh: ShapeDesc = {
    name: g.name,
    body,
    kind,
    halfExtents: h,
    radius: r,
    ...(size ? { size } : {}),
    ...(vertices ? { vertices } : {}),
    pos: add(g.pos, offset),
    // (the planted bug: a mesh's hull placed without the geom's rotation, the mesh's principal axes)
    quat: vertices && importBug('import-mesh-hull-frame-dropped') ? [1, 0, 0, 0] : g.quat,
    friction: g.friction,
    contype: g.contype,
    conaffinity: g.conaffinity,
    margin: g.margin,
    gap: g.gap,
    condim: g.condim,
    source: g.source,
  };
  // the torsional and rolling parts when not MuJoCo's defaults (a pair takes the max of its two shapes', and reads them at condim 4, 6)
  if (g.torsionalFriction !== DEFAULT_TORSIONAL_FRICTION) sh.torsionalFriction = g.torsionalFriction;
  if (g.rollingFriction !== DEFAULT_ROLLING_FRICTION) sh.rollingFriction = g.rollingFriction;
  if (g.solref) sh.solref = g.solref;
  if (g.solimp) sh.solimp = g.solimp;
  // priority and solmix when not MuJoCo's defaults (a model without them stays as it was)
  if (g.priority !== 0) sh.priority = g.priority;
  if (g.solmix !== 1) sh.solmix = g.solmix;
  if (g.rgba) sh.color = [g.rgba[0], g.rgba[1], g.rgba[2]];
  return sh;
}

const fmt = (x: number): string => String(Number(x.toPrecision(6)));
export type { SourceSpan };

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
