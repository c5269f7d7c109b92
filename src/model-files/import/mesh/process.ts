// A mesh as MuJoCo's compiler processes it (user_mesh.cc mjCMesh::Process, 3.14): the user
// transform (refpos, refquat, scale), the volume (or area) and centre of mass, the inertia about
// the centre of mass by the `inertia` mode, and the mesh frame: the vertices are moved to the
// centre of mass and turned to the principal axes (mjuu_eig3), and the geom's frame absorbs that
// pose (mesh_pos, mesh_quat). The convex hull (MuJoCo's qhull graph) is made when asked for.

import type { Quat, Vec3 } from '../../../engine/model-desc.js';
import { importBug } from '../bugs.js';
import { eig3, MESH_EIG_TOL, normalize4, quat2mat } from './eig3.js';
import { hullOf } from './hull.js';
import { checkOrientation, inertiaAbout, surfaceCom, triangle, volumeCom, type MeshInertia } from './mass-properties.js';
export type { MeshInertia } from './mass-properties.js';
import { MeshError } from './mesh-error.js';
import type { Hull } from '../../../engine/quickhull.js';

export { MeshError } from './mesh-error.js';

/** A mesh as read (vertices as float32 values, faces as vertex indices; none: the hull's). */
export interface MeshSpec {
  vert: number[];
  face?: number[];
  scale: Vec3;
  refpos: Vec3;
  refquat: Quat;
  inertia: MeshInertia;
  /** The hull is made first, as MuJoCo makes it for a mesh a colliding geom uses (its errors, such
   *  as coplanar vertices, then come before the volume's). */
  needHull?: boolean;
}

export interface ProcessedMesh {
  /** Vertices in the mesh frame (centre of mass, principal axes), rounded to float32 as mesh_vert. */
  vert: number[];
  face: number[];
  /** The mesh frame in the file's (scaled, ref-transformed) frame: MuJoCo's mesh_pos, mesh_quat. */
  pos: Vec3;
  quat: Quat;
  /** The largest |coordinate| per axis of the vertices in the mesh frame before their rounding to
   *  float32: MuJoCo's geom size for a mesh geom (from its aamm). */
  extent: Vec3;
  /** Volume, or surface area for inertia="shell" (MuJoCo's GetVolumeRef). */
  volume: number;
  /** Half-sizes of the box of equal inertia per unit mass (MuJoCo's boxsz: a geom of mass m has
   *  principal inertia m(b² + c²)/3, ...). */
  boxsz: Vec3;
  /** The convex hull (indices into `vert`), made on first use as MuJoCo makes it only when needed. */
  hull(): Hull;
}

const MJ_MINVAL = 1e-15;

/** Processes `m` as mjCMesh::Process; throws MeshError where MuJoCo refuses the mesh. */
export function processMesh(m: MeshSpec): ProcessedMesh {
  const nv = m.vert.length / 3;
  if (nv < 4) throw new MeshError(`${nv} vertices`, 'at least 4 vertices (MuJoCo: "at least 4 vertices required")');
  checkRefquat(m.refquat);
  const loaded = m.vert.slice();
  let hull: Hull | undefined;
  const makeHull = (): Hull => (hull ??= hullOf(loaded));
  if (m.needHull) makeHull();
  let face = m.face;
  if (face) {
    for (let i = 0; i < face.length; i++)
      if (!(face[i] >= 0 && face[i] < nv))
        throw new MeshError(`face ${Math.floor(i / 3)} with vertex index ${face[i]}`, `vertex indices 0 to ${nv - 1}`);
    if (m.inertia === 'exact') checkOrientation(loaded, face);
  } else face = makeHull().face.slice();
  // convex inertia integrates the hull's faces (MuJoCo's graph, wound before any mirroring)
  const inertiaFaces = m.inertia === 'convex' ? makeHull().face : undefined;
  // a mirroring scale flips the faces' winding back outward (MuJoCo's "righthand" check)
  if (m.scale[0] * m.scale[1] * m.scale[2] < 0) {
    face = face.slice();
    for (let i = 0; i < face.length; i += 3) [face[i + 1], face[i + 2]] = [face[i + 2], face[i + 1]];
  }
  const v = transformed(loaded, m);
  checkTransformed(loaded, v, m);
  const facecen: Vec3 = [0, 0, 0];
  let area = 0;
  for (let i = 0; i < face.length; i += 3) {
    const t = triangle(v, face[i], face[i + 1], face[i + 2]);
    for (let k = 0; k < 3; k++) facecen[k] += t.area * t.center[k];
    area += t.area;
  }
  if (area < MJ_MINVAL) throw new MeshError('a surface area below 1e-15', 'a mesh with area (MuJoCo: "mesh surface area is too small")');
  for (let k = 0; k < 3; k++) facecen[k] /= area;

  const f = inertiaFaces ?? face;
  const com: Vec3 = [0, 0, 0];
  const amount = m.inertia === 'shell' ? surfaceCom(v, face, facecen, com) : volumeCom(v, f, facecen, com, m.inertia);
  if (m.inertia === 'shell' && amount < MJ_MINVAL)
    throw new MeshError('a surface area below 1e-15', 'a mesh with area (MuJoCo: "mesh surface area is too small")');
  if (m.inertia !== 'shell' && amount < MJ_MINVAL)
    throw amount < 0
      ? new MeshError(
          `a negative volume (${amount.toPrecision(6)}): misoriented triangles`,
          'faces wound counter-clockwise seen from outside, or inertia="legacy" or "convex" (MuJoCo: "mesh volume is negative")',
        )
      : new MeshError(
          `a volume of ${amount.toPrecision(6)}`,
          'a closed mesh with volume, or inertia="shell" (MuJoCo: "mesh volume is too small. Try setting inertia to shell")',
        );
  // the planted bug: the inertia taken about the mesh's own origin instead of its centre of mass
  const about: Vec3 = importBug('import-mesh-inertia-about-origin') ? [0, 0, 0] : com;
  const { inert, total } = inertiaAbout(v, f, about, m.inertia);
  const full = [inert[0], inert[3], inert[4], inert[3], inert[1], inert[5], inert[4], inert[5], inert[2]];
  const { eigval, quat } = eig3(full, MESH_EIG_TOL);
  if (eigval[2] <= 0) throw new MeshError('a mesh inertia eigenvalue <= 0', 'a mesh with volume');
  const [a, b, c] = eigval;
  const bad = (x: number, y: number, z: number): boolean => x + y < z * (1 - 1e-6) - 1e-9;
  if (bad(a, b, c) || bad(a, c, b) || bad(b, c, a))
    throw new MeshError('mesh inertia eigenvalues that violate A + B >= C', 'a physical mesh inertia');
  const boxsz: Vec3 = [
    0.5 * Math.sqrt((6 * (b + c - a)) / total),
    0.5 * Math.sqrt((6 * (a + c - b)) / total),
    0.5 * Math.sqrt((6 * (a + b - c)) / total),
  ];
  // vertices into the mesh frame: v ← R(quat)ᵀ (v − com)
  const R = quat2mat([quat[0], -quat[1], -quat[2], -quat[3]]);
  const out = new Array<number>(v.length);
  const extent: Vec3 = [0, 0, 0];
  for (let i = 0; i < v.length; i += 3) {
    const x = v[i] - com[0];
    const y = v[i + 1] - com[1];
    const z = v[i + 2] - com[2];
    for (let k = 0; k < 3; k++) {
      const c = R[3 * k] * x + R[3 * k + 1] * y + R[3 * k + 2] * z;
      extent[k] = Math.max(extent[k], Math.abs(c));
      out[i + k] = Math.fround(c);
    }
  }
  if (![...com, ...boxsz, ...extent, total].every(Number.isFinite))
    throw new MeshError(
      `a volume ${total}, centre [${com.join(', ')}] and inertia box [${boxsz.join(', ')}] that overflow`,
      'a scale whose mesh keeps a finite volume and inertia',
      transformAttr(m),
    );
  return { vert: out, face, pos: com, quat, extent, volume: total, boxsz, hull: makeHull };
}

/** The largest float32: MuJoCo keeps a mesh's vertices as float32 (mesh_vert), where a larger one
 *  is infinite. */
const FLOAT32_MAX = 3.4028234663852886e38;

/** MuJoCo normalises refquat with mjuu_normvec, which leaves a quaternion whose squared norm is below
 *  mjEPS = 1e-14 as it is (and one whose squared norm overflows becomes 0): its rotation then
 *  collapses every vertex to the origin, and MuJoCo 3.14 refuses refquat="0 0 0 0" as "mesh surface
 *  area is too small". The import refuses it too, saying what it is, at the attribute. */
function checkRefquat(q: Quat): void {
  const sq = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  if (sq >= 1e-14 && Number.isFinite(sq)) return;
  throw new MeshError(
    !Number.isFinite(sq)
      ? `a quaternion [${q.join(', ')}] whose squared norm overflows`
      : sq === 0
        ? `a zero quaternion [${q.join(', ')}]`
        : `a quaternion [${q.join(', ')}] of squared norm ${sq}, below 1e-14`,
    'a rotation: a quaternion of squared norm from 1e-14 up (MuJoCo turns this one into a rotation that collapses the mesh: "mesh surface area is too small")',
    'refquat',
  );
}

/** The vertices once moved, turned and scaled, each within float32 as MuJoCo keeps them: a larger one
 *  is refused at the transform that made it (refpos, else scale), or at the vertices themselves. */
function checkTransformed(loaded: readonly number[], v: readonly number[], m: MeshSpec): void {
  const fits = (x: number): boolean => Math.abs(x) <= FLOAT32_MAX;
  if (v.every(fits)) return;
  const k = v.findIndex((x) => !fits(x));
  if (!loaded.every(fits))
    throw new MeshError(
      `a vertex coordinate ${loaded.find((x) => !fits(x))}`,
      'coordinates within float32 (±3.4e38), as MuJoCo keeps them',
      'vertex',
    );
  const attr = transformAttr(m, loaded);
  throw new MeshError(
    `vertex ${Math.floor(k / 3)} at ${v[k]} once ${attr === 'refpos' ? 'moved by refpos' : 'scaled'}`,
    `a ${attr} that keeps every vertex within float32 (±3.4e38), as MuJoCo keeps them`,
    attr,
  );
}

/** The transform attribute to blame for an overflow: refpos when moving the vertices by it alone
 *  already overflows, else scale. */
function transformAttr(m: MeshSpec, loaded: readonly number[] = m.vert): 'refpos' | 'scale' {
  const moved = transformed(loaded, { ...m, scale: [1, 1, 1] });
  return moved.every((x) => Math.abs(x) <= FLOAT32_MAX) ? 'scale' : 'refpos';
}

/** MuJoCo's ApplyTransformations: v ← R(refquat)ᵀ (v − refpos), then scaled per axis. */
function transformed(loaded: readonly number[], m: MeshSpec): number[] {
  const v = loaded.slice();
  const R = quat2mat(normalize4(m.refquat));
  for (let i = 0; i < v.length; i += 3) {
    const x = v[i] - m.refpos[0];
    const y = v[i + 1] - m.refpos[1];
    const z = v[i + 2] - m.refpos[2];
    for (let k = 0; k < 3; k++) v[i + k] = (R[k] * x + R[3 + k] * y + R[6 + k] * z) * m.scale[k];
  }
  return v;
}
