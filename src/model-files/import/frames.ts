// MJCF's orientation forms, as MuJoCo's compiler resolves them (user_objects.cc ResolveOrientation,
// user_util.cc mjuu_frame2quat, mjuu_z2quat): quat, axisangle, euler with a sequence, xyaxes, zaxis.
// Quaternions are [w, x, y, z]; angles are radians here (the reader converts degrees first).

import type { Quat, Vec3 } from '../../engine/model-desc.js';
import { norm3, quatMul } from '../../engine/math.js';
import { importBug } from './bugs.js';

export const normalize4 = (q: readonly number[]): Quat => {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
};

export function axisAngleQuat(axis: readonly number[], angle: number): Quat {
  const n = norm3(axis);
  const s = Math.sin(angle / 2);
  return [Math.cos(angle / 2), (axis[0] / n) * s, (axis[1] / n) * s, (axis[2] / n) * s];
}

/** Euler angles with MuJoCo's sequence: lower-case letters rotate about the moving axes (post-multiply),
 *  upper-case about the fixed axes (pre-multiply). */
export function eulerQuat(angles: readonly number[], seq: string): Quat {
  let q: Quat = [1, 0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const c = seq[i];
    const r: Quat = [Math.cos(angles[i] / 2), 0, 0, 0];
    r['xyz'.indexOf(c.toLowerCase()) + 1] = Math.sin(angles[i] / 2);
    const moving = c === c.toLowerCase();
    q = moving !== importBug('import-euler-order') ? quatMul(q, r) : quatMul(r, q);
  }
  return normalize4(q);
}

/** The rotation whose columns are the frame's axes x, y, z (unit, orthogonal). */
export function frameQuat(x: Vec3, y: Vec3, z: Vec3): Quat {
  const m = [x, y, z]; // m[c][r]
  let q: Quat;
  if (m[0][0] + m[1][1] + m[2][2] > 0) {
    const w = 0.5 * Math.sqrt(1 + m[0][0] + m[1][1] + m[2][2]);
    q = [w, (0.25 * (m[1][2] - m[2][1])) / w, (0.25 * (m[2][0] - m[0][2])) / w, (0.25 * (m[0][1] - m[1][0])) / w];
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const a = 0.5 * Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]);
    q = [(0.25 * (m[1][2] - m[2][1])) / a, a, (0.25 * (m[1][0] + m[0][1])) / a, (0.25 * (m[2][0] + m[0][2])) / a];
  } else if (m[1][1] > m[2][2]) {
    const b = 0.5 * Math.sqrt(1 - m[0][0] + m[1][1] - m[2][2]);
    q = [(0.25 * (m[2][0] - m[0][2])) / b, (0.25 * (m[1][0] + m[0][1])) / b, b, (0.25 * (m[2][1] + m[1][2])) / b];
  } else {
    const c = 0.5 * Math.sqrt(1 - m[0][0] - m[1][1] + m[2][2]);
    q = [(0.25 * (m[0][1] - m[1][0])) / c, (0.25 * (m[2][0] + m[0][2])) / c, (0.25 * (m[2][1] + m[1][2])) / c, c];
  }
  return normalize4(q);
}

/** The minimal rotation taking +z onto v (MuJoCo's mjuu_z2quat). */
export function zaxisQuat(v: readonly number[]): Quat {
  const n = norm3(v);
  const u: Vec3 = [v[0] / n, v[1] / n, v[2] / n];
  let c: Vec3 = [-u[1], u[0], 0]; // z × u
  const s = norm3(c);
  if (s < 1e-10) c = [1, 0, 0];
  else c = [c[0] / s, c[1] / s, c[2] / s];
  const ang = Math.atan2(s, u[2]);
  const h = Math.sin(ang / 2);
  return [Math.cos(ang / 2), c[0] * h, c[1] * h, c[2] * h];
}

/** xyaxes: x normalised, y made orthogonal to x and normalised, z = x × y. */
export function xyaxesQuat(a: readonly number[]): Quat {
  const nx = norm3(a);
  const x: Vec3 = [a[0] / nx, a[1] / nx, a[2] / nx];
  const d = x[0] * a[3] + x[1] * a[4] + x[2] * a[5];
  let y: Vec3 = [a[3] - x[0] * d, a[4] - x[1] * d, a[5] - x[2] * d];
  const ny = norm3(y);
  y = [y[0] / ny, y[1] / ny, y[2] / ny];
  const z: Vec3 = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  const nz = norm3(z);
  return frameQuat(x, y, [z[0] / nz, z[1] / nz, z[2] / nz]);
}

/** URDF rpy (fixed axes X, then Y, then Z): R = Rz(yaw)·Ry(pitch)·Rx(roll), composed as MuJoCo's
 *  URDF reader does (euler "XYZ", each rotation pre-multiplied). */
export function urdfRpyQuat(rpy: readonly number[]): Quat {
  if (importBug('import-urdf-rpy-order')) return eulerQuat(rpy, 'xyz');
  return eulerQuat(rpy, 'XYZ');
}
