// A mesh as MuJoCo's compiler processes it (user_mesh.cc mjCMesh::Process, 3.14): the user
// transform (refpos, refquat, scale), the volume (or area) and centre of mass, the inertia about
// the centre of mass by the `inertia` mode, and the mesh frame: the vertices are moved to the
// centre of mass and turned to the principal axes (mjuu_eig3), and the geom's frame absorbs that
// pose (mesh_pos, mesh_quat). The convex hull (MuJoCo's qhull graph) is made when asked for.

import type { Quat, Vec3 } from '../../../engine/model-desc.js';
import { importBug } from '../bugs.js';
import { eig3, normalize4, quat2mat } from './eig3.js';
import { convexHull, HullError, type Hull } from './quickhull.js';

export type MeshInertia = 'convex' | 'exact' | 'legacy' | 'shell';

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

/** A mesh MuJoCo refuses, with its reason (MuJoCo's wording) and what would be accepted. */
export class MeshError extends Error {
  constructor(
    readonly found: string,
    readonly expected: string,
  ) {
    super(found);
  }
}

const MJ_MINVAL = 1e-15;

/** Processes `m` as mjCMesh::Process; throws MeshError where MuJoCo refuses the mesh. */
export function processMesh(m: MeshSpec): ProcessedMesh {
  const nv = m.vert.length / 3;
  if (nv < 4) throw new MeshError(`${nv} vertices`, 'at least 4 vertices (MuJoCo: "at least 4 vertices required")');
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
  const { eigval, quat } = eig3(full);
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
  return { vert: out, face, pos: com, quat, extent, volume: total, boxsz, hull: makeHull };
}

/** The hull of the loaded vertices, after MuJoCo's checks for colocated, collinear and coplanar
 *  vertices (their thresholds and messages: mjCMesh::MakeGraph). */
function hullOf(v: number[]): Hull {
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

/** MuJoCo refuses inertia="exact" on faces of inconsistent orientation: a directed edge twice. */
function checkOrientation(v: number[], face: number[]): void {
  const seen = new Set<string>();
  for (let i = 0; i < face.length; i += 3) {
    if (!(triangle(v, face[i], face[i + 1], face[i + 2]).area > Math.sqrt(MJ_MINVAL))) continue;
    for (const [s, t] of [
      [face[i], face[i + 1]],
      [face[i + 1], face[i + 2]],
      [face[i + 2], face[i]],
    ]) {
      const key = `${s},${t}`;
      if (seen.has(key))
        throw new MeshError(
          `faces of inconsistent orientation (the edge from vertex ${s + 1} to ${t + 1} twice)`,
          'faces wound consistently, or inertia="legacy" or "convex"',
        );
      seen.add(key);
    }
  }
}

/** MuJoCo's ApplyTransformations: v ← R(refquat)ᵀ (v − refpos), then scaled per axis. */
function transformed(loaded: number[], m: MeshSpec): number[] {
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

/** Area, unit normal (zero when degenerate) and centroid of triangle (i, j, k). */
function triangle(v: number[], i: number, j: number, k: number): { area: number; normal: Vec3; center: Vec3 } {
  const p = (a: number, c: number): number => v[3 * a + c];
  const center: Vec3 = [0, 1, 2].map((c) => (p(i, c) + p(j, c) + p(k, c)) / 3) as Vec3;
  const b = [p(j, 0) - p(i, 0), p(j, 1) - p(i, 1), p(j, 2) - p(i, 2)];
  const c = [p(k, 0) - p(i, 0), p(k, 1) - p(i, 1), p(k, 2) - p(i, 2)];
  const n: Vec3 = [b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0]];
  const len = Math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (len < MJ_MINVAL) return { area: 0, normal: n, center };
  return { area: 0.5 * len, normal: [n[0] / len, n[1] / len, n[2] / len], center };
}

/** Volume and its centre of mass: the signed pyramids from `apex` (the faces' centroid) to each
 *  face, V = Σ (c − apex)·n A/3, CoM = Σ V (3c/4 + apex/4) / ΣV ("legacy": |V| per pyramid). */
function volumeCom(v: number[], f: number[], apex: Vec3, com: Vec3, mode: MeshInertia): number {
  let total = 0;
  for (let i = 0; i < f.length; i += 3) {
    const t = triangle(v, f[i], f[i + 1], f[i + 2]);
    let vol =
      (((t.center[0] - apex[0]) * t.normal[0] + (t.center[1] - apex[1]) * t.normal[1] + (t.center[2] - apex[2]) * t.normal[2]) * t.area) /
      3;
    if (mode === 'legacy') vol = Math.abs(vol);
    total += vol;
    for (let k = 0; k < 3; k++) com[k] += vol * ((t.center[k] * 3) / 4 + apex[k] / 4);
  }
  if (total >= MJ_MINVAL) for (let k = 0; k < 3; k++) com[k] /= total;
  return total;
}

/** Surface area and its centre (MuJoCo weighs 3c/4 + apex/4 by area here too). */
function surfaceCom(v: number[], f: number[], apex: Vec3, com: Vec3): number {
  let total = 0;
  for (let i = 0; i < f.length; i += 3) {
    const t = triangle(v, f[i], f[i + 1], f[i + 2]);
    total += t.area;
    for (let k = 0; k < 3; k++) com[k] += t.area * ((t.center[k] * 3) / 4 + apex[k] / 4);
  }
  if (total >= MJ_MINVAL) for (let k = 0; k < 3; k++) com[k] /= total;
  return total;
}

/** The inertia per unit density about `o` [Ixx Iyy Izz Ixy Ixz Iyz] and the volume (or area)
 *  again, from each face's tetrahedron to `o` (a solid: the second moments of a tetrahedron with
 *  corners 0, D, E, F are V/20 (2ΣDᵢDⱼ + cross terms); a shell: the triangle's, A/12 (...)). */
function inertiaAbout(v: number[], f: number[], o: Vec3, mode: MeshInertia): { inert: number[]; total: number } {
  const pairs = [
    [0, 0],
    [1, 1],
    [2, 2],
    [0, 1],
    [0, 2],
    [1, 2],
  ];
  const P = [0, 0, 0, 0, 0, 0];
  const c = (i: number): number[] => [v[3 * i] - o[0], v[3 * i + 1] - o[1], v[3 * i + 2] - o[2]];
  let total = 0;
  const C = mode === 'shell' ? 12 : 20;
  for (let i = 0; i < f.length; i += 3) {
    const D = c(f[i]);
    const E = c(f[i + 1]);
    const F = c(f[i + 2]);
    const t = triangleOf(D, E, F);
    let vol =
      mode === 'shell' ? t.area : ((t.center[0] * t.normal[0] + t.center[1] * t.normal[1] + t.center[2] * t.normal[2]) * t.area) / 3;
    if (mode === 'legacy') vol = Math.abs(vol);
    total += vol;
    for (let j = 0; j < 6; j++) {
      const [a, b] = pairs[j];
      P[j] +=
        (vol / C) *
        (2 * (D[a] * D[b] + E[a] * E[b] + F[a] * F[b]) + D[a] * E[b] + D[b] * E[a] + D[a] * F[b] + D[b] * F[a] + E[a] * F[b] + E[b] * F[a]);
    }
  }
  return { inert: [P[1] + P[2], P[0] + P[2], P[0] + P[1], -P[3], -P[4], -P[5]], total };
}

function triangleOf(D: number[], E: number[], F: number[]): { area: number; normal: Vec3; center: Vec3 } {
  return triangle([...D, ...E, ...F], 0, 1, 2);
}
