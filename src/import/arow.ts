// A compiled model written as an everyday `.arow` scene (docs/scene-format.md), so an imported robot
// can be kept, read and edited as Achilles' own format. Numbers are written as their shortest
// round-trip decimals, so loading the scene gives back the same ModelDesc bit for bit (for what the
// dialect can say; the rest is listed by `unwritten`).

import type { BodyDesc, ModelDesc, ShapeDesc } from '../engine/model-desc.js';

const num = (x: number): string => (Object.is(x, -0) ? '0' : String(x));
const vec = (v: readonly number[]): string => `[${v.map(num).join(', ')}]`;
const str = (s: string): string => JSON.stringify(s);

/** What the everyday dialect cannot carry (one line each, by link): joint frictionloss, actuators. */
export function unwritten(model: ModelDesc): string[] {
  const out: string[] = [];
  for (const b of model.bodies) if (b.frictionloss !== undefined && b.frictionloss !== 0) out.push(`link '${b.name}': frictionloss`);
  if (model.actuators?.length) out.push(`${model.actuators.length} actuator(s)`);
  return out;
}

export function writeArow(model: ModelDesc, header: string[]): string {
  const L: string[] = header.map((h) => `# ${h}`);
  const w = model.world;
  L.push(`scene: ${str(model.name)}`);
  const sv = model.solver;
  const solver = sv ? `, solver: { iterations: ${sv.iterations}, impratio: ${num(sv.impratio)}${sv.tolerance !== undefined ? `, tolerance: ${num(sv.tolerance)}` : ''} }` : '';
  L.push(`world: { gravity: ${vec(w.gravity)}, dt: ${num(w.dt)}, integrator: ${w.integrator}, duration: ${num(w.duration)}, substeps: ${w.substeps}${solver} }`);
  L.push('links:');
  const shapesOf = new Map<number, ShapeDesc[]>();
  for (const s of model.shapes ?? []) shapesOf.set(s.body, [...(shapesOf.get(s.body) ?? []), s]);
  model.bodies.forEach((b, i) => {
    L.push(`  - name: ${str(b.name)}`);
    L.push(`    parent: ${b.parent < 0 ? 'world' : str(model.bodies[b.parent].name)}`);
    L.push(`    joint: ${jointYaml(b)}`);
    if (b.pos.some((x) => x !== 0)) L.push(`    pos: ${vec(b.pos)}`);
    if (b.quat.some((x, k) => x !== (k === 0 ? 1 : 0))) L.push(`    quat: ${vec(b.quat)}`);
    L.push(`    mass: ${num(b.mass)}`);
    if (b.mass > 0) {
      if (b.com.some((x) => x !== 0)) L.push(`    com: ${vec(b.com)}`);
      L.push(`    inertia: ${vec(b.inertia)}`);
    }
    if (b.joint !== 'fixed') {
      const zeroQ = b.joint === 'ball' ? b.q0.every((x, k) => x === (k === 0 ? 1 : 0)) : b.q0.every((x) => x === 0);
      if (!zeroQ || b.v0.some((x) => x !== 0)) L.push(`    initial: { position: ${vec(b.q0)}, velocity: ${vec(b.v0)} }`);
    }
    const sh = shapesOf.get(i) ?? [];
    if (sh.length) {
      L.push('    shapes:');
      for (const s of sh) L.push(`      - ${shapeYaml(s, false)}`);
    }
  });
  const statics = shapesOf.get(-1) ?? [];
  if (statics.length) {
    L.push('shapes:');
    for (const s of statics) L.push(`  - ${shapeYaml(s, true)}`);
  }
  if (model.excludes?.length) {
    const n = (i: number): string => (i < 0 ? 'world' : str(model.bodies[i].name));
    L.push(`exclude: [${model.excludes.map(([a, b]) => `[${n(a)}, ${n(b)}]`).join(', ')}]`);
  }
  if (model.tendons?.length) {
    L.push('tendons:');
    for (const t of model.tendons) {
      L.push(`  - name: ${str(t.name)}`);
      L.push(`    joints: [${t.joints.map((j) => `{ link: ${str(model.bodies[j.body].name)}, coef: ${num(j.coef)} }`).join(', ')}]`);
      if (t.range) {
        L.push(`    range: ${vec(t.range)}`);
        if (t.limit) L.push(`    limit: { solref: ${vec(t.limit.solref)}, solimp: ${vec(t.limit.solimp)}, margin: ${num(t.limit.margin)} }`);
      }
      if (t.frictionloss) L.push(`    frictionloss: ${num(t.frictionloss)}`);
      if (t.stiffness) L.push(`    stiffness: ${num(t.stiffness)}`);
      if (t.springlength) L.push(`    springlength: ${vec(t.springlength)}`);
      if (t.damping) L.push(`    damping: ${num(t.damping)}`);
    }
  }
  return `${L.join('\n')}\n`;
}

function jointYaml(b: BodyDesc): string {
  const parts = [`type: ${b.joint}`];
  if (b.joint === 'revolute' || b.joint === 'prismatic' || b.joint === 'planar') parts.push(`axis: ${vec(b.axis)}`);
  if (b.range) {
    parts.push(`range: ${vec(b.range)}`);
    if (b.limit) parts.push(`limit: { solref: ${vec(b.limit.solref)}, solimp: ${vec(b.limit.solimp)}, margin: ${num(b.limit.margin)} }`);
  }
  for (const k of ['damping', 'stiffness', 'springref', 'armature'] as const) if (b[k]) parts.push(`${k}: ${num(b[k]!)}`);
  return `{ ${parts.join(', ')} }`;
}

function shapeYaml(s: ShapeDesc, world: boolean): string {
  const parts: string[] = [];
  if (world) parts.push('link: world');
  parts.push(`type: ${s.kind}`, `name: ${str(s.name)}`);
  switch (s.kind) {
    case 'sphere':
      parts.push(`radius: ${num(s.radius)}`);
      break;
    case 'capsule':
      parts.push(`radius: ${num(s.radius)}`, `length: ${num(2 * s.halfExtents[2])}`);
      break;
    case 'box':
      parts.push(`half_extents: ${vec(s.halfExtents)}`);
      break;
    case 'rounded-box':
      parts.push(`half_extents: ${vec(s.halfExtents)}`, `radius: ${num(s.radius)}`);
      break;
    case 'plane':
      break;
  }
  if (s.pos.some((x) => x !== 0)) parts.push(`pos: ${vec(s.pos)}`);
  if (s.quat.some((x, k) => x !== (k === 0 ? 1 : 0))) parts.push(`quat: ${vec(s.quat)}`);
  if (s.friction !== 1) parts.push(`friction: ${num(s.friction)}`);
  if (s.contype !== 1) parts.push(`contype: ${s.contype}`);
  if (s.conaffinity !== 1) parts.push(`conaffinity: ${s.conaffinity}`);
  if (s.margin !== 0) parts.push(`margin: ${num(s.margin)}`);
  if (s.gap !== 0) parts.push(`gap: ${num(s.gap)}`);
  if (s.color) parts.push(`color: ${vec(s.color)}`);
  if (s.solref) parts.push(`solref: ${vec(s.solref)}`);
  if (s.solimp) parts.push(`solimp: ${vec(s.solimp)}`);
  if (s.condim !== undefined) parts.push(`condim: ${s.condim}`);
  return `{ ${parts.join(', ')} }`;
}
