// The contact stage's model of MuJoCo 3.14's face clipping with a cylinder (gjk.c `multicontact` at
// zero margin with multiccd on: a cylinder's cap as a 16-gon, its side as a segment along its axis;
// native/include/achilles/collision/convex/cylinder_faces.hpp):
//   contact-cylinder  a log (a cylinder on its side) lying on a table (a box): its side's segment
//                     clipped by the table's top, 2 points; a cube resting on a post (a static
//                     cylinder): the cube's face wholly on the post's cap, its 4 corners; a plank
//                     across another post: the plank's face clipped by the cap's 16-gon, 4 of the
//                     clipped polygon's points (polygonQuad), which the 16-gon's corners decide
// No cylinder stands on a larger face: its cap then clips to a regular 16-gon, whose candidate quads
// tie in area in exact arithmetic, and MuJoCo's pick among them follows its rounding, not always the
// engine's (docs/collision-validation.md; native/tests/convex_tests.cpp counts them).
// Random states: each body on its base, tilted by up to 0.03 rad (inside mjFACE_TOL's 5° and
// mjEDGE_TOL's 0.0888), turned about the vertical, between 4 mm deep and 1 mm apart, moving.

import type { ModelDesc, ShapeDesc, Vec3 } from '../../engine/model-desc.js';
import { Rng } from '../rng.js';
import type { TestState } from '../states.js';
import { boxVertices } from './models-clip.js';
import { freeBody, freeVelocity, shape, WORLD } from './models.js';

/** The table's top (z), the posts' radius, half-length and places, the bodies' sizes. */
export const CYLINDER_CLIP = {
  top: 0.1,
  post: [0.06, 0.05] as const,
  posts: [
    [0, 1],
    [0.4, 1],
  ] as const,
  log: [0.04, 0.08] as const,
  cube: [0.03, 0.025, 0.02] as const,
  plank: [0.085, 0.025, 0.02] as const,
};

const cylinder = (name: string, body: number, r: number, h: number, extra: Partial<ShapeDesc> = {}): ShapeDesc =>
  shape(name, body, 'cylinder', 0, 0, { halfExtents: [r, r, h], size: [r, h, 0], ...extra });

export function cylinderClipModel(): ModelDesc {
  const C = CYLINDER_CLIP;
  const [pr, ph] = C.post;
  const [lr, lh] = C.log;
  const q0 = [0, 0, 1, 1, 0, 0, 0];
  const bodies = [
    freeBody('log', 0.5, [0.0002, 0.0012, 0.0012], q0),
    freeBody('cube', 0.3, [0.0001, 0.0001, 0.00012], q0),
    freeBody('plank', 0.4, [0.00014, 0.001, 0.00105], q0),
  ];
  const half = C.top / 2;
  const shapes: ShapeDesc[] = [
    shape('floor', -1, 'plane', 0, 0, { friction: 0.8 }),
    shape('table', -1, 'box', 0, 0, { halfExtents: [0.3, 0.3, half], pos: [0, 0, half], friction: 0.9 }),
    ...C.posts.map(([x, y], i) => cylinder(`post${i}`, -1, pr, ph, { pos: [x, y, C.top - ph], friction: 0.8 })),
    // the log's axis along the world x at the identity pose
    cylinder('log/cylinder', 0, lr, lh, { quat: [Math.SQRT1_2, 0, Math.SQRT1_2, 0], friction: 0.7 }),
    shape('cube/box', 1, 'box', 0, 0, { halfExtents: [...C.cube] as Vec3, friction: 0.75 }),
    shape('plank/box', 2, 'box', 0, 0, { halfExtents: [...C.plank] as Vec3, friction: 0.85, solref: [0.01, 0.8] }),
  ];
  return { name: 'contact-cylinder', bodies, world: { ...WORLD }, files: [], shapes, solver: { iterations: 20, impratio: 1 } };
}

/** Rotates v by the unit quaternion q (w x y z). */
function rotate(q: number[], v: number[]): number[] {
  const [w, x, y, z] = q;
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]), v[2] + w * t[2] + (x * t[1] - y * t[0])];
}

const mul = (a: number[], b: number[]): number[] => [
  a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
  a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
  a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
  a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
];

/** Random states: the log on the table, the cube and the plank on the posts, each tilted by up to
 *  0.03 rad about a random horizontal axis and turned about the vertical, its lowest point between
 *  4 mm below and 1 mm above its base's top; velocities that make a_ref's damping term matter. */
export function cylinderClipStates(n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  const C = CYLINDER_CLIP;
  const [lr, lh] = C.log;
  const tilted = (): number[] => {
    const tilt = rng.uniform(0, 0.03);
    const phi = rng.uniform(-Math.PI, Math.PI);
    const yaw = rng.uniform(-Math.PI, Math.PI);
    const t = [Math.cos(tilt / 2), Math.sin(tilt / 2) * Math.cos(phi), Math.sin(tilt / 2) * Math.sin(phi), 0];
    return mul(t, [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)]);
  };
  const near = () => rng.uniform(-0.004, 0.001);
  return Array.from({ length: n }, () => {
    // the log: its axis (x in its body frame, as the shape's quat turns z onto x) tilted; its lowest
    // point is r·√(1 − a_z²) + h·|a_z| below its centre, a_z the axis's vertical component
    const ql = tilted();
    const az = rotate(ql, [1, 0, 0])[2];
    const log = [rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1), C.top + lr * Math.sqrt(1 - az * az) + lh * Math.abs(az) + near(), ...ql];
    const onPost = (half: readonly number[], [x, y]: readonly number[]) => {
      const q = tilted();
      const v = boxVertices([half[0], half[1], half[2]]);
      let low = Infinity;
      for (let i = 0; i < v.length; i += 3) low = Math.min(low, rotate(q, v.slice(i, i + 3))[2]);
      return [x + rng.uniform(-0.008, 0.008), y + rng.uniform(-0.008, 0.008), C.top - low + near(), ...q];
    };
    const cube = onPost(C.cube, C.posts[0]);
    const plank = onPost(C.plank, C.posts[1]);
    const v = Array.from({ length: 3 }, () => freeVelocity(rng, 0.2)).flat();
    return { q: [...log, ...cube, ...plank], v, tau: v.map(() => 0) };
  });
}
