"""MuJoCo's bodies and joints as the engine's links, as src/model-files/import/compile.ts (compileIr)
makes them from an MJCF file, here from a compiled MjModel:

  a body with no joint            → one `fixed` link (MuJoCo welds it to its parent);
  a body with joints j1 … jn      → a chain of n links, link k named after joint k; links 1 … n−1
                                    are massless, link n carries the body's mass and geoms.

MuJoCo moves a body by each of its joints in turn about the joint's anchor p_k (in the body frame):
X_PB(q) = X_PB0 · Π_k Trans(p_k)·X_k(q_k)·Trans(−p_k), X_k(q) = Rot(a_k, q − ref_k) for a hinge,
Trans(a_k·(q − ref_k)) for a slide, Rot(quat q) for a ball (engine_core_smooth.c mj_kinematics).
So link k's joint frame is J_1 = X_PB0·Trans(p_1), J_k = Trans(p_k − p_{k−1}) after link k−1's
joint, each turned back by ref (Rot(a, −ref), or a shift −ref·a); the body frame is the last link's
frame shifted by −p_n (the body's `offset`), so what the body carries (CoM, geoms, child bodies)
moves by −p_n. MuJoCo's compiled fields: body_pos/quat (X_PB0), jnt_pos/axis (p_k, a_k),
qpos0 (ref_k, and a free body's pose), body_ipos/iquat/inertia/mass, dof_* and jnt_* passives."""

from __future__ import annotations

import mujoco

from ._put_math import add, axis_angle_quat, floats, inertia6, quat_mul, quat_rotate, sub

J = mujoco.mjtJoint
JOINT = {int(J.mjJNT_HINGE): "revolute", int(J.mjJNT_SLIDE): "prismatic", int(J.mjJNT_BALL): "ball", int(J.mjJNT_FREE): "free"}
NDOF = {"revolute": 1, "prismatic": 1, "ball": 3, "free": 6}


def body_names(m) -> list[str]:
    """MuJoCo's body names, world excluded; an unnamed body is `bodyK` (K its MuJoCo index), as mjcf/body.ts."""
    return [mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, b) or f"body{b}" for b in range(1, m.nbody)]


def joint_names(m, bnames: list[str]) -> list[str]:
    """An unnamed joint is named after its body: `body`, `body_joint1`, ... (mjcf/joint.ts)."""
    out = []
    for j in range(m.njnt):
        b = int(m.jnt_bodyid[j])
        k = j - int(m.body_jntadr[b])
        given = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j)
        out.append(given if given is not None else (bnames[b - 1] if k == 0 else f"{bnames[b - 1]}_joint{k}"))
    return out


def build_links(m, bnames: list[str], jnames: list[str], disabled: set[str]):
    """The links (native bodies, still with Python keys), the body map (MuJoCo body b → its last link and
    the body frame's offset in it) and each MuJoCo joint's link."""
    links: list[dict] = []
    body_map: list[dict] = []
    joint_link: dict[int, int] = {}
    taken = {"world"}

    def unique(want: str) -> str:
        n, k = want, 2
        while n in taken:
            n = f"{want}_{k}"
            k += 1
        taken.add(n)
        return n

    for b in range(1, m.nbody):
        parent = int(m.body_parentid[b])
        parent_link = -1 if parent == 0 else body_map[parent - 1]["link"]
        parent_offset = [0.0, 0.0, 0.0] if parent == 0 else body_map[parent - 1]["offset"]
        bpos = floats(m.body_pos[b])
        bquat = floats(m.body_quat[b])
        pos0 = add(parent_offset, bpos)
        offset = [0.0, 0.0, 0.0]
        ja, jn = int(m.body_jntadr[b]), int(m.body_jntnum[b])
        if jn == 0:
            links.append(_link(unique(bnames[b - 1]), parent_link, pos0, bquat, "fixed", [0.0, 0.0, 1.0], [], []))
        else:
            prev_anchor = [0.0, 0.0, 0.0]
            for k, j in enumerate(range(ja, ja + jn)):
                kind = JOINT[int(m.jnt_type[j])]
                qa = int(m.jnt_qposadr[j])
                axis = floats(m.jnt_axis[j])
                if kind == "free":
                    pos, quat = [0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]
                    q0 = floats(m.qpos0[qa : qa + 7])
                    ref = 0.0
                else:
                    ref = float(m.qpos0[qa]) if kind in ("revolute", "prismatic") else 0.0
                    anchor = [0.0, 0.0, 0.0] if kind == "prismatic" else floats(m.jnt_pos[j])
                    if k == 0:
                        pos = add(pos0, quat_rotate(bquat, anchor))
                        quat = bquat
                    else:
                        pos = sub(anchor, prev_anchor)
                        quat = [1.0, 0.0, 0.0, 0.0]
                    prev_anchor = anchor
                    if kind == "revolute" and ref != 0:
                        quat = quat_mul(quat, axis_angle_quat(axis, -ref))
                    if kind == "prismatic" and ref != 0:
                        R = bquat if k == 0 else [1.0, 0.0, 0.0, 0.0]
                        pos = add(pos, quat_rotate(R, [-ref * axis[0], -ref * axis[1], -ref * axis[2]]))
                    q0 = [1.0, 0.0, 0.0, 0.0] if kind == "ball" else [ref]
                n = NDOF[kind]
                link = _link(
                    unique(jnames[j]),
                    parent_link if k == 0 else len(links) - 1,
                    pos,
                    quat,
                    kind,
                    axis if kind in ("revolute", "prismatic") else [0.0, 0.0, 1.0],
                    q0,
                    [0.0] * n,
                )
                _passive(m, j, kind, link, disabled)
                if kind in ("revolute", "prismatic") and ref != 0:
                    link["ref"] = ref
                joint_link[j] = len(links)
                links.append(link)
            offset = [-prev_anchor[0], -prev_anchor[1], -prev_anchor[2]]
        last = links[-1]
        last["mass"] = float(m.body_mass[b])
        last["com"] = add(floats(m.body_ipos[b]), offset)
        last["inertia"] = inertia6(floats(m.body_iquat[b]), floats(m.body_inertia[b]))
        body_map.append({"name": bnames[b - 1], "link": len(links) - 1, "offset": offset})
    return links, body_map, joint_link


def _link(name, parent, pos, quat, joint, axis, q0, v0) -> dict:
    return {
        "name": name,
        "parent": parent,
        "joint": joint,
        "pos": pos,
        "quat": quat,
        "axis": axis,
        "mass": 0.0,
        "com": [0.0, 0.0, 0.0],
        "inertia": [0.0] * 6,
        "q0": q0,
        "v0": v0,
        "tau": [0.0] * len(v0),
        "damping": 0.0,
        "stiffness": 0.0,
        "springref": 0.0,
        "armature": 0.0,
    }


def _passive(m, j: int, kind: str, link: dict, disabled: set[str]) -> None:
    """Range and limit, damping, armature, frictionloss and stiffness as MuJoCo compiled them (a
    springdamper is already stiffness and damping here: MuJoCo's compiler resolved it at qpos0), with
    the disable flags applied as MuJoCo's step applies them (mjcf/option-flags.ts applyDisableFlags)."""
    d = int(m.jnt_dofadr[j])
    if m.jnt_limited[j] and "limit" not in disabled and kind in ("revolute", "prismatic", "ball"):
        link["range"] = floats(m.jnt_range[j])
        link["limit"] = {"solref": floats(m.jnt_solref[j]), "solimp": floats(m.jnt_solimp[j]), "margin": float(m.jnt_margin[j])}
    damping = 0.0 if "damper" in disabled else float(m.dof_damping[d])
    armature = float(m.dof_armature[d])
    frictionloss = 0.0 if "frictionloss" in disabled else float(m.dof_frictionloss[d])
    stiffness = 0.0 if "spring" in disabled else float(m.jnt_stiffness[j])
    if frictionloss:
        link["frictionloss"] = frictionloss
    link["damping"] = damping
    link["stiffness"] = stiffness
    link["springref"] = float(m.qpos_spring[m.jnt_qposadr[j]]) if stiffness else 0.0
    link["armature"] = armature
