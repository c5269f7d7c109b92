#!/usr/bin/env python3
"""MuJoCo's own compile of MJCF/URDF files, for the import stage of Achilles' validation.

One JSON request on stdin, one JSON response on stdout (the runner loop and float encoding of
mujoco_ref.py, whose Ref class answers the per-state queries):

  request:  {"models": [{"path": "file.xml", "states": [{"qpos": [...], "qvel": [...], "tau": [...]}, ...]}, ...]}
  response: {"version": "3.14.0", "results": [{...per model...}]}   or   {"error": "..."}

Per model: body names, mass, CoM (body_ipos), inertia about the CoM in body axes (R(iquat)·diag·Rᵀ),
the vertices of each mesh geom's convex hull (mesh_graph into mesh_vert, the geom frame, and placed in
the body frame by geom_pos and geom_quat),
joint names and types, qpos0; per state the body poses (xpos, xmat) and the free-space joint
accelerations (with MuJoCo's mass matrix and bias force there): passive forces (damping, stiffness, fluid),
actuation (controls 0) and armature on, constraints (limits, frictionloss, contacts) off — the
constraint rows are compared by the contact stages.
"""
import json
import sys

try:
    import mujoco
    import numpy as np
except ImportError as e:
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install mujoco`"}))
    sys.exit(0)

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from mujoco_ref import Ref, finite_safe  # noqa: E402


def compiled(path):
    ref = Ref.__new__(Ref)
    ref.m = mujoco.MjModel.from_xml_path(path)
    m = ref.m
    m.opt.disableflags |= int(mujoco.mjtDisableBit.mjDSBL_CONSTRAINT)
    ref.d = mujoco.MjData(m)
    ref.h0 = m.opt.timestep
    ref.integ0 = m.opt.integrator
    return ref


def hull_geoms(m):
    """Each mesh geom with a convex hull (geom order) and its hull's vertices: mesh_graph's vertex ids into mesh_vert."""
    for g in range(m.ngeom):
        mesh = int(m.geom_dataid[g])
        if m.geom_type[g] != mujoco.mjtGeom.mjGEOM_MESH or m.mesh_graphadr[mesh] < 0:
            continue
        adr = m.mesh_graphadr[mesh]
        nv = int(m.mesh_graph[adr])
        ids = m.mesh_graph[adr + 2 + nv: adr + 2 + 2 * nv]
        yield g, m.mesh_vert[m.mesh_vertadr[mesh] + ids].astype(float)


def hulls(m):
    """Per mesh geom with a convex hull (geom order): its vertices in the geom frame."""
    return [v.flatten().tolist() for _, v in hull_geoms(m)]


def placed_hulls(m):
    """The same hulls placed in their bodies' frames: geom_pos + R(geom_quat) v."""
    out = []
    for g, v in hull_geoms(m):
        R = np.zeros(9)
        mujoco.mju_quat2Mat(R, m.geom_quat[g])
        out.append((v @ R.reshape(3, 3).T + m.geom_pos[g]).flatten().tolist())
    return out


def answer(model):
    ref = compiled(model["path"])
    m = ref.m
    inertia = []
    for b in range(1, m.nbody):
        R = np.zeros(9)
        mujoco.mju_quat2Mat(R, m.body_iquat[b])
        R = R.reshape(3, 3)
        I = R @ np.diag(m.body_inertia[b]) @ R.T
        inertia.append([I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]])
    out = {
        "bodies": [m.body(b).name for b in range(1, m.nbody)],
        "mass": m.body_mass[1:].tolist(),
        "ipos": m.body_ipos[1:].tolist(),
        "inertia": inertia,
        "joints": [m.joint(j).name for j in range(m.njnt)],
        "nq": int(m.nq), "nv": int(m.nv),
        "qpos0": m.qpos0.tolist(),
        "timestep": float(m.opt.timestep),
        "hulls": hulls(m),
        "placed_hulls": placed_hulls(m),
        "gravity": m.opt.gravity.tolist(),
        "states": [],
    }
    for s in model.get("states", []):
        kin = ref.kinematics(s)
        dyn = ref.dynamics(s)
        out["states"].append({"xpos": kin["xpos"], "xmat": kin["xmat"], "qacc": dyn["qacc"], "qM": dyn["qM"],
                              "qfrc_bias": dyn["qfrc_bias"]})
    return out


def main():
    try:
        req = json.loads(sys.stdin.read())
        out = {"version": mujoco.__version__, "results": [answer(m) for m in req.get("models", [])]}
    except Exception as e:  # one error line for the caller instead of a traceback on stderr
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(finite_safe(out), allow_nan=False))


if __name__ == "__main__":
    main()
