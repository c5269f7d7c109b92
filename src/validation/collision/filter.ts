// A small world for the collision stage's filter check (the rules: src/engine/candidate-pairs.ts).

import type { BodyDesc, ModelDesc, ShapeDesc, Vec3 } from '../../engine/model-desc.js';

export { mujocoCandidatePairs, weldBodies } from '../../engine/candidate-pairs.js';

/** A small world that exercises every rule of candidate-pairs.ts: a hinge chain (a0 → a1 → a2, a2 fixed to a1),
 *  a free body with a hinged child (f → f1), a body fixed to the world (w, two shapes), a ground
 *  plane and a static sphere; filter bits 2 on f1 and w; f and a0 excluded. MuJoCo keeps exactly
 *  the pairs listed in test/collision-filter.test.ts. */
export function filterRulesModel(): ModelDesc {
  const body = (name: string, parent: number, joint: BodyDesc['joint'], pos: Vec3): BodyDesc => ({
    name,
    parent,
    pos,
    quat: [1, 0, 0, 0],
    joint,
    axis: [0, 1, 0],
    mass: 1,
    com: [0, 0, 0],
    inertia: [0.01, 0.01, 0.01, 0, 0, 0],
    q0: joint === 'free' ? [...pos, 1, 0, 0, 0] : joint === 'revolute' ? [0] : [],
    v0: joint === 'free' ? [0, 0, 0, 0, 0, 0] : joint === 'revolute' ? [0] : [],
    tau: joint === 'free' ? [0, 0, 0, 0, 0, 0] : joint === 'revolute' ? [0] : [],
  });
  const bodies = [
    body('a0', -1, 'revolute', [0, 0, 1]),
    body('a1', 0, 'revolute', [0, 0, 0.3]),
    body('a2', 1, 'fixed', [0, 0, 0.3]),
    body('f', -1, 'free', [1, 0, 1]),
    body('f1', 3, 'revolute', [0, 0, 0.3]),
    body('w', -1, 'fixed', [2, 0, 0.5]),
  ];
  // A free root sits at the world origin; its pose is its q0.
  bodies[3].pos = [0, 0, 0];
  const shape = (name: string, b: number, contype = 1, conaffinity = 1, kind: ShapeDesc['kind'] = 'sphere'): ShapeDesc => ({
    name,
    body: b,
    kind,
    halfExtents: [0, 0, 0],
    radius: kind === 'plane' ? 0 : 0.1,
    pos: [0, 0, 0],
    quat: [1, 0, 0, 0],
    friction: 1,
    contype,
    conaffinity,
    margin: 0,
    gap: 0,
  });
  const shapes = [
    shape('ground', -1, 1, 1, 'plane'),
    shape('post', -1),
    shape('a0/s', 0),
    shape('a1/s', 1),
    shape('a2/s', 2),
    shape('f/s', 3),
    shape('f1/s', 4, 2, 2),
    shape('w/s0', 5, 1, 2),
    shape('w/s1', 5),
  ];
  return {
    name: 'filter-rules',
    bodies,
    world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: 'euler', duration: 1, substeps: 1 },
    files: [],
    shapes,
    excludes: [[3, 0]],
  };
}
