// A compiled model written as an everyday `.arow` scene (docs/scene-format.md), so an imported robot
// can be kept, read and edited as Achilles' own format. Numbers are written as their shortest
// round-trip decimals, so loading the scene gives back the same ModelDesc bit for bit (for what the
// dialect can say; the rest is listed by `unwritten`).

import {
  DEFAULT_ROLLING_FRICTION,
  DEFAULT_TORSIONAL_FRICTION,
  type ActuatorDesc,
  type BodyDesc,
  type ModelDesc,
  type ShapeDesc,
  type SourceSpan,
} from '../../engine/model-desc.js';
import { projectGear } from './actuation.js';
import { SceneError } from '../common/errors.js';
import { norm3 } from '../../engine/math.js';
import type { ImportNote } from '../import/ir.js';
import { jointRefs, polycoefAbout } from './equality.js';

const num = (x: number): string => (Object.is(x, -0) ? '0' : String(x));
const vec = (v: readonly number[]): string => `[${v.map(num).join(', ')}]`;
const str = (s: string): string => JSON.stringify(s);

/** A keyframe of the source model, for the note that the .arow keeps one initial state. */
export interface KeyframeRef {
  name: string;
  source: SourceSpan;
}

/** What the everyday dialect cannot carry or changes, each at its source line: joint frictionloss,
 *  fluid forces, the keyframes other than the written initial state, an actuator order other than link order. */
export function unwritten(model: ModelDesc, keyframes: readonly KeyframeRef[] = [], chosen?: number): ImportNote[] {
  const out: ImportNote[] = [];
  const at = (s: SourceSpan | undefined): SourceSpan => s ?? { file: model.files[0] ?? model.name, line: 1, column: 1 };
  for (const b of model.bodies) {
    if (b.frictionloss)
      out.push({
        kind: 'dropped',
        source: at(b.source),
        message: `link '${b.name}': frictionloss ${b.frictionloss} is not written to the .arow (the dialect has no joint frictionloss yet; \`achilles run\` on the source file keeps it)`,
      });
  }
  if (model.fluid)
    out.push({
      kind: 'dropped',
      source: at(model.fluid.source),
      message: `fluid forces (density ${model.fluid.density}, viscosity ${model.fluid.viscosity}, wind ${vec(model.fluid.wind)}; ${model.fluid.bodies.length} bodies) are not written to the .arow (the dialect has no fluid yet; \`achilles run\` on the source file keeps them)`,
    });
  for (const s of model.shapes ?? []) {
    for (const [key, value] of [
      ['priority', s.priority],
      ['solmix', s.solmix],
    ] as const)
      if (value !== undefined)
        out.push({
          kind: 'dropped',
          source: at(s.source),
          message: `shape '${s.name}': ${key} ${value} is not written to the .arow (the dialect has no contact ${key}; \`achilles run\` on the source file keeps it)`,
        });
  }
  keyframes.forEach((k, i) => {
    if (i === chosen) return;
    const id = k.name || String(i);
    out.push({
      kind: 'dropped',
      source: k.source,
      message: `keyframe ${k.name ? `'${k.name}'` : `#${i}`} is not written to the .arow (a scene holds one initial state: here ${chosen === undefined ? 'qpos0, as MuJoCo starts' : `keyframe ${keyframes[chosen].name || chosen}`}; \`achilles import --keyframe ${id}\` writes this key instead)`,
    });
  });
  const acts = model.actuators ?? [];
  const order = arowActuatorOrder(acts);
  order.forEach((k, j) => {
    if (k !== j)
      out.push({
        kind: 'approximated',
        source: at(acts[k].source),
        message: `actuator '${acts[k].name}' becomes control ${j} (was ${k}): an .arow lists actuators link by link`,
      });
  });
  for (const a of acts) {
    if (a.tendon !== undefined || a.bodyTransmission !== undefined) continue; // refused by writeArow
    const g = arowGear(model.bodies[a.body], a.gear[0]);
    if (g.exact === false)
      out.push({
        kind: 'approximated',
        source: at(a.source),
        message: `actuator '${a.name}': gear ${a.gear[0]} reads back from the .arow as ${g.back} (the joint axis is normalised on load)`,
      });
  }
  return out;
}

/** Actuator indices in the order an .arow gives them: by link, then as listed (everyday.ts). */
function arowActuatorOrder(acts: readonly ActuatorDesc[]): number[] {
  return acts.map((_, k) => k).sort((i, j) => acts[i].body - acts[j].body || i - j);
}

/** The scalar `gear` to write so that loading projects it back onto the joint's axis as exactly `g`
 *  (actuation.ts reads gear·axis and projects it onto the normalised axis, which can move it by an ulp). */
function arowGear(b: BodyDesc, g: number): { value: number; exact: boolean; back: number } {
  const n = norm3(b.axis);
  const axis: [number, number, number] = [b.axis[0] / n, b.axis[1] / n, b.axis[2] / n];
  const back = (x: number): number => {
    const d: [number, number, number] = [x * axis[0], x * axis[1], x * axis[2]];
    return projectGear(b.joint, axis, b.joint === 'revolute' ? d : [0, 0, 0], b.joint === 'revolute' ? [0, 0, 0] : d)[0];
  };
  const s = back(1);
  for (const c of [g, g / s])
    for (let k = 0, x = c, y = c; k <= 4; k++, x = nextUp(x), y = nextDown(y))
      for (const v of [x, y]) if (back(v) === g) return { value: v, exact: true, back: g };
  return { value: g, exact: false, back: back(g) };
}

const F64 = new Float64Array(1);
const I64 = new BigInt64Array(F64.buffer);
/** The next double towards +∞ (finite, nonzero inputs: gears). */
function nextUp(x: number): number {
  F64[0] = x;
  I64[0] += x > 0 ? 1n : -1n;
  return F64[0];
}
function nextDown(x: number): number {
  F64[0] = x;
  I64[0] += x > 0 ? -1n : 1n;
  return F64[0];
}

export function writeArow(model: ModelDesc, header: string[]): string {
  // the dialect lists actuators on their joints: one pulling a tendon has no place in it yet
  const onTendon = (model.actuators ?? []).find((a) => a.tendon !== undefined);
  if (onTendon)
    throw new SceneError({
      ...(onTendon.source ?? { file: model.files[0] ?? model.name, line: 1, column: 1 }),
      subject: `actuator '${onTendon.name}'`,
      found: `a transmission through tendon '${model.tendons![onTendon.tendon!].name}', which the .arow dialect cannot write yet`,
      expected: 'actuators on joints (run the MJCF file itself: `achilles run` reads it directly)',
    });
  const onBody = (model.actuators ?? []).find((a) => a.bodyTransmission !== undefined);
  if (onBody)
    throw new SceneError({
      ...(onBody.source ?? { file: model.files[0] ?? model.name, line: 1, column: 1 }),
      subject: `actuator '${onBody.name}'`,
      found: `a transmission through body '${model.bodies[onBody.bodyTransmission!].name}' (an adhesion), which the .arow dialect cannot write yet`,
      expected: 'actuators on joints (run the MJCF file itself: `achilles run` reads it directly)',
    });
  const L: string[] = header.map((h) => `# ${h}`);
  const w = model.world;
  L.push(`scene: ${str(model.name)}`);
  const sv = model.solver;
  const solver = sv
    ? `, solver: { iterations: ${sv.iterations}, impratio: ${num(sv.impratio)}${sv.tolerance !== undefined ? `, tolerance: ${num(sv.tolerance)}` : ''}${sv.method !== undefined ? `, method: ${sv.method}` : ''}${sv.cone !== undefined ? `, cone: ${sv.cone}` : ''}${sv.noslipIterations !== undefined ? `, noslipIterations: ${sv.noslipIterations}` : ''}${sv.noslipTolerance !== undefined ? `, noslipTolerance: ${num(sv.noslipTolerance)}` : ''} }`
    : '';
  L.push(
    `world: { gravity: ${vec(w.gravity)}, dt: ${num(w.dt)}, integrator: ${w.integrator}, duration: ${num(w.duration)}, substeps: ${w.substeps}${w.multiccd === false ? ', multiccd: disable' : ''}${solver} }`,
  );
  L.push('links:');
  const shapesOf = new Map<number, ShapeDesc[]>();
  for (const s of model.shapes ?? []) shapesOf.set(s.body, [...(shapesOf.get(s.body) ?? []), s]);
  const actsOf = new Map<number, ActuatorDesc[]>();
  for (const a of model.actuators ?? []) actsOf.set(a.body, [...(actsOf.get(a.body) ?? []), a]);
  model.bodies.forEach((b, i) => {
    L.push(`  - name: ${str(b.name)}`);
    L.push(`    parent: ${b.parent < 0 ? 'world' : str(model.bodies[b.parent].name)}`);
    L.push(`    joint: ${jointYaml(b, actsOf.get(i) ?? [])}`);
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
        if (t.limit)
          L.push(`    limit: { solref: ${vec(t.limit.solref)}, solimp: ${vec(t.limit.solimp)}, margin: ${num(t.limit.margin)} }`);
      }
      if (t.frictionloss) L.push(`    frictionloss: ${num(t.frictionloss)}`);
      if (t.stiffness) L.push(`    stiffness: ${num(t.stiffness)}`);
      if (t.springlength) L.push(`    springlength: ${vec(t.springlength)}`);
      if (t.damping) L.push(`    damping: ${num(t.damping)}`);
    }
  }
  if (model.equalities?.length) {
    const n = (i: number | undefined): string => (i === undefined || i < 0 ? 'world' : str(model.bodies[i].name));
    L.push('equality:');
    for (const e of model.equalities) {
      const p = [`type: ${e.type}`, `name: ${str(e.name)}`];
      if (!e.active) p.push('active: false');
      if (e.type === 'joint') {
        p.push(`joint1: ${n(e.joint1)}`);
        if (e.joint2 !== undefined && e.joint2 >= 0) p.push(`joint2: ${n(e.joint2)}`);
        p.push(`polycoef: ${vec(polycoefAbout(e, jointRefs(e, model.bodies)))}`); // about the joints' refs, as the scene reads it
      } else {
        p.push(`body1: ${n(e.body1)}`, `body2: ${n(e.body2)}`, `anchor: ${vec(e.anchor ?? [0, 0, 0])}`);
        if (e.anchor2) p.push(`anchor2: ${vec(e.anchor2)}`);
        if (e.relpose) p.push(`relpose: ${vec(e.relpose)}`);
        if (e.type === 'weld') p.push(`torquescale: ${num(e.torquescale ?? 1)}`);
        if (e.quat2) p.push(`quat2: ${vec(e.quat2)}`);
      }
      p.push(`solref: ${vec(e.solref)}`, `solimp: ${vec(e.solimp)}`);
      L.push(`  - { ${p.join(', ')} }`);
    }
  }
  return `${L.join('\n')}\n`;
}

function jointYaml(b: BodyDesc, acts: readonly ActuatorDesc[]): string {
  const parts = [`type: ${b.joint}`];
  if (b.joint === 'revolute' || b.joint === 'prismatic' || b.joint === 'planar') parts.push(`axis: ${vec(b.axis)}`);
  if (b.range) {
    parts.push(`range: ${vec(b.range)}`);
    if (b.limit) parts.push(`limit: { solref: ${vec(b.limit.solref)}, solimp: ${vec(b.limit.solimp)}, margin: ${num(b.limit.margin)} }`);
  }
  for (const k of ['damping', 'stiffness', 'springref', 'armature', 'ref'] as const) if (b[k]) parts.push(`${k}: ${num(b[k]!)}`);
  if (b.springdamper) parts.push(`springdamper: ${vec(b.springdamper)}`);
  if (acts.length) parts.push(`actuators: [${acts.map((a) => actuatorYaml(b, a)).join(', ')}]`);
  return `{ ${parts.join(', ')} }`;
}

/** An imported actuator (hinge or slide: compile.ts refuses the others) as an everyday actuator. */
function actuatorYaml(b: BodyDesc, a: ActuatorDesc): string {
  const parts = [`name: ${str(a.name)}`, `kind: ${a.kind}`];
  const g = arowGear(b, a.gear[0]).value;
  if (g !== 1) parts.push(`gear: ${num(g)}`);
  if (a.kind === 'position') parts.push(`kp: ${num(a.kp)}`);
  if (a.kind === 'position' || a.kind === 'velocity') parts.push(`kv: ${num(a.kv)}`);
  if (a.kind === 'general' && a.general) {
    const g = a.general;
    parts.push(`dyntype: ${g.dyntype}`, `gaintype: ${g.gaintype}`, `biastype: ${g.biastype}`);
    parts.push(`dynprm: ${vec(g.dynprm)}`, `gainprm: ${vec(g.gainprm)}`, `biasprm: ${vec(g.biasprm)}`);
    if (g.actrange) parts.push(`actrange: ${vec(g.actrange)}`);
    if (g.actearly) parts.push('actearly: true');
  }
  if (a.ctrlrange) parts.push(`ctrlrange: ${vec(a.ctrlrange)}`);
  if (a.forcerange) parts.push(`forcerange: ${vec(a.forcerange)}`);
  if (a.rateLimit !== undefined) parts.push(`rate_limit: ${num(a.rateLimit)}`);
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
    case 'cylinder':
      parts.push(`radius: ${num(s.size?.[0] ?? 0)}`, `length: ${num(2 * (s.size?.[1] ?? 0))}`);
      break;
    case 'ellipsoid':
      parts.push(`radii: ${vec(s.size ?? [0, 0, 0])}`);
      break;
    case 'convex': {
      const v = s.vertices ?? [];
      parts.push(`vertices: [${Array.from({ length: v.length / 3 }, (_, i) => vec([v[3 * i], v[3 * i + 1], v[3 * i + 2]])).join(', ')}]`);
      break;
    }
  }
  if (s.pos.some((x) => x !== 0)) parts.push(`pos: ${vec(s.pos)}`);
  if (s.quat.some((x, k) => x !== (k === 0 ? 1 : 0))) parts.push(`quat: ${vec(s.quat)}`);
  if (s.torsionalFriction !== undefined || s.rollingFriction !== undefined)
    parts.push(
      `friction: ${vec([s.friction, s.torsionalFriction ?? DEFAULT_TORSIONAL_FRICTION, s.rollingFriction ?? DEFAULT_ROLLING_FRICTION])}`,
    );
  else if (s.friction !== 1) parts.push(`friction: ${num(s.friction)}`);
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
