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
from typing import Any

import numpy as np

from .expr import names_in
from .task import CONSTANTS, Task, load_task

# Quantities of task.py's list that this env computes from the engine's state today. A task that
# reads any other is refused by name rather than approximated.
STATE = frozenset({"qpos", "qvel", "ctrl", "action", "init_qpos", "init_qvel", "state_vector", "dt", "nq", "nv", "nu"})
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
    formulas = [task.observation, *task.before.values(), *task.step.values(), *task.reset.values(), *task.reset_info.values()]
    read = set().union(*(names_in(f) for f in formulas))
    return read - set(task.params) - set(task.before) - set(task.step) - CONSTANT_NAMES


def unsupported_quantities(task: Task) -> list[str]:
    return sorted(quantities_read(task) - COMPUTED)


def why_refused(task: Task) -> str | None:
    """Why make_vec cannot run this task as Gymnasium does (None: it can)."""
    missing = unsupported_quantities(task)
    if missing:
        return f"the task reads {', '.join(missing)}, which the Achilles engine does not compute yet (computed: {', '.join(sorted(COMPUTED))})"
    return None


def _vector_env_base():
    import gymnasium

    return gymnasium.vector.VectorEnv


class AchillesVectorEnv(_vector_env_base()):
    """`num_envs` copies of a Gymnasium MuJoCo task in one Achilles batch."""

    def __init__(self, env_id: str, num_envs: int, precision: str = "f32", threads: int = 1, lanes: int | None = None, **kwargs: Any):
        import gymnasium
        from gymnasium.vector import AutoresetMode
        from gymnasium.vector.utils import batch_space

        from .. import Batch, compile_model  # the native package (achilles/__init__.py)

        if not (isinstance(num_envs, int) and num_envs >= 1):
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        self.task = load_task(env_id, **kwargs)
        refused = why_refused(self.task)
        if refused:
            raise NotImplementedError(f"{env_id}: {refused}")
        self.model_path = gymnasium_model_path(self.task.model)
        self.compiled = compile_model(self.model_path)
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
    def _values(self, envs: np.ndarray, action: np.ndarray) -> dict[str, np.ndarray]:
        b = self.batch
        qpos = np.asarray(b.q[:, envs], dtype=np.float64).T
        qvel = np.asarray(b.v[:, envs], dtype=np.float64).T
        n = len(envs)
        recorded = self._layout.values(b.last_evaluation(), envs) if self._recorded else {}
        return {
            **recorded,
            "qpos": qpos,
            "qvel": qvel,
            "action": action,
            "ctrl": np.asarray(action, dtype=np.float64),
            "init_qpos": np.broadcast_to(self.init_qpos, (n, self.nq)),
            "init_qvel": np.broadcast_to(self.init_qvel, (n, self.nv)),
            "state_vector": np.concatenate([qpos, qvel], axis=1),
            "dt": np.float64(self.dt),
            "nq": self.nq,
            "nv": self.nv,
            "nu": self.nu,
        }

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
        """MuJoCo's mj_forward for `envs` only: constrain() evaluates whole blocks of lanes, so the
        other envs of those blocks get their recorded fields (those of their last step) back."""
        if not self._recorded or len(envs) == 0:
            return
        rec = self.batch.last_evaluation()
        # only the blocks of lanes holding these envs are evaluated: their other envs are put back
        lanes = self.batch.lanes
        blocks = np.unique(np.asarray(envs) // lanes)
        sharing = (blocks[:, None] * lanes + np.arange(lanes)).ravel()
        others = np.setdiff1d(sharing[sharing < self.num_envs], envs)
        kept = {k: np.array(v[:, others]) for k, v in rec.items()}
        cfrc = np.array(rec["cfrc_ext"][:, envs])
        self.batch.constrain(record=True, robots=envs)
        for k, v in kept.items():
            rec[k][:, others] = v
        rec["cfrc_ext"][:, envs] = 0 if cfrc_ext_zero else cfrc

    def _reset_envs(self, envs: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """Gymnasium's reset_model for each env in `envs` (its own stream), then its observation."""
        if len(envs) == 0:
            return np.zeros((0, self.single_observation_space.shape[0])), {}

        def draw(kind, lo, hi, size):
            rows = []
            for e in envs:
                g = self._rngs[e]
                rows.append(g.uniform(np.asarray(lo).ravel()[0], np.asarray(hi).ravel()[0], size) if kind == "uniform" else g.standard_normal(size))
            return np.stack(rows)

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

    def step(self, actions):
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs, self.nu):
            raise ValueError(f"actions must have shape ({self.num_envs}, {self.nu}), got {actions.shape}")
        resetting = np.flatnonzero(self._autoreset)
        stepping = np.flatnonzero(~self._autoreset)
        all_envs = np.arange(self.num_envs)
        before = self.task.read_before(self._values(all_envs, actions))
        b = self.batch
        ctrl64 = np.asarray(actions, dtype=np.float64)
        for _ in range(self.task.frame_skip):
            c = b.ctrl
            c[:, : self.num_envs] = ctrl64.T
            b.step(1)
        self._last_action = actions
        # The envs that were due a reset: Gymnasium's next-step autoreset resets them instead.
        reset_obs, reset_info = self._reset_envs(resetting)
        vals = self._values(all_envs, actions)
        obs = self.task.observe(vals)
        terms = self.task.step_terms(vals, before, obs)
        reward = np.asarray(terms["reward"], dtype=np.float64).reshape(self.num_envs)
        terminated = np.asarray(terms["terminated"], dtype=bool).reshape(self.num_envs)
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
        return obs, reward, terminated, truncated, info

    def set_state(self, i: int, qpos, qvel) -> None:
        """Env i at (qpos, qvel) in MuJoCo's order, as Gymnasium's MujocoEnv.set_state; a pending
        autoreset of env i is cleared."""
        qpos, qvel = np.asarray(qpos, dtype=np.float64), np.asarray(qvel, dtype=np.float64)
        if qpos.shape != (self.nq,) or qvel.shape != (self.nv,):
            raise ValueError(f"set_state: qpos must have shape ({self.nq},) and qvel ({self.nv},)")
        self._write_state(np.array([i]), qpos[None], qvel[None])
        self._autoreset[i] = False
        self._forward_envs(np.array([i]), cfrc_ext_zero=False)  # mj_forward: cfrc_ext kept as it was

    def close_extras(self, **kwargs):
        self.batch = None


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
        # every link's mass, CoM (its frame) and inertia about the CoM (its axes), and its tree's root
        links = compiled["native"]["bodies"]
        self.link_mass = np.array([b["mass"] for b in links], dtype=np.float64)
        self.link_com = np.array([b["com"] for b in links], dtype=np.float64).reshape(-1, 3)
        xx, yy, zz, xy, xz, yz = np.array([b["inertia"] for b in links], dtype=np.float64).reshape(-1, 6).T
        self.link_inertia = np.stack([xx, xy, xz, xy, yy, yz, xz, yz, zz], axis=1).reshape(-1, 3, 3)
        root = []
        for i, b in enumerate(links):
            root.append(i if b["parent"] < 0 else root[b["parent"]])
        self.link_root = np.array(root, dtype=np.int64)
        # MuJoCo's body_mass: the world's 0, then each body's (its link's)
        self.body_mass = np.concatenate([[0.0], self.link_mass[self.links]])

    def values(self, rec: dict[str, np.ndarray], envs: np.ndarray) -> dict[str, np.ndarray]:
        """The needed ones of xpos (n, nbody, 3), site_xpos (n, nsite, 3), cfrc_ext (n, nbody, 6) and
        qfrc_constraint (n, nv) for `envs`."""
        n, nb, out = len(envs), len(self.links), {}
        if "body_mass" in self.needed:
            out["body_mass"] = np.broadcast_to(self.body_mass, (n, nb + 1))
        if self.needed & {"xpos", "site_xpos", "xipos", "cinert", "cvel"}:
            # every link's pose: (links·k, stride) → (n, links, k)
            pos = np.asarray(rec["body_pos"][:, envs], dtype=np.float64).T.reshape(n, -1, 3)
            rot = np.asarray(rec["body_rot"][:, envs], dtype=np.float64).T.reshape(n, -1, 3, 3)
        if self.needed & {"xipos", "cinert", "cvel"}:
            out.update(self._com_based(rec, envs, pos, rot))
        if self.needed & {"xpos", "site_xpos"}:
            R = rot[:, self.links]
            xpos = np.zeros((n, nb + 1, 3))
            xpos[:, 1:] = pos[:, self.links] + np.einsum("nbij,bj->nbi", R, self.offsets)
            out["xpos"] = xpos
            if "site_xpos" in self.needed:
                xmat = np.broadcast_to(np.eye(3), (n, nb + 1, 3, 3)).copy()
                xmat[:, 1:] = R
                out["site_xpos"] = xpos[:, self.site_body] + np.einsum("nsij,sj->nsi", xmat[:, self.site_body], self.site_pos)
        if "cfrc_ext" in self.needed:
            cfrc = np.asarray(rec["cfrc_ext"][:, envs], dtype=np.float64).T.reshape(n, -1, 6)
            cfrc_ext = np.zeros((n, nb + 1, 6))
            cfrc_ext[:, 1:] = cfrc[:, self.links]
            out["cfrc_ext"] = cfrc_ext
        if "qfrc_constraint" in self.needed:
            out["qfrc_constraint"] = np.asarray(rec["qfrc_constraint"][:, envs], dtype=np.float64).T
        if "qfrc_actuator" in self.needed:
            out["qfrc_actuator"] = np.asarray(rec["qfrc_actuator"][:, envs], dtype=np.float64).T
        return out

    def _com_based(self, rec: dict[str, np.ndarray], envs: np.ndarray, p: np.ndarray, R: np.ndarray) -> dict[str, np.ndarray]:
        """xipos, and MuJoCo's com-based cinert (mj_comPos: the inertia about the subtree CoM c of the
        body's tree, world axes, then m·(xipos − c) and m) and cvel (mj_comVel: [ω; velocity of the point
        c moving with the body]), world row 0 all zero. p, R: every link's pose (n, links, 3 / 3 × 3)."""
        n, nb = len(envs), len(self.links)
        vel = np.asarray(rec["body_vel"][:, envs], dtype=np.float64).T.reshape(n, -1, 6)
        com = p + np.einsum("nlij,lj->nli", R, self.link_com)  # every link's CoM, world
        m = self.link_mass
        nroots = len(m)
        msum = np.zeros(nroots)
        np.add.at(msum, self.link_root, m)
        csum = np.zeros((n, nroots, 3))
        np.add.at(csum, (slice(None), self.link_root), m[None, :, None] * com)
        subtree = np.where(msum[None, :, None] > 0, csum / np.where(msum > 0, msum, 1)[None, :, None], com)
        c = subtree[:, self.link_root][:, self.links]  # per MuJoCo body: its tree's subtree CoM
        L = self.links
        dif = com[:, L] - c
        mb = m[L][None, :]
        I = np.einsum("nbij,bjk,nblk->nbil", R[:, L], self.link_inertia[L], R[:, L])
        d2 = np.einsum("nbi,nbi->nb", dif, dif)
        I = I + mb[..., None, None] * (d2[..., None, None] * np.eye(3) - np.einsum("nbi,nbj->nbij", dif, dif))
        cinert = np.zeros((n, nb + 1, 10))
        cinert[:, 1:] = np.concatenate(
            [I[..., [0, 1, 2, 0, 0, 1], [0, 1, 2, 1, 2, 2]], mb[..., None] * dif, np.broadcast_to(mb[..., None], (n, nb, 1))], axis=2
        )
        w = np.einsum("nbij,nbj->nbi", R[:, L], vel[:, L, :3])
        v_origin = np.einsum("nbij,nbj->nbi", R[:, L], vel[:, L, 3:])
        cvel = np.zeros((n, nb + 1, 6))
        cvel[:, 1:, :3] = w
        cvel[:, 1:, 3:] = v_origin + np.cross(w, c - p[:, L])
        xipos = np.zeros((n, nb + 1, 3))
        xipos[:, 1:] = com[:, L]
        return {"xipos": xipos, "cinert": cinert, "cvel": cvel}


def make_vec(env_id: str, num_envs: int, precision: str = "f32", threads: int = 1, **kwargs: Any) -> AchillesVectorEnv:
    """`num_envs` envs of Gymnasium's `env_id` (InvertedPendulum-v5, Hopper-v5, ...) stepped by Achilles,
    with Gymnasium's keyword arguments for that env."""
    return AchillesVectorEnv(env_id, num_envs, precision=precision, threads=threads, **kwargs)
