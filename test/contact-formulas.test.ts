// MuJoCo's soft-contact formulas as written in src/validation/contact/formulas.ts, against MuJoCo
// itself (validation/mujoco_contact.py): a contact's rows (R, a_ref), a resting ball's penetration
// and a dropped ball's whole bounce agree to round-off. These are the exact answers of the
// `contact-exact` stage, so they must be MuJoCo's model, not an approximation of it.
import { describe, expect, test } from 'vitest';
import { loadScene } from '../src/model-files/scene/index.js';
import {
  dropBall,
  normalAcceleration,
  pairParams,
  referenceAcceleration,
  contactR,
  staticDistance,
  type NormalContact,
} from '../src/validation/contact/formulas.js';
import { initialState, mujocoConstraints, mujocoRollout } from '../src/validation/contact/mujoco.js';

const PY = process.env.ACHILLES_PYTHON || 'python3';
const model = loadScene('scenes/ball-on-plane.arow');
const ground = model.shapes!.find((s) => s.kind === 'plane')!;
const ball = model.shapes!.find((s) => s.kind === 'sphere')!;
const mass = model.bodies[0].mass;
const p = pairParams(ground, ball);
const contact: NormalContact = { ...p, dt: model.world.dt, impratio: 1, mass, points: 1 };
const radius = ball.radius;
const g = 9.81;

describe('formulas against MuJoCo', () => {
  test("the pair takes the ball's direct solref (element-wise min) and the rows' R and a_ref match", async () => {
    expect(p.solref).toEqual(ball.solref);
    const s0 = initialState(model);
    const states = [-0.004, -0.0003, -0.00001].map((d, i) => ({
      ...s0,
      qpos: [0.1 * i, 0, radius + d, 1, 0, 0, 0],
      qvel: [0, 0, -0.3 + 0.2 * i, 0, 0, 0],
    }));
    const ans = await mujocoConstraints(PY, model, states);
    ans.forEach((a, i) => {
      const dist = states[i].qpos[2] - radius;
      expect(a.efc.type).toEqual([6, 6, 6, 6]);
      const { aref, imp } = referenceAcceleration(contact, dist, states[i].qvel[2]);
      const R = contactR(contact, imp, 1 / mass);
      for (let k = 0; k < 4; k++) {
        expect(Math.abs(a.efc.R[k] - R) / R).toBeLessThan(1e-13);
        expect(Math.abs(a.efc.aref[k] - aref) / Math.abs(aref)).toBeLessThan(1e-12);
      }
      const n = normalAcceleration(contact, -g, dist, states[i].qvel[2]);
      expect(Math.abs(a.newton.qacc[2] - n.a) / Math.abs(n.a)).toBeLessThan(1e-10);
    });
  });

  test('a dropped ball: bounce after bounce and the rest depth, step by step', async () => {
    const steps = Math.round(model.world.duration / model.world.dt);
    const mj = await mujocoRollout(PY, model, { steps });
    const ours = dropBall(contact, g, model.bodies[0].q0[2] - radius, 0, steps);
    let worst = 0;
    mj.qpos.forEach((q, k) => (worst = Math.max(worst, Math.abs(q[2] - radius - ours.dist[k]))));
    expect(worst).toBeLessThan(1e-10);
    const rest = staticDistance(contact, g);
    expect(Math.abs(mj.mindist[steps - 1] - rest)).toBeLessThan(1e-9);
  });
});
