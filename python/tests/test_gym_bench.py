"""python3 -m achilles.gym.bench: its cells, its ratios (each against the baseline with as many
workers), the 'engine only' marking of tasks make_vec refuses, and its outputs."""

from __future__ import annotations

import csv
import json

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built (python3 -m pip install ./python)", allow_module_level=True)

from achilles.gym import bench  # noqa: E402


def test_cells_ratios_and_outputs(tmp_path, monkeypatch):
    # every task runs through make_vec now: InvertedPendulum-v5 is refused here to see the 'engine only' cells
    from achilles.gym import vector

    why = vector.why_refused
    monkeypatch.setattr(vector, "why_refused", lambda task: "refused for the test" if task.id == "InvertedPendulum-v5" else why(task))
    out = tmp_path / "gb"
    argv = ["--env", "InvertedPendulum-v5,Humanoid-v5", "--num-envs", "4", "--threads", "1,2", "--reps", "2", "--steps", "3", "--out", str(out)]
    assert bench.main(argv) == 0
    lines = (out / "gym-bench.csv").read_text().splitlines()
    assert lines[0].startswith("# ") and "logical CPUs" in lines[0]
    rows = list(csv.DictReader(lines[1:]))
    cells = {(r["env"], r["engine"], r["threads"]) for r in rows}
    assert cells == {
        # a task make_vec refuses: its model is timed as 'engine only', never as the task
        ("InvertedPendulum-v5", "engine only", "1"),
        ("InvertedPendulum-v5", "engine only", "2"),
        ("InvertedPendulum-v5", "gymnasium sync", "1"),
        ("InvertedPendulum-v5", "gymnasium sync x2 processes", "2"),
        ("Humanoid-v5", "achilles", "1"),
        ("Humanoid-v5", "achilles", "2"),
        ("Humanoid-v5", "gymnasium sync", "1"),
        ("Humanoid-v5", "gymnasium sync x2 processes", "2"),
    }
    by = {(r["env"], r["engine"], r["threads"]): r for r in rows}
    for (env, engine, threads), r in by.items():
        assert float(r["env_steps_per_s"]) > 0 and int(r["reps"]) == 2 and int(r["num_envs"]) == 4
        if engine.startswith("gymnasium"):
            assert r["vs_gymnasium"] == "" and r["baseline"] == ""
            continue
        base = "gymnasium sync" if threads == "1" else "gymnasium sync x2 processes"
        assert r["baseline"] == base
        expect = float(r["env_steps_per_s"]) / float(by[(env, base, "2" if threads == "2" else "1")]["env_steps_per_s"])
        # the CSV keeps 6 significant digits (to_csv's .6g): each of the two rates and the stored ratio
        # is off by at most half a unit in the 6th digit, 5e-6 relative, so the ratio recomputed from
        # the CSV's rates differs from the CSV's ratio by at most 3 × 5e-6 (to first order)
        assert float(r["vs_gymnasium"]) == pytest.approx(expect, rel=3 * 5e-6 + 1e-12)
    spec = json.loads((out / "gym-bench.vl.json").read_text())
    assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
    assert len(spec["data"]["values"]) == len(rows)


def test_bad_flags_name_the_allowed_values():
    with pytest.raises(SystemExit, match="Pong-v5 is not one of InvertedPendulum-v5"):
        bench.main(["--env", "Pong-v5"])
    with pytest.raises(SystemExit, match="f16 is not one of f32, f64"):
        bench.main(["--precision", "f16"])
    with pytest.raises(SystemExit, match="must be positive integers"):
        bench.main(["--threads", "0"])
