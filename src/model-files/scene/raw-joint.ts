// One raw joint's fields → the engine's body description (README section 2 conventions):
// S + mask → joint type, (m, h = m·c, I about the joint origin) → (m, c, I about the CoM),
// joint_position → q0, slot-indexed velocity/torque → v0/tau.

import type { BodyDesc, JointType, Quat, Vec3 } from '../../engine/model-desc.js';
import { dot3, inertiaJointToCom, inertiaProblem, norm3, quatRotate, type Inertia6 } from '../../engine/math.js';
import type { RawField, RawJoint } from './raw-read.js';
import { classifySubspace, SUPPORTED_SUBSPACES } from './subspace.js';
import type { Ctx } from './yaml-read.js';

export const RAW_REQUIRED = ['joint_subspace', 'joint_activation_mask', 'fixed_joint_transform', 'rigid_body_inertia'];
const TOL = 1e-9;

export function rawJointToBody(ctx: Ctx, j: RawJoint): Omit<BodyDesc, 'parent' | 'name'> {
  for (const r of RAW_REQUIRED)
    if (!j.fields.has(r))
      ctx.fail(j.fieldsNode, `${j.subject}.fields`, `no \`${r}\``, `a \`${r}\` field (required here; the original zero-filled it)`);
  const f = (k: string): RawField => j.fields.get(k) as RawField;
  const sub = `${j.subject}.fields`;

  // --- joint type from the active columns of S
  const S = f('joint_subspace');
  const maskF = f('joint_activation_mask');
  const mask = maskF.values[0];
  if (!Number.isInteger(mask) || mask < 0 || mask > 63)
    ctx.fail(maskF.node, `${sub}.joint_activation_mask`, `${mask}`, 'an integer bitmask 0..63 over the 6 columns of S');
  const active: number[] = [];
  for (let c = 0; c < 6; c++) {
    const col = [0, 1, 2, 3, 4, 5].map((r) => S.values[r * 6 + c]);
    if (mask & (1 << c)) active.push(c);
    else if (col.some((x) => x !== 0))
      ctx.fail(
        S.node,
        `${sub}.joint_subspace`,
        `a nonzero column ${c} that joint_activation_mask (${mask}) leaves inactive`,
        'inactive columns to be zero',
      );
  }
  const cls = classifySubspace(active.map((c) => [0, 1, 2, 3, 4, 5].map((r) => S.values[r * 6 + c])));
  if ('error' in cls) ctx.fail(S.node, `${sub}.joint_subspace`, cls.error, `a supported subspace: ${SUPPORTED_SUBSPACES}`);
  const joint: JointType = cls.joint;

  // --- placement
  const X = f('fixed_joint_transform');
  const pos = X.values.slice(0, 3) as Vec3;
  const quat = unitQuat(ctx, X, `${sub}.fixed_joint_transform`);
  if (joint === 'free' && (norm3(pos) !== 0 || quat[1] !== 0 || quat[2] !== 0 || quat[3] !== 0)) {
    ctx.fail(
      X.node,
      `${sub}.fixed_joint_transform`,
      'a free joint with a non-identity fixed transform',
      'the identity (put the placement in joint_position)',
    );
  }

  // --- inertia: h is the first moment, I is about the joint origin
  const I = f('rigid_body_inertia');
  const v = I.values;
  const mass = v[0];
  if (!(mass > 0)) ctx.fail(I.nodes[0], `${sub}.rigid_body_inertia[0] (mass)`, `${mass}`, 'a mass > 0');
  const com: Vec3 = [v[1] / mass, v[2] / mass, v[3] / mass];
  const inertia = inertiaJointToCom(v.slice(4, 10) as Inertia6, mass, com);
  const bad = inertiaProblem(inertia);
  if (bad)
    ctx.fail(
      I.node,
      `${sub}.rigid_body_inertia`,
      `an inertia about the CoM with ${bad}`,
      'a physical body (I about the joint origin minus m(|c|²·1 − c cᵀ) positive definite, triangle inequality)',
    );

  // --- initial state
  const q0 = initialQ(ctx, j, joint, cls.axis);
  const slots = (k: string): number[] => {
    const fld = j.fields.get(k);
    const vals = fld?.values ?? [0, 0, 0, 0, 0, 0];
    vals.forEach((x, s) => {
      if (x !== 0 && !active.includes(s))
        ctx.fail(
          fld?.nodes[s],
          `${sub}.${k}[${s}]`,
          `${x} in slot ${s}, which joint_activation_mask leaves inactive`,
          `values only in active slots (${active.join(', ') || 'none'}); slots are columns of S, not spatial rows`,
        );
    });
    return active.map((s) => vals[s]);
  };
  let v0 = slots('joint_velocity');
  let tau = slots('joint_torque');
  if (joint === 'free') {
    // arow slots are [ω_B; v_B]; the engine's free velocity is [v_W; ω_B].
    const R = q0.slice(3, 7) as Quat;
    v0 = [...quatRotate(R, v0.slice(3, 6) as Vec3), ...v0.slice(0, 3)];
    if (tau.slice(3, 6).some((x) => x !== 0)) {
      ctx.fail(
        j.fields.get('joint_torque')?.node,
        `${sub}.joint_torque`,
        'a constant body-frame force on a free joint',
        'zero linear slots 3..5 (the engine applies free-joint forces in the world frame)',
      );
    }
    tau = [0, 0, 0, tau[0], tau[1], tau[2]]; // [f_W = 0; n_B]
  }

  const body: Omit<BodyDesc, 'parent' | 'name'> = { pos, quat, joint, axis: cls.axis, mass, com, inertia, q0, v0, tau };
  const ext = j.fields.get('visual_extents')?.values;
  if (ext && ext.some((x) => x !== 0)) {
    const col = j.fields.get('visual_color')?.values ?? [0.7, 0.7, 0.7];
    body.visual = { halfExtents: ext as Vec3, color: col as Vec3 };
  }
  return body;
}

function unitQuat(ctx: Ctx, fld: RawField, subject: string): Quat {
  const q = fld.values.slice(3, 7);
  const n = Math.hypot(...q);
  if (!(n > 1e-12))
    ctx.fail(fld.nodes[3], `${subject} rotation`, 'a zero quaternion', 'a unit quaternion [w, x, y, z] (identity is [1, 0, 0, 0])');
  return q.map((x) => x / n) as Quat;
}

function initialQ(ctx: Ctx, j: RawJoint, joint: JointType, a: Vec3): number[] {
  const fld = j.fields.get('joint_position');
  if (!fld) return { revolute: [0], prismatic: [0], ball: [1, 0, 0, 0], free: [0, 0, 0, 1, 0, 0, 0], planar: [0, 0, 0], fixed: [] }[joint];
  const subject = `${j.subject}.fields.joint_position`;
  const t = fld.values.slice(0, 3);
  const q = unitQuat(ctx, fld, subject);
  const qv = q.slice(1, 4);
  const rotIsIdentity = norm3(qv) <= TOL;
  const want = (what: string): never => ctx.fail(fld.node, subject, `[${fld.values.join(', ')}]`, what);
  switch (joint) {
    case 'fixed':
      if (norm3(t) > TOL || !rotIsIdentity) want('the identity (a welded joint cannot be displaced)');
      return [];
    case 'revolute': {
      const along = dot3(qv, a);
      const off = norm3([qv[0] - along * a[0], qv[1] - along * a[1], qv[2] - along * a[2]]);
      if (norm3(t) > TOL || off > 1e-9) want(`zero translation and a rotation about the joint axis [${a.join(', ')}]`);
      return [2 * Math.atan2(along, q[0])];
    }
    case 'prismatic': {
      const d = dot3(t, a);
      const off = norm3([t[0] - d * a[0], t[1] - d * a[1], t[2] - d * a[2]]);
      if (!rotIsIdentity || off > TOL) want(`identity rotation and a translation along the joint axis [${a.join(', ')}]`);
      return [d];
    }
    case 'ball':
      if (norm3(t) > TOL) want('zero translation (a ball joint only rotates)');
      return q;
    case 'free':
      return [...t, ...q];
    default:
      return want('a joint type the raw format can express');
  }
}
