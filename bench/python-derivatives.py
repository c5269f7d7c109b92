"""achilles.derivatives.transition_fd against a loop of mujoco.mjd_transitionFD: NSTATES states of
Gymnasium's ant (implicitfast: its own RK4 is refused by mjd_transitionFD), forward differences,
eps = 1e-6, one thread each side.

    python3 bench/python-derivatives.py [--nstates 256] [--integrator implicitfast] [--repeats 5] [--csv OUT.csv]

The states: the ant resting on the floor (MuJoCo's state 100 steps after reset), pressed into it and
perturbed (every state in contact), with uniform random controls and the resting state's warm start.
MuJoCo: mj_setState, ctrl, qacc_warmstart, mjd_transitionFD per state (1 + 2 nv + na + nu steps each,
the later ones skipping the stages they share with the nominal); ours: one call, every perturbed copy
of every state a lane of one Batch stepped once (the batch kept between calls; the first call is not
timed). Per side: the median seconds of the whole batch, the states per second, MuJoCo's time over
ours, and the worst |A - A_MuJoCo| and |B - B_MuJoCo| relative to their largest entry.

MjModel -> engine: achilles.put_model where the package has it; otherwise the engine's model is
compiled by the CLI from the same XML (test_derivatives.py's shim).
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import tempfile
import time

import numpy as np

INTEGRATORS = {"euler": "Euler", "implicitfast": "implicitfast"}


def ant_model(integrator: str):
    import achilles
    import gymnasium.envs.mujoco as gm
    import mujoco
    from achilles import rollout as ach_rollout

    text = open(os.path.join(os.path.dirname(gm.__file__), "assets", "ant.xml")).read()
    path = os.path.join(tempfile.mkdtemp(), f"ant-{integrator}.xml")
    with open(path, "w") as f:
        f.write(text.replace('integrator="RK4"', f'integrator="{INTEGRATORS[integrator]}"'))
    m = mujoco.MjModel.from_xml_path(path)
    if not hasattr(achilles, "put_model"):
        doc = achilles.compile_model(path)
        ach_rollout._compiled = lambda model: doc
    return m


def inputs(m, nstates: int, seed: int = 0):
    import mujoco

    full = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
    d = mujoco.MjData(m)
    for _ in range(100):
        mujoco.mj_step(m, d)
    s = np.empty(mujoco.mj_stateSize(m, full))
    mujoco.mj_getState(m, d, s, full)
    rng = np.random.default_rng(seed)
    s0 = np.tile(s, (nstates, 1))
    s0[:, 1 : 1 + m.nq] += rng.uniform(-0.01, 0.01, (nstates, m.nq))
    s0[:, 3] -= 0.01  # the torso's height: pressed onto the floor
    s0[:, 4:8] /= np.linalg.norm(s0[:, 4:8], axis=1, keepdims=True)  # the free joint's quaternion
    s0[:, 1 + m.nq : 1 + m.nq + m.nv] += rng.uniform(-0.2, 0.2, (nstates, m.nv))
    u = rng.uniform(m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1], (nstates, m.nu))
    return s0, u, d.qacc_warmstart.copy()


def timed(call, repeats: int):
    out = call()  # warm: the batch, the model's conversion
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main(argv: list[str]) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--nstates", type=int, default=256)
    p.add_argument("--integrator", choices=sorted(INTEGRATORS), default="implicitfast")
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--csv", help="also write the table here")
    a = p.parse_args(argv)

    import mujoco

    from achilles import derivatives

    m = ant_model(a.integrator)
    s0, u, warm = inputs(m, a.nstates)
    full = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
    ndx = 2 * m.nv + m.na
    d = mujoco.MjData(m)

    def mujoco_loop():
        A, B = np.zeros((a.nstates, ndx, ndx)), np.zeros((a.nstates, ndx, m.nu))
        for i in range(a.nstates):
            mujoco.mj_setState(m, d, s0[i], full)
            d.ctrl[:], d.qacc_warmstart[:] = u[i], warm
            mujoco.mjd_transitionFD(m, d, 1e-6, False, A[i], B[i], None, None)
        return A, B

    base, (A_ref, B_ref) = timed(mujoco_loop, a.repeats)
    sec, (A, B) = timed(lambda: derivatives.transition_fd(m, s0, u, warmstart=warm), a.repeats)
    dA = float(np.abs(A - A_ref).max() / np.abs(A_ref).max())
    dB = float(np.abs(B - B_ref).max() / np.abs(B_ref).max())
    rows = [("mujoco.mjd_transitionFD loop", base, "", ""), ("achilles transition_fd", sec, f"{dA:.2g}", f"{dB:.2g}")]

    header = ["side", "integrator", "nstates", "seconds", "states_per_s", "speedup", "rel_diff_A", "rel_diff_B"]
    table = [[side, a.integrator, a.nstates, f"{t:.4f}", f"{a.nstates / t:.0f}", f"{base / t:.2f}", da, db] for side, t, da, db in rows]
    widths = [max(len(str(r[i])) for r in [header] + table) for i in range(len(header))]
    lanes = 1 + ndx + m.nu
    print(f"ant: {a.nstates} states x {lanes} steps each (forward differences), one thread each side (median of {a.repeats})")
    for r in [header] + table:
        print("  ".join(str(c).rjust(w) for c, w in zip(r, widths)))
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            csv.writer(f).writerows([header] + table)


if __name__ == "__main__":
    main(sys.argv[1:])
