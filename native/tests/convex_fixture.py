"""MuJoCo's contacts for random geom pairs: the reference for the convex collider
(native/include/achilles/collision/convex.hpp), read by native/tests/convex_tests.cpp.

    python3 native/tests/convex_fixture.py > native/tests/fixtures/convex_mujoco.txt

Every kind pair of sphere, capsule, ellipsoid, cylinder, box and mesh, and a plane against
cylinder, ellipsoid and mesh. Each case is one two-geom model (the plane in the world, the others
on free bodies), each geom with half the pair's margin (MuJoCo sums them), posed at random: b along a random direction
from a, at a target signed distance found with mj_geomDistance (mostly overlapping or within the
margin, some beyond it). MuJoCo's defaults: nativeccd and multiccd on, ccd_tolerance 1e-6,
ccd_iterations 35. The geoms' poses are written as MuJoCo computed them (geom_xpos/xmat), and a
mesh as MuJoCo stores it (mesh_vert in the geom frame, its hull graph), so the C++ side reads
exactly MuJoCo's inputs. Normals are turned to point from a to b.

Format: whitespace-separated tokens; per case
  case <kind_a> <kind_b> <collider> <margin> [nomulticcd]
  geom a: <size×3> <rbound> <nvert> <vert×3nvert> <ngraph> <graph×ngraph> <R×9> <p×3>
  geom b: the same
  <ncon> then per contact <dist> <normal×3> <pos×3>
<collider> is the MuJoCo function that answered (its collision table).
"""
import math
import sys

import mujoco
import numpy as np

KINDS = ['sphere', 'capsule', 'ellipsoid', 'cylinder', 'box', 'mesh']
ORDER = {'plane': 0, 'sphere': 2, 'capsule': 3, 'ellipsoid': 4, 'cylinder': 5, 'box': 6, 'mesh': 7}
ANALYTIC = {
    ('sphere', 'sphere'): 'SphereSphere', ('sphere', 'capsule'): 'SphereCapsule', ('sphere', 'cylinder'): 'SphereCylinder',
    ('sphere', 'box'): 'SphereBox', ('capsule', 'capsule'): 'CapsuleCapsule', ('capsule', 'box'): 'CapsuleBox', ('box', 'box'): 'BoxBox',
    ('plane', 'cylinder'): 'PlaneCylinder', ('plane', 'ellipsoid'): 'PlaneConvex', ('plane', 'mesh'): 'PlaneConvex',
}


def rand_quat(rng):
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


def rand_size(kind, rng):
    u = lambda: 0.1 + 0.4 * rng.random()
    return {'sphere': [u()], 'capsule': [u(), u()], 'ellipsoid': [u(), u(), u()], 'cylinder': [u(), u()], 'box': [u(), u(), u()]}.get(kind)


def rand_mesh(rng, n):
    """n points on a random ellipsoid: all on the convex hull (so MuJoCo keeps every one)."""
    p = rng.normal(size=(n, 3))
    p /= np.linalg.norm(p, axis=1)[:, None]
    return p * (0.15 + 0.35 * rng.random(3))


def geom_xml(name, kind, size, mesh):
    if kind == 'plane':
        return f'<geom name="{name}" type="plane" size="0 0 1" margin="MARGIN"/>'
    if kind == 'mesh':
        return f'<geom name="{name}" type="mesh" mesh="{mesh}" margin="MARGIN"/>'
    return f'<geom name="{name}" type="{kind}" size="{" ".join(repr(float(x)) for x in size)}" margin="MARGIN"/>'


def build(ka, kb, sa, sb, va, vb, margin, plane_pose, multiccd=True):
    assets = ''.join(f'<mesh name="m{i}" vertex="{" ".join(map(repr, v.ravel().tolist()))}"/>' for i, v in ((0, va), (1, vb)) if v is not None)
    ga = geom_xml('a', ka, sa, 'm0')
    gb = geom_xml('b', kb, sb, 'm1')
    if ka == 'plane':
        pos, quat = plane_pose
        ga = ga.replace('/>', f' pos="{" ".join(repr(float(x)) for x in pos)}" quat="{" ".join(repr(float(x)) for x in quat)}"/>')
        world = ga + f'<body name="B"><freejoint/>{gb}</body>'
    else:
        world = f'<body name="A"><freejoint/>{ga}</body><body name="B"><freejoint/>{gb}</body>'
    # the pair's margin is the sum of the geoms' (mj_assignMargin): half on each
    option = '' if multiccd else '<option><flag multiccd="disable"/></option>'
    xml = f'<mujoco>{option}<asset>{assets}</asset><worldbody>{world}</worldbody></mujoco>'.replace('MARGIN', repr(margin / 2))
    return mujoco.MjModel.from_xml_string(xml)


def set_free(m, d, body, pos, quat):
    adr = m.jnt_qposadr[m.body_jntadr[m.body(body).id]]
    d.qpos[adr:adr + 3] = pos
    d.qpos[adr + 3:adr + 7] = quat


def signed_distance(m, d, ga, gb):
    mujoco.mj_kinematics(m, d)
    fromto = np.zeros(6)
    return mujoco.mj_geomDistance(m, d, ga, gb, 10.0, fromto)


def geom_tokens(m, d, g):
    t = [repr(float(x)) for x in m.geom_size[g]] + [repr(float(m.geom_rbound[g]))]
    if m.geom_type[g] == mujoco.mjtGeom.mjGEOM_MESH:
        mid = m.geom_dataid[g]
        adr, n = m.mesh_vertadr[mid], m.mesh_vertnum[mid]
        t += [str(n)] + [repr(float(x)) for x in m.mesh_vert[adr:adr + n].ravel()]
        gadr = m.mesh_graphadr[mid]
        if gadr < 0:
            t += ['0']
        else:
            nv, nf = m.mesh_graph[gadr], m.mesh_graph[gadr + 1]
            ng = 2 + 3 * nv + 6 * nf
            t += [str(ng)] + [str(int(x)) for x in m.mesh_graph[gadr:gadr + ng]]
    else:
        t += ['0', '0']
    t += [repr(float(x)) for x in d.geom_xmat[g]] + [repr(float(x)) for x in d.geom_xpos[g]]
    return t


def one_case(ka, kb, rng, out, far, multiccd=True):
    margin = float([0.0, 0.0, 0.02, 0.05][rng.integers(4)])
    sa, sb = rand_size(ka, rng), rand_size(kb, rng)
    va = rand_mesh(rng, int(rng.choice([6, 8, 9, 14]))) if ka == 'mesh' else None
    vb = rand_mesh(rng, int(rng.choice([6, 8, 9, 14]))) if kb == 'mesh' else None
    plane_pose = (rng.normal(size=3) * 0.2, rand_quat(rng))
    m = build(ka, kb, sa, sb, va, vb, margin, plane_pose, multiccd)
    d = mujoco.MjData(m)
    ga, gb = m.geom('a').id, m.geom('b').id
    qa, qb = rand_quat(rng), rand_quat(rng)
    u = rng.normal(size=3)
    u /= np.linalg.norm(u)
    if ka == 'plane':
        mujoco.mj_kinematics(m, d)
        u = d.geom_xmat[ga].reshape(3, 3)[:, 2]  # along the plane's normal
    pa = np.zeros(3) if ka == 'plane' else rng.normal(size=3) * 0.1
    scale = max(m.geom_rbound[g] for g in (ga, gb) if m.geom_type[g] != mujoco.mjtGeom.mjGEOM_PLANE)
    target = margin + 0.05 * (1 + rng.random()) * scale if far else (margin - 0.3 * scale * rng.random() ** 2)
    t = (0 if ka == 'plane' else m.geom_rbound[ga]) + m.geom_rbound[gb]
    base = plane_pose[0] if ka == 'plane' else pa
    for _ in range(30):  # secant-free fixed point: the distance moves at most 1:1 with t
        if ka != 'plane':
            set_free(m, d, 'A', pa, qa)
        set_free(m, d, 'B', base + t * u, qb)
        s = signed_distance(m, d, ga, gb)
        if abs(s - target) < 1e-4 * scale:
            break
        t -= (s - target)
    emit(m, d, ka, kb, margin, out)


def emit(m, d, ka, kb, margin, out, extra=lambda m, g: []):
    """MuJoCo's contacts of geoms a and b at their current poses, as one case (multiccd off: the
    header line ends in `nomulticcd`); extra(m, g): more tokens on geom g's line."""
    ga, gb = m.geom('a').id, m.geom('b').id
    mujoco.mj_kinematics(m, d)
    mujoco.mj_collision(m, d)
    cons = []
    for c in d.contact[:d.ncon]:
        flip = -1.0 if c.geom[0] != ga else 1.0
        cons.append([float(c.dist)] + (flip * c.frame[:3]).tolist() + c.pos.tolist())
    lo, hi = sorted((ka, kb), key=lambda k: ORDER[k])
    collider = ANALYTIC.get((lo, hi), 'Convex')
    multiccd = not (m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_MULTICCD)
    out.append(' '.join(['case', ka, kb, collider, repr(margin)] + ([] if multiccd else ['nomulticcd'])))
    out.append(' '.join(geom_tokens(m, d, ga) + extra(m, ga)))
    out.append(' '.join(geom_tokens(m, d, gb) + extra(m, gb)))
    out.append(str(len(cons)) + ''.join('\n' + ' '.join(map(repr, c)) for c in cons))


BOX_MESH = np.array([[x, y, z] for x in (-0.2, 0.2) for y in (-0.15, 0.15) for z in (-0.1, 0.1)])


def posed_cases(out):
    """Faceted pairs at zero margin with multiccd disabled (MuJoCo 3.14 then gives the first GJK/EPA
    contact only, no face clipping): a face resting on a face, an edge on a face, a tilted corner, for
    box, cylinder and mesh (a box-shaped one) in every pairing."""
    shapes = {'box': ([0.2, 0.15, 0.1], None), 'cylinder': ([0.18, 0.1], None), 'mesh': (None, BOX_MESH)}
    poses = [  # b above a: (height, quat of b); face on face, edge on face, corner on face
        (0.195, [1, 0, 0, 0]),
        (0.2, [math.cos(math.pi / 8), math.sin(math.pi / 8), 0, 0]),
        (0.22, [0.9, 0.3, 0.2, 0.1]),
    ]
    for ka, kb in [('box', 'cylinder'), ('cylinder', 'box'), ('box', 'mesh'), ('cylinder', 'cylinder'), ('cylinder', 'mesh'), ('mesh', 'mesh'), ('mesh', 'box')]:
        (sa, va), (sb, vb) = shapes[ka], shapes[kb]
        m = build(ka, kb, sa, sb, va, vb, 0.0, None, multiccd=False)
        d = mujoco.MjData(m)
        for h, q in poses:
            q = np.array(q, dtype=float)
            set_free(m, d, 'A', np.array([0.01, -0.02, 0.0]), np.array([1.0, 0, 0, 0]))
            set_free(m, d, 'B', np.array([0.03, 0.01, h]), q / np.linalg.norm(q))
            emit(m, d, ka, kb, 0.0, out)


def random_nomulticcd(rng, out, per_pair):
    """Random pairs of MuJoCo's mjc_Convex with multiccd disabled: the faceted ones at zero margin
    (no face clipping then), the others at any margin (no perturbed re-runs)."""
    pairs = [('box', 'cylinder'), ('box', 'mesh'), ('cylinder', 'cylinder'), ('cylinder', 'mesh'), ('mesh', 'mesh'), ('capsule', 'cylinder'), ('capsule', 'mesh')]
    for ka, kb in pairs:
        for i in range(per_pair):
            a, b = (kb, ka) if i % 3 == 2 else (ka, kb)
            one_case(a, b, rng, out, far=(i % 4 == 3), multiccd=False)


def main():
    assert mujoco.__version__.startswith('3.14'), mujoco.__version__
    rng = np.random.default_rng(20261202)
    out = [f'# MuJoCo {mujoco.__version__}: python3 native/tests/convex_fixture.py']
    pairs = [(a, b) for i, a in enumerate(KINDS) for b in KINDS[i:]] + [('plane', k) for k in ('cylinder', 'ellipsoid', 'mesh')]
    per_pair = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    for ka, kb in pairs:
        for i in range(per_pair):
            # mostly in contact (overlap or within the margin), every fourth beyond the margin;
            # a third of the non-plane pairs given in the reverse of MuJoCo's order
            a, b = (kb, ka) if (ka != 'plane' and ka != kb and i % 3 == 2) else (ka, kb)
            one_case(a, b, rng, out, far=(i % 4 == 3))
    # <flag multiccd="disable"/>: after the default cases, from a generator of its own (the cases
    # above stay as they were)
    posed_cases(out)
    random_nomulticcd(np.random.default_rng(20261203), out, per_pair)
    print('\n'.join(out))


if __name__ == '__main__':
    main()
