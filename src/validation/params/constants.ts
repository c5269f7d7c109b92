// The gate's scenarios and its reference model: a robot's drawn values written into the scene as
// constants, by code of its own (not src/params/apply.ts, whose mistakes the gate must see), from the
// draws' pure function.

import type { ModelDesc } from '../../engine/model-desc.js';
import { draw, parameterKey, type Distribution } from '../../params/draws.js';

export interface GateScenario {
  /** A bundled scene (scenes/NAME.arow). */
  scene: string;
  /** Every parameter drawn, named as a sweep writes it. */
  parameters: readonly { name: string; dist: Distribution }[];
  /** The constant control of each actuator at every step (so gains and control ranges act). */
  ctrl: readonly number[];
}

/** The quadruped's constant control (both of its scenes): hips forward, knees back, so its motors act. */
const QUADRUPED_CTRL: readonly number[] = [0.2, -0.1, 0.2, -0.1, 0.2, -0.1, 0.2, -0.1];

/** Together they draw every kind of parameter: the quadruped (contacts on the ground, motors) all but
 *  gain (a motor has none), the ball on the plate (position servos) gains and a low control end. */
export const GATE_SCENARIOS: readonly GateScenario[] = [
  {
    scene: 'quadruped',
    parameters: [
      { name: 'mass_scale:torso', dist: { kind: 'uniform', low: 0.7, high: 1.4 } },
      { name: 'mass_scale:front_left_shin', dist: { kind: 'log_uniform', low: 0.5, high: 2 } },
      { name: 'com_offset:torso.x', dist: { kind: 'normal', mean: 0, std: 0.03 } },
      { name: 'com_offset:torso.z', dist: { kind: 'uniform', low: -0.02, high: 0.02 } },
      { name: 'friction:ground', dist: { kind: 'log_uniform', low: 0.2, high: 1.5 } },
      { name: 'damping:back_left_shin', dist: { kind: 'uniform', low: 0, high: 0.8 } },
      { name: 'armature:front_right_thigh', dist: { kind: 'uniform', low: 0, high: 0.02 } },
      { name: 'ctrl_range:back_right_hip.high', dist: { kind: 'uniform', low: 0.05, high: 0.3 } },
      { name: 'gravity.z', dist: { kind: 'normal', mean: -9.81, std: 0.3 } },
      { name: 'gravity.x', dist: { kind: 'uniform', low: -0.5, high: 0.5 } },
    ],
    ctrl: QUADRUPED_CTRL,
  },
  {
    scene: 'ball-on-plate',
    parameters: [
      { name: 'gain:tilt-x', dist: { kind: 'log_uniform', low: 10, high: 80 } },
      { name: 'gain:tilt-y', dist: { kind: 'uniform', low: 20, high: 60 } },
      { name: 'ctrl_range:tilt-y.low', dist: { kind: 'uniform', low: -0.3, high: -0.05 } },
      { name: 'mass_scale:plate', dist: { kind: 'uniform', low: 0.5, high: 1.5 } },
      { name: 'friction:ball', dist: { kind: 'uniform', low: 0.3, high: 1 } },
      { name: 'damping:roll', dist: { kind: 'uniform', low: 0, high: 0.5 } },
    ],
    ctrl: [0.1, -0.2],
  },
];

/** Scenarios whose every drawn kind is per lane (src/params/lanes.ts LANE_KINDS), so their robots
 *  run together in one batch, one per lane: the quadruped (contacts and joint limits, Euler: damping
 *  implicit in the step's D) with gravity, damping, a motor's control range, masses, a centre of mass,
 *  an armature and the ground's friction (the contact rows' μ and R, the limits' R: per lane from the
 *  robot's frictions and inverse weights); the same quadruped on MuJoCo's elliptic cone with masses
 *  and friction; the ball on the plate (position servos with rate limits) with gains, a low control
 *  end, damping, the plate's mass and the ball's friction; the double pendulum (Euler, no
 *  constraints) with a mass, a centre of mass, armature and damping on one joint; the humanoid tree
 *  (RK4, ball joints: D's additions on a 3 × 3 block) with masses, a centre of mass, armature, damping
 *  and gravity. Every value is drawn away from zero where the batch's model has a term only when it
 *  is nonzero (damping, armature). */
export const LANE_SCENARIOS: readonly GateScenario[] = [
  {
    scene: 'quadruped',
    parameters: [
      { name: 'gravity.z', dist: { kind: 'normal', mean: -9.81, std: 0.3 } },
      { name: 'gravity.x', dist: { kind: 'uniform', low: -0.5, high: 0.5 } },
      { name: 'damping:back_left_shin', dist: { kind: 'uniform', low: 0.05, high: 0.8 } },
      { name: 'damping:front_right_thigh', dist: { kind: 'log_uniform', low: 0.01, high: 0.5 } },
      { name: 'ctrl_range:back_right_hip.high', dist: { kind: 'uniform', low: 0.05, high: 0.3 } },
      { name: 'mass_scale:torso', dist: { kind: 'uniform', low: 0.7, high: 1.4 } },
      { name: 'mass_scale:front_left_shin', dist: { kind: 'log_uniform', low: 0.5, high: 2 } },
      { name: 'com_offset:torso.x', dist: { kind: 'normal', mean: 0, std: 0.03 } },
      { name: 'armature:front_right_thigh', dist: { kind: 'uniform', low: 0.001, high: 0.02 } },
      { name: 'friction:ground', dist: { kind: 'log_uniform', low: 0.2, high: 1.5 } },
    ],
    ctrl: QUADRUPED_CTRL,
  },
  {
    scene: 'quadruped-elliptic',
    parameters: [
      { name: 'mass_scale:torso', dist: { kind: 'uniform', low: 0.7, high: 1.4 } },
      { name: 'armature:back_left_shin', dist: { kind: 'uniform', low: 0.001, high: 0.02 } },
      { name: 'friction:ground', dist: { kind: 'log_uniform', low: 0.3, high: 1.5 } },
    ],
    ctrl: QUADRUPED_CTRL,
  },
  {
    scene: 'ball-on-plate',
    parameters: [
      { name: 'gain:tilt-x', dist: { kind: 'log_uniform', low: 10, high: 80 } },
      { name: 'gain:tilt-y', dist: { kind: 'uniform', low: 20, high: 60 } },
      { name: 'ctrl_range:tilt-y.low', dist: { kind: 'uniform', low: -0.3, high: -0.05 } },
      { name: 'damping:roll', dist: { kind: 'uniform', low: 0.05, high: 0.5 } },
      { name: 'mass_scale:plate', dist: { kind: 'uniform', low: 0.5, high: 1.5 } },
      { name: 'friction:ball', dist: { kind: 'uniform', low: 0.3, high: 1 } },
    ],
    ctrl: [0.1, -0.2],
  },
  {
    scene: 'double-pendulum',
    parameters: [
      { name: 'mass_scale:upper', dist: { kind: 'uniform', low: 0.7, high: 1.4 } },
      { name: 'com_offset:lower.y', dist: { kind: 'uniform', low: -0.05, high: 0.05 } },
      { name: 'armature:upper', dist: { kind: 'uniform', low: 0.001, high: 0.05 } },
      { name: 'damping:upper', dist: { kind: 'uniform', low: 0.01, high: 0.3 } },
      { name: 'armature:lower', dist: { kind: 'log_uniform', low: 0.001, high: 0.05 } },
      { name: 'gravity.y', dist: { kind: 'uniform', low: -1, high: 1 } },
    ],
    ctrl: [],
  },
  {
    scene: 'humanoid-tree',
    parameters: [
      { name: 'mass_scale:torso', dist: { kind: 'log_uniform', low: 0.5, high: 2 } },
      { name: 'com_offset:head.z', dist: { kind: 'normal', mean: 0, std: 0.02 } },
      { name: 'mass_scale:left_shin', dist: { kind: 'uniform', low: 0.8, high: 1.25 } },
      { name: 'armature:torso', dist: { kind: 'uniform', low: 0.001, high: 0.05 } },
      { name: 'damping:head', dist: { kind: 'uniform', low: 0.01, high: 0.3 } },
      { name: 'armature:left_shin', dist: { kind: 'uniform', low: 0.001, high: 0.02 } },
      { name: 'damping:right_forearm', dist: { kind: 'uniform', low: 0.01, high: 0.2 } },
      { name: 'gravity.z', dist: { kind: 'uniform', low: -10.5, high: -9 } },
    ],
    ctrl: [],
  },
];

/** `model` as a scene that states robot `robot`'s values of `scenario` as its own constants. */
export function constantsScene(model: ModelDesc, scenario: GateScenario, seed: number, robot: number): ModelDesc {
  const m: ModelDesc = structuredClone(model);
  const body = (name: string) => m.bodies.find((b) => b.name === name)!;
  const actuator = (name: string) => m.actuators!.find((a) => a.name === name)!;
  for (const p of scenario.parameters) {
    const x = draw(p.dist, seed, robot, parameterKey(p.name));
    const [kind, rest] = p.name.includes(':') ? p.name.split(':') : [p.name, ''];
    if (kind === 'mass_scale') {
      const b = body(rest);
      b.mass = b.mass * x;
      b.inertia = [b.inertia[0] * x, b.inertia[1] * x, b.inertia[2] * x, b.inertia[3] * x, b.inertia[4] * x, b.inertia[5] * x];
    } else if (kind === 'com_offset') {
      const [link, axis] = rest.split('.');
      body(link).com['xyz'.indexOf(axis)] += x;
    } else if (kind === 'friction') {
      const own = m.shapes!.filter((s) => s.name === rest);
      const i = m.bodies.findIndex((b) => b.name === rest);
      for (const s of own.length ? own : m.shapes!.filter((s) => s.body === i)) s.friction = x;
    } else if (kind === 'damping') body(rest).damping = x;
    else if (kind === 'armature') body(rest).armature = x;
    else if (kind === 'gain' && actuator(rest).kind === 'position') actuator(rest).kp = x;
    else if (kind === 'ctrl_range') {
      const [name, end] = rest.split('.');
      actuator(name).ctrlrange![end === 'low' ? 0 : 1] = x;
    } else if (kind.startsWith('gravity.')) m.world.gravity['xyz'.indexOf(kind.slice(8))] = x;
    else throw new Error(`the params gate has no constants writer for ${p.name}`);
  }
  return m;
}
