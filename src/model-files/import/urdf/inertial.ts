// A link's mass and inertia: its <inertial> (mass, inertia about the origin's frame, turned into
// the link frame), or, without one, from its collision geometry at 1000 kg/m³ as MuJoCo does
// (plain URDF would make it massless), with a note.

import { inertiaProblem, rotateInertia, type Inertia6 } from '../../../engine/math.js';
import { inertiaFromGeoms, inertiaOverflows } from '../geom-inertia.js';
import type { IrBody } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { XmlElement } from '../xml.js';
import { fmt, type UrdfContext } from './context.js';

/** Reads link `el`'s <inertial> into `body`; false when it has none. */
export function readInertial(u: UrdfContext, body: IrBody, el: XmlElement, subject: string): boolean {
  const r: Reader = u.r;
  const inert = u.child(el, 'inertial');
  if (!inert) return false;
  const mEl = u.child(inert, 'mass');
  const iEl = u.child(inert, 'inertia');
  if (!mEl || !iEl)
    r.fail(
      inert,
      `${subject} inertial`,
      `no <${mEl ? 'inertia' : 'mass'}>`,
      '<mass value="M"/> and <inertia ixx=".." iyy=".." izz=".." ixy=".." ixz=".." iyz=".."/>',
    );
  body.mass = r.num(u.need(mEl, 'value', `${subject} mass`), `${subject} mass`);
  if (!(body.mass >= 0)) r.fail(mEl, `${subject} mass`, String(body.mass), 'a mass >= 0');
  const o = u.origin(inert, `${subject} inertial`);
  const comp = ['ixx', 'iyy', 'izz', 'ixy', 'ixz', 'iyz'].map((k) => {
    const a = iEl.attrs.get(k);
    return a ? r.num(a, `${subject} inertia ${k}`) : 0;
  }) as Inertia6;
  body.ipos = o.pos;
  body.inertia = rotateInertia(comp, o.quat);
  if (body.mass > 0 && comp.some((x) => x !== 0)) {
    const bad = inertiaProblem(comp);
    if (bad) r.fail(iEl, `${subject} inertia`, bad, 'a physical inertia (positive definite, A + B >= C)');
  }
  if (inertiaOverflows(body)) {
    const xyz = u.child(inert, 'origin')?.attrs.get('xyz');
    const far = body.inertia.every(Number.isFinite) && xyz;
    r.fail(
      far ? xyz : iEl,
      `${subject} inertial`,
      far ? `a centre of mass whose parallel-axis inertia m·|xyz|² overflows` : 'an inertia that overflows once turned by the origin rpy',
      'a mass, origin and inertia whose inertia about the link origin stays finite (the engine forms it at load)',
    );
  }
  return true;
}

/** A link without <inertial>: its mass and inertia from its collision geoms at 1000 kg/m³. */
export function inertiaFromCollision(u: UrdfContext, body: IrBody, el: XmlElement, subject: string): void {
  const r: Reader = u.r;
  const gi = inertiaFromGeoms(body.geoms);
  if (gi && inertiaOverflows(gi))
    r.fail(
      el.children.find((c) => c.name === 'collision') ?? el,
      `${subject} collision`,
      `collision geometry whose mass at 1000 kg/m³ (${gi.mass}) and inertia overflow`,
      'collision geometry whose mass and inertia stay finite, or an <inertial>',
    );
  if (!gi) return;
  body.mass = gi.mass;
  body.ipos = gi.ipos;
  body.inertia = gi.inertia;
  u.note(
    'as-mujoco',
    el,
    `${subject} has no <inertial>: mass ${fmt(gi.mass)} kg from its collision geometry at 1000 kg/m³, as MuJoCo does (plain URDF would make it massless)`,
  );
}
