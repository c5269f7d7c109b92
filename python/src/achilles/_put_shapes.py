"""MuJoCo's geoms as the engine's shapes (compile.ts shapeOf) and its fluid model (fluid.ts), from a
compiled MjModel. A mesh geom is its convex hull, MuJoCo's own: the vertices of mesh_graph (qhull's
hull, which MuJoCo keeps for collisions) in the geom frame, which MuJoCo's compiler has already moved
to the mesh's centre of mass and principal axes (geom_pos/quat absorbed mesh_pos/quat), as float32
mesh_vert, with the graph's triangles: the importer makes the same hull with its own quickhull from
the same float32 vertices (the `convex` kind). Geom order: MuJoCo's body by body, the world's last
(the importer reads the world's geoms into worldGeoms, compiled after the bodies)."""

from __future__ import annotations

import math

import mujoco

from ._put_math import add, floats

G = mujoco.mjtGeom
DEFAULT_TORSIONAL_FRICTION = 0.005
DEFAULT_ROLLING_FRICTION = 0.0001
DEFAULT_SOLREF = [0.02, 1.0]
DEFAULT_SOLIMP = [0.9, 0.95, 0.001, 0.5, 2.0]
MJ_MINVAL = 1e-15


def geom_names(m, bnames: list[str]) -> list[str]:
    """An unnamed geom is `owner/geomK`, K its place among its body's geoms (mjcf/geom.ts)."""
    out = []
    for g in range(m.ngeom):
        b = int(m.geom_bodyid[g])
        given = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g)
        owner = "world" if b == 0 else bnames[b - 1]
        out.append(given if given is not None else f"{owner}/geom{g - int(m.body_geomadr[b])}")
    return out


def mesh_hull(m, mesh: int) -> tuple[list[float], list[int]]:
    """MuJoCo's hull of `mesh` (mesh_graph: numvert, numface, vert_edgeadr, vert_globalid, edge_localid,
    face_globalid): its vertices in the order of their index in mesh_vert (the order the importer's
    quickhull keeps), and its triangles as indices into them."""
    adr = int(m.mesh_graphadr[mesh])
    if adr < 0:
        raise ValueError(f"mesh {mesh} has no convex hull in mjModel.mesh_graph (MuJoCo made none)")
    gr = m.mesh_graph
    nv, nf = int(gr[adr]), int(gr[adr + 1])
    globalid = [int(x) for x in gr[adr + 2 + nv : adr + 2 + 2 * nv]]
    faces_at = adr + 2 + 3 * nv + 3 * nf
    face_global = [int(x) for x in gr[faces_at : faces_at + 3 * nf]]
    order = sorted(globalid)
    local = {gid: i for i, gid in enumerate(order)}
    vbase = int(m.mesh_vertadr[mesh])
    vert: list[float] = []
    for gid in order:
        vert.extend(float(x) for x in m.mesh_vert[vbase + gid])
    _refuse_partial_hull(m, mesh, face_global)
    return vert, [local[g] for g in face_global]


def _refuse_partial_hull(m, mesh: int, face_global: list[int]) -> None:
    """A hull limited to fewer vertices (<mesh maxhullvert>) leaves mesh vertices outside its faces; the
    importer refuses maxhullvert (mjcf/asset.ts), so this does too: every vertex of mesh_vert must lie
    on or inside every face plane n·x <= n·a (to 1e-9 of the mesh's size; float32 vertices)."""
    import numpy as np

    V = np.asarray(m.mesh_vert[m.mesh_vertadr[mesh] : m.mesh_vertadr[mesh] + m.mesh_vertnum[mesh]], dtype=float)
    F = np.asarray(face_global).reshape(-1, 3)
    a, b, c = V[F[:, 0]], V[F[:, 1]], V[F[:, 2]]
    n = np.cross(b - a, c - a)
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-300)
    out = (V @ n.T - np.sum(n * a, axis=1)).max()
    size = float(np.abs(V).max())
    if out > 1e-6 * size:
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_MESH, mesh) or str(mesh)
        raise ValueError(
            f"mesh '{name}' (mesh_graph): its convex hull leaves mesh vertices outside by up to {out:.3g} (maxhullvert): "
            "a hull limited to fewer vertices is not supported"
        )


def build_shapes(m, gnames: list[str], body_map: list[dict], contact_off: bool) -> list[dict]:
    if contact_off:
        return []
    shapes = []
    order = [g for g in range(m.ngeom) if m.geom_bodyid[g] != 0] + [g for g in range(m.ngeom) if m.geom_bodyid[g] == 0]
    for g in order:
        if m.geom_contype[g] == 0 and m.geom_conaffinity[g] == 0:
            continue  # collides with nothing: not a shape (its mass still counts, in body_mass)
        b = int(m.geom_bodyid[g])
        link, offset = (-1, [0.0, 0.0, 0.0]) if b == 0 else (body_map[b - 1]["link"], body_map[b - 1]["offset"])
        shapes.append(_shape(m, g, gnames[g], link, offset))
    names: set[str] = set()
    for s in shapes:
        n, k = s["name"], 2
        while n in names:
            n = f"{s['name']}_{k}"
            k += 1
        s["name"] = n
        names.add(n)
    return shapes


def _shape(m, g: int, name: str, body: int, offset: list) -> dict:
    t = int(m.geom_type[g])
    s = floats(m.geom_size[g])
    h, r, size, vertices, faces = [0.0, 0.0, 0.0], 0.0, None, None, None
    if t == G.mjGEOM_SPHERE:
        kind, r = "sphere", s[0]
    elif t == G.mjGEOM_CAPSULE:
        kind, r, h = "capsule", s[0], [0.0, 0.0, s[1]]
    elif t == G.mjGEOM_BOX:
        kind, h = "box", s[:]
    elif t == G.mjGEOM_PLANE:
        kind = "plane"
    elif t == G.mjGEOM_CYLINDER:
        kind, size, h = "cylinder", [s[0], s[1], 0.0], [s[0], s[0], s[1]]
    elif t == G.mjGEOM_ELLIPSOID:
        kind, size, h = "ellipsoid", s[:], s[:]
    elif t == G.mjGEOM_MESH:
        kind = "convex"
        vertices, faces = mesh_hull(m, int(m.geom_dataid[g]))
        for i, v in enumerate(vertices):
            h[i % 3] = max(h[i % 3], abs(v))
    else:  # refused before (_put_refusals)
        raise ValueError(f"geom '{name}' type {t}")
    f = floats(m.geom_friction[g])
    sh = {"name": name, "body": body, "kind": kind, "halfExtents": h, "radius": r}
    if size is not None:
        sh["size"] = size
    if vertices is not None:
        sh["vertices"] = vertices
        sh["faces"] = faces
    sh.update(
        pos=add(floats(m.geom_pos[g]), offset),
        quat=floats(m.geom_quat[g]),
        friction=f[0],
        contype=int(m.geom_contype[g]),
        conaffinity=int(m.geom_conaffinity[g]),
        margin=float(m.geom_margin[g]),
        gap=float(m.geom_gap[g]),
        condim=int(m.geom_condim[g]),
    )
    if f[1] != DEFAULT_TORSIONAL_FRICTION:
        sh["torsionalFriction"] = f[1]
    if f[2] != DEFAULT_ROLLING_FRICTION:
        sh["rollingFriction"] = f[2]
    # MuJoCo's defaults are the native reader's defaults: given only where they differ
    if floats(m.geom_solref[g]) != DEFAULT_SOLREF:
        sh["solref"] = floats(m.geom_solref[g])
    if floats(m.geom_solimp[g]) != DEFAULT_SOLIMP:
        sh["solimp"] = floats(m.geom_solimp[g])
    if m.geom_priority[g] != 0:
        sh["priority"] = int(m.geom_priority[g])
    if m.geom_solmix[g] != 1:
        sh["solmix"] = float(m.geom_solmix[g])
    return sh


def semi_axes(t: int, s: list) -> list:
    """MuJoCo's mju_geomSemiAxes."""
    if t == G.mjGEOM_SPHERE:
        return [s[0], s[0], s[0]]
    if t == G.mjGEOM_CAPSULE:
        return [s[0], s[0], s[1] + s[0]]
    if t == G.mjGEOM_CYLINDER:
        return [s[0], s[0], s[1]]
    return [s[0], s[1], s[2]]


def build_fluid(m, body_map: list[dict], disabled: set[str]) -> dict | None:
    """MuJoCo's fluid (fluid.ts): the ellipsoid model over a body's geoms of fluidshape ellipsoid
    (geom_fluid[0] = 1; coefficients geom_fluid[1:6], added mass and inertia geom_fluid[6:12] as
    MuJoCo's compiler made them), else the inertia box of the body's principal inertia:
    box_i = sqrt(max(mjMINVAL, I_j + I_k − I_i) / m · 6) (mj_inertiaBoxFluidModel)."""
    o = m.opt
    if o.density == 0 and o.viscosity == 0:
        return None
    if "spring" in disabled and "damper" in disabled:
        return None  # mj_passive skips every passive force
    bodies = []
    for b in range(1, m.nbody):
        mass = float(m.body_mass[b])
        if not mass >= MJ_MINVAL:
            continue
        link, offset = body_map[b - 1]["link"], body_map[b - 1]["offset"]
        geoms = [g for g in range(m.body_geomadr[b], m.body_geomadr[b] + m.body_geomnum[b]) if m.geom_fluid[g, 0] > 0]
        if geoms:
            ells = []
            for g in geoms:
                fl = floats(m.geom_fluid[g])
                ells.append(
                    {
                        "pos": add(floats(m.geom_pos[g]), offset),
                        "quat": floats(m.geom_quat[g]),
                        "semiaxes": semi_axes(int(m.geom_type[g]), floats(m.geom_size[g])),
                        "coef": fl[1:6],
                        "virtualMass": fl[6:9],
                        "virtualInertia": fl[9:12],
                    }
                )
            bodies.append({"body": link, "ellipsoids": ells})
            continue
        I = floats(m.body_inertia[b])

        def side(k: int) -> float:
            return math.sqrt((max(MJ_MINVAL, I[(k + 1) % 3] + I[(k + 2) % 3] - I[k]) / mass) * 6.0)

        bodies.append({"body": link, "box": {"quat": floats(m.body_iquat[b]), "size": [side(0), side(1), side(2)]}})
    return {"density": float(o.density), "viscosity": float(o.viscosity), "wind": floats(o.wind), "bodies": bodies}
