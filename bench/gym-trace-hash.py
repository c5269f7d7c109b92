"""A hash of everything make_vec's envs return along a seeded random-action run: the check that a change
meant to be bit-identical (a speed-up, a refactor) is, from the Python side. Compare the line it prints
before and after the change.

    python3 bench/gym-trace-hash.py ENV_ID [ENV_ID ...]      (e.g. Humanoid-v5 Ant-v5)
    env: PYTHONPATH=<overlay> to hash another build of the package

64 envs, f32, reset(seed=3), 60 steps of actions uniform in the action space (numpy seed 5): the
observations, rewards, terminations, truncations and every info array of each step, in order.
"""

from __future__ import annotations

import hashlib
import sys

import numpy as np

from achilles.gym import make_vec


def trace_hash(env_id: str, num_envs: int = 64, steps: int = 60) -> str:
    env = make_vec(env_id, num_envs, precision="f32", threads=1)
    obs, _ = env.reset(seed=3)
    h = hashlib.sha256(obs.tobytes())
    rng = np.random.default_rng(5)
    lo, hi = env.single_action_space.low, env.single_action_space.high
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(rng.uniform(lo, hi, (num_envs, len(lo))).astype(np.float32))
        for x in (obs, reward, terminated, truncated, *(np.asarray(v) for _, v in sorted(info.items()))):
            h.update(np.ascontiguousarray(x).tobytes())
    return h.hexdigest()[:16]


if __name__ == "__main__":
    for env_id in sys.argv[1:]:
        print(env_id, trace_hash(env_id))
