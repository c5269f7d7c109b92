// MuJoCo's general actuator as the MJCF reader reads it (xml_native_reader.cc OneActuator, and the
// shortcuts of user_api.cc), into the engine's GeneralActuatorDesc:
//
//   <general>      dyntype, gaintype, biastype, dynprm, gainprm, biasprm as written, MuJoCo's defaults
//                  otherwise (none, fixed, none; dynprm 1 0 0, gainprm 1 0 0, biasprm 0 0 0)
//   <position>     mjs_setToPosition: gainprm₀ = kp (default 1), biasprm₁ = −kp, biasprm₂ = −kv (kv
//                  given) or = dampratio (dampratio given: the engine turns it into −ζ·2·√(kp·m) as
//                  mj_setConst does), timeconst > 0: dyntype filterexact with dynprm₀ = timeconst;
//                  gain fixed, bias affine
//   <intvelocity>  the same as position, then dyntype integrator (act integrates the control)
//   actlimited/actrange (general, intvelocity) and actearly (general) as MuJoCo reads them.
//
// Only the types the engine follows exactly are read; muscle, user, dcmotor, pid and the others are
// refused at their attribute. A prm list gives up to 10 numbers (mjNDYN, mjNGAIN, mjNBIAS); these
// types read the first three, so the others change nothing and are not kept.

import { BIAS_TYPES, DYN_TYPES, GAIN_TYPES, type GeneralActuatorDesc } from '../../../engine/model-desc.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { MjcfContext } from './context.js';
import { limitedRange } from './actuator-range.js';

/** Whether an MJCF actuator element needs the general form (the older kinds cannot say it). */
export function needsGeneral(c: XmlElement, get: (n: string) => XmlAttr | undefined): boolean {
  return c.name === 'general' || c.name === 'intvelocity' || (c.name === 'position' && (!!get('timeconst') || !!get('dampratio')));
}

type Three = [number, number, number];

export function readGeneral(
  ctx: MjcfContext,
  c: XmlElement,
  get: (n: string) => XmlAttr | undefined,
  subject: string,
): GeneralActuatorDesc {
  const r = ctx.r;
  const g: GeneralActuatorDesc = {
    dyntype: 'none',
    gaintype: 'fixed',
    biastype: 'none',
    dynprm: [1, 0, 0],
    gainprm: [1, 0, 0],
    biasprm: [0, 0, 0],
  };
  // A prm attribute overwrites the leading entries it gives, the rest keep their defaults (ReadAttr).
  const prm = (n: string, into: Three): Three => {
    const a = get(n);
    if (!a) return into;
    const v = r.nums(a, `${subject} ${n}`, [1, 10]);
    return [v[0], v.length > 1 ? v[1] : into[1], v.length > 2 ? v[2] : into[2]];
  };
  const type = <T extends string>(n: string, known: readonly string[], ok: readonly T[]): T => {
    const a = get(n);
    if (!a) return ok[0];
    const v = r.choice(a, `${subject} ${n}`, known);
    if (!(ok as readonly string[]).includes(v))
      r.fail(a, `${subject} ${n}`, `"${v}"`, `one of ${ok.join(', ')} (the ${n}s this engine follows exactly; ${v} is not supported)`);
    return v as T;
  };
  if (c.name === 'general') {
    g.dyntype = type('dyntype', ['none', 'integrator', 'filter', 'filterexact', 'muscle', 'user', 'dcmotor', 'pid'], DYN_TYPES);
    g.gaintype = type('gaintype', ['fixed', 'affine', 'muscle', 'user', 'dcmotor', 'pid', 'so3'], GAIN_TYPES);
    g.biastype = type('biastype', ['none', 'affine', 'muscle', 'user', 'dcmotor', 'so3'], BIAS_TYPES);
    g.dynprm = prm('dynprm', g.dynprm);
    g.gainprm = prm('gainprm', g.gainprm);
    g.biasprm = prm('biasprm', g.biasprm);
    const early = get('actearly');
    if (early && r.bool(early, `${subject} actearly`)) g.actearly = true;
  } else {
    // mjs_setToPosition (and mjs_setToIntVelocity after it)
    const one = (n: string): number | undefined => {
      const a = get(n);
      return a ? r.num(a, `${subject} ${n}`) : undefined;
    };
    const kp = one('kp') ?? 1;
    const kv = one('kv');
    const dampratio = one('dampratio');
    const timeconst = one('timeconst');
    if (kv !== undefined && dampratio !== undefined)
      r.fail(get('dampratio')!, subject, 'both kv and dampratio', 'one of them (MuJoCo: "kv and dampratio cannot both be defined")');
    if (kv !== undefined && kv < 0) r.fail(get('kv')!, `${subject} kv`, `${kv}`, 'a kv >= 0');
    if (dampratio !== undefined && dampratio < 0) r.fail(get('dampratio')!, `${subject} dampratio`, `${dampratio}`, 'a dampratio >= 0');
    if (timeconst !== undefined && timeconst < 0) r.fail(get('timeconst')!, `${subject} timeconst`, `${timeconst}`, 'a timeconst >= 0');
    g.gainprm = [kp, 0, 0];
    g.biasprm = [0, -kp, kv !== undefined ? -kv : (dampratio ?? 0)];
    if (timeconst !== undefined) {
      g.dynprm = [timeconst, 0, 0];
      g.dyntype = timeconst === 0 ? 'none' : 'filterexact';
    }
    g.biastype = 'affine';
    if (c.name === 'intvelocity') g.dyntype = 'integrator';
  }
  const act = limitedRange(ctx, c, get, subject, 'actrange', 'actlimited');
  if (act) g.actrange = act;
  return g;
}
