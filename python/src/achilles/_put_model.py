"""achilles.put_model(m): a compiled ``mujoco.MjModel`` (from MJCF, MjSpec or anything else) as the
document ``compile_model`` returns, made from the MjModel's compiled fields alone: no XML is written
or read and no Node is run. The document is the one src/engine/compiled-model.ts writes for the
same model read from MJCF (src/model-files/import/compile.ts, the MJCF importer's rules), so
``Batch(model=put_model(m))`` runs what ``Batch(model=compile_model(path))`` runs.

Everything MuJoCo compiled that the engine does not follow is refused with a ValueError naming
MuJoCo's field and value (_put_refusals.py), as the MJCF importer refuses its element; what cannot
change the motion (sites other than their layout, cameras, lights, visual, skins, user data) is
skipped, as the importer skips it. MuJoCo's sensors become the document's mjcfSensors as the importer
compiles an MJCF <sensor> block (_put_sensors.py), so Batch.sensordata and achilles.rollout give
MuJoCo's sensordata."""

from __future__ import annotations

import mujoco

from ._compile import FORMAT, VERSION
from ._put_bodies import body_names, build_links, joint_names
from ._put_constraints import build_actuators, build_equalities, build_tendons
from ._put_math import floats
from ._put_refusals import refuse_model
from ._put_sensors import build_sensors, native_sensors, sensor_names
from ._put_shapes import build_fluid, build_shapes, geom_names

INTEGRATOR = {
    int(mujoco.mjtIntegrator.mjINT_EULER): "euler",
    int(mujoco.mjtIntegrator.mjINT_RK4): "rk4",
    # the importer runs implicit as implicitfast (MuJoCo's implicit without the derivative of the
    # Coriolis and centrifugal forces: mjcf/option.ts, an 'approximated' note)
    int(mujoco.mjtIntegrator.mjINT_IMPLICIT): "implicitfast",
    int(mujoco.mjtIntegrator.mjINT_IMPLICITFAST): "implicitfast",
}
SOLVER = {int(mujoco.mjtSolver.mjSOL_PGS): "pgs", int(mujoco.mjtSolver.mjSOL_CG): "cg", int(mujoco.mjtSolver.mjSOL_NEWTON): "newton"}
# the disable bits applied to the model (mjcf/option-flags.ts DISABLES); constraint implies four
DISABLE_FLAGS = {
    "CONSTRAINT": "constraint",
    "EQUALITY": "equality",
    "CONTACT": "contact",
    "LIMIT": "limit",
    "FRICTIONLOSS": "frictionloss",
    "SPRING": "spring",
    "DAMPER": "damper",
}


def _disabled(m) -> set[str]:
    out = set()
    for bit, name in DISABLE_FLAGS.items():
        if m.opt.disableflags & int(getattr(mujoco.mjtDisableBit, f"mjDSBL_{bit}")):
            out.add(name)
    if "constraint" in out:
        out |= {"equality", "contact", "limit", "frictionloss"}
    return out


def model_name(m) -> str:
    """MuJoCo's model name: the first of its names (<mujoco model="...">)."""
    raw = bytes(m.names)
    return raw[: raw.index(b"\0")].decode("utf-8") if b"\0" in raw else raw.decode("utf-8")


def put_model(m, keyframe: str | int | None = None, *, name: str | None = None) -> dict:
    """The compiled model of a ``mujoco.MjModel`` as a dict (the format ``compile_model`` returns and
    ``Batch(model=...)`` reads): the engine's links, shapes, actuators, tendons, equality constraints,
    fluid and solver settings, with ``names`` and the ``mujoco`` body/site layout.

    keyframe: start from this keyframe (its name or index), as MuJoCo's mj_resetDataKeyframe sets
    qpos and qvel (as ``achilles compile --keyframe``); None: qpos0, as mj_resetData.

    Raises ValueError naming MuJoCo's field and value for anything the engine does not follow."""
    if not isinstance(m, mujoco.MjModel):
        raise ValueError(f"put_model takes a mujoco.MjModel (got {type(m).__name__})")
    refuse_model(m)
    disabled = _disabled(m)
    bnames = body_names(m)
    links, body_map, joint_link = build_links(m, bnames, joint_names(m, bnames), disabled)
    shapes = build_shapes(m, geom_names(m, bnames), body_map, "contact" in disabled)
    actuators = build_actuators(m, joint_link, links, body_map)
    tendons = build_tendons(m, joint_link, links, disabled)
    equalities = build_equalities(m, links, body_map, joint_link, disabled)
    excludes = _excludes(m, links, body_map)
    sensors = build_sensors(m, links, body_map, joint_link, actuators, tendons)
    sensors_disabled = bool(sensors) and bool(m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_SENSOR)
    if keyframe is not None:
        _apply_keyframe(m, keyframe, links)
    o = m.opt
    gravity = [0.0, 0.0, 0.0] if o.disableflags & mujoco.mjtDisableBit.mjDSBL_GRAVITY else floats(o.gravity)
    solver: dict = {"iterations": int(o.iterations), "impratio": float(o.impratio), "tolerance": float(o.tolerance), "method": SOLVER[int(o.solver)]}
    if int(o.cone) == mujoco.mjtCone.mjCONE_ELLIPTIC:
        solver["cone"] = "elliptic"
    if o.noslip_iterations > 0:
        solver["noslipIterations"] = int(o.noslip_iterations)
        solver["noslipTolerance"] = float(o.noslip_tolerance)
    native: dict = {"shapes": shapes, "solver": solver, "excludes": excludes}
    if o.disableflags & mujoco.mjtDisableBit.mjDSBL_MULTICCD:
        native["multiccd"] = False
    fluid = build_fluid(m, body_map, disabled)
    if fluid is not None:
        native["fluid"] = fluid
    native["gravity"] = gravity
    native.update(native_sensors(sensors, sensors_disabled))
    for b in links:
        b["u"], b["w"] = [1, 0, 0], [0, 1, 0]
    native.update(bodies=links, tendons=tendons, equalities=equalities, actuators=actuators)
    world = {"dt": float(o.timestep), "integrator": INTEGRATOR[int(o.integrator)], "substeps": 1, "gravity": list(gravity), "duration": 10}
    qoff = voff = 0
    joints = []
    for b in links:
        nq, nv = {"fixed": (0, 0), "ball": (4, 3), "free": (7, 6)}.get(b["joint"], (1, 1))
        joints.append({"name": b["name"], "type": b["joint"], "qoff": qoff, "voff": voff, "nq": nq, "nv": nv})
        qoff += nq
        voff += nv
    sites = []
    for s in range(m.nsite):
        site = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_SITE, s) or ""
        sites.append({"name": site, "body": int(m.site_bodyid[s]), "pos": floats(m.site_pos[s]), "quat": floats(m.site_quat[s])})
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "source": "<mujoco.MjModel>",
        "name": name if name is not None else model_name(m),
        "files": [],
        "native": native,
        "world": world,
        "names": {
            "bodies": [b["name"] for b in links],
            "joints": joints,
            "actuators": [{"name": a["name"], "ctrlrange": a.get("ctrlrange")} for a in actuators],
            "shapes": [s["name"] for s in shapes],
        },
        "mujoco": {"bodies": body_map, "sites": sites},
    }
    if sensors:  # compiled-model.ts: names.sensors and the full sensors only where there are some
        doc["names"]["sensors"] = sensor_names(sensors)
        doc["mjcfSensors"] = sensors
        if sensors_disabled:
            doc["mjcfSensorsDisabled"] = True
    return doc


def _excludes(m, links: list[dict], body_map: list[dict]) -> list[list[int]]:
    """contact excludes (exclude_signature = body1 << 16 | body2) as link pairs, then, as compile.ts:
    MuJoCo's filterparent drops contacts between a body and its parent's weld body; a body with several
    joints is a chain of links here, so its last link is excluded from every link welded to the
    parent's weld link explicitly."""

    def link(b: int) -> int:
        return -1 if b == 0 else body_map[b - 1]["link"]

    out = [[link(int(s) >> 16), link(int(s) & 0xFFFF)] for s in m.exclude_signature]

    def weld_of(l: int) -> int:
        while l >= 0 and links[l]["joint"] == "fixed":
            l = links[l]["parent"]
        return l

    for b in range(1, m.nbody):
        parent = int(m.body_parentid[b])
        if m.body_jntnum[b] < 2 or parent == 0:
            continue
        w = weld_of(body_map[parent - 1]["link"])
        if w < 0:
            continue
        for k in range(len(links)):
            if weld_of(k) == w:
                out.append([body_map[b - 1]["link"], k])
    return out


def _apply_keyframe(m, keyframe, links: list[dict]) -> None:
    """q0 and v0 from MuJoCo's key (src/model-files/import/keyframe.ts applyKey): mj_resetDataKeyframe's
    qpos and qvel, each ball and free quaternion normalised."""
    k = -1
    if isinstance(keyframe, str):
        k = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY, keyframe)
        if k < 0 and keyframe.isdigit():
            k = int(keyframe)
    elif isinstance(keyframe, int):
        k = keyframe
    if not (0 <= k < m.nkey):
        raise ValueError(f"keyframe {keyframe!r}: not one of the model's {m.nkey} keyframes (mjModel.nkey = {m.nkey})")
    qpos, qvel = floats(m.key_qpos[k]), floats(m.key_qvel[k])
    iq = iv = 0
    for b in links:
        nq, nv = len(b["q0"]), len(b["v0"])
        q = qpos[iq : iq + nq]
        at = {"ball": 0, "free": 3}.get(b["joint"])
        if at is not None:
            n = sum(x * x for x in q[at : at + 4]) ** 0.5
            if n < 1e-15:
                q[at : at + 4] = [1.0, 0.0, 0.0, 0.0]
            elif abs(n - 1) > 1e-15:
                q[at : at + 4] = [x / n for x in q[at : at + 4]]
        b["q0"], b["v0"] = q, qvel[iv : iv + nv]
        iq += nq
        iv += nv
