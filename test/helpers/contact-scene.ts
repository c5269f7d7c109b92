// Small constrained worlds for the contact-solver tests: free bodies on a plane (sphere, capsule,
// box), a two-link arm with joint ranges and a sphere hand, and a lone resting sphere.
import type { BodyDesc, ModelDesc, Quat, ShapeDesc, Vec3 } from '../../src/engine/model-desc.js';

const I: Quat = [1, 0, 0, 0];

export const cbody = (
  name: string,
  parent: number,
  joint: BodyDesc['joint'],
  pos: Vec3,
  q0: number[],
  nv: number,
  extra: Partial<BodyDesc> = {},
): BodyDesc => ({
  name,
  parent,
  pos,
  quat: I,
  joint,
  axis: joint === 'revolute' ? [0, 1, 0] : [0, 0, 1],
  mass: 1.3,
  com: [0.01, -0.02, 0.03],
  inertia: [0.011, 0.013, 0.009, 0.001, 0, 0.0005],
  q0,
  v0: new Array(nv).fill(0),
  tau: new Array(nv).fill(0),
  ...extra,
});
export const cshape = (
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
  friction: 0.8,
  contype: 1,
  conaffinity: 1,
  margin: 0,
  gap: 0,
  ...extra,
});
const world = (integrator: ModelDesc['world']['integrator'] = 'euler') => ({
  gravity: [0, 0, -9.81] as Vec3,
  dt: 0.002,
  integrator,
  duration: 1,
  substeps: 1,
});

/** Free sphere, capsule (with dry friction) and box dropped on a plane, and an arm whose joints run
 *  into their ranges (the elbow with dry friction). */
export function contactScene(integrator: ModelDesc['world']['integrator'] = 'euler'): ModelDesc {
  const bodies = [
    cbody('ball', -1, 'free', [0, 0, 0], [0, 0, 0.12, 1, 0, 0, 0], 6),
    cbody('cap', -1, 'free', [0, 0, 0], [0.5, 0, 0.07, 0.9, 0.1, 0.3, 0.2], 6, { frictionloss: 0.05 }),
    cbody('arm', -1, 'revolute', [1, 0, 0.5], [0.3], 1, { range: [-0.5, 0.4] }),
    cbody('arm2', 2, 'revolute', [0, 0, -0.3], [0.2], 1, {
      range: [-0.2, 0.6],
      limit: { solref: [0.03, 0.8], solimp: [0.8, 0.99, 0.01, 0.3, 3], margin: 0.01 },
      frictionloss: 0.2,
    }),
    cbody('box', -1, 'free', [0, 0, 0], [-0.4, 0.2, 0.12, 0.95, 0.2, 0.1, 0.2], 6),
  ];
  const shapes = [
    cshape('ground', -1, 'plane', [0, 0, 0], 0, [0, 0, 0], I, { friction: 1.1 }),
    cshape('ball', 0, 'sphere', [0, 0, 0], 0.1, [0, 0, 0], I, { margin: 0.002, solref: [0.015, 0.9], solimp: [0.85, 0.97, 0.002, 0.4, 2] }),
    cshape('cap', 1, 'capsule', [0, 0, 0.15], 0.05, [0, 0, 0], [0.7071067811865476, 0.7071067811865476, 0, 0], { friction: 0.5 }),
    cshape('hand', 3, 'sphere', [0, 0, 0], 0.08, [0, 0, -0.3], I, { condim: 1 }),
    cshape('box', 4, 'box', [0.06, 0.05, 0.04], 0),
  ];
  return {
    name: 'contact-scene',
    bodies,
    world: world(integrator),
    files: [],
    shapes,
    excludes: [],
    solver: { iterations: 20, impratio: 1.7 },
  };
}

/** One free sphere (radius r, mass m) on the ground, frictionless (condim 1), flat impedance d. */
export function restingSphere(solref: [number, number], d: number, m = 2, r = 0.1): ModelDesc {
  const bodies = [
    cbody('ball', -1, 'free', [0, 0, 0], [0, 0, r, 1, 0, 0, 0], 6, {
      mass: m,
      com: [0, 0, 0],
      inertia: [0.4 * m * r * r, 0.4 * m * r * r, 0.4 * m * r * r, 0, 0, 0],
    }),
  ];
  const shapes = [
    // both shapes carry the same solref/solimp: a pair averages the two (MuJoCo's solmix)
    cshape('ground', -1, 'plane', [0, 0, 0], 0, [0, 0, 0], I, { condim: 1, solref, solimp: [d, d, 0.001, 0.5, 2] }),
    cshape('ball', 0, 'sphere', [0, 0, 0], r, [0, 0, 0], I, { condim: 1, solref, solimp: [d, d, 0.001, 0.5, 2] }),
  ];
  return { name: 'resting-sphere', bodies, world: world(), files: [], shapes, excludes: [] };
}
