// A model in the plain text form the native test executables read (native/tests/model_text.hpp):
// the same numbers `toNativeModel` hands the addon, so C++-only tools (the sanitizer build) run
// the bundled scenes and import fixtures without a JSON parser. Version 2 carries everything the
// constraint solver, the passive forces, the tendons and the actuators read; version 3 adds the
// solver method, general actuators' MuJoCo parameters and the equality constraints; version 4 each
// joint's ref (MuJoCo's qpos0 of a hinge or slide); version 5 an actuator's tendon (−1: it drives a joint);
// version 6 an actuator's body transmission (an adhesion's link; −1: none).
import type { ModelDesc } from '../../src/engine/model-desc.js';
import { toNativeModel } from '../../src/engine/batch.js';

interface Limit {
  solref: number[];
  solimp: number[];
  margin: number;
}
interface NativeBody {
  name: string;
  joint: string;
  parent: number;
  pos: number[];
  quat: number[];
  axis: number[];
  u: number[];
  w: number[];
  mass: number;
  com: number[];
  inertia: number[];
  q0: number[];
  v0: number[];
  tau: number[];
  range?: number[];
  limit?: Limit;
  frictionloss?: number;
  damping: number;
  stiffness: number;
  springref: number;
  armature: number;
  ref?: number;
}
interface NativeShape {
  name: string;
  body: number;
  kind: string;
  halfExtents: number[];
  radius: number;
  pos: number[];
  quat: number[];
  friction: number;
  contype: number;
  conaffinity: number;
  margin: number;
  gap: number;
  solref?: number[];
  solimp?: number[];
  condim?: number;
  size?: number[];
  vertices?: number[];
}
interface NativeTendon {
  name: string;
  joints: number[];
  coefs: number[];
  range?: number[];
  limit?: Limit;
  frictionloss: number;
  stiffness: number;
  damping: number;
  springlength: number[];
}
interface NativeActuator {
  name: string;
  /** The joint's body, or absent when the actuator pulls a tendon. */
  body?: number;
  tendon?: number;
  /** The link an adhesion pulls onto its contacts (MuJoCo's body transmission). */
  bodyTransmission?: number;
  kind: string;
  gear: number[];
  kp?: number;
  kv?: number;
  ctrlrange?: number[];
  forcerange?: number[];
  rateLimit: number;
  general?: {
    dyntype: string;
    gaintype: string;
    biastype: string;
    dynprm: number[];
    gainprm: number[];
    biasprm: number[];
    actrange?: number[];
    actearly?: boolean;
  };
}
interface NativeEquality {
  name: string;
  type: 'connect' | 'weld' | 'joint';
  active: boolean;
  solref: number[];
  solimp: number[];
  joint1?: number;
  joint2?: number;
  polycoef?: number[];
  ref1?: number;
  ref2?: number;
  body1?: number;
  body2?: number;
  anchor1?: number[];
  anchor2?: number[];
  quat1?: number[];
  quat2?: number[];
  torquescale?: number;
}
interface NativeModel {
  gravity: number[];
  bodies: NativeBody[];
  shapes: NativeShape[];
  excludes: [number, number][];
  solver?: { iterations: number; impratio: number; tolerance?: number; method?: string; cone?: string };
  tendons: NativeTendon[];
  actuators: NativeActuator[];
  equalities?: NativeEquality[];
}

const num = (x: number) => (Number.isFinite(x) ? x.toPrecision(17) : String(x));
const nums = (a: readonly number[]) => a.map(num).join(' ');
const word = (s: string) => s.replace(/\s+/g, '_') || '_';
const DEFAULT_LIMIT: Limit = { solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 };
/** `flag lo hi` of an optional range (0 0 0 when absent). */
const range = (r?: readonly number[]) => (r ? `1 ${nums(r)}` : '0 0 0');
const limit = (l: Limit = DEFAULT_LIMIT) => `${nums(l.solref)} ${nums(l.solimp)} ${num(l.margin)}`;
/** `flag x…` of an optional vector of n numbers (0 and n zeros when absent). */
const optional = (n: number, v?: readonly number[]) => (v ? `1 ${nums(v)}` : `0 ${nums(new Array<number>(n).fill(0))}`);

/** A general actuator's parameters after its common fields (nothing for the servo kinds). */
function generalText(a: NativeActuator): string[] {
  const g = a.general;
  if (!g) return [];
  return [g.dyntype, g.gaintype, g.biastype, nums(g.dynprm), nums(g.gainprm), nums(g.biasprm), range(g.actrange), g.actearly ? 1 : 0].map(
    String,
  );
}

function equalityText(e: NativeEquality): string {
  const head = [word(e.name), e.type, e.active ? 1 : 0, nums(e.solref), nums(e.solimp)];
  if (e.type === 'joint')
    return [...head, e.joint1 ?? -1, e.joint2 ?? -1, nums(e.polycoef ?? [0, 1, 0, 0, 0]), num(e.ref1 ?? 0), num(e.ref2 ?? 0)].join(' ');
  return [
    ...head,
    e.body1 ?? -1,
    e.body2 ?? -1,
    optional(3, e.anchor1),
    optional(3, e.anchor2),
    optional(4, e.quat1),
    optional(4, e.quat2),
    num(e.torquescale ?? 1),
  ].join(' ');
}

export function modelText(model: ModelDesc): string {
  const m = toNativeModel(model) as NativeModel;
  const out = ['achilles-model 6', `gravity ${nums(m.gravity)}`, `bodies ${m.bodies.length}`];
  for (const b of m.bodies) {
    out.push(
      [
        word(b.name),
        b.joint,
        b.parent,
        nums(b.pos),
        nums(b.quat),
        nums(b.axis),
        nums(b.u),
        nums(b.w),
        num(b.mass),
        nums(b.com),
        nums(b.inertia),
        b.q0.length,
        nums(b.q0),
        b.v0.length,
        nums(b.v0),
        b.tau.length,
        nums(b.tau),
      ].join(' '),
    );
    out.push(
      `  ${range(b.range)} ${limit(b.limit)} ${num(b.frictionloss ?? 0)} ${num(b.damping)} ${num(b.stiffness)} ${num(b.springref)} ${num(b.armature)} ${num(b.ref ?? 0)}`,
    );
  }
  out.push(`shapes ${m.shapes.length}`);
  for (const s of m.shapes)
    out.push(
      [
        word(s.name),
        s.body,
        s.kind,
        nums(s.halfExtents),
        num(s.radius),
        nums(s.pos),
        nums(s.quat),
        num(s.friction),
        s.contype,
        s.conaffinity,
        num(s.margin),
        num(s.gap),
        nums(s.solref ?? DEFAULT_LIMIT.solref),
        nums(s.solimp ?? DEFAULT_LIMIT.solimp),
        s.condim ?? 3,
        // cylinder, ellipsoid: MuJoCo's size; convex: its vertex count and vertices
        nums(s.size ?? [0, 0, 0]),
        (s.vertices?.length ?? 0) / 3,
        nums(s.vertices ?? []),
      ].join(' '),
    );
  out.push(`excludes ${m.excludes.length}`);
  for (const [a, b] of m.excludes) out.push(`${a} ${b}`);
  out.push(
    m.solver
      ? `solver ${m.solver.iterations} ${num(m.solver.impratio)} ${num(m.solver.tolerance ?? 0)} ${m.solver.method ?? 'cg'} ${m.solver.cone ?? 'pyramidal'}`
      : 'solver 20 1 0 cg pyramidal',
  );
  out.push(`tendons ${m.tendons.length}`);
  for (const t of m.tendons)
    out.push(
      [
        word(t.name),
        t.joints.length,
        t.joints.join(' '),
        nums(t.coefs),
        range(t.range),
        limit(t.limit),
        num(t.frictionloss),
        num(t.stiffness),
        num(t.damping),
        nums(t.springlength),
      ].join(' '),
    );
  out.push(`actuators ${m.actuators.length}`);
  for (const a of m.actuators)
    out.push(
      [
        word(a.name),
        a.body ?? -1,
        a.tendon ?? -1,
        a.bodyTransmission ?? -1,
        a.kind,
        a.gear.length,
        nums(a.gear),
        num(a.kp ?? 0),
        num(a.kv ?? 0),
        range(a.ctrlrange),
        range(a.forcerange),
        num(a.rateLimit),
        ...generalText(a),
      ].join(' '),
    );
  const equalities = m.equalities ?? [];
  out.push(`equalities ${equalities.length}`);
  for (const e of equalities) out.push(equalityText(e));
  return out.join('\n') + '\n';
}
