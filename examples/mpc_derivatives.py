#!/usr/bin/env python3
"""iLQR on Gymnasium's inverted pendulum with the transition Jacobians of a whole trajectory from one
achilles.derivatives.transition_fd call (or, --backend mujoco, a loop of mujoco.mjd_transitionFD).

  python3 examples/mpc_derivatives.py [--backend achilles|mujoco] [--iterations 3] [--horizon 100]

The pendulum starts tilted by 0.2 rad. The first plan is LQR's: A, B at the upright equilibrium (one
state), the Riccati recursion's gain, the closed loop rolled out by MuJoCo. Each iLQR iteration then
takes the plan as MuJoCo rolled it out (its states x_t and each step's warm start), A_t, B_t of
mj_step at every state of it (dx_{t+1} = A_t dx_t + B_t du_t, finite differences as mjd_transitionFD),
then iLQR's backward pass for the cost (x: the tangent state about upright, centred, at rest)
    J = 1/2 sum_t (x_t' Q x_t + u_t' R u_t) + 1/2 x_T' Q_T x_T:
    v_T = Q_T x_T, V_T = Q_T;  q_x = Q x + A' v, q_u = R u + B' v, Q_xx = Q + A' V A, Q_uu = R + B' V B,
    Q_ux = B' V A;  k = -Q_uu^-1 q_u, K = -Q_uu^-1 Q_ux;
    v <- q_x + K' Q_uu k + K' q_u + Q_ux' k,  V <- Q_xx + K' Q_uu K + K' Q_ux + Q_ux' K,
and a forward pass u_t = clip(u_t + a k_t + K_t (x_t_new - x_t)) with the step a halved until J falls.
Prints J per iteration (LQR's plan first) and the seconds spent on derivatives (JSON on the last
line). The model runs with implicitfast (Gymnasium's own RK4 is refused by mjd_transitionFD).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import mujoco
import numpy as np

FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS.value


def load_pendulum() -> mujoco.MjModel:
    """InvertedPendulum's model with implicitfast."""
    import gymnasium.envs.mujoco as gm

    m = mujoco.MjModel.from_xml_path(os.path.join(os.path.dirname(gm.__file__), "assets", "inverted_pendulum.xml"))
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_IMPLICITFAST
    return m


def roll_out(m, x0: np.ndarray, u: np.ndarray, ref=None, k=None, K=None, step: float = 0.0):
    """The plan's states (T + 1, 1 + nq + nv + na: FULLPHYSICS), controls (T, nu) and the warm start each
    step starts from (T, nv); with ref/k/K, iLQR's forward pass about the reference states."""
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, x0, FULL)
    T = len(u)
    states, warm, applied = np.empty((T + 1, len(x0))), np.empty((T, m.nv)), np.empty_like(u)
    states[0] = x0
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    for t in range(T):
        ut = u[t]
        if K is not None:
            ut = ut + step * k[t] + K[t] @ tangent(m, ref[t], states[t])
        applied[t] = np.clip(ut, lo, hi)
        warm[t] = d.qacc_warmstart
        d.ctrl[:] = applied[t]
        mujoco.mj_step(m, d)
        mujoco.mj_getState(m, d, states[t + 1], FULL)
    return states, applied, warm


def tangent(m, s1: np.ndarray, s2: np.ndarray) -> np.ndarray:
    """s2 - s1 in the tangent space, (2 nv + na) (mj_differentiatePos for qpos)."""
    nq, nv = m.nq, m.nv
    dq = np.empty(nv)
    mujoco.mj_differentiatePos(m, dq, 1.0, s1[1 : 1 + nq], s2[1 : 1 + nq])
    return np.concatenate([dq, s2[1 + nq :] - s1[1 + nq :]])


def cost(m, states, u, Q, R, QT) -> float:
    x = np.array([tangent(m, np.zeros_like(s), s) for s in states])  # about qpos = 0 (nq == nv here)
    return 0.5 * float(np.einsum("ti,ij,tj->", x[:-1], Q, x[:-1]) + np.einsum("ti,ij,tj->", u, R, u) + x[-1] @ QT @ x[-1])


def jacobians(backend: str, m, states, u, warm):
    """A (T, ndx, ndx), B (T, ndx, nu) at every state of the plan."""
    if backend == "achilles":
        from achilles import derivatives

        return derivatives.transition_fd(m, states, u, warmstart=warm)
    ndx = 2 * m.nv + m.na
    A, B = np.zeros((len(u), ndx, ndx)), np.zeros((len(u), ndx, m.nu))
    d = mujoco.MjData(m)
    for t in range(len(u)):
        mujoco.mj_setState(m, d, states[t], FULL)
        d.ctrl[:], d.qacc_warmstart[:] = u[t], warm[t]
        mujoco.mjd_transitionFD(m, d, 1e-6, False, A[t], B[t], None, None)
    return A, B


def backward(m, states, u, A, B, Q, R, QT, mu: float = 1e-6):
    """iLQR's gains k (T, nu), K (T, nu, ndx) from the linearised dynamics and the quadratic cost."""
    T = len(u)
    x = np.array([tangent(m, np.zeros_like(s), s) for s in states])
    v, V = QT @ x[-1], QT.copy()
    k, K = np.zeros_like(u), np.zeros((T, m.nu, A.shape[1]))
    for t in reversed(range(T)):
        a, b = A[t], B[t]
        qx, qu = Q @ x[t] + a.T @ v, R @ u[t] + b.T @ v
        qxx, quu, qux = Q + a.T @ V @ a, R + b.T @ V @ b + mu * np.eye(m.nu), b.T @ V @ a
        k[t], K[t] = -np.linalg.solve(quu, qu), -np.linalg.solve(quu, qux)
        v = qx + K[t].T @ quu @ k[t] + K[t].T @ qu + qux.T @ k[t]
        V = qxx + K[t].T @ quu @ K[t] + K[t].T @ qux + qux.T @ K[t]
        V = 0.5 * (V + V.T)
    return k, K


def lqr_gain(A, B, Q, R, sweeps: int = 2000):
    """The infinite-horizon discrete LQR gain (u = -K x) by iterating the Riccati recursion."""
    P = Q.copy()
    for _ in range(sweeps):
        K = np.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
        P = Q + A.T @ P @ (A - B @ K)
    return K


def ilqr(m, backend: str = "achilles", iterations: int = 3, horizon: int = 100, tilt: float = 0.2) -> dict:
    """The first plan: LQR about the upright equilibrium (A, B there: one state); then `iterations` of
    iLQR, each linearising the whole plan (horizon states) in one call."""
    ndx = 2 * m.nv + m.na
    Q, R, QT = np.diag([1.0, 10.0, 0.1, 0.1]), 0.01 * np.eye(m.nu), 100 * np.eye(ndx)
    upright = np.zeros(mujoco.mj_stateSize(m, FULL))
    t0 = time.perf_counter()
    A, B = jacobians(backend, m, upright[None], np.zeros((1, m.nu)), np.zeros((1, m.nv)))
    spent = time.perf_counter() - t0
    K_lqr = lqr_gain(A[0], B[0], Q, R)
    x0 = upright.copy()
    x0[1 + 1] = tilt  # the hinge
    u = np.zeros((horizon, m.nu))
    hold = np.tile(upright, (horizon + 1, 1))
    states, u, warm = roll_out(m, x0, u, hold, np.zeros_like(u), np.repeat(-K_lqr[None], horizon, axis=0))
    costs = [cost(m, states, u, Q, R, QT)]
    for _ in range(iterations):
        t0 = time.perf_counter()
        A, B = jacobians(backend, m, states[:-1], u, warm)
        spent += time.perf_counter() - t0
        k, K = backward(m, states, u, A, B, Q, R, QT)
        for step in 0.5 ** np.arange(10):
            new_states, new_u, new_warm = roll_out(m, x0, u, states, k, K, step)
            new_cost = cost(m, new_states, new_u, Q, R, QT)
            if new_cost < costs[-1]:
                states, u, warm = new_states, new_u, new_warm
                break
        costs.append(min(new_cost, costs[-1]))
    return {"costs": costs, "final_tilt": float(states[-1, 2]), "derivative_seconds": spent, "controls": u.ravel().tolist()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--backend", choices=["achilles", "mujoco"], default="achilles")
    p.add_argument("--iterations", type=int, default=3)
    p.add_argument("--horizon", type=int, default=100)
    a = p.parse_args()
    out = ilqr(load_pendulum(), a.backend, a.iterations, a.horizon)
    for i, c in enumerate(out["costs"]):
        print(f"iteration {i}: J = {c:.4f}")
    print(json.dumps({k: v for k, v in out.items() if k != "controls"}))


if __name__ == "__main__":
    main()
