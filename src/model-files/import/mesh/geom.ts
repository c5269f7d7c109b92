// A mesh geom's frame, size, hull and inertia source, as mjCGeom::Compile sets them from its mesh:
// the geom's pose absorbs the mesh frame (mjuu_frameaccum: pos += R(quat)·mesh_pos, quat ←
// quat·mesh_quat), the size is the largest |coordinate| of the vertices per axis, and the hull is
// carried in that frame for the collider.

import type { Quat, Vec3 } from '../../../engine/model-desc.js';
import type { IrGeom } from '../ir.js';
import { mulquat, quat2mat } from './eig3.js';
import type { ProcessedMesh } from './process.js';

/** Sets `g` (posed by its file at pos/quat) from `mesh`; `collides`: the hull is made (MuJoCo makes
 *  it only for a geom that can collide). */
export function applyMesh(g: IrGeom, mesh: ProcessedMesh, collides: boolean): void {
  const R = quat2mat(g.quat);
  const p = mesh.pos;
  g.pos = [0, 1, 2].map((k) => g.pos[k] + R[3 * k] * p[0] + R[3 * k + 1] * p[1] + R[3 * k + 2] * p[2]) as Vec3;
  // MuJoCo's product leaves a norm within 1e-14 of 1 as it is; the scene loader renormalises every
  // quaternion, so it is normalised here (a change of 1e-15 at most) to load back bit for bit
  const q = mulquat(g.quat, mesh.quat);
  const len = Math.hypot(q[0], q[1], q[2], q[3]);
  g.quat = [q[0] / len, q[1] / len, q[2] / len, q[3] / len] as Quat;
  g.size = [...mesh.extent];
  g.meshInertia = { volume: mesh.volume, boxsz: [...mesh.boxsz] };
  if (collides) g.hull = hullInFrame(mesh);
}

/** The hull's vertices (x y z each, the mesh frame) and its faces as indices into them. */
export function hullInFrame(mesh: ProcessedMesh): { vert: number[]; face: number[] } {
  const h = mesh.hull();
  const local = new Map<number, number>();
  const vert: number[] = [];
  for (const i of h.vert) {
    local.set(i, vert.length / 3);
    vert.push(mesh.vert[3 * i], mesh.vert[3 * i + 1], mesh.vert[3 * i + 2]);
  }
  // faces keep only the kept vertices' indices (all of them, unless a vertex was dropped)
  const face = h.face.map((i) => local.get(i) ?? -1);
  return { vert, face };
}
