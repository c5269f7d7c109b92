#!/usr/bin/env python3
"""MuJoCo's constraint rows and solves, for the `contact` stages of `achilles validate`.

The request loop, state handling and float conventions are mujoco_ref.py's (this module adds two
query kinds to its Ref). The model is an `achilles export --contacts on` MJCF (pyramidal cone,
the scene's solref/solimp/condim/margin/gap/range/limit settings); each query states the solver.

  constraint  {qpos, qvel, tau, cg_iterations?}  one state, warm start disabled (both solvers start
              from qacc_smooth, as a fresh state of ours does):
      qacc_smooth[nv]
      newton: {qacc[nv], niter, force[nefc]}   Newton at a tight tolerance (1e-14, up to 200
                                               iterations): the converged answer
      cg:     {qacc[nv], niter}                CG, islands off (one solve, as ours), exactly
                                               cg_iterations (default 20) iterations (tolerance 0)
      efc:    {type[], id[], pos[], margin[], J[nefc][nv] (dense), aref[], R[], D[], vel[], name[]}
              rows in MuJoCo's order (equality, friction, limits, contacts); type is mjtConstraint
              (3 joint limit, 5 frictionless contact, 6 pyramidal contact); name: a limit's joint,
              a contact's two geom names sorted and joined by "|" (the scene's shape names)
      contacts: {dist[], pos[][3], frame[][9], geom[][2], dim[], mu[], includemargin[], efc_address[]}
  rollout     {qpos, qvel, tau, steps, every, solver: "newton"|"cg", iterations?, tolerance?}
              mj_step from the state without resets (warm start as MuJoCo does it), recording
              after every `every` steps: qpos, qvel, and of the contacts that act (efc_address >= 0)
              the count and the smallest distance (penetration = −dist).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import numpy as np
    import mujoco
    from mujoco_ref import Ref, main
except ImportError as e:
    import json
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install mujoco`"}))
    sys.exit(0)


NEWTON_TOLERANCE = 1e-14
NEWTON_ITERATIONS = 200


class ContactRef(Ref):
    def __init__(self, xml):
        super().__init__(xml)
        self.m.opt.jacobian = mujoco.mjtJacobian.mjJAC_DENSE
        self.opt0 = (self.m.opt.solver, self.m.opt.iterations, self.m.opt.tolerance, self.m.opt.disableflags)

    def kinds(self):
        k = super().kinds()
        k.update({"constraint": self.constraint, "rollout": self.rollout})
        return k

    def solver(self, name, iterations=None, tolerance=None, islands=True, warmstart=True):
        o = self.m.opt
        o.solver, o.iterations, o.tolerance, o.disableflags = self.opt0
        if name == "newton":
            o.solver = mujoco.mjtSolver.mjSOL_NEWTON
            o.iterations = NEWTON_ITERATIONS if iterations is None else int(iterations)
            o.tolerance = NEWTON_TOLERANCE if tolerance is None else float(tolerance)
        elif name == "cg":
            o.solver = mujoco.mjtSolver.mjSOL_CG
            o.iterations = 20 if iterations is None else int(iterations)
            o.tolerance = 0.0 if tolerance is None else float(tolerance)
        else:
            raise ValueError(f"unknown solver {name!r} (newton, cg)")
        if not islands:
            o.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_ISLAND)
        if not warmstart:
            o.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_WARMSTART)

    def row_name(self, i):
        """A row's owner by name: a limit its joint's, a contact its two geoms' (sorted, joined by |)."""
        m, d = self.m, self.d
        if d.efc_type[i] == mujoco.mjtConstraint.mjCNSTR_LIMIT_JOINT:
            return mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, int(d.efc_id[i]))
        g = d.contact[int(d.efc_id[i])].geom
        return "|".join(sorted(mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, int(x)) for x in g))

    def constraint(self, query):
        m, d = self.m, self.d
        qpos, qvel, tau, ctrl = self.state(query)
        self.solver("newton", warmstart=False)
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_forward(m, d)
        n = d.nefc
        efc = {
            "type": d.efc_type[:n].tolist(), "id": d.efc_id[:n].tolist(), "pos": d.efc_pos[:n].tolist(),
            "margin": d.efc_margin[:n].tolist(), "J": np.array(d.efc_J[:n * m.nv]).reshape(n, m.nv).tolist(),
            "aref": d.efc_aref[:n].tolist(), "R": d.efc_R[:n].tolist(), "D": d.efc_D[:n].tolist(),
            "vel": d.efc_vel[:n].tolist(), "name": [self.row_name(i) for i in range(n)],
        }
        c = d.contact[:d.ncon]
        contacts = {
            "dist": c.dist.tolist(), "pos": c.pos.tolist(), "frame": c.frame.tolist(), "geom": c.geom.tolist(),
            "dim": c.dim.tolist(), "mu": c.mu.tolist(), "includemargin": c.includemargin.tolist(),
            "efc_address": c.efc_address.tolist(),
        }
        newton = {"qacc": d.qacc.tolist(), "niter": int(d.solver_niter[0]), "force": d.efc_force[:n].tolist()}
        qacc_smooth = d.qacc_smooth.tolist()
        self.solver("cg", iterations=query.get("cg_iterations", 20), islands=False, warmstart=False)
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_forward(m, d)
        cg = {"qacc": d.qacc.tolist(), "niter": int(d.solver_niter[0])}
        self.solver("newton")
        return {"qacc_smooth": qacc_smooth, "newton": newton, "cg": cg, "efc": efc, "contacts": contacts}

    def rollout(self, query):
        m, d = self.m, self.d
        qpos, qvel, tau, ctrl = self.state(query)
        steps = int(query["steps"])
        every = int(query.get("every", 1))
        if steps < 0 or every < 1:
            raise ValueError("rollout needs steps >= 0 and every >= 1")
        self.solver(query.get("solver", "newton"), query.get("iterations"), query.get("tolerance"))
        self.set(qpos, qvel, tau, ctrl)
        qs, vs, ncon, mindist = [], [], [], []
        for k in range(1, steps + 1):
            mujoco.mj_step(m, d)
            if k % every == 0:
                qs.append(d.qpos.tolist())
                vs.append(d.qvel.tolist())
                c = d.contact[:d.ncon]
                acting = c.dist[c.efc_address >= 0] if d.ncon else np.zeros(0)
                ncon.append(int(acting.size))
                mindist.append(float(acting.min()) if acting.size else float("inf"))
        self.solver("newton")
        return {"qpos": qs, "qvel": vs, "ncon": ncon, "mindist": mindist}


if __name__ == "__main__":
    main(ContactRef)
