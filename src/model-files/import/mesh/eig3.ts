// MuJoCo 3.14's mjuu_eig3 (user_util.cc): the eigen-decomposition of a symmetric 3x3 matrix by
// Jacobi rotations kept as one quaternion, eigenvalues sorted in decreasing order by quarter turns. The
// compiler rotates a mesh to these axes, so the same iteration gives the same frame (and sign).
//
// 3.14 differs from the 3.12 source we hold (its absolute 1e-12 stop, its `c > 1 − 1e-12` stop, the
// rotation from cos θ): read from the 3.14 wheel's machine code (`mjuu_eig3(double*, double*, double*,
// const double*, double)` in libmujoco.so.3.14.0, and its callers), it takes a tolerance, stops
// relative to the matrix's largest entry, has no cosine stop, and forms the rotation's half angle from
// tan θ. mjCMesh::Process passes MESH_EIG_TOL; the body compiler 4e-15. With the absolute stop a mesh
// of a few millimetres (its inertia ~1e-9) was never turned to its axes: radians from MuJoCo's frame.

import type { Quat, Vec3 } from '../../../engine/model-desc.js';

/** The tolerance mjCMesh::Process gives mjuu_eig3 (3.14). */
export const MESH_EIG_TOL = 1e-7;

/** MuJoCo's mjuu_quat2mat: row-major R(q) (the identity exactly for the unit quaternion). */
export function quat2mat(q: readonly number[]): number[] {
  if (q[0] === 1 && q[1] === 0 && q[2] === 0 && q[3] === 0) return [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const [q00, q01, q02, q03] = [q[0] * q[0], q[0] * q[1], q[0] * q[2], q[0] * q[3]];
  const [q11, q12, q13, q22, q23, q33] = [q[1] * q[1], q[1] * q[2], q[1] * q[3], q[2] * q[2], q[2] * q[3], q[3] * q[3]];
  return [
    q00 + q11 - q22 - q33,
    2 * (q12 - q03),
    2 * (q13 + q02),
    2 * (q12 + q03),
    q00 - q11 + q22 - q33,
    2 * (q23 - q01),
    2 * (q13 - q02),
    2 * (q23 + q01),
    q00 - q11 - q22 + q33,
  ];
}

/** MuJoCo's mjuu_mulquat: a·b, normalized. */
export function mulquat(a: readonly number[], b: readonly number[]): Quat {
  return normalize4([
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ]);
}

/** MuJoCo's mjuu_normvec for 4 numbers: left as is when its squared norm is below mjEPS (1e-14)
 *  or its norm within mjEPS of 1. */
export function normalize4(v: readonly number[]): Quat {
  const sq = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3];
  const len = Math.sqrt(sq);
  if (sq < 1e-14 || Math.abs(len - 1) <= 1e-14) return [v[0], v[1], v[2], v[3]];
  return [v[0] / len, v[1] / len, v[2] / len, v[3] / len];
}

const mulmat = (a: number[], b: number[]): number[] => {
  const r = new Array<number>(9);
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
  return r;
};
const transpose = (a: number[]): number[] => [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];

/** Eigenvalues (decreasing) and the quaternion whose rotation's columns are the eigenvectors. The
 *  iteration stops when the largest off-diagonal entry is at most max(4e-15, tol) times the largest
 *  |entry| of `mat`; eigenvalues closer than max(1e-12, tol) times that entry are not swapped. */
export function eig3(mat: readonly number[], tol: number): { eigval: Vec3; quat: Quat } {
  let scale = 0;
  for (const x of mat) scale = Math.max(Math.abs(x), scale);
  const stop = Math.max(4e-15, tol) * scale;
  let quat: Quat = [1, 0, 0, 0];
  const eigval: Vec3 = [0, 0, 0];
  for (let iter = 0; iter < 500; iter++) {
    // D = Vᵀ·M·V with V = R(quat)
    const V = quat2mat(quat);
    const D = mulmat(mulmat(transpose(V), [...mat]), V);
    eigval[0] = D[0];
    eigval[1] = D[4];
    eigval[2] = D[8];
    // the largest off-diagonal element (row rk, column ck) and the axis rotk of its rotation
    let rk: number, ck: number, rotk: number;
    if (Math.abs(D[1]) > Math.abs(D[2]) && Math.abs(D[1]) > Math.abs(D[5])) [rk, ck, rotk] = [0, 1, 2];
    else if (Math.abs(D[2]) > Math.abs(D[5])) [rk, ck, rotk] = [0, 2, 1];
    else [rk, ck, rotk] = [1, 2, 0];
    if (Math.abs(D[3 * rk + ck]) <= stop) break;
    // 2x2 symmetric Schur decomposition: t = tan θ; the rotation by θ/2 about axis rotk from
    // h = tan(θ/2) = t / (1 + √(1 + t²)): cos(θ/2) = 1/√(1 + h²), sin(θ/2) = h·cos(θ/2)
    const tau = (D[4 * ck] - D[4 * rk]) / (2 * D[3 * rk + ck]);
    const t = tau >= 0 ? 1 / (tau + Math.sqrt(1 + tau * tau)) : -1 / (Math.sqrt(1 + tau * tau) - tau);
    const h = t / (1 + Math.sqrt(1 + t * t));
    const c = 1 / Math.sqrt(1 + h * h);
    const rot = [c, 0, 0, 0];
    rot[rotk + 1] = (rotk === 1 ? h : -h) * c;
    quat = normalize4(mulquat(quat, rot)); // 3.14 normalizes the product twice (mulquat, then normvec)
  }
  // bubble sort into decreasing order (pairs 0-1, 1-2, 0-1), each swap a quarter turn
  const tie = Math.max(1e-12, tol) * scale;
  for (let j = 0; j < 3; j++) {
    const j1 = j % 2;
    if (eigval[j1] + tie < eigval[j1 + 1]) {
      [eigval[j1], eigval[j1 + 1]] = [eigval[j1 + 1], eigval[j1]];
      const rot = [0.707106781186548, 0, 0, 0];
      rot[((j1 + 2) % 3) + 1] = rot[0];
      quat = mulquat(quat, rot);
    }
  }
  return { eigval, quat };
}
