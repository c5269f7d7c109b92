// A body's mass and inertia, as MuJoCo's compiler sets them: from its <inertial> (mjXReader's
// inertial element), or from its geoms (mjCBody::InertiaFromGeom) when compiler inertiafromgeom
// says so ("true", or "auto" for a body without an <inertial>).

import { inertiaProblem, rotateInertia, type Inertia6 } from '../../../engine/math.js';
import { importBug } from '../bugs.js';
import { geomVolume, inertiaFromGeoms, inertiaOverflows, inferGeomMass, principalOf } from '../geom-inertia.js';
import { mulquat, normalize4 } from '../mesh/eig3.js';
import type { IrBody, IrGeom } from '../ir.js';
import type { XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { vec3, type MjcfContext } from './context.js';
import { checkPlaced, placeInertial, type Pose } from './frame.js';
import { orientation } from './orientation.js';

/** Sets `b`'s mass, ipos and inertia from `inertial` (placed by the <frame>s around it, `frame`)
 *  or from `geoms` (read by geom.ts). */
export function setBodyInertia(ctx: MjcfContext, b: IrBody, geoms: IrGeom[], inertial: XmlElement | undefined, frame?: Pose): void {
  const { compiler, massSpec } = ctx;
  const fromGeoms = compiler.inertiafromgeom === 'true' || (compiler.inertiafromgeom === 'auto' && !inertial);
  if (inertial && !fromGeoms) {
    readInertial(ctx, inertial, b);
    placeInertial(frame, b);
    if (frame && b.principal) b.principal = { quat: mulquat(frame.quat, b.principal.quat), inertia: b.principal.inertia };
    checkPlaced(ctx, inertial, b.ipos);
  } else if (fromGeoms) {
    // MuJoCo infers the geoms' masses only for a body whose inertia comes from them.
    for (const g of geoms) {
      const ms = massSpec.get(g)!;
      inferGeomMass(g, ms.mass, ms.density);
    }
    // only geoms in compiler inertiagrouprange count (mjCBody::InertiaFromGeom)
    const [glo, ghi] = compiler.inertiagrouprange;
    const gi = inertiaFromGeoms(geoms.filter((g) => massSpec.get(g)!.group >= glo && massSpec.get(g)!.group <= ghi));
    if (gi) {
      b.mass = gi.mass;
      b.ipos = gi.ipos;
      b.inertia = gi.inertia;
      b.principal = gi.principal;
    }
    checkGeomMasses(ctx, b, geoms);
  }
}

/** A body whose inertia from geoms overflows: refused at the geom that makes it, its mass, size or
 *  density (its own mass and inertia), else its position (how far from the others it sits). */
function checkGeomMasses(ctx: MjcfContext, b: IrBody, geoms: IrGeom[]): void {
  if (!inertiaOverflows(b)) return;
  const r: Reader = ctx.r;
  const subject = `body '${b.name}'`;
  for (const g of geoms) {
    if ([g.mass, ...g.inertia].every(Number.isFinite)) continue;
    const spec = ctx.massSpec.get(g)!;
    const vol = g.meshInertia ? g.meshInertia.volume : geomVolume(g.type, g.size);
    // a finite mass with an infinite inertia, or an infinite volume: the size; else the density
    const sizeKey = ['size', 'fromto', 'mesh'].find((k) => spec.get(k)) ?? 'size';
    const key = Number.isFinite(g.mass) || !Number.isFinite(vol) ? sizeKey : 'density';
    r.fail(
      spec.get(key) ?? spec.el,
      `geom '${g.name}' ${key}`,
      `a geom whose mass ${g.mass} and inertia [${g.inertia.join(', ')}] overflow`,
      'a size and density (or mass) whose mass and inertia stay finite',
    );
  }
  const far = geoms.reduce((x, g) => (Math.hypot(...g.pos) > Math.hypot(...x.pos) ? g : x));
  const pos = ctx.massSpec.get(far)?.get('pos');
  r.fail(
    pos ?? b.source,
    `${subject} inertia`,
    `geoms whose masses and distances make the body's mass ${b.mass}, centre of mass [${b.ipos.join(', ')}] and inertia overflow`,
    'masses and geom positions whose inertia about the body origin stays finite',
  );
}

function readInertial(ctx: MjcfContext, el: XmlElement, b: IrBody): void {
  const r: Reader = ctx.r;
  const subject = `body '${b.name}' inertial`;
  const massA = el.attrs.get('mass');
  if (!massA) r.fail(el, subject, 'no mass', 'mass="M"');
  const mass = r.num(massA, `${subject} mass`);
  if (!(mass >= 0)) r.fail(massA, `${subject} mass`, String(mass), 'a mass >= 0');
  const ipos = vec3(ctx, el.attrs.get('pos'), `${subject} pos`, [0, 0, 0]);
  if (!el.attrs.get('pos')) r.fail(el, subject, 'no pos', 'pos="x y z" (MuJoCo requires it)');
  const diag = el.attrs.get('diaginertia');
  const full = el.attrs.get('fullinertia');
  let I: Inertia6;
  let principal: IrBody['principal'];
  if (diag && full) r.fail(full, subject, 'both diaginertia and fullinertia', 'one of them');
  if (full) {
    if (['quat', 'axisangle', 'euler', 'xyaxes', 'zaxis'].some((f) => el.attrs.get(f)))
      r.fail(full, subject, 'fullinertia with an orientation', 'fullinertia alone (it is given in the body axes)');
    I = r.nums(full, `${subject} fullinertia`, 6) as Inertia6;
    principal = principalOf(I);
  } else if (diag) {
    const d = r.nums(diag, `${subject} diaginertia`, 3);
    const q = orientation(ctx, (n) => el.attrs.get(n), subject, el);
    I = importBug('import-inertial-quat-ignored') ? [d[0], d[1], d[2], 0, 0, 0] : rotateInertia([d[0], d[1], d[2], 0, 0, 0], q);
    principal = { quat: normalize4(q), inertia: [d[0], d[1], d[2]] };
  } else r.fail(el, subject, 'no inertia', 'diaginertia="Ixx Iyy Izz" or fullinertia="Ixx Iyy Izz Ixy Ixz Iyz"');
  if (mass > 0) {
    const bad = inertiaProblem(I);
    if (bad) r.fail(full ?? diag ?? el, `${subject} inertia`, bad, 'a physical inertia (positive definite, A + B >= C)');
  }
  if (!I.every(Number.isFinite))
    r.fail(
      (full ?? diag)!,
      `${subject} inertia`,
      `an inertia that overflows to [${I.join(', ')}] in the body axes`,
      'an inertia whose terms stay finite',
    );
  if (inertiaOverflows({ mass, ipos, inertia: I }))
    r.fail(
      el.attrs.get('pos')!,
      `${subject} pos`,
      `a centre of mass whose parallel-axis inertia m·|pos|² = ${mass} · ${Math.hypot(...ipos) ** 2} overflows`,
      'a centre of mass and mass whose inertia about the body origin stays finite (the engine forms it at load)',
    );
  b.mass = mass;
  b.ipos = ipos;
  b.inertia = I;
  b.principal = principal;
}
