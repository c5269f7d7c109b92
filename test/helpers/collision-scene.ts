// A small world for the collision tests and the sanitizer run: ground; a free rounded box near it;
// a two-link capsule arm hinged to the world with a sphere hand; a box welded (fixed joint) to the
// arm's first link, with a gap.
import type { BodyDesc, ModelDesc, Quat, ShapeDesc, Vec3 } from '../../src/engine/model-desc.js';

const I: Quat = [1, 0, 0, 0];

const body = (name: string, parent: number, joint: BodyDesc['joint'], pos: Vec3, q0: number[], nv: number): BodyDesc => ({
  name,
  parent,
  pos,
  quat: I,
  joint,
  axis: joint === 'revolute' ? [0, 1, 0] : [0, 0, 1],
  mass: 1,
  com: [0, 0, 0],
  inertia: [0.01, 0.01, 0.01, 0, 0, 0],
  q0,
  v0: new Array(nv).fill(0),
  tau: new Array(nv).fill(0),
});
export const shapeDesc = (
  name: string,
  b: number,
  kind: ShapeDesc['kind'],
  h: Vec3,
  r: number,
  pos: Vec3 = [0, 0, 0],
  quat: Quat = I,
  extra: Partial<ShapeDesc> = {},
): ShapeDesc => ({
  name,
  body: b,
  kind,
  halfExtents: h,
  radius: r,
  pos,
  quat,
  friction: 1,
  contype: 1,
  conaffinity: 1,
  margin: 0,
  gap: 0,
  ...extra,
});
const world = { gravity: [0, 0, -9.81] as Vec3, dt: 0.002, integrator: 'euler' as const, duration: 1, substeps: 1 };

/** Ground; a free box dropping on it; a two-link arm hinged to the world with capsules and a
 *  sphere; a welded (fixed) box on the arm's first link. */
export function collisionScene(): ModelDesc {
  const bodies = [
    body('box', -1, 'free', [0, 0, 0], [0.3, 0.1, 0.19, 1, 0, 0, 0], 6),
    body('upper', -1, 'revolute', [0, 0, 1], [0.3], 1),
    body('lower', 1, 'revolute', [0, 0, -0.5], [-0.6], 1),
    body('bracket', 1, 'fixed', [0.1, 0, -0.2], [], 0),
  ];
  const shapes = [
    shapeDesc('ground', -1, 'plane', [0, 0, 0], 0),
    shapeDesc('box', 0, 'rounded-box', [0.15, 0.1, 0.15], 0.05, [0, 0, 0], I, { margin: 0.01 }),
    shapeDesc('upper', 1, 'capsule', [0, 0, 0.25], 0.05, [0, 0, -0.25]),
    shapeDesc('lower', 2, 'capsule', [0, 0, 0.25], 0.05, [0, 0, -0.25]),
    shapeDesc('hand', 2, 'sphere', [0, 0, 0], 0.12, [0, 0, -0.55]),
    shapeDesc('bracket', 3, 'box', [0.05, 0.05, 0.05], 0, [0, 0, 0], I, { gap: 0.02 }),
  ];
  return { name: 'collision-scene', bodies, world, files: [], shapes, excludes: [] };
}
