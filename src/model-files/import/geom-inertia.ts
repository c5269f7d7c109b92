// A geom's mass and principal inertia from its density or mass, and a body's inertia from its geoms,
// exactly as MuJoCo's compiler computes them (user_objects.cc mjCGeom::GetVolume, SetInertia,
// mjCBody::InertiaFromGeom; solid "volume" inertia only; a mesh geom from its processed mesh).

import type { Quat, Vec3 } from '../../engine/model-desc.js';
import { eig3 } from './mesh/eig3.js';
import { massOverflow, rotateInertia, type Inertia6 } from '../../engine/math.js';
import type { IrGeom, IrGeomType } from './ir.js';

/** MuJoCo's mjEPS: geoms of smaller mass do not count. */
const MJ_EPS = 1e-14;

export function geomVolume(type: IrGeomType, s: Vec3): number {
  switch (type) {
    case 'sphere':
      return (4 * Math.PI * s[0] * s[0] * s[0]) / 3;
    case 'capsule':
      return Math.PI * (s[0] * s[0] * 2 * s[1] + (4 * s[0] * s[0] * s[0]) / 3);
    case 'cylinder':
      return Math.PI * s[0] * s[0] * 2 * s[1];
    case 'ellipsoid':
      return (4 * Math.PI * s[0] * s[1] * s[2]) / 3;
    case 'box':
      return s[0] * s[1] * s[2] * 8;
    case 'mesh': // from the mesh itself (IrGeom.meshInertia), never from its size
      return NaN;
    case 'plane':
      return 0;
  }
}

export function geomPrincipalInertia(type: IrGeomType, s: Vec3, mass: number): Vec3 {
  switch (type) {
    case 'sphere': {
      const i = (2 * mass * s[0] * s[0]) / 5;
      return [i, i, i];
    }
    case 'capsule': {
      const r = s[0];
      const h = 2 * s[1];
      const ms = (mass * 4 * r) / (4 * r + 3 * h);
      const mc = mass - ms;
      let ix = (mc * (3 * r * r + h * h)) / 12;
      let iz = (mc * r * r) / 2;
      const si = (2 * ms * r * r) / 5;
      ix += si + (ms * h * (3 * r + 2 * h)) / 8;
      iz += si;
      return [ix, ix, iz];
    }
    case 'cylinder': {
      const r = s[0];
      const h = 2 * s[1];
      const ix = (mass * (3 * r * r + h * h)) / 12;
      return [ix, ix, (mass * r * r) / 2];
    }
    case 'ellipsoid': {
      const [a, b, c] = [s[0] * s[0], s[1] * s[1], s[2] * s[2]];
      return [(mass * (b + c)) / 5, (mass * (a + c)) / 5, (mass * (a + b)) / 5];
    }
    case 'box':
    case 'mesh': {
      // a mesh: s is its inertia box (MuJoCo's boxsz)
      const [a, b, c] = [s[0] * s[0], s[1] * s[1], s[2] * s[2]];
      return [(mass * (b + c)) / 3, (mass * (a + c)) / 3, (mass * (a + b)) / 3];
    }
    case 'plane':
      return [0, 0, 0];
  }
}

/** Sets the geom's mass and inertia from `mass` (when given) or `density`, as mjCGeom::Compile. */
export function inferGeomMass(g: IrGeom, mass: number | undefined, density: number): void {
  // a mesh: the mesh's volume and inertia box (mjCGeom::GetVolume, SetInertia)
  const vol = g.meshInertia ? g.meshInertia.volume : geomVolume(g.type, g.size);
  if (mass !== undefined) {
    if (mass === 0 || !(vol > MJ_EPS)) return; // MuJoCo leaves such a geom without mass
    g.mass = mass;
  } else {
    if (density === 0) return;
    g.mass = density * vol;
  }
  g.inertia = geomPrincipalInertia(g.type, g.meshInertia ? g.meshInertia.boxsz : g.size, g.mass);
}

/** MuJoCo's mjuu_fullInertia: the principal frame (body_iquat) and moments of a full inertia, by
 *  mjuu_eig3 at the body compiler's tolerance. */
export function principalOf(I: Inertia6): { quat: Quat; inertia: Vec3 } {
  const { eigval, quat } = eig3([I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]], BODY_EIG_TOL);
  return { quat, inertia: [...eigval] };
}

/** The tolerance the body compiler gives mjuu_eig3 (3.14; mesh/eig3.ts). */
const BODY_EIG_TOL = 4e-15;

/** The body's mass, CoM and inertia (about the CoM, body axes) from its geoms, as InertiaFromGeom,
 *  with MuJoCo's principal frame and moments (one geom: its own frame; more: mjuu_eig3 of the sum). */
export function inertiaFromGeoms(
  geoms: readonly IrGeom[],
): { mass: number; ipos: Vec3; inertia: Inertia6; principal: { quat: Quat; inertia: Vec3 } } | undefined {
  const sel = geoms.filter((g) => g.mass > MJ_EPS);
  if (sel.length === 0) return undefined;
  if (sel.length === 1) {
    const g = sel[0];
    return {
      mass: g.mass,
      ipos: [...g.pos],
      inertia: rotateInertia([g.inertia[0], g.inertia[1], g.inertia[2], 0, 0, 0], g.quat),
      principal: { quat: [...g.quat], inertia: [...g.inertia] },
    };
  }
  let mass = 0;
  const com: Vec3 = [0, 0, 0];
  for (const g of sel) {
    mass += g.mass;
    for (let k = 0; k < 3; k++) com[k] += g.mass * g.pos[k];
  }
  const ipos: Vec3 = [com[0] / mass, com[1] / mass, com[2] / mass];
  const tot: Inertia6 = [0, 0, 0, 0, 0, 0];
  for (const g of sel) {
    const I = rotateInertia([g.inertia[0], g.inertia[1], g.inertia[2], 0, 0, 0], g.quat);
    const d: Vec3 = [g.pos[0] - ipos[0], g.pos[1] - ipos[1], g.pos[2] - ipos[2]];
    const off = offCentre(g.mass, d);
    for (let k = 0; k < 6; k++) tot[k] += I[k] + off[k];
  }
  return { mass, ipos, inertia: tot, principal: principalOf(tot) };
}

/** The inertia of a point mass m at d about the origin: m(|d|²·1 − d dᵀ). */
export function offCentre(m: number, d: Vec3): Inertia6 {
  const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  return [m * (dd - d[0] * d[0]), m * (dd - d[1] * d[1]), m * (dd - d[2] * d[2]), -m * d[0] * d[1], -m * d[0] * d[2], -m * d[1] * d[2]];
}

/** Whether what the engine derives from a body's mass at load overflows: the mass, its centre, its
 *  inertia about the centre, and its inertia about the body origin, I + m(|c|²·1 − c cᵀ) (the
 *  native core's parallel-axis step). MuJoCo computes on with infinities, silently; the native core
 *  would refuse the model without a place, so the readers refuse it at the attribute that made it. */
export function inertiaOverflows(b: { mass: number; ipos: Vec3; inertia: Inertia6 }): boolean {
  return massOverflow(b.mass, b.ipos, b.inertia) !== undefined;
}
