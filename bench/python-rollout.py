"""achilles.rollout beside mujoco.rollout: NBATCH rollouts of Gymnasium's ant x NSTEP steps, at each of
THREADS threads on both sides, in one run.

    PYTHONPATH=<overlay> python3 bench/python-rollout.py [--nbatch 256] [--nstep 100] [--threads 1,2]
        [--reps 5] [--warmup 1] [--out DIR]

Cells, per thread count T (T = 1: the calling thread on both sides, nthread=0 as MuJoCo's default):
- mujoco.rollout: `mujoco.rollout.Rollout(nthread=T)` with T MjData, float64;
- achilles.rollout f32 and f64: `achilles.rollout.Rollout(nthread=T)`, the same arguments plus precision
  (the engine's arithmetic; the outputs are float64 either way).
Each side keeps its Rollout (MuJoCo: its thread pool; ours: the batch) across calls, as
persistent_pool=True does, and each cell is called `--warmup` times before the timed calls. The timed
calls are interleaved (achilles._bench.interleaved): every repetition calls every cell once.

The robots differ: each rollout starts from the ant resting on the floor (MuJoCo's state 100 steps after
reset) with its own perturbation of qpos and qvel, and runs its own uniform random controls.

Per cell: median seconds of one rollout() call with min and max, rollout steps per second, MuJoCo's
median over ours at the same thread count, and the worst |ours - MuJoCo| over the states of every step
(f64: round-off growing through contacts; f32: single precision). Outputs in --out: python-rollout.csv
(the machine on its first line) and python-rollout.vl.json (a Vega-Lite chart), each written atomically.

MjModel -> engine: achilles.put_model (the MjModel's own fields; every output says so).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

import numpy as np

NAME = "python-rollout"
COLUMNS = [
    "model", "side", "precision", "threads", "nbatch", "nstep", "seconds", "seconds_min", "seconds_max",
    "spread", "steps_per_s", "vs_mujoco", "max_abs_diff", "reps", "warmup", "mjmodel_door",
]  # fmt: skip


def ant_xml() -> str:
    import gymnasium.envs.mujoco as gm

    return os.path.join(os.path.dirname(gm.__file__), "assets", "ant.xml")


def inputs(m, nbatch: int, nstep: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Robots that differ: the resting ant, each with its own qpos/qvel perturbation and controls."""
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


def run(nbatch: int, nstep: int, threads: list[int], reps: int, warmup: int, progress=print) -> tuple[list[dict[str, Any]], str]:
    import mujoco
    import mujoco.rollout as mj_rollout

    from achilles import _bench
    from achilles import rollout as ach_rollout

    path = ant_xml()
    m = mujoco.MjModel.from_xml_path(path)
    door = _bench.through_door(m, path)
    s0, u = inputs(m, nbatch, nstep)
    nstate = mujoco.mj_stateSize(m, mujoco.mjtState.mjSTATE_FULLPHYSICS.value)

    labels, calls, outs, pools = [], [], [], []
    for t in threads:
        data = [mujoco.MjData(m) for _ in range(t)]
        nthread = t if t > 1 else 0
        for side, precision, pool in (
            ("mujoco.rollout", "f64", mj_rollout.Rollout(nthread=nthread)),
            ("achilles.rollout", "f32", ach_rollout.Rollout(nthread=nthread)),
            ("achilles.rollout", "f64", ach_rollout.Rollout(nthread=nthread)),
        ):
            out = np.empty((nbatch, nstep, nstate))
            extra = {} if side == "mujoco.rollout" else {"precision": precision}

            def call(pool=pool, data=data, out=out, extra=extra):
                pool.rollout(m, data, s0, u, state=out, **extra)

            labels.append({"side": side, "precision": precision, "threads": t})
            calls.append(call)
            outs.append(out)
            pools.append(pool)
    try:
        times = _bench.interleaved(calls, reps, warmup, progress)
    finally:
        for pool in pools:
            pool.close()

    rows = []
    for label, out, ts in zip(labels, outs, times):
        rows.append({"model": "ant", **label, "nbatch": nbatch, "nstep": nstep, **_bench.summary(ts), "reps": reps, "warmup": warmup, "mjmodel_door": door, "_out": out})
    for r in rows:
        ref = next(x for x in rows if x["side"] == "mujoco.rollout" and x["threads"] == r["threads"])
        r["steps_per_s"] = nbatch * nstep / r["seconds"]
        r["vs_mujoco"] = "" if r is ref else ref["seconds"] / r["seconds"]
        r["max_abs_diff"] = "" if r is ref else float(np.abs(r["_out"] - ref["_out"]).max())
    for r in rows:
        del r["_out"]
    return rows, door


def chart(rows: list[dict[str, Any]], machine: str, door: str) -> dict[str, Any]:
    """Rollout steps per second per cell (median bar, min-max rule), one panel per thread count."""
    from achilles._bench import rate_chart

    data = [
        {**r, "cell": f"{r['side']} {r['precision']}", "steps_per_s_min": r["nbatch"] * r["nstep"] / r["seconds_max"],
         "steps_per_s_max": r["nbatch"] * r["nstep"] / r["seconds_min"]}
        for r in rows
    ]  # fmt: skip
    n = rows[0]
    return rate_chart(
        data,
        title=f"achilles.rollout beside mujoco.rollout: ant, {n['nbatch']} rollouts x {n['nstep']} steps",
        subtitle=[machine, f"MjModel -> engine: {door}; median of {n['reps']} interleaved repetitions, rule: min-max"],
        rate="steps_per_s",
        rate_title="rollout steps per second (median)",
        columns=COLUMNS,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench/python-rollout.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--nbatch", type=int, default=256)
    ap.add_argument("--nstep", type=int, default=100)
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts, the same on both sides")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1, help="untimed calls per cell before the repetitions")
    ap.add_argument("--out", default="python-rollout", help="output directory")
    a = ap.parse_args(argv)
    threads = [int(t) for t in a.threads.split(",") if t]
    if not threads or min(threads) < 1 or min(a.nbatch, a.nstep, a.reps) < 1 or a.warmup < 0:
        raise SystemExit("python-rollout: --nbatch, --nstep, --reps and --threads must be positive integers, --warmup >= 0")

    import mujoco

    from achilles import _bench

    machine = _bench.machine(MuJoCo=mujoco.__version__)
    rows, door = run(a.nbatch, a.nstep, threads, a.reps, a.warmup, progress=lambda s: print(s, file=sys.stderr))
    os.makedirs(a.out, exist_ok=True)
    _bench.write_atomic(os.path.join(a.out, f"{NAME}.csv"), _bench.to_csv(rows, COLUMNS, f"{machine}; MjModel -> engine: {door}"))
    _bench.write_atomic(os.path.join(a.out, f"{NAME}.vl.json"), json.dumps(chart(rows, machine, door), indent=1) + "\n")
    print(f"ant: {a.nbatch} rollouts x {a.nstep} steps; median of {a.reps} interleaved repetitions after {a.warmup} warm-up")
    for r in rows:
        ratio = f"{r['vs_mujoco']:.2f}x mujoco.rollout, max |diff| {r['max_abs_diff']:.3g}" if r["vs_mujoco"] != "" else ""
        print(
            f"{r['side']:<17} {r['precision']} {r['threads']}t {r['seconds'] * 1e3:9.1f} ms"
            f" ({r['seconds_min'] * 1e3:.1f}-{r['seconds_max'] * 1e3:.1f}) {r['steps_per_s']:>12,.0f} steps/s  {ratio}"
        )
    print(f"machine: {machine}\nMjModel -> engine: {door}\nwrote {a.out}/{NAME}.csv, {a.out}/{NAME}.vl.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
