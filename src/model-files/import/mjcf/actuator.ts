// <actuator>: motor, position, velocity, intvelocity and general actuators on a joint, as MuJoCo's
// mjXReader::OneActuator builds them from the class's shared actuator default (general-actuator.ts;
// ctrlrange and forcerange with their limited flags). A motor, a velocity servo and a position
// servo without dynamics or damping ratio keep the engine's own kinds (the same force to rounding);
// anything else (<general>, <intvelocity>, a position servo with timeconst or dampratio, or one a
// class default gave dynamics) becomes the general form. Other actuator kinds and transmissions
// (tendon, site, body, slider-crank) are refused.

import type { IrActuator } from '../ir.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { sections, type MjcfContext } from './context.js';
import { classOf } from './defaults.js';
import { checkUnread } from './unread.js';
import { limitedRange } from './actuator-range.js';
import { ACTUATOR_TAGS, actuatorSpec, ownKind, toGeneral } from './general-actuator.js';

export function readActuators(ctx: MjcfContext): void {
  for (const a of sections(ctx, 'actuator')) {
    for (const c of a.children) {
      if (!ACTUATOR_TAGS.includes(c.name))
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
  const name = c.attrs.get('name')?.value ?? `${c.name}${k}`;
  const subject = `actuator '${name}'`;
  // MuJoCo's actuator: the class's actuator default (shared by every actuator tag), then the element
  const spec = actuatorSpec(ctx, c, cls, subject);
  const get = (n: string): XmlAttr | undefined => spec.attrs.get(n);
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
  const general = toGeneral(ctx, c, spec, subject);
  const own = ownKind(c.name, general);
  const act: IrActuator = {
    name,
    kind: own ? own.kind : 'general',
    joint: joint.value,
    gear: gear[0],
    kp: own ? own.kp : 0,
    kv: own ? own.kv : 0,
    source: r.span(c),
  };
  if (!own) act.general = general;
  const cr = limitedRange(ctx, c, get, subject, 'ctrlrange', 'ctrllimited');
  if (cr) act.ctrlrange = cr;
  const fr = limitedRange(ctx, c, get, subject, 'forcerange', 'forcelimited');
  if (fr) act.forcerange = fr;
  return act;
}
