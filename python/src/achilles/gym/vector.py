"""Gymnasium's MuJoCo tasks over the Achilles engine: one `gymnasium.vector.VectorEnv` whose envs
are the robots of one batch, stepped together in SIMD lanes.

The task (observation, reward, termination, reset) is its file in tasks/gymnasium/ (task.py); the
model is Gymnasium's own file, read from the installed gymnasium package. Semantics are Gymnasium
1.x's v5 envs under its default vector autoreset mode (next step): an env that terminates or is
truncated returns its final observation, and its next `step` resets it instead of stepping it,
returning the reset observation with reward 0.
"""

from __future__ import annotations

import os
import warnings
from collections import ChainMap
from collections.abc import Mapping
from typing import Any

import numpy as np

from .._batch import MAX_CONTROL
from .expr import names_in
from .task import CONSTANTS, Task, load_task

# Quantities of task.py's list that this env computes from the engine's state today. A task that
# reads any other is refused by name rather than approximated.
STATE = frozenset({"qpos", "qvel", "ctrl", "action", "init_qpos", "init_qvel", "state_vector", "dt", "timestep", "nq", "nv", "nu"})
# mjData's fields after mj_step + mj_rnePostConstraint, as Gymnasium's MujocoEnv reads them: those of
# the step's last evaluation (the batch records them: Batch(record=True), last_evaluation()).
RECORDED = frozenset({"xpos", "xipos", "site_xpos", "body_mass", "cinert", "cvel", "cfrc_ext", "qfrc_constraint", "qfrc_actuator"})
COMPUTED = STATE | RECORDED
CONSTANT_NAMES = frozenset(CONSTANTS) | {"observation"}


def gymnasium_model_path(xml_file: str) -> str:
    """Gymnasium's MujocoEnv rule (expand_model_path): a path starting with '.' or '/' as given, '~'
    expanded, anything else inside gymnasium/envs/mujoco/assets."""
    if xml_file.startswith((".", "/")):
        path = xml_file
    elif xml_file.startswith("~"):
        path = os.path.expanduser(xml_file)
    else:
        import gymnasium.envs.mujoco as gm

        path = os.path.join(os.path.dirname(gm.__file__), "assets", xml_file)
    if not os.path.isfile(path):
        raise OSError(f"File {path} does not exist")
    return path


def quantities_read(task: Task) -> set[str]:
    """The names the task's formulas read that are neither its parameters nor its own terms."""
    read = set().union(*(names_in(f) for f in task.formulas()))
    # a reset entry's name (Reacher's goal) is the task's own, unless it is the state it resets
    own_reset = set(task.reset) - {"qpos", "qvel"}
    return read - set(task.params) - set(task.before) - set(task.step) - own_reset - CONSTANT_NAMES


def unsupported_quantities(task: Task) -> list[str]:
    return sorted(quantities_read(task) - COMPUTED)


def why_refused(task: Task) -> str | None:
    """Why make_vec cannot run this task as Gymnasium does (None: it can)."""
    missing = unsupported_quantities(task)
    if missing:
        return f"the task reads {', '.join(missing)}, which the Achilles engine does not compute yet (computed: {', '.join(sorted(COMPUTED))})"
    return None


class BadControlWarning(RuntimeWarning):
    """An action held a control MuJoCo calls bad (mjWARN_BADCTRL): its env stepped with every control at 0."""


def _vector_env_base():
    import gymnasium

    return gymnasium.vector.VectorEnv


class AchillesVectorEnv(_vector_env_base()):
    """`num_envs` copies of a Gymnasium MuJoCo task in one Achilles batch."""

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        precision: str = "f32",
        threads: int = 1,
        lanes: int | None = None,
        model: Any = None,
        **kwargs: Any,
    ):
        import gymnasium
        from gymnasium.vector import AutoresetMode
        from gymnasium.vector.utils import batch_space

        from .. import Batch  # the native package (achilles/__init__.py)
        from .._compile import check_compiled
        from .._model_door import compiled_of
        from .._memory import keep_freed_heap

        if not (isinstance(num_envs, int) and num_envs >= 1):
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        self.task = load_task(env_id, **kwargs)
        self.task.compile_formulas(COMPUTED)  # what _values gives per env
        keep_freed_heap()  # each step's arrays would otherwise fault their pages in again
        refused = why_refused(self.task)
        if refused:
            raise NotImplementedError(f"{env_id}: {refused}")
        if model is not None and "xml_file" in kwargs:
            raise ValueError(f"{env_id}: give the model either as model= or as xml_file=, not both")
        # the task's model file (Gymnasium's xml_file rule), or the model given: a path, a document from
        # compile_model or put_model, or a mujoco.MjModel
        self.model_path = gymnasium_model_path(self.task.model) if model is None else None
        self.compiled = compiled_of(self.model_path if model is None else model)
        check_compiled(self.compiled)
        layout = self.compiled.get("mujoco")
        # MuJoCo's body names (the world first), which body('name') reads, as get_body_com does
        self.task.bodies = ["world", *(b["name"] for b in layout["bodies"])] if layout else None
        # Record mjData's post-step fields only where the task reads them (it costs a little per step).
        self._recorded = bool(quantities_read(self.task) & RECORDED)
        self.batch = Batch(self.compiled, copies=num_envs, precision=precision, lanes=lanes, threads=threads, record=self._recorded)
        b = self.batch
        self.num_envs = num_envs
        self.nq, self.nv, self.nu = b.nq, b.nv, b.nu
        self.dt = b.dt * self.task.frame_skip
        b.reset()
        if self._recorded:
            self._layout = _MujocoLayout(self.compiled, quantities_read(self.task) & RECORDED)
            b.constrain(record=True)  # mj_forward at the initial state
        self.init_qpos = np.array(b.q[:, 0], dtype=np.float64)
        self.init_qvel = np.array(b.v[:, 0], dtype=np.float64)
        target = getattr(b, "ctrl_target", None)
        self._target0 = np.array(target[:, 0]) if target is not None and target.size else np.zeros(0)

        ranges = np.array([a["ctrlrange"] for a in self.compiled["names"]["actuators"]], dtype=np.float64).reshape(-1, 2)
        # MuJoCo's clamp of each control (ctrllimited): none where the model gives no ctrlrange
        self._ctrl_lo = np.array([-np.inf if a["ctrlrange"] is None else a["ctrlrange"][0] for a in self.compiled["names"]["actuators"]])
        self._ctrl_hi = np.array([np.inf if a["ctrlrange"] is None else a["ctrlrange"][1] for a in self.compiled["names"]["actuators"]])
        # Whether a good control stays good clamped: each finite bound is itself good (|bound| <= 1e10)
        bounds = np.concatenate([self._ctrl_lo, self._ctrl_hi])
        self._clamp_keeps_good = bool(np.all(np.isinf(bounds) | (np.abs(bounds) <= MAX_CONTROL)))
        self.single_action_space = gymnasium.spaces.Box(ranges[:, 0].astype(np.float32), ranges[:, 1].astype(np.float32), dtype=np.float32)
        obs_dim = self.task.observe(self._values(np.arange(1), np.zeros((1, self.nu)))).shape[1]
        self.single_observation_space = gymnasium.spaces.Box(-np.inf, np.inf, shape=(obs_dim,), dtype=np.float64)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}
        self.render_mode = None
        self.spec = None
        self._rngs: list[np.random.Generator] = [np.random.default_rng([0, i]) for i in range(num_envs)]
        self._autoreset = np.zeros(num_envs, dtype=bool)
        self._episode_steps = np.zeros(num_envs, dtype=np.int64)
        self._last_action = np.zeros((num_envs, self.nu))

    # -- the engine's state in MuJoCo's layouts ------------------------------------------------
    def _values(self, envs: np.ndarray, action: np.ndarray) -> Mapping[str, Any]:
        """What the task's formulas may read for `envs` (increasing): the state, and the recorded
        quantities, each of those formed when first read."""
        b = self.batch
        n = len(envs)
        qpos, qvel = _env_major(b.q, envs), _env_major(b.v, envs)
        state = {
            "qpos": qpos,
            "qvel": qvel,
            "action": action,
            "ctrl": np.asarray(action, dtype=np.float64),
            "init_qpos": np.broadcast_to(self.init_qpos, (n, self.nq)),
            "init_qvel": np.broadcast_to(self.init_qvel, (n, self.nv)),
            "state_vector": np.concatenate([qpos, qvel], axis=1),
            "dt": np.float64(self.dt),
            "timestep": np.float64(b.dt),  # MuJoCo's opt.timestep (HumanoidStandup's uph_cost divides by it)
            "nq": self.nq,
            "nv": self.nv,
            "nu": self.nu,
        }
        return ChainMap(state, self._layout.values(b.last_evaluation(), envs)) if self._recorded else state

    def _write_state(self, envs: np.ndarray, qpos: np.ndarray, qvel: np.ndarray) -> None:
        b = self.batch
        b.q[:, envs] = np.asarray(qpos).T
        b.v[:, envs] = np.asarray(qvel).T

    def _clear_robot_state(self, envs: np.ndarray) -> None:
        """The rest of MuJoCo's mj_resetData for these envs: activations, actuator forces and the
        solver's warm start at 0, servo targets at their initial values (as a fresh batch has them)."""
        b = self.batch
        for name in ("act", "actuator_force", "qacc_warm"):
            field = getattr(b, name, None)
            if field is not None and field.size:
                field[:, envs] = 0
        target = getattr(b, "ctrl_target", None)
        if target is not None and target.size:
            target[:, envs] = self._target0[:, None]

    def _forward_envs(self, envs: np.ndarray, cfrc_ext_zero: bool) -> None:
        """MuJoCo's mj_forward for `envs` only: constrain(robots=envs) records those envs alone, the
        other envs of their blocks keeping the record of their last step."""
        if not self._recorded or len(envs) == 0:
            return
        rec = self.batch.last_evaluation()
        cfrc = None if cfrc_ext_zero else np.array(rec["cfrc_ext"][:, envs])
        self.batch.constrain(record=True, robots=envs)
        rec["cfrc_ext"][:, envs] = 0 if cfrc_ext_zero else cfrc

    def _reset_envs(self, envs: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Gymnasium's reset_model for each env in `envs` (its own stream), then its observation."""
        if len(envs) == 0:
            return np.zeros((0, self.single_observation_space.shape[0])), {}

        def draw(kind, lo, hi, size, rows=None):
            # rows (a mask over envs; None: all): the envs that draw, each from its own stream (a
            # rejection-sampled reset entry redraws for some only); the others' rows are 0
            out = np.zeros((len(envs), size))
            for i, e in enumerate(envs):
                if rows is None or rows[i]:
                    g = self._rngs[e]
                    out[i] = g.uniform(np.asarray(lo).ravel()[0], np.asarray(hi).ravel()[0], size) if kind == "uniform" else g.standard_normal(size)
            return out

        qpos, qvel = self.task.reset_state(self._values(envs, np.zeros((len(envs), self.nu))), draw)
        self._write_state(envs, qpos, qvel)
        self._clear_robot_state(envs)
        # mj_resetData zeroes mjData, then set_state's mj_forward fills it at the new state, all but
        # cfrc_ext (mj_rnePostConstraint runs only after a step): 0 until the env's next step
        self._forward_envs(envs, cfrc_ext_zero=True)
        self._episode_steps[envs] = 0
        self._autoreset[envs] = False
        vals = self._values(envs, np.zeros((len(envs), self.nu)))
        return self.task.observe(vals), self.task.read_reset_info(vals)

    # -- gymnasium.vector.VectorEnv -------------------------------------------------------------
    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        self._check_open()
        if seed is not None:
            seeds = seed if isinstance(seed, (list, tuple)) else [seed + i for i in range(self.num_envs)]
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: {len(seeds)} seeds for {self.num_envs} envs")
            self._rngs = [np.random.default_rng(s) for s in seeds]
        envs = np.arange(self.num_envs)
        if options and "reset_mask" in options:
            envs = np.flatnonzero(np.asarray(options["reset_mask"], dtype=bool))
        obs_part, info_part = self._reset_envs(envs)
        obs = self._observe_all()
        obs[envs] = obs_part
        return obs, self._info(info_part, envs)

    def _observe_all(self) -> np.ndarray:
        envs = np.arange(self.num_envs)
        return self.task.observe(self._values(envs, self._last_action))

    def _info(self, terms: dict[str, np.ndarray], envs: np.ndarray, into: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """Gymnasium's vector info: out[k][e] with the mask out["_" + k][e] for each env e of `envs`,
        merged into `into` where given (a name both stepped and reset envs report keeps both)."""
        out: dict[str, np.ndarray] = {} if into is None else into
        for k, v in terms.items():
            full = out.get(k)
            if full is None:
                full = np.zeros(self.num_envs, dtype=np.asarray(v).dtype)
            mask = out.get(f"_{k}", np.zeros(self.num_envs, dtype=bool))
            full[envs] = np.asarray(v).reshape(len(envs), -1)[:, 0] if np.ndim(v) > 1 else v
            mask[envs] = True
            out[k], out[f"_{k}"] = full, mask
        return out

    def _mujoco_controls(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """What MuJoCo's mj_fwdActuation acts on for each env's action, as controls the batch accepts,
        and per env how many of its controls MuJoCo calls bad. MuJoCo clamps a copy of ctrl to
        ctrlrange, then finds a control bad by mju_isBad (NaN, or |u| > 1e10; 3.14 rejects a finite one
        too), and then acts on all of that env's controls as 0 (mjWARN_BADCTRL; d->ctrl keeps what was
        written). So a bad env's controls are written as 0 (MuJoCo's own when 0 is in every ctrlrange,
        as in all of Gymnasium's v5 models), and a control that only its clamp makes good (±inf, 1e12 on
        a limited actuator) as its clamped value, which the batch would clamp it to; every other
        control is written as given. Counts: None when every control is good as given (the usual case,
        one pass: the largest magnitude, NaN where there is one)."""
        ctrl = np.asarray(actions, dtype=np.float64)
        if ctrl.size == 0 or (self._clamp_keeps_good and np.abs(ctrl).max() <= MAX_CONTROL):
            return ctrl, None
        clamped = np.clip(ctrl, self._ctrl_lo, self._ctrl_hi)
        counts = (~(np.abs(clamped) <= MAX_CONTROL)).sum(axis=1)  # NaN included
        written = np.where(np.abs(ctrl) <= MAX_CONTROL, ctrl, clamped)
        written[counts > 0] = 0.0
        return written, counts

    def _report_bad_controls(self, counts: np.ndarray | None, info: dict[str, np.ndarray]) -> None:
        """info["bad_ctrl"][e]: how many of env e's controls MuJoCo called bad this step (mask
        info["_bad_ctrl"]), present only in a step where some env had one; and one BadControlWarning."""
        if counts is None:
            return
        envs = np.flatnonzero(counts)
        if len(envs) == 0:
            return
        info["bad_ctrl"] = counts.astype(np.int64)
        info["_bad_ctrl"] = counts > 0
        warnings.warn(
            f"the actions of envs {envs.tolist()} hold a control MuJoCo calls bad (NaN, or |u| > 1e10 after the clamp"
            " to ctrlrange): as MuJoCo does (mjWARN_BADCTRL), each of those envs stepped with all its controls at 0;"
            " info['bad_ctrl'] counts them per env",
            BadControlWarning,
            stacklevel=3,
        )

    def step(self, actions):
        self._check_open()
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs, self.nu):
            raise ValueError(f"actions must have shape ({self.num_envs}, {self.nu}), got {actions.shape}")
        resetting = np.flatnonzero(self._autoreset)
        stepping = np.flatnonzero(~self._autoreset)
        all_envs = np.arange(self.num_envs)
        before = self.task.read_before(self._values(all_envs, actions))
        b = self.batch
        # do_simulation: the action as ctrl over frame_skip steps, one call (the record is kept once, at its end)
        ctrl, bad_counts = self._mujoco_controls(actions)
        b.ctrl[:, : self.num_envs] = ctrl.T
        b.step(self.task.frame_skip, hold_controls=True)
        self._last_action = actions
        # The envs that were due a reset: Gymnasium's next-step autoreset resets them instead.
        reset_obs, reset_info = self._reset_envs(resetting)
        vals = self._values(all_envs, actions)
        obs = self.task.observe(vals)
        terms = self.task.step_terms(vals, before, obs)
        # copies: a term every env shares (Reacher's terminated: false) is a read-only broadcast
        reward = np.array(np.broadcast_to(terms["reward"], (self.num_envs,)), dtype=np.float64)
        terminated = np.array(np.broadcast_to(terms["terminated"], (self.num_envs,)), dtype=bool)
        self._episode_steps[stepping] += 1
        truncated = self._episode_steps >= self.task.max_episode_steps
        info = self._info({k: terms[k][stepping] for k in self.task.info}, stepping)
        if len(resetting):
            obs[resetting] = reset_obs
            reward[resetting] = 0.0
            terminated[resetting] = False
            truncated[resetting] = False
            self._info(reset_info, resetting, into=info)
        self._autoreset = terminated | truncated
        self._report_bad_controls(bad_counts, info)
        return obs, reward, terminated, truncated, info

    def set_state(self, i: int, qpos, qvel) -> None:
        """Env i at (qpos, qvel) in MuJoCo's order, as Gymnasium's MujocoEnv.set_state; a pending
        autoreset of env i is cleared. i: 0 .. num_envs − 1 (no negative indices: -1 would be a
        silent choice of the last env)."""
        self._check_open()
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"set_state: the env index must be an integer from 0 to {self.num_envs - 1}, got {i!r}")
        if not 0 <= i < self.num_envs:
            raise IndexError(f"set_state: env {i} is out of range 0..{self.num_envs - 1} ({self.num_envs} envs)")
        qpos, qvel = np.asarray(qpos, dtype=np.float64), np.asarray(qvel, dtype=np.float64)
        if qpos.shape != (self.nq,) or qvel.shape != (self.nv,):
            raise ValueError(f"set_state: qpos must have shape ({self.nq},) and qvel ({self.nv},)")
        self._write_state(np.array([i]), qpos[None], qvel[None])
        self._autoreset[i] = False
        self._forward_envs(np.array([i]), cfrc_ext_zero=False)  # mj_forward: cfrc_ext kept as it was

    def close_extras(self, **kwargs):
        self.batch = None

    def _check_open(self) -> None:
        """Gymnasium's convention for a closed vector env (AsyncVectorEnv._assert_is_running)."""
        if self.closed:
            from gymnasium.error import ClosedEnvironmentError

            raise ClosedEnvironmentError(f"Trying to operate on `{type(self).__name__}`, after a call to `close()`: the env is closed")


def _env_major(x: np.ndarray, envs: np.ndarray) -> np.ndarray:
    """Columns `envs` (increasing) of an (rows, stride) engine array as float64 (len(envs), rows):
    a slice, not a gather, where they are 0 .. n − 1 (the last one is then n − 1)."""
    n = len(envs)
    cols = x[:, :n] if n > 0 and int(envs[-1]) == n - 1 else x[:, envs]
    return np.array(cols.T, dtype=np.float64, order="C")


def _mat_vec(R: np.ndarray, x: np.ndarray) -> np.ndarray:
    """R·x for stacks of 3 × 3 matrices R (..., 3, 3) and vectors x (..., 3), broadcast: three
    column products (numpy's einsum and matmul are several times slower at this size)."""
    return R[..., 0] * x[..., 0:1] + R[..., 1] * x[..., 1:2] + R[..., 2] * x[..., 2:3]


class _MujocoLayout:
    """mjData's per-body and per-site fields from the engine's per-link record: MuJoCo's body i + 1
    is carried by link bodies[i].link at offset bodies[i].offset (same orientation); body 0, the
    world, is at the origin with no external force."""

    def __init__(self, compiled: dict, needed: set[str] | frozenset[str] = RECORDED):
        self.needed = frozenset(needed)
        layout = compiled.get("mujoco")
        if not layout:
            raise NotImplementedError(f"{compiled.get('source')}: not an imported MJCF model (no MuJoCo body layout)")
        self.links = np.array([b["link"] for b in layout["bodies"]], dtype=np.int64)
        self.offsets = np.array([b["offset"] for b in layout["bodies"]], dtype=np.float64).reshape(-1, 3)
        self.site_body = np.array([s["body"] for s in layout["sites"]], dtype=np.int64)
        self.site_pos = np.array([s["pos"] for s in layout["sites"]], dtype=np.float64).reshape(-1, 3)
        # MuJoCo's body_mass: the world's 0, then each body's (its link's)
        link_mass = np.array([b["mass"] for b in compiled["native"]["bodies"]], dtype=np.float64)
        self.body_mass = np.concatenate([[0.0], link_mass[self.links]])

    def values(self, rec: dict[str, np.ndarray], envs: np.ndarray) -> _Recorded:
        """The needed ones of xpos, xipos (n, nbody, 3), site_xpos (n, nsite, 3), body_mass (n, nbody),
        cinert (n, nbody, 10), cvel and cfrc_ext (n, nbody, 6), qfrc_constraint and qfrc_actuator
        (n, nv) for `envs` (increasing), each computed when a formula first reads it."""
        return _Recorded(self, rec, envs)


class _Recorded(Mapping):
    """One record's mjData fields for some envs, each formed on first read and kept: a step's `before`
    reads only positions."""

    def __init__(self, layout: _MujocoLayout, rec: dict[str, np.ndarray], envs: np.ndarray):
        self.layout, self.rec, self.envs = layout, rec, np.asarray(envs)
        self.n = len(self.envs)
        self.cache: dict[str, Any] = {}

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.layout.needed:
            raise KeyError(name)
        return self._once(name, getattr(self, f"_{name}"))

    def __contains__(self, name: object) -> bool:
        return name in self.layout.needed

    def __iter__(self):
        return iter(sorted(self.layout.needed))

    def __len__(self) -> int:
        return len(self.layout.needed)

    def _once(self, key: str, make):
        if key not in self.cache:
            self.cache[key] = make()
        return self.cache[key]

    def _rows(self, field: str, k: int) -> np.ndarray:
        """A record field for these envs as float64 (n, rows / k, k) (rows·stride → env-major)."""
        return _env_major(self.rec[field], self.envs).reshape(self.n, -1, k)

    # every link's pose (n, links, 3 / 3 × 3), and that of each MuJoCo body's link
    def _pos(self) -> np.ndarray:
        return self._once("pos", lambda: self._rows("body_pos", 3))

    def _rot(self) -> np.ndarray:
        return self._once("rot", lambda: self._rows("body_rot", 9).reshape(self.n, -1, 3, 3))

    def _body_rot(self) -> np.ndarray:
        return self._once("body_rot", lambda: self._rot()[:, self.layout.links])

    def _with_world(self, per_body: np.ndarray) -> np.ndarray:
        """MuJoCo's (n, nbody, k): the world's row of zeros, then the bodies'."""
        out = np.zeros((self.n, per_body.shape[1] + 1, *per_body.shape[2:]))
        out[:, 1:] = per_body
        return out

    def _body_mass(self) -> np.ndarray:
        return np.broadcast_to(self.layout.body_mass, (self.n, len(self.layout.body_mass)))

    def _xpos(self) -> np.ndarray:
        L = self.layout
        return self._with_world(self._pos()[:, L.links] + _mat_vec(self._body_rot(), L.offsets))

    def _site_xpos(self) -> np.ndarray:
        L = self.layout
        xmat = np.broadcast_to(np.eye(3), (self.n, len(L.links) + 1, 3, 3)).copy()
        xmat[:, 1:] = self._body_rot()
        return self._once("xpos", self._xpos)[:, L.site_body] + _mat_vec(xmat[:, L.site_body], L.site_pos)

    def _xipos(self) -> np.ndarray:
        return self._with_world(self._rows("xipos", 3)[:, self.layout.links])

    def _cinert(self) -> np.ndarray:
        """mj_comPos's cinert: the inertia about the subtree CoM c of the body's tree, world axes, then
        m·(xipos − c) and m (the engine's, kernel/mujoco_record.hpp)."""
        return self._with_world(self._rows("cinert", 10)[:, self.layout.links])

    def _cvel(self) -> np.ndarray:
        """mj_comVel's cvel: [ω; the velocity of the point c moving with the body], world axes."""
        return self._with_world(self._rows("cvel", 6)[:, self.layout.links])

    def _cfrc_ext(self) -> np.ndarray:
        return self._with_world(self._rows("cfrc_ext", 6)[:, self.layout.links])

    def _qfrc_constraint(self) -> np.ndarray:
        return self._rows("qfrc_constraint", 1)[..., 0]

    def _qfrc_actuator(self) -> np.ndarray:
        return self._rows("qfrc_actuator", 1)[..., 0]


def make_vec(env_id: str, num_envs: int, precision: str = "f32", threads: int = 1, model: Any = None, **kwargs: Any) -> AchillesVectorEnv:
    """`num_envs` envs of Gymnasium's `env_id` (InvertedPendulum-v5, Hopper-v5, ...) stepped by Achilles,
    with Gymnasium's keyword arguments for that env. model: the robot instead of the task's file (or
    xml_file): a mujoco.MjModel, a document from achilles.put_model or compile_model, or a path."""
    return AchillesVectorEnv(env_id, num_envs, precision=precision, threads=threads, model=model, **kwargs)
