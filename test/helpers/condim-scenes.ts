// Worlds with torsional and rolling friction (condim 4 and 6, pyramidal cone): a condim-6 ball and a
// condim-4 ball on a plane, and a quadruped-like body (a free torso, four hinged legs, condim-6
// sphere feet) with impratio 100 as public quadrupeds use (MuJoCo Menagerie).
import type { ModelDesc, Quat, Vec3 } from '../../src/engine/model-desc.js';
import { cbody, cshape } from './contact-scene.js';
import { rng } from './engine.js';

const I: Quat = [1, 0, 0, 0];
const world = { gravity: [0, 0, -9.81] as Vec3, dt: 0.002, integrator: 'euler' as const, duration: 1, substeps: 1 };
const ballInertia = (m: number, r: number) => [0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r, 0, 0, 0] as BodyInertia;
type BodyInertia = [number, number, number, number, number, number];

/** A condim-6 ball (r 0.1) and a condim-4 ball (r 0.07) on a plane. */
export function rollingBalls(): ModelDesc {
  const bodies = [
    cbody('ball6', -1, 'free', [0, 0, 0], [0, 0, 0.1, 1, 0, 0, 0], 6, { mass: 1.1, com: [0, 0, 0], inertia: ballInertia(1.1, 0.1) }),
    cbody('ball4', -1, 'free', [0, 0, 0], [0.5, 0, 0.07, 1, 0, 0, 0], 6, {
      mass: 0.7,
      com: [0.003, 0, -0.002],
      inertia: [0.0015, 0.0013, 0.0014, 0.0001, 0, 0],
    }),
  ];
  const shapes = [
    cshape('ground', -1, 'plane', [0, 0, 0], 0, [0, 0, 0], I, { friction: 0.9, torsionalFriction: 0.01, rollingFriction: 0.0005 }),
    cshape('ball6', 0, 'sphere', [0, 0, 0], 0.1, [0, 0, 0], I, {
      condim: 6,
      friction: 0.7,
      torsionalFriction: 0.03,
      rollingFriction: 0.002,
    }),
    cshape('ball4', 1, 'sphere', [0, 0, 0], 0.07, [0, 0, 0], I, { condim: 4, friction: 1.2, torsionalFriction: 0.02 }),
  ];
  return { name: 'rolling-balls', bodies, world, files: [], shapes, excludes: [], solver: { iterations: 20, impratio: 1.7 } };
}

export const FOOT_R = 0.03;
export const LEG = 0.2;

/** A free torso with four legs (hinges about y at the torso's corners), each ending in a condim-6 sphere foot. */
export function quadruped(): ModelDesc {
  const bodies = [
    cbody('torso', -1, 'free', [0, 0, 0], [0, 0, LEG + FOOT_R, 1, 0, 0, 0], 6, { mass: 5, inertia: [0.05, 0.1, 0.12, 0.002, 0.001, 0] }),
  ];
  const corners: Vec3[] = [
    [0.25, 0.12, 0],
    [0.25, -0.12, 0],
    [-0.25, 0.12, 0],
    [-0.25, -0.12, 0],
  ];
  const shapes = [cshape('ground', -1, 'plane', [0, 0, 0], 0, [0, 0, 0], I, { friction: 1 })];
  corners.forEach((c, k) => {
    bodies.push(cbody(`leg${k}`, 0, 'revolute', c, [0], 1, { mass: 0.4, com: [0, 0, -0.1], inertia: [0.002, 0.002, 0.0003, 0, 0, 0] }));
    shapes.push(
      cshape(`foot${k}`, k + 1, 'sphere', [0, 0, 0], FOOT_R, [0, 0, -LEG], I, {
        condim: 6,
        friction: 0.8,
        torsionalFriction: 0.02,
        rollingFriction: 0.01,
      }),
    );
  });
  return { name: 'quadruped', bodies, world, files: [], shapes, excludes: [], solver: { iterations: 20, impratio: 100 } };
}

const unit = (q: number[]) => {
  const n = Math.hypot(...q);
  return q.map((x) => x / n);
};

/** Random states with the balls a few mm into the plane, spinning and rolling. */
export function rollingBallStates(n: number, seed: number): { qpos: number[]; qvel: number[] }[] {
  const g = rng(seed);
  return Array.from({ length: n }, () => ({
    qpos: [
      (g() - 0.5) * 0.2,
      (g() - 0.5) * 0.2,
      0.1 + (g() - 0.7) * 0.004,
      ...unit([1, g() - 0.5, g() - 0.5, g() - 0.5]),
      0.5,
      0,
      0.07 + (g() - 0.7) * 0.004,
      ...unit([1, g() - 0.5, g() - 0.5, g() - 0.5]),
    ],
    qvel: Array.from({ length: 12 }, (_, k) => (g() - 0.5) * (k % 6 >= 3 ? 8 : 0.6)),
  }));
}

/** Random quadruped states: feet a few mm into the plane, the torso tilted a little, everything moving. */
export function quadrupedStates(n: number, seed: number): { qpos: number[]; qvel: number[] }[] {
  const g = rng(seed);
  return Array.from({ length: n }, () => ({
    qpos: [
      (g() - 0.5) * 0.2,
      (g() - 0.5) * 0.2,
      LEG + FOOT_R - 0.001 - g() * 0.003,
      ...unit([1, (g() - 0.5) * 0.01, (g() - 0.5) * 0.01, g() - 0.5]),
      ...Array.from({ length: 4 }, () => (g() - 0.5) * 0.1),
    ],
    qvel: Array.from({ length: 10 }, (_, k) => (g() - 0.5) * (k >= 3 && k < 6 ? 2 : 0.6)),
  }));
}

export interface BallFriction {
  m: number;
  r: number;
  mu: number;
  spin: number;
  roll: number;
  solimp: [number, number, number, number, number];
}

/** One ball resting on a frictionless-looking plane (the ball's frictions are the pair's: the max). */
export function singleBall(f: BallFriction, condim: 4 | 6): ModelDesc {
  const bodies = [
    cbody('ball', -1, 'free', [0, 0, 0], [0, 0, f.r - 0.0008, 1, 0, 0, 0], 6, {
      mass: f.m,
      com: [0, 0, 0],
      inertia: ballInertia(f.m, f.r),
    }),
  ];
  const shapes = [
    cshape('ground', -1, 'plane', [0, 0, 0], 0, [0, 0, 0], I, { friction: 0, torsionalFriction: 0, rollingFriction: 0, solimp: f.solimp }),
    cshape('ball', 0, 'sphere', [0, 0, 0], f.r, [0, 0, 0], I, {
      condim,
      friction: f.mu,
      torsionalFriction: f.spin,
      rollingFriction: f.roll,
      solimp: f.solimp,
    }),
  ];
  return { name: 'ball', bodies, world, files: [], shapes, excludes: [], solver: { iterations: 100, impratio: 1 } };
}
