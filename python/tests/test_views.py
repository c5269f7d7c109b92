"""State arrays are views of the engine's memory: no copy, writes reach the next step, and the memory
outlives the batch while an array holds it. step() lets other Python threads run."""

from __future__ import annotations

import gc
import threading
import time

import numpy as np
import pytest

import achilles
from conftest import same_bits


def test_arrays_are_views_of_the_state(compiled: dict) -> None:
    b = achilles.Batch(compiled["double-pendulum"], 4, precision="f64", lanes=4)
    q = b.q
    assert q.shape == (b.nq, b.stride) and q.dtype == np.float64 and not q.flags.owndata
    before = q.copy()
    b.step(10)
    assert q is b.q and not same_bits(q, before), "the array held before step() shows the new state"


def test_writing_q_changes_the_next_step(compiled: dict) -> None:
    model = compiled["double-pendulum"]
    plain, moved, again = (achilles.Batch(model, 4, precision="f64", lanes=4) for _ in range(3))
    for b in (moved, again):
        b.q[0, 2] = 0.7  # robot 2's first joint
    for b in (plain, moved, again):
        b.step(50)
    assert same_bits(moved.q, again.q)
    assert same_bits(moved.q[:, [0, 1, 3]], plain.q[:, [0, 1, 3]]), "the other robots are untouched"
    assert not same_bits(moved.q[:, 2], plain.q[:, 2]), "the write reached the step"


def test_ctrl_alternates_halves_as_typescript(compiled: dict) -> None:
    b = achilles.Batch(compiled["quadruped"], 4, precision="f32", lanes=4)
    h0, h1 = b.control_halves()
    assert b.ctrl is h0 and h0.shape == (b.nu, b.stride)
    h0[:] = 0.25
    h1[:] = 9.0
    n = b.copies  # the stride may be wider (aligned storage); the step works on the robots' blocks
    b.step()  # reads half 0, clears half 1
    assert b.ctrl is h1 and not h1[:, :n].any() and (h0[:, :n] == 0.25).all()
    b.step()  # reads half 1, clears half 0
    assert b.ctrl is h0 and not h0[:, :n].any()
    b.reset()
    assert b.ctrl is h0 and b.steps == 0 and b.time == 0


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_held_controls_are_single_steps_with_the_controls_written_before_each(compiled: dict, k: int) -> None:
    """step(k, hold_controls=True), the gym envs' frame skip, leaves the batch as k single steps would."""

    def make() -> achilles.Batch:
        return achilles.Batch(compiled["quadruped"], 6, precision="f32", lanes=4)

    single, once = make(), make()
    n = single.copies
    for call in range(3):
        u = np.sin(1.7 * np.arange(single.nu * n).reshape(single.nu, n) + 0.9 * call)
        for _ in range(k):
            single.ctrl[:, :n] = u
            single.step(1)
        once.ctrl[:, :n] = u
        once.step(k, hold_controls=True)
    assert once.steps == single.steps
    for name in ("q", "v", "qacc", "ctrl_target", "act"):
        assert same_bits(getattr(once, name)[:, :n], getattr(single, name)[:, :n]), name
    for a, b in zip(once.control_halves(), single.control_halves()):
        assert same_bits(a[:, :n], b[:, :n]), "the halves as single steps leave them"


def test_views_survive_the_batch(compiled: dict) -> None:
    b = achilles.Batch(compiled["quadruped"], 16, precision="f64", lanes=8)
    q, ctrl = b.q, b.ctrl
    q[:] = 12345.0
    ctrl[:] = -3.0
    del b
    gc.collect()
    # New batches of the same size take memory the old one would have given back.
    others = [achilles.Batch(compiled["quadruped"], 16, precision="f64", lanes=8) for _ in range(4)]
    assert (q == 12345.0).all() and (ctrl == -3.0).all(), "the arrays still hold the dead batch's memory"
    q += 1.0  # and may still be written
    assert (q == 12346.0).all() and all(not np.shares_memory(q, o.q) for o in others)


def test_step_releases_the_gil(compiled: dict) -> None:
    b = achilles.Batch(compiled["quadruped"], 64, precision="f64", lanes=1)
    t0 = time.perf_counter()
    b.step(5)
    n = max(5, int(5 * 0.6 / (time.perf_counter() - t0)))  # about 0.6 s of stepping
    done = threading.Event()
    took = []

    def stepping() -> None:
        t = time.perf_counter()
        b.step(n)
        took.append(time.perf_counter() - t)
        done.set()

    worker = threading.Thread(target=stepping)
    gap, last = 0.0, time.perf_counter()  # before start(): the step may begin before start() returns
    worker.start()
    while not done.is_set():  # this thread keeps running while the other steps
        now = time.perf_counter()
        gap, last = max(gap, now - last), now
    gap = max(gap, time.perf_counter() - last)  # a wait ends at the loop's test, after the step
    worker.join()
    assert took[0] > 0.2
    assert gap < 0.5 * took[0], f"this thread stood still {gap:.3f} s of the {took[0]:.3f} s step: the GIL was held"


def test_batches_on_threads_match_one_thread(compiled: dict) -> None:
    model = compiled["quadruped"]
    alone = achilles.Batch(model, 8, precision="f32", lanes=8)
    alone.step(30)
    pair = [achilles.Batch(model, 8, precision="f32", lanes=8) for _ in range(2)]
    threads = [threading.Thread(target=b.step, args=(30,)) for b in pair]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(same_bits(b.q, alone.q) for b in pair)
