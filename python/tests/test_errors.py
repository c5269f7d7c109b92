"""Bad input gets a clear Python exception, never a crash: a malformed model dict names the key path
(the same reader, and words, as the Node addon's), a bad file the CLI's own message (FILE:LINE:COL)."""

from __future__ import annotations

import copy
import os
import re
import subprocess

import numpy as np
import pytest

import achilles
from conftest import DOUBLE_PENDULUM, REPO


def spoiled(doc: dict, change) -> dict:
    doc = copy.deepcopy(doc)
    change(doc["native"])
    return doc


@pytest.mark.parametrize(
    "change,message",
    [
        (lambda m: m["bodies"][1].update(mass="heavy"), "model['native'].bodies[1].mass must be a number"),
        (lambda m: m["bodies"][1].update(mass=True), "model['native'].bodies[1].mass must be a number"),
        (lambda m: m["bodies"][0].update(com=[0, 0]), "model['native'].bodies[0].com has 2 numbers, expected 3"),
        (lambda m: m["bodies"][0]["inertia"].__setitem__(4, None), "model['native'].bodies[0].inertia[4] must be a number"),
        (lambda m: m["bodies"][0].update(joint="hinge"), "model['native'].bodies[0].joint is 'hinge'; expected revolute"),
        (lambda m: m.pop("gravity"), "model['native'].gravity must be an array of 3 numbers"),
        (lambda m: m["bodies"].__setitem__(0, 7), "model['native'].bodies[0] must be an object"),
        (lambda m: m.update(solver={"method": "sor"}), "model['native'].solver.method must be 'newton', 'cg' or 'pgs'"),
        (lambda m: m.update(solver={"cone": "round"}), "model['native'].solver.cone must be 'pyramidal' or 'elliptic'"),
        (lambda m: m["bodies"][0].update(q0=[10**400]), "model['native'].bodies[0].q0[0] must be a number"),
    ],
)
def test_malformed_model_names_the_key_path(change, message: str, compiled: dict) -> None:
    with pytest.raises(ValueError) as e:
        achilles.Batch(spoiled(compiled["double-pendulum"], change), 2)
    assert message in str(e.value)


def test_malformed_document_names_the_key(compiled: dict) -> None:
    doc = copy.deepcopy(compiled["double-pendulum"])
    del doc["world"]["dt"]
    with pytest.raises(ValueError, match=re.escape("model['world']['dt'] must be a number")):
        achilles.Batch(doc, 2)
    with pytest.raises(ValueError, match=re.escape("model['format'] must be 'achilles-compiled-model'")):
        achilles.Batch(compiled["double-pendulum"]["native"], 2)
    with pytest.raises(ValueError, match="model must be a path, a dict from compile_model or put_model, or a mujoco.MjModel"):
        achilles.Batch(42, 2)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"copies": 0}, "copies must be an integer from 1 to 16777216 (got 0)"),
        ({"copies": 2, "precision": "f16"}, "precision must be one of f32, f64 (got f16)"),
        ({"copies": 2, "lanes": 3}, "lanes must be one of 1, 4, 8, 16 (got 3)"),
        ({"copies": 2, "threads": 0}, "threads must be an integer from 1 to 256 (got 0)"),
        ({"copies": 2, "integrator": "leapfrog"}, "integrator must be one of euler, verlet, midpoint, rk4, implicitfast"),
        ({"copies": 2, "dt": -1.0}, "dt must be a positive number of seconds (got -1.0)"),
    ],
)
def test_bad_options(kwargs: dict, message: str, compiled: dict) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        achilles.Batch(compiled["double-pendulum"], **kwargs)


def test_bad_step_and_robot(compiled: dict) -> None:
    b = achilles.Batch(compiled["quadruped"], 3)
    with pytest.raises(ValueError, match="step count must be a non-negative integer"):
        b.step(-1)
    with pytest.raises(ValueError, match=re.escape("robot 3 is out of range 0..2")):
        b.contacts(3)


def test_bad_file_gives_the_cli_message(tmp_path) -> None:
    bad = tmp_path / "bad.arow"
    bad.write_text(open(DOUBLE_PENDULUM).read().replace("mass:", "mas:", 1))
    with pytest.raises(achilles.ModelError) as e:
        achilles.compile_model(str(bad))
    cli = subprocess.run(["node", str(REPO / "bin" / "achilles.js"), "compile", str(bad)], capture_output=True, text=True)
    assert cli.returncode == 1 and str(e.value) == cli.stderr.strip()
    assert re.match(re.escape(str(bad)) + r":\d+:\d+: ", str(e.value)), str(e.value)
    with pytest.raises(achilles.ModelError, match="no-such"):
        achilles.Batch(str(tmp_path / "no-such.arow"), 2)


def test_a_model_that_replicates_past_the_limit_needs_yes(tmp_path) -> None:
    """A <replicate> making more than 10,000 bodies is refused at its count with the estimate; yes=True
    passes the CLI's --yes and reads it (src/model-files/import/mjcf/model-size.ts)."""
    big = tmp_path / "big.xml"
    pair = '<body><freejoint/><geom size="0.1"/><body pos="0 0 1"><joint/><geom size="0.1"/></body></body>'
    big.write_text(f'<mujoco>\n  <worldbody>\n    <replicate count="5001">{pair}</replicate>\n  </worldbody>\n</mujoco>\n')
    with pytest.raises(achilles.ModelError, match=r'big\.xml:3:16: <replicate> count: found "5001", which makes 10,002 bodies.*yes=True'):
        achilles.compile_model(big)
    assert len(achilles.compile_model(big, yes=True)["names"]["bodies"]) >= 10_002


def test_compiled_models_are_cached_by_path_and_mtime(tmp_path, monkeypatch) -> None:
    scene = tmp_path / "dp.arow"
    scene.write_text(open(DOUBLE_PENDULUM).read())
    first = achilles.compile_model(scene)
    monkeypatch.setenv("ACHILLES_NODE_CLI", str(tmp_path / "no-cli.js"))  # any run of the CLI now fails
    assert achilles.compile_model(scene) == first, "served from the cache"
    st = os.stat(scene)
    os.utime(scene, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    with pytest.raises(achilles.ModelError):
        achilles.compile_model(scene)  # changed: compiled again


def test_non_finite_state_names_step_robot_and_joint(compiled: dict) -> None:
    b = achilles.Batch(compiled["double-pendulum"], 4, precision="f64", lanes=4)
    b.step(3)
    b.v[1, 2] = 1e200  # robot 2's second joint
    with pytest.raises(achilles.NonFiniteError) as e:
        b.step(5)
    joint = compiled["double-pendulum"]["names"]["joints"]
    assert e.value.step == 4 and e.value.robot == 2 and e.value.joint in [j["name"] for j in joint]
    assert str(e.value).startswith(f"the state became non-finite at step 4 (t = {4 * b.dt:.6f} s), robot 2, joint '")


@pytest.mark.parametrize(
    "change",
    [
        lambda m: m["bodies"][1].update(parent=7),
        lambda m: m["bodies"][1].update(parent=float("nan")),
        lambda m: m["bodies"][0].update(mass=-1.0),
        lambda m: m["bodies"][0].update(quat=[0, 0, 0, 0]),
        lambda m: m.update(shapes=[dict(m["shapes"][0], body=99)]),
        lambda m: m.update(excludes=[[99, -7]]),
        lambda m: m.update(actuators=[{"name": "a", "body": -1, "kind": "motor", "gear": [1]}]),
        lambda m: m.update(tendons=[{"name": "t", "joints": [99], "coefs": [1.0]}]),
        lambda m: m.update(equalities=[{"type": "connect", "body1": 10**9, "body2": -1}]),
    ],
)
def test_hostile_values_raise_never_crash(change, compiled: dict) -> None:
    with pytest.raises(ValueError):
        achilles.Batch(spoiled(compiled["quadruped"], change), 2)


# ---- issue 56: bad controls and env indices ------------------------------------------------------


def _state(b: achilles.Batch) -> list:
    return [np.array(x) for x in (b.q, b.v, b.qacc, b.actuator_force, b.ctrl_target, b.act, b.qacc_warm)]


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf"), 1e11])
@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_bad_control_stops_step_before_it_names_robot_actuator_and_step(bad: float, precision: str, compiled: dict) -> None:
    """Batch.ctrl[...] = nan used to be clamped to the range's low end and stepped silently."""
    b = achilles.Batch(compiled["quadruped"], 5, precision=precision)
    b.step(2)
    b.ctrl[1, 3] = bad  # actuator 1 (front_left_knee) of robot 3
    before = _state(b)
    with pytest.raises(achilles.NonFiniteControlError) as e:
        b.step(1)
    name = compiled["quadruped"]["names"]["actuators"][1]["name"]
    assert (e.value.robot, e.value.actuator, e.value.step) == (3, name, 2)
    assert str(e.value).startswith(f"robot 3's control of actuator '{name}' is ")
    assert f"at step 2 (t = {2 * b.dt:.6f} s); nothing was stepped" in str(e.value)
    assert isinstance(e.value, ValueError)
    assert b.steps == 2 and all(np.array_equal(x, y, equal_nan=True) for x, y in zip(before, _state(b)))  # nothing advanced
    with pytest.raises(achilles.NonFiniteControlError):
        b.step(4, hold_controls=True)
    b.ctrl[1, 3] = 0.5
    b.step(1)
    assert b.steps == 3


def test_every_robots_nan_control_is_refused_from_the_lowest_robot(compiled: dict) -> None:
    """The hostile campaign's `Batch.ctrl[:] = nan`: every robot, padding lanes included."""
    b = achilles.Batch(compiled["quadruped"], 3, precision="f32", lanes=4)
    b.ctrl[:] = np.nan
    with pytest.raises(achilles.NonFiniteControlError) as e:
        b.step(1)
    assert (e.value.robot, e.value.step) == (0, 0) and e.value.actuator == compiled["quadruped"]["names"]["actuators"][0]["name"]
    assert np.isnan(e.value.value)


def test_a_control_of_1e10_is_good(compiled: dict) -> None:
    """MuJoCo's mju_isBad calls a magnitude above mjMAXVAL = 1e10 bad, not 1e10 itself."""
    b = achilles.Batch(compiled["quadruped"], 2, precision="f64", lanes=1)
    b.ctrl[0, 1] = -1e10
    b.step(1)
    assert b.steps == 1


def _gym_env(num_envs: int):
    pytest.importorskip("gymnasium")
    pytest.importorskip("mujoco")
    from achilles.gym import make_vec

    return make_vec("InvertedPendulum-v5", num_envs=num_envs, precision="f64")


def test_set_state_index_out_of_range_says_the_range() -> None:
    env = _gym_env(2)
    env.reset(seed=0)
    qpos, qvel = np.zeros(env.nq), np.zeros(env.nv)
    for i in (-1, 2, 5):
        with pytest.raises(IndexError, match=re.escape(f"set_state: env {i} is out of range 0..1 (2 envs)")):
            env.set_state(i, qpos, qvel)
    with pytest.raises(TypeError, match="the env index must be an integer from 0 to 1"):
        env.set_state(1.0, qpos, qvel)
    env.set_state(np.int64(1), qpos, qvel)  # numpy integers are indices too


def test_a_closed_env_says_it_is_closed() -> None:
    env = _gym_env(2)
    from gymnasium.error import ClosedEnvironmentError

    env.reset(seed=0)
    env.close()
    env.close()  # Gymnasium's close is idempotent
    qpos, qvel = np.zeros(env.nq), np.zeros(env.nv)
    for call in (lambda: env.step(np.zeros((2, env.nu))), lambda: env.reset(), lambda: env.set_state(0, qpos, qvel)):
        with pytest.raises(ClosedEnvironmentError, match=r"after a call to `close\(\)`: the env is closed"):
            call()
