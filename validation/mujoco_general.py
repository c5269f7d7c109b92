#!/usr/bin/env python3
"""MuJoCo as the reference for general actuators (the `general-actuators` stage).

The request's MJCF is the engine's own model exported with its <general> actuators (the exporter
writes dyntype, gaintype, biastype, dynprm, gainprm, biasprm, actrange, actearly as the model
states them), so MuJoCo compiles the same actuators, dampratio conversion included.

  request: {"xml": ...} or {"path": FILE} (an MJCF fixture, compiled by MuJoCo itself), "queries": [...]

Kinds:
  state {qpos, qvel, act, ctrl}            -> actuator_force, act_dot, qacc (qacc_smooth; mj_forward at that state)
  run   {qpos, qvel, integrator, every, ctrl: [[u per actuator] per step], round?}
        -> qpos[k], act[k] after steps every, 2·every, ... (mj_step; act starts at 0, mj_resetData);
        round "f32": qpos, qvel and act rounded to float32 after every step (a float32 engine's
        storage: MuJoCo's own float32 floor for the run)
  consts {}                                -> biasprm[2] of every actuator after compile (dampratio resolved)
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

INTEGRATORS = {"euler": mujoco.mjtIntegrator.mjINT_EULER, "rk4": mujoco.mjtIntegrator.mjINT_RK4}


def arr(q, key, n):
    a = np.array([float(x) for x in q[key]], dtype=np.float64)
    if a.shape != (n,):
        raise ValueError(f"{key} has length {a.size}, the model needs {n}")
    return a


def state(m, d, q):
    mujoco.mj_resetData(m, d)
    d.qpos[:] = arr(q, "qpos", m.nq)
    d.qvel[:] = arr(q, "qvel", m.nv)
    d.act[:] = arr(q, "act", m.na)
    d.ctrl[:] = arr(q, "ctrl", m.nu)
    mujoco.mj_forward(m, d)
    # qacc_smooth: the unconstrained acceleration (the engine's forwardUnconstrained), so that a random
    # state where geoms overlap compares the actuators, not contacts
    return {"force": d.actuator_force.tolist(), "act_dot": d.act_dot.tolist(), "qacc": d.qacc_smooth.tolist()}


def run(m, d, q):
    mujoco.mj_resetData(m, d)
    m.opt.integrator = INTEGRATORS[q["integrator"]]
    d.qpos[:] = arr(q, "qpos", m.nq)
    d.qvel[:] = arr(q, "qvel", m.nv)
    qpos, act = [], []
    for k, u in enumerate(q["ctrl"]):
        d.ctrl[:] = np.array(u, dtype=np.float64)
        mujoco.mj_step(m, d)
        if q.get("round") == "f32":
            for x in (d.qpos, d.qvel, d.act):
                x[:] = x.astype(np.float32).astype(np.float64)
        if (k + 1) % q["every"] == 0:
            qpos.append(d.qpos.tolist())
            act.append(d.act.tolist())
    return {"qpos": qpos, "act": act}


def consts(m, d, q):
    return {"biasprm2": [float(m.actuator_biasprm[i, 2]) for i in range(m.nu)], "na": int(m.na)}


def main():
    try:
        req = json.loads(sys.stdin.read())
        m = mujoco.MjModel.from_xml_path(req["path"]) if "path" in req else mujoco.MjModel.from_xml_string(req["xml"])
        d = mujoco.MjData(m)
        kinds = {"state": state, "run": run, "consts": consts}
        results = []
        for i, query in enumerate(req.get("queries", [])):
            kind = query.get("kind")
            if kind not in kinds:
                raise ValueError(f"query {i}: unknown kind {kind!r}")
            results.append(kinds[kind](m, d, query))
        out = {"version": mujoco.__version__, "results": results}
    except Exception as e:
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(finite_safe(out), allow_nan=False))


if __name__ == "__main__":
    main()
