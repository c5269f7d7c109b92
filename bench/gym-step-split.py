"""Where an env step of achilles.gym.make_vec goes: the engine (Batch.step, one held call per frame
skip; the resets' Batch.constrain) and the rest (observations, rewards, autoresets: Python), per
vector step, in a process of its own (the quick A/B instrument behind bench/RESULTS.md's Python-layer
entries; achilles.gym.bench is the one for ratios against Gymnasium).

    python3 bench/gym-step-split.py ENV_ID [num_envs=256] [precision=f32]
    env: STEPS (60), WARMUP (20); PYTHONPATH=<overlay> to time another build of the package
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from achilles.gym import make_vec


def main() -> None:
    env_id = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    precision = sys.argv[3] if len(sys.argv) > 3 else "f32"
    steps, warmup = int(os.environ.get("STEPS", 60)), int(os.environ.get("WARMUP", 20))
    env = make_vec(env_id, n, precision=precision, threads=1)
    env.reset(seed=0)
    rng = np.random.default_rng(1)
    lo, hi = env.single_action_space.low, env.single_action_space.high
    actions = [rng.uniform(lo, hi, (n, len(lo))).astype(np.float32) for _ in range(20)]
    # the engine's calls, timed where the env makes them: the frame skip's Batch.step and the resets' constrain
    engine = {"step": 0.0, "constrain": 0.0}

    def timed(name: str):
        call = getattr(env.batch, name)

        def run(*args, **kwargs):
            t = time.perf_counter()
            out = call(*args, **kwargs)
            engine[name] += time.perf_counter() - t
            return out

        setattr(env.batch, name, run)

    for name in engine:
        timed(name)
    for i in range(warmup):
        env.step(actions[i % 20])
    engine.update(dict.fromkeys(engine, 0.0))
    t0 = time.perf_counter()
    for i in range(steps):
        env.step(actions[i % 20])
    total = time.perf_counter() - t0
    ms = 1e3 / steps
    rest = total - sum(engine.values())
    print(
        f"{env_id} {precision}, {n} envs: {n * steps / total:.0f} env-steps/s; per env step {total * ms:.2f} ms: engine step"
        f" {engine['step'] * ms:.2f} ms, resets' constrain {engine['constrain'] * ms:.2f} ms, the rest (Python) {rest * ms:.2f} ms"
    )


if __name__ == "__main__":
    main()
