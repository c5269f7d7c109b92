// The contact stage's model of MuJoCo's face clipping (gjk.c `multicontact`: box–mesh and mesh–mesh
// at zero margin with multiccd on; up to 4 points, each at its own depth below the reference face):
//   contact-clip  on a static table (a box): a block (a box-shaped mesh); on a static slab (a
//                 box-shaped mesh): a lid (a box-shaped mesh, mesh–mesh) and a cube (a box geom,
//                 box–mesh the other way round); on the floor (a plane): a brick (a box-shaped mesh:
//                 MuJoCo's plane–mesh, the deepest corner and the others of the face under it)
// No face of more than 4 corners: where the clipping keeps more than 4 points, MuJoCo's polygonQuad
// picks 4 by a greedy search whose answer depends on where the incident polygon starts, which
// follows the order of the hull's triangles: qhull's in MuJoCo, the engine's quickhull's here (an
// octagonal prism on the table and on the slab measured: the same 4 points at 2 of 13 and 2 of 12
// touching states; docs/collision-validation.md). The reduction itself is checked against MuJoCo
// with MuJoCo's own polygons (native/tests/convex_tests.cpp --clip: all 41 four-point cases).
// and its random states: each body resting on its base, tilted by up to 0.03 rad (well inside
// mjFACE_TOL's 5°, so the faces count as aligned), turned about the vertical, between 4 mm deep and
// 1 mm apart, moving.

import type { ModelDesc, ShapeDesc, Vec3 } from '../../engine/model-desc.js';
import { Rng } from '../rng.js';
import type { TestState } from '../states.js';
import { freeBody, freeVelocity, shape, WORLD } from './models.js';

/** A box's 8 corners (x y z each) with half-extents h. */
export const boxVertices = (h: Vec3): number[] =>
  [-1, 1].flatMap((x) => [-1, 1].flatMap((y) => [-1, 1].flatMap((z) => [x * h[0], y * h[1], z * h[2]])));

/** The bases' tops (z) and the dynamic bodies' shapes, each with its base and its place on it. */
export const CLIP = {
  tableTop: 0.1,
  slabTop: 0.08,
  bodies: [
    { name: 'block', base: 'table', at: [0.15, 0.1], kind: 'convex', vertices: boxVertices([0.05, 0.035, 0.025]) },
    { name: 'lid', base: 'slab', at: [0.12, -0.1 + 1], kind: 'convex', vertices: boxVertices([0.04, 0.03, 0.015]) },
    { name: 'cube', base: 'slab', at: [-0.12, -0.1 + 1], kind: 'box', half: [0.03, 0.03, 0.03] as Vec3 },
    { name: 'brick', base: 'floor', at: [0.6, -0.5], kind: 'convex', vertices: boxVertices([0.045, 0.03, 0.02]) },
  ],
} as const;

type ClipBody = (typeof CLIP.bodies)[number];

/** A body's shape's vertices in its own frame (a box geom's corners). */
const bodyVertices = (b: ClipBody): number[] => ('vertices' in b ? [...b.vertices] : boxVertices(b.half));

export function clipModel(): ModelDesc {
  const q0 = [0, 0, 1, 1, 0, 0, 0];
  const bodies = CLIP.bodies.map((b, i) => freeBody(b.name, 0.3 + 0.05 * i, [0.0004, 0.0004, 0.0006], q0));
  const shapes: ShapeDesc[] = [
    shape('floor', -1, 'plane', 0, 0, { friction: 0.8 }),
    shape('table', -1, 'box', 0, 0, { halfExtents: [0.3, 0.25, CLIP.tableTop / 2], pos: [0, 0.1, CLIP.tableTop / 2], friction: 0.9 }),
    // the slab: a box-shaped mesh, static, at y ≈ 1
    shape('slab', -1, 'convex', 0, 0, {
      vertices: boxVertices([0.25, 0.25, CLIP.slabTop / 2]),
      halfExtents: [0.25, 0.25, CLIP.slabTop / 2],
      pos: [0, 1, CLIP.slabTop / 2],
    }),
    ...CLIP.bodies.map((b, i) =>
      b.kind === 'box'
        ? shape(`${b.name}/box`, i, 'box', 0, 0, { halfExtents: [...b.half] as Vec3, friction: 0.7 })
        : shape(`${b.name}/mesh`, i, 'convex', 0, 0, {
            vertices: bodyVertices(b),
            halfExtents: [0.05, 0.05, 0.05],
            friction: 0.7 + 0.05 * i,
          }),
    ),
  ];
  return { name: 'contact-clip', bodies, world: { ...WORLD }, files: [], shapes, solver: { iterations: 20, impratio: 1 } };
}

/** Rotates v by the unit quaternion q (w x y z). */
function rotate(q: number[], v: number[]): number[] {
  const [w, x, y, z] = q;
  const t = [2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])];
  return [v[0] + w * t[0] + (y * t[2] - z * t[1]), v[1] + w * t[1] + (z * t[0] - x * t[2]), v[2] + w * t[2] + (x * t[1] - y * t[0])];
}

/** Random states: every body on its base, its lowest corner between 4 mm deep and 1 mm above the top. */
export function clipStates(n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => {
    const q = CLIP.bodies.flatMap((b) => {
      const tilt = rng.uniform(0, 0.03);
      const phi = rng.uniform(-Math.PI, Math.PI);
      const yaw = rng.uniform(-Math.PI, Math.PI);
      const t = [Math.cos(tilt / 2), Math.sin(tilt / 2) * Math.cos(phi), Math.sin(tilt / 2) * Math.sin(phi), 0];
      const z = [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];
      const quat = [t[0] * z[0] - t[3] * z[3], t[1] * z[0] + t[2] * z[3], t[2] * z[0] - t[1] * z[3], t[3] * z[0] + t[0] * z[3]];
      const v = bodyVertices(b);
      let low = Infinity;
      for (let i = 0; i < v.length; i += 3) low = Math.min(low, rotate(quat, v.slice(i, i + 3))[2]);
      const top = b.base === 'table' ? CLIP.tableTop : b.base === 'slab' ? CLIP.slabTop : 0;
      return [b.at[0] + rng.uniform(-0.01, 0.01), b.at[1] + rng.uniform(-0.01, 0.01), top - low + rng.uniform(-0.004, 0.001), ...quat];
    });
    const v = CLIP.bodies.flatMap(() => freeVelocity(rng, 0.2));
    return { q, v, tau: v.map(() => 0) };
  });
}
