#!/usr/bin/env python3
"""MuJoCo as the reference for the implicitfast integrator (the `implicitfast` stage).

Every query runs MuJoCo with m.opt.integrator = implicitfast, whatever the file says.

  request: {"xml": ...} or {"path": FILE} (an MJCF fixture, compiled by MuJoCo itself), "queries": [...]

Kinds:
  step {qpos, qvel, act, ctrl}   -> qpos, qvel, act after one mj_step from that state (mj_resetData
                                    first: a zero warm start, as the engine's after reset)
  run  {qpos, qvel, ctrl: [[u per actuator] per step], perturb?, round?}
       -> qpos[k], qvel[k], act[k] after every step (act starts at 0);
          perturb "ulp": the initial qpos and qvel moved by one float64 ulp each (np.nextafter
          toward +inf): MuJoCo's own sensitivity to a float64 round-off of its state;
          perturb "ulp-every": every qpos, qvel and act component moved by one ulp after every step
          (a float64 engine's round-off, step after step);
          round "f32": qpos, qvel and act rounded to float32 after every step (MuJoCo's own float32 floor);
          with seed: first multiplied by 1 + δ each, δ uniform in [−2⁻²⁴, 2⁻²⁴] (a float32 half-ulp),
          drawn afresh every step (a float32 engine's round-off in the step, not only in its storage)
  solver {iterations, tolerance} (optional, any kind): MuJoCo's option iterations and tolerance
"""
import json
import sys

import numpy as np

from mujoco_ref import finite_safe

try:
    import mujoco
except ImportError as e:
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install mujoco`"}))
    sys.exit(0)


def arr(q, key, n):
    a = np.array([float(x) for x in q.get(key, [0.0] * n)], dtype=np.float64)
    if a.shape != (n,):
        raise ValueError(f"{key} has length {a.size}, the model needs {n}")
    return a


def up(x):
    return np.nextafter(x, np.inf)


def step(m, d, q):
    mujoco.mj_resetData(m, d)
    d.qpos[:] = arr(q, "qpos", m.nq)
    d.qvel[:] = arr(q, "qvel", m.nv)
    d.act[:] = arr(q, "act", m.na)
    d.ctrl[:] = arr(q, "ctrl", m.nu)
    mujoco.mj_step(m, d)
    return {"qpos": d.qpos.tolist(), "qvel": d.qvel.tolist(), "act": d.act.tolist()}


def run(m, d, q):
    mujoco.mj_resetData(m, d)
    d.qpos[:] = arr(q, "qpos", m.nq)
    d.qvel[:] = arr(q, "qvel", m.nv)
    perturb = q.get("perturb")
    if perturb == "ulp":
        d.qpos[:] = up(d.qpos)
        d.qvel[:] = up(d.qvel)
    rng = np.random.default_rng(q["seed"]) if "seed" in q else None
    qpos, qvel, act = [], [], []
    for u in q["ctrl"]:
        if m.nu:
            d.ctrl[:] = np.array(u, dtype=np.float64)
        mujoco.mj_step(m, d)
        if perturb == "ulp-every":
            for x in (d.qpos, d.qvel, d.act):
                x[:] = up(x)
        if q.get("round") == "f32":
            for x in (d.qpos, d.qvel, d.act):
                if rng is not None:
                    x[:] = x * (1 + rng.uniform(-(2.0**-24), 2.0**-24, x.shape))
                x[:] = x.astype(np.float32).astype(np.float64)
        qpos.append(d.qpos.tolist())
        qvel.append(d.qvel.tolist())
        act.append(d.act.tolist())
    return {"qpos": qpos, "qvel": qvel, "act": act}


def main():
    try:
        req = json.loads(sys.stdin.read())
        m = mujoco.MjModel.from_xml_path(req["path"]) if "path" in req else mujoco.MjModel.from_xml_string(req["xml"])
        m.opt.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
        d = mujoco.MjData(m)
        kinds = {"step": step, "run": run}
        results = []
        iterations, tolerance = m.opt.iterations, m.opt.tolerance
        for i, query in enumerate(req.get("queries", [])):
            kind = query.get("kind")
            if kind not in kinds:
                raise ValueError(f"query {i}: unknown kind {kind!r}")
            solver = query.get("solver", {})
            m.opt.iterations = int(solver.get("iterations", iterations))
            m.opt.tolerance = float(solver.get("tolerance", tolerance))
            results.append(kinds[kind](m, d, query))
        out = {"version": mujoco.__version__, "results": results}
    except Exception as e:
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(finite_safe(out), allow_nan=False))


if __name__ == "__main__":
    main()
