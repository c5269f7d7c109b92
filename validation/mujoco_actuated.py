#!/usr/bin/env python3
"""MuJoCo as the reference for actuated and passive joints (the `actuators` and `passive` stages).

Builds on mujoco_ref.py (its Ref: model loading, state setting, JSON conventions). The request adds,
per model body i (body i+1 in MuJoCo), the passive parameters MuJoCo keeps in the compiled model
(dof_damping, dof_armature, jnt_stiffness, qpos_spring) and motors with their gears:

  request: {"xml": ..., "passive": [{"body", "damping", "stiffness", "springref", "armature"}],
            "motors": [{"body", "gear": [...]}], "queries": [...]}

Kinds:
  forward  {qpos, qvel}                        -> qacc (mj_forward, ctrl 0)
  forward_floor {qpos, qvel, k, seed}          -> qacc and its float32 floor (see forward_floor)
  step     {qpos, qvel, integrator, h}         -> qpos, qvel after one mj_step
  run      {qpos, qvel, integrator, h, steps, every, pd?, round?, seed?}
           -> qpos[k], qvel[k], ctrl[k] recorded after steps every, 2·every, ...
           pd: {act, kp, kd, gear, qadr, vadr, amp, freq, phase, offset} per term: before every step
           ctrl[act] = kp·(target − gear·q) − kd·(gear·q̇), target = offset + amp·sin(2π·freq·t + phase),
           t = k·h (the engine's built-in PD controller, src/control/pd.ts, same operation order);
           round "f32": qpos, qvel rounded to float32 after every step (a float32 engine's storage:
           the float32 floor), "ulp": every component × (1 ± 2⁻⁵²), seeded signs (the float64 floor).
"""
import json
import math
import sys

import numpy as np

from mujoco_ref import Ref, finite_safe

try:
    import mujoco
except ImportError as e:
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install mujoco`"}))
    sys.exit(0)

NDOF = {mujoco.mjtJoint.mjJNT_FREE: 6, mujoco.mjtJoint.mjJNT_BALL: 3, mujoco.mjtJoint.mjJNT_SLIDE: 1, mujoco.mjtJoint.mjJNT_HINGE: 1}
INTEGRATORS = {"euler": mujoco.mjtIntegrator.mjINT_EULER, "rk4": mujoco.mjtIntegrator.mjINT_RK4}


def joint_of(m, body):
    j = int(m.body_jntadr[body + 1])
    if j < 0:
        raise ValueError(f"body {body} has no joint in the MJCF")
    return j


def build(req):
    base = mujoco.MjModel.from_xml_string(req["xml"])
    motors = req.get("motors", [])
    xml = req["xml"]
    if motors:
        lines = []
        for k, mo in enumerate(motors):
            name = mujoco.mj_id2name(base, mujoco.mjtObj.mjOBJ_JOINT, joint_of(base, mo["body"]))
            gear = " ".join(repr(float(g)) for g in mo["gear"])
            lines.append(f'<motor name="u{k}" joint="{name}" gear="{gear}"/>')
        xml = xml.replace("</mujoco>", "<actuator>" + "".join(lines) + "</actuator></mujoco>")
    ref = Ref(xml)
    m = ref.m
    for p in req.get("passive", []):
        j = joint_of(m, p["body"])
        dof, n = int(m.jnt_dofadr[j]), NDOF[int(m.jnt_type[j])]
        m.dof_damping[dof:dof + n] = float(p.get("damping", 0))
        m.dof_armature[dof:dof + n] = float(p.get("armature", 0))
        m.jnt_stiffness[j] = float(p.get("stiffness", 0))
        if n == 1:
            m.qpos_spring[int(m.jnt_qposadr[j])] = float(p.get("springref", 0))
    return ref


def vec(q, key, n, default):
    v = q.get(key)
    return np.array(default if v is None else [float(x) for x in v], dtype=np.float64)


def step_once(ref, integrator, h):
    m = ref.m
    m.opt.integrator = INTEGRATORS[integrator]
    m.opt.timestep = h
    mujoco.mj_step(m, ref.d)


def forward(ref, q):
    m, d = ref.m, ref.d
    mujoco.mj_resetData(m, d)
    d.qpos[:] = vec(q, "qpos", m.nq, m.qpos0)
    d.qvel[:] = vec(q, "qvel", m.nv, np.zeros(m.nv))
    mujoco.mj_forward(m, d)
    return {"qacc": d.qacc.tolist()}


def forward_floor(ref, q):
    """The float32 floor of qacc at one state: the largest change of MuJoCo's answer over `k` seeded
    draws, each perturbing every input (state; masses, inertias, positions, axes, armature, damping,
    stiffness, spring references, gravity) and then every entry of M, the bias force and the passive
    force by a float32 half-ulp, (1 + δ), |δ| ≤ 2⁻²⁴, then solving M q̈ = −b + passive."""
    m, d = ref.m, ref.d
    rng = np.random.default_rng(int(q.get("seed", 1)))
    qpos0 = vec(q, "qpos", m.nq, m.qpos0)
    qvel0 = vec(q, "qvel", m.nv, np.zeros(m.nv))
    mujoco.mj_resetData(m, d)
    d.qpos[:] = qpos0
    d.qvel[:] = qvel0
    mujoco.mj_forward(m, d)
    exact = d.qacc.copy()
    scale = max(np.max(np.abs(exact)), 1e-300)
    u = 2.0 ** -24
    worst = 0.0
    constants = [m.body_mass, m.body_inertia, m.body_ipos, m.body_pos, m.jnt_axis, m.dof_armature, m.dof_damping,
                 m.jnt_stiffness, m.qpos_spring, m.opt.gravity]
    saved = [c.copy() for c in constants]
    for _ in range(int(q.get("k", 4))):
        for c, c0 in zip(constants, saved):  # the model's constants as a float32 engine holds them
            c[...] = c0 * (1 + rng.uniform(-u, u, c0.shape))
        mujoco.mj_resetData(m, d)
        d.qpos[:] = qpos0 * (1 + rng.uniform(-u, u, m.nq))
        d.qvel[:] = qvel0 * (1 + rng.uniform(-u, u, m.nv))
        mujoco.mj_forward(m, d)
        for c, c0 in zip(constants, saved):
            c[...] = c0
        M = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, M)
        M = M * (1 + rng.uniform(-u, u, M.shape))
        M = (M + M.T) / 2
        f = -d.qfrc_bias * (1 + rng.uniform(-u, u, m.nv)) + d.qfrc_passive * (1 + rng.uniform(-u, u, m.nv))
        a = np.linalg.solve(M, f)
        worst = max(worst, float(np.max(np.abs(a - exact))) / scale)
    return {"qacc": exact.tolist(), "floor": worst}


def step(ref, q):
    m, d = ref.m, ref.d
    mujoco.mj_resetData(m, d)
    d.qpos[:] = vec(q, "qpos", m.nq, m.qpos0)
    d.qvel[:] = vec(q, "qvel", m.nv, np.zeros(m.nv))
    step_once(ref, q["integrator"], float(q["h"]))
    return {"qpos": d.qpos.tolist(), "qvel": d.qvel.tolist()}


def run(ref, q):
    m, d = ref.m, ref.d
    mujoco.mj_resetData(m, d)
    d.qpos[:] = vec(q, "qpos", m.nq, m.qpos0)
    d.qvel[:] = vec(q, "qvel", m.nv, np.zeros(m.nv))
    h, steps, every = float(q["h"]), int(q["steps"]), int(q.get("every", 1))
    pd = q.get("pd", [])
    col = {key: np.array([float(t[key]) for t in pd]) for key in ("kp", "kd", "gear", "amp", "freq", "phase", "offset")}
    act, qadr, vadr = ([int(t[key]) for t in pd] for key in ("act", "qadr", "vadr"))
    w = 2 * math.pi * col["freq"]  # 2π·f first, as the engine's PD: ((2π)·f)·t
    mode = q.get("round")
    rng = np.random.default_rng(int(q.get("seed", 1)))
    qs, vs, us = [], [], []
    m.opt.integrator = INTEGRATORS[q["integrator"]]
    m.opt.timestep = h
    for k in range(steps):
        if pd:  # every term at once (IEEE operations element by element, as the scalar formula)
            target = col["offset"] + col["amp"] * np.sin(w * (k * h) + col["phase"])
            g = col["gear"]
            d.ctrl[act] = col["kp"] * (target - g * d.qpos[qadr]) - col["kd"] * (g * d.qvel[vadr])
        mujoco.mj_step(m, d)
        if mode == "f32":
            d.qpos[:] = d.qpos.astype(np.float32)
            d.qvel[:] = d.qvel.astype(np.float32)
        elif mode == "ulp":
            d.qpos[:] = d.qpos * (1 + rng.choice([-1.0, 1.0], m.nq) * 2.0 ** -52)
            d.qvel[:] = d.qvel * (1 + rng.choice([-1.0, 1.0], m.nv) * 2.0 ** -52)
        if (k + 1) % every == 0:
            qs.append(d.qpos.tolist())
            vs.append(d.qvel.tolist())
            us.append(d.ctrl.tolist())
    return {"qpos": qs, "qvel": vs, "ctrl": us}


def main():
    try:
        req = json.loads(sys.stdin.read())
        ref = build(req)
        kinds = {"forward": forward, "forward_floor": forward_floor, "step": step, "run": run}
        results = []
        for i, query in enumerate(req.get("queries", [])):
            kind = query.get("kind")
            if kind not in kinds:
                raise ValueError(f"query {i}: unknown kind {kind!r}")
            results.append(kinds[kind](ref, query))
        out = {"version": mujoco.__version__, "results": results}
    except Exception as e:
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(finite_safe(out), allow_nan=False))


if __name__ == "__main__":
    main()
