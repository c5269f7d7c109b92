"""MuJoCo's sensordata of imported MJCF models as a Batch view (Batch.sensordata, (nsensordata,
stride)) and the sensors' names in the compiled model (names['sensors']), against MuJoCo's own at the
same states (mj_forward): the fixtures of the mjcf-sensors validation stage, every supported type, each
read from the MJCF file (compile_model) and from MuJoCo's compiled MjModel (put_model)."""

from __future__ import annotations

import numpy as np
import pytest

mujoco = pytest.importorskip("mujoco")
achilles = pytest.importorskip("achilles")
if not hasattr(achilles, "Batch"):
    pytest.skip("the native package is not built (python3 -m pip install ./python)", allow_module_level=True)

from conftest import REPO  # noqa: E402

FIXTURES = REPO / "test" / "fixtures" / "import" / "sensors"
# the acceleration-stage sensors read qacc: PGS's 50 iterations (the humanoid) leave it about 1e-5 apart
READS_QACC = {"accelerometer", "force", "torque", "touch"}


def _states(m, n, rng):
    qpos = np.tile(m.qpos0, (n, 1))
    for j in range(m.njnt):
        a = m.jnt_qposadr[j]
        if m.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            qpos[:, a : a + 3] += rng.uniform(-1, 1, (n, 3))
            qpos[:, a + 3 : a + 7] = rng.normal(size=(n, 4))  # not normalised: MuJoCo normalises where it reads
        elif m.jnt_type[j] == mujoco.mjtJoint.mjJNT_BALL:
            qpos[:, a : a + 4] = rng.normal(size=(n, 4))
        else:
            qpos[:, a] += rng.uniform(-1, 1, n)
    return qpos, rng.uniform(-2, 2, (n, m.nv)), rng.uniform(-1, 1, (n, m.nu))


@pytest.mark.parametrize("route", ["compile_model", "put_model"])
@pytest.mark.parametrize("name", ["mjcf-sensors.xml", "mjcf-sensors-ant.xml", "mjcf-sensors-humanoid.xml"])
def test_sensordata_equals_mujocos_at_the_same_states(name, route):
    path = str(FIXTURES / name)
    m = mujoco.MjModel.from_xml_path(path)
    d = mujoco.MjData(m)
    doc = achilles.compile_model(path) if route == "compile_model" else achilles.put_model(m)
    names = doc["names"]["sensors"]
    assert [s["name"] for s in names] == [m.sensor(i).name for i in range(m.nsensor)]
    assert [s["adr"] for s in names] == m.sensor_adr.tolist() and [s["dim"] for s in names] == m.sensor_dim.tolist()
    n = 16
    b = achilles.Batch(doc, copies=n, precision="f64", record=True)
    qpos, qvel, ctrl = _states(m, n, np.random.default_rng(3))
    b.q[:, :n] = qpos.T
    b.v[:, :n] = qvel.T
    b.ctrl[:, :n] = ctrl.T
    ours = b.sensordata
    assert ours.shape == (m.nsensordata, b.q.shape[1])
    pgs = m.opt.solver == mujoco.mjtSolver.mjSOL_PGS
    for r in range(n):
        mujoco.mj_resetData(m, d)
        d.qpos[:], d.qvel[:], d.ctrl[:] = qpos[r], qvel[r], ctrl[r]
        mujoco.mj_forward(m, d)
        for s in names:
            want = d.sensordata[s["adr"] : s["adr"] + s["dim"]]
            bar = 1e-4 if pgs and s["type"] in READS_QACC else 1e-9
            got = ours[s["adr"] : s["adr"] + s["dim"], r]
            np.testing.assert_allclose(got, want, atol=bar * (1 + np.abs(want).max()), err_msg=f"{s['name']}, robot {r}")
