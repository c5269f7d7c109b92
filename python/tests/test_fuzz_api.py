"""Fuzz of the Python API (issue 56, "bad input"): seeded hostile calls of Batch, its views, step,
set_robot_model/set_robot_parameters and Gymnasium's make_vec, step, set_state and reset
(test/fuzz/python_api.py says what each case does and what it must do). The cases run in a child
Python process, started again after a crash or a hang, so a segfault, an abort or an endless native
call is a reported case, not a lost test run.

    python3 -m pytest python/tests/test_fuzz_api.py                  a seeded sample (SAMPLE cases)
    ACHILLES_FUZZ_CASES=2000 python3 -m pytest python/tests/test_fuzz_api.py
                                                                     the long run (ACHILLES_FUZZ_SEED
                                                                     to change the seeds); each finding
                                                                     is kept in reports/fuzz/python-*.json
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import achilles
from conftest import REPO

DRIVER = REPO / "test" / "fuzz" / "python_api.py"
SAMPLE = 32  # two turns of every operation
CASES = int(os.environ.get("ACHILLES_FUZZ_CASES", SAMPLE))
SEED = int(os.environ.get("ACHILLES_FUZZ_SEED", "1"))
HANG_S = 60  # one case (a make_vec compiles its model through the CLI once: a few seconds)
RSS_MB = 4096


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            m = re.search(r"VmRSS:\s+(\d+) kB", f.read())
        return int(m.group(1)) / 1024 if m else 0.0
    except OSError:
        return 0.0


def read_lines(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf8").splitlines() if line.strip()]


def run_cases(first: int, count: int, tmp: Path) -> list[dict]:
    """Every case's result; a case whose process died or stopped answering is a crash, hang or memory
    result, and the driver goes on from the next seed."""
    results: dict[int, dict] = {}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(achilles.__file__).parents[1]), os.environ.get("PYTHONPATH", "")]))
    seed, end, run = first, first + count, 0
    while seed < end:
        out = tmp / f"run-{run}.jsonl"
        run += 1
        child = subprocess.Popen(
            [sys.executable, str(DRIVER), str(seed), str(end - seed), str(out)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        last_change, last_len, peak, verdict = time.monotonic(), -1, 0.0, None
        while child.poll() is None:
            time.sleep(0.1)
            peak = max(peak, rss_mb(child.pid))
            size = out.stat().st_size if out.exists() else 0
            if size != last_len:
                last_change, last_len = time.monotonic(), size
            if peak > RSS_MB:
                verdict = ("memory", f"{peak:.0f} MB resident")
            elif time.monotonic() - last_change > HANG_S:
                verdict = ("hang", f"no answer after {HANG_S} s")
            if verdict:
                child.kill()
                break
        child.wait()
        stderr = child.stderr.read() if child.stderr else ""
        lines = read_lines(out)
        for r in lines:
            if "begin" not in r:
                results[r["seed"]] = r
        begun = [r["seed"] for r in lines if "begin" in r]
        stuck = begun[-1] if begun and begun[-1] not in results else None
        if stuck is None:
            if child.returncode != 0:  # died between cases, or before the first
                results[seed] = {"seed": seed, "op": "?", "outcome": "crash", "type": "", "message": f"exit {child.returncode}: {stderr[-800:]}"}
                stuck = seed
            else:
                break
        if stuck is not None and stuck not in results:
            outcome, detail = verdict or ("crash", f"exit {child.returncode}: {stderr[-800:]}")
            results[stuck] = {"seed": stuck, "op": "?", "outcome": outcome, "type": "", "message": detail}
        seed = (stuck if stuck is not None else seed) + 1
    return [results[s] for s in sorted(results)]


def test_python_api_fuzz(tmp_path: Path) -> None:
    results = run_cases(SEED, CASES, tmp_path)
    assert [r["seed"] for r in results] == list(range(SEED, SEED + CASES))
    bad = [r for r in results if r["outcome"] not in ("ok", "raised", "skipped")]
    if CASES > SAMPLE:
        keep = REPO / "reports" / "fuzz"
        keep.mkdir(parents=True, exist_ok=True)
        for r in bad:
            (keep / f"python-{r['outcome']}-seed{r['seed']}.json").write_text(json.dumps(r, indent=1))
        counts: dict[str, int] = {}
        for r in results:
            counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
        print(f"fuzz python: {CASES} cases from seed {SEED}: {counts}")
    lines = [
        f"{r['outcome']} (seed {r['seed']}, {r['op']}): {r['type']}: {r['message'][:400]}\n"
        f"    reproduce: PYTHONPATH={Path(achilles.__file__).parents[1]} python3 {DRIVER.relative_to(REPO)} {r['seed']} 1 /tmp/case.jsonl"
        for r in bad
    ]
    assert not lines, "\n".join(lines)
    outcomes = {r["outcome"] for r in results}
    assert "raised" in outcomes and "ok" in outcomes, "the sample must exercise both sides"


def test_the_harness_sees_a_crash_a_hang_and_an_undocumented_exception(tmp_path: Path, monkeypatch) -> None:
    """The driver's classification and the restart after a dead child: a case that segfaults, one that
    never returns, one that raises KeyError, each reported at its seed, the others still run."""
    me = sys.modules[__name__]
    driver = tmp_path / "driver.py"
    driver.write_text(
        "import ctypes, json, sys, time\n"
        "first, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]\n"
        "with open(out, 'a') as f:\n"
        "    for s in range(first, first + count):\n"
        "        f.write(json.dumps({'seed': s, 'begin': True}) + '\\n'); f.flush()\n"
        "        if s == 2: ctypes.string_at(0)\n"
        "        if s == 4: time.sleep(3600)\n"
        "        r = {'seed': s, 'op': 'x', 'outcome': 'bad' if s == 5 else 'ok', 'type': 'KeyError' if s == 5 else '', 'message': ''}\n"
        "        f.write(json.dumps(r) + '\\n'); f.flush()\n"
    )
    monkeypatch.setattr(me, "DRIVER", driver)
    monkeypatch.setattr(me, "HANG_S", 2)
    results = me.run_cases(1, 6, tmp_path)
    assert [(r["seed"], r["outcome"]) for r in results] == [(1, "ok"), (2, "crash"), (3, "ok"), (4, "hang"), (5, "bad"), (6, "ok")]
    assert "exit -11" in results[1]["message"]


def test_the_invariants_can_fail() -> None:
    """A step that returns with a non-finite state is a finding; an exception outside DOCUMENTED, or
    one without a message, or one printing another file, is too."""
    sys.path.insert(0, str(DRIVER.parent))
    try:
        import python_api as d
    finally:
        sys.path.pop(0)

    class FakeBatch:
        copies = 2
        q = __import__("numpy").array([[0.0, float("nan"), 7.0]])
        v = __import__("numpy").zeros((1, 3))

    try:
        d.check_finite(FakeBatch())
        raise AssertionError("check_finite let a NaN through")
    except d.Bad as e:
        assert "q holds [nan]" in str(e)
    assert d.documented(ValueError("x"), d.op_step_count)
    assert not d.documented(ValueError(""), d.op_step_count)
    assert not d.documented(KeyError("params"), d.op_gym_make)
    assert not d.documented(AttributeError("x"), d.op_step_count)
    assert not d.documented(OSError("Argument list too long"), d.op_set_robot_parameters)
