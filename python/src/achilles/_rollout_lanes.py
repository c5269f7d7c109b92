"""The engine side of achilles.rollout: MuJoCo's rollouts as the robots of one Batch, one robot per
rollout in its SIMD lane, all of them stepped by one engine call per step.

MuJoCo's rollout (python/mujoco/rollout.cc, _unsafe_rollout) runs rollout r as: mj_setState(m[r],
d, initial_state[r], mjSTATE_FULLPHYSICS); qacc_warmstart = initial_warmstart[r], or 0 without one;
then for each step t: the controls of (r, t) set by mj_setState(control_spec), mj_step, and the new
FULLPHYSICS state [time, qpos, qvel, act] copied out, with the sensordata that mj_step's mj_forward
computed: the sensors of the state the step started from, under the step's controls (mj_forward's
sensordata of state t, not of the state copied out). Here robot r of the batch is rollout r: its
q, v, act and qacc_warm columns are written from the same arrays (an imported MJCF model's q is
MuJoCo's qpos in MuJoCo's order, v its qvel; gym/vector.py relies on the same), every robot steps
at once, and time is MuJoCo's own sum: t_{k+1} = t_k + timestep, rounded as mj_advance rounds it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ._batch import Batch, NonFiniteError

LANES_KEPT = 4  # batches a Rollout keeps (a planner usually calls with one nbatch and one model)


class RolloutDivergedError(FloatingPointError):
    """A rollout's state turned NaN or infinite while stepping (MuJoCo would warn mjWARN_BADQACC, reset
    that rollout's mjData and repeat the reset state to the end): the rollout and step it happened at.
    The rows of earlier steps are written; the rest of the output is not."""

    def __init__(self, rollout: int, step: int, joint: str):
        super().__init__(
            f"rollout {rollout} diverged at step {step}: its state became non-finite at joint '{joint}'"
            " (MuJoCo would warn mjWARN_BADQACC and reset it); the outputs hold the steps before it only"
        )
        self.rollout = rollout
        self.step = step
        self.joint = joint


@dataclass
class Controls:
    """What the step of every rollout reads, per rollout and step (None: the same at every step)."""

    ctrl: np.ndarray | None  # (nbatch, nstep, nu) or (nu,) held, or None: 0
    qfrc_applied: np.ndarray | None  # (nbatch, nstep, nv) or (nv,) held, or None: 0


class Lanes:
    """One batch whose robot r carries rollout r's model (a list of models that differ in values: each
    robot's own, by Batch.set_robot_model)."""

    def __init__(self, docs: list[dict], same_as_first: list[bool], precision: str, threads: int, record: bool = False):
        """record: a batch that keeps the contact wrenches (cfrc_ext) force and torque sensors read."""
        self.nbatch = len(docs)
        self.batch = Batch(docs[0], copies=self.nbatch, precision=precision, threads=threads, record=record)
        for r, same in enumerate(same_as_first):
            if not same:
                self.batch.set_robot_model(r, docs[r])
        b = self.batch
        # The engine state MuJoCo's mjData has no field for: each servo's rate-limited target, from
        # where the batch starts it (mj_setState leaves nothing of the last rollout behind).
        self.ctrl_target0 = np.array(b.ctrl_target)

    def run(self, nstep: int, time0: np.ndarray, qpos0: np.ndarray, qvel0: np.ndarray, act0: np.ndarray,
            warmstart: np.ndarray | None, controls: Controls, timestep: float, state: np.ndarray | None,
            sensordata: np.ndarray | None = None) -> None:
        """Every rollout for nstep steps; state (nbatch, nstep, 1 + nq + nv + na) gets each step's new
        state, sensordata (nbatch, nstep, nsensordata) the sensors of the state each step starts from
        (Batch.sensordata with the step's controls written: mj_step's mj_forward; reading it leaves the
        step unchanged)."""
        b, n = self.batch, self.nbatch
        nq, nv, na = b.nq, b.nv, b.na
        b.q[:, :n] = qpos0.T
        b.v[:, :n] = qvel0.T
        if na:
            b.act[:, :n] = act0.T
        if b.qacc_warm.size:  # mjData's qacc_warmstart (the batch has none without constraints)
            b.qacc_warm[:, :n] = 0 if warmstart is None else warmstart.T
        if b.ctrl_target.size:
            b.ctrl_target[...] = self.ctrl_target0
        self._write_held(b.tau, controls.qfrc_applied, n)
        held_ctrl = controls.ctrl is None or controls.ctrl.ndim == 1
        time = np.array(time0, dtype=np.float64)
        dt = np.float64(timestep)
        for t in range(nstep):
            ctrl = b.ctrl  # the half this step reads (the step clears the other)
            if held_ctrl:
                self._write_held(ctrl, controls.ctrl, n)
            else:
                ctrl[:, :n] = controls.ctrl[:, t, :].T
            if controls.qfrc_applied is not None and controls.qfrc_applied.ndim == 3:
                b.tau[:, :n] = controls.qfrc_applied[:, t, :].T
            if sensordata is not None:
                sensordata[:, t, :] = self._sensors_under(ctrl)[:, :n].T
            try:
                b.step(1)
            except NonFiniteError as e:
                raise RolloutDivergedError(e.robot, t, e.joint) from None
            time = time + dt  # mj_advance: d->time += timestep
            if state is not None:
                out = state[:, t, :]
                out[:, 0] = time
                out[:, 1 : 1 + nq] = b.q[:, :n].T
                out[:, 1 + nq : 1 + nq + nv] = b.v[:, :n].T
                if na:
                    out[:, 1 + nq + nv :] = b.act[:, :n].T

    def _sensors_under(self, ctrl: np.ndarray) -> np.ndarray:
        """Batch.sensordata under the controls just written for the next step (mj_forward's, with
        mjData's ctrl). Between steps the batch evaluates under the controls the last step read (the
        other half, held: _batch.py ctrl), so the new ones are put there for the evaluation and the
        half is restored after it: the step reads and clears as it would have."""
        b = self.batch
        if ctrl.size == 0:
            return b.sensordata
        halves = b.control_halves()
        held = halves[1] if ctrl is halves[0] else halves[0]
        kept = held.copy()
        held[...] = ctrl
        try:
            return b.sensordata
        finally:
            held[...] = kept

    @staticmethod
    def _write_held(field: np.ndarray, values: np.ndarray | None, n: int) -> None:
        if field.size == 0:
            return
        if values is None:
            field[:, :n] = 0
        elif values.ndim == 1:
            field[:, :n] = values[:, None]


class LanesCache:
    """The batches a Rollout keeps across calls (its thread pool, in MuJoCo's terms), by the models'
    versions, nbatch, precision and threads; the oldest goes past LANES_KEPT."""

    def __init__(self):
        self._kept: OrderedDict[tuple, Lanes] = OrderedDict()

    def get(self, key: tuple, make) -> Lanes:
        lanes = self._kept.get(key)
        if lanes is None:
            lanes = make()
            self._kept[key] = lanes
            while len(self._kept) > LANES_KEPT:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return lanes

    def clear(self) -> None:
        self._kept.clear()
