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
  type BodyDesc,
  type JointType,
  type Quat,
  type ShapeDesc,
  type Vec3,
  DEFAULT_SOLIMP,
  DEFAULT_SOLREF,
} from '../../engine/model-desc.js';
import { add3, quatMul, quatRotate, sub3 } from '../../engine/math.js';
import { SceneError } from '../common/errors.js';
import { axisAngleQuat } from './frames.js';
import { shapeOf, uniqueShapeNames } from './compile-shapes.js';
import type { BodyMap, ImportNote, IrBody, IrJoint, IrModel } from './ir.js';

const JOINT: Record<IrJoint['type'], JointType> = { hinge: 'revolute', slide: 'prismatic', ball: 'ball', free: 'free' };

/** The engine's links, MuJoCo's bodies among them (bodyMap: each body's last link and the offset of
 *  its frame in it), the collision shapes, and each joint's link by the joint's name. */
export interface Links {
  bodies: BodyDesc[];
  bodyMap: BodyMap[];
  shapes: ShapeDesc[];
  jointLink: Map<string, number>;
}

export function linksOf(ir: IrModel, notes: ImportNote[]): Links {
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
    const pos0 = add3(parentOffset, b.pos);
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
        const { pos, quat, q0, anchor } = jointFrame(b, j, k, pos0, prevAnchor);
        prevAnchor = anchor;
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
    L.com = add3(b.ipos, offset);
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
  uniqueShapeNames(shapes);
  return { bodies, bodyMap, shapes, jointLink };
}

/** Link k's joint frame in its parent link (J_1 = X_PB0·Trans(p_1), J_k = Trans(p_k − p_{k−1})), turned
 *  back by the joint's ref, its q0, and the anchor p_k the next link starts from. */
function jointFrame(b: IrBody, j: IrJoint, k: number, pos0: Vec3, prevAnchor: Vec3): { pos: Vec3; quat: Quat; q0: number[]; anchor: Vec3 } {
  if (j.type === 'free') {
    if (b.parent >= 0 || k > 0 || b.joints.length > 1) {
      throw new SceneError({
        ...j.source,
        subject: `joint '${j.name}'`,
        found:
          b.parent >= 0 ? 'a free joint in a body that is not a child of the world' : 'a free joint beside other joints of the same body',
        expected: 'a free joint only as the single joint of a top-level body (as MuJoCo requires)',
      });
    }
    return { pos: [0, 0, 0], quat: [1, 0, 0, 0], q0: [...b.pos, ...b.quat], anchor: prevAnchor };
  }
  const anchor: Vec3 = j.type === 'slide' ? [0, 0, 0] : j.pos;
  let pos: Vec3 = k === 0 ? add3(pos0, quatRotate(b.quat, anchor)) : sub3(anchor, prevAnchor);
  let quat: Quat = k === 0 ? b.quat : [1, 0, 0, 0];
  if (j.type === 'hinge' && j.ref !== 0) quat = quatMul(quat, axisAngleQuat(j.axis, -j.ref));
  if (j.type === 'slide' && j.ref !== 0) {
    const R = k === 0 ? b.quat : ([1, 0, 0, 0] as Quat);
    pos = add3(pos, quatRotate(R, [-j.ref * j.axis[0], -j.ref * j.axis[1], -j.ref * j.axis[2]]));
  }
  return { pos, quat, q0: j.type === 'ball' ? [1, 0, 0, 0] : [j.ref], anchor };
}

/** MuJoCo's filterparent drops contacts between a body and its parent's weld body (both moving). A
 *  body with several joints is a chain of links here, so its last link no longer hangs directly from
 *  the parent's: those pairs are excluded explicitly (the links welded to the parent's weld link included). */
export function chainExcludes(ir: IrModel, { bodies, bodyMap }: Links): [number, number][] {
  const excludes: [number, number][] = [];
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
  return excludes;
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
