#!/usr/bin/env python3
"""MuJoCo's narrow phase on given shape pairs, for the `collision` stage of `achilles validate`.

One JSON request on stdin, one JSON answer on stdout (same float/NaN conventions as
mujoco_ref.py):

  request:  {"pairs": [{"a": {"kind", "halfExtents", "radius"}, "b": {...},
                        "poseA": {"pos", "quat"}, "poseB": {"pos", "quat"},
                        "margin": m, "distmax": d}, ...]}
  response: {"version": "3.14.0", "results": [{"count", "dists", "points", "normals",
                                               "geomDistance", "fromto"}, ...]}   or {"error": ...}

One MJCF holds the whole batch: every non-plane shape is a geom on a body of its own with a free
joint (its world pose is that joint's qpos), every plane a geom of the world body; each pair is an
explicit <contact><pair> with the pair's margin (gap 0) and every geom has contype = conaffinity
= 0, so exactly the listed pairs are tested, never two shapes of different pairs. Then
mj_kinematics + mj_collision, and each pair's contacts are read back (normals turned to point
from a to b: MuJoCo orders a pair's geoms by type and its normal points geom[0] -> geom[1]).
mj_geomDistance(a, b, distmax) is reported beside them (MuJoCo's signed distance function).

Kinds: sphere (size r), capsule (r, half-length along z), box (half-extents), plane (the
half-space z <= 0 of its frame), cylinder and ellipsoid ("size": MuJoCo's geom_size), convex (a
mesh geom of the hull's "vertices", given in the body frame: MuJoCo re-centres a mesh on its own
frame and moves the geom by the same offset, so the vertices stay where they are given). A rounded
box has no MuJoCo geom: the caller leaves those pairs out and says so.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import numpy as np
    import mujoco
    from mujoco_ref import finite_safe
except ImportError as e:
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install mujoco`"}))
    sys.exit(0)


def fmt(xs):
    return " ".join(repr(float(x)) for x in xs)


def geom_xml(name, shape, pose=None, assets=None):
    kind = shape["kind"]
    h = shape["halfExtents"]
    r = shape["radius"]
    where = f' pos="{fmt(pose["pos"])}" quat="{fmt(pose["quat"])}"' if pose else ""
    common = f'name="{name}" contype="0" conaffinity="0"{where}'
    if kind == "sphere":
        return f'<geom {common} type="sphere" size="{fmt([r])}"/>'
    if kind == "capsule":
        return f'<geom {common} type="capsule" size="{fmt([r, h[2]])}"/>'
    if kind == "box":
        return f'<geom {common} type="box" size="{fmt(h)}"/>'
    if kind == "plane":
        return f'<geom {common} type="plane" size="0 0 1"/>'
    if kind == "cylinder":
        return f'<geom {common} type="cylinder" size="{fmt(shape["size"][:2])}"/>'
    if kind == "ellipsoid":
        return f'<geom {common} type="ellipsoid" size="{fmt(shape["size"])}"/>'
    if kind == "convex":
        assets.append(f'<mesh name="m{name}" vertex="{fmt(shape["vertices"])}"/>')
        return f'<geom {common} type="mesh" mesh="m{name}"/>'
    raise ValueError(f"{kind!r} has no MuJoCo geom (sphere, capsule, box, plane)")


def build(pairs):
    world, bodies, contacts, assets = [], [], [], []
    free = []  # (body index among free joints, pose) in qpos order
    for i, p in enumerate(pairs):
        for side in ("a", "b"):
            shape, pose, name = p[side], p["pose" + side.upper()], f"g{i}{side}"
            if shape["kind"] == "plane":
                world.append(geom_xml(name, shape, pose))
            else:
                bodies.append(f'<body name="b{i}{side}"><freejoint/>{geom_xml(name, shape, assets=assets)}</body>')
                free.append(pose)
        contacts.append(f'<pair geom1="g{i}a" geom2="g{i}b" margin="{float(p["margin"])!r}" gap="0"/>')
    xml = ('<mujoco><size memory="256M"/><option gravity="0 0 0"/><asset>' + "".join(assets) + '</asset><worldbody>'
           + "".join(world) + "".join(bodies)
           + "</worldbody><contact>" + "".join(contacts) + "</contact></mujoco>")
    return xml, free


def main():
    try:
        req = json.loads(sys.stdin.read())
        pairs = req["pairs"]
        if not pairs:
            out = {"version": mujoco.__version__, "results": []}
        else:
            xml, free = build(pairs)
            m = mujoco.MjModel.from_xml_string(xml)
            d = mujoco.MjData(m)
            for k, pose in enumerate(free):
                d.qpos[7 * k:7 * k + 3] = pose["pos"]
                d.qpos[7 * k + 3:7 * k + 7] = pose["quat"]
            mujoco.mj_kinematics(m, d)
            mujoco.mj_collision(m, d)
            gid = {}
            for i in range(len(pairs)):
                gid[i] = (mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f"g{i}a"),
                          mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, f"g{i}b"))
            owner = {}
            for i, (ga, gb) in gid.items():
                owner[(ga, gb)] = (i, 1.0)
                owner[(gb, ga)] = (i, -1.0)
            results = [{"count": 0, "dists": [], "points": [], "normals": []} for _ in pairs]
            for c in d.contact[:d.ncon]:
                i, sign = owner[(int(c.geom[0]), int(c.geom[1]))]
                r = results[i]
                r["count"] += 1
                r["dists"].append(float(c.dist))
                r["points"].append([float(x) for x in c.pos])
                r["normals"].append([sign * float(x) for x in c.frame[:3]])
            fromto = np.zeros(6)
            for i, p in enumerate(pairs):
                ga, gb = gid[i]
                dist = mujoco.mj_geomDistance(m, d, ga, gb, float(p.get("distmax", 1.0)), fromto)
                results[i]["geomDistance"] = float(dist)
                results[i]["fromto"] = [float(x) for x in fromto]
            out = {"version": mujoco.__version__, "results": results}
    except Exception as e:  # one error line for the caller instead of a traceback on stderr
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(finite_safe(out), allow_nan=False))


if __name__ == "__main__":
    main()
