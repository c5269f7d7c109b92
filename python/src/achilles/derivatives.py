"""achilles.derivatives: MuJoCo's finite-difference transition Jacobians (mjd_transitionFD, MuJoCo
3.14) for a whole batch of states at once.

    from achilles import derivatives
    A, B = derivatives.transition_fd(model, states, controls)          # (nbatch, ndx, ndx), (nbatch, ndx, nu)
    achilles.mjd_transitionFD(m, d, 1e-6, False, A, B, None, None)     # MuJoCo's signature, in place

ndx = 2 nv + na: the state's tangent (qpos differences live in the nv-dimensional tangent space of
qpos, MuJoCo's mj_differentiatePos). For x' = f(x, u), one mj_step: dx' = A dx + B du. A finite
difference is many copies of one state that differ by a tiny perturbation: here every perturbed copy of
every state is one robot of one Achilles Batch, and all of them take their one step together
(_fd_lanes.py has the lanes and MuJoCo's rules: ctrl nudged one-sided near its ctrlrange limits,
positions along the tangent, every perturbed step from the nominal's warm start). The results are
MuJoCo's own (the same differences of the same steps), not an approximation of them.

Refused as MuJoCo refuses (mujoco.FatalError, its message): the RK4 integrator; delays (nhistory).
Refused because the engine lacks it (NotImplementedError): the implicit integrator (implicitfast and
Euler run), sensors (C, D of a model with sensors), plugin state, and in mjd_transitionFD's mjData
a non-zero xfrc_applied, mocap bodies or an eq_active that differs from the model's; under implicitfast,
an actuator whose gain has a velocity term (see _refuse_control_dependent_damping). Different on purpose:
a NaN, ±inf or |x| > 1e10 in a state, control or warm start raises ValueError naming it, and a step that
diverges raises TransitionDivergedError (state and perturbation), where MuJoCo warns and resets.
mjd_inverseFD is absent: the engine has no inverse dynamics (mj_inverse).
"""

from __future__ import annotations

from typing import Any, Optional

import mujoco
import numpy as np

from . import rollout as _rollout
from ._fd_lanes import Sizes, control_sides, jacobians, lane_inputs
from ._rollout_lanes import Controls, Lanes, LanesCache, RolloutDivergedError
from ._lanes import PRECISIONS
from ._tangent import Tangent

__all__ = ["TransitionDivergedError", "mjd_transitionFD", "transition_fd"]

_S = mujoco.mjtState
_FULL = _S.mjSTATE_FULLPHYSICS.value
# MuJoCo's integrators as the engine names them (RK4: refused by MuJoCo; implicit: not in the engine).
_INTEGRATORS = {int(mujoco.mjtIntegrator.mjINT_EULER): "euler", int(mujoco.mjtIntegrator.mjINT_IMPLICITFAST): "implicitfast"}
_lanes = LanesCache()  # batches kept between calls, by model version, lanes, precision and threads


class TransitionDivergedError(FloatingPointError):
    """A perturbed (or nominal) step of a state turned NaN or infinite: the state and the perturbation."""

    def __init__(self, state: int, perturbation: str, joint: str):
        super().__init__(
            f"state {state}: the step with {perturbation} diverged (non-finite at joint '{joint}'); MuJoCo would"
            " warn mjWARN_BADQACC and reset its mjData, giving meaningless differences"
        )
        self.state = state
        self.perturbation = perturbation
        self.joint = joint


def transition_fd(
    model: mujoco.MjModel,
    states: Any,
    controls: Any = None,
    eps: float = 1e-6,
    centered: bool = False,
    threads: int = 1,
    precision: str = "f64",
    warmstart: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """A (nbatch, ndx, ndx) and B (nbatch, ndx, nu) of mj_step at each state, as mjd_transitionFD.

    states: (nbatch, nstate) or (nstate,) in mjSTATE_FULLPHYSICS layout [time, qpos, qvel, act], like
    mujoco.rollout's; controls: (nbatch, nu) or (nu,) (None: zero); warmstart: (nbatch, nv) or (nv,),
    each state's qacc_warmstart, from which its nominal and every perturbed step start (mjd_transitionFD
    uses mjData's; None: zero, as a fresh mjData). threads: the engine's; precision: 'f64' or 'f32' (the
    engine's arithmetic; f32 cannot resolve eps = 1e-6: centered with eps = 1e-3 it follows MuJoCo's f64
    differences of that eps within about 1e-3 of the largest entry)."""
    _refuse(model)
    eps = _checked_eps(eps)
    if isinstance(precision, bool) or precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)} (got {precision!r})")
    m = model
    s = Sizes(m.nq, m.nv, m.na, m.nu)
    nstate = mujoco.mj_stateSize(m, _FULL)
    states = _rows(states, "states", nstate)
    nbatch = states.shape[0]
    controls = np.zeros((nbatch, s.nu)) if controls is None else _rows(controls, "controls", s.nu, nbatch)
    warm = None if warmstart is None else _rows(warmstart, "warmstart", s.nv, nbatch)
    _check_values(m, states, controls, warm)
    centered = bool(centered)
    return _transition(m, s, states, controls, warm, None, eps, centered, threads, precision)


def mjd_transitionFD(m: mujoco.MjModel, d: mujoco.MjData, eps: float, flg_centered: bool,
                     A: Optional[np.ndarray], B: Optional[np.ndarray], C: Optional[np.ndarray], D: Optional[np.ndarray]) -> None:
    """mujoco.mjd_transitionFD: A (2nv+na, 2nv+na), B (2nv+na, nu), C (nsensordata, 2nv+na) and D
    (nsensordata, nu), each None or a writeable C-ordered float64 array, written in place. The step is
    d's: its state, ctrl, qfrc_applied and qacc_warmstart. d is not written (MuJoCo restores its inputs
    but leaves its computed fields at its last perturbed step)."""
    ndx, nu, ns = 2 * m.nv + m.na, m.nu, m.nsensordata
    for name, out, shape, text in (
        ("A", A, (ndx, ndx), "(2*nv+na, 2*nv+na)"),
        ("B", B, (ndx, nu), "(2*nv+na, nu)"),
        ("C", C, (ns, ndx), "(nsensordata, 2*nv+na)"),
        ("D", D, (ns, nu), "(nsensordata, nu)"),
    ):
        _check_output(name, out, shape, text)
    _refuse(m)
    if (C is not None or D is not None) and ns > 0:
        raise NotImplementedError(
            f"C, D: the model has {m.nsensor} sensors, whose derivatives the Achilles engine does not give yet (pass C=D=None)"
        )
    _refuse_data(m, d)
    eps = _checked_eps(eps)
    state = np.empty((1, mujoco.mj_stateSize(m, _FULL)))
    mujoco.mj_getState(m, d, state[0], _FULL)
    ctrl = np.array(d.ctrl, dtype=np.float64).reshape(1, nu)
    warm = np.array(d.qacc_warmstart, dtype=np.float64).reshape(1, m.nv)
    qfrc = np.array(d.qfrc_applied, dtype=np.float64)
    _check_values(m, state, ctrl, warm, qfrc)
    if A is None and B is None:
        return  # nothing asked (C and D of a model without sensors have no entries)
    a, b = _transition(m, Sizes(m.nq, m.nv, m.na, nu), state, ctrl, warm, qfrc if qfrc.any() else None, eps, bool(flg_centered), 1, "f64")
    if A is not None:
        A[...] = a[0]
    if B is not None:
        B[...] = b[0]


# ---- the lanes ---------------------------------------------------------------------------------------
def _transition(m, s: Sizes, states, controls, warm, qfrc_applied, eps: float, centered: bool, threads: int, precision: str):
    nq, nv, na, nu = s.nq, s.nv, s.na, s.nu
    nbatch, L = states.shape[0], s.lanes(centered)
    t = Tangent.of(m)
    limited = np.asarray(m.actuator_ctrllimited, dtype=bool)
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    sides = control_sides(controls, eps, centered, limited, lo, hi)
    qpos, qvel, act = states[:, 1 : 1 + nq], states[:, 1 + nq : 1 + nq + nv], states[:, 1 + nq + nv :]
    lanes_in = lane_inputs(t, s, qpos, qvel, act, controls, eps, centered, sides)

    n = nbatch * L
    numbers, docs = _rollout._versions.versions([m], _rollout._compiled)
    lanes = _lanes.get((numbers[0], n, precision, int(threads)), lambda: Lanes([docs[0]] * n, [True] * n, precision, threads))
    _rollout._check_sizes(lanes, m)
    _check_integrator(lanes, m)
    time0 = np.repeat(states[:, 0], L)
    warm_lanes = None if warm is None else np.repeat(warm, L, axis=0)
    nxt = np.empty((n, 1, 1 + nq + nv + na))
    ctrl = Controls(ctrl=lanes_in.ctrl.reshape(n, 1, nu), qfrc_applied=qfrc_applied)
    try:
        lanes.run(1, time0, lanes_in.qpos, lanes_in.qvel, lanes_in.act, warm_lanes, ctrl, float(m.opt.timestep), nxt)
    except RolloutDivergedError as e:
        state, lane = divmod(e.rollout, L)
        raise TransitionDivergedError(state, _perturbation(m, s, lane, centered), e.joint) from None
    return jacobians(t, s, nxt[:, 0, 1:].reshape(nbatch, L, nq + nv + na), eps, centered, sides)


def _perturbation(m, s: Sizes, lane: int, centered: bool) -> str:
    """What lane `lane` of a state's block perturbs (for messages)."""
    if lane == 0:
        return "no perturbation (the nominal)"
    k = (lane - 1) % s.perturbations
    sign = "+" if lane <= s.perturbations else "-"
    for what, size in (("qpos dof", s.nv), ("qvel", s.nv), ("act", s.na), ("ctrl", s.nu)):
        if k < size:
            return f"{what}[{k}] {sign} eps"
        k -= size
    return f"lane {lane}"


# ---- checks --------------------------------------------------------------------------------------------
def _refuse(m) -> None:
    """What MuJoCo refuses (its error and words), then what the engine cannot do."""
    if int(m.opt.integrator) == int(mujoco.mjtIntegrator.mjINT_RK4):
        raise mujoco.FatalError("mjd_transitionFD: RK4 integrator is not supported")
    if m.nhistory > 0:
        raise mujoco.FatalError("mjd_transitionFD: delays are not supported")
    if int(m.opt.integrator) not in _INTEGRATORS:
        name = mujoco.mjtIntegrator(int(m.opt.integrator)).name
        raise NotImplementedError(f"the integrator {name}: the Achilles engine steps Euler and implicitfast here (not implicit's full velocity derivative)")
    _rollout._refuse_unsupported(m, _S.mjSTATE_CTRL.value, False)
    if int(m.opt.integrator) == int(mujoco.mjtIntegrator.mjINT_IMPLICITFAST):
        _refuse_control_dependent_damping(m)


def _refuse_control_dependent_damping(m) -> None:
    """implicitfast steps v' = v + h (M - h qDeriv)^-1 f with qDeriv = d(qfrc_smooth)/dv, whose actuator
    part is gain_v * (ctrl or act) + bias_v: it depends on the control (activation) where an actuator's
    gain has a velocity term. mjd_stepFD steps the control and activation perturbations with
    mj_stepSkip(mjSTAGE_VEL), which keeps the nominal's factor of M - h qDeriv; the engine's full step
    refactors it at the perturbed control, a different number (by 2% of B on the general-servos arm).
    Refused rather than differing from MuJoCo: Euler, whose factor holds no actuator term, is exact."""
    fixed, affine = int(mujoco.mjtGain.mjGAIN_FIXED), int(mujoco.mjtGain.mjGAIN_AFFINE)
    for i in range(m.nu):
        kind = int(m.actuator_gaintype[i])
        if kind == fixed or (kind == affine and m.actuator_gainprm[i, 2] == 0):
            continue
        name = _rollout._named("actuator", m.actuator(i).name, i)
        raise NotImplementedError(
            f"{name}'s gain depends on velocity (gaintype {mujoco.mjtGain(kind).name}, gainprm[2] ="
            f" {m.actuator_gainprm[i, 2]:g}) under implicitfast: MuJoCo differences its control and activation"
            " with the nominal step's factor of M - h qDeriv (mj_stepSkip), which the Achilles engine cannot"
            " keep; use Euler, where the two agree"
        )


def _refuse_data(m, d) -> None:
    """mjData inputs of mj_step the engine is not given: refused where they would change the step."""
    if np.any(d.xfrc_applied):
        raise NotImplementedError("d.xfrc_applied is non-zero: the Achilles engine takes no Cartesian applied forces")
    if m.nmocap > 0:
        raise NotImplementedError("the model has mocap bodies, whose mjData poses the Achilles engine does not take")
    if m.neq > 0 and not np.array_equal(np.asarray(d.eq_active, dtype=bool), np.asarray(m.eq_active0, dtype=bool)):
        raise NotImplementedError("d.eq_active differs from the model's eq_active0: the engine's equalities are the model's")


def _check_integrator(lanes: Lanes, m) -> None:
    want = _INTEGRATORS[int(m.opt.integrator)]
    if lanes.batch.integrator != want:
        raise ValueError(f"the engine's model steps with {lanes.batch.integrator} where the MjModel has {want}")


def _checked_eps(eps) -> float:
    if isinstance(eps, bool) or not isinstance(eps, (int, float, np.floating, np.integer)) or not (0 < float(eps) < np.inf):
        raise ValueError(f"eps must be a positive finite number (got {eps!r})")
    return float(eps)


def _rows(x, name: str, width: int, nbatch: Optional[int] = None) -> np.ndarray:
    """x as (nbatch, width) float64 rows: one row (width,) is one state; a single row broadcasts to nbatch."""
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2 or a.shape[1] != width:
        raise ValueError(f"{name} must be (nbatch, {width}) or ({width},), got shape {np.shape(x)}")
    if nbatch is not None and a.shape[0] != nbatch:
        if a.shape[0] != 1:
            raise ValueError(f"{name} has {a.shape[0]} rows where states has {nbatch}")
        a = np.repeat(a, nbatch, axis=0)
    if a.shape[0] == 0:
        raise ValueError(f"{name} is empty")
    return np.ascontiguousarray(a)


def _check_values(m, states, controls, warm, qfrc_applied=None) -> None:
    """NaN, ±inf or |x| > 1e10 (MuJoCo's mju_isBad) in an input: a ValueError naming the state and entry."""
    for name, x, label in (
        ("states", states, lambda k: _rollout._state_label(m, k)),
        ("controls", controls, lambda k: _rollout._control_label(m, _S.mjSTATE_CTRL.value, k)),
        ("warmstart", warm, lambda k: f"qacc_warmstart[{k}]"),
    ):
        if x is None:
            continue
        bad = _rollout._first_bad(x)
        if bad is not None:
            r, k = (int(i) for i in bad)
            raise ValueError(f"{name}[{r}, {k}] ({label(k)}) is {float(x[r, k])!r}: each value must be finite and of magnitude at most 1e10 (MuJoCo's mjMAXVAL)")
    if qfrc_applied is not None and _rollout._first_bad(qfrc_applied) is not None:
        raise ValueError("d.qfrc_applied holds a NaN, an infinity or a magnitude above 1e10")


def _check_output(name: str, out, shape: tuple, text: str) -> None:
    """The MuJoCo binding's rules for an output matrix: None, or a writeable C-ordered float64 array
    of the right shape (TypeError otherwise, as pybind11 and MuJoCo raise it)."""
    if out is None:
        return
    if not isinstance(out, np.ndarray) or out.dtype != np.float64 or out.ndim != 2 or not out.flags.c_contiguous or not out.flags.writeable:
        raise TypeError(f"mjd_transitionFD(): {name} must be None or a writeable, C-contiguous 2-D float64 numpy array")
    if out.shape != shape:
        raise TypeError(f"{name} should be of shape {text}")
