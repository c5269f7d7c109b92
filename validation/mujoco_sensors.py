#!/usr/bin/env python3
"""MuJoCo's sensordata of MJCF models at given states, for the mjcf-sensors validation stage
(src/validation/mjcf-sensors/) and test/import-mjcf-sensors.test.ts: per state, qpos, qvel and ctrl
are set and mj_forward runs (which runs mj_sensorPos, mj_sensorVel and mj_sensorAcc as mj_step's
mj_forward does before it integrates); sensordata is read after it.

  request (stdin):  {"models": [{"path": "...xml", "states": [{"qpos": [..], "qvel": [..], "ctrl": [..]}]}]}
  response:         {"mujoco": "3.x", "results": [{"qpos0": [..], "sensors": [{name, type, adr, dim, cutoff, noise}],
                     "sensordata": [[..] per state]}]}  or  {"error": "..."}
"""
import json
import sys

try:
    import mujoco
    import numpy as np
except ImportError as e:
    sys.stdout.write(json.dumps({"error": f"missing python module: {e.name}; run `pip install mujoco`"}))
    sys.exit(0)


def answer(spec):
    m = mujoco.MjModel.from_xml_path(spec["path"])
    d = mujoco.MjData(m)
    sensors = [{
        "name": mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_SENSOR, i) or "",
        "type": mujoco.mjtSensor(int(m.sensor_type[i])).name[len("mjSENS_"):].lower(),
        "adr": int(m.sensor_adr[i]), "dim": int(m.sensor_dim[i]),
        "cutoff": float(m.sensor_cutoff[i]), "noise": float(m.sensor_noise[i]),
    } for i in range(m.nsensor)]
    data = []
    for s in spec["states"]:
        mujoco.mj_resetData(m, d)
        d.qpos[:] = s["qpos"]
        d.qvel[:] = s["qvel"]
        if m.nu:
            d.ctrl[:] = s["ctrl"]
        mujoco.mj_forward(m, d)
        data.append(np.asarray(d.sensordata, dtype=np.float64).tolist())
    return {"qpos0": m.qpos0.tolist(), "sensors": sensors, "sensordata": data}


def main():
    try:
        req = json.loads(sys.stdin.read())
        out = {"mujoco": mujoco.__version__, "results": [answer(s) for s in req["models"]]}
    except Exception as e:  # every failure is reported as an answer, never as a traceback alone
        out = {"error": f"{type(e).__name__}: {e}"}
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()
