"""MuJoCo's bodies and sites in the compiled model (`mujoco` in achilles compile's document), and the
fields a record=True batch keeps (mjData's xpos, xmat, site_xpos, cfrc_ext, qfrc_constraint), against
MuJoCo's own at the same states: mj_forward, then mj_rnePostConstraint (as Gymnasium calls it)."""

from __future__ import annotations

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built (python3 -m pip install ./python)", allow_module_level=True)

from conftest import REPO  # noqa: E402

from achilles.gym.vector import _MujocoLayout  # noqa: E402

SITES = str(REPO / "test" / "fixtures" / "import" / "mjcf-sites.xml")


def test_bodies_and_sites_in_mujocos_order():
    doc = achilles.compile_model(SITES)
    m = mujoco.MjModel.from_xml_path(SITES)
    layout = doc["mujoco"]
    assert [b["name"] for b in layout["bodies"]] == [m.body(i).name for i in range(1, m.nbody)]
    assert [s["name"] for s in layout["sites"]] == [m.site(i).name for i in range(m.nsite)]
    assert [s["body"] for s in layout["sites"]] == m.site_bodyid.tolist()
    np.testing.assert_allclose([s["pos"] for s in layout["sites"]], m.site_pos, atol=1e-15)


def _states(m, n, rng):
    """Random states: every hinge and slide moved, the free bodies dropped onto the plane (contacts)."""
    qpos = np.tile(m.qpos0, (n, 1))
    qvel = rng.normal(0, 0.5, (n, m.nv))
    for j in range(m.njnt):
        a = m.jnt_qposadr[j]
        if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            qpos[:, a : a + 3] = np.c_[rng.uniform(-1, 1, n), rng.uniform(0, 2, n), rng.uniform(0.03, 0.06, n)]
            quat = rng.normal(size=(n, 4))
            qpos[:, a + 3 : a + 7] = quat / np.linalg.norm(quat, axis=1, keepdims=True)
        else:
            qpos[:, a] = rng.uniform(-0.6, 0.6, n)
    return qpos, qvel


@pytest.mark.parametrize("model_path", [SITES, "ant.xml", "inverted_double_pendulum.xml", "humanoid.xml"])
def test_recorded_fields_equal_mujocos_at_the_same_states(model_path):
    from achilles.gym.vector import gymnasium_model_path

    path = model_path if model_path.startswith("/") else gymnasium_model_path(model_path)
    m = mujoco.MjModel.from_xml_path(path)  # humanoid.xml's PGS runs as PGS in both
    d = mujoco.MjData(m)
    doc = achilles.compile_model(path)
    n = 12
    b = achilles.Batch(doc, copies=n, precision="f64", record=True)
    rng = np.random.default_rng(7)
    qpos, qvel = _states(m, n, rng)
    ctrl = rng.uniform(m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1], (n, m.nu)) if m.nu else np.zeros((n, 0))
    b.q[:, :n] = qpos.T
    b.v[:, :n] = qvel.T
    if m.nu:
        b.ctrl[:, :n] = ctrl.T  # the half constrain() reads before the first step
    b.constrain(record=True)  # mj_forward at these states
    ours = _MujocoLayout(doc).values(b.last_evaluation(), np.arange(n))
    contacts = 0
    for r in range(n):
        d.qpos[:], d.qvel[:], d.ctrl[:] = qpos[r], qvel[r], ctrl[r]
        mujoco.mj_forward(m, d)
        mujoco.mj_rnePostConstraint(m, d)
        contacts += d.ncon
        np.testing.assert_allclose(ours["xipos"][r], d.xipos, atol=1e-12, err_msg=f"xipos, robot {r}")
        np.testing.assert_allclose(ours["body_mass"][r], m.body_mass, rtol=1e-15)
        np.testing.assert_allclose(ours["cinert"][r], d.cinert, atol=1e-12 * (1 + np.abs(d.cinert).max()), err_msg=f"cinert, robot {r}")
        np.testing.assert_allclose(ours["cvel"][r], d.cvel, atol=1e-12 * (1 + np.abs(d.cvel).max()), err_msg=f"cvel, robot {r}")
        np.testing.assert_allclose(ours["qfrc_actuator"][r], d.qfrc_actuator, atol=1e-12 * (1 + np.abs(d.qfrc_actuator).max()))
        np.testing.assert_allclose(ours["xpos"][r], d.xpos, atol=1e-12, err_msg=f"xpos, robot {r}")
        np.testing.assert_allclose(ours["site_xpos"][r], d.site_xpos, atol=1e-12, err_msg=f"site_xpos, robot {r}")
        scale = 1 + np.abs(d.cfrc_ext).max()
        np.testing.assert_allclose(ours["cfrc_ext"][r], d.cfrc_ext, atol=1e-9 * scale, err_msg=f"cfrc_ext, robot {r}")
        np.testing.assert_allclose(ours["qfrc_constraint"][r], d.qfrc_constraint, atol=1e-9 * (1 + np.abs(d.qfrc_constraint).max()))  # measured: 1e-14
    if model_path != "inverted_double_pendulum.xml":
        assert contacts > 0  # the contact forces were compared, not only zeros


def test_record_is_refused_where_it_cannot_hold():
    with pytest.raises(Exception, match="record: the model has no constraints"):
        achilles.Batch(str(REPO / "scenes" / "double-pendulum.arow"), copies=2, record=True)
    with pytest.raises(ValueError, match="needs a batch made with record=True"):
        achilles.Batch(SITES, copies=2).last_evaluation()


def test_constrain_of_some_robots_leaves_the_others_alone():
    """constrain(record=True, robots=...) evaluates only the blocks of lanes holding those robots and
    records those robots alone (the vector env's mj_forward after an autoreset): every other robot,
    in their blocks or not, keeps its record."""
    from achilles.gym.vector import gymnasium_model_path

    path = gymnasium_model_path("ant.xml")
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    doc = achilles.compile_model(path)
    n, lanes = 12, 4
    b = achilles.Batch(doc, copies=n, precision="f64", lanes=lanes, record=True)
    qpos, qvel = _states(m, n, np.random.default_rng(9))
    b.q[:, :n] = qpos.T
    b.v[:, :n] = qvel.T
    b.constrain(record=True)
    before = {k: np.array(v) for k, v in b.last_evaluation().items()}
    moved = [5, 9]  # blocks 1 (robots 4..7) and 2 (8..11); block 0 is left alone
    qpos[moved, 0] += 0.3
    b.q[:, moved] = qpos[moved].T
    b.constrain(record=True, robots=moved)
    after = b.last_evaluation()
    outside = [r for r in range(n) if r not in moved]  # robots 4 and 6 share block 1 with robot 5
    for k, v in after.items():
        assert np.array_equal(v[:, outside], before[k][:, outside]), k
    ours = _MujocoLayout(doc).values(after, np.array(moved))
    for i, r in enumerate(moved):
        d.qpos[:], d.qvel[:] = qpos[r], qvel[r]
        mujoco.mj_forward(m, d)
        np.testing.assert_allclose(ours["xpos"][i], d.xpos, atol=1e-12, err_msg=f"robot {r}")
    with pytest.raises(Exception, match="robot 12 is out of range"):
        b.constrain(robots=[12])
