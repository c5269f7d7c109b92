// <actuator>: motor, position, velocity, intvelocity and general actuators on a joint, as MuJoCo's
// mjXReader::OneActuator reads them (ctrlrange and forcerange with their limited flags). A motor, a
// velocity servo and a position servo with only kp and kv keep the engine's own kinds (the same
// force to rounding); <general>, <intvelocity> and a position servo with timeconst or dampratio
// become the general form MuJoCo expands them to (general-actuator.ts). Other actuator kinds and
// transmissions (tendon, site, body, slider-crank) are refused.

import type { IrActuator } from '../ir.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { numOr, sections, type MjcfContext } from './context.js';
import { attrOf, classOf } from './defaults.js';
import { checkUnread } from './unread.js';
import { limitedRange } from './actuator-range.js';
import { needsGeneral, readGeneral } from './general-actuator.js';

const KINDS = ['motor', 'position', 'velocity', 'intvelocity', 'general'];

export function readActuators(ctx: MjcfContext): void {
  for (const a of sections(ctx, 'actuator')) {
    for (const c of a.children) {
      if (!KINDS.includes(c.name))
        ctx.r.fail(c, `<${c.name}>`, `a ${c.name} actuator`, 'motor, position, velocity, intvelocity or general (on a joint)');
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
  // MuJoCo keeps one actuator default per class, which every actuator tag of <default> writes through
  // its own shortcut: read per tag here, a class that sets defaults through another tag is refused.
  for (const other of KINDS.filter((t) => t !== c.name)) {
    const set = ctx.defaults.get(cls)?.get(other);
    if (set && set.size > 0)
      r.fail(
        c,
        subject,
        `a <${c.name}> in class '${cls}', whose defaults are set through <${other}> (MuJoCo shares one actuator default among all actuator tags)`,
        `the class's actuator defaults set through <${c.name}> only, or the attributes on the element`,
      );
  }
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
  if (needsGeneral(c, get)) {
    act.kind = 'general';
    act.kp = 0;
    act.kv = 0;
    act.general = readGeneral(ctx, c, get, subject);
  }
  return act;
}
