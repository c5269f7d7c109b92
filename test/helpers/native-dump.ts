// A model in the plain text form the native test executables read (native/tests/model_text.hpp):
// the same numbers `toNativeModel` hands the addon, so C++-only tools (the sanitizer build) run
// the bundled scenes without a JSON parser.
import type { ModelDesc } from '../../src/engine/model-desc.js';
import { toNativeModel } from '../../src/engine/batch.js';

interface NativeBody { name: string; joint: string; parent: number; pos: number[]; quat: number[]; axis: number[]; u: number[]; w: number[]; mass: number; com: number[]; inertia: number[]; q0: number[]; v0: number[]; tau: number[] }
interface NativeShape { name: string; body: number; kind: string; halfExtents: number[]; radius: number; pos: number[]; quat: number[]; friction: number; contype: number; conaffinity: number; margin: number; gap: number }

const num = (x: number) => (Number.isFinite(x) ? x.toPrecision(17) : String(x));
const nums = (a: readonly number[]) => a.map(num).join(' ');
const word = (s: string) => s.replace(/\s+/g, '_') || '_';

export function modelText(model: ModelDesc): string {
  const m = toNativeModel(model) as { gravity: number[]; bodies: NativeBody[]; shapes: NativeShape[]; excludes: [number, number][] };
  const out = ['achilles-model 1', `gravity ${nums(m.gravity)}`, `bodies ${m.bodies.length}`];
  for (const b of m.bodies)
    out.push([word(b.name), b.joint, b.parent, nums(b.pos), nums(b.quat), nums(b.axis), nums(b.u), nums(b.w), num(b.mass), nums(b.com), nums(b.inertia),
      b.q0.length, nums(b.q0), b.v0.length, nums(b.v0), b.tau.length, nums(b.tau)].join(' '));
  out.push(`shapes ${m.shapes.length}`);
  for (const s of m.shapes)
    out.push([word(s.name), s.body, s.kind, nums(s.halfExtents), num(s.radius), nums(s.pos), nums(s.quat), num(s.friction), s.contype, s.conaffinity, num(s.margin), num(s.gap)].join(' '));
  out.push(`excludes ${m.excludes.length}`);
  for (const [a, b] of m.excludes) out.push(`${a} ${b}`);
  return out.join('\n') + '\n';
}
