"""Every lane width this CPU runs and 1 or 2 worker threads give the same numbers bit for bit."""

from __future__ import annotations

import pytest

from conftest import same_bits, supported_lanes
from protocol import run

COPIES = 20  # 20 robots: 5 blocks of 4, 3 of 8 (4 padding lanes), 2 of 16 (12 padding lanes)


@pytest.mark.parametrize("precision", ["f32", "f64"])
@pytest.mark.parametrize("name,steps", [("quadruped", 40), ("mjcf-general-servos", 100)])
def test_lanes_and_threads_agree(name: str, steps: int, precision: str, compiled: dict) -> None:
    ref = run(compiled[name], precision, 1, COPIES, steps)
    assert ref.q[:, :COPIES].std(axis=1).max() > 0, "the robots should differ"
    for lanes in supported_lanes(precision):
        for threads in (1, 2):
            b = run(compiled[name], precision, lanes, COPIES, steps, threads=threads)
            for field in ("q", "v", "qacc", "act", "actuator_force"):
                got, want = getattr(b, field)[:, :COPIES], getattr(ref, field)[:, :COPIES]
                assert same_bits(got, want), f"{name} {precision}: {field} at lanes {lanes}, threads {threads} differs from lanes 1"
