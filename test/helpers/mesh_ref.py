#!/usr/bin/env python3
"""MuJoCo's compile of mesh models for test/import-mesh.test.ts: per body its mass, CoM and inertia
about the CoM in body axes (R(iquat) diag Rᵀ); per geom its pos, quat, size and the vertices of its
mesh's convex hull (mesh_graph's vertex ids into mesh_vert, the mesh frame), or null."""
import json
import sys

import mujoco
import numpy as np


def hull_of(m, mesh):
    adr = m.mesh_graphadr[mesh]
    if adr < 0:
        return None
    nv = int(m.mesh_graph[adr])
    ids = m.mesh_graph[adr + 2 + nv: adr + 2 + 2 * nv]
    return m.mesh_vert[m.mesh_vertadr[mesh] + ids].astype(float).flatten().tolist()


def answer(path):
    m = mujoco.MjModel.from_xml_path(path)
    bodies = []
    for b in range(1, m.nbody):
        R = np.zeros(9)
        mujoco.mju_quat2Mat(R, m.body_iquat[b])
        R = R.reshape(3, 3)
        I = R @ np.diag(m.body_inertia[b]) @ R.T
        bodies.append({"name": m.body(b).name, "mass": float(m.body_mass[b]), "ipos": m.body_ipos[b].tolist(),
                       "inertia": [I[0, 0], I[1, 1], I[2, 2], I[0, 1], I[0, 2], I[1, 2]]})
    geoms = []
    for g in range(m.ngeom):
        mesh = int(m.geom_dataid[g]) if m.geom_type[g] == mujoco.mjtGeom.mjGEOM_MESH else -1
        geoms.append({"name": m.geom(g).name, "body": m.body(m.geom_bodyid[g]).name, "pos": m.geom_pos[g].tolist(),
                      "quat": m.geom_quat[g].tolist(), "size": m.geom_size[g].tolist(),
                      "hull": hull_of(m, mesh) if mesh >= 0 else None})
    return {"bodies": bodies, "geoms": geoms}


print(json.dumps([answer(p) for p in sys.argv[1:]]))
