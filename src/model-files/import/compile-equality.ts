// MJCF equality constraints in the engine's terms (bodies as their links), with what MuJoCo's
// mj_setConst computes at qpos0 given explicitly.

import type { BodyDesc, EqualityDesc, Quat, Vec3 } from '../../engine/model-desc.js';
import { add3, quatMul, quatRotate, sub3 } from '../../engine/math.js';
import { SceneError } from '../common/errors.js';
import type { BodyMap, IrEquality, IrModel } from './ir.js';

/** The bodies' world frames at MuJoCo's qpos0, as mj_kinematics makes them there (every hinge and
 *  slide at its ref, balls at the identity, free bodies at their pos and quat: each joint's motion
 *  is then the identity, so a body sits at its parent's frame composed with its own pos and quat). */
function qpos0Frames(ir: IrModel): { p: Vec3; q: Quat }[] {
  const out: { p: Vec3; q: Quat }[] = [];
  for (const b of ir.bodies) {
    const P = b.parent < 0 ? { p: [0, 0, 0] as Vec3, q: [1, 0, 0, 0] as Quat } : out[b.parent];
    out.push({ p: add3(P.p, quatRotate(P.q, b.pos)), q: normalizeQuat(quatMul(P.q, b.quat)) });
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
export function equalityDesc(
  e: IrEquality,
  ir: IrModel,
  bodies: BodyDesc[],
  bodyMap: BodyMap[],
  jointLink: Map<string, number>,
): EqualityDesc {
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
  const inLink = (b: number, p: Vec3): Vec3 => (b < 0 ? [...p] : add3(p, bodyMap[b].offset));
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
  const toLocal = (F: { p: Vec3; q: Quat }, w: Vec3): Vec3 => quatRotate(conj(F.q), sub3(w, F.p));
  const anchor = e.anchor!;
  if (e.type === 'connect') {
    // mj_setConst: body2's anchor = where body1's anchor is at qpos0, in body2's frame
    d.anchor = inLink(b1, anchor);
    d.anchor2 = inLink(b2, toLocal(X2, add3(X1.p, quatRotate(X1.q, anchor))));
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
    const p1 = toLocal(X1, add3(X2.p, quatRotate(X2.q, anchor)));
    d.relpose = [...inLink(b1, p1), ...quatMul(conj(X1.q), X2.q)];
  }
  return d;
}
