// A mesh's convex hull as MuJoCo's compiler makes it (mjCMesh::MakeGraph): first its checks for
// colocated, collinear and coplanar vertices (thresholds and messages as MuJoCo's), then the hull
// (engine/quickhull.ts in place of qhull).

import type { Vec3 } from '../../../engine/model-desc.js';
import { importBug } from '../bugs.js';
import { MeshError } from './mesh-error.js';
import { convexHull, HullError, type Hull } from '../../../engine/quickhull.js';

const MJ_MINVAL = 1e-15;

/** The hull of the loaded vertices, after MuJoCo's checks for colocated, collinear and coplanar
 *  vertices (their thresholds and messages: mjCMesh::MakeGraph). */
export function hullOf(v: number[]): Hull {
  const nv = v.length / 3;
  const d0 = (i: number): Vec3 => [v[3 * i] - v[0], v[3 * i + 1] - v[1], v[3 * i + 2] - v[2]];
  const len = (a: Vec3): number => Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  let v1 = -1;
  let len1 = 0;
  for (let i = 1; i < nv && v1 < 0; i++) if ((len1 = len(d0(i))) > MJ_MINVAL) v1 = i;
  if (v1 < 0) throw degenerate('colocated', 'a small sphere');
  const e1 = d0(v1);
  let normal: Vec3 | undefined;
  for (let i = 1; i < nv && !normal; i++) {
    if (i === v1) continue;
    const e2 = d0(i);
    const len2 = len(e2);
    if (len2 < MJ_MINVAL) continue;
    const c: Vec3 = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
    const nc = len(c);
    if (nc > MJ_MINVAL * len1 * len2) normal = [c[0] / nc, c[1] / nc, c[2] / nc];
  }
  if (!normal) throw degenerate('collinear', 'a thin capsule');
  const d = normal[0] * v[0] + normal[1] * v[1] + normal[2] * v[2];
  let coplanar = true;
  for (let i = 0; i < nv && coplanar; i++)
    if (Math.abs(normal[0] * v[3 * i] + normal[1] * v[3 * i + 1] + normal[2] * v[3 * i + 2] - d) > MJ_MINVAL * len1) coplanar = false;
  if (coplanar) throw degenerate('coplanar', 'a primitive geom (a plane or a thin box)');
  let h: Hull;
  try {
    h = convexHull(v);
  } catch (e) {
    if (e instanceof HullError) throw degenerate(e.kind, 'a mesh with volume', ' (within round-off)');
    throw e;
  }
  // the planted bug: one hull vertex dropped (its faces kept)
  if (importBug('import-mesh-hull-drops-vertex')) h = { vert: h.vert.slice(1), face: h.face };
  return h;
}

const degenerate = (kind: string, instead: string, extra = ''): MeshError =>
  new MeshError(
    `${kind} vertices${extra}, so no convex hull (MuJoCo: "mesh has ${kind} vertices, cannot compute convex hull")`,
    `vertices that span a volume, or ${instead} instead`,
  );
