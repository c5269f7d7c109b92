"""Gymnasium's own env along a seeded random-action run, for test/gym-vec-env.test.ts: per step the
state it starts from (qpos, qvel, and qacc_warmstart: the constraint solver's warm start, which an
unconverged solver such as Humanoid's PGS depends on), the action, and what the env returns (its info:
the entries that are numbers). After a termination the env
is reset with the next seed. Reads {"tasks": [...], "steps": N, "seed": S} on stdin (and optionally
"kwargs": {task: {...}}, each env's keyword arguments for gymnasium.make, a list as a tuple); writes JSON.
With {"reset_states": {task: [[qpos, qvel], ...]}} instead: Gymnasium's observation of a freshly reset
env put in each of those states (set_state after reset: cfrc_ext stays as mj_resetData left it)."""

import json
import sys

import gymnasium
import numpy as np

req = json.load(sys.stdin)
if "reset_states" in req:
    out = {}
    for env_id, states in req["reset_states"].items():
        env = gymnasium.make(env_id).unwrapped
        out[env_id] = []
        for qpos, qvel in states:
            env.reset(seed=0)
            env.set_state(np.array(qpos), np.array(qvel))
            out[env_id].append(env._get_obs().tolist())
    json.dump({"obs": out}, sys.stdout)
    sys.exit(0)
runs = {}
for env_id in req["tasks"]:
    kwargs = {k: tuple(v) if isinstance(v, list) else v for k, v in req.get("kwargs", {}).get(env_id, {}).items()}
    env = gymnasium.make(env_id, **kwargs).unwrapped
    seed = req["seed"]
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = []
    for s in range(req["steps"]):
        action = rng.uniform(env.action_space.low, env.action_space.high).astype(np.float32)
        qpos, qvel, warm = env.data.qpos.copy(), env.data.qvel.copy(), env.data.qacc_warmstart.copy()
        env.set_state(qpos, qvel)  # as ours: its mj_forward refreshes what the reward reads before the step
        obs, reward, terminated, _, info = env.step(action)
        steps.append(
            {
                "qpos": qpos.tolist(),
                "qvel": qvel.tolist(),
                "qacc_warmstart": warm.tolist(),
                "action": action.tolist(),
                "obs": obs.tolist(),
                "reward": float(reward),
                "terminated": bool(terminated),
                # the numbers among its info (Humanoid's tendon_length and tendon_velocity are arrays)
                "info": {k: float(v) for k, v in info.items() if np.ndim(v) == 0},
            }
        )
        if terminated:
            env.reset(seed=seed + s + 1)
    runs[env_id] = steps
json.dump({"runs": runs}, sys.stdout)
