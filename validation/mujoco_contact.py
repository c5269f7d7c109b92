#!/usr/bin/env python3
"""MuJoCo's constraint rows and solves, for the `contact` stages of `achilles validate`.

The request loop, state handling and float conventions are mujoco_ref.py's (this module adds two
query kinds to its Ref). The model is an `achilles export --contacts on` MJCF (pyramidal cone,
the scene's solref/solimp/condim/margin/gap/range/limit settings); each query states the solver.

  constraint  {qpos, qvel, tau, cg_iterations?, j_floor?, seed?, draws?}  one state, warm start
              disabled (both solvers start from qacc_smooth, as a fresh state of ours does):
      j_floor                                  (when asked) J's float32 floor from its intermediates:
                                               the contact points and frames × (1 + δ), |δ| ≤ 2⁻²⁴,
                                               J rebuilt (checked against efc_J first) and stored in
                                               float32, the largest ‖ΔJ‖∞/‖J‖∞ over `draws`
      qacc_smooth[nv]
      newton: {qacc[nv], niter, force[nefc]}   Newton at a tight tolerance (1e-14, up to 200
                                               iterations): the converged answer
      cg:     {qacc[nv], niter}                CG per island (MuJoCo's default, as ours), exactly
                                               cg_iterations (default 20) iterations (tolerance 0)
      newton1: {qacc[nv], niter}               Newton stopped after one iteration per island
                                               (tolerance 1e-14, ls_iterations 200): its first step
      pgs:    {qacc[nv], niter}                PGS per island, at most pgs_iterations (default 20)
                                               sweeps, MuJoCo's default tolerance 1e-8 (its stop
                                               scales the improvement by 1/(meaninertia·nv))
      efc:    {type[], id[], pos[], margin[], J[nefc][nv] (dense), aref[], R[], D[], vel[], name[]}
      weld_w: {name: w} per active weld, the w of its relative quaternion (weld_w())
              rows in MuJoCo's order (equality, friction, limits, contacts); type is mjtConstraint
              (3 joint limit, 5 frictionless contact, 6 pyramidal contact, 7 elliptic contact); name: a limit's joint,
              a contact's two geom names sorted and joined by "|" (the scene's shape names)
      contacts: {dist[], pos[][3], frame[][9], geom[][2], dim[], mu[], includemargin[], efc_address[]}
  tendon      {qpos, qvel, tau} → {ten_length[], ten_velocity[], ten_J[ntendon][nv]} (mj_forward's)
  rollout     {qpos, qvel, tau, steps, every, solver: "newton"|"cg", iterations?, tolerance?, round32?}
              mj_step from the state without resets (warm start as MuJoCo does it), recording
              after every `every` steps: qpos, qvel, and of the contacts that act (efc_address >= 0)
              the count and the smallest distance (penetration = −dist). round32: the state (and
              the warm start) rounded to float32 after every step, as a float32 engine stores it.
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
        self.ls0 = self.m.opt.ls_iterations

    def kinds(self):
        k = super().kinds()
        k.update({"constraint": self.constraint, "rollout": self.rollout, "tendon": self.tendon})
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
        elif name == "pgs":
            o.solver = mujoco.mjtSolver.mjSOL_PGS
            o.iterations = 20 if iterations is None else int(iterations)
            o.tolerance = 1e-8 if tolerance is None else float(tolerance)
        else:
            raise ValueError(f"unknown solver {name!r} (newton, cg, pgs)")
        if not islands:
            o.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_ISLAND)
        if not warmstart:
            o.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_WARMSTART)

    def row_name(self, i):
        """A row's owner by name: a limit its joint's, a contact its two geoms' (sorted, joined by |)."""
        m, d = self.m, self.d
        if d.efc_type[i] == mujoco.mjtConstraint.mjCNSTR_EQUALITY:
            return mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_EQUALITY, int(d.efc_id[i]))
        if d.efc_type[i] == mujoco.mjtConstraint.mjCNSTR_LIMIT_JOINT:
            return mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, int(d.efc_id[i]))
        if d.efc_type[i] == mujoco.mjtConstraint.mjCNSTR_FRICTION_DOF:
            return mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, int(m.dof_jntid[int(d.efc_id[i])]))
        if int(d.efc_type[i]) in (int(mujoco.mjtConstraint.mjCNSTR_LIMIT_TENDON), int(mujoco.mjtConstraint.mjCNSTR_FRICTION_TENDON)):
            return mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_TENDON, int(d.efc_id[i]))
        g = d.contact[int(d.efc_id[i])].geom
        return "|".join(sorted(mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, int(x)) for x in g))

    def contact_rows_J(self, pos, frame, free_block=None):
        """The contact rows' J rebuilt from a contact point and frame (MuJoCo's: the frame rows times the
        difference of the two bodies' point Jacobians; pyramid edges J_n ± μ_k·J_k, J_k along t1, t2, then
        (condim 4, 6) about n, t1, t2 from the rotational Jacobians; the elliptic cone's rows J_n, J_k), in efc order.
        free_block(body) → 3×3: replaces a free joint's translational block of that body's point
        Jacobian (MuJoCo's is exactly the identity)."""
        m, d = self.m, self.d
        rows = []

        def jac(point, body):
            jp = np.zeros((3, m.nv))
            mujoco.mj_jac(m, d, jp, None, point, body)
            if free_block is not None and body > 0:
                for j in range(m.njnt):
                    if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE and m.jnt_bodyid[j] == body:
                        a = m.jnt_dofadr[j]
                        jp[:, a:a + 3] = free_block(body)
            return jp

        for i in range(d.nefc):
            if int(d.efc_type[i]) < int(mujoco.mjtConstraint.mjCNSTR_CONTACT_FRICTIONLESS):  # friction, limits (joints, tendons)
                rows.append(np.array(d.efc_J[i * m.nv:(i + 1) * m.nv]))
                continue
            k = int(d.efc_id[i])
            c = d.contact[k]
            b1, b2 = m.geom_bodyid[c.geom[0]], m.geom_bodyid[c.geom[1]]
            j1, j2 = jac(pos[k], b1), jac(pos[k], b2)
            jr1, jr2 = np.zeros((3, m.nv)), np.zeros((3, m.nv))
            mujoco.mj_jac(m, d, None, jr1, pos[k], b1)
            mujoco.mj_jac(m, d, None, jr2, pos[k], b2)
            Fr = np.array(frame[k]).reshape(3, 3) @ (jr2 - jr1)
            F = np.vstack([np.array(frame[k]).reshape(3, 3) @ (j2 - j1), Fr])
            first = next(j for j in range(d.nefc) if d.efc_id[j] == k and d.efc_type[j] == d.efc_type[i])
            e = i - first
            if d.efc_type[i] == mujoco.mjtConstraint.mjCNSTR_CONTACT_FRICTIONLESS:
                rows.append(F[0])
            elif d.efc_type[i] == mujoco.mjtConstraint.mjCNSTR_CONTACT_ELLIPTIC:
                rows.append(F[e])  # the elliptic cone's rows: J_n, J_t1, J_t2, then about n, t1, t2
            else:
                t = 1 + e // 2
                rows.append(F[0] + (1 if e % 2 == 0 else -1) * c.friction[t - 1] * F[t])
        return np.array(rows).reshape(d.nefc, m.nv)

    def j_floor(self, seed, draws):
        """J's float32 floor from what an engine stores to build it: every contact point and frame
        entry × (1 + δ), |δ| ≤ 2⁻²⁴ (draws), a free body's translational block as a body-frame engine
        forms it from its stored rotation (R·Rᵀ in float32), J rebuilt and stored in float32, against
        MuJoCo's J."""
        m, d = self.m, self.d
        J = np.array(d.efc_J[:d.nefc * m.nv]).reshape(d.nefc, m.nv)
        if d.nefc == 0:
            return 0.0
        pos0 = d.contact.pos[:d.ncon].copy()
        frame0 = d.contact.frame[:d.ncon].copy()
        scale = max(np.abs(J).max(), 1e-12)
        rebuilt = self.contact_rows_J(pos0, frame0)
        if np.abs(rebuilt - J).max() / scale > 1e-12:
            raise ValueError(f"J rebuilt from the contacts differs from efc_J by {np.abs(rebuilt - J).max() / scale}")
        rng = np.random.default_rng(seed)
        worst = 0.0
        h = 2.0 ** -24
        # An engine that works in body frames (Featherstone's spatial algebra, as ours) builds a free
        # body's translational block as R·Rᵀ from the body rotation it stores: in float32, R rounded
        # (and × (1 + δ)), the product rounded, instead of MuJoCo's exact identity.
        def body_frame_block(body):
            R = np.array(d.xmat[body]).reshape(3, 3)
            R32 = (R * (1 + h * rng.uniform(-1, 1, R.shape))).astype(np.float32)
            return (R32 @ R32.T).astype(np.float32).astype(np.float64)

        for _ in range(draws):
            pos = pos0 * (1 + h * rng.uniform(-1, 1, pos0.shape))
            frame = frame0 * (1 + h * rng.uniform(-1, 1, frame0.shape))
            Jt = self.contact_rows_J(pos, frame, body_frame_block).astype(np.float32).astype(np.float64)
            worst = max(worst, float(np.abs(Jt - J).max() / scale))
        return worst

    def weld_w(self):
        """Per active weld (by name): the w of the relative quaternion its rotation rows are the axis part
        of (mj_instantiateEquality: neg(q_b2·Q2)·(q_b1·Q1)). Its sign follows MuJoCo's body quaternions
        (a free body's is its qpos's, either sign); an engine taking the w >= 0 quaternion of the same
        rotation has those rows' pos, J and aref negated where w < 0, with the same cost and forces."""
        m, d = self.m, self.d
        out = {}
        for i in range(m.neq):
            if m.eq_type[i] != mujoco.mjtEq.mjEQ_WELD or not d.eq_active[i]:
                continue
            o1, o2 = int(m.eq_obj1id[i]), int(m.eq_obj2id[i])
            q0, q1 = np.zeros(4), np.zeros(4)
            if m.eq_objtype[i] == mujoco.mjtObj.mjOBJ_BODY:
                mujoco.mju_mulQuat(q0, d.xquat[o1], m.eq_data[i, 6:10])
                q1[:] = d.xquat[o2]
            else:
                mujoco.mju_mulQuat(q0, d.xquat[m.site_bodyid[o1]], m.site_quat[o1])
                mujoco.mju_mulQuat(q1, d.xquat[m.site_bodyid[o2]], m.site_quat[o2])
            neg, e = np.zeros(4), np.zeros(4)
            mujoco.mju_negQuat(neg, q1)
            mujoco.mju_mulQuat(e, neg, q0)
            out[mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_EQUALITY, i)] = float(e[0])
        return out

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
            "efc_address": c.efc_address.tolist(), "exclude": c.exclude.tolist(), "friction": c.friction.tolist(),
            "solref": c.solref.tolist(), "solimp": c.solimp.tolist(),
        }
        newton = {"qacc": d.qacc.tolist(), "niter": int(d.solver_niter[0]), "force": d.efc_force[:n].tolist()}
        j_floor = self.j_floor(int(query.get("seed", 0)), int(query.get("draws", 4))) if query.get("j_floor") else None
        qacc_smooth = d.qacc_smooth.tolist()
        self.solver("cg", iterations=query.get("cg_iterations", 20), warmstart=False)
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_forward(m, d)
        cg = {"qacc": d.qacc.tolist(), "niter": int(d.solver_niter[0])}
        # one Newton iteration per island from qacc_smooth (tolerance 1e-14 so nothing stops it
        # earlier; its line search then runs to |slope| below 1e-16): the direction H⁻¹g and the step
        self.solver("newton", iterations=1, warmstart=False)
        m.opt.ls_iterations = 200
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_forward(m, d)
        newton1 = {"qacc": d.qacc.tolist(), "niter": int(d.solver_niter[0])}
        m.opt.ls_iterations = self.ls0
        self.solver("pgs", iterations=query.get("pgs_iterations", 20), warmstart=False)
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_forward(m, d)
        pgs = {"qacc": d.qacc.tolist(), "niter": int(d.solver_niter[0])}
        self.solver("newton")
        out = {"qacc_smooth": qacc_smooth, "newton": newton, "newton1": newton1, "cg": cg, "pgs": pgs, "efc": efc,
               "contacts": contacts, "weld_w": self.weld_w()}
        if j_floor is not None:
            out["j_floor"] = j_floor
        return out

    def tendon(self, query):
        """Every tendon's length, velocity and moment (dense ten_J) at the state."""
        m, d = self.m, self.d
        qpos, qvel, tau, ctrl = self.state(query)
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_forward(m, d)
        J = np.zeros((m.ntendon, m.nv))
        for i in range(m.ntendon):
            for j in range(m.ten_J_rownnz[i]):
                a = m.ten_J_rowadr[i] + j
                J[i, m.ten_J_colind[a]] = d.ten_J[a]
        return {"ten_length": d.ten_length.tolist(), "ten_velocity": d.ten_velocity.tolist(), "ten_J": J.tolist()}

    def rollout(self, query):
        m, d = self.m, self.d
        qpos, qvel, tau, ctrl = self.state(query)
        steps = int(query["steps"])
        every = int(query.get("every", 1))
        if steps < 0 or every < 1:
            raise ValueError("rollout needs steps >= 0 and every >= 1")
        self.solver(query.get("solver", "newton"), query.get("iterations"), query.get("tolerance"))
        self.set(qpos, qvel, tau, ctrl)
        round32 = bool(query.get("round32", False))
        qs, vs, ncon, mindist = [], [], [], []
        for k in range(1, steps + 1):
            mujoco.mj_step(m, d)
            if round32:  # the state a float32 engine stores: rounded to float32 after every step
                d.qpos[:] = d.qpos.astype(np.float32)
                d.qvel[:] = d.qvel.astype(np.float32)
                d.qacc_warmstart[:] = d.qacc_warmstart.astype(np.float32)
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
