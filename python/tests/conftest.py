"""Shared by the package's tests: the repository, the models they run, and the Node engine's side."""

from __future__ import annotations

import base64
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

import achilles

REPO = Path(__file__).resolve().parents[2]
DOUBLE_PENDULUM = str(REPO / "scenes" / "double-pendulum.arow")
QUADRUPED = str(REPO / "scenes" / "quadruped.arow")  # contacts, Newton solver, servos
SERVOS = str(REPO / "test" / "fixtures" / "import" / "mjcf-general-servos.xml")  # MJCF: activations, RK4
MODELS = {"double-pendulum": DOUBLE_PENDULUM, "quadruped": QUADRUPED, "mjcf-general-servos": SERVOS}
CPU = achilles.cpu_info()


def supported_lanes(precision: str) -> list[int]:
    from achilles._lanes import supported_lanes as lanes

    return lanes(CPU, precision)


@pytest.fixture(scope="session")
def compiled() -> dict[str, dict]:
    """Each model compiled once by the CLI (a fresh dict per test: tests may spoil theirs)."""
    return {name: achilles.compile_model(path) for name, path in MODELS.items()}


def node_reference(scene: str, precision: str, lanes: int, copies: int, steps: int, threads: int = 1) -> dict:
    """The Node engine's arrays after node_reference.mjs's run (bytes per array, and isa, stride), and
    robot 0's contacts after a forward() (bytes per key)."""
    script = Path(__file__).with_name("node_reference.mjs")
    args = ["node", str(script), scene, precision, str(lanes), str(copies), str(steps), str(threads)]
    r = subprocess.run(args, capture_output=True, text=True, cwd=REPO, check=False)
    assert r.returncode == 0, f"{' '.join(args)} failed:\n{r.stderr}"
    out = json.loads(r.stdout)
    for key in ("q", "v", "qacc", "act", "actuatorForce"):
        out[key] = base64.b64decode(out[key])
    out["contacts"] = {k: base64.b64decode(v) for k, v in out["contacts"].items()}
    return out


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal bit for bit (so -0 differs from 0 and a NaN equals itself)."""
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
