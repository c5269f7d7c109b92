"""Quaternion and vector helpers for put_model, written with the same operations in the same order as
the TypeScript compiler's (src/engine/math.ts quatMul, quatRotate; src/model-files/import/frames.ts
axisAngleQuat), so that a value made from the same inputs is the same double."""

from __future__ import annotations

import math

Vec3 = list
Quat = list


def add(a, b) -> list:
    return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]


def sub(a, b) -> list:
    return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]


def quat_mul(a, b) -> list:
    """a·b (Hamilton product, w first)."""
    return [
        a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
        a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
        a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
        a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
    ]


def quat_rotate(q, v) -> list:
    """R(q)·v = v + 2w(u×v) + 2u×(u×v), u = (x, y, z)."""
    w, x, y, z = q
    tx = 2 * (y * v[2] - z * v[1])
    ty = 2 * (z * v[0] - x * v[2])
    tz = 2 * (x * v[1] - y * v[0])
    return [v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx)]


def axis_angle_quat(axis, angle: float) -> list:
    n = math.hypot(axis[0], axis[1], axis[2])
    s = math.sin(angle / 2)
    return [math.cos(angle / 2), (axis[0] / n) * s, (axis[1] / n) * s, (axis[2] / n) * s]


def inertia6(iquat, principal) -> list:
    """The inertia tensor R·diag(I)·Rᵀ in body axes, as [Ixx, Iyy, Izz, Ixy, Ixz, Iyz], from MuJoCo's
    body_iquat (R, the principal axes in the body frame) and body_inertia (I, the principal moments)."""
    w, x, y, z = iquat
    R = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ]

    def el(i: int, j: int) -> float:
        return R[i][0] * principal[0] * R[j][0] + R[i][1] * principal[1] * R[j][1] + R[i][2] * principal[2] * R[j][2]

    # a body whose principal axes are its own (the identity) keeps its moments exactly
    if iquat[0] == 1 and iquat[1] == 0 and iquat[2] == 0 and iquat[3] == 0:
        return [principal[0], principal[1], principal[2], 0.0, 0.0, 0.0]
    return [el(0, 0), el(1, 1), el(2, 2), el(0, 1), el(0, 2), el(1, 2)]


def floats(a) -> list:
    """A numpy row as a list of Python floats (the JSON document holds plain numbers)."""
    return [float(x) for x in a]
