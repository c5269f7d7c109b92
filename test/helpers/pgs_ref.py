"""MuJoCo 3.14's PGS at states of a model whose option asks for it (test/contact-pgs.test.ts).

Reads {xml, states, seed, steps, every} on stdin: steps the model from its keyframe-less initial
state (qpos perturbed by U(±0.01)) with controls U(ctrlrange·0.4), and at every `every`-th step
records the state (qpos, qvel, qacc_warmstart, qfrc_actuator) and mj_forward's rows there: efc_J,
efc_type, efc_force and qacc (PGS with the model's iterations and tolerance, warm-started from
qacc_warmstart as mj_step's evaluation is). Writes {meaninertia, states: [...]} to stdout."""

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
for t in range(req["steps"]):
    d.ctrl[:] = rng.uniform(0.4 * lo, 0.4 * hi)
    if t % req["every"] == req["every"] - 1:
        mujoco.mj_forward(m, d)
        n = d.nefc
        out.append(
            {
                "qpos": d.qpos.tolist(),
                "qvel": d.qvel.tolist(),
                "qacc_warmstart": d.qacc_warmstart.tolist(),
                "qfrc_actuator": d.qfrc_actuator.tolist(),
                "J": d.efc_J.reshape(n, m.nv).tolist(),
                "type": d.efc_type.tolist(),
                "force": d.efc_force.tolist(),
                "qacc": d.qacc.tolist(),
                "niter": int(d.solver_niter[0]),
            }
        )
    mujoco.mj_step(m, d)
json.dump({"meaninertia": m.stat.meaninertia, "states": out}, sys.stdout)
