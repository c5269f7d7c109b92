#!/usr/bin/env python3
"""MuJoCo as the validation reference for Achilles.

Reads one JSON request on stdin, writes one JSON response on stdout, so the TypeScript side
asks many questions per process launch:

  request:  {"xml": "<mujoco ...>", "queries": [{"kind": ..., "qpos": [...], ...}, ...]}
  response: {"version": "3.14.0", "results": [{...}, ...]}   or   {"error": "..."}

Floats go out through Python's json (repr: shortest round-trip) so JS reads them back exactly;
non-finite values are the strings "NaN", "Infinity", "-Infinity" (plain JSON has no token).

Kinds (all vectors optional, default: model qpos0 / zeros):
  kinematics  {qpos}                   -> xpos[nbody-1][3], xmat[nbody-1][9] (row-major), world excluded
  dynamics    {qpos, qvel, tau}        -> qM[nv][nv], qfrc_bias[nv], qacc[nv], energy [potential, kinetic]
  step        {qpos, qvel, tau, integrator, h?, composed?} -> qpos, qvel after one step
  trajectory  {..., steps, every}      -> qpos[k][nq], qvel[k][nv] after steps every, 2*every, ...
Integrators: "euler" and "rk4" use MuJoCo's own mj_step (unless composed=true for euler);
"verlet" and "midpoint" (MuJoCo has neither) are composed from MuJoCo's forward dynamics and
mj_integratePos, with exactly the definitions of the Achilles engine (see _verlet/_midpoint).
"""
import json
import math
import sys

try:
    import mujoco
    import numpy as np
except ImportError as e:  # the TS side turns this into an install hint
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install mujoco`"}))
    sys.exit(0)


class Ref:
    def __init__(self, xml):
        self.m = mujoco.MjModel.from_xml_string(xml)
        self.d = mujoco.MjData(self.m)
        self.h0 = self.m.opt.timestep
        self.integ0 = self.m.opt.integrator

    # ---- state helpers ---------------------------------------------------------------
    def vec(self, q, key, n, default):
        v = q.get(key)
        if v is None:
            return np.array(default, dtype=np.float64, copy=True)
        a = np.array([float(x) for x in v], dtype=np.float64)
        if a.shape != (n,):
            raise ValueError(f"{key} has length {a.size}, model needs {n}")
        return a

    def state(self, q):
        m = self.m
        return (self.vec(q, "qpos", m.nq, m.qpos0), self.vec(q, "qvel", m.nv, np.zeros(m.nv)),
                self.vec(q, "tau", m.nv, np.zeros(m.nv)), self.vec(q, "ctrl", m.nu, np.zeros(m.nu)))

    def set(self, qpos, qvel, tau, ctrl):
        mujoco.mj_resetData(self.m, self.d)
        self.d.qpos[:] = qpos
        self.d.qvel[:] = qvel
        self.d.qfrc_applied[:] = tau
        self.d.ctrl[:] = ctrl

    def f(self, qpos, qvel, tau, ctrl):
        """Forward dynamics qacc = f(q, v) with applied generalized force tau."""
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_forward(self.m, self.d)
        return self.d.qacc.copy()

    def oplus(self, qpos, v, h):
        """q ⊕ h·v (quaternion-aware for free/ball joints)."""
        out = qpos.copy()
        mujoco.mj_integratePos(self.m, out, v, h)
        return out

    # ---- integrators -------------------------------------------------------------------
    def _euler(self, q, v, h, tau, ctrl):
        v1 = v + h * self.f(q, v, tau, ctrl)
        return self.oplus(q, v1, h), v1

    def _verlet(self, q, v, h, tau, ctrl):
        a0 = self.f(q, v, tau, ctrl)
        vh = v + h / 2 * a0
        q1 = self.oplus(q, vh, h)
        a1 = self.f(q1, vh, tau, ctrl)  # velocity-dependent forces at the half-step velocity
        return q1, vh + h / 2 * a1

    def _midpoint(self, q, v, h, tau, ctrl, iters=4):
        a0 = self.f(q, v, tau, ctrl)
        vm = v + h / 2 * a0
        for _ in range(iters):
            qm = self.oplus(q, vm, h / 2)
            a = self.f(qm, vm, tau, ctrl)
            vm = v + h / 2 * a
        return self.oplus(q, vm, h), 2 * vm - v

    def _mj(self, q, v, h, tau, ctrl, integrator):
        self.m.opt.integrator = integrator
        self.m.opt.timestep = h
        try:
            self.set(q, v, tau, ctrl)
            mujoco.mj_step(self.m, self.d)
            return self.d.qpos.copy(), self.d.qvel.copy()
        finally:
            self.m.opt.integrator = self.integ0
            self.m.opt.timestep = self.h0

    def stepper(self, query):
        name = query.get("integrator", "euler")
        h = float(query.get("h", self.h0))
        composed = bool(query.get("composed", False))
        iters = int(query.get("iters", 4))
        if name == "euler" and composed:
            return lambda q, v, t, c: self._euler(q, v, h, t, c)
        if name == "euler":
            return lambda q, v, t, c: self._mj(q, v, h, t, c, mujoco.mjtIntegrator.mjINT_EULER)
        if name == "rk4":
            return lambda q, v, t, c: self._mj(q, v, h, t, c, mujoco.mjtIntegrator.mjINT_RK4)
        if name == "verlet":
            return lambda q, v, t, c: self._verlet(q, v, h, t, c)
        if name == "midpoint":
            return lambda q, v, t, c: self._midpoint(q, v, h, t, c, iters)
        raise ValueError(f"unknown integrator {name!r} (euler, rk4, verlet, midpoint)")

    # ---- query kinds -------------------------------------------------------------------
    def kinematics(self, query):
        qpos, qvel, tau, ctrl = self.state(query)
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_kinematics(self.m, self.d)
        return {"xpos": self.d.xpos[1:].tolist(), "xmat": self.d.xmat[1:].tolist()}

    def dynamics(self, query):
        m, d = self.m, self.d
        qpos, qvel, tau, ctrl = self.state(query)
        m.opt.enableflags |= int(mujoco.mjtEnableBit.mjENBL_ENERGY)
        self.set(qpos, qvel, tau, ctrl)
        mujoco.mj_forward(m, d)
        qM = np.zeros((m.nv, m.nv))
        mujoco.mj_fullM(m, d, qM)  # 3.14 signature: (m, d, dst)
        return {"qM": qM.tolist(), "qfrc_bias": d.qfrc_bias.tolist(), "qacc": d.qacc.tolist(),
                "energy": [float(d.energy[0]), float(d.energy[1])]}

    def step(self, query):
        qpos, qvel, tau, ctrl = self.state(query)
        q, v = self.stepper(query)(qpos, qvel, tau, ctrl)
        return {"qpos": q.tolist(), "qvel": v.tolist()}

    def kinds(self):
        return {"kinematics": self.kinematics, "dynamics": self.dynamics, "step": self.step,
                "trajectory": self.trajectory}

    def trajectory(self, query):
        q, v, tau, ctrl = self.state(query)
        steps = int(query["steps"])
        every = int(query.get("every", 1))
        if steps < 0 or every < 1:
            raise ValueError("trajectory needs steps >= 0 and every >= 1")
        step = self.stepper(query)
        qs, vs = [], []
        for k in range(1, steps + 1):
            q, v = step(q, v, tau, ctrl)
            if k % every == 0:
                qs.append(q.tolist())
                vs.append(v.tolist())
        return {"qpos": qs, "qvel": vs}


def finite_safe(x):
    """JSON has no NaN/Infinity: encode them as strings the TS side decodes."""
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    if isinstance(x, list):
        return [finite_safe(y) for y in x]
    if isinstance(x, dict):
        return {k: finite_safe(y) for k, y in x.items()}
    return x


def main(make=Ref):
    """The request loop; `make` builds the reference (mujoco_contact.py passes a subclass whose
    kinds() adds its own query kinds)."""
    try:
        req = json.loads(sys.stdin.read())
        ref = make(req["xml"])
        kinds = ref.kinds()
        results = []
        for i, query in enumerate(req.get("queries", [])):
            kind = query.get("kind")
            if kind not in kinds:
                raise ValueError(f"query {i}: unknown kind {kind!r}")
            results.append(kinds[kind](query))
        out = {"version": mujoco.__version__, "results": results}
    except Exception as e:  # one error line for the caller instead of a traceback on stderr
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(finite_safe(out), allow_nan=False))


if __name__ == "__main__":
    main()
