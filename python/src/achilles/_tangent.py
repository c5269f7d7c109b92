"""MuJoCo's arithmetic in the tangent space of qpos, for many vectors at once: mj_integratePos and
mj_differentiatePos (engine_core_util.c) over the rows of an array, with the same operations in the
same order, so that a row equals MuJoCo's result to the last bit or within an ulp of its libm.

A hinge or slide joint's coordinate is its own tangent: q' = q + h v, v = (q2 - q1) / h. A free
joint's position part likewise; the quaternion of a free or ball joint moves on the unit sphere:
  integrate:      q' = normalize(q) * quat(axis = w / |w|, angle = h |w|)   (mju_quatIntegrate)
  differentiate:  w = vel(conj(q1) * q2) / h, vel(q) = axis(q) * 2 atan2(|q_xyz|, q_w),
                  less 2 pi when that angle exceeds pi (mju_subQuat, mju_quat2Vel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MINVAL = 1e-15  # mjMINVAL


@dataclass(frozen=True)
class Tangent:
    """Where each joint's coordinates are: scalar ones (hinge, slide and a free joint's position) as
    (qpos index, qvel index) pairs, and each quaternion (free or ball) as its first qpos and qvel index."""

    nq: int
    nv: int
    scalar_q: np.ndarray
    scalar_v: np.ndarray
    quat_q: np.ndarray
    quat_v: np.ndarray

    @staticmethod
    def of(m) -> "Tangent":
        import mujoco

        free, ball = int(mujoco.mjtJoint.mjJNT_FREE), int(mujoco.mjtJoint.mjJNT_BALL)
        scalar_q, scalar_v, quat_q, quat_v = [], [], [], []
        for j in range(m.njnt):
            qa, va, kind = int(m.jnt_qposadr[j]), int(m.jnt_dofadr[j]), int(m.jnt_type[j])
            if kind == free:
                scalar_q += [qa, qa + 1, qa + 2]
                scalar_v += [va, va + 1, va + 2]
                qa, va = qa + 3, va + 3
            if kind in (free, ball):
                quat_q.append(qa)
                quat_v.append(va)
            else:
                scalar_q.append(qa)
                scalar_v.append(va)
        ints = lambda x: np.asarray(x, dtype=np.intp)  # noqa: E731
        return Tangent(m.nq, m.nv, ints(scalar_q), ints(scalar_v), ints(quat_q), ints(quat_v))

    @property
    def has_quaternions(self) -> bool:
        return self.quat_q.size > 0


def _normalize3(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """mju_normalize3 on rows (..., 3): the unit vectors ((1, 0, 0) below mjMINVAL) and the norms."""
    norm = np.sqrt(x[..., 0] * x[..., 0] + x[..., 1] * x[..., 1] + x[..., 2] * x[..., 2])
    small = norm < MINVAL
    with np.errstate(divide="ignore", invalid="ignore"):
        unit = x * (1 / norm)[..., None]
    unit[small] = (1.0, 0.0, 0.0)
    return unit, norm


def _normalize4(q: np.ndarray) -> np.ndarray:
    """mju_normalize4 on rows (..., 4): scaled only where the norm is off 1 by more than mjMINVAL."""
    norm = np.sqrt(q[..., 0] * q[..., 0] + q[..., 1] * q[..., 1] + q[..., 2] * q[..., 2] + q[..., 3] * q[..., 3])
    out = q.copy()
    scale = np.abs(norm - 1) > MINVAL
    with np.errstate(divide="ignore", invalid="ignore"):
        out[scale] = q[scale] * (1 / norm[scale])[..., None]
    out[norm < MINVAL] = (1.0, 0.0, 0.0, 0.0)
    return out


def _mul_quat(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """mju_mulQuat on rows (..., 4)."""
    a0, a1, a2, a3 = (a[..., k] for k in range(4))
    b0, b1, b2, b3 = (b[..., k] for k in range(4))
    return np.stack(
        (
            a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3,
            a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2,
            a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1,
            a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0,
        ),
        axis=-1,
    )


def integrate_pos(t: Tangent, qpos: np.ndarray, qvel: np.ndarray, h) -> np.ndarray:
    """mj_integratePos(m, qpos, qvel, h) on rows: qpos (N, nq), qvel (N, nv), h a number or (N,)."""
    h = np.asarray(h, dtype=np.float64)
    out = np.array(qpos, dtype=np.float64)
    hs = h[..., None] if h.ndim else h
    out[:, t.scalar_q] = qpos[:, t.scalar_q] + hs * qvel[:, t.scalar_v]
    if t.has_quaternions:
        quat = qpos[:, t.quat_q[:, None] + np.arange(4)]  # (N, nquat, 4)
        w = qvel[:, t.quat_v[:, None] + np.arange(3)]  # (N, nquat, 3)
        axis, norm = _normalize3(w)
        angle = (h[..., None] if h.ndim else h) * norm
        half = angle * 0.5
        rot = np.concatenate((np.cos(half)[..., None], axis * np.sin(half)[..., None]), axis=-1)
        rot[angle == 0] = (1.0, 0.0, 0.0, 0.0)  # mju_axisAngle2Quat: the null rotation
        out[:, t.quat_q[:, None] + np.arange(4)] = _mul_quat(_normalize4(quat), rot)
    return out


def differentiate_pos(t: Tangent, qpos1: np.ndarray, qpos2: np.ndarray, h) -> np.ndarray:
    """mj_differentiatePos(m, qvel, h, qpos1, qpos2) on rows: the (N, nv) velocities that carry
    qpos1 to qpos2 in time h (a number or (N,))."""
    h = np.asarray(h, dtype=np.float64)
    hs = h[..., None] if h.ndim else h
    out = np.empty((qpos1.shape[0], t.nv))
    out[:, t.scalar_v] = (qpos2[:, t.scalar_q] - qpos1[:, t.scalar_q]) / hs
    if t.has_quaternions:
        q1 = qpos1[:, t.quat_q[:, None] + np.arange(4)]
        q2 = qpos2[:, t.quat_q[:, None] + np.arange(4)]
        conj = q1 * np.array([1.0, -1.0, -1.0, -1.0])
        dif = _mul_quat(conj, q2)
        axis, sin_half = _normalize3(dif[..., 1:])
        speed = 2 * np.arctan2(sin_half, dif[..., 0])
        speed = np.where(speed > math.pi, speed - 2 * math.pi, speed)
        w = axis * speed[..., None]
        out[:, t.quat_v[:, None] + np.arange(3)] = w * (1 / hs)[..., None] if h.ndim else w * (1 / h)
    return out
