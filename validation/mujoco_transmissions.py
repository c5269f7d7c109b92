#!/usr/bin/env python3
"""MuJoCo as the reference for actuator transmissions that read the state beyond a joint or a tendon
(the `transmissions` stage): the body transmission of <adhesion> (mjTRN_BODY, whose moment is built from
the body's contacts in mj_transmission).

  request: {"path": FILE} (an MJCF fixture, compiled by MuJoCo itself), "queries": [...]

Kinds:
  state {qpos, qvel, ctrl}  -> at mj_forward: actuator_force, qfrc_actuator, qacc_smooth (which holds the
        adhesion forces: they are part of qfrc_smooth), qacc (Newton run to convergence: tolerance 1e-15,
        1000 iterations, no warm start) and per actuator the number of contacts its moment averages
        (MuJoCo's counter: contacts of the body's geoms, with rows or inside the gap)
  run {qpos, qvel, ctrl, integrator, steps, every, solver, iterations, tolerance}
        -> qpos after every `every` steps of mj_step with the controls held
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
SOLVERS = {"newton": mujoco.mjtSolver.mjSOL_NEWTON, "cg": mujoco.mjtSolver.mjSOL_CG}


def arr(q, key, n):
    a = np.array([float(x) for x in q[key]], dtype=np.float64)
    if a.shape != (n,):
        raise ValueError(f"{key} has length {a.size}, the model needs {n}")
    return a


def put(m, d, q):
    mujoco.mj_resetData(m, d)
    d.qpos[:] = arr(q, "qpos", m.nq)
    d.qvel[:] = arr(q, "qvel", m.nv)
    d.ctrl[:] = arr(q, "ctrl", m.nu)


def counters(m, d):
    """Per actuator on a body: the contacts mj_transmission's mjTRN_BODY branch counts."""
    out = []
    for i in range(m.nu):
        if m.actuator_trntype[i] != mujoco.mjtTrn.mjTRN_BODY:
            out.append(0)
            continue
        b = m.actuator_trnid[i, 0]
        n = 0
        for c in d.contact[:d.ncon]:
            g1, g2 = c.geom
            if g1 < 0 or g2 < 0 or (m.geom_bodyid[g1] != b and m.geom_bodyid[g2] != b):
                continue
            n += 1 if c.exclude in (0, 1) else 0
        out.append(n)
    return out


def state(m, d, q):
    opt = (m.opt.solver, m.opt.iterations, m.opt.tolerance, m.opt.disableflags)
    m.opt.solver, m.opt.iterations, m.opt.tolerance = mujoco.mjtSolver.mjSOL_NEWTON, 1000, 1e-15
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_WARMSTART
    put(m, d, q)
    mujoco.mj_forward(m, d)
    m.opt.solver, m.opt.iterations, m.opt.tolerance, m.opt.disableflags = opt
    return {"force": d.actuator_force.tolist(), "qfrc_actuator": d.qfrc_actuator.tolist(),
            "qacc_smooth": d.qacc_smooth.tolist(), "qacc": d.qacc.tolist(), "count": counters(m, d),
            "ncon": int(d.ncon)}


def run(m, d, q):
    opt = (m.opt.integrator, m.opt.solver, m.opt.iterations, m.opt.tolerance)
    m.opt.integrator = INTEGRATORS[q["integrator"]]
    m.opt.solver = SOLVERS[q.get("solver", "cg")]
    m.opt.iterations = int(q.get("iterations", m.opt.iterations))
    m.opt.tolerance = float(q.get("tolerance", m.opt.tolerance))
    put(m, d, q)
    qpos = []
    for k in range(int(q["steps"])):
        mujoco.mj_step(m, d)
        if (k + 1) % int(q["every"]) == 0:
            qpos.append(d.qpos.tolist())
    m.opt.integrator, m.opt.solver, m.opt.iterations, m.opt.tolerance = opt
    return {"qpos": qpos}


def main():
    try:
        req = json.loads(sys.stdin.read())
        m = mujoco.MjModel.from_xml_path(req["path"])
        d = mujoco.MjData(m)
        kinds = {"state": state, "run": run}
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
