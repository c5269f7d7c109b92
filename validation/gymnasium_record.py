#!/usr/bin/env python3
"""Gymnasium's own MuJoCo envs along seeded random-action runs, recorded for the task-definition
tests (test/gym-task.test.ts): per step the quantities a task file may read (in MuJoCo's names and
layouts, read off mjData after Gymnasium's step) before and after, the action, and what Gymnasium
returned (observation, reward, terminated, info); the model's body names; and seeded resets
with the unit draws of their streams.

  request (stdin):  {"tasks": ["Hopper-v5", ...], "steps": 30, "seed": 3, "kwargs": {"Hopper-v5": {...}}}
                    (kwargs optional: an env's keyword arguments for gymnasium.make, a list as a tuple)
  response:         {"gymnasium": "1.x.y", "mujoco": "3.x", "runs": {id: {"reset": {...}, "steps": [...]}}}  or  {"error": "..."}
"""
import json
import sys

try:
    import gymnasium
    import mujoco
    import numpy as np
except ImportError as e:
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install gymnasium[mujoco]`"}))
    sys.exit(0)


def values(env, action):
    m, d = env.model, env.data
    v = {
        "qpos": d.qpos, "qvel": d.qvel, "ctrl": d.ctrl, "action": np.asarray(action, dtype=np.float64),
        "qfrc_actuator": d.qfrc_actuator, "qfrc_constraint": d.qfrc_constraint,
        "xpos": d.xpos, "xipos": d.xipos, "cinert": d.cinert, "cvel": d.cvel, "cfrc_ext": d.cfrc_ext,
        "site_xpos": d.site_xpos, "body_mass": m.body_mass, "init_qpos": env.init_qpos, "init_qvel": env.init_qvel,
        "state_vector": env.state_vector(),
    }
    out = {k: np.asarray(x, dtype=np.float64).tolist() for k, x in v.items()}
    out.update({"dt": float(env.dt), "timestep": float(m.opt.timestep), "nq": int(m.nq), "nv": int(m.nv), "nu": int(m.nu)})
    return out


def plain(x):
    return np.asarray(x, dtype=np.float64).tolist() if not isinstance(x, (bool, np.bool_)) else bool(x)


def record(env_id, steps, seed, kwargs):
    env = gymnasium.make(env_id, **{k: tuple(v) if isinstance(v, list) else v for k, v in kwargs.items()}).unwrapped
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    # the model's body names in MuJoCo's order, which a task's body('name') reads
    bodies = [mujoco.mj_id2name(env.model, mujoco.mjtObj.mjOBJ_BODY, b) for b in range(env.model.nbody)]
    run = {"bodies": bodies, "reset": {"values": values(env, np.zeros(env.model.nu)), "obs": obs.tolist(), "info": {k: plain(v) for k, v in info.items()}}, "steps": []}
    for s in range(steps):
        action = rng.uniform(env.action_space.low, env.action_space.high).astype(np.float32)
        before = values(env, action)
        obs, reward, terminated, _, info = env.step(action)
        run["steps"].append({"before": before, "after": values(env, action), "obs": obs.tolist(), "reward": float(reward),
                             "terminated": bool(terminated), "info": {k: plain(v) for k, v in info.items()}})
        if terminated:
            env.reset(seed=seed + s + 1)
    run["resets"] = [reset_draws(env, s) for s in range(8)]
    env.close()
    return run


def reset_draws(env, seed):
    """The state Gymnasium's reset(seed) puts the env in, and the first unit draws of its stream
    (numpy's default_rng(seed).random(): its uniform(lo, hi) is lo + (hi - lo) * u), so an evaluator
    fed those draws in its own order must land on the same state."""
    env.reset(seed=seed)
    unit = np.random.default_rng(seed).random(256)
    return {"seed": seed, "unit": unit.tolist(), "qpos": env.data.qpos.tolist(), "qvel": env.data.qvel.tolist()}


def main():
    try:
        req = json.load(sys.stdin)
        kwargs = req.get("kwargs", {})
        runs = {t: record(t, int(req.get("steps", 30)), int(req.get("seed", 3)), kwargs.get(t, {})) for t in req["tasks"]}
        sys.stdout.write(json.dumps({"gymnasium": gymnasium.__version__, "mujoco": mujoco.__version__, "runs": runs}))
    except Exception as e:  # the caller shows it
        sys.stdout.write(json.dumps({"error": f"{type(e).__name__}: {e}"}))


if __name__ == "__main__":
    main()
