"""achilles.rollout against mujoco.rollout: NBATCH rollouts of Gymnasium's ant x NSTEP steps, THREADS
threads each side (MuJoCo: that many MjData in its pool; ours: the batch's threads), f32 and f64.

    python3 bench/python-rollout.py [--nbatch 256] [--nstep 100] [--threads 2] [--repeats 5] [--csv OUT.csv]

Each rollout starts from the ant resting on the floor (MuJoCo's state 100 steps after reset),
perturbed, with uniform random controls; both sides keep their pool between calls
(persistent_pool=True), and each is called once before the timed calls. Per side: the median
seconds of one rollout() call, rollout steps per second, and MuJoCo's time over ours. The worst
|ours - MuJoCo| of the states is printed too (f64: round-off; f32: single precision).

MjModel -> engine: achilles.put_model where the package has it; otherwise the engine's model is
compiled by the CLI from the same file (the same model: test_rollout.py's shim).
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time

import numpy as np


def ant_model():
    import achilles
    import gymnasium.envs.mujoco as gm
    import mujoco
    from achilles import rollout as ach_rollout

    path = os.path.join(os.path.dirname(gm.__file__), "assets", "ant.xml")
    m = mujoco.MjModel.from_xml_path(path)
    if not hasattr(achilles, "put_model"):
        doc = achilles.compile_model(path)
        ach_rollout._compiled = lambda model: doc
    return m


def inputs(m, nbatch: int, nstep: int, seed: int = 0):
    import mujoco

    full = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
    d = mujoco.MjData(m)
    for _ in range(100):
        mujoco.mj_step(m, d)
    s = np.empty(mujoco.mj_stateSize(m, full))
    mujoco.mj_getState(m, d, s, full)
    rng = np.random.default_rng(seed)
    s0 = np.tile(s, (nbatch, 1))
    s0[:, 1 : 1 + m.nq] += rng.uniform(-0.01, 0.01, (nbatch, m.nq))
    s0[:, 4:8] /= np.linalg.norm(s0[:, 4:8], axis=1, keepdims=True)  # the free joint's quaternion
    s0[:, 1 + m.nq : 1 + m.nq + m.nv] += rng.uniform(-0.2, 0.2, (nbatch, m.nv))
    u = rng.uniform(m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1], (nbatch, nstep, m.nu))
    return s0, u


def timed(call, repeats: int) -> tuple[float, np.ndarray]:
    out = call()  # warm: the pool, the batch, the model's conversion
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nbatch", type=int, default=256)
    p.add_argument("--nstep", type=int, default=100)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--csv", help="also write the table here")
    a = p.parse_args(argv)

    import mujoco
    import mujoco.rollout as mj_rollout

    from achilles import rollout as ach_rollout

    m = ant_model()
    s0, u = inputs(m, a.nbatch, a.nstep)
    data = [mujoco.MjData(m) for _ in range(a.threads)]
    rows = []
    base, ref = timed(lambda: mj_rollout.rollout(m, data, s0, u, persistent_pool=True)[0], a.repeats)
    mj_rollout.shutdown_persistent_pool()
    rows.append(("mujoco.rollout", "f64", base, 0.0))
    for precision in ("f32", "f64"):
        sec, got = timed(lambda: ach_rollout.rollout(m, data, s0, u, persistent_pool=True, precision=precision)[0], a.repeats)
        rows.append(("achilles.rollout", precision, sec, float(np.abs(got - ref).max())))
    ach_rollout.shutdown_persistent_pool()

    steps = a.nbatch * a.nstep
    header = ["side", "precision", "threads", "nbatch", "nstep", "seconds", "steps_per_s", "speedup", "max_abs_diff"]
    table = [[side, prec, a.threads, a.nbatch, a.nstep, f"{sec:.4f}", f"{steps / sec:.0f}", f"{base / sec:.2f}", f"{diff:.3g}"]
             for side, prec, sec, diff in rows]
    widths = [max(len(str(r[i])) for r in [header] + table) for i in range(len(header))]
    print(f"ant: {a.nbatch} rollouts x {a.nstep} steps, {a.threads} threads each side (median of {a.repeats})")
    for r in [header] + table:
        print("  ".join(str(c).rjust(w) for c, w in zip(r, widths)))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            csv.writer(f).writerows([header] + table)


if __name__ == "__main__":
    main(sys.argv[1:])
