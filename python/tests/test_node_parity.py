"""A model compiled by the CLI steps in Python bit for bit as in the Node engine: the same core, the same
reader, the same controls' double buffer. Robots differ (offsets, per-robot controls every step);
robot 0's contacts after forward() match too (the quadruped stands on its feet)."""

from __future__ import annotations

import json
import subprocess

import pytest

import achilles
from conftest import DOUBLE_PENDULUM, MODELS, REPO, node_reference, supported_lanes
from protocol import run

STEPS = {"double-pendulum": 300, "quadruped": 60, "mjcf-general-servos": 150}


@pytest.mark.parametrize("precision", ["f32", "f64"])
@pytest.mark.parametrize("name", list(MODELS))
def test_python_steps_as_node_does(name: str, precision: str, compiled: dict) -> None:
    lanes = max(w for w in supported_lanes(precision) if w <= 8)
    copies = 5  # not a multiple of the lanes: padding lanes too
    node = node_reference(MODELS[name], precision, lanes, copies, STEPS[name])
    b = run(compiled[name], precision, lanes, copies, STEPS[name])
    assert (b.isa, b.stride) == (node["isa"], node["stride"])
    fields = {"q": b.q, "v": b.v, "qacc": b.qacc, "act": b.act, "actuatorForce": b.actuator_force}
    for field, array in fields.items():
        assert array.tobytes() == node[field], f"{name} {precision} x {lanes}: {field} differs from the Node engine's"
    assert b.nu == 0 or b.actuator_force.any(), "the controls never acted: the test would not see them"
    b.forward()
    contacts = b.contacts(0)
    assert set(contacts) == set(node["contacts"])
    for key, array in contacts.items():
        assert array.tobytes() == node["contacts"][key], f"{name} {precision}: contacts[{key!r}] differs from the Node engine's"
    if name == "quadruped":
        assert len(contacts["dist"]) > 0 and contacts["pos"].shape == (len(contacts["dist"]), 3)


@pytest.mark.parametrize("precision", ["f32", "f64"])
def test_default_lanes_are_the_typescript_batchs(precision: str, compiled: dict) -> None:
    script = (
        "const { loadScene, Batch } = await import(process.argv[1]);"
        "const b = new Batch(loadScene(process.argv[2]), { copies: 3, precision: process.argv[3] });"
        "process.stdout.write(JSON.stringify([b.lanes, b.isa, b.stride]));"
    )
    args = ["node", "--input-type=module", "-e", script, str(REPO / "dist" / "index.js"), DOUBLE_PENDULUM, precision]
    r = subprocess.run(args, capture_output=True, text=True, check=True)
    b = achilles.Batch(compiled["double-pendulum"], 3, precision=precision)
    assert [b.lanes, b.isa, b.stride] == json.loads(r.stdout)
