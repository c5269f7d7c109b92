// A mesh's volume (or area), centre of mass and inertia, integrated over its triangles as MuJoCo's
// compiler does (mjCMesh::ComputeFaceCentroid, ComputeVolume, ComputeSurfaceArea, ComputeInertia),
// and the face-orientation check that inertia="exact" needs.

import type { Vec3 } from '../../../engine/model-desc.js';
import { MeshError } from './mesh-error.js';

/** A mesh's inertia= (MuJoCo's mjtMeshInertia): from its convex hull's volume, its own volume, MuJoCo's legacy rule, or its surface as a shell. */
export type MeshInertia = 'convex' | 'exact' | 'legacy' | 'shell';

const MJ_MINVAL = 1e-15;

/** MuJoCo refuses inertia="exact" on faces of inconsistent orientation: a directed edge twice. */
export function checkOrientation(v: number[], face: number[]): void {
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

/** Area, unit normal (zero when degenerate) and centroid of triangle (i, j, k). */
export function triangle(v: number[], i: number, j: number, k: number): { area: number; normal: Vec3; center: Vec3 } {
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
export function volumeCom(v: number[], f: number[], apex: Vec3, com: Vec3, mode: MeshInertia): number {
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
export function surfaceCom(v: number[], f: number[], apex: Vec3, com: Vec3): number {
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
export function inertiaAbout(v: number[], f: number[], o: Vec3, mode: MeshInertia): { inert: number[]; total: number } {
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
