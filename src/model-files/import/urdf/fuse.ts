// MuJoCo's fusestatic (on for URDF): a body without joints (a fixed joint, or a root link) joins its
// parent, its mass, inertia and collision geometry with it, and a root's join the world; the bodies
// that move become the model's, in order.

import type { Quat, Vec3 } from '../../../engine/model-desc.js';
import { offCentre } from '../geom-inertia.js';
import { quatMul, quatRotate, rotateInertia, type Inertia6 } from '../../../engine/math.js';
import type { IrBody, IrModel } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import { addV, fmt, type UrdfContext } from './context.js';
import type { Link } from './links.js';

/** Each link as a MuJoCo body before fusing (`link`: its index among the links). */
export type LinkBody = IrBody & { link: number };

/** The bodies that move, in `ir.bodies`, and the fixed ones fused into them or into the world. */
export function fuseStatic(u: UrdfContext, bodies: LinkBody[], links: Link[], ir: IrModel): void {
  const r: Reader = u.r;
  // For each original body: where its frame now lives (kept body index or -1 for world, and X_KB).
  const place: { kept: number; pos: Vec3; quat: Quat }[] = [];
  for (const b of bodies) {
    const parentPlace = b.parent < 0 ? { kept: -1, pos: [0, 0, 0] as Vec3, quat: [1, 0, 0, 0] as Quat } : place[b.parent];
    // X_KB = X_KP · X_PB
    const pos: Vec3 = addV(parentPlace.pos, quatRotate(parentPlace.quat, b.pos));
    const quat = quatMul(parentPlace.quat, b.quat);
    const free = b.joints.some((j) => j.type === 'free');
    if (free && parentPlace.kept >= 0)
      r.fail(
        links[b.link].joint!,
        `joint '${b.joints[0].name}'`,
        'a floating joint on a link whose parent moves',
        'floating joints only on links attached to the fixed root',
      );
    if (b.joints.length === 0) {
      place.push({ kept: parentPlace.kept, pos, quat });
      fuseInto(u, ir, b, parentPlace.kept, pos, quat);
      continue;
    }
    place.push({ kept: ir.bodies.length, pos: [0, 0, 0], quat: [1, 0, 0, 0] });
    ir.bodies.push({
      name: b.name,
      parent: parentPlace.kept,
      pos,
      quat,
      joints: b.joints,
      mass: b.mass,
      ipos: b.ipos,
      inertia: b.inertia,
      geoms: b.geoms,
      source: b.source,
    });
  }
}

/** Body `b` (no joints), at (pos, quat) in kept body `kept`'s frame (−1: the world), joins it. */
function fuseInto(u: UrdfContext, ir: IrModel, b: LinkBody, kept: number, pos: Vec3, quat: Quat): void {
  const geoms = b.geoms.map((g) => ({ ...g, pos: addV(pos, quatRotate(quat, g.pos)), quat: quatMul(quat, g.quat) }));
  if (kept < 0) {
    ir.worldGeoms.push(...geoms);
    if (b.parent >= 0 || b.mass > 0)
      u.note(
        'as-mujoco',
        b.source,
        `link '${b.name}' is fixed to the world: fused into it${b.mass > 0 ? ` (its ${fmt(b.mass)} kg do not move)` : ''}, as MuJoCo's fusestatic`,
      );
    return;
  }
  const K = ir.bodies[kept];
  fuseInertia(K, b.mass, addV(pos, quatRotate(quat, b.ipos)), rotateInertia(b.inertia, quat));
  K.geoms.push(...geoms);
  u.note('as-mujoco', b.source, `link '${b.name}' (fixed joint) fused into '${K.name}', as MuJoCo's fusestatic`);
}

/** Adds a rigid mass (m, CoM c, inertia I about c, all in K's frame) to body K's inertia. */
function fuseInertia(K: IrBody, m: number, c: Vec3, I: Inertia6): void {
  if (!(m > 0)) return;
  const M = K.mass + m;
  const com: Vec3 = [(K.mass * K.ipos[0] + m * c[0]) / M, (K.mass * K.ipos[1] + m * c[1]) / M, (K.mass * K.ipos[2] + m * c[2]) / M];
  const a = offCentre(K.mass, [K.ipos[0] - com[0], K.ipos[1] - com[1], K.ipos[2] - com[2]]);
  const b = offCentre(m, [c[0] - com[0], c[1] - com[1], c[2] - com[2]]);
  K.inertia = K.inertia.map((x, k) => x + a[k] + I[k] + b[k]) as Inertia6;
  K.mass = M;
  K.ipos = com;
}
