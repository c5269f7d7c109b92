// A convex shape's hull triangles, handed to the engine with its vertices: the native side makes
// MuJoCo's hull graph of them (native/include/achilles/collision/hull_graph.hpp), which MuJoCo's
// hill-climbing support walks, and its polygons (hull_polygons.hpp: the merged coplanar faces),
// which the face clipping and MuJoCo 3.14's plane–mesh collider read (the vertices of the polygon
// under the deepest vertex within the margin become its extra contacts). A convex shape without
// them has no polygons and keeps the older plane rule (graph-less: extra points from all vertices).

import type { ShapeDesc } from './model-desc.js';
import { convexHull, HullError } from './quickhull.js';

const cache = new WeakMap<readonly number[], number[] | undefined>();

/** The hull's triangles (indices into `s.vertices`), or undefined for a shape that is not convex or
 *  whose points span no volume (the readers refuse such points; a model built otherwise then goes
 *  without a graph, and its plane contacts search every vertex as MuJoCo's do for a mesh without one). */
export function hullFaces(s: Pick<ShapeDesc, 'kind' | 'vertices'>): number[] | undefined {
  const v = s.vertices;
  if (s.kind !== 'convex' || !v) return undefined;
  if (cache.has(v)) return cache.get(v);
  let faces: number[] | undefined;
  try {
    faces = convexHull(v).face;
  } catch (e) {
    if (!(e instanceof HullError)) throw e;
  }
  cache.set(v, faces);
  return faces;
}
