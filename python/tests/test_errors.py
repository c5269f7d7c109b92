"""Bad input gets a clear Python exception, never a crash: a malformed model dict names the key path
(the same reader, and words, as the Node addon's), a bad file the CLI's own message (FILE:LINE:COL)."""

from __future__ import annotations

import copy
import os
import re
import subprocess

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
    with pytest.raises(ValueError, match="model must be a path or a dict"):
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
