"""achilles.rollout against mujoco.rollout (MuJoCo 3.14), side by side.

Gymnasium's hopper, ant and humanoid (RK4; Newton, Newton and PGS; contacts on: each run starts from
MuJoCo's state after 100 steps from reset, resting on the floor, perturbed 16 ways) over 20 steps of
random controls: the states must agree within 1e-9 of the state's scale, or 10x MuJoCo's own
warm-start floor (MuJoCo rolled out from the same states with and without initial_warmstart) where
that is larger; both are measured and printed (pytest -s). A list of 8 ants that differ in masses and
friction equals MuJoCo rolling each out alone; the ant with sensors of every kind the engine
computes gives mujoco.rollout's sensordata within 1e-9 of each sensor's scale; bad shapes give
MuJoCo's own errors (type and text);
a NaN gives BadRolloutInputError naming the rollout and step, with the outputs untouched.
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

import mujoco.rollout as mj_rollout  # noqa: E402

from achilles import rollout as ach_rollout  # noqa: E402
from achilles._model_versions import ModelVersions  # noqa: E402

ASSETS = os.path.join(os.path.dirname(gym_mujoco.__file__), "assets")
FULL = mujoco.mjtState.mjSTATE_FULLPHYSICS.value
NBATCH, NSTEP, SETTLE = 16, 20, 100
BAR = 1e-9


def asset(name: str) -> str:
    return os.path.join(ASSETS, f"{name}.xml")


@pytest.fixture
def engine_models(monkeypatch):
    """MjModels read from a file (a list of them edited by per-robot values, when given): rollout
    takes each to the engine through achilles.put_model; a fresh cache of model versions per test."""

    def load(path: str, parameters: list[dict] | None = None, edit=None):
        if parameters is None:
            return mujoco.MjModel.from_xml_path(path)
        models = []
        for values in parameters:
            m = mujoco.MjModel.from_xml_path(path)
            edit(m, values)
            models.append(m)
        return models

    monkeypatch.setattr(ach_rollout, "_versions", ModelVersions())
    return load


def settled_state(m) -> tuple[np.ndarray, np.ndarray]:
    """MuJoCo's FULLPHYSICS state and qacc_warmstart after SETTLE steps from reset with zero controls."""
    d = mujoco.MjData(m)
    for _ in range(SETTLE):
        mujoco.mj_step(m, d)
    s = np.empty(mujoco.mj_stateSize(m, FULL))
    mujoco.mj_getState(m, d, s, FULL)
    return s, d.qacc_warmstart.copy()


def perturbed_states(m, rng: np.random.Generator, n: int) -> np.ndarray:
    base, _ = settled_state(m)
    s = np.tile(base, (n, 1))
    s[:, 0] += rng.uniform(0, 1, n)  # each rollout's own time
    s[:, 1 : 1 + m.nq] += rng.uniform(-0.01, 0.01, (n, m.nq))
    s[:, 1 + root_height(m)] -= 0.01  # pressed onto the floor: every rollout starts in contact
    s[:, 1 + m.nq : 1 + m.nq + m.nv] += rng.uniform(-0.2, 0.2, (n, m.nv))
    for j in np.flatnonzero(m.jnt_type == mujoco.mjtJoint.mjJNT_FREE):  # a unit quaternion again
        a = 1 + m.jnt_qposadr[j] + 3
        s[:, a : a + 4] /= np.linalg.norm(s[:, a : a + 4], axis=1, keepdims=True)
    return s


def root_height(m) -> int:
    """The qpos index of the root's height: a free joint's z, or the slide joint along z (hopper's rootz)."""
    j = 0 if m.jnt_type[0] == mujoco.mjtJoint.mjJNT_FREE else m.joint("rootz").id
    return int(m.jnt_qposadr[j]) + (2 if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE else 0)


def contacts_at(m, state: np.ndarray) -> int:
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, state, FULL)
    mujoco.mj_forward(m, d)
    return d.ncon


def controls(m, rng: np.random.Generator, n: int, nstep: int) -> np.ndarray:
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    return rng.uniform(lo, hi, (n, nstep, m.nu))


@pytest.mark.parametrize("name", ["hopper", "ant", "humanoid"])
def test_equals_mujoco_rollout(engine_models, name: str) -> None:
    m = engine_models(asset(name))
    rng = np.random.default_rng(7)
    s0 = perturbed_states(m, rng, NBATCH)
    assert all(contacts_at(m, s) > 0 for s in s0), "every rollout should start in contact"
    u = controls(m, rng, NBATCH, NSTEP)
    # a warm start as a planner would pass one: the settled state's (MuJoCo's last qacc there)
    warm = np.tile(settled_state(m)[1], (NBATCH, 1))
    ref, _ = mj_rollout.rollout(m, mujoco.MjData(m), s0, u)
    ref_warm, _ = mj_rollout.rollout(m, mujoco.MjData(m), s0, u, initial_warmstart=warm)
    scale = float(np.abs(ref).max())
    floor = float(np.abs(ref_warm - ref).max())  # how far MuJoCo itself moves with its warm start
    bar = max(BAR * scale, 10 * floor)
    got, sensordata = ach_rollout.rollout(m, mujoco.MjData(m), s0, u)
    got_warm, _ = ach_rollout.rollout(m, mujoco.MjData(m), s0, u, initial_warmstart=warm)
    diff, diff_warm = float(np.abs(got - ref).max()), float(np.abs(got_warm - ref_warm).max())
    print(f"\n{name}: scale {scale:.3g}, MuJoCo's warm-start floor {floor:.3g}, bar {bar:.3g}; "
          f"|ours - MuJoCo| {diff:.3g} (no warm start), {diff_warm:.3g} (warm start)")
    assert got.shape == ref.shape == (NBATCH, NSTEP, mujoco.mj_stateSize(m, FULL))
    assert sensordata.shape == (NBATCH, NSTEP, 0)
    assert np.array_equal(got[..., 0], ref[..., 0]), "time: MuJoCo's t + k * timestep, rounded as it rounds"
    assert diff <= bar and diff_warm <= bar
    if floor > BAR * scale:  # PGS (humanoid) stops short: its answer shows where it started
        assert diff_warm < floor / 10, "the rollouts should start from initial_warmstart, as MuJoCo's"


def test_f32_follows_f64(engine_models) -> None:
    """precision='f32': the same rollouts in single precision (round-off grows along 20 contact steps)."""
    m = engine_models(asset("ant"))
    rng = np.random.default_rng(3)
    s0, u = perturbed_states(m, rng, NBATCH), controls(m, rng, NBATCH, NSTEP)
    ref, _ = mj_rollout.rollout(m, mujoco.MjData(m), s0, u)
    got, _ = ach_rollout.rollout(m, mujoco.MjData(m), s0, u, precision="f32")
    worst = float(np.abs(got - ref).max() / np.abs(ref).max())
    print(f"\nant f32: max |ours - MuJoCo| / scale = {worst:.3g}")
    assert got.dtype == np.float64 and worst < 1e-3


def ant_values(r: int) -> dict[str, float]:
    return {"mass_scale:root": 0.8 + 0.1 * r, "mass_scale:hip_1": 1.3 - 0.1 * r, "friction:floor": 1.0 + 0.2 * r}


def scale_ant(m, values: dict[str, float]) -> None:
    """The same values in MuJoCo: mass and inertia of the torso (link root) and of aux_1 (link hip_1)
    times s, the floor's sliding friction; then mj_setConst, which derives the solver's constants
    (body_invweight0 ...) from the new masses as the compiler does."""
    for body, key in (("torso", "mass_scale:root"), ("aux_1", "mass_scale:hip_1")):
        i = m.body(body).id
        m.body_mass[i] *= values[key]
        m.body_inertia[i] *= values[key]
    m.geom_friction[m.geom("floor").id, 0] = values["friction:floor"]
    mujoco.mj_setConst(m, mujoco.MjData(m))


def test_models_that_differ_in_values_each_run_as_alone(engine_models) -> None:
    models = engine_models(asset("ant"), [ant_values(r) for r in range(8)], scale_ant)
    s0, _ = settled_state(models[0])
    u = controls(models[0], np.random.default_rng(11), 8, NSTEP)
    alone = np.stack([mj_rollout.rollout(models[r], mujoco.MjData(models[r]), s0, u[r : r + 1])[0][0] for r in range(8)])
    data = [mujoco.MjData(models[0]) for _ in range(2)]
    got, _ = ach_rollout.rollout(models, data, s0, u)  # one initial state for all, two threads
    spread, diff = float(np.abs(alone - alone[0]).max()), float(np.abs(got - alone).max())
    print(f"\n8 ants: the models' trajectories differ by up to {spread:.3g}; |ours - MuJoCo alone| {diff:.3g}")
    assert spread > 1e-2 and diff <= BAR * float(np.abs(alone).max())


def test_broadcasting_threads_and_outputs_in_place(engine_models) -> None:
    """One initial state and one control row for all; nstep given; the caller's output array is
    written in place; 1 and 3 threads give the same bits."""
    m = engine_models(asset("hopper"))
    s0, _ = settled_state(m)
    u = controls(m, np.random.default_rng(2), 1, 1)[0]  # (1, nu): one row for every rollout and step
    ref, _ = mj_rollout.rollout(m, mujoco.MjData(m), s0, u, nstep=7, initial_warmstart=np.zeros(m.nv))
    out = np.zeros((5, 7, s0.size))
    ref5, _ = mj_rollout.rollout(m, mujoco.MjData(m), np.tile(s0, (5, 1)), u, nstep=7)
    got, _ = ach_rollout.rollout(m, mujoco.MjData(m), s0, u, nstep=7, initial_warmstart=np.zeros(m.nv))
    assert got.shape == ref.shape == (1, 7, s0.size) and np.abs(got - ref).max() <= BAR * np.abs(ref).max()
    back, _ = ach_rollout.rollout(m, [mujoco.MjData(m) for _ in range(3)], np.tile(s0, (5, 1)), u, nstep=7, state=out)
    assert back is out and np.abs(out - ref5).max() <= BAR * np.abs(ref5).max()
    one, _ = ach_rollout.rollout(m, mujoco.MjData(m), np.tile(s0, (5, 1)), u, nstep=7)
    assert one.tobytes() == out.tobytes(), "1 and 3 threads should give the same bits"


@pytest.mark.parametrize("case", ["control None: data.ctrl held", "control_spec 0: ctrl at 0", "qfrc_applied", "ctrl past ctrlrange"])
def test_control_specs(engine_models, case: str) -> None:
    m = engine_models(asset("hopper"))
    s0, _ = settled_state(m)
    rng = np.random.default_rng(4)
    d_ours, d_ref = mujoco.MjData(m), mujoco.MjData(m)
    kwargs: dict = {"nstep": 12}
    control = None
    if case.startswith("control None"):
        d_ours.ctrl[:] = d_ref.ctrl[:] = [0.3, -0.5, 0.8]
    elif case.startswith("control_spec 0"):
        d_ours.ctrl[:] = d_ref.ctrl[:] = [0.3, -0.5, 0.8]  # not used: the spec has no ctrl
        kwargs["control_spec"] = 0
    elif case == "ctrl past ctrlrange":  # clamped to it, as MuJoCo clamps
        control = 3 * controls(m, rng, 3, 12)
    else:
        kwargs["control_spec"] = mujoco.mjtState.mjSTATE_CTRL.value | mujoco.mjtState.mjSTATE_QFRC_APPLIED.value
        control = np.concatenate([controls(m, rng, 3, 12), rng.uniform(-20, 20, (3, 12, m.nv))], axis=2)
    ref, _ = mj_rollout.rollout(m, d_ref, s0, control, **kwargs)
    got, _ = ach_rollout.rollout(m, d_ours, s0, control, **kwargs)
    assert got.shape == ref.shape and np.abs(got - ref).max() <= BAR * np.abs(ref).max()


def call_both(*args, rollout_class=False, **kwargs):
    """(exception type, text) of each side for the same call (None: it returned)."""
    out = []
    for module in (mj_rollout, ach_rollout):
        try:
            if rollout_class:
                rest = dict(kwargs)
                nthread = rest.pop("nthread", None)
                with module.Rollout(nthread=nthread) as r:
                    r.rollout(*args, **rest)
            else:
                module.rollout(*args, **kwargs)
            out.append(None)
        except Exception as e:  # noqa: BLE001 - the comparison is the point
            out.append((type(e), str(e)))
    return out


def test_bad_shapes_give_mujocos_errors(engine_models) -> None:
    m = engine_models(asset("hopper"))
    ant = engine_models(asset("ant"))
    d = mujoco.MjData(m)
    nstate = mujoco.mj_stateSize(m, FULL)
    s = np.zeros((3, nstate))
    u = np.zeros((3, 4, m.nu))
    cases = {
        "a control_spec bit outside mjSTATE_USER": ((m, d, s, u), dict(control_spec=mujoco.mjtState.mjSTATE_QPOS.value)),
        "nstep not an integer": ((m, d, s, u), dict(nstep=2.5)),
        "chunk_size not an integer": ((m, d, s, u), dict(chunk_size=1.5)),
        "a list for initial_state": ((m, d, s.tolist(), u), {}),
        "initial_state with 3 dimensions": ((m, d, s[None], u), {}),
        "control with 4 dimensions": ((m, d, s, u[None]), {}),
        "initial_state's trailing dimension": ((m, d, s[:, :-1], u), {}),
        "control's trailing dimension": ((m, d, s, u[:, :, :-1]), {}),
        "initial_warmstart's trailing dimension": ((m, d, s, u), dict(initial_warmstart=np.zeros((3, m.nv + 1)))),
        "state's trailing dimension": ((m, d, s, u), dict(state=np.zeros((3, 4, nstate + 2)))),
        "nbatch of control and initial_state": ((m, d, s, np.zeros((4, 4, m.nu))), {}),
        "nstep given and control's": ((m, d, s, u), dict(nstep=5)),
        "a list of models of another length": (([m, m], d, s, u), {}),
        "models that are not compatible": (([m, ant, m], d, s, u), {}),
        "skip_checks: state0's size": (([m] * 3, [d], s[:, :-1], u), dict(skip_checks=True, nstep=4)),
        "skip_checks: control's size": (([m] * 3, [d], s, u[:, :2]), dict(skip_checks=True, nstep=4)),
    }
    for what, (args, kwargs) in cases.items():
        theirs, ours = call_both(*args, **kwargs)
        assert theirs is not None, f"{what}: MuJoCo accepted it"
        assert ours == theirs, f"{what}: ours {ours}, MuJoCo's {theirs}"
    for what, kwargs in {
        "one data, two threads": dict(nthread=2),
        "three data, main thread": dict(nthread=0),
    }.items():
        data = [d] if what.startswith("one") else [d, d, d]
        theirs, ours = call_both([m] * 3, data, s, u, rollout_class=True, nstep=4, skip_checks=True, **kwargs)
        assert theirs is not None and ours == theirs, f"{what}: ours {ours}, MuJoCo's {theirs}"
    for module in (mj_rollout, ach_rollout):
        r = module.Rollout(nthread=0)
        r.close()
        with pytest.raises(RuntimeError, match="rollout requested after thread pool shutdown"):
            r.rollout(m, d, s, u)


@pytest.mark.parametrize(
    "where, value, rollout, step, what",
    [
        ("state", np.nan, 3, 0, r"initial_state\[3, 4\] \(qpos\[3\], joint 'thigh_joint'\)"),
        ("state", np.inf, 0, 0, r"initial_state\[0, 0\] \(time\)"),
        ("control", np.nan, 5, 7, r"control\[5, 7, 2\] \(ctrl\[2\], actuator 2\)"),
        ("control", -np.inf, 1, 0, r"control\[1, 0, 2\] \(ctrl\[2\], actuator 2\)"),
        ("control", 1e11, 4, 9, r"control\[4, 9, 2\] \(ctrl\[2\], actuator 2\)"),
        ("warmstart", np.nan, 2, 0, r"initial_warmstart\[2, 2\]"),
    ],
)
def test_a_bad_value_is_refused_by_rollout_and_step(engine_models, where, value, rollout, step, what) -> None:
    m = engine_models(asset("hopper"))
    s0 = np.tile(settled_state(m)[0], (6, 1))
    u = controls(m, np.random.default_rng(5), 6, 10)
    warm = np.zeros((6, m.nv))
    if where == "state":
        s0[rollout, 0 if np.isinf(value) else 4] = value
    elif where == "control":
        u[rollout, step, 2] = value
    else:
        warm[rollout, 2] = value
    state = np.full((6, 10, s0.shape[1]), 123.0)
    with pytest.raises(ach_rollout.BadRolloutInputError, match=rf"rollout {rollout}, step {step}: {what} is {value!r}; nothing") as e:
        ach_rollout.rollout(m, mujoco.MjData(m), s0, u, initial_warmstart=warm, state=state)
    assert isinstance(e.value, ValueError) and (e.value.rollout, e.value.step) == (rollout, step)
    assert np.all(state == 123.0), "nothing may be written to the caller's outputs"


def test_a_diverging_rollout_is_named(engine_models) -> None:
    """A state that turns non-finite while stepping (MuJoCo: mjWARN_BADQACC, that rollout reset)."""
    m = engine_models(asset("ant"))
    s0 = np.tile(settled_state(m)[0], (3, 1))
    s0[1, 1 + m.nq + 8] = 1e9  # a good value (|x| <= 1e10) that the step cannot integrate
    with pytest.raises(ach_rollout.RolloutDivergedError, match=r"rollout 1 diverged at step 0") as e:
        ach_rollout.rollout(m, mujoco.MjData(m), s0, controls(m, np.random.default_rng(8), 3, 5))
    assert (e.value.rollout, e.value.step) == (1, 0)


SENSOR_ANT = os.path.join(os.path.dirname(__file__), "..", "..", "test", "fixtures", "import", "sensors", "mjcf-sensors-ant.xml")


def sensor_errors(m, got: np.ndarray, ref: np.ndarray) -> dict[str, float]:
    """Per sensor: max |ours - MuJoCo| over rollouts and steps, relative to the sensor's scale
    (max |MuJoCo's value|, at least 1)."""
    out = {}
    for i in range(m.nsensor):
        a, n = int(m.sensor_adr[i]), int(m.sensor_dim[i])
        scale = max(1.0, float(np.abs(ref[..., a : a + n]).max()))
        out[m.sensor(i).name] = float(np.abs(got[..., a : a + n] - ref[..., a : a + n]).max()) / scale
    return out


def test_sensordata_equals_mujoco_rollout(engine_models) -> None:
    """The Gymnasium ant with sensors of every kind the engine computes (joint, frame, subtree, IMU,
    force, torque, touch): sensordata as mujoco.rollout records it (row t: mj_step's mj_forward, the
    state step t starts from under step t's controls) within 1e-9 of each sensor's scale; the rows
    one step later are far from it (an off-by-one would fail); the states as without sensors."""
    m = engine_models(SENSOR_ANT)
    rng = np.random.default_rng(5)
    s0 = perturbed_states(m, rng, NBATCH)
    assert all(contacts_at(m, s) > 0 for s in s0), "every rollout should start in contact (touch, force, torque read it)"
    u = controls(m, rng, NBATCH, NSTEP)
    ref, ref_sensors = mj_rollout.rollout(m, mujoco.MjData(m), s0, u)
    got, sensordata = ach_rollout.rollout(m, mujoco.MjData(m), s0, u)
    assert sensordata.shape == ref_sensors.shape == (NBATCH, NSTEP, m.nsensordata)
    worst = sensor_errors(m, sensordata, ref_sensors)
    name = max(worst, key=worst.get)
    shifted = sensor_errors(m, sensordata[:, 1:], ref_sensors[:, :-1])
    print(f"\nant with {m.nsensor} sensors: worst |ours - MuJoCo| / scale {worst[name]:.3g} ({name}); one step off: "
          f"{min(shifted.values()):.3g} to {max(shifted.values()):.3g}")
    assert max(worst.values()) <= BAR, worst
    assert np.abs(got - ref).max() <= BAR * np.abs(ref).max()
    assert max(shifted.values()) > 1e3 * BAR
    # row 0 is mj_forward's at the initial state, under the first controls (MuJoCo's own convention)
    d = mujoco.MjData(m)
    mujoco.mj_setState(m, d, s0[3], FULL)
    d.ctrl[:] = u[3, 0]
    mujoco.mj_forward(m, d)
    np.testing.assert_array_equal(ref_sensors[3, 0], d.sensordata)
    # reading the sensors leaves the steps as they are: the states without sensordata, to the bit
    alone = ach_rollout.rollout([m] * NBATCH, [mujoco.MjData(m)], s0, u, skip_checks=True, nstep=NSTEP, state=np.empty_like(got))[0]
    assert np.array_equal(alone, got)


def test_sensordata_in_f32_and_on_two_threads(engine_models) -> None:
    """The sensor ant's sensordata on 2 threads is the 1 thread's to the bit; in f32 it follows MuJoCo
    within 1e-3 of each sensor's scale (measured 1.3e-5, a touch sensor)."""
    m = engine_models(SENSOR_ANT)
    rng = np.random.default_rng(5)
    s0, u = perturbed_states(m, rng, NBATCH), controls(m, rng, NBATCH, NSTEP)
    ref = mj_rollout.rollout(m, mujoco.MjData(m), s0, u)[1]
    one = ach_rollout.rollout(m, mujoco.MjData(m), s0, u)[1]
    with ach_rollout.Rollout(nthread=2) as pool:
        two = pool.rollout(m, [mujoco.MjData(m) for _ in range(2)], s0, u)[1]
    assert np.array_equal(one, two)
    f32 = sensor_errors(m, ach_rollout.rollout(m, mujoco.MjData(m), s0, u, precision="f32")[1], ref)
    print(f"\nsensor ant f32: worst |ours - MuJoCo| / scale {max(f32.values()):.3g}")
    assert max(f32.values()) < 1e-3, f32


def test_sensordata_of_held_controls_and_no_sensors(engine_models) -> None:
    """control=None (the data's ctrl at every step) and a sensor added by MjSpec: MuJoCo's sensordata;
    a model without sensors gives the empty (nbatch, nstep, 0) array."""
    spec = mujoco.MjSpec.from_file(asset("hopper"))
    spec.add_sensor(name="thigh_speed", type=mujoco.mjtSensor.mjSENS_JOINTVEL, objtype=mujoco.mjtObj.mjOBJ_JOINT, objname="thigh_joint")
    spec.actuators[2].name = "foot"
    spec.add_sensor(name="foot_force", type=mujoco.mjtSensor.mjSENS_ACTUATORFRC, objtype=mujoco.mjtObj.mjOBJ_ACTUATOR, objname="foot")
    m = spec.compile()
    s0 = perturbed_states(m, np.random.default_rng(2), 4)
    data = mujoco.MjData(m)
    data.ctrl[:] = [0.3, -0.5, 0.8]
    ref = mj_rollout.rollout(m, data, s0, None, nstep=NSTEP)[1]
    got = ach_rollout.rollout(m, data, s0, None, nstep=NSTEP)[1]
    worst = sensor_errors(m, got, ref)
    assert max(worst.values()) <= BAR, worst
    plain = mujoco.MjModel.from_xml_path(asset("hopper"))
    assert ach_rollout.rollout(plain, mujoco.MjData(plain), s0, None, nstep=3)[1].shape == (4, 3, 0)


def test_sensordata_of_models_that_differ_in_values() -> None:
    """4 sensor ants that differ in masses and friction (a list of models): without the force and
    torque sensors, each rollout's sensordata is MuJoCo's rolling its own model out alone; with them
    (the host weighs the first model's masses) refused by name."""

    def ants(keep_wrenches: bool) -> list:
        models = []
        for r in range(4):
            spec = mujoco.MjSpec.from_file(SENSOR_ANT)
            for sensor in list(spec.sensors):
                if not keep_wrenches and sensor.type in (mujoco.mjtSensor.mjSENS_FORCE, mujoco.mjtSensor.mjSENS_TORQUE):
                    spec.delete(sensor)
            m = spec.compile()
            scale_ant(m, ant_values(r))
            models.append(m)
        return models

    models = ants(keep_wrenches=False)
    s0 = np.tile(settled_state(models[0])[0], (4, 1))
    u = controls(models[0], np.random.default_rng(11), 4, 10)
    alone = np.stack([mj_rollout.rollout(models[r], mujoco.MjData(models[r]), s0[r : r + 1], u[r : r + 1])[1][0] for r in range(4)])
    got = ach_rollout.rollout(models, [mujoco.MjData(models[0])], s0, u)[1]
    worst = sensor_errors(models[0], got, alone)
    assert max(worst.values()) <= BAR, worst
    with pytest.raises(NotImplementedError, match="model 1's bodies differ from model 0's, and its force and torque sensors"):
        ach_rollout.rollout(ants(keep_wrenches=True), [mujoco.MjData(models[0])], s0, u)


def test_disabled_sensors_are_refused() -> None:
    """mjDSBL_SENSOR: MuJoCo's rollout copies out whatever the threads' mjData held; refused by name."""
    spec = mujoco.MjSpec.from_file(asset("hopper"))
    spec.add_sensor(name="thigh_speed", type=mujoco.mjtSensor.mjSENS_JOINTVEL, objtype=mujoco.mjtObj.mjOBJ_JOINT, objname="thigh_joint")
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_SENSOR
    m = spec.compile()
    s0 = perturbed_states(m, np.random.default_rng(2), 2)
    with pytest.raises(NotImplementedError, match="sensordata: the model's sensors are disabled"):
        ach_rollout.rollout(m, mujoco.MjData(m), s0, np.zeros((2, 3, m.nu)))


def test_a_model_changed_in_place_is_converted_again() -> None:
    """A model's version is its whole MJB image: an unchanged model is converted once, a changed value
    (domain randomisation in place) gives a new version and a new conversion."""
    m = mujoco.MjModel.from_xml_path(asset("hopper"))
    calls = []
    versions = ModelVersions()

    def convert(model):
        calls.append(float(model.body_mass[1]))
        return {"mass": calls[-1]}

    first, _ = versions.versions([m, m], convert)
    again, _ = versions.versions([m], convert)
    m.body_mass[1] *= 1.5
    changed, docs = versions.versions([m], convert)
    assert first == [0, 0] and again == [0] and changed == [1] and len(calls) == 2 and docs[0]["mass"] == calls[1]


def test_persistent_pool_keeps_one_batch(engine_models) -> None:
    m = engine_models(asset("hopper"))
    s0 = np.tile(settled_state(m)[0], (4, 1))
    u = controls(m, np.random.default_rng(6), 4, 5)
    try:
        a, _ = ach_rollout.rollout(m, mujoco.MjData(m), s0, u, persistent_pool=True)
        kept = ach_rollout.persistent_rollout.rollout_
        b, _ = ach_rollout.rollout(m, mujoco.MjData(m), s0, u, persistent_pool=True)
        assert ach_rollout.persistent_rollout.rollout_ is kept and len(kept._kept) == 1
        assert a.tobytes() == b.tobytes(), "a kept batch must start each call afresh"
    finally:
        ach_rollout.shutdown_persistent_pool()


def load_example():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "examples" / "mpc_random_shooting.py"
    spec = importlib.util.spec_from_file_location("mpc_random_shooting", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def test_mpc_example_chooses_what_mujoco_chooses(engine_models) -> None:
    """examples/mpc_random_shooting.py, short: with achilles.rollout (f64) it applies the same controls
    as with mujoco.rollout, so the ant ends in the same state; and the script runs."""
    example, path = load_example()
    m = engine_models(asset("ant"))
    try:
        ours = example.mpc(ach_rollout.rollout, m, steps=4, samples=16, horizon=6, precision="f64")
    finally:
        ach_rollout.shutdown_persistent_pool()
    theirs = example.mpc(mj_rollout.rollout, m, steps=4, samples=16, horizon=6)
    mj_rollout.shutdown_persistent_pool()
    assert np.abs(np.array(ours["qpos"]) - theirs["qpos"]).max() <= BAR
    import json
    import subprocess
    import sys

    r = subprocess.run([sys.executable, str(path), "--steps", "2", "--samples", "8", "--horizon", "4"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert np.isfinite(json.loads(r.stdout)["x_progress"])


def test_the_rollout_class_keeps_its_batch(engine_models) -> None:
    """Rollout(nthread=2) as MuJoCo's: a context manager whose pool (here: its batch) serves every call."""
    m = engine_models(asset("hopper"))
    s0 = perturbed_states(m, np.random.default_rng(9), 6)
    u = controls(m, np.random.default_rng(10), 6, 8)
    data = [mujoco.MjData(m) for _ in range(2)]
    with mj_rollout.Rollout(nthread=2) as theirs:
        ref, _ = theirs.rollout(m, data, s0, u)
    with ach_rollout.Rollout(nthread=2) as ours:
        a, _ = ours.rollout(m, data, s0, u)
        b, _ = ours.rollout(m, data, s0, u)
        assert len(ours.rollout_._kept) == 1
    assert a.tobytes() == b.tobytes() and np.abs(a - ref).max() <= BAR * np.abs(ref).max()
    with pytest.raises(RuntimeError, match="rollout requested after thread pool shutdown"):
        ours.rollout(m, data, s0, u)
