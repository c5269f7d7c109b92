// The gate's reference model: a robot's drawn values written into the scene as constants, by code of
// its own (not src/params/apply.ts, whose mistakes the gate must see), from the draws' pure function.

import type { ModelDesc } from '../../engine/model-desc.js';
import { draw, parameterKey, type Distribution } from '../../params/draws.js';

/** The gate's parameters on the quadruped: every kind the scene has a subject for (its actuators are
 *  motors, which have no gain), each named as a sweep writes it. */
export const GATE_PARAMETERS: readonly { name: string; dist: Distribution }[] = [
  { name: 'mass_scale:torso', dist: { kind: 'uniform', low: 0.7, high: 1.4 } },
  { name: 'mass_scale:front_left_shin', dist: { kind: 'log_uniform', low: 0.5, high: 2 } },
  { name: 'com_offset:torso.x', dist: { kind: 'normal', mean: 0, std: 0.03 } },
  { name: 'com_offset:torso.z', dist: { kind: 'uniform', low: -0.02, high: 0.02 } },
  { name: 'friction:ground', dist: { kind: 'log_uniform', low: 0.2, high: 1.5 } },
  { name: 'damping:back_left_shin', dist: { kind: 'uniform', low: 0, high: 0.8 } },
  { name: 'armature:front_right_thigh', dist: { kind: 'uniform', low: 0, high: 0.02 } },
  { name: 'ctrl_range:back_right_hip.high', dist: { kind: 'uniform', low: 0.2, high: 0.9 } },
  { name: 'gravity.z', dist: { kind: 'normal', mean: -9.81, std: 0.3 } },
  { name: 'gravity.x', dist: { kind: 'uniform', low: -0.5, high: 0.5 } },
];

/** `model` as a scene that states robot `robot`'s values as its own constants. */
export function constantsScene(model: ModelDesc, seed: number, robot: number): ModelDesc {
  const m: ModelDesc = structuredClone(model);
  const body = (name: string) => m.bodies.find((b) => b.name === name)!;
  for (const p of GATE_PARAMETERS) {
    const x = draw(p.dist, seed, robot, parameterKey(p.name));
    const [kind, rest] = p.name.includes(':') ? p.name.split(':') : [p.name, ''];
    if (kind === 'mass_scale') {
      const b = body(rest);
      b.mass = b.mass * x;
      b.inertia = [b.inertia[0] * x, b.inertia[1] * x, b.inertia[2] * x, b.inertia[3] * x, b.inertia[4] * x, b.inertia[5] * x];
    } else if (kind === 'com_offset') {
      const [link, axis] = rest.split('.');
      body(link).com['xyz'.indexOf(axis)] += x;
    } else if (kind === 'friction') m.shapes!.find((s) => s.name === rest)!.friction = x;
    else if (kind === 'damping') body(rest).damping = x;
    else if (kind === 'armature') body(rest).armature = x;
    else if (kind === 'ctrl_range') {
      const [name, end] = rest.split('.');
      m.actuators!.find((a) => a.name === name)!.ctrlrange![end === 'low' ? 0 : 1] = x;
    } else if (kind.startsWith('gravity.')) m.world.gravity['xyz'.indexOf(kind.slice(8))] = x;
    else throw new Error(`the params gate has no constants writer for ${p.name}`);
  }
  return m;
}
