"""MuJoCo's own solver iterations per step on a Gymnasium model under random controls, and what a block
of 16 lanes pays: each lane runs until the slowest of its block is done, so the block's iterations
are the maximum over its lanes. The instrument behind bench/RESULTS.md's entry "What bounds Ant-v5
and Humanoid-v5's engine time".

    python3 bench/solver-iterations.py MODEL.xml      (e.g. gymnasium's envs/mujoco/assets/ant.xml)

64 robots from qpos0 ± 0.1 (seeded), 400 steps of controls uniform in [-1, 1]; d.solver_niter[0] is the
last solve of the step (RK4's fourth stage).
"""
import sys

import mujoco
import numpy as np

LANES, ROBOTS, STEPS = 16, 64, 400


def main(path):
    m = mujoco.MjModel.from_xml_path(path)
    rng = np.random.default_rng(0)
    datas = [mujoco.MjData(m) for _ in range(ROBOTS)]
    for d in datas:
        d.qpos[:] = m.qpos0 + rng.uniform(-0.1, 0.1, m.nq)
        d.qvel[:] = rng.normal(0, 0.1, m.nv)
    its, nefc = np.zeros((STEPS, ROBOTS)), np.zeros((STEPS, ROBOTS))
    for t in range(STEPS):
        for r, d in enumerate(datas):
            d.ctrl[:] = rng.uniform(-1, 1, m.nu)
            mujoco.mj_step(m, d)
            its[t, r], nefc[t, r] = d.solver_niter[0], d.nefc
    block = its.reshape(STEPS, -1, LANES).max(axis=2)
    print(f'{path}: solver iterations per solve: mean {its.mean():.2f}, 90th percentile {np.percentile(its, 90):.0f}, max {its.max():.0f}; '
          f'the maximum over a block of {LANES}: mean {block.mean():.2f} ({block.mean() / its.mean():.1f}x the mean); nefc mean {nefc.mean():.1f}, max {nefc.max():.0f}')


if __name__ == '__main__':
    main(sys.argv[1])
