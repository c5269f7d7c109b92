// Random test states and the float32-rounded twin of a model.

import { coordinateLayout, JOINT_NQ, type BodyDesc, type ModelDesc } from '../engine/model-desc.js';
import { Rng } from './rng.js';

export interface TestState {
  q: number[];
  v: number[];
  tau: number[];
}

/** Velocities ~ N(0, VEL_SIGMA²): fast enough that velocity-product terms matter, slow enough
 *  that one 1–2 ms step stays well resolved. */
export const VEL_SIGMA = 1.5;

/** Random positions (hinges uniform in [−π, π], slides in [−1, 1] m, planar x, y in [−0.5, 0.5] m,
 *  ball/free orientation a uniform random unit quaternion, free position in [−1, 1]³ m),
 *  velocities N(0, 1.5²), torques N(0, tauScale²). */
export function randomStates(model: ModelDesc, n: number, seed: number, tauScale: number): TestState[] {
  const rng = new Rng(seed);
  const { nv } = coordinateLayout(model.bodies);
  const out: TestState[] = [];
  for (let i = 0; i < n; i++) {
    const q: number[] = [];
    for (const b of model.bodies) q.push(...randomJointPosition(b, rng));
    const v = Array.from({ length: nv }, () => VEL_SIGMA * rng.normal());
    const tau = Array.from({ length: nv }, () => tauScale * rng.normal());
    out.push({ q, v, tau });
  }
  return out;
}

function randomJointPosition(b: BodyDesc, rng: Rng): number[] {
  switch (b.joint) {
    case 'revolute':
      return [rng.uniform(-Math.PI, Math.PI)];
    case 'prismatic':
      return [rng.uniform(-1, 1)];
    case 'planar':
      return [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-Math.PI, Math.PI)];
    case 'ball':
      return rng.unitQuat();
    case 'free':
      return [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), ...rng.unitQuat()];
    case 'fixed':
      return [];
  }
}

/** Offsets in q of every quaternion (ball: its 4 numbers; free: numbers 3..6). */
export function quaternionOffsets(model: ModelDesc): number[] {
  const { qOffset } = coordinateLayout(model.bodies);
  const out: number[] = [];
  model.bodies.forEach((b, i) => {
    if (b.joint === 'ball') out.push(qOffset[i]);
    if (b.joint === 'free') out.push(qOffset[i] + 3);
  });
  return out;
}

/** q indices that are not quaternion components. */
export function plainCoordinates(model: ModelDesc): number[] {
  const quat = new Set(quaternionOffsets(model).flatMap((o) => [o, o + 1, o + 2, o + 3]));
  const nq = model.bodies.reduce((s, b) => s + JOINT_NQ[b.joint], 0);
  return Array.from({ length: nq }, (_, k) => k).filter((k) => !quat.has(k));
}

export const f32 = (xs: readonly number[]): number[] => xs.map(Math.fround);

export function roundState(s: TestState): TestState {
  return { q: f32(s.q), v: f32(s.v), tau: f32(s.tau) };
}

/** The model with every physical constant rounded to float32, as the float32 engine stores it. */
export function roundModel(model: ModelDesc): ModelDesc {
  const r3 = (x: readonly number[]) => f32(x) as [number, number, number];
  return {
    ...model,
    world: { ...model.world, gravity: r3(model.world.gravity), dt: Math.fround(model.world.dt) },
    bodies: model.bodies.map((b) => ({
      ...b,
      pos: r3(b.pos),
      quat: f32(b.quat) as BodyDesc['quat'],
      axis: r3(b.axis),
      mass: Math.fround(b.mass),
      com: r3(b.com),
      inertia: f32(b.inertia) as BodyDesc['inertia'],
      q0: f32(b.q0),
      v0: f32(b.v0),
      tau: f32(b.tau),
    })),
  };
}
