"""MuJoCo 3.14's plane–mesh contacts (mjc_PlaneConvex for a mesh): the reference for plane_convex in
native/include/achilles/collision/convex/analytic.hpp, read by native/tests/convex_tests.cpp (--plane).

    python3 native/tests/plane_mesh_fixture.py [POSES=8] [TETRAHEDRA=12] > native/tests/fixtures/plane_mesh_mujoco.txt

A mesh on a free body over a plane placed at random: random hulls of 5 to 30 vertices, a box-shaped
mesh, n-gon prisms (polygons of more than 4 vertices), flat rocks, a rock with merged faces, and
tetrahedra (generic and flat; then TETRAHEDRA more from a stream of their own); the pair's margin 0, 0.003 or 0.02 (half on each geom). Half the
poses put one of the hull's polygons face down on the plane, tilted by 0 to 0.05 rad and spun about
the normal; the others are random orientations. The deepest vertex is placed from 5% of rbound below
the plane up to the margin. The format is multicontact_fixture.py's (convex_fixture.py's, the mesh
followed by MuJoCo's polygons and the vertices as given).
"""
import math
import sys

import mujoco
import numpy as np

from convex_fixture import BOX_MESH, rand_mesh, rand_quat, set_free
from multicontact_fixture import emit, prism, quat_axis, quat_mul


def build(v, margin, plane_pos, plane_quat):
    f = lambda xs: ' '.join(repr(float(x)) for x in xs)
    xml = (f'<mujoco><asset><mesh name="m1" vertex="{f(np.asarray(v).ravel())}"/></asset><worldbody>'
           f'<geom name="a" type="plane" size="0 0 1" margin="{margin / 2!r}" pos="{f(plane_pos)}" quat="{f(plane_quat)}"/>'
           f'<body name="B"><freejoint/><geom name="b" type="mesh" mesh="m1" margin="{margin / 2!r}"/></body></worldbody></mujoco>')
    return mujoco.MjModel.from_xml_string(xml)


def meshes(rng):
    out = [rand_mesh(rng, n) for n in (5, 6, 8, 9, 12, 14, 20, 30)]
    out.append(BOX_MESH)
    out += [prism(k, 0.1 + 0.1 * rng.random(), 0.03 + 0.1 * rng.random()) for k in (3, 5, 6, 8, 12, 16)]
    for _ in range(2):
        v = rand_mesh(rng, 16)
        v[:, 2] *= 0.05
        out.append(v)
    v = rand_mesh(rng, 40)
    out.append(np.unique(np.round(v * 20) / 20, axis=0))  # merged coplanar faces
    out += [tetrahedron(rng, flat) for flat in (1.0, 1.0, 0.1, 0.1)]
    return out


def tetrahedron(rng, flat):
    """Four normal points of 0.1 spread, z scaled by `flat` (0.1: a flat one)."""
    v = rng.normal(size=(4, 3)) * 0.1
    v[:, 2] *= flat
    return v


def main():
    assert mujoco.__version__.startswith('3.14'), mujoco.__version__
    per = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    tetrahedra = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    rng = np.random.default_rng(20261206)
    out = [f'# MuJoCo {mujoco.__version__}: python3 native/tests/plane_mesh_fixture.py']
    for v in meshes(rng):
        poses(v, rng, per, out)
    # tetrahedra apart (their own stream, so the cases above stay as they were): a face of a
    # tetrahedron can rise above the mesh frame's origin, which 3.14's second test on a point is about
    rng = np.random.default_rng(20261204)
    for k in range(tetrahedra):
        poses(tetrahedron(rng, 0.1 if k % 2 else 1.0), rng, per, out)
    print('\n'.join(out))


def poses(v, rng, per, out):
    """`per` poses of mesh v over a plane placed at random, at each of the three margins."""
    for margin in (0.0, 0.003, 0.02):
        plane_pos, plane_quat = rng.normal(size=3) * 0.2, rand_quat(rng)
        m = build(v, margin, plane_pos, plane_quat)
        d = mujoco.MjData(m)
        mujoco.mj_kinematics(m, d)
        ga, gb = m.geom('a').id, m.geom('b').id
        n = d.geom_xmat[ga].reshape(3, 3)[:, 2].copy()
        mid = m.geom_dataid[gb]
        vert = m.mesh_vert[m.mesh_vertadr[mid]:m.mesh_vertadr[mid] + m.mesh_vertnum[mid]].astype(float)
        padr, pnum = m.mesh_polyadr[mid], m.mesh_polynum[mid]
        for i in range(per):
            if i % 2:
                q = rand_quat(rng)
            else:  # polygon p face down (the geom's frame is the body's turned by geom_quat), tilted, spun
                pn = np.zeros(3)
                mujoco.mju_rotVecQuat(pn, m.mesh_polynormal[padr + rng.integers(pnum)], m.geom_quat[gb])
                axis = np.cross(pn, -n)
                s, c = np.linalg.norm(axis), pn @ -n
                q = quat_axis(axis, math.atan2(s, c)) if s > 1e-12 else (np.array([1.0, 0, 0, 0]) if c > 0 else quat_axis(np.cross(pn, [1, 0, 0]) if abs(pn[0]) < 0.9 else np.cross(pn, [0, 1, 0]), math.pi))
                tilt = rng.normal(size=3)
                q = quat_mul(quat_axis(tilt, [0, 1e-4, 1e-3, 0.01, 0.05][rng.integers(5)]), q)
                q = quat_mul(quat_axis(n, 2 * math.pi * rng.random()), q)
            set_free(m, d, 'B', np.zeros(3), q)
            mujoco.mj_kinematics(m, d)
            low = min(((d.geom_xmat[gb].reshape(3, 3) @ vert.T).T + d.geom_xpos[gb]) @ n)
            target = margin - 0.05 * m.geom_rbound[gb] * rng.random() ** 2 if i % 4 else margin * rng.random()
            base = plane_pos + rng.normal(size=3) * 0.05
            base -= ((base - plane_pos) @ n) * n
            set_free(m, d, 'B', base + (target - low) * n, q)
            emit_plane(m, d, out, v, margin)


def emit_plane(m, d, out, v, margin):
    """The case at the pair's margin (multicontact_fixture.emit writes margin 0)."""
    lines = []
    emit(m, d, 'plane', 'mesh', lines, None, v)
    head = lines[0].split(' ')
    head[4] = repr(margin)
    out.append(' '.join(head))
    out.extend(lines[1:])


if __name__ == '__main__':
    main()
