"""MuJoCo 3.14's face clipping (gjk.c `multicontact`): the reference for
native/include/achilles/collision/convex/multicontact.hpp, read by native/tests/convex_tests.cpp.

    python3 native/tests/multicontact_fixture.py > native/tests/fixtures/multicontact_mujoco.txt

Box–mesh, mesh–box and mesh–mesh at zero margin with multiccd on (MuJoCo's default; mjc_Convex's
maxContacts is then 4 and EPA's face goes on to the clipping): posed cases (a box-shaped mesh, a
random mesh's polygon and an octagonal prism face on face, rotated a little about the normal,
tilted within and beyond mjFACE_TOL, edge on face, corner on face) and random poses of random
meshes, overlapping by up to 0.3 of the size. The format is convex_fixture.py's, each mesh geom
followed by its polygons as MuJoCo compiled them:
  <npoly> then per polygon <nvert> <vertex ids×nvert> <normal×3>, then the vertices as given ×3nvert
(mesh_polyvert, mesh_polynormal; the polygon map follows from them in MuJoCo's order; MuJoCo
groups the hull's triangles in the frame the vertices were given in).
"""
import math
import sys

import mujoco
import numpy as np

from convex_fixture import BOX_MESH, rand_mesh, rand_quat, set_free, signed_distance
from convex_fixture import emit as convex_emit


def prism(n, r, h):
    """An n-gon prism: two n-gon faces of n vertices each (polygonQuad's case: > 4 clipped points)."""
    ang = [2 * math.pi * (k + 0.5) / n for k in range(n)]
    return np.array([[r * math.cos(a), r * math.sin(a), z] for z in (-h, h) for a in ang])


def build(ka, kb, sa, sb, va, vb):
    def geom(name, kind, size, mesh):
        if kind == 'mesh':
            return f'<geom name="{name}" type="mesh" mesh="{mesh}"/>'
        return f'<geom name="{name}" type="{kind}" size="{" ".join(repr(float(x)) for x in size)}"/>'
    assets = ''.join(f'<mesh name="m{i}" vertex="{" ".join(map(repr, v.ravel().tolist()))}"/>' for i, v in ((0, va), (1, vb)) if v is not None)
    world = f'<body name="A"><freejoint/>{geom("a", ka, sa, "m0")}</body><body name="B"><freejoint/>{geom("b", kb, sb, "m1")}</body>'
    return mujoco.MjModel.from_xml_string(f'<mujoco><asset>{assets}</asset><worldbody>{world}</worldbody></mujoco>')


def polygon_tokens(m, g, source):
    if m.geom_type[g] != mujoco.mjtGeom.mjGEOM_MESH:
        return []
    mid = m.geom_dataid[g]
    adr, n = m.mesh_polyadr[mid], m.mesh_polynum[mid]
    normal = m.mesh_polynormal.reshape(-1, 3)
    t = [str(n)]
    for p in range(adr, adr + n):
        va, nv = m.mesh_polyvertadr[p], m.mesh_polyvertnum[p]
        t += [str(nv)] + [str(int(x)) for x in m.mesh_polyvert[va:va + nv]] + [repr(float(x)) for x in normal[p]]
    # the vertices as given (MuJoCo groups the triangles by their normals in this frame, before it
    # moves the mesh to its principal axes)
    assert len(source) == m.mesh_vertnum[mid]
    return t + [repr(float(x)) for x in np.asarray(source, float).ravel()]


def emit(m, d, ka, kb, out, va, vb):
    """convex_fixture's case at zero margin, each mesh followed by its polygons and given vertices."""
    source = {m.geom('a').id: va, m.geom('b').id: vb}
    convex_emit(m, d, ka, kb, 0.0, out, extra=lambda m, g: polygon_tokens(m, g, source[g]))


def quat_axis(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    return np.concatenate([[math.cos(angle / 2)], math.sin(angle / 2) * axis])


def quat_mul(a, b):
    w1, x1, y1, z1 = a
    w2, x2, y2, z2 = b
    return np.array([w1 * w2 - x1 * x2 - y1 * y2 - z1 * z2, w1 * x2 + x1 * w2 + y1 * z2 - z1 * y2, w1 * y2 - x1 * z2 + y1 * w2 + z1 * x2, w1 * z2 + x1 * y2 - y1 * x2 + z1 * w2])


def place(m, d, qa, pb, qb, depth, direction):
    """a at the origin (quat qa), b at quat qb moved along `direction` until it overlaps a by `depth`."""
    ga, gb = m.geom('a').id, m.geom('b').id
    u = np.asarray(direction, float) / np.linalg.norm(direction)
    t = m.geom_rbound[ga] + m.geom_rbound[gb]
    for _ in range(40):
        set_free(m, d, 'A', np.zeros(3), qa)
        set_free(m, d, 'B', pb + t * u, qb)
        s = signed_distance(m, d, ga, gb)
        if abs(s + depth) < 1e-9:
            break
        t -= s + depth


def posed(out):
    rng = np.random.default_rng(20261204)
    rock = rand_mesh(rng, 14)
    shapes = {'box': ([0.2, 0.15, 0.1], None), 'boxmesh': (None, BOX_MESH), 'rock': (None, rock), 'octa': (None, prism(8, 0.12, 0.06))}
    combos = [('box', 'boxmesh'), ('boxmesh', 'box'), ('boxmesh', 'boxmesh'), ('box', 'octa'), ('octa', 'boxmesh'), ('box', 'rock'), ('rock', 'boxmesh'), ('rock', 'octa')]
    small = [quat_axis([0, 0, 1], 0.0), quat_axis([0, 0, 1], 0.3), quat_axis([0, 0, 1], math.pi / 4), quat_axis([1, 0.3, 0], 0.02),
             quat_axis([1, 0.3, 0], 0.07), quat_axis([1, 0.3, 0], 0.12), quat_axis([1, 0, 0], math.pi / 4), quat_mul(quat_axis([1, 0, 0], math.pi / 4), quat_axis([0, 1, 0], math.pi / 5))]
    for ka, kb in combos:
        (sa, va), (sb, vb) = shapes[ka], shapes[kb]
        m = build('box' if ka == 'box' else 'mesh', 'box' if kb == 'box' else 'mesh', sa, sb, va, vb)
        d = mujoco.MjData(m)
        # a's face to meet b: a's largest polygon (its face along -z for the boxes) turned to +z
        qa = np.array([1.0, 0, 0, 0])
        if ka == 'rock':
            mid = m.geom_dataid[m.geom('a').id]
            nrm = m.mesh_polynormal.reshape(-1, 3)[m.mesh_polyadr[mid]]
            axis = np.cross(nrm, [0, 0, 1])
            qa = quat_axis(axis, math.acos(np.clip(nrm[2], -1, 1))) if np.linalg.norm(axis) > 1e-9 else qa
        for q in small:
            for depth in (0.002, 0.02):
                place(m, d, qa, np.array([0.02, -0.01, 0.0]), q, depth, [0, 0, 1])
                emit(m, d, 'box' if ka == 'box' else 'mesh', 'box' if kb == 'box' else 'mesh', out, va, vb)


def random_cases(out, per_pair):
    rng = np.random.default_rng(20261205)
    for ka, kb in [('box', 'mesh'), ('mesh', 'box'), ('mesh', 'mesh')]:
        for i in range(per_pair):
            va = vb = None
            pick = lambda: rand_mesh(rng, int(rng.choice([6, 8, 9, 14, 30]))) if i % 3 else prism(int(rng.choice([4, 6, 8])), 0.1 + 0.1 * rng.random(), 0.05 + 0.1 * rng.random())
            sa = [0.1 + 0.2 * rng.random() for _ in range(3)] if ka == 'box' else None
            sb = [0.1 + 0.2 * rng.random() for _ in range(3)] if kb == 'box' else None
            if ka == 'mesh':
                va = pick()
            if kb == 'mesh':
                vb = pick()
            m = build(ka, kb, sa, sb, va, vb)
            d = mujoco.MjData(m)
            ga, gb = m.geom('a').id, m.geom('b').id
            scale = max(m.geom_rbound[ga], m.geom_rbound[gb])
            place(m, d, rand_quat(rng), rng.normal(size=3) * 0.05, rand_quat(rng), 0.3 * scale * rng.random() ** 2, rng.normal(size=3))
            emit(m, d, ka, kb, out, va, vb)


def main():
    assert mujoco.__version__.startswith('3.14'), mujoco.__version__
    out = [f'# MuJoCo {mujoco.__version__}: python3 native/tests/multicontact_fixture.py']
    posed(out)
    random_cases(out, int(sys.argv[1]) if len(sys.argv) > 1 else 60)
    print('\n'.join(out))


if __name__ == '__main__':
    main()
