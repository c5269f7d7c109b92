"""achilles.rollout: a drop-in for MuJoCo's batched CPU rollouts (``mujoco.rollout``, MuJoCo 3.14).

    from achilles import rollout
    state, sensordata = rollout.rollout(model, data, initial_state, control)

The same signature, shapes, broadcasting and errors as ``mujoco.rollout.rollout`` (and its Rollout
class), plus ``precision='f64' | 'f32'``. initial_state: ([nbatch or 1] x nstate) states of
mjSTATE_FULLPHYSICS = [time, qpos, qvel, act]; control: ([nbatch or 1] x [nstep or 1] x ncontrol);
outputs state (nbatch x nstep x nstate) and sensordata (nbatch x nstep x nsensordata), float64.
model: an MjModel or a list of nbatch MjModels that differ in values (each rollout's robot gets its
own, in its SIMD lane); len(data): the threads (as MuJoCo's pool). The rollouts run as the robots of
one Achilles Batch, all stepped by one engine call per step (_rollout_lanes.py).

Where it differs from MuJoCo, on purpose:
  * a NaN, ±inf or |x| > 1e10 in an initial state, warm start or control raises BadRolloutInputError
    (a ValueError naming the rollout and step) before anything runs, with nothing written to the
    outputs (MuJoCo warns, resets that rollout's mjData and repeats the reset state);
  * a state that diverges while stepping raises RolloutDivergedError (rollout and step);
  * data is not written: MuJoCo leaves each thread's mjData at the last step of its last rollout;
  * what the engine does not compute is refused with NotImplementedError: xfrc_applied, eq_active and
    mocap controls, history and plugin state (and put_model refuses the sensors it does not compute).

sensordata is MuJoCo's: row t of a rollout holds what mj_step's mj_forward computed at the state step
t started from (the initial state for t = 0), under step t's controls, as mujoco.rollout records it.
"""

from __future__ import annotations

import atexit
from collections.abc import Sequence
from typing import Any, Optional, Union

import mujoco
import numpy as np
from numpy import typing as npt

from ._batch import MAX_CONTROL
from ._lanes import PRECISIONS
from ._model_door import compiled_of
from ._model_versions import ModelVersions
from ._rollout_lanes import Controls, Lanes, LanesCache, RolloutDivergedError

__all__ = ["BadRolloutInputError", "Rollout", "RolloutDivergedError", "rollout", "shutdown_persistent_pool"]

_S = mujoco.mjtState
# The parts of a control vector, in mj_setState's order: (bit, its size in a model, our support).
_CONTROL_PARTS = (
    (_S.mjSTATE_CTRL, lambda m: m.nu, "ctrl"),
    (_S.mjSTATE_QFRC_APPLIED, lambda m: m.nv, "qfrc_applied"),
    (_S.mjSTATE_XFRC_APPLIED, lambda m: 6 * m.nbody, None),
    (_S.mjSTATE_EQ_ACTIVE, lambda m: m.neq, None),
    (_S.mjSTATE_MOCAP_POS, lambda m: 3 * m.nmocap, None),
    (_S.mjSTATE_MOCAP_QUAT, lambda m: 4 * m.nmocap, None),
    (_S.mjSTATE_USERDATA, lambda m: m.nuserdata, "userdata"),  # read by no engine computation
)

_versions = ModelVersions()  # every MjModel's compiled document, per model version


def _compiled(model: Any) -> dict:
    """The engine's compiled document of a model: a dict from compile_model or put_model as it is, an
    MjModel through achilles.put_model (the package's one door, _model_door.py)."""
    return compiled_of(model)


class BadRolloutInputError(ValueError):
    """An initial state, warm start or control that is NaN, ±inf or of magnitude above 1e10 (MuJoCo's
    mju_isBad): the rollout, the step and what it is. Nothing was rolled out or written."""

    def __init__(self, rollout: int, step: int, what: str, value: float):
        super().__init__(
            f"rollout {rollout}, step {step}: {what} is {value!r}; nothing was rolled out and the outputs"
            " are untouched (each value must be finite and of magnitude at most 1e10, MuJoCo's mjMAXVAL)"
        )
        self.rollout = rollout
        self.step = step
        self.what = what
        self.value = value


class Rollout:
    """Rollouts that keep their batches between calls (MuJoCo's Rollout keeps its thread pool)."""

    def __init__(self, *, nthread: Optional[int] = None):
        """nthread: the engine's threads (0 or None: the calling thread, as MuJoCo's)."""
        self.nthread = 0 if nthread is None else nthread
        self.rollout_: Optional[LanesCache] = LanesCache()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()

    def close(self):
        if self.rollout_ is not None:
            self.rollout_.clear()
        self.rollout_ = None

    def rollout(
        self,
        model: Union[mujoco.MjModel, Sequence[mujoco.MjModel]],
        data: Union[mujoco.MjData, Sequence[mujoco.MjData]],
        initial_state: npt.ArrayLike,
        control: Optional[npt.ArrayLike] = None,
        *,
        control_spec: int = mujoco.mjtState.mjSTATE_CTRL.value,
        skip_checks: bool = False,
        nstep: Optional[int] = None,
        initial_warmstart: Optional[npt.ArrayLike] = None,
        state: Optional[npt.ArrayLike] = None,
        sensordata: Optional[npt.ArrayLike] = None,
        chunk_size: Optional[int] = None,
        precision: str = "f64",
    ):
        """mujoco.rollout.Rollout.rollout's arguments and results (see the module), plus precision."""
        if self.rollout_ is None:
            raise RuntimeError("rollout requested after thread pool shutdown")
        if isinstance(precision, bool) or precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)} (got {precision!r})")
        if skip_checks:
            self._run(model, data, nstep, control_spec, initial_state, initial_warmstart, control, state, sensordata, precision)
            return state, sensordata
        args = _checked(model, data, initial_state, control, control_spec, nstep, initial_warmstart, state, sensordata, chunk_size)
        model, data, nstep, initial_state, initial_warmstart, control, state, sensordata = args
        self._run(model, data, nstep, control_spec, initial_state, initial_warmstart, control, state, sensordata, precision)
        return state, sensordata

    # ---- rollout.cc's Rollout::rollout: its checks, then the rollouts --------------------------
    def _run(self, model, data, nstep, control_spec, state0, warmstart0, control, state, sensordata, precision):
        if nstep is None or isinstance(nstep, bool) or not isinstance(nstep, (int, np.integer)):
            raise TypeError(f"nstep must be an integer (got {nstep!r})")
        state0 = _c_array(state0)
        nbatch = state0.shape[0] if state0.ndim else 1
        models = [model[r] for r in range(nbatch)]
        if len(data) == 0:
            raise ValueError("The list of data instances is empty")
        if self.nthread == 0 and len(data) > 1:
            raise ValueError("More than one data instance passed but rollout is configured to run on main thread")
        if self.nthread > 0 and self.nthread != len(data):
            raise ValueError(f"Length of data: {len(data)} not equal to nthread: {self.nthread}")
        if nstep < 1:
            return
        m0 = models[0]
        nstate = mujoco.mj_stateSize(m0, _S.mjSTATE_FULLPHYSICS.value)
        ncontrol = mujoco.mj_stateSize(m0, control_spec)
        state0 = _sized(state0, "state0", nbatch, 1, nstate).reshape(nbatch, nstate)
        warmstart0 = _sized(_c_array(warmstart0), "warmstart0", nbatch, 1, m0.nv)
        control = _sized(_c_array(control), "control", nbatch, nstep, ncontrol)
        state_out = _sized(_c_array(state, out=True), "state", nbatch, nstep, nstate)
        sensor_out = _sized(_c_array(sensordata, out=True), "sensordata", nbatch, nstep, m0.nsensordata)

        _refuse_unsupported(m0, control_spec, sensor_out is not None)
        if warmstart0 is not None:
            warmstart0 = warmstart0.reshape(nbatch, m0.nv)
        if control is not None:
            control = control.reshape(nbatch, nstep, ncontrol)
        _check_values(m0, state0, warmstart0, control, control_spec)
        controls = _controls(m0, data, control, control_spec)
        timesteps = {float(m.opt.timestep) for m in models}
        integrators = {int(m.opt.integrator) for m in models}
        if len(timesteps) > 1 or len(integrators) > 1:
            raise NotImplementedError(
                f"the models' timesteps ({sorted(timesteps)}) or integrators ({sorted(integrators)}) differ:"
                " the rollouts of one call step together, with one"
            )

        threads = max(1, self.nthread)
        numbers, docs = _versions.versions(models, _compiled)
        key = (tuple(numbers), precision, threads)
        if sensor_out is not None and m0.nsensordata > 0:
            _refuse_sensors_that_differ(docs, numbers)
        # force and torque sensors read the contact wrenches of a record=True batch (mj_rnePostConstraint)
        record = sensor_out is not None and any(s["type"] in ("force", "torque") for s in docs[0].get("mjcfSensors") or [])
        key = key + (record,)
        lanes = self.rollout_.get(key, lambda: Lanes(docs, [n == numbers[0] for n in numbers], precision, threads, record))
        _check_sizes(lanes, m0)
        nq, nv = m0.nq, m0.nv
        out = None if state_out is None else state_out.reshape(nbatch, nstep, nstate)
        lanes.run(
            nstep,
            state0[:, 0],
            state0[:, 1 : 1 + nq],
            state0[:, 1 + nq : 1 + nq + nv],
            state0[:, 1 + nq + nv :],
            warmstart0,
            controls,
            timesteps.pop(),
            out,
            None if sensor_out is None or m0.nsensordata == 0 else sensor_out.reshape(nbatch, nstep, m0.nsensordata),
        )


persistent_rollout = None


def shutdown_persistent_pool():
    """Release the batches kept by rollout(persistent_pool=True) (also run at interpreter shutdown)."""
    global persistent_rollout
    if persistent_rollout is not None:
        persistent_rollout.close()
    persistent_rollout = None


atexit.register(shutdown_persistent_pool)


def rollout(
    model: Union[mujoco.MjModel, Sequence[mujoco.MjModel]],
    data: Union[mujoco.MjData, Sequence[mujoco.MjData]],
    initial_state: npt.ArrayLike,
    control: Optional[npt.ArrayLike] = None,
    *,
    control_spec: int = mujoco.mjtState.mjSTATE_CTRL.value,
    skip_checks: bool = False,
    nstep: Optional[int] = None,
    initial_warmstart: Optional[npt.ArrayLike] = None,
    state: Optional[npt.ArrayLike] = None,
    sensordata: Optional[npt.ArrayLike] = None,
    chunk_size: Optional[int] = None,
    persistent_pool: bool = False,
    precision: str = "f64",
):
    """mujoco.rollout.rollout's arguments and results (see the module), plus precision ('f64' or
    'f32': the engine's arithmetic; the outputs are float64 either way). persistent_pool: keep the
    batch for the next call with the same models, nbatch, precision and threads."""
    if not isinstance(data, list):
        data = [data]
    nthread = len(data) if len(data) > 1 else 0
    global persistent_rollout
    if persistent_pool:
        if persistent_rollout is None or persistent_rollout.nthread != nthread:
            shutdown_persistent_pool()
            persistent_rollout = Rollout(nthread=nthread)
        rollout_ = persistent_rollout
    else:
        rollout_ = Rollout(nthread=nthread)
    try:
        return rollout_.rollout(
            model,
            data,
            initial_state,
            control,
            control_spec=control_spec,
            skip_checks=skip_checks,
            nstep=nstep,
            initial_warmstart=initial_warmstart,
            state=state,
            sensordata=sensordata,
            chunk_size=chunk_size,
            precision=precision,
        )
    finally:
        if not persistent_pool:
            rollout_.close()


# ---- mujoco/rollout.py's checks, shapes and broadcasting (the same rules and messages) -----------
def _checked(model, data, initial_state, control, control_spec, nstep, initial_warmstart, state, sensordata, chunk_size):
    if not isinstance(model, mujoco.MjModel):
        model = list(model)
    if control_spec & ~_S.mjSTATE_USER.value:
        raise ValueError("control_spec can only contain bits in mjSTATE_USER")
    if nstep and not isinstance(nstep, (int, np.integer)):
        raise ValueError("nstep must be an integer")
    if chunk_size and not isinstance(chunk_size, (int, np.integer)):
        raise ValueError("chunk_size must be an integer")
    arrays = dict(initial_state=initial_state, initial_warmstart=initial_warmstart, control=control, state=state, sensordata=sensordata)
    for name, value in arrays.items():
        if value is not None and not isinstance(value, (np.ndarray, float)):
            raise ValueError(f"{name} must be a numpy array or float")
    for limit, names in ((2, ("initial_state", "initial_warmstart")), (3, ("control", "state", "sensordata"))):
        for name in names:
            if arrays[name] is not None and arrays[name].ndim > limit:
                raise ValueError(f"{name} can have at most {limit} dimensions")
    initial_state, initial_warmstart = _at_least(initial_state, 2), _at_least(initial_warmstart, 2)
    control, state, sensordata = _at_least(control, 3), _at_least(state, 3), _at_least(sensordata, 3)

    nbatch = _inferred(0, 1, initial_state=initial_state, initial_warmstart=initial_warmstart, control=control, state=state, sensordata=sensordata)
    if isinstance(model, list) and nbatch == 1:
        nbatch = len(model)
    if isinstance(model, list) and len(model) > 1 and len(model) != nbatch:
        raise ValueError(f"nbatch inferred as {nbatch} but model is length {len(model)}")
    if not isinstance(model, list):
        model = [model]
    if not isinstance(data, list):
        data = [data]
    nstep = _inferred(1, nstep or 1, control=control, state=state, sensordata=sensordata)

    m0 = model[0]
    nstate = mujoco.mj_stateSize(m0, _S.mjSTATE_FULLPHYSICS.value)
    ncontrol = mujoco.mj_stateSize(m0, control_spec)
    for m in model[1:]:
        if (
            nstate != mujoco.mj_stateSize(m, _S.mjSTATE_FULLPHYSICS.value)
            or ncontrol != mujoco.mj_stateSize(m, control_spec)
            or m0.nv != m.nv
            or m0.nsensordata != m.nsensordata
        ):
            raise ValueError("models are not compatible")
    for dim, named in (
        (nstate, dict(initial_state=initial_state, state=state)),
        (ncontrol, dict(control=control)),
        (m0.nv, dict(initial_warmstart=initial_warmstart)),
        (m0.nsensordata, dict(sensordata=sensordata)),
    ):
        for name, value in named.items():
            if value is not None and value.shape[-1] != dim:
                raise ValueError(f"trailing dimension of {name} must be {dim}, got {value.shape[-1]}")

    model = model * nbatch if len(model) == 1 else model
    initial_state = _tiled(initial_state, nbatch)
    initial_warmstart = _tiled(initial_warmstart, nbatch)
    control = _tiled(control, nbatch, nstep)
    if state is None:
        state = np.empty((nbatch, nstep, nstate), dtype=np.float64)
    if sensordata is None:
        sensordata = np.empty((nbatch, nstep, m0.nsensordata), dtype=np.float64)
    return model, data, nstep, initial_state, initial_warmstart, control, state, sensordata


def _at_least(value, ndim: int):
    """Leading axes of length 1 up to ndim, as a C-ordered float64 array (a copy only if needed)."""
    if value is None:
        return None
    value = np.asarray(value)
    if value.ndim < ndim:
        value = value.reshape((1,) * (ndim - value.ndim) + value.shape)
    return np.ascontiguousarray(value, dtype=np.float64)


def _inferred(axis: int, value: int, **arrays) -> int:
    """The common length of `axis` over the arrays where it is not 1 (value: a guess, 1 unknown)."""
    for name, array in arrays.items():
        if array is None or array.shape[axis] == value:
            continue
        if value == 1:
            value = array.shape[axis]
        elif array.shape[axis] != 1:
            raise ValueError(f"dimension {axis} inferred as {value} but {name} has {array.shape[axis]}")
    return value


def _tiled(array, nbatch: int, nstep: int | None = None):
    if array is None:
        return None
    reps = [1] * array.ndim
    if array.shape[0] == 1:
        reps[0] = nbatch
    if nstep is not None and array.shape[1] == 1:
        reps[1] = nstep
    return np.tile(array, reps)


# ---- rollout.cc's array checks ----------------------------------------------------------------
def _c_array(value, out: bool = False):
    """What pybind11 hands rollout.cc for an array argument (float64, C order): the array itself where
    it already is one (an output is then written in place), else a converted copy."""
    if value is None:
        return None
    if out and not (isinstance(value, np.ndarray) and value.dtype == np.float64 and value.flags.c_contiguous and value.flags.writeable):
        return np.array(value, dtype=np.float64)  # MuJoCo writes a converted copy, which the caller never sees
    return np.require(value, dtype=np.float64, requirements="C")


def _sized(array, name: str, nbatch: int, nstep: int, dim: int):
    """rollout.cc's get_array_ptr: its size must be nbatch * nstep * dim."""
    if array is None:
        return None
    expected = nbatch * nstep * dim
    if array.size != expected:
        raise ValueError(f"{name}.size should be {expected}, got {array.size}")
    return array


# ---- what the engine runs -----------------------------------------------------------------------
def _refuse_unsupported(m, control_spec: int, sensors_wanted: bool) -> None:
    """What the Achilles engine does not compute, refused by name rather than approximated."""
    if sensors_wanted and m.nsensordata > 0 and m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_SENSOR:
        raise NotImplementedError(
            "sensordata: the model's sensors are disabled (opt.disableflags has mjDSBL_SENSOR): MuJoCo's rollout then"
            " copies out whatever each thread's mjData.sensordata held, which the engine has no copy of (pass"
            " sensordata=None with skip_checks=True to roll out the states only)"
        )
    for bit, size, ours in _CONTROL_PARTS:
        if control_spec & bit.value and ours is None and size(m) > 0:
            raise NotImplementedError(f"control_spec: {bit.name} is not among the controls the Achilles engine takes (ctrl, qfrc_applied)")
    if m.nhistory > 0 or m.npluginstate > 0:
        what = "delay history (nhistory)" if m.nhistory > 0 else "plugin state (npluginstate)"
        raise NotImplementedError(f"the model has {what}, which the Achilles engine does not simulate")


def _refuse_sensors_that_differ(docs: list[dict], numbers: list) -> None:
    """A list of models that differ in values: each robot's model runs in its lane, but the sensors'
    frames, and the masses and centres of mass the host's force and torque sensors weigh, are the
    first model's (Batch.sensordata): refused where they would differ."""
    first = docs[0]
    wrench = any(s["type"] in ("force", "torque") for s in first.get("mjcfSensors") or [])
    for r, doc in enumerate(docs):
        if numbers[r] == numbers[0]:
            continue
        if doc.get("mjcfSensors") != first.get("mjcfSensors"):
            raise NotImplementedError(
                f"sensordata: model {r}'s sensors (their frames: a site, geom or inertial frame moved) differ from model 0's;"
                " the rollouts of one call read one model's sensors (pass sensordata=None with skip_checks=True, or one model)"
            )
        if wrench and doc["native"]["bodies"] != first["native"]["bodies"]:
            raise NotImplementedError(
                f"sensordata: model {r}'s bodies differ from model 0's, and its force and torque sensors weigh model 0's masses"
                " and centres of mass (computed on the host from one model); drop those sensors, or roll the models out apart"
            )


def _state_label(m, k: int) -> str:
    """Entry k of a FULLPHYSICS state: time, qpos[i], qvel[i] or act[i], with its joint's name."""
    if k == 0:
        return "time"
    k -= 1
    for part, size, joint_of in (("qpos", m.nq, m.jnt_qposadr), ("qvel", m.nv, m.jnt_dofadr)):
        if k < size:
            j = int(np.searchsorted(joint_of, k, side="right")) - 1
            return f"{part}[{k}], {_named('joint', m.joint(j).name, j)}"
        k -= size
    return f"act[{k}]"


def _named(kind: str, name: str, index: int) -> str:
    return f"{kind} '{name}'" if name else f"{kind} {index}"


def _control_label(m, control_spec: int, k: int) -> str:
    for bit, size, ours in _CONTROL_PARTS:
        if not control_spec & bit.value:
            continue
        n = size(m)
        if k < n:
            if bit == _S.mjSTATE_CTRL:
                return f"ctrl[{k}], {_named('actuator', m.actuator(k).name, k)}"
            return f"{ours or bit.name}[{k}]"
        k -= n
    return f"control entry {k}"


def _first_bad(x: np.ndarray):
    """The index of the first entry that is NaN or of magnitude above 1e10 (±inf included), or None."""
    bad = ~(np.abs(x) <= MAX_CONTROL)
    if not bad.any():
        return None
    return np.unravel_index(int(np.argmax(bad)), x.shape)


def _check_values(m, state0, warmstart0, control, control_spec) -> None:
    bad = _first_bad(state0)
    if bad is not None:
        r, k = bad
        raise BadRolloutInputError(int(r), 0, f"initial_state[{r}, {k}] ({_state_label(m, int(k))})", float(state0[r, k]))
    if warmstart0 is not None:
        bad = _first_bad(warmstart0)
        if bad is not None:
            r, k = bad
            raise BadRolloutInputError(int(r), 0, f"initial_warmstart[{r}, {k}]", float(warmstart0[r, k]))
    if control is not None:
        bad = _first_bad(control)
        if bad is not None:
            r, t, k = bad
            what = f"control[{r}, {t}, {k}] ({_control_label(m, control_spec, int(k))})"
            raise BadRolloutInputError(int(r), int(t), what, float(control[r, t, k]))


def _controls(m, data: list, control, control_spec: int) -> Controls:
    """Each step's ctrl and qfrc_applied. Without a control array, rollout.cc leaves in mjData what the
    caller put there for the parts control_spec names (and zeroes the others): the data's own values,
    the same at every step (the threads' mjData must then agree: MuJoCo's rollouts would otherwise
    depend on which thread ran them)."""
    parts: dict[str, np.ndarray | None] = {"ctrl": None, "qfrc_applied": None}
    offset = 0
    for bit, size, ours in _CONTROL_PARTS:
        if not control_spec & bit.value:
            continue
        n = size(m)
        if ours in parts:
            if control is not None:
                parts[ours] = control[:, :, offset : offset + n]
            else:
                held = [np.asarray(getattr(d, ours), dtype=np.float64) for d in data]
                if any(not np.array_equal(h, held[0]) for h in held[1:]):
                    raise ValueError(f"control is None and the threads' mjData hold different {ours}: MuJoCo's result would depend on the threads")
                bad = _first_bad(held[0])
                if bad is not None:
                    raise BadRolloutInputError(0, 0, f"data.{ours}[{bad[0]}] (control is None)", float(held[0][bad]))
                parts[ours] = held[0].copy()
        offset += n
    return Controls(ctrl=parts["ctrl"], qfrc_applied=parts["qfrc_applied"])


def _check_sizes(lanes: Lanes, m) -> None:
    """The engine's model is the MjModel's: the same sizes and timestep (a put_model that disagrees is
    a bug to name, not to run)."""
    b = lanes.batch
    if (b.nq, b.nv, b.nu, b.na, b.dt) != (m.nq, m.nv, m.nu, m.na, float(m.opt.timestep)):
        raise ValueError(
            f"the engine's model has nq, nv, nu, na, timestep = {b.nq}, {b.nv}, {b.nu}, {b.na}, {b.dt} where the"
            f" MjModel has {m.nq}, {m.nv}, {m.nu}, {m.na}, {m.opt.timestep}"
        )
    sensors = lanes.batch.model.get("mjcfSensors") or []
    nsensordata = sensors[-1]["adr"] + sensors[-1]["dim"] if sensors else 0
    if nsensordata != m.nsensordata:
        raise ValueError(f"the engine's model has {nsensordata} sensordata values where the MjModel has nsensordata = {m.nsensordata}")


