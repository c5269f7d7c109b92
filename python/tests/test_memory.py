"""keep_freed_heap: a vector env's per-step arrays reuse the heap's pages instead of faulting them in
again after glibc hands them back to the kernel; and the recorded quantities a formula does not read
are not formed."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

# Made and dropped 30 times: 8.8 MB in 16 arrays of 0.2 to 0.9 MB, as a 256-env vector step makes. The count
# is the minor page faults of the last 20 rounds.
CHURN = """
import resource, sys
import numpy as np
from achilles._memory import keep_freed_heap
changed = keep_freed_heap() if sys.argv[1] == "keep" else False
def step():
    arrays = [np.ones(25_000 + 12_500 * (k % 8)) for k in range(16)]
    return sum(float(a[-1]) for a in arrays)
for _ in range(10):
    step()
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    step()
print(changed, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _churn(mode: str, env: dict | None = None) -> tuple[str, int]:
    out = subprocess.run([sys.executable, "-c", CHURN, mode], capture_output=True, text=True, check=True, env=env).stdout.split()
    return out[0], int(out[1])


def test_kept_heap_stops_the_page_faults_of_each_step() -> None:
    changed, kept = _churn("keep")
    _, default = _churn("default")
    if changed != "True":
        pytest.skip("not glibc: keep_freed_heap leaves malloc alone")
    # measured: 35,480 faults with glibc's defaults (about 7 MB faulted in per round), 0 with the heap kept
    assert default > 20 * 1000, f"the churn no longer faults with glibc's defaults ({default}): the test shows nothing"
    assert kept < default / 50, f"{kept} page faults with the heap kept, {default} without"


def test_malloc_tuned_by_the_user_is_left_alone() -> None:
    import os

    changed, _ = _churn("keep", env={**os.environ, "MALLOC_TOP_PAD_": "0"})
    assert changed == "False"


def test_recorded_quantities_are_formed_only_when_read() -> None:
    achilles = pytest.importorskip("achilles")
    if not hasattr(achilles, "Batch"):
        pytest.skip("the native package is not built")
    pytest.importorskip("gymnasium")
    from achilles.gym import make_vec

    env = make_vec("Humanoid-v5", 4, precision="f64")
    env.reset(seed=1)
    vals = env._values(np.arange(4), np.zeros((4, env.nu)))
    recorded = vals.maps[1]
    env.task.read_before(vals)  # the mass centre: xipos and body_mass
    assert "cinert" not in recorded.cache and "cvel" not in recorded.cache and "xipos" in recorded.cache
    env.task.observe(vals)
    assert {"cinert", "cvel", "cfrc_ext", "qfrc_actuator"} <= set(recorded.cache)
