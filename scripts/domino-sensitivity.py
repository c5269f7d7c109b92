"""MuJoCo's own sensitivity on the domino amplifier: how far each domino's tip time (first past 45°)
moves when the first domino's tilt is changed at round-off level, or the solver is changed, and,
per solver, how far one-ulp twins of the start move it (one body's x one ulp up or down, as the
contact-trajectory stage's twins).

    node bin/achilles.js export --mjcf scenes/domino-amplifier.arow > /tmp/dom.xml
    python3 scripts/domino-sensitivity.py /tmp/dom.xml

Prints MuJoCo Newton's tip times, then for each variant the largest change over the ten dominoes
(ms) and every domino's change. A gate on tip times tighter than these changes measures luck.
"""
import re
import sys

import mujoco
import numpy as np

XML = open(sys.argv[1] if len(sys.argv) > 1 else '/tmp/dom.xml').read()
STEPS = 4000  # 8 s at 2 ms


def tip_times(solver, iterations, tolerance, tilt=0.0, nudge=None):
    xml = re.sub(r'solver="[^"]*" iterations="[^"]*" tolerance="[^"]*"',
                 f'solver="{solver}" iterations="{iterations}" tolerance="{tolerance}"', XML)
    m = mujoco.MjModel.from_xml_string(xml)
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)
    d.qpos[4] += tilt  # the first domino's quaternion x: a tiny extra tilt
    if nudge is not None:  # (qpos index, +1 or -1): one ulp
        d.qpos[nudge[0]] = np.nextafter(d.qpos[nudge[0]], np.inf * nudge[1])
    nb = m.nbody - 1
    tip = [np.nan] * nb
    R = np.zeros(9)
    for k in range(STEPS):
        mujoco.mj_step(m, d)
        for b in range(nb):
            mujoco.mju_quat2Mat(R, d.qpos[7 * b + 3:7 * b + 7])
            if np.isnan(tip[b]) and np.degrees(np.arccos(np.clip(R[8], -1, 1))) > 45:
                tip[b] = (k + 1) * m.opt.timestep
    return np.array(tip)


base = tip_times('Newton', 100, 1e-8)
print('MuJoCo Newton tip times (s):', np.round(base, 3))
variants = [(f'tilt + {p:g}', ('Newton', 100, 1e-8, p)) for p in (1e-16, 1e-14, 1e-12)] + [
    ('Newton tolerance 1e-10', ('Newton', 100, 1e-10)),
    ('CG 20, tolerance 1e-8', ('CG', 20, 1e-8)),
    ('CG exactly 20 (tolerance 0)', ('CG', 20, 0)),
]
for name, args in variants:
    dt = (tip_times(*args) - base) * 1000
    print(f'{name:28s} max |change| {np.nanmax(np.abs(dt)):6.1f} ms   {np.round(dt, 0)}')

NUDGES = [(7 * b, 1) for b in range(10)] + [(0, -1), (7, -1)]
for name, args in [('Newton', ('Newton', 100, 1e-8)), ('CG exactly 20', ('CG', 20, 0)), ('CG 150, tolerance 1e-8', ('CG', 150, 1e-8))]:
    ref = tip_times(*args)
    worst = np.zeros_like(ref)
    for n in NUDGES:
        worst = np.maximum(worst, np.abs(tip_times(*args, nudge=n) - ref))
    print(f'{name:28s} one-ulp twins: max |change| {np.nanmax(worst) * 1000:6.1f} ms   {np.round(worst * 1000, 0)}')
