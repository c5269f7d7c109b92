// MuJoCo's actuator as its MJCF reader builds it (xml_native_reader.cc OneActuator, the shortcuts of
// user_api.cc), for the types the engine follows exactly:
//
//   one actuator default per class: every actuator tag in a <default> writes the same mjsActuator
//   through its own shortcut, in document order (a nested class starts from its parent's), and an
//   actuator element starts from its class's, then applies its attributes and its tag's shortcut:
//   <general>      dyntype, gaintype, biastype, dynprm, gainprm, biasprm, actearly as written
//                  (defaults none, fixed, none; dynprm 1 0 0, gainprm 1 0 0, biasprm 0 0 0)
//   <motor>        mjs_setToMotor: gainprm₀ = 1; dyntype none, gain fixed, bias none
//   <position>     mjs_setToPosition: kp (default: gainprm₀) → gainprm₀ = kp, biasprm₁ = −kp; biasprm₂ =
//                  −kv (kv given) or = dampratio (given; the engine resolves it as mj_setConst does);
//                  timeconst given: dynprm₀ = timeconst, dyntype filterexact (none at 0); gain fixed,
//                  bias affine
//   <intvelocity>  as position, then dyntype integrator
//   <velocity>     mjs_setToVelocity: kv (default: gainprm₀) → gainprm₀ = kv, biasprm = (0, 0, −kv);
//                  dyntype none, gain fixed, bias affine
//   <adhesion>     mjs_setToAdhesion: gain (default: gainprm₀) → gainprm₀ = gain, ctrllimited true; gain
//                  fixed, bias none (dyntype kept); "adhesion gain cannot be negative", "adhesion
//                  control range cannot be negative"
// Every other attribute (gear, ranges and their limited flags, the ones unread.ts judges) is kept
// as the last element to set it, as ReadAttrTable stores it. Types the engine cannot follow (muscle,
// user, dcmotor, pid, ...) are refused at the attribute that set them, and a class whose defaults
// use another actuator tag (muscle, damper, ...) at that tag.

import { BIAS_TYPES, DYN_TYPES, GAIN_TYPES, type GeneralActuatorDesc } from '../../../engine/model-desc.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import { sections, type MjcfContext } from './context.js';
import { limitedRange } from './actuator-range.js';

/** The actuator tags the importer reads (elements and defaults alike). */
export const ACTUATOR_TAGS = ['motor', 'position', 'velocity', 'intvelocity', 'general', 'adhesion'];
/** Every actuator tag MuJoCo's <default> accepts (Default: OneActuator). */
const DEFAULT_ACTUATOR_TAGS = [...ACTUATOR_TAGS, 'damper', 'orientation', 'pid', 'cylinder', 'muscle', 'dcmotor'];
/** Attributes a tag's shortcut reads (not stored as they are). */
const SHORTCUT = new Set([
  'kp',
  'kv',
  'gain',
  'dampratio',
  'timeconst',
  'dyntype',
  'gaintype',
  'biastype',
  'dynprm',
  'gainprm',
  'biasprm',
  'actearly',
]);

type Three = [number, number, number];
interface Typed {
  v: string;
  at?: XmlAttr;
}

/** One mjsActuator as the reader fills it. */
export interface ActuatorSpec {
  /** The attributes stored as written (gear, ctrlrange, ctrllimited, ..., joint), the last writer's. */
  attrs: Map<string, XmlAttr>;
  dyntype: Typed;
  gaintype: Typed;
  biastype: Typed;
  dynprm: Three;
  gainprm: Three;
  biasprm: Three;
  actearly: boolean;
}

const fresh = (): ActuatorSpec => ({
  attrs: new Map(),
  dyntype: { v: 'none' },
  gaintype: { v: 'fixed' },
  biastype: { v: 'none' },
  dynprm: [1, 0, 0],
  gainprm: [1, 0, 0],
  biasprm: [0, 0, 0],
  actearly: false,
});
const copy = (s: ActuatorSpec): ActuatorSpec => ({
  ...s,
  attrs: new Map(s.attrs),
  dynprm: [...s.dynprm],
  gainprm: [...s.gainprm],
  biasprm: [...s.biasprm],
});

/** OneActuator: `el`'s attributes and its tag's shortcut applied to `s`. */
function apply(ctx: MjcfContext, s: ActuatorSpec, el: XmlElement, subject: string): void {
  const r = ctx.r;
  for (const [k, a] of el.attrs) if (!SHORTCUT.has(k) && k !== 'name' && k !== 'class') s.attrs.set(k, a);
  const a = (n: string) => el.attrs.get(n);
  const num = (n: string): number | undefined => (a(n) ? r.num(a(n)!, `${subject} ${n}`) : undefined);
  // A prm list overwrites the leading entries it gives; these types read the first three of up to 10.
  const prm = (n: string, into: Three): Three => {
    const at = a(n);
    if (!at) return into;
    const v = r.nums(at, `${subject} ${n}`, [1, 10]);
    return [v[0], v.length > 1 ? v[1] : into[1], v.length > 2 ? v[2] : into[2]];
  };
  for (const t of ['dyntype', 'gaintype', 'biastype'] as const) if (a(t)) s[t] = { v: a(t)!.value, at: a(t) };
  s.dynprm = prm('dynprm', s.dynprm);
  s.gainprm = prm('gainprm', s.gainprm);
  s.biasprm = prm('biasprm', s.biasprm);
  if (a('actearly')) s.actearly = r.bool(a('actearly')!, `${subject} actearly`);
  const set = (dyn: string | undefined, gain: string, bias: string) => {
    if (dyn !== undefined) s.dyntype = { v: dyn };
    s.gaintype = { v: gain };
    s.biastype = { v: bias };
  };
  switch (el.name) {
    case 'motor':
      s.gainprm[0] = 1;
      set('none', 'fixed', 'none');
      break;
    case 'position':
    case 'intvelocity': {
      const kp = num('kp') ?? s.gainprm[0];
      const kv = num('kv');
      const dampratio = num('dampratio');
      const timeconst = num('timeconst');
      if (kv !== undefined && dampratio !== undefined)
        r.fail(a('dampratio')!, subject, 'both kv and dampratio', 'one of them (MuJoCo: "kv and dampratio cannot both be defined")');
      if (kv !== undefined && kv < 0) r.fail(a('kv')!, `${subject} kv`, `${kv}`, 'a kv >= 0');
      if (dampratio !== undefined && dampratio < 0) r.fail(a('dampratio')!, `${subject} dampratio`, `${dampratio}`, 'a dampratio >= 0');
      if (timeconst !== undefined && timeconst < 0) r.fail(a('timeconst')!, `${subject} timeconst`, `${timeconst}`, 'a timeconst >= 0');
      s.gainprm[0] = kp;
      s.biasprm[1] = -kp;
      if (kv !== undefined) s.biasprm[2] = -kv;
      if (dampratio !== undefined) s.biasprm[2] = dampratio;
      if (timeconst !== undefined) s.dynprm[0] = timeconst;
      set(timeconst === undefined ? undefined : timeconst === 0 ? 'none' : 'filterexact', 'fixed', 'affine');
      if (el.name === 'intvelocity') s.dyntype = { v: 'integrator' };
      break;
    }
    case 'velocity': {
      const kv = num('kv') ?? s.gainprm[0];
      s.gainprm[0] = kv;
      s.biasprm = [0, 0, -kv];
      set('none', 'fixed', 'affine');
      break;
    }
    case 'adhesion': {
      const gain = num('gain') ?? s.gainprm[0];
      s.gainprm[0] = gain;
      // MuJoCo's shortcut makes the control limited, whatever ctrllimited the element or class says
      s.attrs.set('ctrllimited', { line: el.line, column: el.column, file: el.file, value: 'true' });
      set(undefined, 'fixed', 'none');
      if (gain < 0) r.fail(a('gain') ?? el, `${subject} gain`, `${gain}`, 'a gain >= 0 (MuJoCo: "adhesion gain cannot be negative")');
      const cr = s.attrs.get('ctrlrange');
      if (cr && r.nums(cr, `${subject} ctrlrange`, 2).some((x) => x < 0))
        r.fail(cr, `${subject} ctrlrange`, `"${cr.value}"`, 'a range >= 0 (MuJoCo: "adhesion control range cannot be negative")');
      break;
    }
  }
}

/** Each class's actuator default (its ancestors' default elements, then its own, in document order). */
const classSpecs = new WeakMap<MjcfContext, Map<string, ActuatorSpec>>();

function classSpec(ctx: MjcfContext, cls: string): ActuatorSpec {
  let specs = classSpecs.get(ctx);
  if (!specs) {
    const built = new Map<string, ActuatorSpec>();
    const walk = (el: XmlElement, parent: ActuatorSpec, top: boolean) => {
      const name = el.attrs.get('class')?.value ?? (top ? 'main' : '');
      const s = copy(built.get(name) ?? parent);
      for (const c of el.children) {
        if (!DEFAULT_ACTUATOR_TAGS.includes(c.name)) continue;
        if (!ACTUATOR_TAGS.includes(c.name))
          ctx.r.fail(
            c,
            `default class '${name}'`,
            `actuator defaults through <${c.name}>`,
            `defaults through ${ACTUATOR_TAGS.join(', ')} (the types this engine follows)`,
          );
        apply(ctx, s, c, `default class '${name}' <${c.name}>`);
      }
      built.set(name, s);
      for (const c of el.children) if (c.name === 'default') walk(c, s, false);
    };
    for (const d of sections(ctx, 'default')) walk(d, fresh(), true);
    specs = built;
    classSpecs.set(ctx, specs);
  }
  return copy(specs.get(cls) ?? specs.get('main') ?? fresh());
}

/** The actuator element `c` of class `cls` as MuJoCo builds it. */
export function actuatorSpec(ctx: MjcfContext, c: XmlElement, cls: string, subject: string): ActuatorSpec {
  const s = classSpec(ctx, cls);
  apply(ctx, s, c, subject);
  return s;
}

/** The engine's general form of a spec; types the engine cannot follow are refused where they were set. */
export function toGeneral(ctx: MjcfContext, c: XmlElement, s: ActuatorSpec, subject: string): GeneralActuatorDesc {
  const type = <T extends string>(n: string, t: Typed, ok: readonly T[]): T => {
    if (!(ok as readonly string[]).includes(t.v))
      ctx.r.fail(t.at ?? c, `${subject} ${n}`, `"${t.v}"`, `one of ${ok.join(', ')} (the ${n}s this engine follows exactly)`);
    return t.v as T;
  };
  const g: GeneralActuatorDesc = {
    dyntype: type('dyntype', s.dyntype, DYN_TYPES),
    gaintype: type('gaintype', s.gaintype, GAIN_TYPES),
    biastype: type('biastype', s.biastype, BIAS_TYPES),
    dynprm: [...s.dynprm],
    gainprm: [...s.gainprm],
    biasprm: [...s.biasprm],
  };
  if (s.actearly) g.actearly = true;
  const act = limitedRange(ctx, c, (n) => s.attrs.get(n), subject, 'actrange', 'actlimited');
  if (act && g.dyntype !== 'none') g.actrange = act; // without dynamics there is no act to clamp
  return g;
}

/** The engine's own kind for a motor, a position servo without dynamics or damping ratio, and a
 *  velocity servo (the same force to rounding); undefined: the general form. */
export function ownKind(
  tag: string,
  g: GeneralActuatorDesc,
): { kind: 'motor' | 'position' | 'velocity'; kp: number; kv: number } | undefined {
  const plain = g.dyntype === 'none' && g.gaintype === 'fixed' && !g.actearly && !g.actrange;
  if (!plain) return undefined;
  const [kp] = g.gainprm;
  // MuJoCo takes a negative kp (position) or kv (velocity) as written (gainprm₀ < 0); the engine's
  // own servos need gains >= 0, its general form runs MuJoCo's gainprm and biasprm as they are
  if (!(kp >= 0)) return undefined;
  const [b0, b1, b2] = g.biasprm;
  if (tag === 'motor' && g.biastype === 'none' && kp === 1) return { kind: 'motor', kp: 0, kv: 0 };
  if (tag === 'position' && g.biastype === 'affine' && b0 === 0 && b1 === -kp && b2 <= 0)
    return { kind: 'position', kp, kv: b2 === 0 ? 0 : -b2 };
  if (tag === 'velocity' && g.biastype === 'affine' && b0 === 0 && b1 === 0 && b2 === -kp) return { kind: 'velocity', kp: 0, kv: kp };
  return undefined;
}
