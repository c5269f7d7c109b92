// <actuator>: motor, position, velocity, intvelocity and general actuators on a joint, as MuJoCo's
// mjXReader::OneActuator builds them from the class's shared actuator default (general-actuator.ts;
// ctrlrange and forcerange with their limited flags). A motor, a velocity servo and a position
// servo without dynamics or damping ratio keep the engine's own kinds (the same force to rounding);
// anything else (<general>, <intvelocity>, a position servo with timeconst or dampratio, or one a
// class default gave dynamics) becomes the general form. The transmission is a joint, a fixed tendon
// or a body (MuJoCo's mjTRN_JOINT, mjTRN_TENDON, mjTRN_BODY: <adhesion body>, or any tag with body= whose
// force reads neither length nor velocity: dyntype none, gain fixed, bias none); other actuator kinds and
// transmissions (site, slider-crank) are refused.

import type { GeneralActuatorDesc } from '../../../engine/model-desc.js';
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
        ctx.r.fail(
          c,
          `<${c.name}>`,
          `a ${c.name} actuator`,
          'motor, position, velocity, intvelocity, general (on a joint or tendon) or adhesion (on a body)',
        );
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
  for (const t of ['site', 'jointinparent', 'cranksite'])
    if (get(t))
      r.fail(
        get(t)!,
        subject,
        `a transmission through ${t}`,
        'joint="NAME", tendon="NAME" or body="NAME" (joint, fixed-tendon and body transmissions only; site and slider-crank are not supported yet)',
      );
  const joint = get('joint');
  const tendon = get('tendon');
  const body = get('body');
  if (!joint && !tendon && !body) r.fail(c, subject, 'no transmission', 'joint="NAME", tendon="NAME" or body="NAME"');
  // MuJoCo's reader keeps the last transmission it reads (the tendon) and drops the joint without a word
  if (joint && tendon)
    r.fail(
      tendon,
      subject,
      'both a joint and a tendon',
      'one transmission: joint="NAME" or tendon="NAME" (MuJoCo would drop the joint silently)',
    );
  if (body && (joint || tendon))
    r.fail(
      body,
      subject,
      'a body besides a joint or tendon',
      'one transmission: joint="NAME", tendon="NAME" or body="NAME" (MuJoCo would keep one silently)',
    );
  const gearA = get('gear');
  const gear = gearA ? r.nums(gearA, `${subject} gear`, [1, 6]) : [1];
  if (gear.slice(1).some((x) => x !== 0))
    note('dropped', gearA!, `${subject}: gear components 2..6 apply to ball/free joints only; gear ${gear[0]} kept`);
  const general = toGeneral(ctx, c, spec, subject);
  if (body) refuseBodyForceTerms(ctx, body, subject, general);
  const own = body ? undefined : ownKind(c.name, general);
  const act: IrActuator = {
    name,
    kind: own ? own.kind : 'general',
    ...(joint ? { joint: joint.value } : tendon ? { tendon: tendon.value } : { body: body!.value }),
    gear: gear[0],
    kp: own ? own.kp : 0,
    kv: own ? own.kv : 0,
    source: r.span(c),
  };
  if (!own) act.general = general;
  if (tendon) refuseImplicitOnTendon(ctx, tendon, subject, act);
  const cr = limitedRange(ctx, c, get, subject, 'ctrlrange', 'ctrllimited');
  if (cr) act.ctrlrange = cr;
  const fr = limitedRange(ctx, c, get, subject, 'forcerange', 'forcelimited');
  if (fr) act.forcerange = fr;
  return act;
}

/** A body transmission's length is 0 and its velocity momentᵀ·q̇ changes with the contacts (MuJoCo's
 *  mj_transmission, mjTRN_BODY): the engine applies it to forces that read neither, gainprm₀·u without
 *  dynamics (an <adhesion>: gain fixed, bias none, and no dyntype from its class). */
function refuseBodyForceTerms(ctx: MjcfContext, at: XmlAttr, subject: string, g: GeneralActuatorDesc): void {
  if (g.dyntype === 'none' && g.gaintype === 'fixed' && g.biastype === 'none') return;
  ctx.r.fail(
    at,
    subject,
    `a body transmission with dyntype ${g.dyntype}, gaintype ${g.gaintype}, biastype ${g.biastype}`,
    'dyntype none, gaintype fixed and biastype none on a body transmission (an <adhesion>: the force gain·ctrl)',
  );
}

/** implicitfast adds each actuator's ∂force/∂ℓ̇ to qDeriv (MuJoCo's mjd_actuator_vel: momentᵀ·(∂f/∂ℓ̇)·moment,
 *  a rank-one term across a tendon's dofs), which MuJoCo stores with M's sparsity: only pairs of dofs on
 *  one path from the root. The engine adds the whole rank-one term, MuJoCo's exactly when the tendon's
 *  joints all lie on one path; a velocity-dependent actuator on a tendon across two branches (two
 *  fingers) under implicitfast is refused at its line (Euler and RK4 run it). */
function refuseImplicitOnTendon(ctx: MjcfContext, at: XmlAttr, subject: string, a: IrActuator): void {
  if (ctx.ir.option.integrator !== 'implicitfast') return;
  const g = a.general;
  const velocityDependent =
    a.kv !== 0 || (g !== undefined && ((g.biastype === 'affine' && g.biasprm[2] !== 0) || (g.gaintype === 'affine' && g.gainprm[2] !== 0)));
  if (!velocityDependent) return;
  const tendon = (ctx.ir.tendons ?? []).find((t) => t.name === a.tendon);
  if (!tendon) return; // an unknown tendon: compile.ts names it
  const bodyOf = (joint: string): number => ctx.ir.bodies.findIndex((b) => b.joints.some((j) => j.name === joint));
  const above = (b: number, c: number): boolean => {
    for (let k = c; k >= 0; k = ctx.ir.bodies[k].parent) if (k === b) return true;
    return false;
  };
  const bodies = tendon.joints.map((j) => bodyOf(j.joint));
  for (let x = 0; x < bodies.length; x++)
    for (let y = x + 1; y < bodies.length; y++)
      if (bodies[x] >= 0 && bodies[y] >= 0 && !above(bodies[x], bodies[y]) && !above(bodies[y], bodies[x]))
        ctx.r.fail(
          at,
          subject,
          `a velocity-dependent actuator (kv, dampratio or a velocity term in its gain or bias) with integrator implicitfast on tendon '${tendon.name}', whose joints '${tendon.joints[x].joint}' and '${tendon.joints[y].joint}' lie on different branches of the tree`,
          "Euler or RK4, or a tendon whose joints lie on one chain (MuJoCo's qDeriv, stored with M's sparsity, drops the cross term between two branches; the engine's does not)",
        );
}
