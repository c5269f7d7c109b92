// MJCF <replicate count offset euler sep childclass>: its children copied `count` times, each copy
// placed by a frame (XML reference, "replicate"; xml_native_reader.cc, mjXReader::Body, which reads
// the children once and self-attaches them count times with mjs_attach). Copy i sits at
//   quat_i = the rotation of euler·i (compiler angle and eulerseq), pos_0 = 0,
//   pos_{i+1} = pos_i + quat_i·offset (each offset in the previous copy's frame),
// composed onto any enclosing frame. Every name in copy i gets the suffix sep + i, i written with as
// many digits as `count` has (count 10: 00 … 09); nested replicates append the innermost suffix
// first. Copies come in order, each one whole (a body's joints and geoms keep document order).
//
// What mjs_attach does beyond this is refused, not approximated (checked against MuJoCo 3.14):
// - elements that name something inside a replicate by its name before the suffix (an actuator's
//   joint, a tendon's joint, a contact exclude's body): MuJoCo copies and renames those as well
//   ("all referencing elements are automatically replicated"), and 3.14 fails doing so for actuators;
// - keyframes in a model with a replicate: MuJoCo copies each key once per replica (key "k"
//   becomes k0, k1, ..., k) and checks them against a partly built model;
// - an <inertial> of the enclosing body inside a replicate (MuJoCo drops it silently), and a
//   <freejoint> there (MuJoCo's schema: "the replicate expansion rejects them").

import { quote, printable } from '../../common/errors.js';
import { quatRotate } from '../../../engine/math.js';
import { eulerQuat } from '../frames.js';
import type { Reader } from '../read-attrs.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import { angle } from './compiler.js';
import { sections, vec3, type MjcfContext } from './context.js';
import { checkClass } from './defaults.js';
import { compose, type Placement, type Pose } from './frame.js';

/** At most this many copies of one element in all (count, times the counts of enclosing replicates). */
export const MAX_REPLICAS = 100_000;

/** The placement of each copy a <replicate> makes of its children, in order. */
export function replicaPlacements(ctx: MjcfContext, el: XmlElement, outer: Placement): Placement[] {
  const r: Reader = ctx.r;
  const countA = el.attrs.get('count');
  if (!countA) r.fail(el, '<replicate>', 'no count', 'count="N", the number of copies (MuJoCo: "required attribute missing: \'count\'")');
  if (!/^\s*[+-]?\d+\s*$/.test(countA.value)) r.fail(countA, '<replicate> count', quote(countA.value), 'a whole number');
  const count = Number(countA.value);
  if (count < 1) r.fail(countA, '<replicate> count', String(count), 'a positive number of copies (MuJoCo: "Must be positive")');
  if (count * outer.copies > MAX_REPLICAS)
    r.fail(
      countA,
      '<replicate> count',
      `${count}${outer.copies > 1 ? ` copies inside ${outer.copies} copies` : ''}`,
      `at most ${MAX_REPLICAS} copies of an element in all`,
    );
  const offsetA = el.attrs.get('offset');
  const offset = vec3(ctx, offsetA, '<replicate> offset', [0, 0, 0]);
  const eulerA = el.attrs.get('euler');
  const euler = eulerA ? r.nums(eulerA, '<replicate> euler', 3) : [0, 0, 0];
  const sep = el.attrs.get('sep')?.value ?? '';
  const cc = el.attrs.get('childclass');
  if (cc) checkClass(ctx, cc, '<replicate> childclass');
  ctx.replicates.first ??= el;
  const digits = String(count).length;
  const copies: Placement[] = [];
  let pos = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    // MuJoCo resolves each copy's rotation from euler·i afresh ("to increase precision")
    const turn = euler.map((e) => angle(ctx.compiler, i * e));
    const quat = eulerQuat(turn, ctx.compiler.eulerseq);
    // euler·i overflows for a large enough euler (MuJoCo then places the copy at NaN, silently)
    if (!quat.every(Number.isFinite))
      r.fail(
        eulerA!,
        '<replicate> euler',
        `copy ${i}'s rotation euler·${i} = [${euler.map((e) => i * e).join(', ')}]`,
        'angles whose multiples up to count − 1 stay finite',
      );
    const pose: Pose = { pos: [pos[0], pos[1], pos[2]], quat };
    copies.push({
      frame: compose(outer.frame, pose),
      childclass: cc?.value ?? outer.childclass,
      suffix: sep + String(i).padStart(digits, '0') + outer.suffix,
      replicate: el,
      copiedBy: el,
      copies: count * outer.copies,
    });
    const step = quatRotate(quat, offset as [number, number, number]);
    pos = [pos[0] + step[0], pos[1] + step[1], pos[2] + step[2]];
    // the offsets add up copy by copy (MuJoCo then places the later copies at infinity, silently)
    if (i + 1 < count && !pos.every(Number.isFinite))
      r.fail(
        offsetA!,
        '<replicate> offset',
        `copy ${i + 1} at [${pos.join(', ')}] (${i + 1} offsets added up)`,
        'offsets whose sum over the copies stays finite',
      );
  }
  return copies;
}

/** Remembers that the element named `name` (a body or joint) came from a replicate, under its name
 *  before the suffix, so that a reference by that name is refused (refuseReplicatedReferences). */
export function noteReplicatedName(ctx: MjcfContext, kind: 'body' | 'joint' | 'site', name: string, placement: Placement): void {
  if (placement.copiedBy) ctx.replicates.names.set(`${kind}:${name}`, placement.copiedBy);
}

/** Refuses what MuJoCo's replicate would copy besides the tree (see the top of this file). Runs
 *  once the bodies are read, before the elements that name bodies and joints. */
export function refuseReplicatedReferences(ctx: MjcfContext): void {
  const rep = ctx.replicates.first;
  if (!rep) return;
  const r: Reader = ctx.r;
  const bodies = new Set(ctx.ir.bodies.map((b) => b.name));
  const joints = new Set(ctx.ir.bodies.flatMap((b) => b.joints.map((j) => j.name)));
  const sites = new Set([...(ctx.ir.worldSites ?? []), ...ctx.ir.bodies.flatMap((b) => b.sites ?? [])].map((s) => s.name));
  const check = (a: XmlAttr | undefined, kind: 'body' | 'joint' | 'site', what: string): void => {
    if (!a || (kind === 'body' ? bodies : kind === 'joint' ? joints : sites).has(a.value)) return;
    const from = ctx.replicates.names.get(`${kind}:${a.value}`);
    if (from)
      r.fail(
        a,
        what,
        `${kind} ${quote(a.value)}, which is inside the <replicate> at ${printable(r.span(from).file)}:${from.line}:${from.column} (MuJoCo copies and renames the referring element once per copy; not supported)`,
        `the name of one copy (${kind} ${quote(a.value)} with its suffix), or the element written out per copy`,
      );
  };
  for (const s of sections(ctx, 'actuator'))
    for (const a of s.children) for (const n of ['joint', 'jointinparent']) check(a.attrs.get(n), 'joint', `<${a.name}> ${n}`);
  for (const s of sections(ctx, 'tendon'))
    for (const t of s.children) for (const j of t.children) check(j.attrs.get('joint'), 'joint', `<${t.name}> <joint> joint`);
  for (const s of sections(ctx, 'contact'))
    for (const e of s.children) for (const n of ['body1', 'body2']) check(e.attrs.get(n), 'body', `<${e.name}> ${n}`);
  for (const s of sections(ctx, 'equality'))
    for (const e of s.children) {
      for (const n of ['body1', 'body2']) check(e.attrs.get(n), 'body', `<${e.name}> ${n}`);
      for (const n of ['joint1', 'joint2']) check(e.attrs.get(n), 'joint', `<${e.name}> ${n}`);
      for (const n of ['site1', 'site2']) check(e.attrs.get(n), 'site', `<${e.name}> ${n}`);
    }
  for (const s of sections(ctx, 'keyframe'))
    for (const k of s.children)
      r.fail(
        k,
        '<key>',
        `a keyframe in a model with a <replicate> (at ${printable(r.span(rep).file)}:${rep.line}:${rep.column})`,
        'no keyframes with replicate (MuJoCo copies each key once per replica, key "k" becoming k0, k1, ..., k; not supported)',
      );
}
