"""The README's MPC example (the Python block after `<!-- readme-mpc-example -->`) runs as written, and
with `from mujoco import rollout` in its place it makes the same choices (f64: the plans' final states
agree within round-off, so the same plan wins at every step)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")
pytest.importorskip("gymnasium.envs.mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built (python3 -m pip install ./python)", allow_module_level=True)

README = Path(__file__).resolve().parents[2] / "README.md"


def example() -> str:
    text = README.read_text()
    m = re.search(r"<!-- readme-mpc-example -->\n```python\n(.*?)```", text, re.S)
    assert m, "README.md has no <!-- readme-mpc-example --> python block"
    return m.group(1)


def run(code: str) -> dict:
    scope: dict = {}
    exec(compile(code, str(README), "exec"), scope)
    return scope


def test_the_readme_mpc_example_runs_and_chooses_as_mujoco_does():
    code = example()
    assert "from achilles import rollout" in code and len(code.strip().splitlines()) <= 13
    short = code.replace("range(50)", "range(10)")  # the comparison over the first 10 control steps
    assert short != code
    ours = run(short.replace('precision="f32"', 'precision="f64"'))
    theirs = run(short.replace("from achilles import rollout", "from mujoco import rollout").replace(', precision="f32"', ""))
    np.testing.assert_allclose(ours["d"].qpos, theirs["d"].qpos, rtol=0, atol=1e-9)
    assert ours["d"].qpos[0] != ours["m"].qpos0[0]  # it moved
    run(code)  # and as written (f32)
