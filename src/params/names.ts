// The names of per-robot model parameters, as a sweep's `randomize.model` or a scene's `randomize:`
// block writes them, and what each changes in a ModelDesc:
//
//   mass_scale:LINK           the link's mass and rotational inertia times s (its first moment m·c follows)
//   com_offset:LINK.x|y|z     added to the link's centre of mass (m, body frame)
//   friction:SHAPE            the shape's sliding friction (a link's name: every shape of that link)
//   damping:JOINT             the joint's damping, per dof
//   armature:JOINT            the joint's armature, per dof
//   gain:ACTUATOR             a position servo's kp, a velocity servo's kv, a general actuator's
//                             gainprm[0] (and biasprm[1] = −gain where it is position-like, as MuJoCo's
//                             <position> ties them)
//   ctrl_range:ACTUATOR.low|high   one end of the actuator's control range
//   gravity.x|y|z             a component of gravity (m/s²)
//
// A joint's name is its link's name (one joint per link). Every value but mass_scale and com_offset is
// written in as is; the drawn values must keep the model valid, which is checked on the distribution's
// support before anything runs (e.g. a normal draw for a mass scale could be negative: refused).

import type { Distribution } from './draws.js';
import type { ModelDesc } from '../engine/model-desc.js';
import { brief } from '../util/brief.js';

export const PARAMETER_KINDS = ['mass_scale', 'com_offset', 'friction', 'damping', 'armature', 'gain', 'ctrl_range', 'gravity'] as const;
export type ParameterKind = (typeof PARAMETER_KINDS)[number];

export type ParameterTarget =
  | { kind: 'mass_scale'; body: number }
  | { kind: 'com_offset'; body: number; axis: number }
  | { kind: 'friction'; shapes: number[] }
  | { kind: 'damping' | 'armature'; body: number }
  | { kind: 'gain'; actuator: number }
  | { kind: 'ctrl_range'; actuator: number; end: 0 | 1 }
  | { kind: 'gravity'; axis: number };

/** One parameter's value for one robot. */
export interface ParameterValue {
  target: ParameterTarget;
  value: number;
  /** As written (`mass_scale:torso`), to name it in an error. */
  name?: string;
}

/** A name's parts before the model is known: `com_offset:torso.x` is (com_offset, torso, x). */
export interface ParameterName {
  kind: ParameterKind;
  subject: string;
  component?: string;
}

/** What is wrong with a name or a range, for the reader to report at the entry's position. */
export interface NameProblem {
  found: string;
  expected: string;
  hint?: string;
}

const AXES = ['x', 'y', 'z'];
const ENDS = ['low', 'high'];
const GRAMMAR =
  'mass_scale:LINK, com_offset:LINK.x|y|z, friction:SHAPE, damping:JOINT, armature:JOINT, gain:ACTUATOR, ctrl_range:ACTUATOR.low|high or gravity.x|y|z';

/** Splits a name by the grammar above; a problem when it does not follow it. */
export function parseParameterName(name: string): ParameterName | NameProblem {
  const g = /^gravity\.(.*)$/.exec(name);
  if (g) return AXES.includes(g[1]) ? { kind: 'gravity', subject: '', component: g[1] } : bad(name, 'gravity.x, gravity.y or gravity.z');
  const m = /^([a-z_]+):(.+)$/.exec(name);
  if (!m || !(PARAMETER_KINDS as readonly string[]).includes(m[1])) return bad(name, GRAMMAR);
  const kind = m[1] as ParameterKind;
  if (kind === 'com_offset' || kind === 'ctrl_range') {
    const dot = m[2].lastIndexOf('.');
    const parts = kind === 'com_offset' ? AXES : ENDS;
    const component = dot < 0 ? '' : m[2].slice(dot + 1);
    if (!parts.includes(component)) return bad(name, `${kind}:NAME.${parts.join('|')} (which component it changes)`);
    return { kind, subject: m[2].slice(0, dot), component };
  }
  return { kind, subject: m[2] };
}

const bad = (name: string, expected: string): NameProblem => ({ found: `the parameter \`${brief(name)}\``, expected });

/** The names the subject of `kind` may take in `model` (for "one of" and "did you mean"). */
export function subjectsOf(kind: ParameterKind, model: ModelDesc): string[] {
  const links = model.bodies.map((b) => b.name);
  const actuators = (model.actuators ?? []).map((a) => a.name);
  if (kind === 'friction') return [...(model.shapes ?? []).map((s) => s.name), ...links];
  if (kind === 'gain' || kind === 'ctrl_range') return actuators;
  if (kind === 'damping' || kind === 'armature') return model.bodies.filter((b) => b.joint !== 'fixed').map((b) => b.name);
  return links;
}

/** The parameter `p` in `model`, or what is wrong (a name the model lacks, an actuator without the
 *  gain or range asked for). */
export function resolveParameter(p: ParameterName, model: ModelDesc): ParameterTarget | NameProblem {
  const axis = AXES.indexOf(p.component ?? '');
  if (p.kind === 'gravity') return { kind: 'gravity', axis };
  const candidates = subjectsOf(p.kind, model);
  const missing = (what: string): NameProblem => ({
    found: `no ${what} \`${brief(p.subject)}\` in ${model.name}`,
    expected: `one of ${listed(candidates)}`,
  });
  if (p.kind === 'friction') {
    const shapes = model.shapes ?? [];
    const own = shapes.findIndex((s) => s.name === p.subject);
    if (own >= 0) return { kind: 'friction', shapes: [own] };
    const body = model.bodies.findIndex((b) => b.name === p.subject);
    const ofLink = shapes.flatMap((s, i) => (body >= 0 && s.body === body ? [i] : []));
    if (ofLink.length) return { kind: 'friction', shapes: ofLink };
    return body >= 0
      ? { found: `the link \`${p.subject}\`, which has no shapes`, expected: 'a shape or a link with shapes' }
      : missing('shape or link');
  }
  if (p.kind === 'gain' || p.kind === 'ctrl_range') {
    const actuator = (model.actuators ?? []).findIndex((a) => a.name === p.subject);
    if (actuator < 0) return missing('actuator');
    const a = model.actuators![actuator];
    if (p.kind === 'ctrl_range') {
      if (!a.ctrlrange)
        return {
          found: `the actuator \`${a.name}\`, which has no ctrlrange`,
          expected: 'an actuator with a ctrlrange (one end is drawn, the other kept)',
        };
      return { kind: 'ctrl_range', actuator, end: p.component === 'low' ? 0 : 1 };
    }
    if (a.kind === 'motor')
      return {
        found: `the motor \`${a.name}\``,
        expected: 'a position or velocity servo, or a general actuator',
        hint: "a motor's force is gear·ctrl: it has no gain of its own to draw (draw its ctrl_range, or make it a general actuator)",
      };
    return { kind: 'gain', actuator };
  }
  const body = model.bodies.findIndex(
    (b) => b.name === p.subject && (p.kind !== 'damping' && p.kind !== 'armature' ? true : b.joint !== 'fixed'),
  );
  if (body < 0) return missing(p.kind === 'damping' || p.kind === 'armature' ? 'joint' : 'link');
  if (p.kind === 'com_offset') return { kind: 'com_offset', body, axis };
  // a springdamper makes the joint's damping from its inertia (the engine, at every robot's qpos0): a
  // drawn damping would be replaced, so it is refused rather than ignored
  if (p.kind === 'damping' && model.bodies[body].springdamper)
    return {
      found: `joint \`${p.subject}\`, whose damping its springdamper sets`,
      expected: 'a joint with a damping of its own',
      hint: "draw the joint's mass (mass_scale) instead: its springdamper's damping follows its inertia",
    };
  return { kind: p.kind, body };
}

/** The values a distribution can draw: [lowest, highest]. */
export function support(d: Distribution): [number, number] {
  return d.kind === 'normal' ? [-Infinity, Infinity] : [d.low, d.high];
}

/** Whether every value `d` can draw keeps the model valid for `t`; a problem otherwise. `others`: the
 *  other drawn parameters (a ctrl range's two ends, drawn apart, must never cross). */
export function checkRange(
  t: ParameterTarget,
  d: Distribution,
  model: ModelDesc,
  others: { target: ParameterTarget; dist: Distribution }[],
): NameProblem | undefined {
  const [lo, hi] = support(d);
  const need = (ok: boolean, expected: string): NameProblem | undefined =>
    ok
      ? undefined
      : { found: d.kind === 'normal' ? 'a normal distribution, which can draw any value' : `values in [${lo}, ${hi}]`, expected };
  switch (t.kind) {
    case 'mass_scale':
      return need(lo > 0, 'a scale > 0 at every draw (uniform or log_uniform above 0)');
    case 'friction':
    case 'damping':
    case 'armature':
      return need(lo >= 0, `a ${t.kind} >= 0 at every draw (uniform or log_uniform from 0 up)`);
    case 'gain':
      return need(lo >= 0, 'a gain >= 0 at every draw (uniform or log_uniform from 0 up)');
    case 'ctrl_range': {
      const a = model.actuators![t.actuator];
      // the other end: drawn (its support) or the scene's value
      const other = others.find((o) => o.target.kind === 'ctrl_range' && o.target.actuator === t.actuator && o.target.end !== t.end);
      const [olo, ohi] = other ? support(other.dist) : [a.ctrlrange![1 - t.end], a.ctrlrange![1 - t.end]];
      return t.end === 0
        ? need(hi < olo, `a low end below the high end (${other ? `drawn from ${olo}` : olo}) at every draw`)
        : need(lo > ohi, `a high end above the low end (${other ? `drawn up to ${ohi}` : ohi}) at every draw`);
    }
    default:
      return undefined;
  }
}

function listed(names: readonly string[]): string {
  const shown = names.slice(0, 12).join(', ');
  return names.length > 12 ? `${shown}, … (${names.length} in all)` : shown || '(none)';
}
