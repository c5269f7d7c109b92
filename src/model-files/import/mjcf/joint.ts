// <joint> and <freejoint>, as MuJoCo's mjXReader::OneJoint: type, frame, passive parameters, and
// the range with its limit when it is limited (limited="true", or a range with compiler autolimits).

import { DEFAULT_SOLIMP, DEFAULT_SOLREF } from '../../../engine/model-desc.js';
import type { IrJoint } from '../ir.js';
import { readSolimp, readSolref } from './sol-params.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { angleRange } from './compiler.js';
import { nonNegativeOr, numOr, vec3, type MjcfContext } from './context.js';
import { attrOf } from './defaults.js';
import { checkUnread } from './unread.js';
import { importBug } from '../bugs.js';

/** Joint `k` of body `body` (an unnamed one is named after the body: `body`, `body_joint1`, ...). */
export function readJoint(ctx: MjcfContext, el: XmlElement, cls: string, body: string, k: number): IrJoint {
  const r: Reader = ctx.r;
  const { compiler, note } = ctx;
  const free = el.name === 'freejoint';
  const get = (n: string): XmlAttr | undefined => (free ? el.attrs.get(n) : attrOf(ctx, el, 'joint', cls, n));
  const name = el.attrs.get('name')?.value ?? (k === 0 ? body : `${body}_joint${k}`);
  const subject = `joint '${name}'`;
  const typeA = get('type');
  const type = free ? 'free' : typeA ? r.choice(typeA, `${subject} type`, ['hinge', 'slide', 'ball', 'free'] as const) : 'hinge';
  checkUnread(r, free ? 'freejoint' : 'joint', get, subject);
  const axisRaw = vec3(ctx, get('axis'), `${subject} axis`, [0, 0, 1]);
  const an = Math.hypot(...axisRaw);
  if ((type === 'hinge' || type === 'slide') && !(an >= 1e-14))
    r.fail(get('axis') ?? el, `${subject} axis`, 'a zero axis', 'a nonzero direction');
  const isAngle = type === 'hinge';
  const conv = (x: number): number => (isAngle ? angleRange(compiler, x) : x);
  const j: IrJoint = {
    name,
    type,
    pos: vec3(ctx, get('pos'), `${subject} pos`, [0, 0, 0]),
    axis: an > 0 ? [axisRaw[0] / an, axisRaw[1] / an, axisRaw[2] / an] : [0, 0, 1],
    ref: conv(numOr(ctx, get('ref'), `${subject} ref`, 0)),
    damping: nonNegativeOr(ctx, get('damping'), `${subject} damping`, 0),
    stiffness: nonNegativeOr(ctx, get('stiffness'), `${subject} stiffness`, 0),
    springref: conv(numOr(ctx, get('springref'), `${subject} springref`, 0)),
    armature: nonNegativeOr(ctx, get('armature'), `${subject} armature`, 0),
    frictionloss: nonNegativeOr(ctx, get('frictionloss'), `${subject} frictionloss`, 0),
    source: r.span(el),
  };
  const sd = readSpringdamper(r, get('springdamper'), subject, type);
  if (sd) j.springdamper = sd;
  const rangeA = get('range');
  const limA = get('limited');
  const limited = limA ? r.choice(limA, `${subject} limited`, ['true', 'false', 'auto'] as const) : 'auto';
  const isLimited = limited === 'true' || (limited === 'auto' && compiler.autolimits && rangeA !== undefined);
  if (limited === 'auto' && !compiler.autolimits && rangeA)
    r.fail(
      rangeA,
      `${subject} range`,
      'a range without limited="true" while compiler autolimits="false"',
      'limited="true", or autolimits="true" (as MuJoCo requires)',
    );
  if (isLimited) {
    const rg = rangeA ? r.nums(rangeA, `${subject} range`, 2) : [0, 0];
    if (type === 'hinge' || type === 'slide') {
      if (!(rg[0] < rg[1])) r.fail(rangeA ?? el, `${subject} range`, `[${rg.join(', ')}]`, 'lower < upper');
    }
    // MuJoCo's compiler: "range[0] should be 0 in ball joint" (the cone limit is max(range) on the angle)
    if (type === 'ball' && (rg[0] !== 0 || !(rg[1] > 0)))
      r.fail(
        rangeA ?? el,
        `${subject} range`,
        `[${rg.join(', ')}]`,
        '[0, max angle] with max angle > 0 (range[0] should be 0 in ball joint, as MuJoCo requires)',
      );
    j.range = type === 'ball' ? [angleRange(compiler, rg[0]), angleRange(compiler, rg[1])] : [conv(rg[0]), conv(rg[1])]; // a ball's cone is an angle too
    const sr = get('solreflimit');
    const si = get('solimplimit');
    j.limit = {
      solref: sr ? readSolref(r, sr, `${subject} solreflimit`, note) : [...DEFAULT_SOLREF],
      solimp: si ? readSolimp(r, si, `${subject} solimplimit`, note) : [...DEFAULT_SOLIMP],
      margin: nonNegativeOr(ctx, get('margin'), `${subject} margin`, 0),
    };
  }
  return j;
}

/** MuJoCo's springdamper = [timeconst, dampratio]: "0 0" (the default) is none; otherwise both must be
 *  > 0 (MuJoCo's compiler: "when defined, springdamper values must be positive"). The engine makes the
 *  stiffness and damping from it at qpos0 as MuJoCo's compiler does (native springdamper.cpp), and its
 *  joint stiffness is on hinges and slides only, so a ball or free joint's springdamper is refused. */
function readSpringdamper(r: Reader, a: XmlAttr | undefined, subject: string, type: IrJoint['type']): [number, number] | undefined {
  if (!a) return undefined;
  const [timeconst, dampratio] = r.nums(a, `${subject} springdamper`, 2);
  if (timeconst === 0 && dampratio === 0) return undefined;
  if (!(timeconst > 0 && dampratio > 0))
    r.fail(
      a,
      `${subject} springdamper`,
      `[${timeconst}, ${dampratio}]`,
      'timeconst > 0 and dampratio > 0, or "0 0" for none (as MuJoCo requires)',
    );
  if (type !== 'hinge' && type !== 'slide')
    r.fail(
      a,
      `${subject} springdamper`,
      `a springdamper on a ${type} joint`,
      "a hinge or slide (the engine's joint stiffness applies to hinge and slide joints only)",
    );
  // the planted bug: the damping ratio dropped
  return [timeconst, importBug('import-springdamper-ratio') ? 1 : dampratio];
}
