"""MuJoCo's actuators, fixed tendons and equality constraints in the engine's terms (compile.ts,
mjcf/actuator.ts, mjcf/general-actuator.ts), from a compiled MjModel.

Actuators: MjModel keeps the general form only (dyn/gain/bias type and prm); the MJCF shortcut tags
are gone. The importer keeps the engine's own kind for a motor (gain fixed 1, bias none), a position
servo (bias affine (0, −kp, −kv), kv ≥ 0) and a velocity servo (bias affine (0, 0, −kv)) without
dynamics: the same force to rounding as the general form (mjcf/general-actuator.ts ownKind). Here the
kind is read off the parameters by the same rule, so a <general> written with a servo's parameters
becomes that servo (the same force), and a position servo's dampratio is the −kv MuJoCo's
mj_setConst made of it at qpos0 (biasprm[2] < 0)."""

from __future__ import annotations

import mujoco

from ._put_math import add, floats

DYN = {
    int(mujoco.mjtDyn.mjDYN_NONE): "none",
    int(mujoco.mjtDyn.mjDYN_INTEGRATOR): "integrator",
    int(mujoco.mjtDyn.mjDYN_FILTER): "filter",
    int(mujoco.mjtDyn.mjDYN_FILTEREXACT): "filterexact",
}
GAIN = {int(mujoco.mjtGain.mjGAIN_FIXED): "fixed", int(mujoco.mjtGain.mjGAIN_AFFINE): "affine"}
BIAS = {int(mujoco.mjtBias.mjBIAS_NONE): "none", int(mujoco.mjtBias.mjBIAS_AFFINE): "affine"}


def _own_kind(g: dict):
    """The engine's own kind of a general actuator, or None (general-actuator.ts ownKind, the tag read off
    the parameters)."""
    if g["dyntype"] != "none" or g["gaintype"] != "fixed" or g.get("actearly"):
        return None
    kp = g["gainprm"][0]
    if not kp >= 0:
        return None
    b0, b1, b2 = g["biasprm"]
    if g["biastype"] == "none" and kp == 1:
        return ("motor", 0.0, 0.0)
    if g["biastype"] == "affine" and b0 == 0 and b1 == -kp and b2 <= 0:
        return ("position", kp, 0.0 if b2 == 0 else -b2)
    if g["biastype"] == "affine" and b0 == 0 and b1 == 0 and b2 == -kp:
        return ("velocity", 0.0, kp)
    return None


def _tag(g: dict, own) -> str:
    """The MJCF tag whose shortcut makes these parameters, for an unnamed actuator's name (`{tag}{k}`, as
    mjcf/actuator.ts names it): the servo kinds, intvelocity (a position servo's gain and bias with an
    integrator's dynamics), else general."""
    if own:
        return own[0]
    b0, b1, b2 = g["biasprm"]
    kp = g["gainprm"][0]
    if g["dyntype"] == "integrator" and g["gaintype"] == "fixed" and g["biastype"] == "affine" and b0 == 0 and b1 == -kp:
        return "intvelocity"
    return "general"


def build_actuators(m, joint_link: dict, links: list[dict], body_map: list[dict]) -> list[dict]:
    out = []
    for a in range(m.nu):
        g = {
            "dyntype": DYN[int(m.actuator_dyntype[a])],
            "gaintype": GAIN[int(m.actuator_gaintype[a])],
            "biastype": BIAS[int(m.actuator_biastype[a])],
            "dynprm": floats(m.actuator_dynprm[a, :3]),
            "gainprm": floats(m.actuator_gainprm[a, :3]),
            "biasprm": floats(m.actuator_biasprm[a, :3]),
        }
        if m.actuator_actearly[a]:
            g["actearly"] = True
        if m.actuator_actlimited[a] and g["dyntype"] != "none":
            g["actrange"] = floats(m.actuator_actrange[a])  # without dynamics there is no act to clamp
        trn = int(m.actuator_trntype[a])
        on_body = trn == mujoco.mjtTrn.mjTRN_BODY
        own = None if on_body else _own_kind(g)  # a body transmission stays general, as the importer keeps it
        kind = own[0] if own else "general"
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_ACTUATOR, a)
        d: dict = {"name": name if name is not None else f"{'adhesion' if on_body else _tag(g, own)}{a}"}
        if trn == mujoco.mjtTrn.mjTRN_TENDON:
            d["tendon"] = int(m.actuator_trnid[a, 0])
        elif on_body:  # the adhesion's body, as its last link; MuJoCo reads no gear there
            d["bodyTransmission"] = body_map[int(m.actuator_trnid[a, 0]) - 1]["link"]
        else:
            d["body"] = joint_link[int(m.actuator_trnid[a, 0])]
        gear = 1.0 if on_body else float(m.actuator_gear[a, 0])
        d.update(kind=kind, gear=[gear], kp=own[1] if own else 0.0, kv=own[2] if own else 0.0)
        if m.actuator_ctrllimited[a]:
            d["ctrlrange"] = floats(m.actuator_ctrlrange[a])
        if m.actuator_forcelimited[a]:
            d["forcerange"] = floats(m.actuator_forcerange[a])
        d["rateLimit"] = 0
        if not own:
            d["general"] = g
        out.append(d)
    _refuse_implicit_on_split_tendon(m, out)
    return out


def _refuse_implicit_on_split_tendon(m, acts: list[dict]) -> None:
    """mjcf/actuator.ts refuseImplicitOnTendon: implicitfast with a velocity-dependent actuator on a
    tendon whose joints lie on two branches (MuJoCo's qDeriv drops the cross term; the engine's does not)."""
    if int(m.opt.integrator) not in (mujoco.mjtIntegrator.mjINT_IMPLICIT, mujoco.mjtIntegrator.mjINT_IMPLICITFAST):
        return
    for a, d in enumerate(acts):
        if "tendon" not in d:
            continue
        g = d.get("general")
        vel = d["kv"] != 0 or (g is not None and ((g["biastype"] == "affine" and g["biasprm"][2] != 0) or (g["gaintype"] == "affine" and g["gainprm"][2] != 0)))
        if not vel:
            continue
        t = d["tendon"]
        bodies = [int(m.jnt_bodyid[m.wrap_objid[w]]) for w in range(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t])]

        def above(b: int, c: int) -> bool:
            while c > 0:
                if c == b:
                    return True
                c = int(m.body_parentid[c])
            return False

        for x in range(len(bodies)):
            for y in range(x + 1, len(bodies)):
                if not above(bodies[x], bodies[y]) and not above(bodies[y], bodies[x]):
                    raise ValueError(
                        f"actuator '{d['name']}' (trntype = mjTRN_TENDON, tendon '{mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_TENDON, t)}') is velocity-dependent under opt.integrator = implicitfast "
                        "and the tendon's joints lie on different branches of the tree: MuJoCo's qDeriv, stored with M's sparsity, drops the cross term; the engine's does not (Euler or RK4)"
                    )


def build_tendons(m, joint_link: dict, links: list[dict], disabled: set[str]) -> list[dict]:
    out = []

    def root_of(l: int) -> int:
        while links[l]["parent"] >= 0:
            l = links[l]["parent"]
        return l

    for t in range(m.ntendon):
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_TENDON, t)
        name = name if name is not None else f"tendon{t}"
        ws = range(int(m.tendon_adr[t]), int(m.tendon_adr[t] + m.tendon_num[t]))
        joints = [joint_link[int(m.wrap_objid[w])] for w in ws]
        trees = {root_of(l) for l in joints}
        if len(trees) > 2:
            raise ValueError(f"tendon '{name}': joints in {len(trees)} separate kinematic trees (the engine's islands join at most two per constraint row)")
        d: dict = {"name": name, "joints": joints, "coefs": [float(m.wrap_prm[w]) for w in ws]}
        if m.tendon_limited[t] and "limit" not in disabled:
            d["range"] = floats(m.tendon_range[t])
            d["limit"] = {"solref": floats(m.tendon_solref_lim[t]), "solimp": floats(m.tendon_solimp_lim[t]), "margin": float(m.tendon_margin[t])}
        stiffness = 0.0 if "spring" in disabled else float(m.tendon_stiffness[t])
        d["frictionloss"] = 0.0 if "frictionloss" in disabled else float(m.tendon_frictionloss[t])
        d["stiffness"] = stiffness
        d["damping"] = 0.0 if "damper" in disabled else float(m.tendon_damping[t])
        # MuJoCo's lengthspring (its −1 already made the length at qpos_spring); read with stiffness only
        d["springlength"] = floats(m.tendon_lengthspring[t]) if stiffness else [0.0, 0.0]
        out.append(d)
    return out


def build_equalities(m, links: list[dict], body_map: list[dict], joint_link: dict, disabled: set[str]) -> list[dict]:
    """connect, weld and joint constraints (compile.ts equalityDesc): bodies become their links (a point in
    a body's frame moves by the link's offset). What mj_setConst computed at qpos0 is in eq_data already
    (connect: body2's anchor, data[3:6]; weld: relpose, data[3:10])."""
    if "equality" in disabled:
        return []
    E = mujoco.mjtEq
    names = [mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_EQUALITY, e) for e in range(m.neq)]
    given = {n for n in names if n is not None}
    seen: set[str] = set()
    out = []
    for e in range(m.neq):
        name = names[e]
        if name is None:
            name = f"equality{e}"
            k = 2
            while name in given or name in seen:
                name = f"equality{e}_{k}"
                k += 1
        seen.add(name)
        t = int(m.eq_type[e])
        data = floats(m.eq_data[e])
        d: dict = {
            "name": name,
            "type": {int(E.mjEQ_CONNECT): "connect", int(E.mjEQ_WELD): "weld", int(E.mjEQ_JOINT): "joint"}[t],
            "active": bool(m.eq_active0[e]),
            "solref": floats(m.eq_solref[e]),
            "solimp": floats(m.eq_solimp[e]),
        }
        if t == E.mjEQ_JOINT:
            j1, j2 = int(m.eq_obj1id[e]), int(m.eq_obj2id[e])
            d["joint1"] = joint_link[j1]
            d["joint2"] = joint_link[j2] if j2 >= 0 else -1
            d["polycoef"] = data[:5]
            d["ref1"] = float(m.qpos0[m.jnt_qposadr[j1]])
            d["ref2"] = float(m.qpos0[m.jnt_qposadr[j2]]) if j2 >= 0 else 0.0
            out.append(d)
            continue
        site = int(m.eq_objtype[e]) == mujoco.mjtObj.mjOBJ_SITE
        o1, o2 = int(m.eq_obj1id[e]), int(m.eq_obj2id[e])
        b1 = int(m.site_bodyid[o1]) if site else o1
        b2 = int(m.site_bodyid[o2]) if site else max(o2, 0)

        def link(b: int) -> int:
            return -1 if b == 0 else body_map[b - 1]["link"]

        def in_link(b: int, p: list) -> list:
            return list(p) if b == 0 else add(p, body_map[b - 1]["offset"])

        def moves(l: int) -> bool:
            while l >= 0:
                if links[l]["joint"] != "fixed":
                    return True
                l = links[l]["parent"]
            return False

        d["body1"], d["body2"] = link(b1), link(b2)
        if not moves(d["body1"]) and not moves(d["body2"]):
            raise ValueError(f"equality '{name}': a constraint between two bodies that cannot move (both fixed to the world)")
        if t == E.mjEQ_CONNECT:
            if site:
                d["anchor1"] = in_link(b1, floats(m.site_pos[o1]))
                d["anchor2"] = in_link(b2, floats(m.site_pos[o2]))
            else:
                d["anchor1"] = in_link(b1, data[0:3])
                d["anchor2"] = in_link(b2, data[3:6])
        elif site:
            d["anchor2"] = in_link(b2, floats(m.site_pos[o2]))
            d["anchor1"] = in_link(b1, floats(m.site_pos[o1]))
            d["quat1"] = floats(m.site_quat[o1])
            d["quat2"] = floats(m.site_quat[o2])
            d["torquescale"] = data[10]
        else:
            d["anchor2"] = in_link(b2, data[0:3])
            d["anchor1"] = in_link(b1, data[3:6])
            d["quat1"] = data[6:10]
            d["torquescale"] = data[10]
        out.append(d)
    return out
