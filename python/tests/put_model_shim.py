"""A stand-in for achilles._put_model until branch putmodel is merged: delete this file then, with the
`put_model` fixture's fallback in test_wheel_install.py (the one place that uses it).

put_model(m) writes the XML of the model MuJoCo loaded last (mj_saveLastXML: compile_model's MuJoCo
route loads it just before) and compiles that with the achilles CLI of the checkout these tests are
in, run by $ACHILLES_SHIM_NODE (scripts/check-wheel.sh sets it before it takes node off PATH) or the
node on PATH. It stands in for the translation only; compile_model's choice of route is the real one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

CLI = Path(__file__).resolve().parents[2] / "bin" / "achilles.js"
# mj_saveLastXML writes numbers to 6 significant digits (InvertedPendulum's pole, a fromto capsule, gets
# quat="0.000833332 0 -1 0"), so the shim's model is MuJoCo's to about 1e-6: observations differ by 2e-6.
TOLERANCE = 1e-4
NODE = os.environ.get("ACHILLES_SHIM_NODE") or shutil.which("node")  # found before a test takes PATH


def put_model(m) -> dict:
    import mujoco

    with tempfile.TemporaryDirectory() as tmp:
        xml = os.path.join(tmp, "model.xml")
        mujoco.mj_saveLastXML(xml, m)
        r = subprocess.run([NODE, str(CLI), "compile", xml], capture_output=True, text=True, check=False)
        if r.returncode != 0:
            raise RuntimeError(f"put_model_shim: achilles compile failed: {r.stderr.strip()}")
        return json.loads(r.stdout)
