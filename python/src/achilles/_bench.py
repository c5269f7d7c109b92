"""What the package's benches share (python -m achilles.gym.bench, bench/python-rollout.py,
bench/python-derivatives.py): the machine named, cells timed in interleaved repetitions after a
warm-up, median and spread, a CSV with the machine on its first line, and files written atomically.

Interleaving: repetition r times every cell once, in the same order, before repetition r + 1 starts.
A neighbour's build that slows the machine for a few seconds then slows every cell of the repetitions
it overlaps instead of one cell's whole series, so the ratios of medians stay fair on a shared machine.
"""

from __future__ import annotations

import csv
import io
import os
import platform
import statistics
import time
from typing import Any, Callable, Sequence

VL_SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"  # src/reports/charts.ts's: the renderer is vega-lite 6


def cpu_name() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what platform knows."""
    name = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            return next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), name)
    except OSError:
        return name


def isa() -> tuple[str, int]:
    """The widest SIMD instruction set the engine runs on this CPU, and its register width in bits."""
    from . import cpu_info

    cpu = cpu_info()
    if cpu.get("avx512"):
        return "AVX-512", 512
    if cpu.get("avx2"):
        return "AVX2", 256
    return "SSE2", 128


def machine(**versions: str) -> str:
    """One line: the CPU, its ISA width, the logical CPUs, Python and the given packages' versions."""
    name, bits = isa()
    parts = [f"Python {platform.python_version()}"] + [f"{k} {v}" for k, v in versions.items()]
    return f"{cpu_name()} ({name}, {bits}-bit), {os.cpu_count()} logical CPUs; {', '.join(parts)}"


def write_atomic(path: str, text: str) -> None:
    """Write the whole file or nothing: a reader never sees half a CSV, even if the bench is killed."""
    tmp = f"{path}.tmp-{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def interleaved(cells: Sequence[Callable[[], Any]], reps: int, warmup: int = 1, progress=None) -> list[list[float]]:
    """Seconds of each call of each cell: `warmup` untimed calls per cell, then `reps` rounds, each
    calling every cell once in order (round-robin). Returns times[cell][rep]."""
    for cell in cells:
        for _ in range(warmup):
            cell()
    times: list[list[float]] = [[] for _ in cells]
    for r in range(reps):
        if progress is not None:
            progress(f"repetition {r + 1}/{reps}")
        for i, cell in enumerate(cells):
            t0 = time.perf_counter()
            cell()
            times[i].append(time.perf_counter() - t0)
    return times


def summary(seconds: Sequence[float]) -> dict[str, float]:
    """Median, min and max seconds of one cell, and its spread: (max - min) / median."""
    med = statistics.median(seconds)
    return {"seconds": med, "seconds_min": min(seconds), "seconds_max": max(seconds), "spread": (max(seconds) - min(seconds)) / med}


def to_csv(rows: list[dict[str, Any]], columns: Sequence[str], comment: str = "") -> str:
    """The rows as CSV (floats to 6 significant digits), after a `# comment` line when given."""
    out = io.StringIO()
    if comment:
        out.write(f"# {comment}\n")
    w = csv.DictWriter(out, fieldnames=list(columns), lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: (f"{r[k]:.6g}" if isinstance(r[k], float) else r[k]) for k in columns})
    return out.getvalue()


def mjmodel_door() -> str:
    """How an MjModel reaches the engine (written beside every figure): achilles.put_model."""
    return "achilles.put_model"


def through_door(mj_model: Any, xml_path: str) -> str:
    """The label of the door rollout and derivatives take `mj_model` through (put_model: the MjModel's
    own fields, not `xml_path` read again)."""
    return mjmodel_door()


def rate_chart(data: list[dict[str, Any]], *, title: str, subtitle: list[str], rate: str, rate_title: str, columns: list[str]) -> dict[str, Any]:
    """A Vega-Lite chart of one rate per cell: a bar at the median (field `rate`), a rule from
    `rate`_min to `rate`_max, one panel per thread count; each datum names its `cell` and `side`."""
    y = {"field": "cell", "type": "nominal", "title": None, "sort": None, "axis": {"labelLimit": 400}}
    return {
        "$schema": VL_SCHEMA,
        "title": {"text": title, "subtitle": subtitle},
        "data": {"values": data},
        "facet": {"row": {"field": "threads", "type": "ordinal", "title": "threads (each side)"}},
        "spec": {
            "width": 480,
            "height": {"step": 22},
            "layer": [
                {
                    "mark": "bar",
                    "encoding": {
                        "y": y,
                        "x": {"field": rate, "type": "quantitative", "title": rate_title},
                        "color": {"field": "side", "type": "nominal", "title": None, "legend": {"labelLimit": 400}},
                        "tooltip": [{"field": c} for c in columns],
                    },
                },
                {"mark": "rule", "encoding": {"y": y, "x": {"field": f"{rate}_min", "type": "quantitative"}, "x2": {"field": f"{rate}_max"}}},
            ],
        },
    }
