"""MuJoCo 3.14's face clipping with a cylinder (gjk.c `multicontact` with a cylinder's cap as a
16-gon, its side as a segment along the axis): the reference for the cylinder part of
native/include/achilles/collision/convex/multicontact.hpp, read by native/tests/convex_tests.cpp.

    python3 native/tests/cylinder_fixture.py > native/tests/fixtures/cylinder_mujoco.txt

Cylinder–box, box–cylinder, cylinder–mesh, mesh–cylinder and cylinder–cylinder at zero margin with
multiccd on (MuJoCo's default): posed cases (a cap on a face, a side on a face, a face on a side,
side on side, each rotated a little about the normal, tilted within and beyond mjFACE_TOL and
mjEDGE_TOL, at two depths) and random poses. The format is multicontact_fixture.py's, each case
line ending in `floor <x>`: MuJoCo's own largest change of any contact's dist, pos or normal entry
over 8 draws of the free bodies' qpos moved by 1e-16 relative (inf where a draw changes the count):
where the clipped polygon is a regular 16-gon its 4 points are one of several equal-area quads, and
which one follows MuJoCo's rounding.
"""
import math
import sys

import mujoco
import numpy as np

from convex_fixture import BOX_MESH, rand_mesh, rand_quat
from multicontact_fixture import build, place, prism, quat_axis, quat_mul
from multicontact_fixture import emit as clip_emit

UP = np.array([1.0, 0, 0, 0])
SIDE = quat_axis([0, 1, 0], math.pi / 2)  # a cylinder's axis along x: its side faces ±z


def emit(m, d, ka, kb, out, va, vb):
    """multicontact_fixture's case, its case line ending in MuJoCo's floor under a 1e-16 perturbation."""
    rng = np.random.default_rng(len(out))
    q0 = d.qpos.copy()

    def contacts(q):
        d.qpos[:] = q
        mujoco.mj_kinematics(m, d)
        mujoco.mj_collision(m, d)
        return [np.r_[c.dist, c.pos, c.frame[:3]] for c in d.contact[:d.ncon]]

    ref = contacts(q0)
    floor = 0.0
    for _ in range(8):
        got = contacts(q0 * (1 + 1e-16 * rng.standard_normal(q0.shape)))
        if len(got) != len(ref):
            floor = math.inf
            continue
        for x, y in zip(ref, got):
            floor = max(floor, float(np.max(np.abs(x - y))))
    d.qpos[:] = q0
    n = len(out)
    clip_emit(m, d, ka, kb, out, va, vb)
    out[n] += f' floor {floor!r}'


def shapes():
    rng = np.random.default_rng(20261206)
    return {
        'box': ('box', [0.2, 0.15, 0.1], None),
        'cyl': ('cylinder', [0.18, 0.1], None),
        'slim': ('cylinder', [0.07, 0.15], None),
        'boxmesh': ('mesh', None, BOX_MESH),
        'octa': ('mesh', None, prism(8, 0.12, 0.06)),
        'rock': ('mesh', None, rand_mesh(rng, 14)),
    }


def posed(out):
    sh = shapes()
    small = [quat_axis([0, 0, 1], 0.0), quat_axis([0, 0, 1], 0.3), quat_axis([0, 0, 1], math.pi / 4), quat_axis([1, 0.3, 0], 0.02),
             quat_axis([1, 0.3, 0], 0.07), quat_axis([0.3, 1, 0], 0.05), quat_axis([1, 0.3, 0], 0.12), quat_axis([1, 0, 0], math.pi / 4),
             quat_mul(quat_axis([1, 0, 0], math.pi / 4), quat_axis([0, 1, 0], math.pi / 5))]
    # (a, a's quat, b, b's base quat): b is turned by each small rotation, then lowered onto a along −z
    combos = [
        ('box', UP, 'cyl', UP), ('box', UP, 'slim', UP), ('cyl', UP, 'box', UP), ('cyl', UP, 'slim', UP), ('slim', UP, 'cyl', UP),
        ('cyl', UP, 'boxmesh', UP), ('octa', UP, 'cyl', UP), ('rock', UP, 'slim', UP), ('cyl', UP, 'octa', UP),   # cap on face, face on cap
        ('box', UP, 'slim', SIDE), ('boxmesh', UP, 'cyl', SIDE), ('cyl', UP, 'slim', SIDE),                      # side on face
        ('slim', SIDE, 'box', UP), ('cyl', SIDE, 'octa', UP), ('cyl', SIDE, 'slim', UP),                         # face on side
        ('cyl', SIDE, 'slim', SIDE), ('slim', SIDE, 'cyl', quat_axis([0, 0, 1], math.pi / 2)),                   # side on side
    ]
    for ka, qa, kb, qb0 in combos:
        (ta, sa, va), (tb, sb, vb) = sh[ka], sh[kb]
        m = build(ta, tb, sa, sb, va, vb)
        d = mujoco.MjData(m)
        for q in small:
            for depth in (0.002, 0.02):
                place(m, d, qa, np.array([0.02, -0.01, 0.0]), quat_mul(q, qb0), depth, [0, 0, 1])
                emit(m, d, ta, tb, out, va, vb)


def random_cases(out, per_pair):
    rng = np.random.default_rng(20261207)
    for ka, kb in [('cylinder', 'box'), ('box', 'cylinder'), ('cylinder', 'mesh'), ('mesh', 'cylinder'), ('cylinder', 'cylinder')]:
        for i in range(per_pair):
            size = lambda: [0.05 + 0.25 * rng.random(), 0.05 + 0.25 * rng.random()]
            pick = lambda: rand_mesh(rng, int(rng.choice([6, 8, 9, 14, 30]))) if i % 3 else prism(int(rng.choice([4, 6, 8])), 0.1 + 0.1 * rng.random(), 0.05 + 0.1 * rng.random())
            sa = size() if ka == 'cylinder' else [0.1 + 0.2 * rng.random() for _ in range(3)] if ka == 'box' else None
            sb = size() if kb == 'cylinder' else [0.1 + 0.2 * rng.random() for _ in range(3)] if kb == 'box' else None
            va = pick() if ka == 'mesh' else None
            vb = pick() if kb == 'mesh' else None
            m = build(ka, kb, sa, sb, va, vb)
            d = mujoco.MjData(m)
            ga, gb = m.geom('a').id, m.geom('b').id
            scale = max(m.geom_rbound[ga], m.geom_rbound[gb])
            place(m, d, rand_quat(rng), rng.normal(size=3) * 0.05, rand_quat(rng), 0.3 * scale * rng.random() ** 2, rng.normal(size=3))
            emit(m, d, ka, kb, out, va, vb)


def main():
    assert mujoco.__version__.startswith('3.14'), mujoco.__version__
    out = [f'# MuJoCo {mujoco.__version__}: python3 native/tests/cylinder_fixture.py']
    posed(out)
    random_cases(out, int(sys.argv[1]) if len(sys.argv) > 1 else 60)
    print('\n'.join(out))


if __name__ == '__main__':
    main()
