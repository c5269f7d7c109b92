"""Our vector env against Gymnasium's own env, step for step, from the same states (f64).

Along a random-action run of Gymnasium's env, before each step env 0 of ours is put in Gymnasium's
state (set_state, in MuJoCo's qpos/qvel order); both then take the same action. Observation,
reward and termination must agree within 1e-6 (the issue's bar; measured agreement is printed).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built (python3 -m pip install ./python)", allow_module_level=True)

from achilles.gym import make_vec  # noqa: E402

SUPPORTED = ["InvertedPendulum-v5", "InvertedDoublePendulum-v5", "Hopper-v5", "HalfCheetah-v5", "Walker2d-v5", "Ant-v5", "Humanoid-v5", "HumanoidStandup-v5", "Reacher-v5", "Pusher-v5", "Swimmer-v5"]
BAR = 1e-6


def run_against_gymnasium(env_id: str, steps: int, precision: str = "f64", seed: int = 5, **kwargs):
    ref = gymnasium.make(env_id, **kwargs).unwrapped
    ours = make_vec(env_id, num_envs=3, precision=precision, **kwargs)
    ours.reset(seed=seed)
    ref.reset(seed=seed)
    rng = np.random.default_rng(seed)
    worst = {"obs": 0.0, "reward": 0.0, "info": 0.0}
    terminations = 0
    for s in range(steps):
        action = rng.uniform(ref.action_space.low, ref.action_space.high).astype(np.float32)
        # Both put in the same state by set_state (its mj_forward refreshes xpos, which Ant's reward
        # reads before the step; without it Gymnasium's holds the last step's final evaluation)
        qpos, qvel = ref.data.qpos.copy(), ref.data.qvel.copy()
        ref.set_state(qpos, qvel)
        ours.set_state(0, qpos, qvel)
        # MuJoCo's warm start too (mjSTATE_WARMSTART): Gymnasium's reset zeroes it where our env 0 goes
        # on, and PGS (Humanoid) stops short of the optimum, so its answer depends on where it starts
        if ours.batch.qacc_warm.shape[0]:
            ours.batch.qacc_warm[:, 0] = ref.data.qacc_warmstart
        actions = np.stack([action] + [ours.single_action_space.sample() for _ in range(2)])
        obs, reward, terminated, truncated, info = ours.step(actions)
        robs, rrew, rterm, _, rinfo = ref.step(action)
        worst["obs"] = max(worst["obs"], float(np.max(np.abs(obs[0] - robs) / np.maximum(1, np.abs(robs)))))
        worst["reward"] = max(worst["reward"], abs(float(reward[0]) - float(rrew)) / max(1.0, abs(float(rrew))))
        assert bool(terminated[0]) == bool(rterm), f"{env_id} step {s}: terminated {terminated[0]} vs Gymnasium {rterm}"
        # every info entry the task gives (each Gymnasium's too; not given: Humanoid's tendon_length
        # and tendon_velocity, docs/python.md), for the stepped env 0
        for k in ours.task.info:
            assert info[f"_{k}"][0], f"{env_id} step {s}: info {k} not given for env 0"
            theirs = float(rinfo[k])
            worst["info"] = max(worst["info"], abs(float(info[k][0]) - theirs) / max(1.0, abs(theirs)))
        if rterm:
            terminations += 1
            ref.reset(seed=seed + s + 1)
    ours.close()
    return worst, terminations


@pytest.mark.parametrize("env_id", SUPPORTED)
def test_step_for_step_with_gymnasium_f64(env_id):
    worst, terminations = run_against_gymnasium(env_id, steps=300)
    print(f"{env_id} f64: worst relative obs {worst['obs']:.2e}, reward {worst['reward']:.2e}, info {worst['info']:.2e}, {terminations} terminations")
    assert worst["obs"] <= BAR and worst["reward"] <= BAR and worst["info"] <= BAR


@pytest.mark.parametrize("env_id", ["InvertedDoublePendulum-v5", "Hopper-v5", "HalfCheetah-v5", "Ant-v5", "Humanoid-v5", "HumanoidStandup-v5", "Reacher-v5", "Pusher-v5", "Swimmer-v5"])
def test_f32_agreement_is_measured(env_id):
    worst, _ = run_against_gymnasium(env_id, steps=100, precision="f32")
    print(f"{env_id} f32: worst relative obs {worst['obs']:.2e}, reward {worst['reward']:.2e}")
    assert worst["obs"] < 1e-2  # f32 round-off over one env step, not a bar on the physics


# Every keyword argument of every task away from its default (frame_skip, observation switches, ranges,
# weights, reset noise): test/fixtures/gym/other-kwargs.json, which the task-definition tests read too.
OTHER_KWARGS = json.loads((Path(__file__).resolve().parents[2] / "test" / "fixtures" / "gym" / "other-kwargs.json").read_text())["kwargs"]


@pytest.mark.parametrize("env_id", SUPPORTED)
def test_other_keyword_arguments_step_as_gymnasium(env_id):
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in OTHER_KWARGS[env_id].items()}
    worst, terminations = run_against_gymnasium(env_id, steps=100, **kwargs)
    print(f"{env_id} f64, other keyword arguments: worst relative obs {worst['obs']:.2e}, reward {worst['reward']:.2e}, info {worst['info']:.2e}, {terminations} terminations")
    assert worst["obs"] <= BAR and worst["reward"] <= BAR and worst["info"] <= BAR


def test_xml_file_is_read_as_gymnasium_reads_it(tmp_path):
    """xml_file: another model (Swimmer's in a thicker fluid, with stronger motors), by absolute path, for
    both envs; ours steps it as Gymnasium's, and it is not the default model's motion."""
    import gymnasium.envs.mujoco as gm

    src = Path(gm.__file__).parent / "assets" / "swimmer.xml"
    text = src.read_text()
    for old, new in (('density="4000"', 'density="6000"'), ('viscosity="0.1"', 'viscosity="0.3"'), ('gear="150.0"', 'gear="200.0"')):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "thick_swimmer.xml"
    path.write_text(text)
    worst, _ = run_against_gymnasium("Swimmer-v5", steps=100, xml_file=str(path))
    print(f"Swimmer-v5 with xml_file={path.name}: worst relative obs {worst['obs']:.2e}, reward {worst['reward']:.2e}")
    assert worst["obs"] <= BAR and worst["reward"] <= BAR
    plain, thick = make_vec("Swimmer-v5", 1, precision="f64"), make_vec("Swimmer-v5", 1, precision="f64", xml_file=str(path))
    a = np.full((1, 2), 0.5, dtype=np.float32)
    plain.reset(seed=0)
    thick.reset(seed=0)
    assert not np.allclose(plain.step(a)[0], thick.step(a)[0])
    plain.close()
    thick.close()


@pytest.mark.parametrize("env_id", SUPPORTED)
def test_seeded_resets_are_gymnasiums(env_id):
    """Env i seeded with s draws from numpy's default_rng(s + i), as Gymnasium's env seeded with s + i
    does, and the task's reset entries draw in its reset_model's order (Reacher's goal and Pusher's
    cylinder rejection-sampled, one env's redraws from its own stream): so the reset states are
    Gymnasium's own, and so are their observations and reset info (f64). Across several seeds,
    whose rejected draws differ per env."""
    n = 4
    ours = make_vec(env_id, num_envs=n, precision="f64")
    worst = 0.0
    for seed in (0, 17):
        obs, info = ours.reset(seed=seed)
        for i in range(n):
            ref = gymnasium.make(env_id).unwrapped
            robs, rinfo = ref.reset(seed=seed + i)
            assert np.array_equal(np.asarray(ours.batch.q[:, i], dtype=np.float64), ref.data.qpos), f"seed {seed} env {i}: qpos"
            assert np.array_equal(np.asarray(ours.batch.v[:, i], dtype=np.float64), ref.data.qvel), f"seed {seed} env {i}: qvel"
            worst = max(worst, float(np.max(np.abs(obs[i] - robs) / np.maximum(1, np.abs(robs)))))
            for k, v in rinfo.items():
                if k in info:  # tendon_length and tendon_velocity are not computed (docs/python.md)
                    assert abs(info[k][i] - v) <= BAR, f"seed {seed} env {i}: info {k}"
    print(f"{env_id}: reset states equal to Gymnasium's; worst relative reset obs {worst:.2e}")
    assert worst <= BAR
    ours.close()


def test_tasks_reading_what_the_engine_lacks_are_refused_by_name():
    # every Gymnasium task of tasks/gymnasium runs now: a task reading mjData's sensordata stands in
    from dataclasses import replace

    from achilles.gym.expr import parse
    from achilles.gym.task import load_task
    from achilles.gym.vector import why_refused

    task = load_task("Hopper-v5")
    assert why_refused(task) is None
    lacking = replace(task, before={**task.before, "probe": parse("sensordata[0]", "probe")})
    assert "the task reads sensordata" in (why_refused(lacking) or "")


def test_next_step_autoreset_as_gymnasium():
    env = make_vec("InvertedPendulum-v5", num_envs=4, precision="f64")
    obs, _ = env.reset(seed=0)
    ended = None
    for _ in range(200):
        obs, reward, terminated, truncated, info = env.step(np.ones((4, 1), dtype=np.float32))
        if terminated.any():
            ended = np.flatnonzero(terminated)
            break
    assert ended is not None
    obs2, reward2, terminated2, truncated2, _ = env.step(np.zeros((4, 1), dtype=np.float32))
    assert np.all(reward2[ended] == 0) and not terminated2[ended].any() and not truncated2[ended].any()
    assert np.all(np.abs(obs2[ended]) <= 0.011)  # a fresh start: qpos, qvel within the reset noise


# Ant-v5: the recorded fields (cfrc_ext, xpos) and the autoresets' mj_forward of some blocks only
@pytest.mark.parametrize("env_id", ["Hopper-v5", "Ant-v5", "Humanoid-v5", "Pusher-v5", "Swimmer-v5"])
def test_seeded_runs_are_bit_identical_across_threads_and_lanes(env_id):
    def run(threads, lanes):
        env = make_vec(env_id, num_envs=20, precision="f32", threads=threads, lanes=lanes)
        obs, _ = env.reset(seed=11)
        rng = np.random.default_rng(2)
        out = [obs]
        for _ in range(50):
            obs, reward, *_ = env.step(rng.uniform(-1, 1, (20, env.nu)).astype(np.float32))
            out.append(obs)
            out.append(reward[:, None] * np.ones((1, obs.shape[1])))
        return np.stack(out)

    a = run(1, 1)
    for threads, lanes in [(2, 1), (1, 8), (2, 16)]:
        try:
            b = run(threads, lanes)
        except Exception as e:  # a lane width this CPU lacks is skipped by name
            if "lacks" in str(e):
                continue
            raise
        assert np.array_equal(a, b), f"threads {threads}, lanes {lanes}"


@pytest.mark.parametrize("env_id, steps", [("InvertedDoublePendulum-v5", 60), ("Ant-v5", 60), ("Swimmer-v5", 1000)])
def test_post_step_fields_are_the_last_evaluations_across_steps(env_id, steps):
    """Without set_state between steps, Gymnasium's reward reads xpos (Ant's x_velocity) and its
    observation site_xpos, cfrc_ext and qfrc_constraint as the previous mj_step left them: those of
    its last evaluation (RK4's fourth stage), not of the state it ended in. Ours must hold the same
    across consecutive steps (f64, from the same reset state; the motion of the first two is chaotic
    later, so their run is short). Swimmer-v5 (RK4 with fluid forces, no contact) runs a whole
    episode of 1000 env steps on its own."""
    ref = gymnasium.make(env_id).unwrapped
    ref.reset(seed=3)
    ours = make_vec(env_id, num_envs=1, precision="f64")
    ours.reset(seed=3)
    ours.set_state(0, ref.data.qpos.copy(), ref.data.qvel.copy())
    rng = np.random.default_rng(4)
    worst_obs = worst_reward = contact = 0.0
    for s in range(steps):
        action = rng.uniform(ref.action_space.low, ref.action_space.high).astype(np.float32)
        obs, reward, terminated, _, _ = ours.step(action[None])
        robs, rrew, rterm, _, _ = ref.step(action)
        worst_obs = max(worst_obs, float(np.max(np.abs(obs[0] - robs) / np.maximum(1, np.abs(robs)))))
        worst_reward = max(worst_reward, abs(float(reward[0]) - float(rrew)) / max(1.0, abs(float(rrew))))
        contact = max(contact, float(np.abs(ref.data.cfrc_ext).max()))
        assert bool(terminated[0]) == bool(rterm)
        if rterm:
            break
    print(f"{env_id} f64 unsynced: worst relative obs {worst_obs:.2e}, reward {worst_reward:.2e}, largest |cfrc_ext| {contact:.3g}")
    if env_id == "Ant-v5":
        assert contact > 1  # the feet did touch the floor
    assert worst_obs <= BAR and worst_reward <= BAR


def test_double_pendulum_observes_the_rail_limit_force():
    """InvertedDoublePendulum observes clip(qfrc_constraint)[0]: the slider's limit force, nonzero only
    at the rail's ends (random actions topple the poles before the cart gets there)."""
    ref = gymnasium.make("InvertedDoublePendulum-v5").unwrapped
    ref.reset(seed=0)
    ours = make_vec("InvertedDoublePendulum-v5", num_envs=2, precision="f64")
    ours.reset(seed=0)
    pushed = 0.0
    for s in range(8):
        qpos, qvel = np.array([0.985, 0.01 * s, -0.01 * s]), np.array([1.5, 0.0, 0.0])
        ref.set_state(qpos, qvel)
        ours.set_state(0, qpos, qvel)
        action = np.array([1.0], dtype=np.float32)
        obs, reward, *_ = ours.step(np.stack([action, action]))
        robs, rrew, *_ = ref.step(action)
        pushed = max(pushed, abs(float(ref.data.qfrc_constraint[0])))
        assert np.max(np.abs(obs[0] - robs) / np.maximum(1, np.abs(robs))) <= BAR
        assert abs(float(reward[0]) - float(rrew)) <= BAR * max(1.0, abs(float(rrew)))
    assert pushed > 1  # the limit pushed back: the check is live


def test_info_keeps_stepped_and_reset_envs_side_by_side():
    """On a step where some envs autoreset, a name both the step terms and the reset info report
    (Hopper's x_position) keeps every env's value, each with its mask, as Gymnasium's vector envs merge infos."""
    env = make_vec("Hopper-v5", num_envs=3, precision="f64")
    env.reset(seed=1)
    fall = np.zeros((3, 3), dtype=np.float32)
    fall[0] = [1, -1, -1]  # env 0 falls early, the others stand longer
    due = np.zeros(3, dtype=bool)
    for _ in range(300):
        _, _, terminated, truncated, _ = env.step(fall)
        due = terminated | truncated
        if due.any():
            break
    assert due.any() and not due.all()
    _, _, _, _, info = env.step(fall)
    assert info["_x_position"].all()
    assert np.array_equal(info["_x_velocity"], ~due)
    assert np.array_equal(info["x_position"], np.asarray(env.batch.q[0, :3], dtype=np.float64))


def test_a_bad_action_steps_as_gymnasium_on_mujoco():
    """Issue 56: a NaN in an action. MuJoCo (3.14) finds it after its clamp to ctrlrange (mju_isBad),
    raises mjWARN_BADCTRL and acts on every control of the env as 0; a +inf is clamped to the range's
    top first, so it is good. Ours: the same next observation within 1e-6 (f64), info["bad_ctrl"]
    counts the bad controls per env, and one BadControlWarning names the envs."""
    import mujoco

    from achilles.gym import BadControlWarning

    ref = gymnasium.make("Hopper-v5").unwrapped
    ref.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(20):  # away from the reset state: moving, in contact
        ref.step(rng.uniform(ref.action_space.low, ref.action_space.high).astype(np.float32))
    ours = make_vec("Hopper-v5", num_envs=3, precision="f64")
    ours.reset(seed=5)
    for bad_action, bad_count in (([np.nan, 0.3, -0.2], 1), ([0.1, np.inf, -np.inf], 0), ([np.nan, np.nan, np.nan], 3)):
        qpos, qvel = ref.data.qpos.copy(), ref.data.qvel.copy()
        ref.set_state(qpos, qvel)
        ours.set_state(0, qpos, qvel)
        ours.batch.qacc_warm[:, 0] = ref.data.qacc_warmstart
        warned_before = ref.data.warning[mujoco.mjtWarning.mjWARN_BADCTRL].number
        action = np.array(bad_action, dtype=np.float32)
        actions = np.stack([action, np.full(3, 0.1, np.float32), np.zeros(3, np.float32)])
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            obs, reward, _, _, info = ours.step(actions)
        robs, rrew, _, _, _ = ref.step(action)
        warned = ref.data.warning[mujoco.mjtWarning.mjWARN_BADCTRL].number - warned_before
        assert (warned > 0) == (bad_count > 0), "the case is MuJoCo's bad control, or not"
        worst = float(np.max(np.abs(obs[0] - robs) / np.maximum(1, np.abs(robs))))
        print(f"Hopper-v5 action {bad_action}: worst relative obs {worst:.2e}, MuJoCo's BADCTRL warnings {warned}")
        assert worst <= BAR
        assert np.isnan(reward[0]) == np.isnan(rrew)  # the control cost reads the action, as Gymnasium's
        ours_warned = [w for w in caught if issubclass(w.category, BadControlWarning)]
        if bad_count:
            assert info["bad_ctrl"].tolist() == [bad_count, 0, 0] and info["_bad_ctrl"].tolist() == [True, False, False]
            assert len(ours_warned) == 1 and "the actions of envs [0] hold a control MuJoCo calls bad" in str(ours_warned[0].message)
        else:
            assert "bad_ctrl" not in info and not ours_warned
    ours.close()
