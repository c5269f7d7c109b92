// MuJoCo's contact filtering, written in TS from MuJoCo's rules (engine_collision_driver.c:
// filterBodyPair, filterBitmask, the exclude signatures; default flags, so filterparent is on),
// apart from the native core's own (collision/pair_filter.hpp): the importer asks it which pairs can
// touch (import/convex-pairs.ts), and the collision stage checks the engine's candidate pairs with it.
// Bodies are "welded" as MuJoCo welds them: a body without degrees of freedom (joint 'fixed') moves
// with its parent and shares its weld body; the world's weld is the world (-1 here, 0 in MuJoCo).
//   two shapes may collide iff
//   • their weld bodies differ (not the same body, not welded together, not both static);
//   • filterparent: unless one of them is the world, neither weld body is the other's weld
//     parent (the weld of the weld body's parent); so a root link does collide with the world;
//   • (a.contype & b.conaffinity) || (b.contype & a.conaffinity);
//   • their bodies (as declared, not welded) are not an excluded pair.
// Pairs come out ordered (a, b), a < b in model order, as the contract asks.

import type { ModelDesc } from './model-desc.js';

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
