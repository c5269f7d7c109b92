// <actuator>: motor, position and velocity actuators on a joint, as MuJoCo's mjXReader::OneActuator
// reads their shortcuts (kp, kv; ctrlrange and forcerange with their limited flags). Other
// actuator kinds and transmissions (tendon, site, body, slider-crank) are refused.

import type { IrActuator } from '../ir.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { numOr, sections, type MjcfContext } from './context.js';
import { attrOf, classOf } from './defaults.js';
import { checkUnread } from './unread.js';

export function readActuators(ctx: MjcfContext): void {
  for (const a of sections(ctx, 'actuator')) {
    for (const c of a.children) {
      if (!['motor', 'position', 'velocity'].includes(c.name))
        ctx.r.fail(c, `<${c.name}>`, `a ${c.name} actuator`, 'motor, position or velocity (on a joint)');
      ctx.ir.actuators.push(readActuator(ctx, c, ctx.ir.actuators.length));
    }
  }
}

/** Actuator number `k` (an unnamed one is named after its kind: `motorK`, `positionK`, ...). */
function readActuator(ctx: MjcfContext, c: XmlElement, k: number): IrActuator {
  const r: Reader = ctx.r;
  const { note } = ctx;
  const cls = classOf(ctx, c, 'main');
  const get = (n: string): XmlAttr | undefined => attrOf(ctx, c, c.name, cls, n);
  const name = c.attrs.get('name')?.value ?? `${c.name}${k}`;
  const subject = `actuator '${name}'`;
  checkUnread(r, 'actuator', get, subject);
  for (const t of ['tendon', 'site', 'body', 'jointinparent', 'cranksite'])
    if (get(t))
      r.fail(
        get(t)!,
        subject,
        `a transmission through ${t}`,
        'joint="NAME" (joint transmission only; an actuator along a tendon is not supported yet)',
      );
  const joint = get('joint');
  if (!joint) r.fail(c, subject, 'no joint', 'joint="NAME"');
  const gearA = get('gear');
  const gear = gearA ? r.nums(gearA, `${subject} gear`, [1, 6]) : [1];
  if (gear.slice(1).some((x) => x !== 0))
    note('dropped', gearA!, `${subject}: gear components 2..6 apply to ball/free joints only; gear ${gear[0]} kept`);
  const act: IrActuator = {
    name,
    kind: c.name as IrActuator['kind'],
    joint: joint.value,
    gear: gear[0],
    kp: c.name === 'position' ? numOr(ctx, get('kp'), `${subject} kp`, 1) : 0,
    kv:
      c.name === 'velocity'
        ? numOr(ctx, get('kv'), `${subject} kv`, 1)
        : c.name === 'position'
          ? numOr(ctx, get('kv'), `${subject} kv`, 0)
          : 0,
    source: r.span(c),
  };
  const cr = limitedRange(ctx, c, get, subject, 'ctrlrange', 'ctrllimited');
  if (cr) act.ctrlrange = cr;
  const fr = limitedRange(ctx, c, get, subject, 'forcerange', 'forcelimited');
  if (fr) act.forcerange = fr;
  return act;
}

/** Range `n` when the actuator is limited by `lim` ("true", or "auto" with a range and compiler autolimits). */
function limitedRange(
  ctx: MjcfContext,
  c: XmlElement,
  get: (n: string) => XmlAttr | undefined,
  subject: string,
  n: string,
  lim: string,
): [number, number] | undefined {
  const r: Reader = ctx.r;
  const { compiler } = ctx;
  const ra = get(n);
  const la = get(lim);
  const l = la ? r.choice(la, `${subject} ${lim}`, ['true', 'false', 'auto'] as const) : 'auto';
  if (!(l === 'true' || (l === 'auto' && compiler.autolimits && ra))) return undefined;
  const v = ra ? r.nums(ra, `${subject} ${n}`, 2) : [0, 0];
  if (!(v[0] < v[1])) r.fail(ra ?? c, `${subject} ${n}`, `[${v.join(', ')}]`, 'lower < upper');
  return [v[0], v[1]];
}
