"""The lanes of achilles.derivatives: MuJoCo's finite-difference transition Jacobians
(engine_derivative_fd.c, mjd_stepFD) with every perturbed step of every state taken at once, each
perturbed copy of a state one robot of one Batch.

mjd_stepFD steps the state x = (qpos, qvel, act) with control u once (the nominal, y = f(x, u)), then
once per perturbation, each from the same saved inputs (mj_setState of FULLPHYSICS, ctrl and the
warm start qacc_warmstart: every perturbed step starts from the nominal's warm start), and forms
  forward:   column j = (f(x + eps e_j) - f(x)) / eps
  centered:  column j = (f(x + eps e_j) - f(x - eps e_j)) / (2 eps)
where "x + eps e_j" is mj_integratePos along dof j for a position (a quaternion turns about its
joint's local axis j, never moves in its coordinates), qvel[j] + eps, act[j] + eps, and a difference of
next states is mj_differentiatePos for their qpos and plain subtraction for qvel and act. A control
near its ctrlrange's limits is nudged only inside it: forward if [u, u + eps] lies in the range, else
backward if [u - eps, u] does (centered: both sides that fit), and a control whose range fits neither
(outside it, or narrower than eps) gets a zero column.

The block of one state is L = 1 + k P lanes (P = 2 nv + na + nu perturbations, k = 1 forward or 2
centered): lane 0 the nominal, lanes 1..P the "first side" (+eps: positions, velocities, activations,
controls; a control that cannot go forward but may go back takes -eps here in forward mode), and, when
centered, lanes P+1..2P the "second side" (-eps; a control that may not go back is stepped unperturbed
there and left unused). MuJoCo's mj_stepSkip reuses the nominal's position (and velocity) stages for
velocity (control and activation) perturbations; those stages are evaluated at the very same inputs,
so a full step of each perturbed copy is the same computation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._tangent import Tangent, differentiate_pos, integrate_pos


@dataclass(frozen=True)
class Sizes:
    nq: int
    nv: int
    na: int
    nu: int

    @property
    def ndx(self) -> int:
        """The tangent state's size, 2 nv + na (the rows of A and B)."""
        return 2 * self.nv + self.na

    @property
    def perturbations(self) -> int:
        """P: one per tangent-state entry and per control."""
        return self.ndx + self.nu

    def lanes(self, centered: bool) -> int:
        """L: the lanes of one state's block."""
        return 1 + (2 if centered else 1) * self.perturbations


@dataclass
class ControlSides:
    """Which ways each control of each state may be nudged (mjd_stepFD's nudge_fwd, nudge_back),
    (nbatch, nu) each."""

    forward: np.ndarray
    backward: np.ndarray


def control_sides(ctrl: np.ndarray, eps: float, centered: bool, limited: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> ControlSides:
    """mjd_stepFD's rule: forward if unlimited or both u and u + eps lie in [lo, hi]; backward if
    (centered or not forward) and (unlimited or both u - eps and u lie in it)."""

    def inside(a, b):
        return (a >= lo) & (a <= hi) & (b >= lo) & (b <= hi)

    forward = ~limited | inside(ctrl, ctrl + eps)
    backward = (centered | ~forward) & (~limited | inside(ctrl - eps, ctrl))
    return ControlSides(forward, backward)


@dataclass
class LaneInputs:
    """Every lane's inputs, lane-major (nbatch * L rows): state block b holds rows b*L .. b*L + L - 1."""

    qpos: np.ndarray
    qvel: np.ndarray
    act: np.ndarray
    ctrl: np.ndarray


def lane_inputs(t: Tangent, s: Sizes, qpos: np.ndarray, qvel: np.ndarray, act: np.ndarray, ctrl: np.ndarray,
                eps: float, centered: bool, sides: ControlSides) -> LaneInputs:
    """The perturbed copies of each state (qpos (nbatch, nq), qvel, act, ctrl likewise)."""
    nbatch = qpos.shape[0]
    nq, nv, na, nu, P = s.nq, s.nv, s.na, s.nu, s.perturbations
    L = s.lanes(centered)
    rows = lambda x: np.repeat(x[:, None, :], L, axis=1)  # noqa: E731  (nbatch, L, n)
    lq, lv, la, lu = rows(qpos), rows(qvel), rows(act), rows(ctrl)
    signs = (1.0, -1.0) if centered else (1.0,)
    for side, sign in enumerate(signs):
        first = 1 + side * P  # the side's first lane
        # positions: mj_integratePos(qpos, e_i, sign * eps), all dofs i of all states in one call
        unit = np.tile(np.eye(nv), (nbatch, 1))
        moved = integrate_pos(t, np.repeat(qpos, nv, axis=0), unit, sign * eps)
        lq[:, first : first + nv, :] = moved.reshape(nbatch, nv, nq)
        i = np.arange(nv)
        lv[:, first + nv + i, i] += sign * eps
        k = np.arange(na)
        la[:, first + 2 * nv + k, k] += sign * eps
        j = np.arange(nu)
        if sign > 0:  # forward where it fits; in forward mode, backward where only that fits
            step = np.where(sides.forward, eps, np.where(sides.backward & (not centered), -eps, 0.0))
        else:
            step = np.where(sides.backward, -eps, 0.0)
        lu[:, first + s.ndx + j, j] += step  # ctrl[i] += eps (or -= eps), as mjd_stepFD nudges it
    flat = lambda x: x.reshape(nbatch * L, x.shape[2])  # noqa: E731
    return LaneInputs(flat(lq), flat(lv), flat(la), flat(lu))


def state_diff(t: Tangent, s: Sizes, x1: np.ndarray, x2: np.ndarray, h: np.ndarray) -> np.ndarray:
    """mjd_stepFD's stateDiff on rows: (x2 - x1) / h in the tangent space, x = (qpos, qvel, act)
    of (N, nq + nv + na), h (N,): (N, 2 nv + na). With nq == nv it is (x2 - x1) * (1 / h) throughout."""
    inv_h = (1 / h)[:, None]
    if s.nq == s.nv:
        return inv_h * (x2 - x1)
    out = np.empty((x1.shape[0], s.ndx))
    out[:, : s.nv] = differentiate_pos(t, x1[:, : s.nq], x2[:, : s.nq], h)
    out[:, s.nv :] = inv_h * (x2[:, s.nq :] - x1[:, s.nq :])
    return out


def jacobians(t: Tangent, s: Sizes, nxt: np.ndarray, eps: float, centered: bool, sides: ControlSides) -> tuple[np.ndarray, np.ndarray]:
    """A (nbatch, ndx, ndx) and B (nbatch, ndx, nu) from every lane's next state nxt (nbatch, L,
    nq + nv + na): column j of A is perturbation j's difference (mjd_stepFD's DyDq, DyDv, DyDa rows,
    transposed as mjd_transitionFD transposes them)."""
    nbatch, P = nxt.shape[0], s.perturbations
    nominal = np.repeat(nxt[:, :1, :], P, axis=1)  # (nbatch, P, nx)
    plus = nxt[:, 1 : 1 + P, :]
    minus = nxt[:, 1 + P : 1 + 2 * P, :] if centered else None
    if centered:  # states: (f(x+) - f(x-)) / 2 eps
        x1, x2 = minus.copy(), plus.copy()
        h = np.full((nbatch, P), 2 * eps)
    else:  # states: (f(x+) - f(x)) / eps
        x1, x2 = nominal.copy(), plus.copy()
        h = np.full((nbatch, P), eps)
    # controls: clampedStateDiff's four cases
    c = slice(s.ndx, P)
    fwd, back = sides.forward, sides.backward
    back_lanes = minus[:, c, :] if centered else plus[:, c, :]  # where the -eps step of a control is
    only_fwd, only_back, both = fwd & ~back, back & ~fwd, fwd & back
    x1[:, c][only_fwd], x2[:, c][only_fwd] = nominal[:, c][only_fwd], plus[:, c][only_fwd]
    x1[:, c][only_back], x2[:, c][only_back] = back_lanes[only_back], nominal[:, c][only_back]
    h[:, c][only_fwd | only_back] = eps
    if centered:
        x1[:, c][both], x2[:, c][both] = minus[:, c][both], plus[:, c][both]
        h[:, c][both] = 2 * eps
    nx = nxt.shape[2]
    d = state_diff(t, s, x1.reshape(-1, nx), x2.reshape(-1, nx), h.reshape(-1)).reshape(nbatch, P, s.ndx)
    neither = ~(fwd | back)
    d[:, c][neither] = 0.0  # "differencing failed, write zeros"
    A = np.ascontiguousarray(d[:, : s.ndx, :].transpose(0, 2, 1))
    B = np.ascontiguousarray(d[:, s.ndx :, :].transpose(0, 2, 1))
    return A, B
