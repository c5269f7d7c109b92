"""MuJoCo's sensors of a compiled MjModel as the engine evaluates them: the compiled document's
``mjcfSensors`` (and the native core's part of them) and ``names['sensors']``, made as
src/model-files/import/sensors.ts compileSensors makes them from an MJCF <sensor> block, here from
MuJoCo's sensor_* fields. Sensors keep MuJoCo's order, sensor_adr and sensor_dim.

Each object a sensor reads becomes what the engine's evaluation reads (engine/mjcf-sensors.ts):
  a frame fixed in a link (link, pos, quat): a site or geom at offset + site_pos (geom_pos) with its
  quat; a body's own frame (mjOBJ_XBODY) at the body's offset; its inertial frame (mjOBJ_BODY) at
  offset + body_ipos with body_iquat; the world's frames in link −1;
  joint and actuator coordinates as Σ coef·q (or v): coef 1 for a hinge or slide joint, gear for an
  actuator on a joint, gear·coef per joint for one on a fixed tendon;
  a subtree as the links of its bodies (the world: all); a force or torque sensor's body subtree and
  its whole tree; a touch sensor's zone (site_type, site_size).

What the importer refuses (mjcf/sensor.ts, sensors.ts) is refused here by MuJoCo's field and value."""

from __future__ import annotations

import mujoco

from ._put_math import add, floats

S = mujoco.mjtSensor
O = mujoco.mjtObj

# the sensor types the engine computes (ir.ts SENSOR_TYPES), by MuJoCo's sensor_type
TYPES = {
    int(S.mjSENS_JOINTPOS): "jointpos",
    int(S.mjSENS_JOINTVEL): "jointvel",
    int(S.mjSENS_ACTUATORPOS): "actuatorpos",
    int(S.mjSENS_ACTUATORVEL): "actuatorvel",
    int(S.mjSENS_ACTUATORFRC): "actuatorfrc",
    int(S.mjSENS_FRAMEPOS): "framepos",
    int(S.mjSENS_FRAMEQUAT): "framequat",
    int(S.mjSENS_FRAMEXAXIS): "framexaxis",
    int(S.mjSENS_FRAMEYAXIS): "frameyaxis",
    int(S.mjSENS_FRAMEZAXIS): "framezaxis",
    int(S.mjSENS_FRAMELINVEL): "framelinvel",
    int(S.mjSENS_FRAMEANGVEL): "frameangvel",
    int(S.mjSENS_SUBTREECOM): "subtreecom",
    int(S.mjSENS_GYRO): "gyro",
    int(S.mjSENS_VELOCIMETER): "velocimeter",
    int(S.mjSENS_ACCELEROMETER): "accelerometer",
    int(S.mjSENS_FORCE): "force",
    int(S.mjSENS_TORQUE): "torque",
    int(S.mjSENS_TOUCH): "touch",
}
# MuJoCo's sensor_dim and sensor_datatype per type (sensors.ts shapeOf)
DIM = {"jointpos": 1, "jointvel": 1, "actuatorpos": 1, "actuatorvel": 1, "actuatorfrc": 1, "touch": 1, "framequat": 4}
DATATYPE = {"framequat": "quaternion", "touch": "positive", "framexaxis": "axis", "frameyaxis": "axis", "framezaxis": "axis"}
MJ_DATATYPE = {"real": int(mujoco.mjtDataType.mjDATATYPE_REAL), "positive": int(mujoco.mjtDataType.mjDATATYPE_POSITIVE),
               "axis": int(mujoco.mjtDataType.mjDATATYPE_AXIS), "quaternion": int(mujoco.mjtDataType.mjDATATYPE_QUATERNION)}
FRAME_OBJ = {int(O.mjOBJ_BODY): "body", int(O.mjOBJ_XBODY): "xbody", int(O.mjOBJ_GEOM): "geom", int(O.mjOBJ_SITE): "site"}
ZONE = {int(mujoco.mjtGeom.mjGEOM_SPHERE): "sphere", int(mujoco.mjtGeom.mjGEOM_CAPSULE): "capsule", int(mujoco.mjtGeom.mjGEOM_CYLINDER): "cylinder",
        int(mujoco.mjtGeom.mjGEOM_ELLIPSOID): "ellipsoid", int(mujoco.mjtGeom.mjGEOM_BOX): "box"}
IDENTITY = [1.0, 0.0, 0.0, 0.0]
# the native core's part of a sensor (src/engine/batch.ts: what sense() reads)
NATIVE_KEYS = ("terms", "actuator", "obj", "ref", "links")


def _enum(e, v: int, prefix: str) -> str:
    for k in dir(e):
        if k.startswith(prefix) and int(getattr(e, k)) == int(v):
            return k
    return str(int(v))


class _Objects:
    """What a sensor's objects are in the engine's model (sensors.ts SensorObjects)."""

    def __init__(self, m, links: list[dict], body_map: list[dict], joint_link: dict, actuators: list[dict], tendons: list[dict]):
        self.m, self.links, self.body_map, self.joint_link = m, links, body_map, joint_link
        self.actuators, self.tendons = actuators, tendons
        nq = {"fixed": 0, "ball": 4, "free": 7}
        nv = {"fixed": 0, "ball": 3, "free": 6}
        self.qoff, self.voff = [], []
        q = v = 0
        for b in links:
            self.qoff.append(q)
            self.voff.append(v)
            q += nq.get(b["joint"], 1)
            v += nv.get(b["joint"], 1)

    def frame(self, who: str, objtype: int, i: int) -> dict:
        """The frame of MuJoCo object (objtype, i) in its link (get_xpos_xmat, get_xquat)."""
        m = self.m
        kind = FRAME_OBJ.get(int(objtype))
        if kind is None:
            raise ValueError(f"{who}: objtype {_enum(O, objtype, 'mjOBJ_')}: a frame sensor reads a body, xbody, geom or site")
        if kind in ("body", "xbody"):
            if i == 0:  # the world: xipos = xpos = 0
                return {"link": -1, "pos": [0.0, 0.0, 0.0], "quat": list(IDENTITY)}
            bm = self.body_map[i - 1]
            if kind == "xbody":
                return {"link": bm["link"], "pos": list(bm["offset"]), "quat": list(IDENTITY)}
            # mjOBJ_BODY: the inertial frame, xipos and xquat·body_iquat
            return {"link": bm["link"], "pos": add(bm["offset"], floats(m.body_ipos[i])), "quat": floats(m.body_iquat[i])}
        if kind == "geom":
            body, pos, quat = int(m.geom_bodyid[i]), floats(m.geom_pos[i]), floats(m.geom_quat[i])
        else:
            body, pos, quat = int(m.site_bodyid[i]), floats(m.site_pos[i]), floats(m.site_quat[i])
        if body == 0:
            return {"link": -1, "pos": pos, "quat": quat}
        bm = self.body_map[body - 1]
        return {"link": bm["link"], "pos": add(bm["offset"], pos), "quat": quat}

    def joint_terms(self, who: str, j: int, on: str) -> list[dict]:
        """A hinge or slide joint's coordinate: coef 1 on its q (or v)."""
        if int(self.m.jnt_type[j]) not in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE):
            raise ValueError(f"{who}: jnt_type = {_enum(mujoco.mjtJoint, self.m.jnt_type[j], 'mjJNT_')}: a hinge or slide joint (MuJoCo: \"joint must be slide or hinge in sensor\")")
        link = self.joint_link[j]
        return [{"index": (self.qoff if on == "q" else self.voff)[link], "coef": 1}]

    def actuator_terms(self, who: str, a: int, on: str) -> list[dict]:
        """actuator_length (or velocity): gear·x of a joint, gear·Σ coef·x of a fixed tendon."""
        act = self.actuators[a]
        off = self.qoff if on == "q" else self.voff
        gear = act["gear"][0]
        if "tendon" in act:
            t = self.tendons[act["tendon"]]
            return [{"index": off[l], "coef": gear * c} for l, c in zip(t["joints"], t["coefs"])]
        if "body" not in act:
            raise ValueError(f"{who}: actuator '{act['name']}' has trntype = {_enum(mujoco.mjtTrn, self.m.actuator_trntype[a], 'mjTRN_')}: an actuator on a joint or a fixed tendon")
        return [{"index": off[act["body"]], "coef": gear}]

    def _under(self, b: int, top: int) -> bool:
        while b > 0:
            if b == top:
                return True
            b = int(self.m.body_parentid[b])
        return top == 0

    def subtree_links(self, who: str, root: int) -> list[int]:
        """The links of the subtree's bodies (the world's: every body)."""
        members = [b for b in range(1, self.m.nbody) if self._under(b, root)]
        if not any(self.m.body_mass[b] > 0 for b in members):
            raise ValueError(f"{who}: body {root}'s subtree has no mass (body_subtreemass = 0: MuJoCo then reads the body centre itself; not followed)")
        return [self.body_map[b - 1]["link"] for b in members]

    def interaction_links(self, who: str, site: int) -> dict:
        """A force or torque sensor's body subtree and its tree (sensors.ts interactionLinks)."""
        m = self.m
        body = int(m.site_bodyid[site])
        if body == 0:
            raise ValueError(f"{who}: site_bodyid = 0, a site of the world body (the world has no interaction force)")
        E = mujoco.mjtEq
        if any(int(t) in (E.mjEQ_CONNECT, E.mjEQ_WELD) for t in m.eq_type):
            raise ValueError(
                f"{who} in a model with connect or weld constraints (eq_type mjEQ_CONNECT or mjEQ_WELD): their forces enter MuJoCo's cfrc_ext; "
                "the engine's contact wrenches do not carry them yet"
            )
        root = body
        while m.body_parentid[root] != 0:
            root = int(m.body_parentid[root])
        under = lambda top: [self.body_map[b - 1]["link"] for b in range(1, m.nbody) if self._under(b, top)]  # noqa: E731
        return {"links": under(body), "treeLinks": under(root)}

    def zone(self, site: int) -> dict:
        """A touch sensor's zone: its site's shape and size (mju_rayGeom of the contact rays)."""
        t = int(self.m.site_type[site])
        if t not in ZONE:
            raise ValueError(f"site {site}: site_type = {_enum(mujoco.mjtGeom, t, 'mjGEOM_')}: a touch zone is a sphere, capsule, cylinder, ellipsoid or box")
        return {"type": ZONE[t], "size": floats(self.m.site_size[site])}


def build_sensors(m, links, body_map, joint_link, actuators, tendons) -> list[dict]:
    """The compiled document's mjcfSensors (with name, noise and the host's keys), in MuJoCo's order."""
    o = _Objects(m, links, body_map, joint_link, actuators, tendons)
    out = []
    for i in range(m.nsensor):
        name = mujoco.mj_id2name(m, O.mjOBJ_SENSOR, i) or ""
        t = int(m.sensor_type[i])
        who = f"sensor '{name}'" if name else f"sensor {i}"
        if t not in TYPES:
            raise ValueError(f"{who} (sensor_type = {_enum(S, t, 'mjSENS_')}): the engine does not compute it (it computes {', '.join(TYPES.values())})")
        kind = TYPES[t]
        who = f"{who} ({kind})"
        _refuse_extras(m, i, who, kind)
        d: dict = {"name": name, "type": kind, "adr": int(m.sensor_adr[i]), "dim": DIM.get(kind, 3), "datatype": DATATYPE.get(kind, "real"),
                   "cutoff": float(m.sensor_cutoff[i]), "noise": float(m.sensor_noise[i])}
        obj, objtype = int(m.sensor_objid[i]), int(m.sensor_objtype[i])
        if kind in ("jointpos", "jointvel"):
            d["terms"] = o.joint_terms(who, obj, "q" if kind == "jointpos" else "v")
        elif kind in ("actuatorpos", "actuatorvel"):
            d["terms"] = o.actuator_terms(who, obj, "q" if kind == "actuatorpos" else "v")
        elif kind == "actuatorfrc":
            d["actuator"] = obj
        elif kind == "subtreecom":
            d["links"] = o.subtree_links(who, obj)
        elif kind in ("gyro", "velocimeter", "accelerometer"):
            d["obj"] = o.frame(who, objtype, obj)
        elif kind == "touch":
            d["obj"] = o.frame(who, objtype, obj)
            d["zone"] = o.zone(obj)
        elif kind in ("force", "torque"):
            d["obj"] = o.frame(who, objtype, obj)
            d.update(o.interaction_links(who, obj))
        else:
            d["obj"] = o.frame(who, objtype, obj)
            if int(m.sensor_reftype[i]) != O.mjOBJ_UNKNOWN and m.sensor_refid[i] >= 0:
                d["ref"] = o.frame(who + " reference", int(m.sensor_reftype[i]), int(m.sensor_refid[i]))
        if d["dim"] != int(m.sensor_dim[i]) or MJ_DATATYPE[d["datatype"]] != int(m.sensor_datatype[i]):
            raise ValueError(f"{who}: sensor_dim = {m.sensor_dim[i]}, sensor_datatype = {m.sensor_datatype[i]}: not MuJoCo's for a {kind} sensor")
        out.append(d)
    return out


def _refuse_extras(m, i: int, who: str, kind: str) -> None:
    """What mjcf/sensor.ts does not follow: user data, delay and history buffers, plugin sensors, a
    cutoff on an axis or quaternion sensor, a negative cutoff or noise."""
    if m.nuser_sensor and any(m.sensor_user[i] != 0):
        raise ValueError(f"{who}: sensor_user = {m.sensor_user[i].tolist()}: sensor user data is not followed")
    if m.sensor_delay[i] != 0 or any(m.sensor_history[i] != 0) or any(m.sensor_interval[i] != 0):
        raise ValueError(
            f"{who}: sensor_delay = {m.sensor_delay[i]}, sensor_history = {m.sensor_history[i].tolist()}, sensor_interval = {m.sensor_interval[i].tolist()}: "
            "delayed and sampled sensors are not followed"
        )
    if m.sensor_plugin[i] >= 0:
        raise ValueError(f"{who}: sensor_plugin = {m.sensor_plugin[i]}: plugin sensors are not run")
    if m.sensor_cutoff[i] < 0 or m.sensor_noise[i] < 0:
        raise ValueError(f"{who}: sensor_cutoff = {m.sensor_cutoff[i]}, sensor_noise = {m.sensor_noise[i]}: both must be ≥ 0")
    if m.sensor_cutoff[i] > 0 and DATATYPE.get(kind) in ("axis", "quaternion"):
        raise ValueError(f"{who}: sensor_cutoff = {m.sensor_cutoff[i]} on an axis or quaternion sensor (MuJoCo: \"cutoff applied to axis or quaternion datatype in sensor\")")


def native_sensors(sensors: list[dict], disabled: bool) -> dict:
    """The native core's block (src/engine/batch.ts): each sensor's type, adr, dim, datatype, cutoff and
    what sense() reads; nothing without sensors."""
    if not sensors:
        return {}
    out: dict = {"mjcfSensors": [{k: s[k] for k in ("type", "adr", "dim", "datatype", "cutoff") + NATIVE_KEYS if k in s} for s in sensors]}
    if disabled:
        out["mjcfSensorsDisabled"] = True
    return out


def sensor_names(sensors: list[dict]) -> list[dict]:
    """names['sensors']: name, type, adr, dim, cutoff, noise per sensor."""
    return [{k: s[k] for k in ("name", "type", "adr", "dim", "cutoff", "noise")} for s in sensors]
