// <equality>, as MuJoCo's mjXReader::Equality / OneEquality and mjCEquality::ResolveReferences:
// connect, weld and joint constraints, each taking active, solref and solimp from its element, else
// from its class (<default><equality>, class= or main: an equality is outside the body tree, so no
// childclass reaches it), else MuJoCo's defaults (active, solref 0.02 1, solimp 0.9 0.95 0.001 0.5 2).
//
//   connect  body semantic when body1 and anchor are given (body2 absent: the world), else site1 and
//            site2 (both required);
//   weld     body semantic when body1 is given (anchor default 0 0 0, relpose default zeros: made at
//            qpos0), else site1 and site2; torquescale (default 1) in both;
//   joint    joint1 (required), joint2, polycoef: up to 5 numbers, the rest MuJoCo's 0 1 0 0 0.
//
// What MuJoCo computes at compile time (the second anchor and the relative pose at qpos0) is made by
// compile.ts, where the engine's links are known. Tendon and flex equality constraints are refused.

import { DEFAULT_SOLIMP, DEFAULT_SOLREF, type Vec3 } from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import type { IrEquality, IrSite } from '../ir.js';
import type { Reader } from '../read-attrs.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import { sections, type MjcfContext } from './context.js';
import { attrOf, classOf } from './defaults.js';
import { readSolimp, readSolref } from './sol-params.js';

const REFUSED: Record<string, string> = {
  tendon: 'a tendon equality constraint (it couples tendon lengths; not supported)',
  flex: 'a flex equality constraint (flex bodies are not supported)',
  flexvert: 'a flex equality constraint (flex bodies are not supported)',
  flexstrain: 'a flex equality constraint (flex bodies are not supported)',
};

/** Every <equality> section; read after the bodies, so that bodies, sites and joints are known. */
export function readEqualities(ctx: MjcfContext): void {
  const r: Reader = ctx.r;
  const bodyIndex = new Map<string, number>([['world', -1]]);
  ctx.ir.bodies.forEach((b, i) => bodyIndex.set(b.name, i));
  const sites = new Map<string, { body: number; site: IrSite }>();
  for (const s of ctx.ir.worldSites ?? []) if (s.name !== '') sites.set(s.name, { body: -1, site: s });
  ctx.ir.bodies.forEach((b, i) => (b.sites ?? []).forEach((s) => s.name !== '' && sites.set(s.name, { body: i, site: s })));
  const joints = new Map<string, string>();
  for (const b of ctx.ir.bodies) for (const j of b.joints) joints.set(j.name, j.type);
  const elements = sections(ctx, 'equality').flatMap((s) => s.children);
  // MuJoCo's names are optional; the engine's are not: an unnamed constraint is `equalityK`
  const given = new Set(elements.map((e) => e.attrs.get('name')?.value).filter((n) => n !== undefined));
  const seen = new Map<string, XmlElement>();
  elements.forEach((c, k) => {
    if (REFUSED[c.name])
      r.fail(c, `<${c.name}>`, REFUSED[c.name], 'connect, weld or joint equality constraints (tendon and flex ones are not supported)');
    if (c.name !== 'connect' && c.name !== 'weld' && c.name !== 'joint')
      r.fail(c, `<${c.name}>`, 'an element <equality> does not define', 'connect, weld or joint');
    const nameA = c.attrs.get('name');
    let name = nameA?.value;
    if (name === undefined) {
      name = `equality${k}`;
      for (let n = 2; given.has(name) || seen.has(name); n++) name = `equality${k}_${n}`;
    } else if (seen.has(name)) {
      const first = seen.get(name)!;
      r.fail(
        nameA!,
        `<${c.name}> name`,
        `${quote(name, 60, "'")} a second time (first at line ${first.line})`,
        'a name no other equality constraint has (MuJoCo: "repeated name")',
      );
    }
    seen.set(name, c);
    (ctx.ir.equalities ??= []).push(readEquality(ctx, c, name, bodyIndex, sites, joints));
  });
}

function readEquality(
  ctx: MjcfContext,
  c: XmlElement,
  name: string,
  bodyIndex: Map<string, number>,
  sites: Map<string, { body: number; site: IrSite }>,
  joints: Map<string, string>,
): IrEquality {
  const r: Reader = ctx.r;
  const type = c.name as IrEquality['type'];
  const subject = `equality '${name}'`;
  const cls = classOf(ctx, c, 'main');
  const get = (n: string): XmlAttr | undefined => attrOf(ctx, c, 'equality', cls, n);
  const activeA = get('active');
  const sr = get('solref');
  const si = get('solimp');
  const e: IrEquality = {
    name,
    type,
    active: activeA ? r.bool(activeA, `${subject} active`) : true,
    solref: sr ? readSolref(r, sr, `${subject} solref`, ctx.note) : [...DEFAULT_SOLREF],
    solimp: si ? readSolimp(r, si, `${subject} solimp`, ctx.note) : [...DEFAULT_SOLIMP],
    source: r.span(c),
  };
  const own = (n: string): XmlAttr | undefined => c.attrs.get(n);
  if (type === 'joint') {
    const joint = (n: string): string | undefined => {
      const a = own(n);
      if (!a) return undefined;
      const t = joints.get(a.value);
      if (t === undefined)
        r.fail(a, `${subject} ${n}`, `${quote(a.value, 60, "'")}, which the model does not have`, 'the name of a hinge or slide joint');
      if (t !== 'hinge' && t !== 'slide')
        r.fail(
          a,
          `${subject} ${n}`,
          `${quote(a.value, 60, "'")}, a ${t} joint`,
          'a hinge or slide joint (MuJoCo: "only HINGE and SLIDE joint allowed in constraint")',
        );
      return a.value;
    };
    if (!own('joint1')) r.fail(c, subject, 'no joint1', 'joint1="NAME" of a hinge or slide joint (MuJoCo requires it)');
    e.joint1 = joint('joint1');
    const j2 = joint('joint2');
    if (j2 !== undefined) {
      if (j2 === e.joint1)
        r.fail(own('joint2')!, `${subject} joint2`, 'the same joint as joint1', 'another joint, or no joint2 (MuJoCo: "is repeated")');
      e.joint2 = j2;
    }
    const pc = own('polycoef');
    const coef: [number, number, number, number, number] = [0, 1, 0, 0, 0];
    if (pc) r.nums(pc, `${subject} polycoef`, [1, 5]).forEach((x, i) => (coef[i] = x)); // MuJoCo reads up to 5, keeping the rest
    e.polycoef = coef;
    return e;
  }
  const body1A = own('body1');
  const anchorA = own('anchor');
  const bodySemantic = type === 'connect' ? body1A !== undefined && anchorA !== undefined : body1A !== undefined;
  if (bodySemantic) {
    const body = (a: XmlAttr, n: string): number => {
      const b = bodyIndex.get(a.value);
      if (b === undefined)
        r.fail(a, `${subject} ${n}`, `${quote(a.value, 60, "'")}, which the model does not have`, 'the name of a body (or world)');
      return b;
    };
    for (const n of ['site1', 'site2'])
      if (own(n))
        ctx.note(
          'as-mujoco',
          own(n)!,
          `${subject} ${n} is not used: with body1${type === 'connect' ? ' and anchor' : ''} MuJoCo takes the body semantic`,
        );
    e.semantic = 'body';
    e.body1 = body(body1A!, 'body1');
    const b2 = own('body2');
    e.body2 = b2 ? body(b2, 'body2') : -1;
    if (e.body1 === e.body2)
      r.fail(
        b2 ?? c,
        `${subject} body2`,
        `the same body as body1 (${quote(body1A!.value, 60, "'")})`,
        'another body (body2 absent: the world)',
      );
    e.anchor = anchorA ? (r.nums(anchorA, `${subject} anchor`, 3) as Vec3) : [0, 0, 0];
    if (type === 'weld') {
      const rp = own('relpose');
      if (rp) e.relpose = r.nums(rp, `${subject} relpose`, 7) as IrEquality['relpose'];
    }
  } else {
    const site = (n: string): { body: number; site: IrSite } => {
      const a = own(n);
      if (!a)
        r.fail(
          c,
          subject,
          type === 'connect' ? `no ${n}${body1A ? ' (body1 without anchor)' : ''}` : `no ${n}`,
          type === 'connect'
            ? 'body1 and anchor (and optionally body2), or site1 and site2'
            : 'body1 (and optionally body2, anchor, relpose), or site1 and site2',
        );
      const s = sites.get(a.value);
      if (!s) r.fail(a, `${subject} ${n}`, `${quote(a.value, 60, "'")}, which the model does not have`, 'the name of a site');
      return s;
    };
    const s1 = site('site1');
    const s2 = site('site2');
    if (s1.body === s2.body)
      r.fail(
        own('site2')!,
        `${subject} site2`,
        'a site on the same body as site1',
        'sites on two different bodies (the constraint between two points of one rigid body does not move)',
      );
    e.semantic = 'site';
    e.body1 = s1.body;
    e.body2 = s2.body;
    e.site1 = { pos: s1.site.pos, quat: s1.site.quat };
    e.site2 = { pos: s2.site.pos, quat: s2.site.quat };
  }
  if (type === 'weld') {
    const ts = own('torquescale');
    e.torquescale = ts ? r.num(ts, `${subject} torquescale`) : 1;
  }
  return e;
}
