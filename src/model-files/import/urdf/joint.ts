// A link's parent <joint>: where it places the link (its origin), the MuJoCo joints it becomes
// (revolute and continuous → hinge, prismatic → slide, floating → free, spherical → ball, planar →
// two slides and a hinge as MuJoCo makes them, fixed → none), and its <dynamics> and <limit>.

import type { Vec3 } from '../../../engine/model-desc.js';
import { quatRotate } from '../../../engine/math.js';
import { zaxisQuat } from '../frames.js';
import type { IrBody, IrJoint } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { UrdfContext } from './context.js';

const JOINT_TYPES = ['revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar', 'spherical'] as const;
type UrdfJointType = (typeof JOINT_TYPES)[number];

/** Reads joint `j` into `body`: its pose in the parent and its joints with their settings. */
export function readJoint(u: UrdfContext, body: IrBody, j: XmlElement): void {
  const r: Reader = u.r;
  const jname = j.attrs.get('name')!.value;
  const ts = `joint '${jname}'`;
  const type = r.choice(u.need(j, 'type', ts), `${ts} type`, JOINT_TYPES);
  const o = u.origin(j, ts);
  body.pos = o.pos;
  body.quat = o.quat;
  const axisRaw = u.num3(u.child(j, 'axis'), 'xyz', `${ts} axis`, [1, 0, 0]);
  const an = Math.hypot(...axisRaw);
  const axis: Vec3 = an > 0 ? [axisRaw[0] / an, axisRaw[1] / an, axisRaw[2] / an] : [1, 0, 0];
  if (!(an >= 1e-14) && ['revolute', 'continuous', 'prismatic', 'planar'].includes(type))
    r.fail(u.child(j, 'axis')!, `${ts} axis`, 'a zero axis', 'a nonzero direction');
  body.joints.push(...mujocoJoints(u, j, jname, type, axis));
  if (body.joints.length) {
    readDynamics(u, body.joints, j, ts);
    readLimit(u, body.joints, j, jname, type);
  }
  if (u.child(j, 'safety_controller'))
    u.note('skipped', u.child(j, 'safety_controller')!, `joint '${jname}': safety_controller is not simulated`);
}

/** The MuJoCo joints a URDF joint becomes. */
function mujocoJoints(u: UrdfContext, j: XmlElement, jname: string, type: UrdfJointType, axis: Vec3): IrJoint[] {
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
    source: u.r.span(j),
  });
  switch (type) {
    case 'revolute':
    case 'continuous':
      return [mk(jname, 'hinge', axis)];
    case 'prismatic':
      return [mk(jname, 'slide', axis)];
    case 'floating':
      return [mk(jname, 'free', axis)];
    case 'spherical':
      return [mk(jname, 'ball', axis)];
    case 'planar': {
      // As MuJoCo: slides along the x and y columns of the frame whose z is the axis, a hinge about it.
      const zq = zaxisQuat(axis);
      const ex = quatRotate(zq, [1, 0, 0]);
      const ey = quatRotate(zq, [0, 1, 0]);
      u.note('as-mujoco', j, `planar joint '${jname}' → slides ${jname}_TX, ${jname}_TY and hinge ${jname}_RZ (as MuJoCo)`);
      return [mk(`${jname}_TX`, 'slide', ex), mk(`${jname}_TY`, 'slide', ey), mk(`${jname}_RZ`, 'hinge', axis)];
    }
    case 'fixed':
      return [];
  }
}

/** <dynamics damping friction>: each of the joints' damping and frictionloss. */
function readDynamics(u: UrdfContext, joints: IrJoint[], j: XmlElement, ts: string): void {
  const r: Reader = u.r;
  const dyn = u.child(j, 'dynamics');
  if (!dyn) return;
  const d = dyn.attrs.get('damping');
  const f = dyn.attrs.get('friction');
  // MuJoCo takes negative ones as written; the engine cannot run them
  const nonNegative = (a: XmlAttr, what: string): number => {
    const x = r.num(a, `${ts} ${what}`);
    if (!(x >= 0))
      r.fail(a, `${ts} ${what}`, a.value.trim(), 'a number >= 0 (MuJoCo takes a negative one as written; the engine cannot run it)');
    return x;
  };
  for (const jj of joints) {
    if (d) jj.damping = nonNegative(d, 'damping');
    if (f) jj.frictionloss = nonNegative(f, 'friction');
  }
}

/** <limit lower upper>: a range with MuJoCo's default limit settings, as MuJoCo reads it (one
 *  bound alone, or lower > upper: unlimited); effort and velocity are noted, not applied. */
function readLimit(u: UrdfContext, joints: IrJoint[], j: XmlElement, jname: string, type: UrdfJointType): void {
  const r: Reader = u.r;
  const ts = `joint '${jname}'`;
  const lim = u.child(j, 'limit');
  if (!lim) return;
  const lo = lim.attrs.get('lower');
  const hi = lim.attrs.get('upper');
  const jj = joints[0];
  if (lo && hi) {
    const a = r.num(lo, `${ts} limit lower`);
    const b = r.num(hi, `${ts} limit upper`);
    if (a <= b && joints.length === 1) {
      jj.range = [a, b];
      jj.limit = { solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 };
      if (type === 'continuous') u.note('as-mujoco', lim, `continuous joint '${jname}' with lower/upper: limited, as MuJoCo reads it`);
    } else if (a > b) u.note('as-mujoco', lim, `joint '${jname}': lower > upper, so unlimited (as MuJoCo)`);
  } else if (lo || hi) u.note('as-mujoco', lim, `joint '${jname}': only one of lower/upper, so unlimited (as MuJoCo)`);
  if (lim.attrs.get('effort'))
    u.note(
      'dropped',
      lim.attrs.get('effort')!,
      `joint '${jname}': effort limit (MuJoCo's actfrcrange) bounds actuator forces; the URDF has no actuators`,
    );
  if (lim.attrs.get('velocity')) u.note('dropped', lim.attrs.get('velocity')!, `joint '${jname}': velocity limit (MuJoCo ignores it too)`);
}
