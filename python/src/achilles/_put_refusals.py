"""What put_model refuses: every compiled MjModel feature the engine does not follow, as the MJCF
importer refuses its element or attribute (src/model-files/import/mjcf/*.ts `fail(` calls), by
MuJoCo's field and value (the sensors: _put_sensors.py). Features that cannot change the motion
(sites, cameras, lights, visual, skins, user data, text/tuple/numeric) are skipped, as the importer
skips them."""

from __future__ import annotations

import mujoco
import numpy as np

# the native core's dense PGS and noslip rows (src/engine/model-desc.ts NEWTON_MAX_DOFS)
NEWTON_MAX_DOFS = 64
# the most solver iterations the native core takes (mjcf/option.ts MAX_SOLVER_ITERATIONS)
MAX_SOLVER_ITERATIONS = 100_000
# MuJoCo 3.14's GJK/EPA settings, the only ones the engine's convex collider runs with (convex-pairs.ts)
CCD_DEFAULTS = {"ccd_tolerance": 1e-6, "ccd_iterations": 35}
DEFAULT_SOLREF = (0.02, 1.0)
DEFAULT_SOLIMP = (0.9, 0.95, 0.001, 0.5, 2.0)

# the disable bits applied to the model as MuJoCo runs it (mjcf/option-flags.ts DISABLES)
APPLIED_DISABLES = ("CONSTRAINT", "EQUALITY", "CONTACT", "LIMIT", "FRICTIONLOSS", "SPRING", "DAMPER", "GRAVITY", "MULTICCD")
# disable and enable bits that cannot change the motion (FLAG_NO_MOTION)
INERT_DISABLES = ("SENSOR", "AUTORESET", "MIDPHASE")
INERT_ENABLES = ("ENERGY", "FWDINV", "INVDISCRETE")


def name_of(m, objtype, i: int) -> str:
    return mujoco.mj_id2name(m, objtype, i) or ""


def _enum(e, v: int, prefix: str) -> str:
    for k in dir(e):
        if k.startswith(prefix) and int(getattr(e, k)) == int(v):
            return k
    return str(int(v))


def _nonzero(a) -> bool:
    return bool(np.any(np.asarray(a) != 0))


def _same(a, want) -> bool:
    return bool(np.array_equal(np.asarray(a, dtype=float), np.asarray(want, dtype=float)))


def refuse_model(m) -> None:
    """Raise ValueError for the first thing of `m` the engine does not follow."""
    for count, why in (
        ("nflex", "flexes are not simulated by achilles"),
        ("nplugin", "plugins are not run by achilles"),
        ("nmocap", "mocap bodies are not supported"),
        ("npair", "explicit contact pairs are not supported (contact excludes only)"),
    ):
        n = int(getattr(m, count))
        if n:
            raise ValueError(f"mjModel.{count} = {n}: {why}")
    if m.nbody <= 1:
        raise ValueError("mjModel.nbody = 1: the model has no bodies (at least one body besides the world)")
    for k in range(m.nkey):
        if m.na and np.any(m.key_act[k] != 0):
            raise ValueError(
                f"keyframe {k} act = {m.key_act[k].tolist()}: a run starts every activation at 0 (as mj_resetData); a key cannot set them"
            )
    _refuse_options(m)
    _refuse_bodies(m)
    _refuse_joints(m)
    _refuse_geoms(m)
    _refuse_tendons(m)
    _refuse_actuators(m)
    _refuse_equalities(m)


def _refuse_options(m) -> None:
    o = m.opt
    for name in dir(mujoco.mjtDisableBit):
        if not name.startswith("mjDSBL_") or not (o.disableflags & int(getattr(mujoco.mjtDisableBit, name))):
            continue
        short = name[len("mjDSBL_") :]
        if short not in APPLIED_DISABLES and short not in INERT_DISABLES:
            raise ValueError(f"mjModel.opt.disableflags has {name}: the engine has no {short.lower()}=\"disable\" (it changes the motion)")
    for name in dir(mujoco.mjtEnableBit):
        if not name.startswith("mjENBL_") or not (o.enableflags & int(getattr(mujoco.mjtEnableBit, name))):
            continue
        short = name[len("mjENBL_") :]
        if short not in INERT_ENABLES:
            raise ValueError(f"mjModel.opt.enableflags has {name}: the engine has no {short.lower()}=\"enable\" (it changes the motion)")
    if o.disableactuator:
        raise ValueError(f"mjModel.opt.disableactuator = {o.disableactuator}: no disabled actuator groups (the engine drives every actuator)")
    I = mujoco.mjtIntegrator
    if int(o.integrator) not in (I.mjINT_EULER, I.mjINT_RK4, I.mjINT_IMPLICIT, I.mjINT_IMPLICITFAST):
        raise ValueError(f"mjModel.opt.integrator = {_enum(mujoco.mjtIntegrator, o.integrator, 'mjINT_')}: not an integrator the engine runs")
    implicit = int(o.integrator) in (mujoco.mjtIntegrator.mjINT_IMPLICIT, mujoco.mjtIntegrator.mjINT_IMPLICITFAST)
    if implicit and (o.density != 0 or o.viscosity != 0):
        raise ValueError(
            f"mjModel.opt.integrator = {_enum(mujoco.mjtIntegrator, o.integrator, 'mjINT_')} with fluid (density {o.density}, viscosity {o.viscosity}): "
            "MuJoCo's implicit integrators add the fluid forces' velocity derivatives to qDeriv, which the engine does not implement (Euler or RK4)"
        )
    pgs = int(o.solver) == mujoco.mjtSolver.mjSOL_PGS
    if pgs and int(o.cone) == mujoco.mjtCone.mjCONE_ELLIPTIC:
        raise ValueError("mjModel.opt.solver = mjSOL_PGS with opt.cone = mjCONE_ELLIPTIC: PGS with the elliptic cone is not implemented")
    if pgs and m.nv > NEWTON_MAX_DOFS:
        raise ValueError(f"mjModel.opt.solver = mjSOL_PGS for a model of {m.nv} dofs: the engine's PGS forms dense rows up to {NEWTON_MAX_DOFS} dofs (CG or Newton)")
    if o.noslip_iterations > 0 and m.nv > NEWTON_MAX_DOFS:
        raise ValueError(f"mjModel.opt.noslip_iterations = {o.noslip_iterations} for a model of {m.nv} dofs: the engine's noslip forms dense rows up to {NEWTON_MAX_DOFS} dofs")
    if not (0 <= o.iterations <= MAX_SOLVER_ITERATIONS):
        raise ValueError(f"mjModel.opt.iterations = {o.iterations}: the engine's solver runs 0 to {MAX_SOLVER_ITERATIONS} iterations")
    if m.ngeom:
        convex = (mujoco.mjtGeom.mjGEOM_CYLINDER, mujoco.mjtGeom.mjGEOM_ELLIPSOID, mujoco.mjtGeom.mjGEOM_MESH)
        colliding = (m.geom_contype != 0) | (m.geom_conaffinity != 0)
        if np.any(np.isin(m.geom_type, convex) & colliding) and not (o.disableflags & mujoco.mjtDisableBit.mjDSBL_CONTACT):
            for key, v in CCD_DEFAULTS.items():
                if getattr(o, key) != v:
                    raise ValueError(
                        f"mjModel.opt.{key} = {getattr(o, key)}: the engine's GJK/EPA (this model's cylinders, ellipsoids and meshes) runs with MuJoCo's default {v} only"
                    )


def _refuse_bodies(m) -> None:
    for b in range(1, m.nbody):
        if m.body_gravcomp[b] != 0:
            raise ValueError(f"body '{name_of(m, mujoco.mjtObj.mjOBJ_BODY, b)}' gravcomp = {m.body_gravcomp[b]}: gravity compensation is not supported")


def _refuse_joints(m) -> None:
    J = mujoco.mjtJoint
    for j in range(m.njnt):
        who = f"joint '{name_of(m, mujoco.mjtObj.mjOBJ_JOINT, j)}'"
        t = int(m.jnt_type[j])
        d = int(m.jnt_dofadr[j])
        nd = {J.mjJNT_FREE: 6, J.mjJNT_BALL: 3}.get(t, 1)
        if m.jnt_actfrclimited[j]:
            raise ValueError(f"{who} actfrclimited = 1: clamping the total actuator force on a joint is not supported")
        if m.jnt_actgravcomp[j]:
            raise ValueError(f"{who} actgravcomp = 1: gravity compensation through actuators is not supported")
        if _nonzero(m.jnt_stiffnesspoly[j]):
            raise ValueError(f"{who} stiffnesspoly = {list(m.jnt_stiffnesspoly[j])}: nonlinear joint stiffness is not supported")
        if t in (J.mjJNT_FREE, J.mjJNT_BALL) and m.jnt_stiffness[j] != 0:
            kind = "mjJNT_FREE" if t == J.mjJNT_FREE else "mjJNT_BALL"
            raise ValueError(f"{who} (type {kind}) stiffness = {m.jnt_stiffness[j]}: stiffness is followed on hinge and slide joints only")
        if t == J.mjJNT_FREE and m.jnt_limited[j]:
            raise ValueError(f"{who} (type mjJNT_FREE) limited = 1: the range of a free joint is not supported")
        for k in range(d, d + nd):
            if _nonzero(m.dof_dampingpoly[k]):
                raise ValueError(f"{who} dof_dampingpoly[{k}] = {list(m.dof_dampingpoly[k])}: nonlinear joint damping is not supported")
            if not _same(m.dof_solref[k], DEFAULT_SOLREF):
                raise ValueError(f"{who} dof_solref[{k}] = {list(m.dof_solref[k])}: the dry-friction rows use MuJoCo's default solreffriction only")
            if not _same(m.dof_solimp[k], DEFAULT_SOLIMP):
                raise ValueError(f"{who} dof_solimp[{k}] = {list(m.dof_solimp[k])}: the dry-friction rows use MuJoCo's default solimpfriction only")


def _refuse_geoms(m) -> None:
    G = mujoco.mjtGeom
    for g in range(m.ngeom):
        who = f"geom '{name_of(m, mujoco.mjtObj.mjOBJ_GEOM, g)}'"
        t = int(m.geom_type[g])
        if t in (G.mjGEOM_HFIELD, G.mjGEOM_SDF):
            raise ValueError(f"{who} type = {_enum(G, t, 'mjGEOM_')}: height fields and SDF geoms are not supported")
        if t == G.mjGEOM_PLANE and m.geom_bodyid[g] != 0:
            raise ValueError(f"{who} type = mjGEOM_PLANE on body {m.geom_bodyid[g]}: planes only on the world body (static)")
        if m.geom_adhesion[g] != 0:
            raise ValueError(f"{who} adhesion = {m.geom_adhesion[g]}: adhesion is not supported")
        if _nonzero(m.geom_surfacevel[g]):
            raise ValueError(f"{who} surfacevel = {list(m.geom_surfacevel[g])}: moving surfaces are not supported")
        if int(m.geom_condim[g]) not in (1, 3, 4, 6):
            raise ValueError(f"{who} condim = {m.geom_condim[g]}: condim 1, 3, 4 or 6")


def _refuse_tendons(m) -> None:
    W = mujoco.mjtWrap
    for t in range(m.ntendon):
        who = f"tendon '{name_of(m, mujoco.mjtObj.mjOBJ_TENDON, t)}'"
        a, n = int(m.tendon_adr[t]), int(m.tendon_num[t])
        for w in range(a, a + n):
            if int(m.wrap_type[w]) != W.mjWRAP_JOINT:
                raise ValueError(f"{who} (wrap_type[{w}] = {_enum(W, m.wrap_type[w], 'mjWRAP_')}): spatial tendons are not followed")
            jt = int(m.jnt_type[m.wrap_objid[w]])
            if jt not in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE):
                raise ValueError(f"{who} (wrap_objid[{w}] = joint '{name_of(m, mujoco.mjtObj.mjOBJ_JOINT, int(m.wrap_objid[w]))}', a {_enum(mujoco.mjtJoint, jt, 'mjJNT_')}): a fixed tendon of hinge and slide joints only")
        if m.tendon_armature[t] != 0:
            raise ValueError(f"{who} armature = {m.tendon_armature[t]}: tendon armature is not supported")
        if m.tendon_actfrclimited[t]:
            raise ValueError(f"{who} actfrclimited = 1: clamping the actuator force on a tendon is not supported")
        if _nonzero(m.tendon_dampingpoly[t]) or _nonzero(m.tendon_stiffnesspoly[t]):
            raise ValueError(f"{who} dampingpoly/stiffnesspoly = {list(m.tendon_dampingpoly[t])}/{list(m.tendon_stiffnesspoly[t])}: nonlinear tendon springs and dampers are not supported")
        if not _same(m.tendon_solref_fri[t], DEFAULT_SOLREF) or not _same(m.tendon_solimp_fri[t], DEFAULT_SOLIMP):
            raise ValueError(f"{who} solref_fri/solimp_fri = {list(m.tendon_solref_fri[t])}/{list(m.tendon_solimp_fri[t])}: frictionloss rows use MuJoCo's defaults only")


def _refuse_actuators(m) -> None:
    T = mujoco.mjtTrn
    for a in range(m.nu):
        who = f"actuator '{name_of(m, mujoco.mjtObj.mjOBJ_ACTUATOR, a)}'"
        trn = int(m.actuator_trntype[a])
        if trn not in (T.mjTRN_JOINT, T.mjTRN_TENDON, T.mjTRN_BODY):
            raise ValueError(f"{who} trntype = {_enum(T, trn, 'mjTRN_')}: joint, fixed-tendon and body transmissions only (site, slider-crank and joint-in-parent are not supported)")
        if trn == T.mjTRN_BODY:
            _refuse_body_transmission(m, a, who)
        if trn == T.mjTRN_JOINT:
            jt = int(m.jnt_type[m.actuator_trnid[a, 0]])
            if jt not in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE):
                raise ValueError(f"{who} trnid = joint '{name_of(m, mujoco.mjtObj.mjOBJ_JOINT, int(m.actuator_trnid[a, 0]))}', a {_enum(mujoco.mjtJoint, jt, 'mjJNT_')}: actuators on ball and free joints are not supported yet")
        for field, enum, ok in (
            ("dyntype", mujoco.mjtDyn, ("mjDYN_NONE", "mjDYN_INTEGRATOR", "mjDYN_FILTER", "mjDYN_FILTEREXACT")),
            ("gaintype", mujoco.mjtGain, ("mjGAIN_FIXED", "mjGAIN_AFFINE")),
            ("biastype", mujoco.mjtBias, ("mjBIAS_NONE", "mjBIAS_AFFINE")),
        ):
            v = _enum(enum, getattr(m, f"actuator_{field}")[a], "mj")
            if v not in ok:
                raise ValueError(f"{who} {field} = {v}: one of {', '.join(ok)} (the types this engine follows exactly)")
        for field, what in (("damping", "damping on the driven joint"), ("armature", "armature on the driven joint"), ("delay", "a control delay")):
            v = getattr(m, f"actuator_{field}")[a]
            if _nonzero(v):
                raise ValueError(f"{who} {field} = {np.asarray(v).tolist()}: {what} is not supported")
        if int(m.actuator_actnum[a]) > 1:
            raise ValueError(f"{who} actnum = {m.actuator_actnum[a]}: one activation state at most")


def _refuse_body_transmission(m, a: int, who: str) -> None:
    """mjcf/actuator.ts and compile-actuators.ts: an adhesion's force is gainprm[0]·ctrl (dyn none, gain
    fixed, bias none) on a moving body that has a geom that can collide (else it would never act)."""
    b = int(m.actuator_trnid[a, 0])
    if b == 0:
        raise ValueError(f"{who} trntype = mjTRN_BODY, trnid = 0 (the world): a moving body with a geom that collides")
    geoms = range(int(m.body_geomadr[b]), int(m.body_geomadr[b]) + int(m.body_geomnum[b]))
    if not any(m.geom_contype[g] != 0 or m.geom_conaffinity[g] != 0 for g in geoms):
        raise ValueError(
            f"{who} trntype = mjTRN_BODY, body '{name_of(m, mujoco.mjtObj.mjOBJ_BODY, b)}' has no geom with contype or conaffinity > 0:"
            " an adhesion acts through its body's contacts (here it would never act)"
        )
    kinds = (_enum(mujoco.mjtDyn, m.actuator_dyntype[a], "mj"), _enum(mujoco.mjtGain, m.actuator_gaintype[a], "mj"), _enum(mujoco.mjtBias, m.actuator_biastype[a], "mj"))
    if kinds != ("mjDYN_NONE", "mjGAIN_FIXED", "mjBIAS_NONE"):
        raise ValueError(
            f"{who} trntype = mjTRN_BODY with dyntype, gaintype, biastype = {', '.join(kinds)}: a body transmission takes"
            " mjDYN_NONE, mjGAIN_FIXED and mjBIAS_NONE only (an <adhesion>: the force gain·ctrl)"
        )


def _refuse_equalities(m) -> None:
    E = mujoco.mjtEq
    for e in range(m.neq):
        t = int(m.eq_type[e])
        if t not in (E.mjEQ_CONNECT, E.mjEQ_WELD, E.mjEQ_JOINT):
            raise ValueError(
                f"equality '{name_of(m, mujoco.mjtObj.mjOBJ_EQUALITY, e)}' type = {_enum(E, t, 'mjEQ_')}: connect, weld or joint equality constraints only (tendon and flex ones are not supported)"
            )
