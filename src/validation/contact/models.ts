// The models of the contact stages, built in code (they are test fixtures, not scenes to run):
//   contact-balls    free spheres and a capsule over a plane, spheres touching each other: the
//                    pairs where both engines' detection agrees exactly (sphere–sphere,
//                    sphere–plane, capsule–plane), with every contact setting varied (friction,
//                    condim 1 between the two touching spheres (a pair takes the larger condim, so
//                    their contacts with the plane stay pyramids), a direct solref, solimp, a margin)
//   contact-spin-balls  the same with torsional and rolling friction (a condim-6 sphere, a condim-4
//                    capsule) and impratio 1.7
//   contact-arm      a two-link hinge arm of capsules over a plane with joint ranges (one with a
//                    margin and its own solref): limit rows beside contacts on a chain
//   limit-pendulum   one hinge pendulum swinging into the upper end of its range (over time)
// and their random states (every body near contact, velocities that make a_ref's damping term matter).

import type { BodyDesc, ModelDesc, ShapeDesc, Vec3 } from '../../engine/model-desc.js';
import { Rng } from '../rng.js';
import type { TestState } from '../states.js';

export const WORLD = { gravity: [0, 0, -9.81] as Vec3, dt: 0.002, integrator: 'euler' as const, duration: 1, substeps: 1 };

/** A free body's random velocity: linear ~ N(0, linear²) per axis, then angular ~ N(0, 1). */
export const freeVelocity = (rng: Rng, linear: number): number[] => [
  linear * rng.normal(),
  linear * rng.normal(),
  linear * rng.normal(),
  rng.normal(),
  rng.normal(),
  rng.normal(),
];

export function freeBody(name: string, mass: number, inertia: Vec3, q0: number[]): BodyDesc {
  return {
    name,
    parent: -1,
    pos: [0, 0, 0],
    quat: [1, 0, 0, 0],
    joint: 'free',
    axis: [0, 0, 1],
    mass,
    com: [0, 0, 0],
    inertia: [...inertia, 0, 0, 0],
    q0,
    v0: [0, 0, 0, 0, 0, 0],
    tau: [0, 0, 0, 0, 0, 0],
  };
}

export function shape(
  name: string,
  body: number,
  kind: ShapeDesc['kind'],
  radius: number,
  hz: number,
  extra: Partial<ShapeDesc> = {},
): ShapeDesc {
  return {
    name,
    body,
    kind,
    halfExtents: [0, 0, hz],
    radius,
    pos: [0, 0, 0],
    quat: [1, 0, 0, 0],
    friction: 1,
    contype: 1,
    conaffinity: 1,
    margin: 0,
    gap: 0,
    ...extra,
  };
}

const sphereInertia = (m: number, r: number): Vec3 => [0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r];

/** Radii of the balls model's spheres and the capsule's radius and half-length. */
export const BALLS = { ra: 0.1, rb: 0.07, rc: 0.05, capsule: [0.04, 0.1] as [number, number] };

export function ballsModel(): ModelDesc {
  const { ra, rb, rc } = BALLS;
  const [cr, ch] = BALLS.capsule;
  const bodies = [
    freeBody('a', 1.5, sphereInertia(1.5, ra), [0, 0, ra, 1, 0, 0, 0]),
    freeBody('b', 0.6, sphereInertia(0.6, rb), [0.2, 0, rb, 1, 0, 0, 0]),
    freeBody('c', 0.3, sphereInertia(0.3, rc), [0.5, 0, rc, 1, 0, 0, 0]),
    freeBody('d', 0.8, [0.004, 0.004, 0.0008], [0.9, 0, cr + ch, 1, 0, 0, 0]),
  ];
  const shapes = [
    shape('ground', -1, 'plane', 0, 0, { friction: 0.7 }),
    shape('a/ball', 0, 'sphere', ra, 0, { friction: 0.9, condim: 1 }),
    shape('b/ball', 1, 'sphere', rb, 0, { condim: 1, solref: [-8000, -60] }),
    shape('c/ball', 2, 'sphere', rc, 0, { friction: 1.2, margin: 0.002, solimp: [0.8, 0.99, 0.005, 0.3, 2] }),
    shape('d/capsule', 3, 'capsule', cr, ch, { friction: 0.5, solref: [0.01, 0.7] }),
  ];
  return { name: 'contact-balls', bodies, world: { ...WORLD }, files: [], shapes, solver: { iterations: 20, impratio: 1 } };
}

/** The balls model with torsional and rolling friction: c a condim-6 sphere, d a condim-4 capsule, impratio 1.7. */
export function spinBallsModel(): ModelDesc {
  const m = ballsModel();
  const shapes = m.shapes!.map((s) =>
    s.name === 'c/ball'
      ? { ...s, condim: 6 as const, torsionalFriction: 0.03, rollingFriction: 0.004 }
      : s.name === 'd/capsule'
        ? { ...s, condim: 4 as const, torsionalFriction: 0.02 }
        : s,
  );
  return { ...m, name: 'contact-spin-balls', shapes, solver: { iterations: 20, impratio: 1.7 } };
}

/** Random states of the balls model: each body within [−4, +1] mm of the plane (c within its margin
 *  band), b against a (overlap −3 … +1 mm), random orientations, velocities N(0, 0.3²) m/s and
 *  N(0, 1) rad/s. */
export function ballsStates(n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  const { ra, rb, rc } = BALLS;
  const [cr, ch] = BALLS.capsule;
  const near = () => rng.uniform(-0.004, 0.001);
  return Array.from({ length: n }, () => {
    const a: Vec3 = [rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02), ra + near()];
    // b against a, from the side and above (its own height above the plane then varies too)
    const el = rng.uniform(0.1, 0.8);
    const az = rng.uniform(-0.6, 0.6);
    const dAB = ra + rb + rng.uniform(-0.003, 0.001);
    const b: Vec3 = [a[0] + dAB * Math.cos(el) * Math.cos(az), a[1] + dAB * Math.cos(el) * Math.sin(az), a[2] + dAB * Math.sin(el)];
    const c: Vec3 = [0.5, rng.uniform(-0.05, 0.05), rc + rng.uniform(-0.003, 0.0025)];
    // the capsule tilted by up to 0.5 rad about a horizontal axis, its lower end near the plane
    const tilt = rng.uniform(0.05, 0.5);
    const phi = rng.uniform(-Math.PI, Math.PI);
    const qd = [Math.cos(tilt / 2), Math.sin(tilt / 2) * Math.cos(phi), Math.sin(tilt / 2) * Math.sin(phi), 0];
    const d: Vec3 = [0.9, 0, cr + ch * Math.cos(tilt) + near()];
    const q = [...a, ...rng.unitQuat(), ...b, ...rng.unitQuat(), ...c, ...rng.unitQuat(), ...d, ...qd];
    const v = Array.from({ length: 4 }, () => freeVelocity(rng, 0.3)).flat();
    return { q, v, tau: v.map(() => 0) };
  });
}

export function armModel(): ModelDesc {
  const link = (name: string, parent: number, pos: Vec3, range: [number, number], limit: BodyDesc['limit']): BodyDesc => ({
    name,
    parent,
    pos,
    quat: [1, 0, 0, 0],
    joint: 'revolute',
    axis: [0, 1, 0],
    mass: 0.7,
    com: [0, 0, -0.1],
    inertia: [0.003, 0.003, 0.0004, 0, 0, 0],
    q0: [0],
    v0: [0],
    tau: [0],
    range,
    limit,
  });
  const bodies = [
    link('upper', -1, [0, 0, 0.3], [-1.2, 1.2], { solref: [0.03, 0.8], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 }),
    link('lower', 0, [0, 0, -0.2], [-2, 0.5], { solref: [0.02, 1], solimp: [0.85, 0.97, 0.01, 0.5, 2], margin: 0.02 }),
  ];
  const capsule = (name: string, body: number): ShapeDesc => ({ ...shape(name, body, 'capsule', 0.03, 0.1), pos: [0, 0, -0.1] });
  const shapes = [shape('floor', -1, 'plane', 0, 0, { friction: 0.8 }), capsule('upper/capsule', 0), capsule('lower/capsule', 1)];
  return {
    name: 'contact-arm',
    bodies,
    world: { ...WORLD },
    files: [],
    shapes,
    excludes: [[0, 1]],
    solver: { iterations: 20, impratio: 1 },
  };
}

/** Random states of the arm: each joint, half the time within 0.05 rad of one end of its range
 *  (either side: limits act, inside their margin too), else uniform over it; the base low enough
 *  that the arm reaches the floor. */
export function armStates(n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  const joint = (lo: number, hi: number) =>
    rng.next() < 0.5 ? (rng.next() < 0.5 ? lo : hi) + rng.uniform(-0.05, 0.05) : rng.uniform(lo, hi);
  return Array.from({ length: n }, () => {
    const q = [joint(-1.2, 1.2), joint(-2, 0.5)];
    const v = [rng.normal(), rng.normal()];
    return { q, v, tau: [0, 0] };
  });
}

/** One hinge pendulum (a 1 kg ball on a massless-looking rod: inertia about the CoM small) with the
 *  range [−0.6, 0.6] rad, released hanging with 4 rad/s: it swings into the upper limit, is thrown
 *  back into the lower one, and so on (the limit's soft spring-damper each time). Its joint has
 *  damping and armature, so the limit rows meet MuJoCo's implicit damping in Euler ((M + h·D) only
 *  after the constraint solve with M) and the armature in the solver's M and M⁻¹. */
export function limitPendulumModel(): ModelDesc {
  const body: BodyDesc = {
    name: 'pendulum',
    parent: -1,
    pos: [0, 0, 1],
    quat: [1, 0, 0, 0],
    joint: 'revolute',
    axis: [0, 1, 0],
    mass: 1,
    com: [0, 0, -0.5],
    inertia: [0.004, 0.004, 0.004, 0, 0, 0],
    q0: [0],
    v0: [4],
    tau: [0],
    range: [-0.6, 0.6],
    damping: 0.05,
    armature: 0.01,
    limit: { solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 },
  };
  return { name: 'limit-pendulum', bodies: [body], world: { ...WORLD, duration: 2 }, files: [], solver: { iterations: 20, impratio: 1 } };
}
