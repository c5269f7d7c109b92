#!/usr/bin/env python3
"""What `achilles validate` needs from MuJoCo beyond validation/mujoco_ref.py, in one process.

One JSON request on stdin, one JSON answer on stdout (same float/NaN conventions as
mujoco_ref.py, whose Ref class this reuses unchanged):

  request:  {"models": {"exact": "<mujoco...>", "p0": "<mujoco...>", ...},
             "queries": [{"model": "exact", "kind": ..., ...}, ...]}
  response: {"version": "3.14.0", "results": [...]}   or   {"error": "..."}

Why a second script: the validation asks about each model as written and about its perturbed
twins (every constant multiplied by 1 + delta, |delta| <= 2^-24, a float32 half-ulp: the float32
floor), under any model names, and wants them all in one process so a model costs one Python
start. It adds one kind:

  rollout  {qpos, qvel, tau, integrator, h?, steps, every, round?, energy?, seed?}
           like mujoco_ref's `trajectory`, and optionally
             round = "f32": the state is rounded to float32 after every step (the float32 floor
                            of a trajectory: what float32 storage alone does to MuJoCo's answer);
             round = "perturb": every state component is multiplied by (1 + delta) after every
                            step, delta uniform in [-2^-24, 2^-24] from a seeded generator, and
                            ball/free quaternions renormalised (the float32 floor of a trajectory:
                            a float32 engine's state carries a half-ulp relative error per step);
             round = "ulp": every state component is multiplied by (1 ± 2^-52) after every step,
                            signs from a seeded generator (the float64 round-off floor);
             energy = true: also [potential, kinetic] at the start and at every recorded state.

and one more, the float32 floor of the equations of motion themselves:

  equations  {qpos, qvel, tau, h, integrators, seed, k}
           MuJoCo's own equations M q̈ = f − b at the state (M the dense mass matrix, b =
           qfrc_bias, f everything else: applied, passive, actuator, constraint forces), solved in
           float64 by numpy.linalg.solve, once as written ("base") and k more times with every
           entry of M (upper triangle, mirrored: M stays symmetric) and of b multiplied by 1 + δ,
           δ uniform in [−2⁻²⁴, 2⁻²⁴] (seeded by [seed, j]), a fresh draw at every dynamics
           evaluation: the reference's sensitivity to storing its equations of motion in float32,
           which perturbing its inputs never reaches on an ill-conditioned M. Per perturbation:
           qacc (at tau) and qacc0 (tau = 0, the same M̃ and b̃), and one step of every integrator
           composed from that perturbed f(q, v) (see step_with). Answer:
             {"base": {"qacc", "qacc0", "step": {integrator: {qpos, qvel}}},
              "perturbed": [{"qacc", "qacc0", "step": {...}}, ...]}
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

try:
    import numpy as np
    import mujoco
    from mujoco_ref import Ref, finite_safe
except ImportError as e:
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install mujoco`"}))
    sys.exit(0)


def energy_of(ref, q, v):
    m, d = ref.m, ref.d
    m.opt.enableflags |= int(mujoco.mjtEnableBit.mjENBL_ENERGY)
    ref.set(q, v, np.zeros(m.nv), np.zeros(m.nu))
    mujoco.mj_forward(m, d)
    return [float(d.energy[0]), float(d.energy[1])]


HALF_ULP32 = 2.0 ** -24


def quat_slices(m):
    """qpos slices of every ball / free-joint quaternion."""
    out = []
    for j in range(m.njnt):
        a = int(m.jnt_qposadr[j])
        if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
            out.append(slice(a, a + 4))
        elif m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            out.append(slice(a + 3, a + 7))
    return out


def rollout(ref, query):
    q, v, tau, ctrl = ref.state(query)
    steps = int(query["steps"])
    every = int(query.get("every", 1))
    mode = query.get("round")
    want_energy = bool(query.get("energy", False))
    rng = np.random.default_rng(int(query.get("seed", 1)))
    step = ref.stepper(query)
    quats = quat_slices(ref.m)
    qs, vs, es = [], [], []
    if want_energy:
        es.append(energy_of(ref, q, v))
    for k in range(1, steps + 1):
        q, v = step(q, v, tau, ctrl)
        if mode == "f32":
            q = q.astype(np.float32).astype(np.float64)
            v = v.astype(np.float32).astype(np.float64)
        elif mode == "perturb":
            q = q * (1 + rng.uniform(-HALF_ULP32, HALF_ULP32, size=q.shape))
            v = v * (1 + rng.uniform(-HALF_ULP32, HALF_ULP32, size=v.shape))
            for sl in quats:
                q[sl] /= np.linalg.norm(q[sl])
        elif mode == "ulp":
            q = q * (1 + rng.choice([-1.0, 1.0], size=q.shape) * 2.0 ** -52)
            v = v * (1 + rng.choice([-1.0, 1.0], size=v.shape) * 2.0 ** -52)
        elif mode is not None:
            raise ValueError(f"unknown round mode {mode!r} (f32, perturb, ulp)")
        if k % every == 0:
            qs.append(q.tolist())
            vs.append(v.tolist())
            if want_energy:
                es.append(energy_of(ref, q, v))
    out = {"qpos": qs, "qvel": vs}
    if want_energy:
        out["energy"] = es
    return out


class Equations:
    """f(q, v) = solve(M̃, f_rest − b̃) at MuJoCo's own M and b, perturbed by rng (None: as is)."""

    def __init__(self, ref, tau, ctrl, rng):
        self.ref, self.tau, self.ctrl, self.rng = ref, tau, ctrl, rng

    def parts(self, q, v, tau):
        ref = self.ref
        m, d = ref.m, ref.d
        ref.set(q, v, tau, self.ctrl)
        mujoco.mj_forward(m, d)
        M = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, M)
        b = d.qfrc_bias.copy()
        # M q̈ = qfrc_smooth + qfrc_constraint, qfrc_smooth = passive − bias + applied + actuator.
        rest = d.qfrc_smooth + d.qfrc_constraint + b
        if self.rng is not None:
            n = m.nv
            D = np.triu(self.rng.uniform(-HALF_ULP32, HALF_ULP32, size=(n, n)))
            M = M * (1 + D + np.triu(D, 1).T)
            b = b * (1 + self.rng.uniform(-HALF_ULP32, HALF_ULP32, size=n))
        return M, b, rest

    def f(self, q, v):
        M, b, rest = self.parts(q, v, self.tau)
        return np.linalg.solve(M, rest - b)

    def accels(self, q, v):
        """q̈ at tau and at tau = 0 from the same (perturbed) M̃ and b̃."""
        M, b, rest = self.parts(q, v, self.tau)
        return np.linalg.solve(M, rest - b), np.linalg.solve(M, rest - self.tau - b)


def step_with(ref, f, q, v, h, integrator, iters=4):
    """One step composed from f(q, v) and mj_integratePos: euler (semi-implicit, as mj_step's
    Euler without damping), rk4 (MuJoCo's classic RK4: positions advanced with the tableau's
    averaged velocity), verlet and midpoint exactly as mujoco_ref.Ref composes them."""
    if integrator == "euler":
        v1 = v + h * f(q, v)
        return ref.oplus(q, v1, h), v1
    if integrator == "rk4":
        a1 = f(q, v)
        v2 = v + h / 2 * a1
        a2 = f(ref.oplus(q, v, h / 2), v2)
        v3 = v + h / 2 * a2
        a3 = f(ref.oplus(q, v2, h / 2), v3)
        v4 = v + h * a3
        a4 = f(ref.oplus(q, v3, h), v4)
        return ref.oplus(q, (v + 2 * v2 + 2 * v3 + v4) / 6, h), v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
    if integrator == "verlet":
        vh = v + h / 2 * f(q, v)
        q1 = ref.oplus(q, vh, h)
        return q1, vh + h / 2 * f(q1, vh)
    if integrator == "midpoint":
        vm = v + h / 2 * f(q, v)
        for _ in range(iters):
            vm = v + h / 2 * f(ref.oplus(q, vm, h / 2), vm)
        return ref.oplus(q, vm, h), 2 * vm - v
    raise ValueError(f"unknown integrator {integrator!r} (euler, rk4, verlet, midpoint)")


def equations(ref, query):
    q, v, tau, ctrl = ref.state(query)
    h = float(query.get("h", ref.h0))
    integrators = list(query.get("integrators", []))
    seed = int(query.get("seed", 1))

    def answer(rng):
        eq = Equations(ref, tau, ctrl, rng)
        a, a0 = eq.accels(q, v)
        steps = {}
        for g in integrators:
            q1, v1 = step_with(ref, eq.f, q, v, h, g)
            steps[g] = {"qpos": q1.tolist(), "qvel": v1.tolist()}
        return {"qacc": a.tolist(), "qacc0": a0.tolist(), "step": steps}

    return {"base": answer(None),
            "perturbed": [answer(np.random.default_rng([seed, j])) for j in range(int(query.get("k", 4)))]}


def main():
    try:
        req = json.loads(sys.stdin.read())
        refs = {name: Ref(xml) for name, xml in req["models"].items()}
        results = []
        for i, query in enumerate(req.get("queries", [])):
            ref = refs.get(query.get("model", "exact"))
            if ref is None:
                raise ValueError(f"query {i}: unknown model {query.get('model')!r}")
            kind = query.get("kind")
            kinds = {"kinematics": ref.kinematics, "dynamics": ref.dynamics, "step": ref.step,
                     "trajectory": ref.trajectory, "rollout": lambda qq, r=ref: rollout(r, qq),
                     "equations": lambda qq, r=ref: equations(r, qq)}
            if kind not in kinds:
                raise ValueError(f"query {i}: unknown kind {kind!r}")
            results.append(kinds[kind](query))
        out = {"version": mujoco.__version__, "results": results}
    except Exception as e:
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(finite_safe(out), allow_nan=False))


if __name__ == "__main__":
    main()
