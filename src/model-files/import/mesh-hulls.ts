// Mesh geoms as their convex hulls (the engine's `convex` kind, in MuJoCo's geom frame: the mesh's
// centre of mass and principal axes), collided as MuJoCo collides a mesh, wherever every pair the
// mesh can form (MuJoCo's candidate pairs: contype/conaffinity, the parent filter, excludes) is one
// the engine collides as MuJoCo does (convex-pairs.ts shapePairProblem: since MuJoCo's face clipping
// at zero margin is ported, a cylinder's included, no pair of MuJoCo's geoms is left). A mesh with a
// pair it cannot is collided as the box bounding its hull in
// the same frame instead, with a note naming the pair; as shapePairProblem admits more pairs, more
// meshes keep their hulls with no change here.
// Decided before the cylinders and ellipsoids (keepOrStandIn), which then see the meshes' boxes.

import { mujocoCandidatePairs } from '../../engine/candidate-pairs.js';
import { quatRotate } from '../../engine/math.js';
import type { ModelDesc, ShapeDesc, Vec3 } from '../../engine/model-desc.js';
import { shapePairProblem } from './convex-pairs.js';
import type { ImportNote } from './ir.js';

/** The box bounding a hull (half-extents, centre in the geom frame). */
export interface HullBox {
  halfExtents: Vec3;
  centre: Vec3;
}

/** The box bounding `vert` (x y z each) in their own frame. */
export function hullBox(vert: readonly number[]): HullBox {
  const lo: Vec3 = [Infinity, Infinity, Infinity];
  const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < vert.length; i += 3)
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], vert[i + k]);
      hi[k] = Math.max(hi[k], vert[i + k]);
    }
  return {
    halfExtents: [0, 1, 2].map((k) => (hi[k] - lo[k]) / 2) as Vec3,
    centre: [0, 1, 2].map((k) => (hi[k] + lo[k]) / 2) as Vec3,
  };
}

const fmt = (x: number): string => String(Number(x.toPrecision(6)));

/** Turns into its hull's box every mesh hull (a `convex` shape in `meshes`) that can touch a shape
 *  the engine cannot collide it with as MuJoCo does (one note each, naming the first such pair). */
export function keepHullsOrBoxes(model: ModelDesc, meshes: ReadonlySet<ShapeDesc>, notes: ImportNote[]): void {
  const shapes = model.shapes ?? [];
  if (!shapes.some((s) => meshes.has(s))) return;
  const pairs = mujocoCandidatePairs(model);
  for (const s of shapes) {
    if (!meshes.has(s) || s.kind !== 'convex') continue;
    const me = shapes.indexOf(s);
    const mine = pairs.filter(([a, b]) => a === me || b === me).map(([a, b]) => shapes[a === me ? b : a]);
    const multiccd = model.world.multiccd !== false;
    const bad = mine.find((o) => shapePairProblem(s, o, multiccd) !== null);
    if (!bad) {
      // on a plane MuJoCo 3.14 adds the vertices of the hull polygon under the deepest vertex, as the
      // engine does (analytic.hpp plane_convex, tetrahedra included: docs/collision-validation.md)
      continue;
    }
    const other = bad;
    const why = shapePairProblem(s, other, multiccd);
    const nvert = (s.vertices?.length ?? 0) / 3;
    const box = hullBox(s.vertices ?? []);
    s.kind = 'box';
    s.halfExtents = box.halfExtents;
    const c = quatRotate(s.quat, box.centre);
    s.pos = [s.pos[0] + c[0], s.pos[1] + c[1], s.pos[2] + c[2]];
    delete s.vertices;
    notes.push({
      kind: 'approximated',
      source: s.source ?? { file: model.name, line: 0, column: 0 },
      message: `mesh geom '${s.name}' → the box bounding its convex hull (${nvert} vertices) in MuJoCo's geom frame, half-extents [${box.halfExtents.map(fmt).join(', ')}]: it can touch '${other.name}' (${other.kind}), and ${why}`,
    });
  }
}
