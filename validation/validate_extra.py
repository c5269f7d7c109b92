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
             round = "perturb": every step is the fully perturbed float32 step of `equations`
                            (step_with with store=True): at every dynamics evaluation MuJoCo's M
                            and b perturbed per entry, every stored intermediate of the
                            integrator (accelerations, stage velocities and positions, RK4's
                            weights and sums) and the new state each multiplied by (1 + delta),
                            delta uniform in [-2^-24, 2^-24] from a generator seeded by `seed`,
                            ball/free quaternions renormalised (the float32 floor of a
                            trajectory: a float32 engine rounds all of these at every step);
             round = "ulp": every state component is multiplied by (1 ± 2^-52) after every step,
                            signs from a seeded generator (the float64 round-off floor);
             energy = true: also [potential, kinetic] at the start and at every recorded state.

and one more, the float32 floor of the equations of motion themselves:

  equations  {qpos, qvel, tau, h, integrators, seed, k, stages?}
           MuJoCo's own equations M q̈ = f − b at the state (M the dense mass matrix, b =
           qfrc_bias, f everything else: applied, passive, actuator, constraint forces), solved in
           float64 by numpy.linalg.solve, once as written ("base") and k more times with every
           entry of M (upper triangle, mirrored: M stays symmetric) and of b multiplied by 1 + δ,
           δ uniform in [−2⁻²⁴, 2⁻²⁴] (seeded by [seed, j]), a fresh draw at every dynamics
           evaluation: the reference's sensitivity to storing its equations of motion in float32,
           which perturbing its inputs never reaches on an ill-conditioned M. Per perturbation:
           qacc (at tau) and qacc0 (tau = 0, the same M̃ and b̃), and one step of every integrator
           composed from that perturbed f(q, v), exactly as the engine defines each scheme
           (step_with), with every intermediate the engine's integrator stores (accelerations,
           stage velocities v½ / vm / v_i, stage positions with quaternions renormalised and the
           quaternion increment and product of q ⊕ h·v, RK4's weights and running sums, euler's
           v' and verlet's q' that the rest of the step reads) perturbed the same way, from a
           generator of its own ([seed, j, 1]). "perturbed" holds those k answers and then the
           same k draws of M and b with the intermediates left exact (δ = 0 is in the half-ulp
           box too), so a floor over all 2k never drops below the floor of M and b alone;
           stages = false gives only the latter k (the floor before the intermediates). Answer:
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


def quat_dofs(m):
    """(qpos slice, first angular dof) of every ball / free-joint quaternion."""
    out = []
    for j in range(m.njnt):
        a, d = int(m.jnt_qposadr[j]), int(m.jnt_dofadr[j])
        if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
            out.append((slice(a, a + 4), d))
        elif m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            out.append((slice(a + 3, a + 7), d + 3))
    return out


def rollout(ref, query):
    q, v, tau, ctrl = ref.state(query)
    steps = int(query["steps"])
    every = int(query.get("every", 1))
    mode = query.get("round")
    want_energy = bool(query.get("energy", False))
    rng = np.random.default_rng(int(query.get("seed", 1)))
    step = ref.stepper(query)
    if mode == "perturb":
        # The fully perturbed float32 step: the equations of motion perturbed at every dynamics
        # evaluation, every stored intermediate and the outputs (the state) perturbed, all from
        # this run's generator.
        eq, stored = Equations(ref, tau, ctrl, rng, bool(query.get("fixed", False))), Stored(ref, rng, query.get("storage") == "round")
        h = float(query.get("h", ref.h0))
        integrator, iters = query.get("integrator", "euler"), int(query.get("iters", 4))
        step = lambda q, v, t, c: step_with(ref, eq.f, q, v, h, integrator, iters, stored, store=True)
        # The initial state as a float32 engine holds it: stored like every later state.
        q, v = stored.q(q), stored.v(v)
    qs, vs, es = [], [], []
    if want_energy:
        es.append(energy_of(ref, q, v))
    for k in range(1, steps + 1):
        q, v = step(q, v, tau, ctrl)
        if mode == "f32":
            q = q.astype(np.float32).astype(np.float64)
            v = v.astype(np.float32).astype(np.float64)
        elif mode == "ulp":
            q = q * (1 + rng.choice([-1.0, 1.0], size=q.shape) * 2.0 ** -52)
            v = v * (1 + rng.choice([-1.0, 1.0], size=v.shape) * 2.0 ** -52)
        elif mode not in (None, "perturb"):
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

    def __init__(self, ref, tau, ctrl, rng, fixed=False):
        self.ref, self.tau, self.ctrl, self.rng = ref, tau, ctrl, rng
        # fixed: one draw of the relative perturbations of M and b, reused at every evaluation.
        self.fixed = None
        if rng is not None and fixed:
            self.fixed = self.draw()

    def draw(self):
        n = self.ref.m.nv
        if not hasattr(self, "iu"):
            self.iu = np.triu_indices(n)
        # One draw per upper-triangle entry (row by row, as np.triu of an n×n draw would use
        # them), mirrored: M̃ stays symmetric.
        d = self.rng.uniform(-HALF_ULP32, HALF_ULP32, size=(n, n))[self.iu]
        F = np.ones((n, n))
        F[self.iu] += d
        F.T[self.iu] = F[self.iu]
        return F, 1 + self.rng.uniform(-HALF_ULP32, HALF_ULP32, size=n)

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
            dM, db = self.fixed if self.fixed is not None else self.draw()
            M = M * dM
            b = b * db
        return M, b, rest

    def f(self, q, v):
        M, b, rest = self.parts(q, v, self.tau)
        return np.linalg.solve(M, rest - b)

    def accels(self, q, v):
        """q̈ at tau and at tau = 0 from the same (perturbed) M̃ and b̃."""
        M, b, rest = self.parts(q, v, self.tau)
        return np.linalg.solve(M, rest - b), np.linalg.solve(M, rest - self.tau - b)


class Stored:
    """A float32 engine's storage of one intermediate: every component multiplied by 1 + δ, δ
    uniform in [−2⁻²⁴, 2⁻²⁴] from rng (a fresh draw per call), quaternions renormalised for
    positions; with rng None, the value as is."""

    def __init__(self, ref, rng, rounding=False):
        self.rng, self.quats, self.rounding = rng, quat_slices(ref.m), rounding
        self.dofs = quat_dofs(ref.m)

    def v(self, x):
        x = np.asarray(x, dtype=np.float64)
        if self.rounding:
            return x.astype(np.float32).astype(np.float64)
        if self.rng is None:
            return x
        return x * (1 + self.rng.uniform(-HALF_ULP32, HALF_ULP32, size=x.shape))

    def q(self, x):
        if self.rng is None and not self.rounding:
            return x
        x = self.v(x)
        for sl in self.quats:
            x[sl] /= np.linalg.norm(x[sl])
        return self.v(x) if self.rounding else x

    def oplus(self, ref, q, v, h):
        """q ⊕ h·v (mj_integratePos) with, for every quaternion, the engine's stored intermediates
        (joints.hpp: dq = quat_exp(ω, h), then normalized(q ⊗ dq)) stored through v()."""
        out = ref.oplus(q, v, h)
        if self.rng is None and not self.rounding:
            return out
        for sl, d in self.dofs:
            w = np.asarray(v[d:d + 3], dtype=np.float64)
            n = np.linalg.norm(w)
            half = 0.5 * n * h
            dq = np.array([np.cos(half), *(np.sin(half) / n * w)]) if n > 0 else np.array([1.0, 0, 0, 0])
            dq = self.v(dq)
            p = np.zeros(4)
            mujoco.mju_mulQuat(p, np.asarray(q[sl], dtype=np.float64), dq)
            p = self.v(p)
            out[sl] = p / np.linalg.norm(p)
        return out

    def s(self, x):
        """A stored scalar constant (a tableau weight)."""
        if self.rounding:
            return float(np.float32(x))
        return x if self.rng is None else x * (1 + self.rng.uniform(-HALF_ULP32, HALF_ULP32))


def step_with(ref, f, q, v, h, integrator, iters=4, S=None, store=False):
    """One step composed from f(q, v) and mj_integratePos (q ⊕ h·v), with exactly the engine's
    definitions (native/include/achilles/integrators.hpp): euler semi-implicit (as mj_step's
    Euler without damping), verlet, midpoint (n = iters), rk4 classical (MuJoCo's and the
    engine's: stage X_i = X0 + A·h·k_{i−1}, positions through ⊕; q' = q ⊕ h·Σ B_i v_i,
    v' = v + h·Σ B_i a_i, the sums accumulated stage by stage).

    S (a Stored) perturbs every quantity a float32 engine stores on the way, each where the
    engine stores it: every acceleration f returns, every stage velocity (v½, vm, RK4's v_i),
    every stage position (quaternions renormalised), RK4's weights and its running sums Σ B_i v_i
    and Σ B_i a_i after every update, euler's v' before q' = q ⊕ h·v' reads it and verlet's q' before
    a(q', v½) does (those two are outputs too, returned as stored). store=True also perturbs the
    other outputs (q', v': the state a float32 engine keeps, each stored once)."""
    S = S or Stored(ref, None)
    out_q = S.q if store else (lambda x: x)
    out_v = S.v if store else (lambda x: x)
    hh = 0.5 * h
    if integrator == "euler":
        v1 = S.v(v + h * S.v(f(q, v)))
        return out_q(S.oplus(ref, q, v1, h)), v1
    if integrator == "verlet":
        vh = S.v(v + hh * S.v(f(q, v)))
        q1 = S.q(S.oplus(ref, q, vh, h))
        return q1, out_v(vh + hh * S.v(f(q1, vh)))
    if integrator == "midpoint":
        vm = S.v(v + hh * S.v(f(q, v)))
        for _ in range(iters):
            qm = S.q(S.oplus(ref, q, vm, hh))
            vm = S.v(v + hh * S.v(f(qm, vm)))
        return out_q(S.oplus(ref, q, vm, h)), out_v(2 * vm - v)
    if integrator == "rk4":
        A = (0.5, 0.5, 1.0)
        B = (1 / 6, 1 / 3, 1 / 3, 1 / 6)
        a_prev = S.v(f(q, v))
        v_prev = v
        vsum = S.v(S.s(B[0]) * v)
        asum = S.v(S.s(B[0]) * a_prev)
        for i in range(1, 4):
            st = A[i - 1] * h
            qs = S.q(S.oplus(ref, q, v_prev, st))
            vs = S.v(v + st * a_prev)
            a = S.v(f(qs, vs))
            vsum = S.v(vsum + S.s(B[i]) * vs)
            asum = S.v(asum + S.s(B[i]) * a)
            v_prev, a_prev = vs, a
        return out_q(S.oplus(ref, q, vsum, h)), out_v(v + h * asum)
    raise ValueError(f"unknown integrator {integrator!r} (euler, rk4, verlet, midpoint)")


def equations(ref, query):
    q, v, tau, ctrl = ref.state(query)
    h = float(query.get("h", ref.h0))
    integrators = list(query.get("integrators", []))
    seed = int(query.get("seed", 1))

    stages = bool(query.get("stages", True))

    def answer(j, stages):
        # M and b from the generator [seed, j], the intermediates from their own [seed, j, 1]:
        # the equations' draws are the same with stages on or off.
        rng = None if j is None else np.random.default_rng([seed, j])
        eq = Equations(ref, tau, ctrl, rng)
        a, a0 = eq.accels(q, v)
        steps = {}
        stored = Stored(ref, np.random.default_rng([seed, j, 1]) if stages and j is not None else None)
        for g in integrators:
            q1, v1 = step_with(ref, eq.f, q, v, h, g, S=stored)
            steps[g] = {"qpos": q1.tolist(), "qvel": v1.tolist()}
        return {"qacc": a.tolist(), "qacc0": a0.tolist(), "step": steps}

    k = int(query.get("k", 4))
    # With stages: k answers with the intermediates perturbed, then the same k draws of M and b
    # with the intermediates exact (δ = 0 is a half-ulp perturbation too), so a floor taken over
    # all 2k is never below the floor of M and b alone.
    perturbed = [answer(j, True) for j in range(k)] if stages else []
    return {"base": answer(None, False), "perturbed": perturbed + [answer(j, False) for j in range(k)]}


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
