"""achilles.derivatives.transition_fd beside a loop of mujoco.mjd_transitionFD: NSTATES states of
Gymnasium's ant, forward differences, at each of THREADS threads on both sides, in one run.

    PYTHONPATH=<overlay> python3 bench/python-derivatives.py [--nstates 256] [--threads 1,2]
        [--integrator implicitfast] [--eps 1e-6] [--eps-f32 1e-3] [--reps 5] [--warmup 1] [--out DIR]

The model: the ant with the integrator given (implicitfast by default; its own RK4 is refused by
mjd_transitionFD). The states differ: the ant resting on the floor (MuJoCo's state 100 steps after
reset), pressed into it and perturbed (every state in contact), each with its own uniform random
controls and the resting state's warm start.

Cells, per thread count T:
- MuJoCo: per state mj_setState, ctrl, qacc_warmstart and mjd_transitionFD (1 + 2 nv + na + nu steps,
  the perturbed ones skipping the stages they share with the nominal: the position stage for velocity,
  activation and control perturbations); T = 2: the states split in two halves, one MjData and one
  thread each (a ThreadPoolExecutor kept across calls; mjd_transitionFD releases the GIL).
- achilles f64 and f32: transition_fd(m, states, controls, threads=T, precision=...), one call, every
  perturbed copy of every state a lane of one batch stepped once (the batch kept between calls). f64 at
  --eps; f32 cannot resolve 1e-6, so at --eps-f32 (the same lanes and the same work).
Each cell is called `--warmup` times first; the timed calls are interleaved (achilles._bench.interleaved).

Per cell: median seconds of the whole batch with min and max, states per second, MuJoCo's median over
ours at the same thread count, and the worst |A - A_MuJoCo| and |B - B_MuJoCo| relative to the largest
entry of MuJoCo's (f32: against MuJoCo's at --eps-f32, computed once, untimed). Outputs in --out:
python-derivatives.csv (the machine on its first line) and python-derivatives.vl.json, written atomically.

Known limit: MuJoCo's FD skips the position stage for the velocity and control perturbations (2/3 of
them on the ant); each of our lanes runs a whole step, so the engine's step per lane caps the ratio near
5.7x on one thread (the derivatives engineer's measurement, issue 53).

MjModel -> engine: achilles.put_model (the MjModel's own fields; every output says so).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

NAME = "python-derivatives"
INTEGRATORS = {"euler": "Euler", "implicitfast": "implicitfast"}
COLUMNS = [
    "model", "integrator", "side", "precision", "threads", "nstates", "lanes_per_state", "eps", "seconds",
    "seconds_min", "seconds_max", "spread", "states_per_s", "vs_mujoco", "rel_diff_A", "rel_diff_B", "reps",
    "warmup", "mjmodel_door",
]  # fmt: skip


def ant_xml(integrator: str) -> str:
    """Gymnasium's ant.xml with the integrator replaced, in a temporary file."""
    import gymnasium.envs.mujoco as gm

    with open(os.path.join(os.path.dirname(gm.__file__), "assets", "ant.xml")) as f:
        text = f.read()
    path = os.path.join(tempfile.mkdtemp(), f"ant-{integrator}.xml")
    with open(path, "w") as f:
        f.write(text.replace('integrator="RK4"', f'integrator="{INTEGRATORS[integrator]}"'))
    return path


def inputs(m, nstates: int, seed: int = 0):
    import mujoco

    full = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
    d = mujoco.MjData(m)
    for _ in range(100):
        mujoco.mj_step(m, d)
    s = np.empty(mujoco.mj_stateSize(m, full))
    mujoco.mj_getState(m, d, s, full)
    rng = np.random.default_rng(seed)
    s0 = np.tile(s, (nstates, 1))
    s0[:, 1 : 1 + m.nq] += rng.uniform(-0.01, 0.01, (nstates, m.nq))
    s0[:, 3] -= 0.01  # the torso's height: pressed onto the floor
    s0[:, 4:8] /= np.linalg.norm(s0[:, 4:8], axis=1, keepdims=True)  # the free joint's quaternion
    s0[:, 1 + m.nq : 1 + m.nq + m.nv] += rng.uniform(-0.2, 0.2, (nstates, m.nv))
    u = rng.uniform(m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1], (nstates, m.nu))
    return s0, u, d.qacc_warmstart.copy()


class MujocoLoop:
    """mjd_transitionFD per state, the states split in `threads` contiguous parts, one MjData each."""

    def __init__(self, m, s0, u, warm, threads: int):
        import mujoco

        self.m, self.s0, self.u, self.warm = m, s0, u, warm
        n, ndx = len(s0), 2 * m.nv + m.na
        self.A, self.B = np.zeros((n, ndx, ndx)), np.zeros((n, ndx, m.nu))
        bounds = np.linspace(0, n, threads + 1).astype(int)
        self.parts = [(mujoco.MjData(m), bounds[k], bounds[k + 1]) for k in range(threads)]
        self.pool = ThreadPoolExecutor(threads) if threads > 1 else None

    def _part(self, part, eps: float) -> None:
        import mujoco

        d, lo, hi = part
        full = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
        for i in range(lo, hi):
            mujoco.mj_setState(self.m, d, self.s0[i], full)
            d.ctrl[:], d.qacc_warmstart[:] = self.u[i], self.warm
            mujoco.mjd_transitionFD(self.m, d, eps, False, self.A[i], self.B[i], None, None)

    def __call__(self, eps: float) -> tuple[np.ndarray, np.ndarray]:
        if self.pool is None:
            self._part(self.parts[0], eps)
        else:
            list(self.pool.map(lambda p: self._part(p, eps), self.parts))
        return self.A, self.B

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def _rel(x: np.ndarray, ref: np.ndarray) -> float:
    return float(np.abs(x - ref).max() / np.abs(ref).max())


def run(nstates: int, threads: list[int], integrator: str, eps: float, eps_f32: float, reps: int, warmup: int, progress=print):
    import mujoco

    from achilles import _bench, derivatives

    path = ant_xml(integrator)
    m = mujoco.MjModel.from_xml_path(path)
    door = _bench.through_door(m, path)
    s0, u, warm = inputs(m, nstates)
    ndx = 2 * m.nv + m.na
    lanes = 1 + ndx + m.nu

    # MuJoCo's derivatives at each eps, untimed, to judge ours (one thread: they do not depend on it)
    ref_loop = MujocoLoop(m, s0, u, warm, 1)
    refs = {e: tuple(x.copy() for x in ref_loop(e)) for e in {eps, eps_f32}}

    labels, calls, outs, loops = [], [], [], []
    for t in threads:
        loop = MujocoLoop(m, s0, u, warm, t)
        loops.append(loop)
        cells = [("mujoco.mjd_transitionFD loop", "f64", eps, lambda loop=loop: loop(eps))]
        for precision, e in (("f32", eps_f32), ("f64", eps)):
            cells.append(("achilles transition_fd", precision, e,
                          lambda t=t, precision=precision, e=e: derivatives.transition_fd(m, s0, u, eps=e, threads=t, precision=precision, warmstart=warm)))  # fmt: skip
        for side, precision, e, fn in cells:
            box: dict[str, Any] = {}

            def call(fn=fn, box=box):
                box["out"] = fn()

            labels.append({"side": side, "precision": precision, "threads": t, "eps": e})
            calls.append(call)
            outs.append(box)
    try:
        times = _bench.interleaved(calls, reps, warmup, progress)
    finally:
        for loop in loops + [ref_loop]:
            loop.close()

    rows = []
    for label, box, ts in zip(labels, outs, times):
        A, B = box["out"]
        ref_A, ref_B = refs[label["eps"]]
        row = {"model": "ant", "integrator": integrator, **label, "nstates": nstates, "lanes_per_state": lanes, **_bench.summary(ts)}
        row.update({"states_per_s": nstates / row["seconds"], "rel_diff_A": _rel(A, ref_A), "rel_diff_B": _rel(B, ref_B)})
        row.update({"reps": reps, "warmup": warmup, "mjmodel_door": door})
        rows.append(row)
    for r in rows:
        ref = next(x for x in rows if x["side"].startswith("mujoco") and x["threads"] == r["threads"])
        r["vs_mujoco"] = "" if r is ref else ref["seconds"] / r["seconds"]
    return rows, door


def chart(rows: list[dict[str, Any]], machine: str, door: str) -> dict[str, Any]:
    """States per second per cell (median bar, min-max rule), one panel per thread count."""
    from achilles._bench import rate_chart

    data = [
        {**r, "cell": f"{r['side']} {r['precision']} (eps {r['eps']:.0e})", "states_per_s_min": r["nstates"] / r["seconds_max"],
         "states_per_s_max": r["nstates"] / r["seconds_min"]}
        for r in rows
    ]  # fmt: skip
    n = rows[0]
    return rate_chart(
        data,
        title=f"transition_fd beside mjd_transitionFD: ant ({n['integrator']}), {n['nstates']} states, forward differences",
        subtitle=[machine, f"MjModel -> engine: {door}; median of {n['reps']} interleaved repetitions, rule: min-max"],
        rate="states_per_s",
        rate_title="states differentiated per second (median)",
        columns=COLUMNS,
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="bench/python-derivatives.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--nstates", type=int, default=256)
    ap.add_argument("--threads", default="1,2", help="comma-separated thread counts, the same on both sides")
    ap.add_argument("--integrator", choices=sorted(INTEGRATORS), default="implicitfast")
    ap.add_argument("--eps", type=float, default=1e-6, help="MuJoCo's and ours in f64")
    ap.add_argument("--eps-f32", type=float, default=1e-3, help="ours in f32 (judged against MuJoCo's at this eps)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1, help="untimed calls per cell before the repetitions")
    ap.add_argument("--out", default="python-derivatives", help="output directory")
    a = ap.parse_args(argv)
    threads = [int(t) for t in a.threads.split(",") if t]
    if not threads or min(threads) < 1 or min(a.nstates, a.reps) < 1 or a.warmup < 0:
        raise SystemExit("python-derivatives: --nstates, --reps and --threads must be positive integers, --warmup >= 0")

    import mujoco

    from achilles import _bench

    machine = _bench.machine(MuJoCo=mujoco.__version__)
    rows, door = run(a.nstates, threads, a.integrator, a.eps, a.eps_f32, a.reps, a.warmup, progress=lambda s: print(s, file=sys.stderr))
    os.makedirs(a.out, exist_ok=True)
    _bench.write_atomic(os.path.join(a.out, f"{NAME}.csv"), _bench.to_csv(rows, COLUMNS, f"{machine}; MjModel -> engine: {door}"))
    _bench.write_atomic(os.path.join(a.out, f"{NAME}.vl.json"), json.dumps(chart(rows, machine, door), indent=1) + "\n")
    lanes = rows[0]["lanes_per_state"]
    print(f"ant ({a.integrator}): {a.nstates} states x {lanes} steps each (forward differences); median of {a.reps} interleaved repetitions")
    for r in rows:
        ratio = f"{r['vs_mujoco']:.2f}x the MuJoCo loop" if r["vs_mujoco"] != "" else ""
        print(
            f"{r['side']:<28} {r['precision']} {r['threads']}t eps {r['eps']:.0e} {r['seconds'] * 1e3:8.1f} ms"
            f" ({r['seconds_min'] * 1e3:.1f}-{r['seconds_max'] * 1e3:.1f}) {r['states_per_s']:>9,.0f} states/s"
            f"  rel |dA| {r['rel_diff_A']:.2g} |dB| {r['rel_diff_B']:.2g}  {ratio}"
        )
    print(f"machine: {machine}\nMjModel -> engine: {door}\nwrote {a.out}/{NAME}.csv, {a.out}/{NAME}.vl.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
