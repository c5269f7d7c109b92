"""python3 bench/gym-states.py ENV_ID PREFIX [num_envs=256] [env_steps=200] [precision=f32]

The states a Gymnasium task's training run reaches, for bench/step-time.mjs (STATES=PREFIX): achilles'
make_vec stepped env_steps times with uniform random actions (seeded), autoresets included, then
the batch's q and v written as float64 [k·num_envs + r] to PREFIX.q and PREFIX.v. Step-time from
these states times the engine on the workload users run (robots that differ as a task's episodes
make them differ), where a reset batch starts every robot in the same state.
"""

from __future__ import annotations

import sys

import numpy as np

from achilles.gym import make_vec


def main(argv: list[str]) -> None:
    if len(argv) < 2:
        sys.exit(__doc__)
    env_id, prefix = argv[0], argv[1]
    num_envs = int(argv[2]) if len(argv) > 2 else 256
    env_steps = int(argv[3]) if len(argv) > 3 else 200
    precision = argv[4] if len(argv) > 4 else "f32"
    env = make_vec(env_id, num_envs, precision=precision)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    low, high = env.single_action_space.low, env.single_action_space.high
    for _ in range(env_steps):
        env.step(rng.uniform(low, high, (num_envs, low.shape[0])).astype(np.float32))
    b = env.batch
    n = num_envs
    np.asarray(b.q[:, :n], dtype=np.float64).tofile(f"{prefix}.q")
    np.asarray(b.v[:, :n], dtype=np.float64).tofile(f"{prefix}.v")
    print(f"{env_id}: {n} envs after {env_steps} env steps -> {prefix}.q ({b.nq} per env), {prefix}.v ({b.nv} per env)")


if __name__ == "__main__":
    main(sys.argv[1:])
