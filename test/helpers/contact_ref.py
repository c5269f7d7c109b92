#!/usr/bin/env python3
"""MuJoCo's constraint rows at given states, for test/contact-mujoco.test.ts.

stdin: {"xml", "impratio", "cone"? ("pyramidal" | "elliptic"), "geoms": {name: {solref?, solimp?, condim?}},
        "joints": {name: {range?, solref?, solimp?, margin?, frictionloss?}},
        "states": [{"qpos", "qvel"}], "cg": iterations, "newton_tol"? (default 1e-15)}
stdout: per state {qacc_newton1 (Newton stopped after one iteration, tol 1e-14), efc_type, efc_state (elliptic contacts: the cone's zone at the Newton answer, from
        jar = J·qacc − aref as mj_constraintUpdate_impl: 0 top, 1 bottom, 4 middle; MuJoCo's own efc_state
        is not filled by its island solver), efc_id, J (nefc × nv), pos, margin, aref, R, D, force, qacc (Newton, tol 1e-15),
        qacc_cg (CG, `cg` iterations, tol 0), qacc_cg_tol (CG, `cg` iterations, MuJoCo's default tol 1e-8)}.
The request's cone (default pyramidal), warmstart off; parameters MuJoCo has no XML for in the exporter are set on the compiled model
(the inverse weights do not depend on them).
"""
import json
import sys

import mujoco
import numpy as np

req = json.load(sys.stdin)
m = mujoco.MjModel.from_xml_string(req["xml"])
m.opt.cone = mujoco.mjtCone.mjCONE_ELLIPTIC if req.get("cone") == "elliptic" else mujoco.mjtCone.mjCONE_PYRAMIDAL
m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_WARMSTART
m.opt.impratio = req["impratio"]
for name, g in req["geoms"].items():
    i = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, name)
    if "solref" in g: m.geom_solref[i] = g["solref"]
    if "solimp" in g: m.geom_solimp[i] = g["solimp"]
    if "condim" in g: m.geom_condim[i] = g["condim"]
for name, j in req["joints"].items():
    i = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, name)
    if "frictionloss" in j:
        n = {0: 6, 1: 3}.get(int(m.jnt_type[i]), 1)
        a = m.jnt_dofadr[i]
        m.dof_frictionloss[a:a + n] = j["frictionloss"]
    if "range" not in j:
        continue
    m.jnt_limited[i] = 1
    m.jnt_range[i] = j["range"]
    if "solref" in j: m.jnt_solref[i] = j["solref"]
    if "solimp" in j: m.jnt_solimp[i] = j["solimp"]
    if "margin" in j: m.jnt_margin[i] = j["margin"]
d = mujoco.MjData(m)
out = []
for st in req["states"]:
    def solve(solver, iters, tol):
        m.opt.solver, m.opt.iterations, m.opt.tolerance, m.opt.ls_tolerance = solver, iters, tol, 1e-12
        mujoco.mj_resetData(m, d)
        d.qpos[:] = st["qpos"]
        d.qvel[:] = st["qvel"]
        mujoco.mj_forward(m, d)
        return d.qacc.tolist()
    qacc_cg = solve(mujoco.mjtSolver.mjSOL_CG, req["cg"], 0.0)
    qacc_cg_tol = solve(mujoco.mjtSolver.mjSOL_CG, req["cg"], 1e-8)
    m.opt.ls_iterations = 200  # one Newton iteration, its line search run to |slope| below 1e-16
    qacc_newton1 = solve(mujoco.mjtSolver.mjSOL_NEWTON, 1, 1e-14)
    m.opt.ls_iterations = 50
    qacc = solve(mujoco.mjtSolver.mjSOL_NEWTON, 1000, req.get("newton_tol", 1e-15))
    n = d.nefc
    state = d.efc_state[:n].copy()
    if n:
        jar = d.efc_J[: n * m.nv].reshape(n, m.nv) @ d.qacc - d.efc_aref[:n]
        i = 0
        while i < n:
            if d.efc_type[i] != mujoco.mjtConstraint.mjCNSTR_CONTACT_ELLIPTIC:
                i += 1
                continue
            con = d.contact[d.efc_id[i]]
            dim, mu = con.dim, con.mu
            N = jar[i] * mu
            T = np.sqrt(sum((jar[i + j] * con.friction[j - 1]) ** 2 for j in range(1, dim)))
            state[i:i + dim] = 0 if N >= mu * T else 1 if mu * N + T <= 0 else 4
            i += dim
    out.append({"type": d.efc_type[:n].tolist(), "state": state.tolist(), "id": d.efc_id[:n].tolist(), "J": d.efc_J[: n * m.nv].reshape(n, m.nv).tolist() if n else [],
                "pos": d.efc_pos[:n].tolist(), "margin": d.efc_margin[:n].tolist(), "aref": d.efc_aref[:n].tolist(),
                "R": d.efc_R[:n].tolist(), "D": d.efc_D[:n].tolist(), "force": d.efc_force[:n].tolist(),
                "qacc": qacc, "qacc_newton1": qacc_newton1, "qacc_cg": qacc_cg, "qacc_cg_tol": qacc_cg_tol, "qacc_smooth": d.qacc_smooth.tolist()})
json.dump({"version": mujoco.__version__, "states": out}, sys.stdout)
