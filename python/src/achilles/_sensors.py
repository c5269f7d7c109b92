"""MuJoCo's sensordata of an imported MJCF model, every robot at once (columns of the batch's stride):
the twin of src/engine/mjcf-sensors.ts, which states the maths. Inputs are the engine's evaluation of
the current state (sense(): link poses, velocities and accelerations; the actuator forces; with force
or torque sensors a record=True batch's cfrc_ext; with touch sensors the contact points and forces).
Each object a sensor reads is a frame (pos, quat) fixed in a link, so with the link's pose (x, R) and
velocity [w; v] in its axes: xpos = x + R pos, xmat = R R(quat), xquat = Q_link (x) quat, w_world = R w,
v_world = R (v + w x pos). Q_link is composed along the tree as mj_kinematics composes xquat."""

from __future__ import annotations

import numpy as np


# read the contact solve's data: evaluated here; the engine evaluates the others itself (when the
# extension is built with its MJCF sensor pass: the field mjcfSensorData)
HOST_SENSORS = frozenset({"force", "torque", "touch"})


def _cross(a, b):
    return np.stack([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def _mat(q):
    """mju_quat2Mat of constant quaternions (4,) or per-robot ones (4, S): rows of R (9 entries)."""
    w, x, y, z = q
    return [w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z]


def _mul(R, v):
    """R v with R a list of 9 entries (each a number or a row of robots), v (3, S)."""
    return np.stack([R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2] for i in range(3)])


def _mulT(R, v):
    return np.stack([R[i] * v[0] + R[3 + i] * v[1] + R[6 + i] * v[2] for i in range(3)])


def _matmul(A, B):
    return [A[3 * r] * B[c] + A[3 * r + 1] * B[3 + c] + A[3 * r + 2] * B[6 + c] for r in range(3) for c in range(3)]


def _quat_mul(a, b):
    aw, ax, ay, az = a
    bw, bx, by, bz = b
    return np.stack([aw * bw - ax * bx - ay * by - az * bz, aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw])


def _normalize4(q):
    return q / np.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])


def link_quats(bodies: list, q: np.ndarray) -> list:
    """Each link's xquat (4, S): parent (x) its fixed quat (x) the joint's rotation (hinge: [cos(q/2),
    sin(q/2) axis]; ball and free: the normalised qpos quaternion), normalised."""
    out = []
    qoff = 0
    S = q.shape[1]
    nq = {"fixed": 0, "revolute": 1, "prismatic": 1, "ball": 4, "free": 7, "planar": 3}
    for b in bodies:
        fixed = np.asarray(b["quat"], dtype=np.float64)[:, None] * np.ones((1, S))
        Q = fixed if b["parent"] < 0 else _quat_mul(out[b["parent"]], fixed)
        if b["joint"] == "revolute":
            h = q[qoff] / 2
            s = np.sin(h)
            ax = b["axis"]
            Q = _quat_mul(Q, np.stack([np.cos(h), s * ax[0], s * ax[1], s * ax[2]]))
        elif b["joint"] in ("ball", "free"):
            k = qoff + 3 if b["joint"] == "free" else qoff
            Q = _quat_mul(Q, _normalize4(q[k:k + 4]))
        out.append(_normalize4(Q))
        qoff += nq[b["joint"]]
    return out


def _ray_meets_zone(zone: dict, p, d) -> np.ndarray:
    """Per robot: whether the ray p + t d, t >= 0 (zone frame) meets the zone (mju_rayGeom >= 0)."""
    s0, s1, s2 = zone["size"]
    S = p.shape[1]
    inf = np.full(S, np.inf)

    def ball(r, c=(0.0, 0.0, 0.0)):
        pp = [(p[i] - c[i]) / r[i] for i in range(3)]
        dd = [d[i] / r[i] for i in range(3)]
        return _unit_span(pp, dd)

    def slab(span, k, h):
        lo, hi = span
        with np.errstate(divide="ignore", invalid="ignore"):
            a = (-h - p[k]) / d[k]
            b = (h - p[k]) / d[k]
        par = d[k] == 0
        inside = np.abs(p[k]) <= h
        lo2 = np.where(par, np.where(inside, lo, inf), np.maximum(lo, np.minimum(a, b)))
        hi2 = np.where(par, np.where(inside, hi, -inf), np.minimum(hi, np.maximum(a, b)))
        return lo2, hi2

    def tube(r):
        lo, hi = _unit_span([p[0] / r, p[1] / r, 0 * p[0]], [d[0] / r, d[1] / r, 0 * d[0]])
        along = (d[0] == 0) & (d[1] == 0)
        inside = p[0] * p[0] + p[1] * p[1] <= r * r
        return np.where(along, np.where(inside, -inf, inf), lo), np.where(along, np.where(inside, inf, -inf), hi)

    def forward(span):
        lo, hi = span
        return (hi >= 0) & (lo <= hi)

    t = zone["type"]
    if t == "sphere":
        return forward(ball((s0, s0, s0)))
    if t == "ellipsoid":
        return forward(ball((s0, s1, s2)))
    if t == "box":
        return forward(slab(slab(slab((-inf, inf), 0, s0), 1, s1), 2, s2))
    if t == "cylinder":
        return forward(slab(tube(s0), 2, s1))
    return forward(slab(tube(s0), 2, s1)) | forward(ball((s0, s0, s0), (0, 0, s1))) | forward(ball((s0, s0, s0), (0, 0, -s1)))


def _unit_span(p, d):
    """[t0, t1] where |p + t d| <= 1 (empty, t0 > t1, where the line misses the unit ball)."""
    a = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    b = p[0] * d[0] + p[1] * d[1] + p[2] * d[2]
    c = p[0] * p[0] + p[1] * p[1] + p[2] * p[2] - 1
    disc = b * b - a * c
    ok = (disc >= 0) & (a != 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.sqrt(np.where(ok, disc, 0))
        safe = np.where(a != 0, a, 1)
        return np.where(ok, (-b - q) / safe, np.inf), np.where(ok, (-b + q) / safe, -np.inf)


def sensordata(doc: dict, inp: dict, copies: int) -> np.ndarray:
    """(nsensordata, S): robot r's sensordata in column r (the padding columns are computed alike)."""
    sensors = doc.get("mjcfSensors") or []
    S = inp["q"].shape[1]
    n = sensors[-1]["adr"] + sensors[-1]["dim"] if sensors else 0
    out = np.zeros((n, S))
    if not sensors or doc.get("mjcfSensorsDisabled"):
        return out
    bodies = doc["native"]["bodies"]
    quats = link_quats(bodies, np.asarray(inp["q"], dtype=np.float64))
    rows = lambda a, l, k: np.asarray(a[l * k:(l + 1) * k], dtype=np.float64)  # noqa: E731
    zero3 = np.zeros((3, S))

    def frame(f):
        local = _mat(f["quat"])
        pos = np.asarray(f["pos"], dtype=np.float64)[:, None]
        if f["link"] < 0:
            Q = np.asarray(f["quat"], dtype=np.float64)[:, None] * np.ones((1, S))
            return {"x": pos * np.ones((1, S)), "R": [x * np.ones(S) for x in local], "Q": Q, "w": zero3, "v": zero3, "wL": zero3, "vL": zero3}
        RL = list(rows(inp["body_rot"], f["link"], 9))
        vel = rows(inp["body_vel"], f["link"], 6)
        wL = vel[:3]
        vL = vel[3:] + _cross(wL, pos * np.ones((1, S)))
        return {"x": rows(inp["body_pos"], f["link"], 3) + _mul(RL, pos * np.ones((1, S))), "R": _matmul(RL, local),
                "Q": _quat_mul(quats[f["link"]], np.asarray(f["quat"], dtype=np.float64)[:, None] * np.ones((1, S))),
                "w": _mul(RL, wL), "v": _mul(RL, vL), "wL": wL, "vL": vL}

    q, v = inp["q"], inp["v"]
    native = inp.get("native")
    for s in sensors:
        t = s["type"]
        a, dim = s["adr"], s["dim"]
        if native is not None and t not in HOST_SENSORS:
            out[a:a + dim] = native[a:a + dim]  # the engine's own value (sense(): sensors/mjcf_sensors.hpp)
            continue
        if t in ("jointpos", "actuatorpos"):
            val = sum(term["coef"] * q[term["index"]] for term in s["terms"])[None]
        elif t in ("jointvel", "actuatorvel"):
            val = sum(term["coef"] * v[term["index"]] for term in s["terms"])[None]
        elif t == "actuatorfrc":
            val = np.asarray(inp["actuator_force"][s["actuator"]], dtype=np.float64)[None]
        elif t == "subtreecom":
            m = sum(bodies[l]["mass"] for l in s["links"])
            val = sum(bodies[l]["mass"] * rows(inp["xipos"], l, 3) for l in s["links"]) / m
        elif t in ("gyro", "velocimeter"):
            f = frame(s["obj"])
            local = _mat(s["obj"]["quat"])
            val = _mulT(local, f["wL"] if t == "gyro" else f["vL"])
        elif t == "accelerometer":
            f = s["obj"]
            link = f["link"]
            while link >= 0 and bodies[link]["joint"] == "fixed":
                link = bodies[link]["parent"]
            if link < 0:
                val = zero3.copy()
            else:
                pos = np.asarray(f["pos"], dtype=np.float64)[:, None] * np.ones((1, S))
                acc = rows(inp["body_acc"], f["link"], 6)
                vel = rows(inp["body_vel"], f["link"], 6)
                vp = vel[3:] + _cross(vel[:3], pos)
                val = _mulT(_mat(f["quat"]), acc[3:] + _cross(acc[:3], pos) + _cross(vel[:3], vp))
        elif t in ("force", "torque"):
            val = _interaction(doc, s, inp, rows, S)[0 if t == "torque" else 1]
        elif t == "touch":
            val = _touch(doc, s, inp, frame(s["obj"]), copies, S)[None]
        else:
            val = _frame_sensor(t, frame(s["obj"]), frame(s["ref"]) if s.get("ref") else None)
        out[a:a + dim] = val
        c = s["cutoff"]
        if c > 0 and s["datatype"] == "real":
            out[a:a + dim] = np.clip(out[a:a + dim], -c, c)
        elif c > 0 and s["datatype"] == "positive":
            out[a:a + dim] = np.minimum(c, out[a:a + dim])
    return out


def _frame_sensor(t, o, ref):
    if t == "framepos":
        return _mulT(ref["R"], o["x"] - ref["x"]) if ref else o["x"]
    if t == "framequat":
        if not ref:
            return o["Q"]
        return _quat_mul(np.stack([ref["Q"][0], -ref["Q"][1], -ref["Q"][2], -ref["Q"][3]]), o["Q"])
    if t in ("framexaxis", "frameyaxis", "framezaxis"):
        c = "xyz".index(t[5])
        axis = np.stack([o["R"][c], o["R"][3 + c], o["R"][6 + c]])
        return _mulT(ref["R"], axis) if ref else axis
    if t == "frameangvel":
        return _mulT(ref["R"], o["w"] - ref["w"]) if ref else o["w"]
    if t == "framelinvel":
        return _mulT(ref["R"], o["v"] - ref["v"] + _cross(o["x"] - ref["x"], ref["w"])) if ref else o["v"]
    raise ValueError(f"no evaluation for sensor type {t}")


def _interaction(doc, s, inp, rows, S):
    """cfrc_int of the site's body moved to the site, in its axes: (torque, force)."""
    bodies = doc["native"]["bodies"]
    f = s["obj"]
    RL = list(rows(inp["body_rot"], f["link"], 9))
    ps = rows(inp["body_pos"], f["link"], 3) + _mul(RL, np.asarray(f["pos"], dtype=np.float64)[:, None] * np.ones((1, S)))
    F = np.zeros((3, S))
    T = np.zeros((3, S))
    for l in s["links"]:
        b = bodies[l]
        if b["mass"] == 0:
            continue
        m = b["mass"]
        c = np.asarray(b["com"], dtype=np.float64)[:, None] * np.ones((1, S))
        ixx, iyy, izz, ixy, ixz, iyz = b["inertia"]
        def Ic(x, ixx=ixx, iyy=iyy, izz=izz, ixy=ixy, ixz=ixz, iyz=iyz):  # I_c x, the inertia about the centre of mass
            return np.stack([ixx * x[0] + ixy * x[1] + ixz * x[2], ixy * x[0] + iyy * x[1] + iyz * x[2], ixz * x[0] + iyz * x[1] + izz * x[2]])

        acc = rows(inp["body_acc"], l, 6)
        vel = rows(inp["body_vel"], l, 6)
        al, w, vv = acc[:3], vel[:3], vel[3:]
        Fi = m * (acc[3:] + _cross(al, c))
        p = m * (vv + _cross(w, c))
        L = Ic(w) + _cross(c, p)
        tau = Ic(al) + _cross(c, Fi) + _cross(w, L) + _cross(vv, p)
        R = list(rows(inp["body_rot"], l, 9))
        Fw = _mul(R, Fi + _cross(w, p))
        F = F + Fw
        T = T + _mul(R, tau) + _cross(rows(inp["body_pos"], l, 3) - ps, Fw)
    mt = sum(bodies[l]["mass"] for l in s["treeLinks"])
    ct = sum(bodies[l]["mass"] * rows(inp["xipos"], l, 3) for l in s["treeLinks"]) / mt
    for l in s["links"]:
        e = rows(inp["cfrc_ext"], l, 6)
        F = F - e[3:]
        T = T - (e[:3] + _cross(ct - ps, e[3:]))
    Rs = _matmul(RL, _mat(f["quat"]))
    return _mulT(Rs, T), _mulT(Rs, F)


def _touch(doc, s, inp, site, copies, S):
    shapes = doc["native"]["shapes"]
    link = s["obj"]["link"]
    out = np.zeros(S)
    for r in range(copies):
        c = inp["contacts"](r)
        pos, normal, force = (np.asarray(c[k], dtype=np.float64).reshape(-1, 3) for k in ("pos", "normal", "force"))
        for k in range(len(c["shapeA"])):
            la, lb = shapes[int(c["shapeA"][k])]["body"], shapes[int(c["shapeB"][k])]["body"]
            if la != link and lb != link:
                continue
            fn = force[k, 0]
            if not fn > 0:
                continue
            ray = -normal[k] if lb == link else normal[k]
            R = [x[r] for x in site["R"]]
            p = _mulT(R, (pos[k] - site["x"][:, r])[:, None])
            d = _mulT(R, ray[:, None])
            if _ray_meets_zone(s["zone"], p, d)[0]:
                out[r] += fn
    return out
