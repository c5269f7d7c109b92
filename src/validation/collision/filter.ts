// MuJoCo's contact filtering, written again in TS from MuJoCo's rules (engine_collision_driver.c:
// filterBodyPair, filterBitmask, the exclude signatures; default flags, so filterparent is on),
// to check the engine's candidate pairs. Bodies are "welded" as MuJoCo welds them: a body without
// degrees of freedom (joint 'fixed') moves with its parent and shares its weld body; the world's
// weld is the world (-1 here, 0 in MuJoCo).
//   two shapes may collide iff
//   • their weld bodies differ (not the same body, not welded together, not both static);
//   • filterparent: unless one of them is the world, neither weld body is the other's weld
//     parent (the weld of the weld body's parent); so a root link does collide with the world;
//   • (a.contype & b.conaffinity) || (b.contype & a.conaffinity);
//   • their bodies (as declared, not welded) are not an excluded pair.
// Pairs come out ordered (a, b), a < b in model order, as the contract asks.

import type { BodyDesc, ModelDesc, ShapeDesc, Vec3 } from '../../engine/model-desc.js';

const WORLD = -1;

/** MuJoCo's body_weldid per body (-1: welded to the world). */
export function weldBodies(model: Pick<ModelDesc, 'bodies'>): number[] {
  const weld: number[] = [];
  model.bodies.forEach((b, i) => {
    weld.push(b.joint === 'fixed' ? (b.parent === WORLD ? WORLD : weld[b.parent]) : i);
  });
  return weld;
}

/** The candidate shape pairs [a, b] (a < b) that MuJoCo's rules keep. */
export function mujocoCandidatePairs(model: Pick<ModelDesc, 'bodies' | 'shapes' | 'excludes'>): [number, number][] {
  const shapes = model.shapes ?? [];
  const weld = weldBodies(model);
  const weldOf = (body: number) => (body === WORLD ? WORLD : weld[body]);
  const weldParent = (w: number) => (w === WORLD ? WORLD : weldOf(model.bodies[w].parent));
  const excluded = new Set((model.excludes ?? []).map(([x, y]) => `${Math.min(x, y)},${Math.max(x, y)}`));
  const out: [number, number][] = [];
  for (let a = 0; a < shapes.length; a++) {
    for (let b = a + 1; b < shapes.length; b++) {
      const sa = shapes[a];
      const sb = shapes[b];
      const wa = weldOf(sa.body);
      const wb = weldOf(sb.body);
      if (wa === wb) continue;
      if (wa !== WORLD && wb !== WORLD && (wa === weldParent(wb) || wb === weldParent(wa))) continue;
      if (!(sa.contype & sb.conaffinity || sb.contype & sa.conaffinity)) continue;
      if (excluded.has(`${Math.min(sa.body, sb.body)},${Math.max(sa.body, sb.body)}`)) continue;
      out.push([a, b]);
    }
  }
  return out;
}

/** A small world that exercises every rule above: a hinge chain (a0 → a1 → a2, a2 fixed to a1),
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
