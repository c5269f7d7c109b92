// Small 3D helpers for the loaders: quaternions [w,x,y,z], rotation vectors, symmetric eigenvalues.

import type { Quat, Vec3 } from './model-desc.js';

export type Inertia6 = [number, number, number, number, number, number];

export const norm3 = (v: readonly number[]): number => Math.hypot(v[0], v[1], v[2]);
export const add3 = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub3 = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const dot3 = (a: readonly number[], b: readonly number[]): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

export function quatMul(a: Quat, b: Quat): Quat {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}

/** R(q)·v. */
export function quatRotate(q: Quat, v: Vec3): Vec3 {
  const [w, x, y, z] = q;
  // v + 2w(u×v) + 2u×(u×v), u = (x,y,z)
  const tx = 2 * (y * v[2] - z * v[1]);
  const ty = 2 * (z * v[0] - x * v[2]);
  const tz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)];
}

/** Rotation vector (axis·angle, rad) → unit quaternion. */
export function rotvecToQuat(r: readonly number[]): Quat {
  const th = norm3(r);
  if (th === 0) return [1, 0, 0, 0];
  const s = Math.sin(th / 2) / th;
  return [Math.cos(th / 2), r[0] * s, r[1] * s, r[2] * s];
}

/** Roll-pitch-yaw (fixed axes X then Y then Z, as URDF): R = Rz(yaw)·Ry(pitch)·Rx(roll). */
export function rpyToQuat(rpy: readonly number[]): Quat {
  const ax = (i: number, a: number): Quat => {
    const q: Quat = [Math.cos(a / 2), 0, 0, 0];
    q[i + 1] = Math.sin(a / 2);
    return q;
  };
  return quatMul(quatMul(ax(2, rpy[2]), ax(1, rpy[1])), ax(0, rpy[0]));
}

/** Eigen-decomposition of a symmetric 3x3 matrix by cyclic Jacobi rotations (robust, tiny): the values
 *  and the matching column vectors (vectors[k][j] is component k of eigenvector j). */
export function symmetricEigen(a0: readonly (readonly number[])[]): { values: [number, number, number]; vectors: number[][] } {
  const a = a0.map((r) => r.slice());
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2;
    if (off < 1e-300) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ]) {
      if (a[p][q] === 0) continue;
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      // A ← Jᵀ A J and V ← V J, J the rotation by (c, s) in the (p, q) plane.
      for (let k = 0; k < 3; k++) {
        const akp = a[k][p];
        const akq = a[k][q];
        a[k][p] = c * akp - s * akq;
        a[k][q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k];
        const aqk = a[q][k];
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k][p];
        const vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq;
        v[k][q] = s * vkp + c * vkq;
      }
    }
  }
  return { values: [a[0][0], a[1][1], a[2][2]], vectors: v };
}

/** Eigenvalues of a symmetric 3x3 [Ixx,Iyy,Izz,Ixy,Ixz,Iyz], ascending. */
export function symEigenvalues(I: Inertia6): [number, number, number] {
  const { values } = symmetricEigen([
    [I[0], I[3], I[4]],
    [I[3], I[1], I[5]],
    [I[4], I[5], I[2]],
  ]);
  const ev = [...values].sort((x, y) => x - y);
  return [ev[0], ev[1], ev[2]];
}

/** Why an inertia about the CoM is non-physical, or undefined if it is fine.
 *  Equality cases (thin rods, flat plates) pass within a relative tolerance of 1e-9. */
export function inertiaProblem(I: Inertia6): string | undefined {
  const [l0, l1, l2] = symEigenvalues(I);
  const tol = 1e-9 * Math.max(Math.abs(l0) + Math.abs(l1) + Math.abs(l2), Number.MIN_VALUE);
  if (!(l0 > 0)) return `principal moments ${fmt(l0)}, ${fmt(l1)}, ${fmt(l2)} (not positive definite)`;
  if (l0 + l1 < l2 - tol) return `principal moments ${fmt(l0)} + ${fmt(l1)} < ${fmt(l2)} (triangle inequality broken)`;
  return undefined;
}

const fmt = (x: number): string => String(Number(x.toPrecision(6)));

/** What the native core derives from a link's mass at load that overflows a double, named; undefined
 *  when all is finite: the mass, its centre c, its inertia about c, the first moment m·c and the
 *  inertia about the link origin, I + m(|c|²·1 − c cᵀ) (Model::finalize's parallel-axis step).
 *  A model whose link overflows is refused by the native core without a place, so every reader and
 *  the per-robot parameters check it where the numbers come from. */
export function massOverflow(mass: number, com: readonly number[], inertia: readonly number[]): string | undefined {
  const cc = dot3(com, com);
  const about = [mass * (cc - com[0] * com[0]), mass * (cc - com[1] * com[1]), mass * (cc - com[2] * com[2])];
  if (!Number.isFinite(mass)) return `a mass of ${mass}`;
  if (!com.every(Number.isFinite)) return `a centre of mass at [${com.join(', ')}]`;
  if (!inertia.every(Number.isFinite)) return `an inertia of [${inertia.join(', ')}]`;
  if (!com.every((x) => Number.isFinite(mass * x)) || !Number.isFinite(mass * cc) || !about.every(Number.isFinite))
    return `a parallel-axis inertia m·|c|² = ${mass} · ${cc} (mass times the squared distance of its centre of mass) of ${mass * cc}`;
  if (!inertia.slice(0, 3).every((x, k) => Number.isFinite(x + about[k]))) return 'an inertia about its origin that overflows';
  return undefined;
}

/** Inertia about the joint origin → about the CoM c: I_com = I_o − m(|c|²·1 − c cᵀ). */
export function inertiaJointToCom(Io: Inertia6, m: number, c: Vec3): Inertia6 {
  const cc = dot3(c, c);
  return [
    Io[0] - m * (cc - c[0] * c[0]),
    Io[1] - m * (cc - c[1] * c[1]),
    Io[2] - m * (cc - c[2] * c[2]),
    Io[3] + m * c[0] * c[1],
    Io[4] + m * c[0] * c[2],
    Io[5] + m * c[1] * c[2],
  ];
}

/** The inertia tensor given in axes A, expressed in body axes B: I_B = R_BA · I_A · R_BAᵀ (q = R_BA). */
export function rotateInertia(I: Inertia6, q: Quat): Inertia6 {
  const col = (v: Vec3): Vec3 => quatRotate(q, v);
  const R = [col([1, 0, 0]), col([0, 1, 0]), col([0, 0, 1])]; // columns of R_BA
  const A = [
    [I[0], I[3], I[4]],
    [I[3], I[1], I[5]],
    [I[4], I[5], I[2]],
  ];
  const at = (r: number, c: number): number => {
    let s = 0;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) s += R[i][r] * A[i][j] * R[j][c];
    return s;
  };
  return [at(0, 0), at(1, 1), at(2, 2), at(0, 1), at(0, 2), at(1, 2)];
}
