"""The task files (tasks/gymnasium/*.json) say what Gymnasium's own envs compute.

Each task's formulas are evaluated on the very mjData of Gymnasium's env (gymnasium.make(id).unwrapped)
along random-action runs, and must give its observation, reward, termination and info exactly
(to 1e-12: the formulas may order a sum differently). This pins the definitions on their own; the
engine's agreement with MuJoCo is checked separately. Mutated formulas must fail the comparison.
"""

from __future__ import annotations

import copy
import inspect
import json
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
mujoco = pytest.importorskip("mujoco")

from achilles.gym import task as taskmod  # noqa: E402
from achilles.gym.task import load_task, task_ids  # noqa: E402

TASKS = ["InvertedPendulum-v5", "InvertedDoublePendulum-v5", "Hopper-v5", "HalfCheetah-v5", "Walker2d-v5", "Ant-v5", "Humanoid-v5", "HumanoidStandup-v5", "Reacher-v5", "Pusher-v5", "Swimmer-v5"]
TOL = 1e-12


# Each per-env name a task's formulas may read, as read off Gymnasium's MujocoEnv: (env, action) -> value.
MUJOCO_FIELDS = {
    **{k: (lambda f: lambda env, action: getattr(env.data, f))(k) for k in (
        "qpos", "qvel", "ctrl", "qfrc_actuator", "qfrc_constraint", "xpos", "xipos", "cinert", "cvel", "cfrc_ext", "site_xpos")},
    "action": lambda env, action: action,
    "body_mass": lambda env, action: env.model.body_mass,
    "init_qpos": lambda env, action: env.init_qpos,
    "init_qvel": lambda env, action: env.init_qvel,
    "state_vector": lambda env, action: env.state_vector(),
    "dt": lambda env, action: np.float64(env.dt),
    "timestep": lambda env, action: np.float64(env.model.opt.timestep),
    **{k: (lambda f: lambda env, action: np.float64(getattr(env.model, f)))(k) for k in ("nq", "nv", "nu")},
}
# the names given per env: what compile_formulas may not fix as parameters or constants
PER_ENV = frozenset(MUJOCO_FIELDS)


def mujoco_values(env, action) -> dict[str, np.ndarray]:
    """One env's MUJOCO_FIELDS read off Gymnasium's MujocoEnv, with a leading env axis of 1."""
    return {k: np.asarray(get(env, action)).copy()[None, ...] for k, get in MUJOCO_FIELDS.items()}


def bodies(env) -> list[str]:
    """The model's body names in MuJoCo's order (what body('name') reads; the vector env sets them)."""
    return [mujoco.mj_id2name(env.model, mujoco.mjtObj.mjOBJ_BODY, b) for b in range(env.model.nbody)]


def close(a, b) -> bool:
    a, b = np.asarray(a, dtype=np.float64).ravel(), np.asarray(b, dtype=np.float64).ravel()
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= TOL * np.maximum(1, np.abs(b))))


def random_run(env, steps: int, seed: int):
    """Gymnasium's env (reset) along a seeded random-action run: per step, its mujoco_values before and
    after the step and what env.step returned; a terminated episode is reset (seeded) once yielded."""
    rng = np.random.default_rng(seed)
    for s in range(steps):
        action = rng.uniform(env.action_space.low, env.action_space.high).astype(np.float32)
        values_before = mujoco_values(env, action)
        result = env.step(action)
        yield s, values_before, mujoco_values(env, action), result
        if result[2]:
            env.reset(seed=seed + s + 1)


def mismatches(task, env_id: str, steps: int, seed: int = 3, **kwargs) -> list[str]:
    env = gymnasium.make(env_id, **kwargs).unwrapped
    task.bodies = bodies(env)
    obs, info = env.reset(seed=seed)
    bad: list[str] = []
    vals = mujoco_values(env, np.zeros(env.model.nu))
    if not close(task.observe(vals)[0], obs):
        bad.append("reset observation")
    for k, x in task.read_reset_info(vals).items():
        if not close(x[0], info[k]):
            bad.append(f"reset info {k}")
    for s, values_before, vals, (obs, reward, terminated, _, info) in random_run(env, steps, seed):
        ours_obs = task.observe(vals)
        terms = task.step_terms(vals, task.read_before(values_before), ours_obs)
        if not close(ours_obs[0], obs):
            bad.append(f"step {s}: observation")
        if not close(terms["reward"][0], reward):
            bad.append(f"step {s}: reward {terms['reward'][0]} vs {reward}")
        if bool(np.asarray(terms["terminated"]).ravel()[0]) != bool(terminated):
            bad.append(f"step {s}: terminated")
        for k in task.info:
            if not close(terms[k][0], info[k]):
                bad.append(f"step {s}: info {k}")
    env.close()
    return bad


def test_every_task_has_a_file():
    assert set(TASKS) <= set(task_ids())


def loaded(env_id: str, compiled: bool, **kwargs):
    task = load_task(env_id, **kwargs)
    if compiled:
        task.compile_formulas(PER_ENV)
    return task


@pytest.mark.parametrize("compiled", [False, True], ids=["evaluated", "compiled"])
@pytest.mark.parametrize("env_id", TASKS)
def test_definition_matches_gymnasium(env_id, compiled):
    assert mismatches(loaded(env_id, compiled), env_id, steps=150) == []


# The fewest draws a reset takes (no candidate rejected): Reacher's nq + 2 + nv, Pusher's 2 + nv.
REJECTION_SAMPLED = {"Reacher-v5": 10, "Pusher-v5": 13}


@pytest.mark.parametrize("env_id", TASKS)
def test_reset_draws_in_gymnasiums_order(env_id):
    """Drawing from Gymnasium's own stream (default_rng(seed)), the reset entries land on the very
    state Gymnasium's reset(seed) does: the same draws in the same order, Reacher's goal and Pusher's
    cylinder redrawn as its loops redraw them. test/gym-task.test.ts feeds the TypeScript evaluator
    the same streams' numbers (tasks drawing uniform numbers only)."""
    task = load_task(env_id)
    env = gymnasium.make(env_id).unwrapped
    task.bodies = bodies(env)
    used = []
    for seed in range(8):
        env.reset(seed=seed)
        g, taken = np.random.default_rng(seed), [0]

        def draw(kind, lo, hi, size, rows=None):
            assert rows is None or rows.all()
            taken[0] += size
            if kind == "normal":
                return g.standard_normal(size)[None]
            return g.uniform(np.asarray(lo).ravel()[0], np.asarray(hi).ravel()[0], size)[None]

        qpos, qvel = task.reset_state(mujoco_values(env, np.zeros(env.model.nu)), draw)
        assert np.array_equal(qpos[0], env.data.qpos) and np.array_equal(qvel[0], env.data.qvel), f"seed {seed}"
        used.append(taken[0])
    if env_id in REJECTION_SAMPLED:  # some candidate was rejected: the redraw is exercised
        assert min(used) == REJECTION_SAMPLED[env_id] and max(used) > min(used), used
    env.close()


@pytest.mark.parametrize("env_id", TASKS)
def test_compiled_formulas_give_the_evaluated_bits(env_id):
    """compile_formulas (parts of parameters and constants worked out once) changes no bit of any term."""
    plain, fast = loaded(env_id, False), loaded(env_id, True)
    env = gymnasium.make(env_id).unwrapped
    plain.bodies = fast.bodies = bodies(env)
    env.reset(seed=5)
    for s, values_before, vals, _ in random_run(env, 40, seed=5):
        outs = []
        for t in (plain, fast):
            before = t.read_before(values_before)
            obs = t.observe(vals)
            outs.append({"observation": obs, **t.step_terms(vals, before, obs), **t.read_reset_info(vals), **{f"before.{k}": v for k, v in before.items()}})
        assert outs[0].keys() == outs[1].keys()
        for k in outs[0]:
            a, b = np.asarray(outs[0][k]), np.asarray(outs[1][k])
            assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), f"step {s}: {k}"
    env.close()


@pytest.mark.parametrize(
    "env_id, field, old, new",
    [
        ("Hopper-v5", "observation", "clip(qvel, -10, 10)", "clip(qvel, -1, 1)"),
        (
            "Hopper-v5",
            "step.is_healthy",
            "healthy_angle_range[0] < qpos[2] and qpos[2] < healthy_angle_range[1]",
            "healthy_angle_range[0] / 2 < qpos[2] and qpos[2] < healthy_angle_range[1] / 2",
        ),
        ("HalfCheetah-v5", "step.reward", "reward_forward - ctrl_cost", "reward_forward + ctrl_cost"),
        ("InvertedDoublePendulum-v5", "step.x", "site_xpos[0, 0]", "site_xpos[0, 1]"),
        ("Ant-v5", "step.contact_cost", "contact_force_range[1]", "2 * contact_force_range[1]"),
        ("Humanoid-v5", "observation", "cvel[1:]", "cvel[:-1]"),
        ("Walker2d-v5", "before.x_position_before", "qpos[0]", "qpos[1]"),
        ("Swimmer-v5", "step.xy_velocity", "/ dt", "/ timestep"),
    ],
)
def test_a_mutated_definition_is_caught(env_id, field, old, new, tmp_path, monkeypatch):
    src = taskmod.task_dir() / f"{env_id}.json"
    raw = json.loads(src.read_text())
    part, _, key = field.partition(".")
    target = raw if not key else raw[part]
    name = part if not key else key
    assert old in target[name], f"{old!r} not in {field}"
    target[name] = target[name].replace(old, new)
    for p in taskmod.task_dir().glob("*.json"):
        (tmp_path / p.name).write_text(p.read_text())
    (tmp_path / f"{env_id}.json").write_text(json.dumps(raw))
    monkeypatch.setenv("ACHILLES_TASK_DIR", str(tmp_path))
    assert mismatches(load_task(env_id), env_id, steps=150) != []
    assert mismatches(loaded(env_id, compiled=True), env_id, steps=150) != []


def test_keyword_arguments_as_gymnasium_takes_them():
    t = load_task("Hopper-v5", ctrl_cost_weight=0.5, healthy_z_range=(0.5, float("inf")), frame_skip=2, render_mode="rgb_array")
    assert t.params["ctrl_cost_weight"] == 0.5 and t.params["healthy_z_range"] == [0.5, float("inf")] and t.frame_skip == 2
    with pytest.raises(TypeError, match="unexpected keyword argument 'ctrl_cost'.*ctrl_cost_weight"):
        load_task("Hopper-v5", ctrl_cost=1)
    with pytest.raises(ValueError, match="unknown task 'Hopper-v9'"):
        load_task("Hopper-v9")
    # an id is never a path: another JSON file beside the package is not a task, a long one not an OSError
    with pytest.raises(ValueError, match=r"unknown task '\.\./\.\./package'"):
        load_task("../../package")
    with pytest.raises(ValueError, match=r"unknown task 'x{76}\.\.\."):
        load_task("x" * 5000)


def test_rejection_sampled_entries_redraw_only_the_rejected_envs():
    """Two envs: env 0's first goal candidate is inside the disc, env 1's twice outside. Env 1 alone
    draws again (from its own stream, rows masks the others), and the qvel draws follow each env's
    accepted goal, as Gymnasium's reset_model draws them; a condition that never holds stops after
    MAX_REDRAWS draws, naming the entry. test/gym-task.test.ts runs the TypeScript evaluator on the
    same stream."""
    task = load_task("Reacher-v5")
    task.bodies = ["world", "body0", "body1", "fingertip", "target"]
    streams = [[0.5] * 4 + [0.75, 0.5] + [0.5] * 4, [0.5] * 4 + [1, 1, 0, 0.99, 0.75, 0.5] + [0.5] * 4]
    taken = [0, 0]

    def draw(kind, lo, hi, size, rows=None):
        out = np.zeros((2, size))
        for e in range(2):
            if rows is None or rows[e]:
                out[e] = [lo + (hi - lo) * streams[e][taken[e] + k] for k in range(size)]
                taken[e] += size
        return out

    zero = np.zeros((2, 4))
    values = {"init_qpos": zero, "init_qvel": zero, "qpos": zero, "nq": 4, "nv": 4}
    qpos, qvel = task.reset_state(values, draw)
    goal = [0.75 * 0.4 - 0.2, 0.5 * 0.4 - 0.2]
    assert qpos.tolist() == [[0, 0, *goal]] * 2 and qvel.tolist() == [[0, 0, 0, 0]] * 2
    assert taken == [10, 14]
    task.reset_until = {k: taskmod.parse("false", "never") for k in task.reset_until}
    with pytest.raises(taskmod.ExprError, match=f"reset.goal.until: still false after {taskmod.MAX_REDRAWS} draws for envs \\[0, 1\\]"):
        task.reset_state(values, lambda kind, lo, hi, size, rows=None: np.zeros((2, size)))


# Every keyword argument of every task set away from its default (test/fixtures/gym/other-kwargs.json,
# which test/gym-task.test.ts reads too).
OTHER_KWARGS = json.loads((Path(__file__).resolve().parents[2] / "test" / "fixtures" / "gym" / "other-kwargs.json").read_text())["kwargs"]
# Info entries of Gymnasium's envs that the tasks do not give (docs/python.md): Humanoid's and HumanoidStandup's
# tendon arrays, read after mj_step at RK4's fourth stage, which the batch's record does not hold.
NOT_GIVEN = {"tendon_length", "tendon_velocity"}


@pytest.mark.parametrize("env_id", TASKS)
def test_keyword_arguments_and_info_are_gymnasiums(env_id):
    """The task takes every keyword argument Gymnasium's env class takes (its parameters, xml_file,
    frame_skip, the rendering ones), with Gymnasium's defaults, and no other; its step and reset info
    name every entry Gymnasium's env returns (NOT_GIVEN aside), and no other."""
    from achilles.gym.task import RENDER_KWARGS

    env = gymnasium.make(env_id).unwrapped
    accepted = {k: p.default for k, p in inspect.signature(type(env).__init__).parameters.items() if k not in ("self", "kwargs")}
    base = {k for k in inspect.signature(gymnasium.envs.mujoco.MujocoEnv.__init__).parameters if k not in ("self", "kwargs")}
    task = load_task(env_id)
    ours = {**task.params, "xml_file": task.model, "frame_skip": task.frame_skip}
    # the rendering keyword arguments: MujocoEnv's (less the model and spaces, which a task sets itself)
    assert base - {"model_path", "frame_skip", "observation_space"} <= RENDER_KWARGS
    assert set(accepted) - RENDER_KWARGS == set(ours), f"Gymnasium takes {sorted(accepted)}"
    for k, v in ours.items():
        default = accepted[k]
        assert np.array_equal(np.asarray(v, dtype=np.float64 if not isinstance(v, str) else object), np.asarray(default, dtype=np.float64 if not isinstance(default, str) else object)), (
            f"{k}: ours {v!r}, Gymnasium's {default!r}"
        )
    assert task.max_episode_steps == gymnasium.spec(env_id).max_episode_steps
    _, reset_info = env.reset(seed=0)
    _, _, _, _, info = env.step(env.action_space.sample())
    assert set(task.info) == set(info) - NOT_GIVEN
    assert set(task.reset_info) == set(reset_info) - NOT_GIVEN
    env.close()


def test_other_keyword_arguments_set_every_parameter():
    assert set(OTHER_KWARGS) == set(TASKS)
    for env_id, kwargs in OTHER_KWARGS.items():
        task = load_task(env_id)
        assert set(kwargs) == {*task.params, "frame_skip"}, env_id
        for k, v in kwargs.items():
            assert v != (task.frame_skip if k == "frame_skip" else taskmod._param_value(task.params[k])), f"{env_id}: {k} is its default"


@pytest.mark.parametrize("env_id", TASKS)
def test_other_keyword_arguments_as_gymnasium_applies_them(env_id):
    """With every keyword argument away from its default, the task still gives Gymnasium's observation,
    reward, termination and info (evaluated and compiled), and its reset lands on Gymnasium's state."""
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in OTHER_KWARGS[env_id].items()}
    for compiled in (False, True):
        task = loaded(env_id, compiled, **kwargs)
        assert task.frame_skip == kwargs["frame_skip"]
        assert mismatches(task, env_id, steps=100, **kwargs) == []
    task = load_task(env_id, **kwargs)
    env = gymnasium.make(env_id, **kwargs).unwrapped
    task.bodies = bodies(env)
    for seed in range(3):
        env.reset(seed=seed)
        g = np.random.default_rng(seed)

        def draw(kind, lo, hi, size, rows=None):
            if kind == "normal":
                return g.standard_normal(size)[None]
            return g.uniform(np.asarray(lo).ravel()[0], np.asarray(hi).ravel()[0], size)[None]

        qpos, qvel = task.reset_state(mujoco_values(env, np.zeros(env.model.nu)), draw)
        assert np.array_equal(qpos[0], env.data.qpos) and np.array_equal(qvel[0], env.data.qvel), f"seed {seed}"
    env.close()
