// <geom>, as MuJoCo's mjXReader::OneGeom: shape, size (or fromto), frame, contact parameters, and
// the mass or density its body's inertia may come from (kept in ctx.massSpec for inertial.ts). A
// mesh geom takes MuJoCo's frame from its mesh (mesh/geom.ts) and its hull; its fluid model
// (fluidshape, fluidcoef); hfield and sdf are refused.

import { DEFAULT_ROLLING_FRICTION, DEFAULT_TORSIONAL_FRICTION, type Condim, type Quat, type Vec3 } from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import { importBug } from '../bugs.js';
import { zaxisQuat } from '../frames.js';
import { applyMesh } from '../mesh/geom.js';
import type { ProcessedMesh } from '../mesh/process.js';
import type { IrGeom, IrGeomType } from '../ir.js';
import { readSolimp, readSolref } from './sol-params.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { nonNegativeOr, numOr, vec3, type MjcfContext } from './context.js';
import { attrOf } from './defaults.js';
import { orientation } from './orientation.js';
import { checkUnread } from './unread.js';

/** The geom, or undefined when compiler discardvisual drops it. `owner` names unnamed geoms (`owner/geomK`). */
export function readGeom(ctx: MjcfContext, el: XmlElement, cls: string, owner: string, k: number, isWorld: boolean): IrGeom | undefined {
  const r: Reader = ctx.r;
  const { compiler, meshes, note } = ctx;
  const get = (n: string): XmlAttr | undefined => attrOf(ctx, el, 'geom', cls, n);
  const name = el.attrs.get('name')?.value ?? `${owner}/geom${k}`;
  const subject = `geom '${name}'`;
  const typeA = get('type');
  const type = typeA
    ? r.choice(typeA, `${subject} type`, ['sphere', 'capsule', 'box', 'cylinder', 'ellipsoid', 'plane', 'mesh', 'hfield', 'sdf'] as const)
    : 'sphere';
  if (type === 'hfield' || type === 'sdf')
    r.fail(typeA!, `${subject} type`, type, 'sphere, capsule, box, cylinder, ellipsoid, plane or mesh');
  const contype = filterBits(ctx, get('contype'), `${subject} contype`);
  const conaffinity = filterBits(ctx, get('conaffinity'), `${subject} conaffinity`);
  if (compiler.discardvisual && contype === 0 && conaffinity === 0) {
    note('skipped', el, `${subject}: visual geom discarded (compiler discardvisual)`);
    return undefined;
  }
  checkUnread(r, 'geom', get, subject);
  const condimA = get('condim');
  const condim = condimA ? r.num(condimA, `${subject} condim`) : 3;
  if (condim !== 1 && condim !== 3 && condim !== 4 && condim !== 6)
    r.fail(
      condimA!,
      `${subject} condim`,
      String(condim),
      'condim 1 (frictionless), 3 (sliding friction), 4 (and torsional) or 6 (and rolling)',
    );
  const size = [0, 0, 0] as Vec3;
  const sz = get('size');
  if (sz) r.nums(sz, `${subject} size`, [1, 3]).forEach((x, i) => (size[i] = x));
  let pos = vec3(ctx, get('pos'), `${subject} pos`, [0, 0, 0]);
  let quat: Quat;
  let meshOf: ProcessedMesh | undefined;
  const fromto = get('fromto');
  if (fromto && type !== 'mesh' && type !== 'plane' && type !== 'sphere') {
    const f = r.nums(fromto, `${subject} fromto`, 6);
    const v: Vec3 = [f[0] - f[3], f[1] - f[4], f[2] - f[5]];
    const len = Math.hypot(...v);
    if (!(len / 2 >= 1e-14)) r.fail(fromto, `${subject} fromto`, 'two coincident points', 'distinct end points');
    if (!Number.isFinite(len))
      r.fail(fromto, `${subject} fromto`, 'end points whose distance overflows', 'end points less than 1.7e308 apart');
    size[1] = importBug('import-fromto-length') ? len : len / 2;
    if (type === 'box' || type === 'ellipsoid') {
      size[2] = size[1];
      size[1] = size[0];
    }
    pos = [(f[0] + f[3]) / 2, (f[1] + f[4]) / 2, (f[2] + f[5]) / 2];
    quat = zaxisQuat(v);
  } else {
    if (fromto) r.fail(fromto, `${subject} fromto`, `fromto on a ${type}`, 'fromto only on capsule, cylinder, box or ellipsoid');
    quat = orientation(ctx, get, subject, el);
  }
  if (type === 'mesh') {
    const m = get('mesh');
    if (!m) r.fail(el, subject, 'a mesh geom without mesh=', 'mesh="NAME" of an <asset><mesh>');
    const b = meshes.get(m.value);
    if (!b)
      r.fail(
        m,
        `${subject} mesh`,
        `${quote(m.value, 60, "'")}, which no <asset><mesh> defines`,
        `one of ${[...meshes.keys()].join(', ') || '(no meshes)'}`,
      );
    meshOf = b;
  } else {
    const fit = get('mesh');
    if (fit)
      r.fail(
        fit,
        `${subject} mesh`,
        `a ${type} fitted to mesh ${quote(fit.value)}`,
        'type="mesh" with mesh=, or a primitive without mesh= (fitting a primitive to a mesh is not supported)',
      );
    const need = { sphere: 1, capsule: 2, cylinder: 2, box: 3, ellipsoid: 3, plane: 0 }[type];
    for (let i = 0; i < need; i++)
      if (!(size[i] > 0))
        r.fail(sz ?? el, `${subject} size`, sz ? quote3(size) : 'no size', `${need} positive number${need > 1 ? 's' : ''} for a ${type}`);
  }
  if (type === 'plane' && !isWorld) r.fail(el, subject, 'a plane in a body', 'planes only directly in <worldbody> (static)');
  // friction="slide [torsional [rolling]]": MuJoCo reads the given numbers over the class's (its
  // default class's friction, itself over the built-in 1 0.005 0.0001), so the missing ones stay the class's
  const friction = [1, DEFAULT_TORSIONAL_FRICTION, DEFAULT_ROLLING_FRICTION];
  const classFr = ctx.defaults.get(cls)?.get('geom')?.get('friction');
  for (const a of [classFr, el.attrs.get('friction')])
    if (a)
      r.nums(a, `${subject} friction`, [1, 3]).forEach((x, i) => {
        // MuJoCo takes a negative friction as written; the engine cannot run it
        if (!(x >= 0)) r.fail(a, `${subject} friction`, quote(a.value), 'sliding, torsional and rolling frictions >= 0');
        friction[i] = x;
      });
  const g: IrGeom = {
    name,
    type: type as IrGeomType,
    size,
    pos,
    quat,
    contype,
    conaffinity,
    friction: friction[0],
    torsionalFriction: friction[1],
    rollingFriction: friction[2],
    condim: condim as Condim,
    margin: nonNegativeOr(ctx, get('margin'), `${subject} margin`, 0),
    gap: nonNegativeOr(ctx, get('gap'), `${subject} gap`, 0),
    priority: priorityOf(ctx, get('priority'), `${subject} priority`),
    solmix: solmixOf(ctx, get('solmix'), `${subject} solmix`),
    mass: 0,
    inertia: [0, 0, 0],
    source: r.span(el),
  };
  // MuJoCo makes the hull of a mesh that a colliding geom uses
  if (meshOf) applyMesh(g, meshOf, contype !== 0 || conaffinity !== 0);
  const sr = get('solref');
  if (sr) g.solref = readSolref(r, sr, `${subject} solref`, note);
  const si = get('solimp');
  if (si) g.solimp = readSolimp(r, si, `${subject} solimp`, note);
  const rgba = get('rgba');
  if (rgba) g.rgba = r.nums(rgba, `${subject} rgba`, 4) as [number, number, number, number];
  const fluid = readFluidShape(ctx, get, cls, el, subject);
  if (fluid) g.fluid = fluid;
  const massA = get('mass');
  const groupA = get('group');
  const group = groupA ? r.num(groupA, `${subject} group`) : 0;
  if (groupA && !Number.isInteger(group)) r.fail(groupA, `${subject} group`, quote(groupA.value), 'an integer group');
  ctx.massSpec.set(g, {
    mass: massA ? r.num(massA, `${subject} mass`) : undefined,
    density: numOr(ctx, get('density'), `${subject} density`, 1000),
    group,
    el,
    get,
  });
  return g;
}

const quote3 = (v: readonly number[]): string => `[${v.join(', ')}]`;

/** priority (default 0): MuJoCo reads an int ("bad format" for a fraction); a pair of geoms of
 *  different priorities takes the higher one's contact parameters (native contact/contact_param.hpp). */
function priorityOf(ctx: MjcfContext, a: XmlAttr | undefined, subject: string): number {
  const p = numOr(ctx, a, subject, 0);
  if (a && !(Number.isInteger(p) && Math.abs(p) <= 2 ** 31 - 1))
    ctx.r.fail(a, subject, a.value.trim(), 'an integer priority (a 32-bit int, as MuJoCo reads it)');
  return p;
}

/** solmix (default 1): the weight of this geom's solref and solimp in a pair of equal priorities.
 *  MuJoCo takes any number (a negative or NaN one weighs as 0, an infinite one makes NaN): the
 *  engine takes a finite one >= 0. */
function solmixOf(ctx: MjcfContext, a: XmlAttr | undefined, subject: string): number {
  const s = numOr(ctx, a, subject, 1);
  if (a && !(s >= 0 && Number.isFinite(s)))
    ctx.r.fail(a, subject, a.value.trim(), 'a finite solmix >= 0 (MuJoCo weighs a negative one as 0: write 0)');
  return s;
}

/** contype or conaffinity (default 1): MuJoCo reads an int ("bad format" for a fraction, "number is
 *  too large" beyond 32 bits) and tests its bits, so a negative one is its two's-complement bits
 *  (-1: every bit); the engine takes the 32 bits as an unsigned number. */
function filterBits(ctx: MjcfContext, a: XmlAttr | undefined, subject: string): number {
  const x = numOr(ctx, a, subject, 1);
  if (a && !(Number.isInteger(x) && x >= -(2 ** 31) && x < 2 ** 31))
    ctx.r.fail(a, subject, quote(a.value), 'an integer from -2147483648 to 2147483647 (MuJoCo reads a 32-bit int, whose bits it tests)');
  return x >>> 0;
}

/** MuJoCo's default fluidcoef: blunt drag, slender drag, angular drag, Kutta lift, Magnus lift. */
export const DEFAULT_FLUIDCOEF: [number, number, number, number, number] = [0.5, 0.25, 1.5, 1, 1];

/** fluidshape="ellipsoid": its fluidcoef, 1 to 5 numbers over the class's over MuJoCo's defaults (as
 *  MuJoCo reads a short array into the class's); fluidshape none: undefined. */
function readFluidShape(
  ctx: MjcfContext,
  get: (n: string) => XmlAttr | undefined,
  cls: string,
  el: XmlElement,
  subject: string,
): [number, number, number, number, number] | undefined {
  const r: Reader = ctx.r;
  const shape = get('fluidshape');
  if (!shape || r.choice(shape, `${subject} fluidshape`, ['none', 'ellipsoid'] as const) === 'none') return undefined;
  const coef: [number, number, number, number, number] = [...DEFAULT_FLUIDCOEF];
  const classCoef = ctx.defaults.get(cls)?.get('geom')?.get('fluidcoef');
  for (const a of [classCoef, el.attrs.get('fluidcoef')]) if (a) r.nums(a, `${subject} fluidcoef`, [1, 5]).forEach((x, i) => (coef[i] = x));
  return coef;
}
