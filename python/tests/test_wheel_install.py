"""What an installed wheel does without Node, a compiler or the checkout: the tests scripts/check-wheel.sh
runs (with test_task_definitions.py and test_expr.py) in a fresh venv that holds only the wheel, numpy,
mujoco, gymnasium and pytest, with node off PATH
(ACHILLES_WHEEL_CHECK_DIR: its folder of references the Node engine wrote before). Where Node is there
(the ordinary pytest run) the `without_node` fixture takes it off PATH, so they test the same route.

MJCF without the CLI goes through MuJoCo and achilles._put_model."""

from __future__ import annotations

import base64
import filecmp
import json
import os
import re
import shutil
import stat
import sys
import types
from pathlib import Path

import numpy as np
import pytest

import achilles
from achilles import _compile
from achilles.gym import make_vec, task
from protocol import run

REPO = Path(__file__).resolve().parents[2]
WHEEL_CHECK_DIR = os.environ.get("ACHILLES_WHEEL_CHECK_DIR")
PACKAGED_TASKS = Path(achilles.__file__).resolve().parent / "tasks" / "gymnasium"


def gymnasium_asset(name: str) -> str:
    import gymnasium.envs.mujoco as gm

    return os.path.join(os.path.dirname(gm.__file__), "assets", name)


@pytest.fixture
def without_node(monkeypatch, tmp_path):
    """No achilles CLI reachable: no ACHILLES_NODE_CLI, and a PATH without node."""
    if not WHEEL_CHECK_DIR:
        monkeypatch.delenv("ACHILLES_NODE_CLI", raising=False)
        monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    assert _compile.find_cli() is None


import achilles._put_model as PUT_MODEL  # noqa: E402


@pytest.fixture
def put_model():
    """The module compile_model's MuJoCo route imports put_model from (a spy may wrap it)."""
    return PUT_MODEL


# -- the package itself ---------------------------------------------------------------------------


@pytest.mark.skipif(not WHEEL_CHECK_DIR, reason="what scripts/check-wheel.sh's venv must be")
def test_the_venv_has_the_wheel_and_no_node() -> None:
    package = Path(achilles.__file__).resolve().parent
    assert REPO not in package.parents, f"achilles is imported from the checkout ({package}), not the wheel"
    assert Path(achilles._native.__file__).resolve().parent == package
    assert shutil.which("node") is None and "ACHILLES_NODE_CLI" not in os.environ
    assert _compile.find_cli() is None


def test_the_packaged_task_files_are_read_first_and_are_the_repositorys() -> None:
    if WHEEL_CHECK_DIR:
        assert PACKAGED_TASKS.is_dir(), f"the wheel holds no task files ({PACKAGED_TASKS})"
    if not PACKAGED_TASKS.is_dir():
        pytest.skip("the package runs from source: no packaged task files")
    assert task.task_dir() == PACKAGED_TASKS
    ours = sorted(p.name for p in PACKAGED_TASKS.glob("*.json"))
    theirs = sorted(p.name for p in (REPO / "tasks" / "gymnasium").glob("*.json"))
    assert ours == theirs and len(ours) >= 10
    _, differ, errors = filecmp.cmpfiles(PACKAGED_TASKS, REPO / "tasks" / "gymnasium", ours, shallow=False)
    assert not differ and not errors, f"the installed package's task files are stale: {differ + errors} (reinstall it)"


def test_achilles_task_dir_overrides_the_packaged_files(monkeypatch, tmp_path) -> None:
    shutil.copy(task.task_dir() / "Hopper-v5.json", tmp_path / "Hopper-v5.json")
    monkeypatch.setenv("ACHILLES_TASK_DIR", str(tmp_path))
    assert task.task_dir() == tmp_path and task.task_ids() == ["Hopper-v5"]
    with pytest.raises(ValueError, match="the tasks are Hopper-v5$"):
        task.load_task("Ant-v5")


# -- which compiler compile_model runs --------------------------------------------------------------


def executable(path: Path, text: str = "#!/bin/sh\nexit 0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_find_cli_prefers_the_variable_then_the_checkout_then_path(monkeypatch, tmp_path) -> None:
    bin_dir = tmp_path / "bin"
    checkout = tmp_path / "checkout"
    monkeypatch.setattr(_compile, "REPO_ROOT", str(checkout))
    monkeypatch.delenv("ACHILLES_NODE_CLI", raising=False)
    monkeypatch.setenv("PATH", str(bin_dir))
    on_path = executable(bin_dir / "achilles")
    assert _compile.find_cli() is None, "without node, neither the checkout nor `achilles` on PATH runs"
    executable(bin_dir / "node")
    assert _compile.find_cli() == [str(on_path)]
    executable(checkout / "bin" / "achilles.js")
    assert _compile.find_cli() == [str(on_path)], "a checkout without its dist/ built is not a CLI"
    (checkout / "dist" / "cli").mkdir(parents=True)
    (checkout / "dist" / "cli" / "main.js").write_text("")
    assert _compile.find_cli() == ["node", str(checkout / "bin" / "achilles.js")]
    monkeypatch.setenv("ACHILLES_NODE_CLI", "/elsewhere/achilles.js")
    assert _compile.find_cli() == ["node", "/elsewhere/achilles.js"]
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert _compile.find_cli() == ["node", "/elsewhere/achilles.js"], "as given, even with no node to run it"


def test_the_cli_wins_over_mujoco_where_both_are_there(monkeypatch) -> None:
    if _compile.find_cli() is None:
        pytest.skip("no achilles CLI here")

    def not_this_route(m):
        raise AssertionError("compile_model went through MuJoCo although the CLI is there")

    fake = types.ModuleType("achilles._put_model")
    fake.put_model = not_this_route
    monkeypatch.setitem(sys.modules, "achilles._put_model", fake)
    doc = achilles.compile_model(gymnasium_asset("inverted_pendulum.xml"))
    assert doc["format"] == _compile.FORMAT


def test_arow_and_urdf_without_the_cli_say_they_need_it(without_node, tmp_path) -> None:
    arow = tmp_path / "pendulum.arow"
    arow.write_text("world:\n  dt: 0.001\n")
    urdf = tmp_path / "arm.urdf"
    urdf.write_text('<?xml version="1.0"?>\n<!-- an arm -->\n<robot name="arm"><link name="base"/></robot>\n')
    for path, what in ((arow, r"an \.arow scene"), (urdf, "a URDF file")):
        for call in (achilles.compile_model, lambda p: achilles.Batch(p, 2)):
            with pytest.raises(achilles.ModelError, match=rf"^{re.escape(str(path))}: {what} is read by the achilles CLI.*which was not found") as e:
                call(str(path))
            assert "npm install -g achilles-sim" in str(e.value) and "ACHILLES_NODE_CLI" in str(e.value)
            assert "Without it, compile_model reads MJCF files (root <mujoco>), compiled by MuJoCo" in str(e.value)
    with pytest.raises(achilles.ModelError, match="cannot read the file"):
        achilles.compile_model(tmp_path / "no-such.xml")


def test_mujoco_refusals_are_model_errors(without_node, tmp_path) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_text('<mujoco>\n  <worldbody>\n    <geom type="sphere" size="0.1" colour="red"/>\n  </worldbody>\n</mujoco>\n')
    with pytest.raises(achilles.ModelError, match=rf"^{re.escape(str(bad))}: MuJoCo: .*colour.*line 3") as e:
        achilles.compile_model(bad)
    assert e.value.path == str(bad)
    with pytest.raises(achilles.ModelError, match="per-robot parameters are written into a model by the achilles CLI"):
        achilles.compile_model(bad, parameters={"gravity.z": -9.7})


def test_mjcf_without_the_cli_or_put_model_says_what_is_missing(without_node, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "achilles._put_model", None)  # its import fails, as before it was merged
    monkeypatch.setattr(_compile, "_cache", {})
    with pytest.raises(achilles.ModelError, match="this achilles package has no put_model to compile MJCF through MuJoCo; install Node.js"):
        achilles.compile_model(gymnasium_asset("hopper.xml"))


def test_put_models_refusals_are_model_errors_naming_the_file(without_node, monkeypatch) -> None:
    def refuse(m):
        raise ValueError("mjModel.nflex = 2: flexes are not simulated by achilles")

    fake = types.ModuleType("achilles._put_model")
    fake.put_model = refuse
    monkeypatch.setitem(sys.modules, "achilles._put_model", fake)
    monkeypatch.setattr(_compile, "_cache", {})
    path = gymnasium_asset("hopper.xml")
    with pytest.raises(achilles.ModelError, match=rf"^{re.escape(path)}: mjModel.nflex = 2: flexes are not simulated by achilles$"):
        achilles.compile_model(path)


def test_mjcf_without_the_cli_is_compiled_by_mujoco_and_put_model(without_node, put_model, monkeypatch) -> None:
    import mujoco

    monkeypatch.setattr(_compile, "_cache", {})  # compiled here, not by an earlier test
    calls = []
    real = put_model.put_model
    monkeypatch.setattr(put_model, "put_model", lambda m: calls.append(m) or real(m))
    path = gymnasium_asset("hopper.xml")
    doc = achilles.compile_model(path)
    assert len(calls) == 1 and isinstance(calls[0], mujoco.MjModel)
    _compile.check_compiled(doc)
    assert doc["source"] == path and doc["files"] == [path]
    reference = mujoco.MjModel.from_xml_path(path)
    assert len(doc["names"]["actuators"]) == reference.nu and doc["world"]["dt"] == reference.opt.timestep
    assert achilles.compile_model(path) == doc and len(calls) == 1, "served from the cache"
    b = achilles.Batch(path, 3, precision="f64")
    b.ctrl[:, :] = 0.5
    b.step(50)
    assert np.isfinite(b.q).all() and b.time == pytest.approx(50 * b.dt)


# -- running --------------------------------------------------------------------------------------


def node_references() -> list[dict]:
    """The runs scripts/check-wheel.sh had the Node engine make (python/tests/node_reference.mjs)."""
    if not WHEEL_CHECK_DIR:
        return []
    return [json.loads(line) for line in Path(WHEEL_CHECK_DIR, "references.jsonl").read_text().splitlines() if line]


@pytest.mark.skipif(not WHEEL_CHECK_DIR, reason="scripts/check-wheel.sh's references (test_node_parity.py checks this where Node is)")
@pytest.mark.parametrize("case", range(2))
def test_a_compiled_document_steps_as_in_node(case: int) -> None:
    """A document written by `achilles compile` where Node is, run by the wheel where it is not: bit
    for bit the Node engine's run (protocol.py's offsets and controls)."""
    ref = node_references()[case]
    doc = json.loads(Path(ref["document"]).read_text())
    out = json.loads(Path(ref["reference"]).read_text())
    b = run(doc, ref["precision"], ref["lanes"], ref["copies"], ref["steps"])
    assert (b.isa, b.stride) == (out["isa"], out["stride"])
    fields = {"q": b.q, "v": b.v, "qacc": b.qacc, "act": b.act, "actuatorForce": b.actuator_force}
    for field, array in fields.items():
        assert array.tobytes() == base64.b64decode(out[field]), f"{ref['document']}: {field} differs from the Node engine's"


@pytest.mark.parametrize("env_id", ["InvertedPendulum-v5", "Hopper-v5"])
def test_make_vec_runs_the_packaged_task_as_gymnasium(env_id: str, without_node, put_model) -> None:
    """The packaged task file and MuJoCo's route give Gymnasium's env: reset bit for bit, and steps
    from Gymnasium's states within docs/python.md's bar."""
    import gymnasium

    from test_gym_vs_gymnasium import BAR, run_against_gymnasium

    worst, _ = run_against_gymnasium(env_id, steps=30)
    bar = getattr(PUT_MODEL, "TOLERANCE", BAR)  # the shim's model is MuJoCo's XML, rounded as written
    assert max(worst.values()) < bar, f"{env_id}: {worst}"
    envs = make_vec(env_id, num_envs=2, precision="f64")
    envs.reset(seed=3)
    for i in range(2):
        ref = gymnasium.make(env_id).unwrapped
        ref.reset(seed=3 + i)
        assert np.array_equal(envs.batch.q[:, i], ref.data.qpos), f"{env_id}: env {i}'s reset qpos is not Gymnasium's"
        assert np.array_equal(envs.batch.v[:, i], ref.data.qvel), f"{env_id}: env {i}'s reset qvel is not Gymnasium's"
    envs.close()
