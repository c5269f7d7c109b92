"""bench/python-rollout.py and bench/python-derivatives.py at tiny sizes (8 rollouts x 5 steps, 8
states, one repetition, 1 and 2 threads): their cells, ratios and accuracy columns, the machine and the
MjModel door in every output, and charts that the house renderer (src/reports/render.ts) draws."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import shutil
import subprocess

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built (python3 -m pip install ./python)", allow_module_level=True)

from achilles import _bench  # noqa: E402
from achilles import rollout as ach_rollout  # noqa: E402
from conftest import REPO  # noqa: E402


def load(name: str):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), REPO / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ran(tmp_path, monkeypatch, name: str, argv: list[str]):
    """The bench's main into tmp_path: (module, CSV comment line, rows, chart spec, output dir)."""
    bench = load(name)
    monkeypatch.setattr(ach_rollout, "_compiled", ach_rollout._compiled)  # the CLI fallback's door, undone after
    out = tmp_path / name
    assert bench.main(argv + ["--threads", "1,2", "--reps", "1", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [f"{name}.csv", f"{name}.vl.json"]  # no temporary left
    lines = (out / f"{name}.csv").read_text().splitlines()
    assert lines[1].split(",") == bench.COLUMNS
    return bench, lines[0], list(csv.DictReader(lines[1:])), json.loads((out / f"{name}.vl.json").read_text()), out


def check_common(bench, comment: str, rows: list[dict], spec: dict, sides: set) -> None:
    door = _bench.mjmodel_door()
    name, bits = _bench.isa()
    # the machine: the CPU's model, its ISA and register width, and the MjModel's door
    assert comment.startswith(f"# {_bench.cpu_name()} ({name}, {bits}-bit), ") and "logical CPUs" in comment
    assert comment.endswith(f"MjModel -> engine: {door}")
    assert {(r["side"], r["precision"], r["threads"]) for r in rows} == {(s, p, t) for s, p in sides for t in ("1", "2")}
    for r in rows:
        assert r["mjmodel_door"] == door and r["reps"] == "1" and r["warmup"] == "1"
        lo, med, hi = float(r["seconds_min"]), float(r["seconds"]), float(r["seconds_max"])
        assert 0 < lo <= med <= hi and float(r["spread"]) == pytest.approx((hi - lo) / med, abs=1e-5)
        base = next(x for x in rows if x["side"].startswith("mujoco") and x["threads"] == r["threads"])
        if r is base:
            assert r["vs_mujoco"] == ""
        else:  # MuJoCo's median over ours, each stored to 6 digits
            assert float(r["vs_mujoco"]) == pytest.approx(float(base["seconds"]) / med, rel=3 * 5e-6)
    # the chart: the house's schema, every row, one panel per thread count, median bars and min-max rules
    charts_ts = (REPO / "src" / "reports" / "charts.ts").read_text()
    assert f"VL_SCHEMA = '{spec['$schema']}'" in charts_ts
    assert len(spec["data"]["values"]) == len(rows) and spec["facet"]["row"]["field"] == "threads"
    assert [layer["mark"] for layer in spec["spec"]["layer"]] == ["bar", "rule"]
    for layer in spec["spec"]["layer"]:
        for channel in layer["encoding"].values():
            if isinstance(channel, dict) and "field" in channel:
                assert all(channel["field"] in v for v in spec["data"]["values"]), channel["field"]
    assert spec["title"]["subtitle"][0] == comment[2:].split("; MjModel")[0]
    assert f"MjModel -> engine: {_bench.mjmodel_door()}" in spec["title"]["subtitle"][1]


def rendered(spec_path) -> str:
    """The SVG of the house renderer (needs node and the built dist/)."""
    if shutil.which("node") is None or not (REPO / "dist" / "reports" / "render.js").exists():
        pytest.skip("node or the built dist/ (npm run build:ts) is missing: the chart is not rendered")
    r = subprocess.run(["node", str(REPO / "python" / "tests" / "render_chart.mjs"), str(spec_path)], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    return r.stdout


def svg_texts(svg: str) -> list[str]:
    return [re.sub(r"<[^>]*>", "", t) for t in re.findall(r"<text[^>]*>.*?</text>", svg)]


def test_rollout_bench(tmp_path, monkeypatch):
    bench, comment, rows, spec, out = ran(tmp_path, monkeypatch, "python-rollout", ["--nbatch", "8", "--nstep", "5"])
    sides = {("mujoco.rollout", "f64"), ("achilles.rollout", "f32"), ("achilles.rollout", "f64")}
    check_common(bench, comment, rows, spec, sides)
    for r in rows:
        assert (r["nbatch"], r["nstep"]) == ("8", "5") and float(r["steps_per_s"]) == pytest.approx(40 / float(r["seconds"]), rel=1e-5)
        if r["side"] == "achilles.rollout":  # 5 steps: f64 agrees to round-off, f32 to single precision
            assert float(r["max_abs_diff"]) < (1e-10 if r["precision"] == "f64" else 1e-3)
    texts = svg_texts(rendered(out / "python-rollout.vl.json"))
    assert spec["title"]["text"] in texts
    assert {"mujoco.rollout f64", "achilles.rollout f32", "achilles.rollout f64"} <= set(texts)


def test_derivatives_bench(tmp_path, monkeypatch):
    bench, comment, rows, spec, out = ran(tmp_path, monkeypatch, "python-derivatives", ["--nstates", "8"])
    sides = {("mujoco.mjd_transitionFD loop", "f64"), ("achilles transition_fd", "f32"), ("achilles transition_fd", "f64")}
    check_common(bench, comment, rows, spec, sides)
    for r in rows:
        assert r["nstates"] == "8" and r["lanes_per_state"] == "37"  # 1 + 2 nv + na + nu on the ant
        assert float(r["eps"]) == (1e-3 if r["precision"] == "f32" else 1e-6)
        if r["side"].startswith("mujoco"):  # MuJoCo judged against itself: the same matrices
            assert float(r["rel_diff_A"]) == 0 and float(r["rel_diff_B"]) == 0
        else:  # f64: MuJoCo's differences to round-off over eps; f32 at 1e-3: single precision's
            bound = 1e-6 if r["precision"] == "f64" else 1e-2
            assert float(r["rel_diff_A"]) < bound and float(r["rel_diff_B"]) < bound
    texts = svg_texts(rendered(out / "python-derivatives.vl.json"))
    assert spec["title"]["text"] in texts
    assert "achilles transition_fd f32 (eps 1e-03)" in texts
    assert {"mujoco.mjd_transitionFD loop", "achilles transition_fd"} <= set(texts)  # the legend, whole


def test_bad_flags_are_refused():
    with pytest.raises(SystemExit, match="must be positive integers"):
        load("python-rollout").main(["--threads", "0"])
    with pytest.raises(SystemExit, match="must be positive integers"):
        load("python-derivatives").main(["--nstates", "0"])
