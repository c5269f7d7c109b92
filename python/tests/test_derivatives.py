"""achilles.derivatives against mujoco.mjd_transitionFD (MuJoCo 3.14), side by side.

Gymnasium's hopper, ant and humanoid with Euler and implicitfast (their own RK4 is refused by
mjd_transitionFD), contacts on: NSTATES states pressed onto the floor, perturbed, with random controls
(two of them at a ctrlrange limit and one outside it, for the one-sided and the failed nudges) and
MuJoCo's warm start. A and B must agree with MuJoCo's within
    bar = max(1e-5, 10 x MuJoCo's own |forward - centered| / its largest entry) x the largest entry,
measured per model and matrix and printed (pytest -s); the batched transition_fd must equal the drop-in
mjd_transitionFD state by state, bit for bit, and threads must not change a bit.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")
gym_mujoco = pytest.importorskip("gymnasium.envs.mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built", allow_module_level=True)

from achilles import derivatives  # noqa: E402
from achilles import rollout as ach_rollout  # noqa: E402
from achilles._model_versions import ModelVersions  # noqa: E402
from achilles._rollout_lanes import LanesCache  # noqa: E402

ASSETS = os.path.join(os.path.dirname(gym_mujoco.__file__), "assets")
FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
NSTATES, SETTLE, EPS = 6, 100, 1e-6


MJ_INTEGRATOR = {"euler": mujoco.mjtIntegrator.mjINT_EULER, "implicitfast": mujoco.mjtIntegrator.mjINT_IMPLICITFAST}


@pytest.fixture
def engine_model(monkeypatch):
    """An MjModel of a Gymnasium asset (or a file) with the given integrator set on the model, which
    reaches the engine through achilles.put_model; fresh caches of model versions and lanes per test."""

    def load(name: str, integrator: str):
        source = name if name.endswith(".xml") else os.path.join(ASSETS, f"{name}.xml")
        m = mujoco.MjModel.from_xml_path(source)
        m.opt.integrator = MJ_INTEGRATOR[integrator]
        return m

    monkeypatch.setattr(ach_rollout, "_versions", ModelVersions())
    monkeypatch.setattr(derivatives, "_lanes", LanesCache())  # version numbers restart with _versions
    return load


def root_height(m) -> int:
    j = 0 if m.jnt_type[0] == mujoco.mjtJoint.mjJNT_FREE else m.joint("rootz").id
    return int(m.jnt_qposadr[j]) + (2 if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE else 0)


def states_controls(m, seed: int = 5):
    """NSTATES perturbed states in contact, their controls, and the settled state's warm start."""
    rng = np.random.default_rng(seed)
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    d = mujoco.MjData(m)
    for _ in range(SETTLE):
        d.ctrl[:] = rng.uniform(lo, hi) * 0.1
        mujoco.mj_step(m, d)
    base = np.empty(mujoco.mj_stateSize(m, FULL))
    mujoco.mj_getState(m, d, base, FULL)
    s = np.tile(base, (NSTATES, 1))
    s[:, 1 : 1 + m.nq] += rng.uniform(-0.01, 0.01, (NSTATES, m.nq))
    s[:, 1 + root_height(m)] -= 0.01  # pressed onto the floor
    s[:, 1 + m.nq : 1 + m.nq + m.nv] += rng.uniform(-0.2, 0.2, (NSTATES, m.nv))
    for j in np.flatnonzero(m.jnt_type == mujoco.mjtJoint.mjJNT_FREE):
        a = 1 + m.jnt_qposadr[j] + 3
        s[:, a : a + 4] /= np.linalg.norm(s[:, a : a + 4], axis=1, keepdims=True)
    u = rng.uniform(lo, hi, (NSTATES, m.nu))
    u[0, 0], u[1, 1 % m.nu] = hi[0], lo[1 % m.nu]  # at a limit: one-sided nudges
    u[2, 0] = hi[0] + 0.5  # outside the range: no nudge fits, a zero column
    return s, u, d.qacc_warmstart.copy()


def mujoco_fd(m, s, u, warm, centered: bool, eps: float = EPS):
    """mujoco.mjd_transitionFD at each state (its mjData: the state, ctrl and warm start)."""
    ndx = 2 * m.nv + m.na
    A, B = np.zeros((len(s), ndx, ndx)), np.zeros((len(s), ndx, m.nu))
    d = mujoco.MjData(m)
    for i in range(len(s)):
        mujoco.mj_setState(m, d, s[i], FULL)
        d.ctrl[:], d.qacc_warmstart[:] = u[i], warm
        mujoco.mjd_transitionFD(m, d, eps, centered, A[i], B[i], None, None)
    return A, B


def contacts_at(m, state) -> int:
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, state, FULL)
    mujoco.mj_forward(m, d)
    return d.ncon


@pytest.mark.parametrize("integrator", ["euler", "implicitfast"])
@pytest.mark.parametrize("name", ["hopper", "ant", "humanoid"])
def test_equals_mujoco_transition_fd(engine_model, name: str, integrator: str) -> None:
    m = engine_model(name, integrator)
    s, u, warm = states_controls(m)
    assert all(contacts_at(m, x) > 0 for x in s), "every state should be in contact"
    ref = {c: mujoco_fd(m, s, u, warm, c) for c in (False, True)}
    for centered in (False, True):
        A, B = derivatives.transition_fd(m, s, u, eps=EPS, centered=centered, warmstart=warm)
        for what, got, want, other in (("A", A, ref[centered][0], ref[not centered][0]), ("B", B, ref[centered][1], ref[not centered][1])):
            scale = float(np.abs(want).max())
            floor = float(np.abs(want - other).max()) / scale  # MuJoCo's own forward vs centered
            bar = max(1e-5, 10 * floor) * scale
            diff = float(np.abs(got - want).max())
            kind = "centered" if centered else "forward"
            print(f"\n{name} {integrator} {kind} {what}: largest entry {scale:.3g}, MuJoCo's forward-centered {floor:.2g}"
                  f" (relative), bar {bar:.3g}; |ours - MuJoCo| {diff:.3g} ({diff / scale:.2g} relative)")
            assert got.shape == want.shape
            assert diff <= bar, f"{name} {integrator} {kind} {what}: {diff} > {bar}"
    assert np.all(B[2][:, 0] == 0) and np.all(ref[True][1][2][:, 0] == 0), "a control outside its range: a zero column"


def test_batched_equals_drop_in_state_by_state_and_threads_change_no_bit(engine_model) -> None:
    m = engine_model("ant", "implicitfast")
    s, u, warm = states_controls(m, seed=11)
    for centered in (False, True):
        A, B = derivatives.transition_fd(m, s, u, centered=centered, warmstart=warm)
        A2, B2 = derivatives.transition_fd(m, s, u, centered=centered, warmstart=warm, threads=2)
        assert np.array_equal(A, A2) and np.array_equal(B, B2)
        d = mujoco.MjData(m)
        ndx = 2 * m.nv + m.na
        for i in range(len(s)):
            mujoco.mj_setState(m, d, s[i], FULL)
            d.ctrl[:], d.qacc_warmstart[:] = u[i], warm
            a, b = np.full((ndx, ndx), np.nan), np.full((ndx, m.nu), np.nan)
            achilles.mjd_transitionFD(m, d, 1e-6, centered, a, b, None, None)
            assert np.array_equal(a, A[i]) and np.array_equal(b, B[i]), f"state {i}"
            got_b = np.full((ndx, m.nu), np.nan)
            achilles.mjd_transitionFD(m, d, 1e-6, centered, None, got_b, None, None)
            assert np.array_equal(got_b, b), "B alone as with A"


def test_the_warm_start_is_the_nominals(engine_model) -> None:
    """Humanoid (PGS, 50 iterations) stops short of convergence, so its Jacobians depend on where the
    solver starts when the warm start is good enough to be taken (MuJoCo starts cold from a worse one):
    each state's own warm start here, 0.9 x its qacc (what the previous step of a trajectory leaves).
    Ours from those match MuJoCo's; from none they would be as far off as MuJoCo's own from none."""
    m = engine_model("humanoid", "implicitfast")
    s, u, _ = states_controls(m, seed=2)
    d = mujoco.MjData(m)
    warm = np.empty((len(s), m.nv))
    for i in range(len(s)):
        mujoco.mj_setState(m, d, s[i], FULL)
        d.ctrl[:] = u[i]
        mujoco.mj_forward(m, d)
        warm[i] = 0.9 * d.qacc
    ndx = 2 * m.nv + m.na
    want, cold = np.zeros((len(s), ndx, ndx)), np.zeros((len(s), ndx, ndx))
    for i in range(len(s)):
        mujoco.mj_setState(m, d, s[i], FULL)
        d.ctrl[:], d.qacc_warmstart[:] = u[i], warm[i]
        mujoco.mjd_transitionFD(m, d, EPS, False, want[i], None, None, None)
        d.qacc_warmstart[:] = 0
        mujoco.mjd_transitionFD(m, d, EPS, False, cold[i], None, None, None)
    got, _ = derivatives.transition_fd(m, s, u, warmstart=warm)
    got_cold, _ = derivatives.transition_fd(m, s, u)
    floor, diff, diff_cold = (float(np.abs(x).max()) for x in (want - cold, got - want, got_cold - cold))
    print(f"\nhumanoid: MuJoCo's A with and without the warm start differ by {floor:.3g}; |ours - MuJoCo| {diff:.3g}"
          f" (warm start), {diff_cold:.3g} (none)")
    assert floor > 1e-3, "the warm start should matter here"
    assert diff < floor / 1000 and diff_cold < floor / 1000


def test_refusals_and_mujocos_errors(engine_model) -> None:
    m = engine_model("hopper", "euler")
    d = mujoco.MjData(m)
    ndx = 2 * m.nv + m.na
    for bad in (np.zeros((ndx, ndx - 1)), np.zeros((ndx, ndx), dtype=np.float32), np.zeros((ndx, ndx)).T, np.zeros(ndx * ndx)):
        for fd in (mujoco.mjd_transitionFD, achilles.mjd_transitionFD):
            with pytest.raises(TypeError):
                fd(m, d, 1e-6, False, bad, None, None, None)
    with pytest.raises(TypeError, match=r"A should be of shape \(2\*nv\+na, 2\*nv\+na\)"):
        achilles.mjd_transitionFD(m, d, 1e-6, False, np.zeros((ndx, 1)), None, None, None)
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_RK4
    for fd in (mujoco.mjd_transitionFD, achilles.mjd_transitionFD):
        with pytest.raises(mujoco.FatalError, match="mjd_transitionFD: RK4 integrator is not supported"):
            fd(m, d, 1e-6, False, np.zeros((ndx, ndx)), None, None, None)
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_IMPLICIT
    with pytest.raises(NotImplementedError, match="mjINT_IMPLICIT"):
        achilles.mjd_transitionFD(m, d, 1e-6, False, np.zeros((ndx, ndx)), None, None, None)
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    d.xfrc_applied[1, 2] = 1.0
    with pytest.raises(NotImplementedError, match="xfrc_applied"):
        achilles.mjd_transitionFD(m, d, 1e-6, False, np.zeros((ndx, ndx)), None, None, None)
    d.xfrc_applied[:] = 0
    d.ctrl[1] = np.nan
    with pytest.raises(ValueError, match=r"controls\[0, 1\] \(ctrl\[1\], actuator 1\) is nan"):
        achilles.mjd_transitionFD(m, d, 1e-6, False, np.zeros((ndx, ndx)), None, None, None)
    s, u, _ = states_controls(m)
    with pytest.raises(ValueError, match="eps must be a positive finite number"):
        derivatives.transition_fd(m, s, u, eps=0.0)
    with pytest.raises(ValueError, match=r"controls must be \(nbatch, 3\)"):
        derivatives.transition_fd(m, s, u[:, :2])


def test_sensors_are_refused_for_c_and_d() -> None:
    m = mujoco.MjModel.from_xml_string(
        '<mujoco><worldbody><body><joint name="j"/><geom size=".1"/></body></worldbody>'
        '<actuator><motor joint="j"/></actuator><sensor><jointpos joint="j" name="angle"/></sensor></mujoco>'
    )
    d = mujoco.MjData(m)
    with pytest.raises(NotImplementedError, match="1 sensors"):
        achilles.mjd_transitionFD(m, d, 1e-6, False, None, None, np.zeros((1, 2)), None)


def test_tangent_arithmetic_is_mujocos() -> None:
    """_tangent's integrate_pos and differentiate_pos equal mj_integratePos and mj_differentiatePos row by
    row (free, ball, hinge and slide joints; zero velocities too, where MuJoCo takes the null rotation):
    integration to the bit, differences within a few ulps (libm's atan2)."""
    from achilles._tangent import Tangent, differentiate_pos, integrate_pos

    m = mujoco.MjModel.from_xml_string(
        '<mujoco><worldbody><body><freejoint/><geom size=".1"/><body><joint type="ball"/><geom size=".1"/>'
        '<body><joint type="hinge"/><joint type="slide"/><geom size=".1"/></body></body></body></worldbody></mujoco>'
    )
    t, rng, n = Tangent.of(m), np.random.default_rng(1), 64
    q, v, h = rng.normal(size=(n, m.nq)), rng.normal(size=(n, m.nv)), rng.uniform(-1, 1, n)
    v[::7] = 0
    v[::5, 3:6] = 0
    got, want = integrate_pos(t, q, v, h), q.copy()
    for r in range(n):
        mujoco.mj_integratePos(m, want[r], v[r], h[r])
    assert np.array_equal(got, want)
    q2 = integrate_pos(t, want, rng.normal(size=(n, m.nv)), 1.0)
    got, ref = differentiate_pos(t, want, q2, h), np.empty((n, m.nv))
    for r in range(n):
        mujoco.mj_differentiatePos(m, ref[r], h[r], want[r], q2[r])
    assert np.allclose(got, ref, rtol=1e-14, atol=0)


def test_ilqr_example_plans_as_with_mujoco(engine_model) -> None:
    """examples/mpc_derivatives.py, short: LQR's plan then one iLQR step lowers the cost, and with our
    Jacobians it makes the plan MuJoCo's make (the same costs and controls); the script runs."""
    import importlib.util
    import json
    import subprocess
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "mpc_derivatives.py"
    spec = importlib.util.spec_from_file_location("mpc_derivatives", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    m = engine_model("inverted_pendulum", "implicitfast")
    ours = example.ilqr(m, "achilles", iterations=1, horizon=40)
    theirs = example.ilqr(m, "mujoco", iterations=1, horizon=40)
    print(f"\niLQR costs: ours {ours['costs']}, with MuJoCo's Jacobians {theirs['costs']}")
    assert ours["costs"][1] < ours["costs"][0]
    assert np.allclose(ours["costs"], theirs["costs"], rtol=1e-7, atol=0)
    assert np.abs(np.array(ours["controls"]) - theirs["controls"]).max() < 1e-6
    r = subprocess.run([sys.executable, str(path), "--iterations", "1", "--horizon", "20"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    costs = json.loads(r.stdout.strip().splitlines()[-1])["costs"]
    assert costs[1] <= costs[0]


def test_f32_needs_a_larger_eps_and_then_follows_mujoco(engine_model) -> None:
    """precision='f32': the engine's single precision (7 digits) cannot resolve eps = 1e-6; centered with
    eps = 1e-3 it follows MuJoCo's f64 differences of the same eps within 1e-3 of the largest entry."""
    m = engine_model("ant", "implicitfast")
    s, u, warm = states_controls(m)
    A_ref, B_ref = mujoco_fd(m, s, u, warm, True, eps=1e-3)
    A, B = derivatives.transition_fd(m, s, u, eps=1e-3, centered=True, warmstart=warm, precision="f32")
    dA, dB = (float(np.abs(x - y).max() / np.abs(y).max()) for x, y in ((A, A_ref), (B, B_ref)))
    print(f"\nant f32, eps 1e-3, centered: |ours - MuJoCo| / largest entry: A {dA:.2g}, B {dB:.2g}")
    assert dA < 1e-3 and dB < 1e-3
    A6, _ = derivatives.transition_fd(m, s, u, centered=True, warmstart=warm, precision="f32")
    assert np.abs(A6 - A_ref).max() / np.abs(A_ref).max() > 1e-2, "eps = 1e-6 is below f32's resolution"


SERVOS = os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "import", "mjcf-general-servos.xml")


@pytest.mark.parametrize("integrator", ["euler", "implicitfast"])
def test_activations_and_servos(engine_model, integrator: str) -> None:
    """The general-servos arm (5 activations: filters, filterexact, an integrator with actrange, actearly;
    affine gains and biases): Euler equals MuJoCo, act columns included. Under implicitfast its wrist_trim
    actuator's gain has a velocity term, so MuJoCo's B column (stepped with the nominal's factor of
    M - h qDeriv) is not the step's: refused, naming the actuator."""
    m = engine_model(SERVOS, integrator)
    assert m.na == 5
    rng = np.random.default_rng(4)
    d = mujoco.MjData(m)
    for _ in range(50):
        d.ctrl[:] = rng.uniform(-1, 1, m.nu)
        mujoco.mj_step(m, d)
    d.qvel[:] += rng.uniform(-0.5, 0.5, m.nv)
    ndx = 2 * m.nv + m.na
    if integrator == "implicitfast":
        with pytest.raises(NotImplementedError, match="actuator 'wrist_trim'.s gain depends on velocity"):
            achilles.mjd_transitionFD(m, d, EPS, False, np.zeros((ndx, ndx)), None, None, None)
        return
    for centered in (False, True):
        A, B = np.zeros((ndx, ndx)), np.zeros((ndx, m.nu))
        mujoco.mjd_transitionFD(m, d, EPS, centered, A, B, None, None)
        a, b = np.zeros((ndx, ndx)), np.zeros((ndx, m.nu))
        achilles.mjd_transitionFD(m, d, EPS, centered, a, b, None, None)
        dA, dB = np.abs(a - A).max() / np.abs(A).max(), np.abs(b - B).max() / np.abs(B).max()
        print(f"\ngeneral servos, Euler, {'centered' if centered else 'forward'}: |ours - MuJoCo| / largest: A {dA:.2g}, B {dB:.2g}")
        assert dA < 1e-5 and dB < 1e-5
        assert np.abs(A[:, 2 * m.nv :]).max() > 0.1, "the activation columns are exercised"


def test_drop_in_takes_qfrc_applied_from_mjdata(engine_model) -> None:
    """mjd_transitionFD steps d as it is: its qfrc_applied acts in every perturbed step too."""
    m = engine_model("hopper", "euler")
    s, u, warm = states_controls(m)
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, s[3], FULL)
    d.ctrl[:], d.qacc_warmstart[:] = u[3], warm
    d.qfrc_applied[:] = np.linspace(-20, 20, m.nv)
    ndx = 2 * m.nv + m.na
    A, B, a, b = np.zeros((ndx, ndx)), np.zeros((ndx, m.nu)), np.zeros((ndx, ndx)), np.zeros((ndx, m.nu))
    mujoco.mjd_transitionFD(m, d, EPS, False, A, B, None, None)
    achilles.mjd_transitionFD(m, d, EPS, False, a, b, None, None)
    a0 = np.zeros((ndx, ndx))
    d.qfrc_applied[:] = 0
    mujoco.mjd_transitionFD(m, d, EPS, False, a0, None, None, None)
    assert np.abs(A - a0).max() > 1e-3, "the applied forces should change A here"
    assert np.abs(a - A).max() <= 1e-5 * np.abs(A).max() and np.abs(b - B).max() <= 1e-5 * np.abs(B).max()


def test_a_diverging_lane_names_its_state_and_perturbation(engine_model, monkeypatch) -> None:
    """The engine reports the lane; the error names the state and what its lane perturbs."""
    from achilles._rollout_lanes import Lanes, RolloutDivergedError

    m = engine_model("hopper", "euler")
    s, u, warm = states_controls(m)
    L = 1 + 2 * m.nv + m.na + m.nu

    def diverge(self, *args, **kwargs):
        raise RolloutDivergedError(2 * L + 1 + m.nv + 4, 0, "thigh_joint")

    monkeypatch.setattr(Lanes, "run", diverge)
    with pytest.raises(derivatives.TransitionDivergedError, match=r"state 2: the step with qvel\[4\] \+ eps diverged .*'thigh_joint'"):
        derivatives.transition_fd(m, s, u)
