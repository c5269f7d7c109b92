#!/usr/bin/env python3
"""Random-shooting MPC on Gymnasium's ant with achilles.rollout in place of mujoco.rollout.

  python3 examples/mpc_random_shooting.py [--backend achilles|mujoco] [--steps 50] [--samples 256]
      [--horizon 20] [--precision f32|f64]

At every control step: draw `samples` random control sequences of `horizon` steps, roll them all
out from the ant's current state (one rollout() call), score each by the torso's forward (x)
progress minus a small control cost, and apply the best sequence's first control for one step of
MuJoCo itself. Prints the torso's x progress and the seconds spent in rollout(). The two backends
take the same argument list (a drop-in); seeded, so both choose the same controls (f64).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import mujoco
import numpy as np


def load_ant() -> mujoco.MjModel:
    import gymnasium.envs.mujoco as gm

    path = os.path.join(os.path.dirname(gm.__file__), "assets", "ant.xml")
    return mujoco.MjModel.from_xml_path(path)


def mpc(rollout, m: mujoco.MjModel, steps: int, samples: int, horizon: int, seed: int = 0, **kwargs) -> dict:
    d, pool = mujoco.MjData(m), [mujoco.MjData(m) for _ in range(2)]
    full, rng = mujoco.mjtState.mjSTATE_FULLPHYSICS.value, np.random.default_rng(seed)
    state, x0, spent = np.empty(mujoco.mj_stateSize(m, full)), float(d.qpos[0]), 0.0
    for _ in range(steps):
        mujoco.mj_getState(m, d, state, full)
        plans = rng.uniform(m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1], (samples, horizon, m.nu))
        t = time.perf_counter()
        traj, _ = rollout(m, pool, state, plans, initial_warmstart=d.qacc_warmstart, persistent_pool=True, **kwargs)
        spent += time.perf_counter() - t
        score = traj[:, -1, 1] - state[1] - 1e-3 * np.square(plans).sum(axis=(1, 2))  # x progress - control cost
        d.ctrl[:] = plans[int(np.argmax(score)), 0]
        mujoco.mj_step(m, d)
    return {"x_progress": float(d.qpos[0]) - x0, "rollout_seconds": spent, "qpos": d.qpos.tolist()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", choices=["achilles", "mujoco"], default="achilles")
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--samples", type=int, default=256)
    p.add_argument("--horizon", type=int, default=20)
    p.add_argument("--precision", choices=["f32", "f64"], default="f32")
    a = p.parse_args()
    m = load_ant()
    if a.backend == "mujoco":
        import mujoco.rollout as backend

        out = mpc(backend.rollout, m, a.steps, a.samples, a.horizon)
    else:
        from achilles import rollout as backend

        out = mpc(backend.rollout, m, a.steps, a.samples, a.horizon, precision=a.precision)
    print(json.dumps({k: v for k, v in out.items() if k != "qpos"}))


if __name__ == "__main__":
    main()
