// MJCF <frame>: a pure coordinate transformation around a group of elements of the kinematic tree
// (XML reference, "frame" and "body/frame"). It creates no body: MuJoCo's compiler composes it into
// each child it wraps (user_objects.cc, mjuu_frameaccumChild in mjCBody/mjCGeom/mjCJoint::Compile
// and mjCFrame::Compile for nested frames): a child's pose p becomes frame ∘ p. Joints take the
// frame's translation into their anchor and its rotation into their axis (a ball's axis and a free
// joint are left alone, as MuJoCo fixes them); an <inertial> inside a frame is composed too
// (checked against MuJoCo 3.14). Its childclass names the default class of the elements it wraps.
//
// The placement below is what the body reader carries into a frame's (or replicate's) children:
// the composed transform between them and their body, their default class, and their name suffix.

import type { Quat, Vec3 } from '../../../engine/model-desc.js';
import { quatMul, quatRotate, rotateInertia, type Inertia6 } from '../../../engine/math.js';
import { describeEl } from '../read-attrs.js';
import type { IrGeom, IrJoint } from '../ir.js';
import type { XmlElement } from '../xml.js';
import { vec3, type MjcfContext } from './context.js';
import { checkClass } from './defaults.js';
import { orientation } from './orientation.js';

/** A rigid transform: MuJoCo's pos and quat of a frame in its parent's coordinates. */
export interface Pose {
  pos: Vec3;
  quat: Quat;
}

/** Where elements read inside a body (or <worldbody>) land, between them and that body. */
export interface Placement {
  /** The composed <frame> / <replicate> copy transform in the body's coordinates; none: identity. */
  frame?: Pose;
  /** The default class of elements without their own class=: the nearest childclass. */
  childclass: string;
  /** Appended to every name (replicate.ts): the enclosing replicas' suffixes, innermost first. */
  suffix: string;
  /** The nearest <replicate> between the elements and their body, if any. */
  replicate?: XmlElement;
  /** The nearest <replicate> above the elements, their bodies' included (names get its suffix). */
  copiedBy?: XmlElement;
  /** How many copies of these elements the enclosing replicates make (1 outside any). */
  copies: number;
}

/** `outer` ∘ `inner` (MuJoCo's mjuu_frameaccum): the inner pose expressed in the outer's parent. */
export function compose(outer: Pose | undefined, inner: Pose): Pose {
  if (!outer) return inner;
  const r = quatRotate(outer.quat, inner.pos);
  return { pos: [outer.pos[0] + r[0], outer.pos[1] + r[1], outer.pos[2] + r[2]], quat: quatMul(outer.quat, inner.quat) };
}

/** The placement of a <frame>'s children: its pose composed onto `outer`'s, its childclass. */
export function framePlacement(ctx: MjcfContext, el: XmlElement, outer: Placement): Placement {
  const subject = describeEl(el);
  const cc = el.attrs.get('childclass');
  if (cc) checkClass(ctx, cc, `${subject} childclass`);
  const pose: Pose = {
    pos: vec3(ctx, el.attrs.get('pos'), `${subject} pos`, [0, 0, 0]),
    quat: orientation(ctx, (n) => el.attrs.get(n), subject, el),
  };
  const frame = compose(outer.frame, pose);
  checkPlaced(ctx, el, frame.pos);
  return { ...outer, frame, childclass: cc?.value ?? outer.childclass };
}

/** Refuses an element whose position, once the enclosing <frame>s and <replicate> copies are added
 *  to it, overflows (MuJoCo places it at infinity, silently; the native core would refuse the
 *  model without a place): reported at the element's own pos (or fromto). */
export function checkPlaced(ctx: MjcfContext, el: XmlElement, pos: readonly number[]): void {
  if (pos.every(Number.isFinite)) return;
  const key = ['pos', 'fromto'].find((k) => el.attrs.has(k));
  ctx.r.fail(
    key ? el.attrs.get(key)! : el,
    `${describeEl(el)} ${key ?? 'position'}`,
    `a position that overflows to [${pos.join(', ')}] once the enclosing <frame> and <replicate> placements are added`,
    'positions whose sum stays finite',
  );
}

/** A geom (or body) pose read in a frame, moved into the body's coordinates. */
export function placePose(frame: Pose | undefined, p: { pos: Vec3; quat: Quat }): void {
  if (!frame) return;
  const placed = compose(frame, p);
  p.pos = placed.pos;
  p.quat = placed.quat;
}

export const placeGeom: (frame: Pose | undefined, g: IrGeom) => void = placePose;

/** A joint read in a frame: its anchor moved (not a free joint's), its axis turned (hinge, slide). */
export function placeJoint(frame: Pose | undefined, j: IrJoint): void {
  if (!frame || j.type === 'free') return;
  const a = quatRotate(frame.quat, j.pos);
  j.pos = [frame.pos[0] + a[0], frame.pos[1] + a[1], frame.pos[2] + a[2]];
  if (j.type === 'hinge' || j.type === 'slide') j.axis = quatRotate(frame.quat, j.axis);
}

/** A body's inertial (centre of mass `ipos`, inertia in body axes) read in a frame, moved into the body's coordinates. */
export function placeInertial(frame: Pose | undefined, b: { ipos: Vec3; inertia: Inertia6 }): void {
  if (!frame) return;
  const c = quatRotate(frame.quat, b.ipos);
  b.ipos = [frame.pos[0] + c[0], frame.pos[1] + c[1], frame.pos[2] + c[2]];
  b.inertia = rotateInertia(b.inertia, frame.quat);
}
