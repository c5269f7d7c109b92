"""achilles.put_model(mujoco.MjModel) against achilles.compile_model(path) (the TypeScript importer),
field for field, on every MJCF fixture, every Gymnasium v5 MuJoCo asset and every bundled scene
exported to MJCF; the same refusals; stepping the two documents; and qacc against MuJoCo's mj_forward
where the two documents say one thing two ways (a damping ratio resolved by MuJoCo's compiler here,
by the engine there).

Names, integers, kinds and strings must be equal. Floats: each number list (a vector, a quaternion,
an inertia) is compared relative to its largest entry, |a_i − b_i| <= BAR · max_j(|a_j|, |b_j|),
within the bar of its field (below). The differences are f64 round-off between MuJoCo's compiler
and ours: the inertia is MuJoCo's mjuu_eig3 principal moments and axes turned back (R·diag(I)·Rᵀ)
where our importer keeps the summed tensor; quaternions from euler/axisangle/fromto are composed in
another order; a mesh's frame is MuJoCo's eigen-decomposition against ours."""

from __future__ import annotations

import copy
import glob
import math
import os
import re
import subprocess

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built (python3 -m pip install ./python)", allow_module_level=True)

from conftest import REPO  # noqa: E402

from achilles._compile import find_cli  # noqa: E402

# the importer's fixtures, with the MuJoCo sensor fixtures (import/sensors/: every sensor type followed)
FIXTURES = sorted(glob.glob(str(REPO / "test" / "fixtures" / "import" / "*.xml"))) + sorted(
    glob.glob(str(REPO / "test" / "fixtures" / "import" / "sensors" / "*.xml"))
)
MESH_ARM = str(REPO / "scenes" / "mesh-arm" / "mesh-arm.xml")
try:
    import gymnasium

    GYM_DIR = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets")
    GYM = sorted(glob.glob(os.path.join(GYM_DIR, "*.xml")))
except ImportError:  # pragma: no cover - gymnasium is installed where these tests run
    GYM_DIR, GYM = "", []
SCENES = sorted(glob.glob(str(REPO / "scenes" / "*.arow")))

# The bar per field (relative to the largest entry of its list), about 3x or more above the largest
# difference measured over all the models above (in the comment, with the model; fields not listed
# were equal to the bit in every model and have bar 0).
BAR = {
    # 1.72e-14 (mjcf-fluid.xml: MuJoCo's eig3 principal moments and axes turned back, R·diag(I)·Rᵀ)
    "native.bodies[].inertia[]": 1e-13,
    # 1.33e-15 (mjcf-include.xml: a mesh's principal axes, MuJoCo's eigen-decomposition against ours)
    "native.shapes[].quat[]": 5e-15,
    # 4.56e-16 (mjcf-qpos0.xml: mj_setConst's body2 anchor at qpos0 against compile.ts's)
    "native.equalities[].anchor2[]": 2e-15,
    # 1.85e-16 (mjcf-replicate.xml, mjcf-mesh-inertia.xml, inverted_pendulum.xml: frames composed,
    # fromto mid-points and half-lengths, a mesh's centre of mass)
    "native.shapes[].pos[]": 1e-15,
    "native.bodies[].com[]": 1e-15,
    "native.shapes[].halfExtents[]": 1e-15,
    # 1.76e-16 (mjcf-frame.xml: positions through rotated <frame>s)
    "native.bodies[].pos[]": 1e-15,
    # 1.67e-16 (mesh-arm.xml, mjcf-orientations.xml, mjcf-fluid.xml, mjcf-equality.xml: euler, axisangle,
    # xyaxes and zaxis made quaternions in another order of operations)
    "native.bodies[].q0[]": 1e-15,
    "native.bodies[].quat[]": 1e-15,
    "native.fluid.bodies[].ellipsoids[].quat[]": 1e-15,
    "native.fluid.bodies[].box.quat[]": 1e-15,
    "native.equalities[].quat1[]": 1e-15,
    "mujoco.sites[].quat[]": 1e-15,
    # 1.20e-16 (mjcf-sensors.xml: a sensor's site or geom quat, the same round-off as the sites' above)
    "native.mjcfSensors[].obj.quat[]": 1e-15,
    "native.mjcfSensors[].ref.quat[]": 1e-15,
    "mjcfSensors[].obj.quat[]": 1e-15,
    "mjcfSensors[].ref.quat[]": 1e-15,
    # 1.42e-16 (mjcf-ball-limit.xml: a mass summed from geoms in another order)
    "native.bodies[].mass": 1e-15,
    # 1.06e-16, 8.33e-17, 2.08e-17 (mjcf-equality.xml, mjcf-replicate.xml, mjcf-sites.xml)
    "native.equalities[].anchor1[]": 1e-15,
    "mujoco.bodies[].offset[]": 1e-15,
    "mujoco.sites[].pos[]": 1e-15,
}
MJ_MINIMP, MJ_MAXIMP = 1e-4, 0.9999  # MuJoCo's solimp clamp (the engine's too: contact/tables.hpp)
DEFAULT_SOLREF = [0.02, 1.0]
DEFAULT_SOLIMP = [0.9, 0.95, 0.001, 0.5, 2.0]


def _env():
    return dict(os.environ)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """Each bundled .arow scene exported to MJCF (achilles export --mjcf), in a temporary folder."""
    cli = find_cli()
    if cli is None:
        pytest.skip("no achilles CLI to export the bundled scenes with")
    out = tmp_path_factory.mktemp("exported")
    files = []
    for scene in SCENES:
        dest = out / (os.path.basename(scene)[: -len(".arow")] + ".xml")
        r = subprocess.run(cli + ["export", scene, "--mjcf", "--out", str(dest)], capture_output=True, text=True, check=False)
        assert r.returncode == 0, r.stderr
        files.append(str(dest))
    return files


# ---- the comparison ----------------------------------------------------------------------------


def _field(path: str) -> str:
    return re.sub(r"\[\d+\]", "[]", path)


def _compare(a, b, path: str, worst: dict, mism: list) -> None:
    """a (put_model) against b (compile_model): `mism` gets every difference that is not float round-off
    within its bar; `worst` the largest relative difference per field."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                mism.append(f"{path}.{k}: only in {'put_model' if k in a else 'compile_model'}")
            else:
                _compare(a[k], b[k], f"{path}.{k}", worst, mism)
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            mism.append(f"{path}: {len(a)} entries against {len(b)}")
            return
        if a and all(_is_num(x) for x in a + b):
            scale = max(max(abs(x) for x in a), max(abs(x) for x in b), 1e-300)
            for i, (x, y) in enumerate(zip(a, b)):
                _num(x, y, f"{path}[{i}]", scale, worst, mism)
            return
        for i, (x, y) in enumerate(zip(a, b)):
            _compare(x, y, f"{path}[{i}]", worst, mism)
        return
    if _is_num(a) and _is_num(b):
        _num(a, b, path, max(abs(a), abs(b), 1e-300), worst, mism)
    elif a != b or type(a) is not type(b):
        mism.append(f"{path}: {a!r} against {b!r}")


def _is_num(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _num(x, y, path, scale, worst, mism) -> None:
    if x == y:
        return
    f = _field(path)
    rel = abs(x - y) / scale
    worst[f] = max(worst.get(f, 0.0), rel)
    if not rel <= BAR.get(f, 0.0):
        mism.append(f"{path}: {x!r} against {y!r} (relative {rel:.3g}, bar {BAR.get(f, 0.0):.3g})")


def _faces_as_polygons(vert: list, faces: list) -> set:
    """A hull's triangles as its polygons: per plane (outward normal and offset, rounded), the set of
    vertices on it; the triangulation of a face of more than three vertices is qhull's in MuJoCo and
    our quickhull's in the importer, the same polygons either way."""
    V = np.asarray(vert).reshape(-1, 3)
    out: dict = {}
    for k in range(0, len(faces), 3):
        i, j, l = faces[k : k + 3]
        n = np.cross(V[j] - V[i], V[l] - V[i])
        n = n / np.linalg.norm(n)
        key = tuple(np.round(np.r_[n, n @ V[i]], 9) + 0.0)
        out.setdefault(key, set()).update((i, j, l))
    return {(k, frozenset(v)) for k, v in out.items()}


def _normalize(put: dict, comp: dict, m) -> None:
    """The few things the two documents say in different words (each documented where it is done)."""
    for doc in (put, comp):
        for s in doc["native"]["shapes"]:
            # absent: MuJoCo's default (the importer gives them only where the MJCF does)
            s.setdefault("solref", list(DEFAULT_SOLREF))
            s.setdefault("solimp", list(DEFAULT_SOLIMP))
        for holder in [s for s in doc["native"]["shapes"]] + [b["limit"] for b in doc["native"]["bodies"] if "limit" in b]:
            # MuJoCo's compiler stores solimp's dmin, dmax clamped to [mjMINIMP, mjMAXIMP]; both MuJoCo's
            # step and the engine clamp there, so an MJCF 0 and MuJoCo's 1e-4 are the same model
            holder["solimp"] = [min(max(x, MJ_MINIMP), MJ_MAXIMP) if i < 2 else x for i, x in enumerate(holder["solimp"])]
    # contact excludes: MuJoCo's exclude_signature keeps each pair in body order, the importer in the
    # file's; the engine's filter takes each pair unordered (collision/pair_filter.hpp sorts them)
    for doc in (put, comp):
        doc["native"]["excludes"] = [sorted(e) for e in doc["native"]["excludes"]]
    # faces: the same polygons (above)
    for a, b in zip(put["native"]["shapes"], comp["native"]["shapes"]):
        if "faces" in a and "faces" in b and a.get("vertices") == b.get("vertices"):
            if _faces_as_polygons(a["vertices"], a["faces"]) == _faces_as_polygons(b["vertices"], b["faces"]):
                b["faces"] = a["faces"]
    # A springdamper is resolved by MuJoCo's compiler into jnt_stiffness and dof_damping at qpos0, by the
    # engine when it loads the importer's document: put_model's are MuJoCo's numbers (checked here); the
    # motion is checked against mj_forward by test_resolved_at_qpos0_moves_as_mujoco.
    for pb, cb in zip(put["native"]["bodies"], comp["native"]["bodies"]):
        if "springdamper" in cb:
            cb["stiffness"], cb["damping"], cb["springref"] = pb["stiffness"], pb["damping"], pb["springref"]
            del cb["springdamper"]
    # A position servo's dampratio (biasprm[2] > 0 with gainprm[0] = −biasprm[1]) is likewise −kv made by
    # MuJoCo's mj_setConst in the MjModel; the importer keeps the ratio for the engine to resolve.
    for a, (pa, ca) in enumerate(zip(put["native"]["actuators"], comp["native"]["actuators"])):
        g = ca.get("general")
        if g and g["biastype"] == "affine" and g["gainprm"][0] == -g["biasprm"][1] and g["biasprm"][2] > 0:
            g["biasprm"][2] = float(m.actuator_biasprm[a, 2])
            from achilles._put_constraints import _own_kind

            own = _own_kind(g)
            if own:  # now a plain servo, as put_model reads it
                ca["kind"], ca["kp"], ca["kv"] = own
                del ca["general"]
    # The model name: MuJoCo names a model without one "MuJoCo Model", the importer after the file
    if put["name"] == "MuJoCo Model":
        put["name"] = comp["name"]


def _pair(path: str):
    comp = achilles.compile_model(path)
    m = mujoco.MjModel.from_xml_path(path)
    return achilles.put_model(m), comp, m


def _check(path: str) -> dict:
    put, comp, m = _pair(path)
    _normalize(put, comp, m)
    worst: dict = {}
    mism: list = []
    for key in ("name", "native", "world", "names", "mujoco", "mjcfSensors", "mjcfSensorsDisabled"):
        _compare(put.get(key), comp.get(key), key, worst, mism)
    assert not mism, f"{os.path.basename(path)}: put_model differs from compile_model:\n  " + "\n  ".join(mism[:25])
    return worst


def _compiles(path: str) -> bool:
    try:
        achilles.compile_model(path)
        return True
    except achilles.ModelError:
        return False


ALL = [pytest.param(f, id=os.path.basename(f)) for f in FIXTURES + [MESH_ARM]] + [pytest.param(f, id="gym-" + os.path.basename(f)) for f in GYM]


@pytest.mark.parametrize("path", ALL)
def test_put_model_equals_compile_model(path):
    """Equal field for field; a file the importer refuses, put_model refuses too (skipped where MuJoCo
    itself refuses it, with MuJoCo's reason)."""
    if not _compiles(path):
        try:
            m = mujoco.MjModel.from_xml_path(path)
        except ValueError as e:
            pytest.skip(f"achilles compile and MuJoCo both refuse it: {e}")
        with pytest.raises(ValueError):
            achilles.put_model(m)
        return
    _check(path)


def test_exported_scenes_equal(exported):
    for path in exported:
        _check(path)


def test_a_dropped_armature_is_caught(monkeypatch):
    """The planted check: put_model made to drop the joints' armature fails the comparison (and the
    stepping would too: shown by hand, 28 of the tests fail so)."""
    import achilles._put_bodies as bodies

    passive = bodies._passive

    def dropping(m, j, kind, link, disabled):
        passive(m, j, kind, link, disabled)
        link["armature"] = 0.0

    monkeypatch.setattr(bodies, "_passive", dropping)
    with pytest.raises(AssertionError, match=r"native.bodies\[0\].armature: 0.0 against 0.01"):
        _check(str(REPO / "test" / "fixtures" / "import" / "mjcf-joint-params.xml"))


def test_every_fixture_and_asset_is_compared():
    """The comparison sees the fixtures and the Gymnasium assets (none lost to a wrong glob)."""
    assert len(FIXTURES) >= 30 and len(GYM) >= 10


# ---- refusals ----------------------------------------------------------------------------------

BODY = '<body name="b"><joint name="j" type="hinge"/><geom name="g" size="0.1"/>{}</body>'
REFUSED = [
    # (MJCF that MuJoCo compiles, what put_model's ValueError says)
    ('<worldbody><site name="w" pos="1 0 0"/><body name="b"><joint name="j"/><geom size=".1"/><site name="s"/></body></worldbody>'
     '<tendon><spatial name="x"><site site="s"/><site site="w"/></spatial></tendon>', "tendon 'x' (wrap_type[0] = mjWRAP_SITE): spatial tendons are not followed"),
    ('<worldbody><body name="b"><joint name="j"/><geom size=".1"/><site name="s"/></body></worldbody>'
     '<actuator><motor name="a" site="s"/></actuator>', "trntype = mjTRN_SITE"),
    ('<worldbody><body name="b"><freejoint name="f"/><geom size=".1"/></body></worldbody><actuator><motor name="a" joint="f"/></actuator>', "mjJNT_FREE"),
    ('<worldbody><body name="b"><joint name="j"/><geom name="g1" size=".1"/></body><geom name="g2" type="plane" size="1 1 1"/></worldbody>'
     '<contact><pair geom1="g1" geom2="g2"/></contact>', "mjModel.npair = 1"),
    ('<worldbody><body name="b" mocap="true"><geom size=".1"/></body><body name="c"><joint/><geom size=".1"/></body></worldbody>', "mjModel.nmocap = 1"),
    ('<worldbody><body name="b" gravcomp="1"><joint/><geom size=".1"/></body></worldbody>', "gravcomp = 1"),
    ('<asset><hfield name="h" nrow="2" ncol="2" size="1 1 1 1"/></asset><worldbody><geom type="hfield" hfield="h"/><body><joint/><geom size=".1"/></body></worldbody>', "mjGEOM_HFIELD"),
    ('<worldbody><body name="b"><joint name="j"/><geom size=".1"/></body><body name="c"><joint name="k"/><geom size=".1"/></body></worldbody>'
     '<tendon><fixed name="t"><joint joint="j" coef="1"/></fixed></tendon><equality><tendon tendon1="t"/></equality>', "mjEQ_TENDON"),
    ('<option><flag warmstart="disable"/></option><worldbody><body><joint/><geom size=".1"/></body></worldbody>', "mjDSBL_WARMSTART"),
    ('<option><flag override="enable"/></option><worldbody><body><joint/><geom size=".1"/></body></worldbody>', "mjENBL_OVERRIDE"),
    ('<worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody><actuator><muscle joint="j" name="m" lengthrange="0.5 1.5"/></actuator>', "mjDYN_MUSCLE"),
    ('<worldbody><body name="b"><joint name="j"/><geom size=".1"/></body></worldbody><actuator><motor name="a" joint="j" delay="0.01" nsample="2"/></actuator>', "delay"),
    ('<worldbody><body name="b"><joint name="j" frictionloss="1" solreffriction="0.05 1"/><geom size=".1"/></body></worldbody>', "dof_solref"),
    ('<worldbody><body name="b"><joint name="j"/><geom size=".1" adhesion="1"/></body></worldbody>', "adhesion"),
    ('<deformable><flex name="f" dim="1" body="world world" vertex="0 0 0 1 0 0" element="0 1"/></deformable><worldbody><body><joint/><geom size=".1"/></body></worldbody>', "mjModel.nflex = 1: flexes are not simulated by achilles"),
]


@pytest.mark.parametrize("xml,message", REFUSED, ids=[r[1][:40] for r in REFUSED])
def test_refused_alike(tmp_path, xml, message):
    """What the importer refuses, put_model refuses too, by MuJoCo's field (MuJoCo compiles each)."""
    text = f'<mujoco model="refused">{xml}</mujoco>'
    path = tmp_path / "m.xml"
    path.write_text(text)
    try:
        m = mujoco.MjModel.from_xml_path(str(path))
    except ValueError as e:
        pytest.skip(f"MuJoCo refuses it too: {e}")
    with pytest.raises(achilles.ModelError):
        achilles.compile_model(str(path))
    with pytest.raises(ValueError, match=re.escape(message)):
        achilles.put_model(m)


# MuJoCo's sensors the importer refuses (mjcf/sensor.ts, sensors.ts), each compiled by MuJoCo
SENSOR_WORLD = (
    '<worldbody><site name="w" pos="1 0 0"/><body name="b"><joint name="j"/><geom size=".1"/><site name="s"/></body>'
    '<body name="e"><freejoint/><geom size=".1"/></body><body name="z" pos="0 2 0"/></worldbody>'
)
SENSOR_REFUSED = [
    ('<sensor><rangefinder name="x" site="s"/></sensor>', "sensor 'x' (sensor_type = mjSENS_RANGEFINDER): the engine does not compute it"),
    ('<sensor><clock name="x"/></sensor>', "sensor 'x' (sensor_type = mjSENS_CLOCK)"),
    ('<sensor><force name="x" site="w"/></sensor>', "sensor 'x' (force): site_bodyid = 0, a site of the world body"),
    ('<equality><connect body1="e" anchor="0 0 0"/></equality><sensor><torque name="x" site="s"/></sensor>', "sensor 'x' (torque) in a model with connect or weld constraints"),
    ('<sensor><subtreecom name="x" body="z"/></sensor>', "sensor 'x' (subtreecom): body 3's subtree has no mass"),
    ('<sensor><jointpos name="x" joint="j" user="1 2"/></sensor>', "sensor 'x' (jointpos): sensor_user = [1.0, 2.0]"),
    ('<sensor><jointpos name="x" joint="j" delay="0.01" nsample="3"/></sensor>', "sensor 'x' (jointpos): sensor_delay = 0.01"),
]


@pytest.mark.parametrize("xml,message", SENSOR_REFUSED, ids=[r[1][:40] for r in SENSOR_REFUSED])
def test_sensor_refused_alike(tmp_path, xml, message):
    """A sensor the importer refuses at its line, put_model refuses by MuJoCo's sensor_* field."""
    test_refused_alike(tmp_path, SENSOR_WORLD + xml, message)


def test_disabled_sensors_as_compile_model(tmp_path):
    """<flag sensor="disable">: both documents say mjcfSensorsDisabled (sensordata stays 0, mjDSBL_SENSOR).
    (Without the massless body z: its body_ipos, which moves nothing, is MuJoCo's body pos, the importer's 0.)"""
    path = tmp_path / "disabled.xml"
    world = SENSOR_WORLD.replace('<body name="z" pos="0 2 0"/>', "")
    path.write_text(
        f'<mujoco model="disabled"><option><flag sensor="disable"/></option>{world}'
        '<sensor><jointpos name="x" joint="j"/><framepos name="p" objtype="site" objname="s"/></sensor></mujoco>'
    )
    _check(str(path))
    put, _, _ = _pair(str(path))
    assert put["mjcfSensorsDisabled"] and put["native"]["mjcfSensorsDisabled"]


def test_limited_hull_refused_alike(tmp_path):
    """<mesh maxhullvert>: MuJoCo keeps a hull of fewer vertices, which the importer refuses; put_model
    finds mesh vertices outside mesh_graph's faces and refuses it too."""
    text = open(MESH_ARM).read()
    text = text.replace('<compiler angle="radian"/>', f'<compiler angle="radian" meshdir="{os.path.dirname(MESH_ARM)}"/>')
    text = text.replace('<mesh name="hand" file="hand.obj"/>', '<mesh name="hand" file="hand.obj" maxhullvert="8"/>')
    assert 'maxhullvert="8"' in text and "meshdir" in text
    path = tmp_path / "limited-hull.xml"
    path.write_text(text)
    with pytest.raises(achilles.ModelError, match="maxhullvert"):
        achilles.compile_model(str(path))
    with pytest.raises(ValueError, match=re.escape("mesh 'hand' (mesh_graph): its convex hull leaves mesh vertices outside")):
        achilles.put_model(mujoco.MjModel.from_xml_path(str(path)))


def test_what_the_importer_drops_with_a_note_is_refused():
    """The importer drops a ball joint's stiffness with a 'dropped' note (achilles import lists it);
    put_model has no notes to give, so it refuses it rather than drop it unsaid."""
    m = mujoco.MjModel.from_xml_string('<mujoco><worldbody><body name="b"><joint name="j" type="ball" stiffness="2"/><geom size=".1"/></body></worldbody></mujoco>')
    with pytest.raises(ValueError, match=re.escape("joint 'j' (type mjJNT_BALL) stiffness = 2.0: stiffness is followed on hinge and slide joints only")):
        achilles.put_model(m)


def test_not_a_model():
    with pytest.raises(ValueError, match="mujoco.MjModel"):
        achilles.put_model("hopper.xml")


# ---- stepping ----------------------------------------------------------------------------------


def _run(doc: dict, steps: int = 200) -> tuple[np.ndarray, np.ndarray]:
    b = achilles.Batch(model=doc, copies=4, precision="f64")
    rng = np.random.default_rng(1)
    for _ in range(steps):
        if b.ctrl.shape[0]:
            b.ctrl[:] = rng.uniform(-1, 1, b.ctrl.shape)
        b.step(1)
    return b.q.copy(), b.v.copy()


def _with_their_roundoff(put: dict, comp: dict) -> dict:
    """put_model's document with each float that differs from compile_model's (within its bar: checked
    by test_put_model_equals_compile_model) replaced by compile_model's; integers, kinds and the hull's
    triangles stay put_model's."""
    out = copy.deepcopy(put)

    def walk(p, c):
        items = p.items() if isinstance(p, dict) else enumerate(p)
        for k, v in list(items):
            if isinstance(v, (dict, list)):
                walk(v, c[k])
            elif isinstance(v, float) and v != c[k]:
                p[k] = c[k]

    walk(out["native"], comp["native"])
    return out


STEPPED = [("hopper.xml", True), ("ant.xml", True), ("humanoid.xml", False), ("mesh-arm", False)]


@pytest.mark.parametrize("name,bitwise", STEPPED, ids=[s[0] for s in STEPPED])
def test_steps_as_compile_model(name, bitwise):
    """Hopper and ant: the documents are equal to the bit, and so are 200 steps (random controls, 4
    robots, f64). Humanoid and mesh-arm: MuJoCo's compiled inertia (eig3 turned back) and mesh frames
    differ from ours by round-off (≤ 6.7e-16 relative, test above), and the steps by as little (measured
    1.1e-13 and 1.4e-12 in v after 200 steps); with those floats taken from compile_model's document,
    the steps are equal to the bit (MuJoCo's hull triangles kept), so nothing else differs."""
    path = MESH_ARM if name == "mesh-arm" else os.path.join(GYM_DIR, name)
    if not os.path.exists(path):
        pytest.skip(f"{path} is not installed")
    put, comp, _ = _pair(path)
    q0, v0 = _run(comp)
    q1, v1 = _run(put)
    if bitwise:
        assert q0.tobytes() == q1.tobytes() and v0.tobytes() == v1.tobytes()
    else:
        np.testing.assert_allclose(q1, q0, rtol=0, atol=1e-12)
        np.testing.assert_allclose(v1, v0, rtol=0, atol=1e-10)
    q2, v2 = _run(_with_their_roundoff(put, comp))
    assert q0.tobytes() == q2.tobytes() and v0.tobytes() == v2.tobytes()


# ---- what MuJoCo resolved against what the engine resolves -----------------------------------------

RESOLVED = ["mjcf-springdamper.xml", "mjcf-qpos0.xml", "mjcf-actuator-tendon.xml", "mjcf-actuator-tendon-chain.xml", "mjcf-general-servos.xml"]


@pytest.mark.parametrize("name", RESOLVED)
def test_resolved_at_qpos0_moves_as_mujoco(name):
    """A springdamper and a servo's dampratio: MuJoCo's compiler resolves them into the MjModel (what
    put_model reads), the engine resolves the importer's document at load. Both documents give MuJoCo's
    qacc (mj_forward) at random states with random controls, to f64 round-off."""
    path = str(REPO / "test" / "fixtures" / "import" / name)
    put, comp, m = _pair(path)
    d = mujoco.MjData(m)
    rng = np.random.default_rng(3)
    batches = [achilles.Batch(model=doc, copies=1, precision="f64") for doc in (put, comp)]
    worst = [0.0, 0.0]
    for _ in range(5):
        mujoco.mj_resetData(m, d)
        d.qpos[:] = m.qpos0
        for j in range(m.njnt):  # hinges and slides moved (quaternions stay unit)
            if m.jnt_type[j] in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE):
                d.qpos[m.jnt_qposadr[j]] += rng.normal(0, 0.2)
        d.qvel[:] = rng.normal(0, 0.5, m.nv)
        d.ctrl[:] = rng.uniform(-1, 1, m.nu)
        mujoco.mj_forward(m, d)
        scale = max(1.0, float(np.abs(d.qacc).max()))
        for k, b in enumerate(batches):
            b.q[:, 0] = d.qpos
            b.v[:, 0] = d.qvel
            if m.na:
                b.act[:, 0] = d.act
            b.ctrl[:, 0] = d.ctrl
            b.forward()
            worst[k] = max(worst[k], float(np.abs(b.qacc[:, 0] - d.qacc).max()) / scale)
    # measured: 4.4e-14 relative at most (mjcf-qpos0.xml), both documents alike
    assert worst[0] <= 1e-12 and worst[1] <= 1e-12, f"qacc against mj_forward, relative: put_model {worst[0]:.3g}, compile_model {worst[1]:.3g}"


# ---- keyframes ---------------------------------------------------------------------------------

KEYED = [f for f in FIXTURES if "<key" in open(f).read()]


@pytest.mark.parametrize("path", KEYED, ids=[os.path.basename(f) for f in KEYED])
def test_keyframe_as_compile_keyframe(path):
    """put_model(m, keyframe=k) starts where `achilles compile --keyframe k` does (mj_resetDataKeyframe)."""
    import json

    from achilles._compile import _run_cli

    cli = find_cli()
    if cli is None:
        pytest.skip("no achilles CLI to compile the keyframes with")
    m = mujoco.MjModel.from_xml_path(path)
    for k in range(m.nkey):
        comp = json.loads(_run_cli(cli, path, ["--keyframe", str(k)]))
        put = achilles.put_model(m, keyframe=k)
        _normalize(put, comp, m)
        worst: dict = {}
        mism: list = []
        _compare(put["native"]["bodies"], comp["native"]["bodies"], "native.bodies", worst, mism)
        assert not mism, f"{os.path.basename(path)} key {k}:\n  " + "\n  ".join(mism[:25])
    with pytest.raises(ValueError, match="not one of the model's"):
        achilles.put_model(m, keyframe=m.nkey)


# ---- a model made with MjSpec, never written as XML -------------------------------------------------


def _spec_arm():
    """A three-link arm on a plane built with MjSpec: rotated bodies, a body with a hinge and a slide (a
    chain of two links here) with a ref, armature, damping, limits, capsules by fromto, motors."""
    spec = mujoco.MjSpec()
    spec.modelname = "spec-arm"
    spec.option.timestep = 0.001
    spec.worldbody.add_geom(name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0, 0, 1])
    parent = spec.worldbody
    for k in range(3):
        b = parent.add_body(name=f"link{k}", pos=[0, 0, 0.5] if k == 0 else [0.3, 0, 0], quat=[math.cos(0.4), 0, math.sin(0.4), 0])
        b.add_joint(name=f"hinge{k}", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 1, 0], armature=0.02, damping=0.1, range=[-1, 1], limited=mujoco.mjtLimited.mjLIMITED_TRUE)
        if k == 1:
            b.add_joint(name="slide1", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[1, 0, 0], pos=[0.05, 0, 0], ref=0.02, stiffness=30)
        b.add_geom(name=f"g{k}", type=mujoco.mjtGeom.mjGEOM_CAPSULE, fromto=[0, 0, 0, 0.3, 0, 0], size=[0.04, 0, 0])
        parent = b
    for k in range(3):
        a = spec.add_actuator(name=f"m{k}", target=f"hinge{k}", trntype=mujoco.mjtTrn.mjTRN_JOINT)
        a.gear[0] = 20
        a.ctrlrange = [-1, 1]
        a.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    return spec.compile()


def test_mjspec_model_moves_as_mujoco():
    """The point of put_model: a model that never was a file. Its qacc is MuJoCo's (mj_forward) at
    random states and controls, contacts with the plane and joint limits included, to round-off."""
    m = _spec_arm()
    doc = achilles.put_model(m)
    assert doc["name"] == "spec-arm" and doc["names"]["bodies"] == ["hinge0", "hinge1", "slide1", "hinge2"]
    assert [b["link"] for b in doc["mujoco"]["bodies"]] == [0, 2, 3]
    d = mujoco.MjData(m)
    b = achilles.Batch(model=doc, copies=1, precision="f64")
    rng = np.random.default_rng(5)
    worst = 0.0
    for _ in range(10):
        mujoco.mj_resetData(m, d)
        d.qpos[:] = m.qpos0 + rng.normal(0, 0.6, m.nq)
        d.qvel[:] = rng.normal(0, 1.0, m.nv)
        d.ctrl[:] = rng.uniform(-1, 1, m.nu)
        mujoco.mj_forward(m, d)
        b.q[:, 0], b.v[:, 0], b.ctrl[:, 0] = d.qpos, d.qvel, d.ctrl
        b.forward()
        worst = max(worst, float(np.abs(b.qacc[:, 0] - d.qacc).max()) / max(1.0, float(np.abs(d.qacc).max())))
    # measured 1.7e-15 relative (16 contacts and 28 joint-limit rows over the 10 states)
    assert worst <= 1e-12, f"qacc against mj_forward, relative {worst:.3g}"


# ---- features no fixture has together ----------------------------------------------------------

FEATURES = {
    # disable flags applied as MuJoCo runs them (constraint: no contacts, limits, dry friction or
    # equality rows; gravity; spring; multiccd), implicit run as implicitfast (the importer's rule),
    # elliptic cone with noslip, a ball joint's cone limit, condim 4 and 6 on a cylinder and an ellipsoid
    "flags": """<mujoco model="flags">
  <option integrator="implicit" cone="elliptic" noslip_iterations="3">
    <flag constraint="disable" gravity="disable" spring="disable" multiccd="disable"/>
  </option>
  <worldbody>
    <geom type="plane" size="1 1 1"/>
    <body name="b1" pos="0 0 1">
      <joint type="hinge" axis="0 1 0" range="-1 1" frictionloss="0.2" stiffness="3" damping="0.4" springref="0.1"/>
      <joint type="slide" axis="1 0 0" ref="0.05" range="-0.1 0.1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/>
      <body pos="0.3 0 0" euler="10 20 30">
        <joint type="ball" range="0 60" damping="0.1"/>
        <geom type="cylinder" size="0.05 0.1" condim="6" friction="1 0.02 0.003"/>
        <geom type="ellipsoid" size="0.05 0.06 0.07" pos="0 0 0.1" condim="4"/>
      </body>
    </body>
  </worldbody>
  <equality><connect body1="b1" anchor="0.1 0 0"/></equality>
</mujoco>""",
    # RK4, Newton to 1e-12, fluid (an ellipsoid-model geom and inertia boxes), priority/solmix/margin/gap, solref and
    # solimp, a body of three joints with refs and anchors (a chain of three links), a springdamper,
    # fixed tendons (limited, springlength band, frictionloss), site and body welds, joint equalities,
    # intvelocity, filterexact with affine gain and actearly, velocity and position servos with
    # forcerange and kv, a tendon motor, unnamed joints, geoms, tendons, equalities and actuators
    "misc": """<mujoco>
  <option integrator="RK4" iterations="50" tolerance="1e-12" impratio="2" density="1.2" viscosity="0.001" wind="1 0 0"/>
  <worldbody>
    <geom type="plane" size="1 1 1" priority="1" solmix="0.5" margin="0.01" gap="0.002"/>
    <site name="w" pos="0 0 2"/>
    <body name="fb" pos="0 0 1" quat="0.9 0.1 0.2 0.3">
      <freejoint/>
      <geom type="box" size="0.1 0.2 0.3" solref="0.03 0.9" solimp="0.8 0.9 0.002 0.4 3"/>
      <geom type="sphere" size="0.05" pos="0.2 0 0" fluidshape="ellipsoid" mass="0.3"/>
      <site name="s1" pos="0.1 0 0" euler="0 0 30"/>
    </body>
    <body name="arm" pos="1 0 1">
      <joint type="hinge" axis="1 1 0" ref="20" name="ha"/>
      <joint type="hinge" axis="0 0 1" pos="0.1 0 0" ref="-10" name="hb"/>
      <joint type="slide" axis="0 1 0" ref="0.2" name="sc"/>
      <geom type="box" size="0.1 0.1 0.1"/>
      <body pos="0.2 0 0">
        <joint name="hd" axis="0 1 0" springdamper="0.2 0.7"/>
        <geom type="capsule" size="0.03 0.1"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed range="-1 1" frictionloss="0.1" stiffness="5" damping="0.3" limited="true"><joint joint="ha" coef="1"/><joint joint="hd" coef="-0.5"/></fixed>
    <fixed name="t2" stiffness="2" springlength="0.1 0.3"><joint joint="hb" coef="2"/></fixed>
  </tendon>
  <equality>
    <weld site1="s1" site2="w" torquescale="2"/>
    <weld body1="fb" body2="arm" anchor="0 0.1 0"/>
    <joint joint1="ha" joint2="hb" polycoef="0.1 1 0.2 0 0"/>
    <joint joint1="sc"/>
  </equality>
  <actuator>
    <intvelocity joint="ha" kp="10" actrange="-1 1"/>
    <general joint="hb" dyntype="filterexact" dynprm="0.05" gaintype="affine" gainprm="2 0.1 0.2" biastype="affine" biasprm="0.1 -1 -0.2" actearly="true" actlimited="true" actrange="-2 2"/>
    <velocity joint="sc" kv="3" forcerange="-5 5"/>
    <position joint="hd" kp="20" kv="1"/>
    <motor tendon="t2" gear="3" ctrlrange="-2 2"/>
    <general joint="ha" dyntype="filter" dynprm="0.1"/>
  </actuator>
  <keyframe><key qpos="0 0 1 1 0 0 0 0.1 0.2 0.3 0.4" qvel="0 0 0 0 0 1 0.1 0.2 0.3 0.4"/></keyframe>
</mujoco>""",
}


def _feature(tmp_path, name: str) -> str:
    path = tmp_path / f"{name}.xml"
    path.write_text(FEATURES[name])
    return str(path)


@pytest.mark.parametrize("name", list(FEATURES))
def test_feature_models(tmp_path, name):
    """Equal field for field, keyframes too; and both documents give mj_forward's qacc at random states."""
    path = _feature(tmp_path, name)
    _check(path)
    put, comp, m = _pair(path)
    d = mujoco.MjData(m)
    rng = np.random.default_rng(7)
    batches = [achilles.Batch(model=doc, copies=1, precision="f64") for doc in (put, comp)]
    worst = [0.0, 0.0]
    for _ in range(5):
        mujoco.mj_resetData(m, d)
        for j in range(m.njnt):
            if m.jnt_type[j] in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE):
                d.qpos[m.jnt_qposadr[j]] += rng.normal(0, 0.2)
        d.qvel[:] = rng.normal(0, 0.5, m.nv)
        d.ctrl[:] = rng.uniform(-1, 1, m.nu)
        d.act[:] = rng.uniform(-0.5, 0.5, m.na)
        mujoco.mj_forward(m, d)
        scale = max(1.0, float(np.abs(d.qacc).max()))
        for k, b in enumerate(batches):
            b.q[:, 0], b.v[:, 0], b.ctrl[:, 0] = d.qpos, d.qvel, d.ctrl
            if m.na:
                b.act[:, 0] = d.act
            b.forward()
            worst[k] = max(worst[k], float(np.abs(b.qacc[:, 0] - d.qacc).max()) / scale)
    # measured (relative): flags 1.3e-15 both; misc 2.0e-15 put_model, 3.5e-15 compile_model. (With solver
    # CG at tolerance 1e-9 misc reached 7e-11 and 2e-9: where MuJoCo's CG and the engine's stop, not the model.)
    assert worst[0] <= 1e-12 and worst[1] <= 1e-12, f"qacc against mj_forward, relative: put_model {worst[0]:.3g}, compile_model {worst[1]:.3g}"


# ---- where the two disagree beyond round-off: MuJoCo decides -------------------------------------------

SPRINGDAMPER_FLAG = """<mujoco model="springdamper-flag">
  <option><flag {flag}="disable"/></option>
  <worldbody>
    <body pos="0 0 1">
      <joint name="h" axis="0 1 0" springdamper="0.2 0.7"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/>
    </body>
  </worldbody>
</mujoco>"""


def _springdamper_qacc(tmp_path, flag: str):
    path = tmp_path / f"{flag}.xml"
    path.write_text(SPRINGDAMPER_FLAG.format(flag=flag))
    m = mujoco.MjModel.from_xml_path(str(path))
    d = mujoco.MjData(m)
    d.qpos[:], d.qvel[:] = 0.3, 1.0
    mujoco.mj_forward(m, d)
    b = achilles.Batch(model=achilles.put_model(m), copies=1, precision="f64")
    b.q[:, 0], b.v[:, 0] = d.qpos, d.qvel
    b.forward()
    return float(b.qacc[0, 0]), float(d.qacc[0])


@pytest.mark.parametrize("flag", ["spring", "damper"])
def test_springdamper_with_a_disabled_flag_put_model(tmp_path, flag):
    """A springdamper with flag spring (or damper) disabled: MuJoCo's compiler resolves it into
    stiffness and damping, and its step then drops the disabled one. put_model reads them so: mj_forward's
    qacc exactly (measured 0 difference: 32.1148453 with spring off, 26.8087229 with damper off)."""
    put, mj = _springdamper_qacc(tmp_path, flag)
    assert put == pytest.approx(mj, rel=1e-14, abs=0)


@pytest.mark.parametrize("flag", ["spring", "damper"])
def test_springdamper_with_a_disabled_flag_compile_model_refuses(tmp_path, flag):
    """The importer cannot drop one half of a springdamper the engine resolves into both (it gave qacc
    16.81 against MuJoCo's 32.11 with spring off, 26.81 with damper off): it refuses the flag, at it."""
    path = tmp_path / f"{flag}.xml"
    path.write_text(SPRINGDAMPER_FLAG.format(flag=flag))
    with pytest.raises(achilles.ModelError, match=rf":2:\d+: flag {flag}: found \"disable\" with the springdamper of joint 'h'"):
        achilles.compile_model(str(path))
