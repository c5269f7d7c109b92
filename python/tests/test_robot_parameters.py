"""Per-robot parameters from Python: set_robot_parameters / set_robot_model put robots that differ in
masses, frictions, armature and gravity into one batch, one per SIMD lane, and each robot runs bit for
bit as its own model run alone (TypeScript's Batch.setRobotModel, test/params-lanes.test.ts)."""

from __future__ import annotations

import numpy as np
import pytest

import achilles
from conftest import DOUBLE_PENDULUM, QUADRUPED, same_bits, supported_lanes

COPIES = 6
STEPS = 60
CTRL = [0.2, -0.1, 0.2, -0.1, 0.2, -0.1, 0.2, -0.1]


def values(r: int) -> dict[str, float]:
    return {
        "mass_scale:torso": 0.8 + 0.1 * r,
        "friction:ground": 0.4 + 0.15 * r,
        "armature:front_left_thigh": 0.001 + 0.003 * r,
        "gravity.x": 0.1 * r - 0.2,
    }


def run(batch: achilles.Batch) -> np.ndarray:
    for _ in range(STEPS):
        batch.ctrl[:, :] = np.array(CTRL, dtype=batch.ctrl.dtype)[:, None]
        batch.step(1)
    return np.concatenate([batch.q, batch.v])


@pytest.mark.parametrize("precision", ["f64", "f32"])
def test_each_robot_runs_as_its_own_model(precision: str) -> None:
    own = achilles.compile_model(QUADRUPED, parameters=[values(r) for r in range(COPIES)])
    alone = [run(achilles.Batch(own[r], 1, precision, lanes=1))[:, 0] for r in range(COPIES)]
    assert not same_bits(alone[0], alone[3]), "the robots should differ"
    for lanes in supported_lanes(precision):
        b = achilles.Batch(own[0], COPIES, precision, lanes=lanes, threads=2)
        b.set_robot_parameters({r: values(r) for r in range(1, COPIES)})
        got = run(b)
        for r in range(COPIES):
            assert same_bits(got[:, r], alone[r]), f"robot {r} at lanes {lanes}"


def test_set_robot_model_refuses_another_robot() -> None:
    b = achilles.Batch(QUADRUPED, 2, "f64", lanes=1)
    with pytest.raises(ValueError, match=r"robot 1's model differs from the batch's .*: nq"):
        b.set_robot_model(1, DOUBLE_PENDULUM)
    with pytest.raises(ValueError, match=r"robot 2 is out of range 0..1"):
        b.set_robot_model(2, QUADRUPED)
    with pytest.raises(achilles.ModelError, match=r"mass_scale:tail"):
        b.set_robot_parameters({1: {"mass_scale:tail": 1.1}})


def test_a_200k_character_parameter_name_gets_the_cli_message() -> None:
    """The parameters reach the CLI through stdin (`compile --parameters -`): a name past a command
    line's 128 KiB per argument is refused by the CLI as an unknown name, cut short, not by the OS
    (E2BIG) with advice to install Node."""
    b = achilles.Batch(QUADRUPED, 2, "f64", lanes=1)
    name = "mass_scale:" + "x" * 200_000
    with pytest.raises(achilles.ModelError) as e:
        b.set_robot_parameters({1: {name: 1.1}})
    msg = str(e.value)
    assert "Node" not in msg and "E2BIG" not in msg and "Argument list too long" not in msg, msg
    assert "--parameters" in msg and len(msg) < 2000, msg[:300]
