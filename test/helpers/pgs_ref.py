"""MuJoCo 3.14's PGS at states of a model whose option asks for it (test/contact-pgs.test.ts).

Reads {xml, states, seed, steps, every} on stdin: steps the model from its keyframe-less initial
state (qpos perturbed by U(±0.01)) with controls U(ctrlrange·0.4), and at every `every`-th step
records the state (qpos, qvel, qacc_warmstart, qfrc_actuator) and mj_forward's rows there: efc_J,
efc_type, efc_force and qacc (PGS with the model's iterations and tolerance, warm-started from
qacc_warmstart as mj_step's evaluation is). With {"dropped": n} instead of steps: n states with every
hinge at U(±0.6), qvel N(0, 0.5) and each free body's root at height U(0.03, 0.06) in a random
orientation (python/tests/test_mujoco_layout.py's): a body lying in the floor, many capsule-plane
contacts in two points each; warm start 0, controls 0. Writes {meaninertia, states: [...]} to stdout."""

import json
import sys

import mujoco
import numpy as np

req = json.load(sys.stdin)
m = mujoco.MjModel.from_xml_path(req["xml"])
d = mujoco.MjData(m)
rng = np.random.default_rng(req["seed"])
d.qpos[:] += rng.uniform(-0.01, 0.01, m.nq)
lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
out = []


def record(warm):
    mujoco.mj_forward(m, d)
    n = d.nefc
    out.append(
        {
            "qpos": d.qpos.tolist(),
            "qvel": d.qvel.tolist(),
            "qacc_warmstart": warm.tolist(),
            "qfrc_actuator": d.qfrc_actuator.tolist(),
            "J": d.efc_J.reshape(n, m.nv).tolist(),
            "type": d.efc_type.tolist(),
            "force": d.efc_force.tolist(),
            "qacc": d.qacc.tolist(),
            "niter": int(d.solver_niter[0]),
        }
    )


for _ in range(req.get("dropped", 0)):
    d.qpos[:] = m.qpos0
    d.qvel[:] = rng.normal(0, 0.5, m.nv)
    for j in range(m.njnt):
        a = m.jnt_qposadr[j]
        if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            d.qpos[a : a + 3] = [rng.uniform(-1, 1), rng.uniform(0, 2), rng.uniform(0.03, 0.06)]
            quat = rng.normal(size=4)
            d.qpos[a + 3 : a + 7] = quat / np.linalg.norm(quat)
        else:
            d.qpos[a] = rng.uniform(-0.6, 0.6)
    d.ctrl[:] = 0
    d.qacc_warmstart[:] = 0
    record(d.qacc_warmstart.copy())
for t in range(req.get("steps", 0)):
    d.ctrl[:] = rng.uniform(0.4 * lo, 0.4 * hi)
    if t % req["every"] == req["every"] - 1:
        record(d.qacc_warmstart.copy())
    mujoco.mj_step(m, d)
json.dump({"meaninertia": m.stat.meaninertia, "states": out}, sys.stdout)
