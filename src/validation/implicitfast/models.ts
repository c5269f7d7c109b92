// The models of the `implicitfast` stage: what each brings to M − h·qDeriv (implicit.hpp).
//
//   general-arm          generalArm() of the general-actuators stage: dof damping and MuJoCo's general
//                        actuators (affine gain and bias with velocity terms, activations read by the
//                        gain, actearly, a forcerange that clamps), exported to MJCF for MuJoCo
//   servo-chain          built here: a damped ball joint (the multi-dof D), a hinge about a general axis
//                        driven by a position servo (kp, kv, forcerange) and a slide by a velocity servo
//   mjcf-general-servos  the general-actuators fixture: position servos with kv, timeconst and
//                        dampratio, a <velocity>, an intvelocity, an affine gain read with ctrl
//   tumbling-body        built here: a standalone free body spinning about no principal axis, its CoM
//                        off the body origin (its own 6×6 block with the derivative of the gyroscopic
//                        and centripetal forces, mjd_freeMhat), damped, no constraints
//   mjcf-contact-drop    the contact fixture: two standalone free bodies falling on a plane (the
//                        constrained path of the same block), a damped hinge, a joint limit
//   mjcf-tendon-coupling the tendon fixture: a damped fixed tendon (a rank-one term across two dofs),
//                        its limit and dry friction
//   mjcf-actuator-tendon-chain  servos and general actuators pulling fixed tendons across one chain (each
//                        velocity term a per-lane rank-one term across the tendon's dofs)

import { join } from 'node:path';
import type { ActuatorDesc, ModelDesc } from '../../engine/model-desc.js';
import { packageRoot } from '../../engine/native.js';
import { rod } from '../actuators/models.js';

export const FIXTURES = {
  servos: join(packageRoot, 'test', 'fixtures', 'import', 'mjcf-general-servos.xml'),
  contact: join(packageRoot, 'test', 'fixtures', 'import', 'mjcf-contact-drop.xml'),
  tendon: join(packageRoot, 'test', 'fixtures', 'import', 'mjcf-tendon-coupling.xml'),
  actuatorTendon: join(packageRoot, 'test', 'fixtures', 'import', 'mjcf-actuator-tendon-chain.xml'),
};

export function servoChain(): ModelDesc {
  const actuators: ActuatorDesc[] = [
    { name: 'pos', body: 1, kind: 'position', gear: [1.5], kp: 25, kv: 1.5, forcerange: [-3, 3] },
    { name: 'vel', body: 2, kind: 'velocity', gear: [1], kp: 0, kv: 4 },
  ];
  return {
    name: 'servo-chain',
    files: [],
    world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'implicitfast', duration: 2, substeps: 1 },
    bodies: [
      {
        name: 'ball',
        parent: -1,
        pos: [0, 0, 0],
        quat: [1, 0, 0, 0],
        joint: 'ball',
        axis: [0, 0, 1],
        mass: 1.5,
        com: [0, 0.25, 0],
        inertia: [0.03, 0.004, 0.03, 0, 0, 0],
        q0: [0.9, 0.3, 0.2, 0.245],
        v0: [0.5, -0.4, 1.0],
        tau: [0, 0, 0],
        damping: 0.3,
        armature: 0.01,
      },
      rod('hinge', 0, [0, 0.5, 0], [0.6, 0, 0.8], 0.7, 0.4, { damping: 0.05, armature: 0.02, v0: [1.5] }),
      {
        name: 'slide',
        parent: 1,
        pos: [0, 0.4, 0],
        quat: [1, 0, 0, 0],
        joint: 'prismatic',
        axis: [0, 0, 1],
        mass: 0.4,
        com: [0, 0, 0],
        inertia: [0.002, 0.002, 0.002, 0, 0, 0],
        q0: [0],
        v0: [0.5],
        tau: [0],
        armature: 0.01,
      },
    ],
    actuators,
  };
}

export function tumblingBody(): ModelDesc {
  const quat = [0.9, 0.3, -0.2, 0.25];
  const n = Math.hypot(...quat);
  return {
    name: 'tumbling-body',
    files: [],
    world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'implicitfast', duration: 2, substeps: 1 },
    bodies: [
      {
        name: 'body',
        parent: -1,
        pos: [0, 0, 0],
        quat: [1, 0, 0, 0],
        joint: 'free',
        axis: [0, 0, 1],
        mass: 1.3,
        com: [0.05, -0.02, 0.03],
        inertia: [0.04, 0.05, 0.07, 0.003, -0.002, 0.001],
        q0: [0, 0, 1, ...quat.map((x) => x / n)],
        v0: [0.1, 0, 0.2, 3, -5, 8],
        tau: [0, 0, 0, 0, 0, 0],
        damping: 0.01,
      },
    ],
  };
}
