// The models of the `actuators` and `passive` stages, built here (not scene files): what they
// exercise is written next to each.

import type { ActuatorDesc, BodyDesc, ModelDesc, Vec3 } from '../../engine/model-desc.js';
import { projectGear } from '../../model-files/scene/actuation.js';
import type { PdTermSpec } from '../../engine/controller-spec.js';

/** A link: a solid box of length `len` along +y (cross-section w × w, 0.08 m unless given), CoM at its middle. */
export function rod(
  name: string,
  parent: number,
  pos: Vec3,
  axis: Vec3,
  mass: number,
  len: number,
  extra: Partial<BodyDesc> = {},
  w = 0.08,
): BodyDesc {
  const ixx = (mass * (len * len + w * w)) / 12;
  const iyy = (mass * (w * w + w * w)) / 12;
  return {
    name,
    parent,
    pos,
    quat: [1, 0, 0, 0],
    joint: 'revolute',
    axis,
    mass,
    com: [0, len / 2, 0],
    inertia: [ixx, iyy, ixx, 0, 0, 0],
    q0: [0],
    v0: [0],
    tau: [0],
    ...extra,
  };
}

export interface ArmCase {
  model: ModelDesc;
  terms: PdTermSpec[];
}

/** Six-joint arm, released horizontal along +y (gravity loads the pitch joints with up to ~110 N·m),
 *  every joint damped (0.5 N·m·s/rad, implicit in Euler) with armature 0.05 kg·m², each driven by a
 *  motor whose scene direction has a part off the joint axis (so the gear is a projection) and by
 *  the built-in PD toward its own sine (amplitudes 0.5–1 rad, 0.25–0.7 Hz): joint torques (gear ×
 *  force) up to 147 N·m at the shoulder (measured, MuJoCo's run). */
export function arm6(): ArmCase {
  const axes: Vec3[] = [
    [1, 0, 0],
    [0, 0, 1],
    [1, 0, 0],
    [0, 0, 1],
    [1, 0, 0],
    [0, 1, 0],
  ];
  const mass = [3.5, 2.5, 2, 1.5, 1.2, 0.8];
  const len = [0.5, 0.45, 0.4, 0.35, 0.3, 0.2];
  // Directions (torques in the joint frame) with a part off the axis; the gear is their projection.
  const dirs: Vec3[] = [
    [1, 0.3, 0],
    [0.2, 0, 1.5],
    [1, 0, -0.4],
    [0.3, 0.1, 2],
    [1.2, 0.2, 0],
    [0, 1, 0.4],
  ];
  const bodies: BodyDesc[] = [];
  for (let i = 0; i < 6; i++) {
    bodies.push(
      rod(`j${i + 1}`, i - 1, i === 0 ? [0, 0, 0] : [0, len[i - 1], 0], axes[i], mass[i], len[i], { damping: 0.5, armature: 0.05 }),
    );
  }
  const actuators: ActuatorDesc[] = bodies.map((b, i) => ({
    name: `m${i + 1}`,
    body: i,
    kind: 'motor',
    gear: projectGear('revolute', b.axis, dirs[i], [0, 0, 0]),
    direction: [...dirs[i], 0, 0, 0],
    kp: 0,
    kv: 0,
  }));
  const kp = [380, 260, 220, 90, 70, 25];
  const kd = [28, 18, 13, 5, 4, 2];
  const amp = [0.6, 0.5, 0.6, 0.5, 0.8, 1.0];
  const freq = [0.25, 0.4, 0.3, 0.5, 0.6, 0.7];
  const phase = [0, 0.5, 1.0, 1.5, 2.0, 2.5];
  const terms: PdTermSpec[] = actuators.map((_, i) => ({
    actuator: i,
    kp: kp[i],
    kd: kd[i],
    target: { kind: 'sine', amplitude: amp[i], frequency: freq[i], phase: phase[i], offset: 0 },
  }));
  const model: ModelDesc = {
    name: 'arm6-pd',
    bodies,
    actuators,
    files: [],
    world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'euler', duration: 20, substeps: 1 },
  };
  return { model, terms };
}

/** Passive joints against MuJoCo, each path of the engine: the one-axis hinge (unit path), a slide
 *  with a spring and armature and a hinge about a general axis (general 1-dof path), a ball joint
 *  with damping and armature (the multi-dof D). */
export function passiveModels(): { name: string; model: ModelDesc }[] {
  const world = { gravity: [0, 0, -9.81] as Vec3, dt: 0.002, integrator: 'euler' as const, duration: 5, substeps: 1 };
  const damped: ModelDesc = {
    name: 'damped-pendulum',
    files: [],
    world,
    bodies: [rod('hinge', -1, [0, 0, 0], [1, 0, 0], 1, 0.6, { damping: 0.4, q0: [0.8], v0: [0.5] })],
  };
  const sprung: ModelDesc = {
    name: 'sprung-slider-pendulum',
    files: [],
    world,
    bodies: [
      {
        name: 'slider',
        parent: -1,
        pos: [0, 0, 0],
        quat: [1, 0, 0, 0],
        joint: 'prismatic',
        axis: [0, 0, 1],
        mass: 2,
        com: [0, 0, 0],
        inertia: [0.01, 0.01, 0.01, 0, 0, 0],
        q0: [0.2],
        v0: [0],
        tau: [0],
        stiffness: 60,
        springref: 0.1,
        damping: 0.3,
        armature: 0.1,
      },
      rod('swing', 0, [0, 0, 0], [0.6, 0, 0.8], 0.7, 0.5, {
        stiffness: 3,
        springref: -0.3,
        damping: 0.05,
        armature: 0.02,
        q0: [0.4],
        v0: [-1],
      }),
    ],
  };
  const ball: ModelDesc = {
    name: 'ball-armature',
    files: [],
    world,
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
        damping: 0.08,
        armature: 0.01,
      },
      rod('tip', 0, [0, 0.5, 0], [0, 1, 0], 0.5, 0.3, { damping: 0.02, armature: 0.005, v0: [2] }),
    ],
  };
  const n = Math.hypot(0.9, 0.3, 0.2, 0.245);
  ball.bodies[0].q0 = ball.bodies[0].q0.map((x) => x / n);
  return [damped, sprung, ball].map((model) => ({ name: model.name, model }));
}
