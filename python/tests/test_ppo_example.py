"""examples/ppo.py on Achilles: it learns InvertedPendulum-v5 (mean return >= 950 within 100k env
steps), its exported ONNX policy keeps perturbed pendulums up for a whole episode in
`achilles run --policy`, and a seeded run's observations are bit-identical across env thread
counts and runs. (About a minute: CI runs it.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("onnx")
gym_mujoco = pytest.importorskip("gymnasium.envs.mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[2]
PPO = ROOT / "examples" / "ppo.py"
PENDULUM = Path(gym_mujoco.__file__).parent / "assets" / "inverted_pendulum.xml"


def ppo(*args: str) -> dict:
    r = subprocess.run([sys.executable, str(PPO), "--quiet", *args], capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def test_learns_the_pendulum_and_the_policy_runs_in_the_cli(tmp_path):
    policy = tmp_path / "policy.onnx"
    s = ppo("--env", "InvertedPendulum-v5", "--steps", "100000", "--require-target", "--out", str(policy))
    assert s["reached_target_at_step"] is not None and s["reached_target_at_step"] <= 100_000
    node = subprocess.run(
        ["node", str(ROOT / "bin" / "achilles.js"), "run", str(PENDULUM), "--policy", str(policy), "--task", "InvertedPendulum-v5",
         "--copies", "4", "--robots", "0,1,2,3", "--spread", "0.05", "--out", str(tmp_path / "run")],
        capture_output=True, text=True, timeout=600,
    )
    assert node.returncode == 0, node.stderr
    lines = [l for l in node.stdout.splitlines() if l.startswith("policy ")]
    assert lines == [f"policy InvertedPendulum-v5: robot {r} return 1000 over 1000 env steps, never terminated" for r in range(4)]


def test_seeded_observations_are_bit_identical_across_threads_and_runs(tmp_path):
    digests = {
        ppo("--steps", "10240", "--threads", str(t), "--digest-steps", "10000", "--out", str(tmp_path / f"p{t}{k}.onnx"))["obs_digest"]
        for t, k in [(1, 0), (2, 0), (1, 1)]
    }
    assert len(digests) == 1, digests
