"""MuJoCo's constrained answer at given states with the model's noslip post-solve, per solver (test/noslip.test.ts).

stdin: {"xml": path, "states": [{"qpos", "qvel", "tau"}], "runs": [{"solver": "newton"|"cg"|"pgs", "iterations", "tolerance"}]}
stdout: {"states": [[{"qacc", "force", "J", "block", "qacc_plain"} per run] per state]}: qacc and efc_force with
noslip (warm start off, dense Jacobian), J the efc rows and block each row's constraint (a contact's rows share
theirs: to match rows by), qacc_plain the same solve with noslip off.
"""
import json
import sys

import mujoco
import numpy as np

SOLVERS = {"newton": mujoco.mjtSolver.mjSOL_NEWTON, "cg": mujoco.mjtSolver.mjSOL_CG, "pgs": mujoco.mjtSolver.mjSOL_PGS}


def main():
    req = json.load(sys.stdin)
    m = mujoco.MjModel.from_xml_path(req["xml"])
    m.opt.jacobian = mujoco.mjtJacobian.mjJAC_DENSE
    m.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_WARMSTART)
    noslip = m.opt.noslip_iterations
    d = mujoco.MjData(m)
    out = []
    for s in req["states"]:
        answers = []
        for run in req["runs"]:
            m.opt.solver = SOLVERS[run["solver"]]
            m.opt.iterations = int(run["iterations"])
            m.opt.tolerance = float(run["tolerance"])
            res = {}
            for key, it in (("plain", 0), ("noslip", noslip)):
                m.opt.noslip_iterations = it
                mujoco.mj_resetData(m, d)
                d.qpos[:] = s["qpos"]
                d.qvel[:] = s["qvel"]
                d.qfrc_applied[:] = s["tau"]
                mujoco.mj_forward(m, d)
                block = [f"{int(t)}:{int(i)}" for t, i in zip(d.efc_type[: d.nefc], d.efc_id[: d.nefc])]
                J = np.array(d.efc_J[: d.nefc * m.nv]).reshape(d.nefc, m.nv).tolist()
                res[key] = (d.qacc.tolist(), d.efc_force[: d.nefc].tolist(), J, block)
            m.opt.noslip_iterations = noslip
            qacc, force, J, block = res["noslip"]
            answers.append({"qacc": qacc, "force": force, "J": J, "block": block, "qacc_plain": res["plain"][0]})
        out.append(answers)
    json.dump({"states": out}, sys.stdout)


if __name__ == "__main__":
    main()
