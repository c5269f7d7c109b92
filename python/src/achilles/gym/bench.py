"""python3 -m achilles.gym.bench: env-steps per second of Achilles' make_vec beside Gymnasium's own
vector envs, on the same task, the same number of envs and the same random actions, in one run.

Cells (each timed in repetitions interleaved with the others, after a warm-up; median and spread):
- achilles: `make_vec(env_id, N, precision, threads)`: observations, rewards, termination and
  next-step autoresets included, as a training loop gets them.
- gymnasium sync: `gymnasium.make_vec(env_id, N, vectorization_mode="sync")`, one process.
- gymnasium sync x W: W worker processes, each stepping a SyncVectorEnv of N/W envs over a pipe (the
  baseline for W threads). Gymnasium's AsyncVectorEnv would start one process per env (256 processes
  on a 2-core machine); W processes of N/W envs each is the stronger baseline, with less IPC.
- engine only (tasks make_vec refuses, vector.why_refused): the task's own model file stepped frame_skip times per
  env step with the same actions, without observations or rewards: an upper bound of what make_vec
  could reach on that task, never a task ratio (marked as such in every output).

Random actions: uniform in the action space, one seeded stream for the whole run, the same array
handed to every cell. Outputs: a CSV and a Vega-Lite chart (gym-bench.csv, gym-bench.vl.json).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import statistics
import sys
import time
from typing import Any, Callable

import numpy as np

from .._bench import VL_SCHEMA, machine as machine_line, write_atomic
from .._bench import to_csv as _to_csv

TASKS = (
    "InvertedPendulum-v5",
    "InvertedDoublePendulum-v5",
    "Hopper-v5",
    "HalfCheetah-v5",
    "Walker2d-v5",
    "Ant-v5",
    "Humanoid-v5",
    "HumanoidStandup-v5",
    "Reacher-v5",
    "Pusher-v5",
    "Swimmer-v5",
)


def _actions(space_low: np.ndarray, space_high: np.ndarray, steps: int, num_envs: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(space_low, space_high, size=(steps, num_envs, len(space_low))).astype(np.float32)


# -- cells: each returns (step(actions_row) -> None, close()) --------------------------------------
def _achilles_cell(env_id: str, n: int, precision: str, threads: int):
    from .vector import make_vec

    env = make_vec(env_id, n, precision=precision, threads=threads)
    env.reset(seed=0)
    return env.step, env.close


def _engine_cell(env_id: str, n: int, precision: str, threads: int):
    """The task's model stepped frame_skip times per env step: no observation, reward or reset."""
    from .. import Batch, compile_model
    from .task import load_task
    from .vector import gymnasium_model_path

    task = load_task(env_id)
    b = Batch(compile_model(gymnasium_model_path(task.model)), copies=n, precision=precision, threads=threads)
    b.reset()

    def step(actions: np.ndarray) -> None:
        a = np.asarray(actions, dtype=np.float64).T
        for _ in range(task.frame_skip):
            b.ctrl[:, :n] = a
            b.step(1)

    return step, lambda: None


def _gym_sync_cell(env_id: str, n: int):
    import gymnasium

    env = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="sync")
    env.reset(seed=0)
    return env.step, env.close


def _worker(conn, env_id: str, n: int, seed: int) -> None:
    import gymnasium

    env = gymnasium.make_vec(env_id, num_envs=n, vectorization_mode="sync")
    env.reset(seed=seed)
    conn.send("ready")
    while True:
        msg = conn.recv()
        if msg is None:
            env.close()
            conn.close()
            return
        obs, reward, terminated, truncated, _ = env.step(msg)
        conn.send((obs, reward, terminated, truncated))


def _gym_processes_cell(env_id: str, n: int, workers: int):
    ctx = mp.get_context("spawn")
    sizes = [n // workers + (1 if w < n % workers else 0) for w in range(workers)]
    starts = np.cumsum([0] + sizes)
    pipes, procs = [], []
    for w in range(workers):
        parent, child = ctx.Pipe()
        p = ctx.Process(target=_worker, args=(child, env_id, sizes[w], 1000 * w), daemon=True)
        p.start()
        pipes.append(parent)
        procs.append(p)
    for c in pipes:
        c.recv()

    def step(actions: np.ndarray) -> None:
        for w, c in enumerate(pipes):
            c.send(actions[starts[w] : starts[w + 1]])
        parts = [c.recv() for c in pipes]
        np.concatenate([p[0] for p in parts])  # the caller's batch, as a vector env returns it

    def close() -> None:
        for c in pipes:
            c.send(None)
        for p in procs:
            p.join(timeout=10)

    return step, close


# -- the run ------------------------------------------------------------------------------------
def _time(step: Callable, actions: np.ndarray, first: int, count: int) -> float:
    t0 = time.perf_counter()
    for s in range(first, first + count):
        step(actions[s % len(actions)])
    return time.perf_counter() - t0


def run(
    env_ids: list[str], num_envs: int, threads: list[int], precisions: list[str], reps: int, steps: int, seed: int, progress=print
) -> list[dict[str, Any]]:
    import gymnasium

    from .vector import why_refused
    from .task import load_task

    rows: list[dict[str, Any]] = []
    for env_id in env_ids:
        probe = gymnasium.make(env_id)
        low, high = probe.action_space.low, probe.action_space.high
        probe.close()
        actions = _actions(low, high, steps * (reps + 1), num_envs, seed)
        runs_task = why_refused(load_task(env_id)) is None
        cells: list[tuple[dict[str, Any], tuple]] = []
        for p in precisions:
            for t in threads:
                kind = "achilles" if runs_task else "engine only"
                make = _achilles_cell if runs_task else _engine_cell
                cells.append(({"engine": kind, "precision": p, "threads": t}, make(env_id, num_envs, p, t)))
        cells.append(({"engine": "gymnasium sync", "precision": "f64", "threads": 1}, _gym_sync_cell(env_id, num_envs)))
        for t in threads:
            if t > 1:
                cells.append(({"engine": f"gymnasium sync x{t} processes", "precision": "f64", "threads": t}, _gym_processes_cell(env_id, num_envs, t)))
        times: list[list[float]] = [[] for _ in cells]
        for i, (_, (step, _)) in enumerate(cells):
            _time(step, actions, 0, max(1, steps // 4))  # warm-up
        for r in range(reps):
            progress(f"{env_id}: repetition {r + 1}/{reps}")
            for i, (_, (step, _)) in enumerate(cells):
                times[i].append(_time(step, actions, (r + 1) * steps, steps))
        for _, (_, close) in cells:
            close()
        for (label, _), ts in zip(cells, times):
            rates = [num_envs * steps / x for x in ts]
            med = statistics.median(rates)
            row = {
                "env": env_id,
                **label,
                "num_envs": num_envs,
                "env_steps_per_s": med,
                "spread": (max(rates) - min(rates)) / med,
                "reps": reps,
                "steps_per_rep": steps,
            }
            rows.append(row)
        for r in rows:
            if r["env"] != env_id:
                continue
            if r["engine"].startswith("gymnasium"):
                r["vs_gymnasium"] = ""
                r["baseline"] = ""
                continue
            t = r["threads"]
            ref_name = "gymnasium sync" if t == 1 else f"gymnasium sync x{t} processes"
            ref = next(x["env_steps_per_s"] for x in rows if x["env"] == env_id and x["engine"] == ref_name)
            r["vs_gymnasium"] = r["env_steps_per_s"] / ref
            r["baseline"] = ref_name
    return rows


COLUMNS = ["env", "engine", "precision", "threads", "num_envs", "env_steps_per_s", "spread", "vs_gymnasium", "baseline", "reps", "steps_per_rep"]


def to_csv(rows: list[dict[str, Any]]) -> str:
    return _to_csv(rows, COLUMNS)


def chart(rows: list[dict[str, Any]], machine: str) -> dict[str, Any]:
    data = [{**r, "cell": f"{r['engine']} {r['precision']} {r['threads']}t"} for r in rows]
    return {
        "$schema": VL_SCHEMA,
        "title": {"text": "Env-steps per second: Achilles make_vec beside Gymnasium (same task, envs, actions)", "subtitle": machine},
        "data": {"values": data},
        "facet": {"row": {"field": "env", "type": "nominal", "title": None}},
        "spec": {
            "width": 560,
            "height": {"step": 16},
            "mark": "bar",
            "encoding": {
                "y": {"field": "cell", "type": "nominal", "title": None, "sort": None},
                "x": {"field": "env_steps_per_s", "type": "quantitative", "title": "env-steps per second (median)", "scale": {"type": "log"}},
                "color": {"field": "engine", "type": "nominal"},
                "tooltip": [{"field": c} for c in COLUMNS],
            },
        },
        "resolve": {"scale": {"y": "independent"}},
    }


def _machine() -> str:
    """The CPU's name, its widest SIMD width, the logical CPUs, and the versions (achilles._bench)."""
    import gymnasium
    import mujoco

    return machine_line(Gymnasium=gymnasium.__version__, MuJoCo=mujoco.__version__)


def _list(value: str, cast, allowed=None, what="") -> list:
    out = [cast(v) for v in value.split(",") if v]
    if allowed is not None:
        bad = [v for v in out if v not in allowed]
        if bad:
            raise SystemExit(f"achilles.gym.bench: {what} {', '.join(map(str, bad))} is not one of {', '.join(map(str, allowed))}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m achilles.gym.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--env", default="Hopper-v5", help=f"comma-separated env ids ({', '.join(TASKS)})")
    ap.add_argument("--num-envs", type=int, default=256)
    ap.add_argument("--threads", default="1", help="comma-separated thread counts (2: beside 2 Gymnasium processes)")
    ap.add_argument("--precision", default="f32", help="comma-separated: f32, f64")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20, help="vector steps per repetition")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="gym-bench", help="output directory")
    a = ap.parse_args(argv)
    envs = _list(a.env, str, TASKS, "--env")
    threads = _list(a.threads, int, None)
    if any(t < 1 for t in threads) or a.num_envs < 1 or a.reps < 1 or a.steps < 1:
        raise SystemExit("achilles.gym.bench: --threads, --num-envs, --reps and --steps must be positive integers")
    precisions = _list(a.precision, str, ("f32", "f64"), "--precision")
    machine = _machine()
    rows = run(envs, a.num_envs, threads, precisions, a.reps, a.steps, a.seed, progress=lambda s: print(s, file=sys.stderr))
    os.makedirs(a.out, exist_ok=True)
    write_atomic(os.path.join(a.out, "gym-bench.csv"), f"# {machine}\n" + to_csv(rows))
    write_atomic(os.path.join(a.out, "gym-bench.vl.json"), json.dumps(chart(rows, machine), indent=1) + "\n")
    for r in rows:
        ratio = f"{r['vs_gymnasium']:.2f}x {r['baseline']}" if r["vs_gymnasium"] != "" else ""
        print(f"{r['env']:<22} {r['engine']:<30} {r['precision']} {r['threads']}t {r['env_steps_per_s']:>12,.0f} env-steps/s  spread {r['spread']:.1%}  {ratio}")
    print(f"wrote {a.out}/gym-bench.csv, {a.out}/gym-bench.vl.json ({machine})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
