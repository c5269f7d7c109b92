"""The package's one door for models (_model_door.py): Batch, set_robot_model and the Gymnasium vector
envs take a mujoco.MjModel or a document from put_model as they take a path, and run the same model."""

from __future__ import annotations

import os

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built (python3 -m pip install ./python)", allow_module_level=True)
gym_mujoco = pytest.importorskip("gymnasium.envs.mujoco")

from achilles.gym import make_vec  # noqa: E402

HOPPER = os.path.join(os.path.dirname(gym_mujoco.__file__), "assets", "hopper.xml")


def stepped(model, steps: int = 50) -> np.ndarray:
    """Four hoppers from a spread of starts with fixed controls, f64: their final q and v."""
    b = achilles.Batch(model, copies=4, precision="f64")
    rng = np.random.default_rng(3)
    b.q[:, :4] += rng.uniform(-0.05, 0.05, (b.nq, 4))
    b.ctrl[:, :4] = rng.uniform(-1, 1, (b.nu, 4))
    b.step(steps)
    return np.concatenate([b.q[:, :4], b.v[:, :4]])


def test_batch_takes_an_mjmodel_a_put_model_document_and_a_path_alike():
    m = mujoco.MjModel.from_xml_path(HOPPER)
    by_path = stepped(HOPPER)
    # the hopper's document is the same bits from MuJoCo's compiler as from ours (test_put_model.py)
    np.testing.assert_array_equal(stepped(m), by_path)
    np.testing.assert_array_equal(stepped(achilles.put_model(m)), by_path)


def test_set_robot_model_takes_an_mjmodel():
    m = mujoco.MjModel.from_xml_path(HOPPER)
    heavy = mujoco.MjModel.from_xml_path(HOPPER)
    heavy.body_mass[heavy.body("torso").id] *= 2
    b = achilles.Batch(m, copies=2, precision="f64")
    b.set_robot_model(1, heavy)
    b.step(100)
    assert not np.array_equal(b.q[:, 0], b.q[:, 1])  # the heavy torso falls otherwise
    alone = achilles.Batch(heavy, copies=1, precision="f64")
    alone.step(100)
    np.testing.assert_array_equal(b.q[:, 1], alone.q[:, 0])


def test_something_else_is_named():
    with pytest.raises(ValueError, match="a path, a dict from compile_model or put_model, or a mujoco.MjModel .got int"):
        achilles.Batch(42, copies=1)


def test_make_vec_takes_the_robot_as_an_mjmodel():
    m = mujoco.MjModel.from_xml_path(HOPPER)
    heavy = mujoco.MjModel.from_xml_path(HOPPER)
    heavy.body_mass[heavy.body("torso").id] *= 2
    envs = {
        "task file": make_vec("Hopper-v5", 3, precision="f64"),
        "MjModel": make_vec("Hopper-v5", 3, precision="f64", model=m),
        "put_model": make_vec("Hopper-v5", 3, precision="f64", model=achilles.put_model(m)),
        "heavy": make_vec("Hopper-v5", 3, precision="f64", model=heavy),
    }
    actions = np.random.default_rng(0).uniform(-1, 1, (20, 3, 3))
    out = {}
    for name, env in envs.items():
        obs, _ = env.reset(seed=7)
        rows = [obs]
        for a in actions:
            obs, reward, *_ = env.step(a)
            rows += [obs, reward[:, None]]
        out[name] = np.concatenate(rows, axis=1)
    np.testing.assert_array_equal(out["MjModel"], out["task file"])
    np.testing.assert_array_equal(out["put_model"], out["task file"])
    assert not np.allclose(out["heavy"], out["task file"])  # the model given is the one that runs
    with pytest.raises(ValueError, match="either as model= or as xml_file="):
        make_vec("Hopper-v5", 1, model=m, xml_file="hopper.xml")
