// Scene keys for forces on joints (the `actuators` branch): passive parameters and actuators on a
// link's `joint:` mapping, and the scene's `controller:`.
//
//   joint: { type: revolute, axis: [0, 0, 1], damping: 0.5, stiffness: 2, springref: 0.1, armature: 0.01,
//            actuators: [{ name: elbow, kind: position, kp: 50, kv: 2, ctrlrange: [-1, 1], rate_limit: 3 }] }
//   springdamper: [timeconst, dampratio] (MuJoCo's, revolute/prismatic): the stiffness and damping made
//   from the joint's inertia at qpos0, in place of `stiffness` and `damping`
//   (kind: general takes MuJoCo's general actuator keys instead of kp/kv: general-actuator.ts)
//   controller: ctrl.ts                       # a module next to the scene, or the built-in PD:
//   controller: { pd: [{ actuator: elbow, kp: 100, kd: 5, target: { sine: { amplitude: 0.5, frequency: 1 } } }], rate: 100 }
//
// An actuator's direction is a torque and/or force in the joint frame (`torque: [x,y,z]`,
// `force: [x,y,z]`; default: along a hinge's or slide's axis, scaled by `gear`), projected once,
// here, onto the joint's free axes: that projection is the gear the engine applies.

import { dirname, resolve } from 'node:path';
import { isSeq, isScalar } from 'yaml';
import type { ActuatorDesc, BodyDesc, JointType, Vec3 } from '../../engine/model-desc.js';
import { planarFrame } from '../../engine/model-desc.js';
import type { ControllerSpec, PdTermSpec, TargetSpec } from '../../engine/controller-spec.js';
import { readControlFile } from '../common/control-file.js';
import { didYouMean, SceneError } from '../common/errors.js';
import { GENERAL_KEYS, readGeneral } from './general-actuator.js';
import { checkKeys, entries, readEnum, readNumber, readString, readVec, type Ctx, type YNode } from './yaml-read.js';

export const JOINT_FORCE_KEYS = ['damping', 'stiffness', 'springref', 'armature', 'springdamper', 'ref', 'actuators'] as const;
const ACTUATOR_KEYS = [
  'name',
  'kind',
  'torque',
  'force',
  'gear',
  'kp',
  'kv',
  'ctrlrange',
  'forcerange',
  'rate_limit',
  ...GENERAL_KEYS,
] as const;
const KINDS = ['motor', 'position', 'velocity', 'general'] as const;

export type ActuatorDraft = Omit<ActuatorDesc, 'body'> & { link: string };

const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** The gear: direction [torque; force] (in J) projected onto the joint's free axes (length nv). */
export function projectGear(joint: JointType, axis: Vec3, torque: Vec3, force: Vec3): number[] {
  switch (joint) {
    case 'revolute':
      return [dot(torque, axis)];
    case 'prismatic':
      return [dot(force, axis)];
    case 'ball':
      return [...torque];
    case 'planar': {
      const { u, w } = planarFrame(axis);
      return [dot(force, u), dot(force, w), dot(torque, axis)];
    }
    case 'free':
      return [...force, ...torque]; // v = [v_W; ω_B]: the force along the world axes, the torque about the body's
    case 'fixed':
      return [];
  }
}

function nonNegative(ctx: Ctx, node: YNode, subject: string): number {
  const x = readNumber(ctx, node, subject);
  if (!(x >= 0)) ctx.fail(node, subject, `${x}`, 'a number >= 0');
  return x;
}

function readRange(ctx: Ctx, node: YNode, subject: string): [number, number] {
  const r = readVec(ctx, node, subject, 2);
  if (!(r[0] <= r[1])) ctx.fail(node, subject, `[${r.join(', ')}]`, '[lower, upper] with lower <= upper');
  return [r[0], r[1]];
}

/** Passive parameters and actuators of one link's joint mapping. */
export function readJointForces(
  ctx: Ctx,
  node: YNode,
  subject: string,
  link: string,
  joint: JointType,
  axis: Vec3,
): { passive: Pick<BodyDesc, 'damping' | 'stiffness' | 'springref' | 'armature' | 'springdamper' | 'ref'>; actuators: ActuatorDraft[] } {
  const passive: Pick<BodyDesc, 'damping' | 'stiffness' | 'springref' | 'armature' | 'springdamper' | 'ref'> = {};
  if (node === undefined) return { passive, actuators: [] };
  const m = entries(ctx, node, subject);
  const oneDof = joint === 'revolute' || joint === 'prismatic';
  for (const k of ['damping', 'stiffness', 'springref', 'armature'] as const) {
    const e = m.get(k);
    if (!e) continue;
    if (joint === 'fixed')
      ctx.fail(e.keyNode, `${subject}.${k}`, `\`${k}\` on a fixed joint`, 'no passive forces on a fixed joint (it has no coordinates)');
    if ((k === 'stiffness' || k === 'springref') && !oneDof)
      ctx.fail(e.keyNode, `${subject}.${k}`, `\`${k}\` on a ${joint} joint`, 'springs on revolute and prismatic joints only');
    passive[k] = k === 'springref' ? readNumber(ctx, e.value, `${subject}.${k}`) : nonNegative(ctx, e.value, `${subject}.${k}`);
  }
  // MuJoCo's springdamper [timeconst, dampratio]: the engine makes stiffness and damping from it at qpos0
  const sdE = m.get('springdamper');
  if (sdE) {
    const where = `${subject}.springdamper`;
    if (!oneDof) ctx.fail(sdE.keyNode, where, `\`springdamper\` on a ${joint} joint`, 'springs on revolute and prismatic joints only');
    const sd = readVec(ctx, sdE.value, where, 2);
    if (!(sd[0] > 0 && sd[1] > 0)) ctx.fail(sdE.value, where, `[${sd.join(', ')}]`, '[timeconst, dampratio], both > 0');
    passive.springdamper = [sd[0], sd[1]];
  }
  // MuJoCo's joint ref (qpos0 of a hinge or slide: where the constraint rows' inverse weights are made)
  const rE = m.get('ref');
  if (rE) {
    if (!oneDof) ctx.fail(rE.keyNode, `${subject}.ref`, `\`ref\` on a ${joint} joint`, 'a ref on revolute and prismatic joints only');
    const r = readNumber(ctx, rE.value, `${subject}.ref`);
    if (r !== 0) passive.ref = r;
  }
  const actuators: ActuatorDraft[] = [];
  const aE = m.get('actuators');
  if (aE) {
    if (!isSeq(aE.value)) ctx.fail(aE.value, `${subject}.actuators`, 'not a list', 'a list of actuators');
    aE.value.items.forEach((n, i) => actuators.push(readActuator(ctx, n as YNode, `${subject}.actuators[${i}]`, link, joint, axis, i)));
  }
  return { passive, actuators };
}

function readActuator(ctx: Ctx, node: YNode, subject: string, link: string, joint: JointType, axis: Vec3, i: number): ActuatorDraft {
  const m = entries(ctx, node, subject);
  checkKeys(ctx, node, m, subject, ACTUATOR_KEYS, ['kind']);
  const kind = readEnum(ctx, m.get('kind')?.value, `${subject}.kind`, KINDS);
  const name = m.has('name') ? readString(ctx, m.get('name')?.value, `${subject}.name`) : `${link}/${kind}${i}`;
  if (joint === 'fixed') ctx.fail(node, subject, 'an actuator on a fixed joint', 'actuators on joints that move');
  const oneDof = joint === 'revolute' || joint === 'prismatic';
  if (kind !== 'general')
    for (const k of GENERAL_KEYS) {
      const e = m.get(k);
      if (e)
        ctx.fail(e.keyNode, `${subject}.${k}`, `\`${k}\` on a ${kind} actuator`, "MuJoCo's general-actuator keys on `kind: general` only");
    }
  if (kind !== 'motor' && !oneDof)
    ctx.fail(
      m.get('kind')?.value,
      `${subject}.kind`,
      `a ${kind} ${kind === 'general' ? 'actuator' : 'servo'} on a ${joint} joint`,
      'servos on revolute and prismatic joints (a motor drives any joint)',
    );
  const zero: Vec3 = [0, 0, 0];
  const tE = m.get('torque');
  const fE = m.get('force');
  let torque = tE ? (readVec(ctx, tE.value, `${subject}.torque`, 3) as Vec3) : zero;
  let force = fE ? (readVec(ctx, fE.value, `${subject}.force`, 3) as Vec3) : zero;
  const gE = m.get('gear');
  if (gE && (tE || fE))
    ctx.fail(
      gE.keyNode,
      `${subject}.gear`,
      '`gear` together with `torque`/`force`',
      'either a direction (`torque`, `force`) or a scalar `gear` along the axis',
    );
  if (!tE && !fE) {
    if (!oneDof)
      ctx.fail(node, subject, `no direction on a ${joint} joint`, 'a `torque: [x, y, z]` and/or `force: [x, y, z]` in the joint frame');
    const g = gE ? readNumber(ctx, gE.value, `${subject}.gear`) : 1;
    const d: Vec3 = [g * axis[0], g * axis[1], g * axis[2]];
    if (joint === 'revolute') torque = d;
    else force = d;
  }
  const gear = projectGear(joint, axis, torque, force);
  if (gear.every((x) => x === 0))
    ctx.fail(
      tE?.value ?? fE?.value ?? gE?.value ?? node,
      subject,
      "a direction with no component along the joint's free axes",
      `a torque/force with a part the ${joint} joint can move along`,
    );
  const a: ActuatorDraft = { link, name, kind, gear, direction: [...torque, ...force], kp: 0, kv: 0 };
  const num = (k: string) => (m.has(k) ? nonNegative(ctx, m.get(k)?.value, `${subject}.${k}`) : undefined);
  const kp = num('kp');
  const kv = num('kv');
  if (kind === 'motor' && (kp !== undefined || kv !== undefined))
    ctx.fail(
      m.get(kp !== undefined ? 'kp' : 'kv')?.keyNode,
      subject,
      '`kp`/`kv` on a motor',
      'gains on position (kp, kv) and velocity (kv) servos only',
    );
  if (kind === 'general' && (kp !== undefined || kv !== undefined))
    ctx.fail(
      m.get(kp !== undefined ? 'kp' : 'kv')?.keyNode,
      subject,
      '`kp`/`kv` on a general actuator',
      "its gains as `gainprm` and `biasprm` (MuJoCo's position servo: gainprm: [kp], biasprm: [0, -kp, -kv])",
    );
  if (kind === 'velocity' && kp !== undefined)
    ctx.fail(m.get('kp')?.keyNode, subject, '`kp` on a velocity servo', 'kv only (a velocity servo has no position gain)');
  if (kind === 'position' && kp === undefined) ctx.fail(node, subject, 'a position servo without `kp`', 'a `kp` (and optionally `kv`)');
  if (kind === 'velocity' && kv === undefined) ctx.fail(node, subject, 'a velocity servo without `kv`', 'a `kv`');
  a.kp = kp ?? 0;
  a.kv = kv ?? 0;
  if (kind === 'general') a.general = readGeneral(ctx, m, subject);
  if (m.has('ctrlrange')) a.ctrlrange = readRange(ctx, m.get('ctrlrange')?.value, `${subject}.ctrlrange`);
  if (m.has('forcerange')) a.forcerange = readRange(ctx, m.get('forcerange')?.value, `${subject}.forcerange`);
  const rE = m.get('rate_limit');
  if (rE) {
    if (kind === 'motor' || kind === 'general')
      ctx.fail(
        rE.keyNode,
        `${subject}.rate_limit`,
        kind === 'motor' ? 'a rate limit on a motor' : 'a rate limit on a general actuator',
        'rate limits on servos (position, velocity)',
      );
    a.rateLimit = readNumber(ctx, rE.value, `${subject}.rate_limit`);
    if (!(a.rateLimit > 0)) ctx.fail(rE.value, `${subject}.rate_limit`, `${a.rateLimit}`, 'a rate > 0 (control units per second)');
  }
  const { line, column } = ctx.pos(node);
  a.source = { file: ctx.file, line, column };
  return a;
}

/** Drafts → ActuatorDesc (body indices after assembly); names unique. */
export function resolveActuators(ctx: Ctx, drafts: ActuatorDraft[], bodies: BodyDesc[]): ActuatorDesc[] {
  const seen = new Map<string, ActuatorDraft>();
  return drafts.map(({ link, ...a }) => {
    const prev = seen.get(a.name);
    if (prev) {
      const at = a.source ?? { file: ctx.file, line: 1, column: 1 };
      throw new SceneError({
        ...at,
        subject: `actuator ${a.name}`,
        found: `the name \`${a.name}\` again (first used at line ${prev.source?.line})`,
        expected: 'a unique actuator name',
      });
    }
    seen.set(a.name, { link, ...a });
    return { ...a, body: bodies.findIndex((b) => b.name === link) };
  });
}

/** `controller:` a module path (string) or `{ pd: [...], rate }`. */
export function readController(ctx: Ctx, node: YNode, actuators: readonly ActuatorDesc[]): ControllerSpec {
  const here = dirname(ctx.file);
  // A controller writes controls: without actuators it could change nothing, so it is a mistake.
  if (actuators.length === 0)
    ctx.fail(
      node,
      'controller',
      'a controller on a scene without actuators',
      'actuators on the joints for it to drive (`joint: { actuators: [...] }`), or no `controller:`',
    );
  if (isScalar(node) && typeof node.value === 'string') {
    const path = node.value;
    if (!/\.(ts|js|mjs|mts)$/.test(path)) ctx.fail(node, 'controller', `\`${path}\``, 'a .ts or .js module (or `{ pd: [...] }`)');
    const file = resolve(here, path);
    // Checked now, at its line, not when the run gets to loading it (after building the batch).
    // Only checked: the module runs only when the user allows it (src/control/load.ts).
    const r = readControlFile(file, 'a .ts or .js controller module');
    if ('problem' in r) ctx.fail(node, 'controller', `\`${path}\`: ${r.problem.found}`, r.problem.expected);
    return { kind: 'module', path: file };
  }
  const m = entries(ctx, node, 'controller');
  checkKeys(ctx, node, m, 'controller', ['pd', 'rate'], ['pd']);
  const pdNode = m.get('pd')?.value;
  if (!isSeq(pdNode) || pdNode.items.length === 0)
    ctx.fail(pdNode, 'controller.pd', 'not a non-empty list', 'a list of { actuator, kp, kd, target }');
  const names = actuators.map((a) => a.name);
  const terms: PdTermSpec[] = pdNode.items.map((n, i) => {
    const s = `controller.pd[${i}]`;
    const t = entries(ctx, n as YNode, s);
    checkKeys(ctx, n as YNode, t, s, ['actuator', 'kp', 'kd', 'target'], ['actuator', 'target']);
    const an = t.get('actuator')?.value;
    const name = readString(ctx, an, `${s}.actuator`);
    const index = names.indexOf(name);
    if (index < 0)
      throw ctx.error(an, `${s}.actuator`, `\`${name}\`, which no joint declares`, 'the name of an actuator', didYouMean(name, names));
    const kind = actuators[index].kind;
    if (kind === 'velocity' || kind === 'general')
      ctx.fail(
        an,
        `${s}.actuator`,
        `${kind === 'velocity' ? 'velocity servo' : 'general actuator'} \`${name}\``,
        'a motor (PD law) or a position servo (target as its control)',
      );
    const num = (k: string) => (t.has(k) ? nonNegative(ctx, t.get(k)?.value, `${s}.${k}`) : 0);
    if (kind === 'motor' && !t.has('kp')) ctx.fail(n as YNode, s, 'a PD term on a motor without `kp`', 'a `kp` (and optionally `kd`)');
    return { actuator: index, kp: num('kp'), kd: num('kd'), target: readTarget(ctx, t.get('target')?.value, `${s}.target`, here) };
  });
  const spec: ControllerSpec = { kind: 'pd', terms };
  const rE = m.get('rate');
  if (rE) {
    spec.rate = readNumber(ctx, rE.value, 'controller.rate');
    if (!(spec.rate > 0)) ctx.fail(rE.value, 'controller.rate', `${spec.rate}`, 'a rate in Hz > 0');
  }
  return spec;
}

function readTarget(ctx: Ctx, node: YNode, subject: string, here: string): TargetSpec {
  if (isScalar(node) && typeof node.value === 'number') return { kind: 'constant', value: node.value };
  const m = entries(ctx, node, subject);
  checkKeys(ctx, node, m, subject, ['sine', 'csv']);
  if (m.size !== 1)
    ctx.fail(
      node,
      subject,
      m.size === 0 ? 'no target' : 'both `sine` and `csv`',
      'a number, `{ sine: {...} }` or `{ csv: { file, column } }`',
    );
  const sE = m.get('sine');
  if (sE) {
    const s = entries(ctx, sE.value, `${subject}.sine`);
    checkKeys(ctx, sE.value, s, `${subject}.sine`, ['amplitude', 'frequency', 'phase', 'offset'], ['amplitude', 'frequency']);
    const n = (k: string) => (s.has(k) ? readNumber(ctx, s.get(k)?.value, `${subject}.sine.${k}`) : 0);
    return { kind: 'sine', amplitude: n('amplitude'), frequency: n('frequency'), phase: n('phase'), offset: n('offset') };
  }
  const cE = m.get('csv');
  const c = entries(ctx, cE?.value, `${subject}.csv`);
  checkKeys(ctx, cE?.value, c, `${subject}.csv`, ['file', 'column'], ['file', 'column']);
  const fileNode = c.get('file')?.value;
  const file = resolve(here, readString(ctx, fileNode, `${subject}.csv.file`));
  const column = readString(ctx, c.get('column')?.value, `${subject}.csv.column`);
  const r = readControlFile(file, 'a CSV file with a `time` column');
  if ('problem' in r) throw ctx.error(fileNode, `${subject}.csv.file`, `${file}: ${r.problem.found}`, r.problem.expected);
  const table = parseTargetCsv(r.text, column);
  if (typeof table === 'string')
    throw ctx.error(
      fileNode,
      `${subject}.csv`,
      `${file}: ${table}`,
      `a header line naming \`time\` and \`${column}\` (comma-separated), then rows of numbers with increasing time`,
    );
  return { kind: 'table', file, column, ...table };
}

/** A CSV of targets: header row with `time` and the column; rows of numbers, time increasing. */
export function parseTargetCsv(text: string, column: string): { times: number[]; values: number[] } | string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.startsWith('#'));
  if (lines.length < 2) return 'fewer than one row below the header';
  const header = lines[0].split(',').map((h) => h.trim());
  const ti = header.indexOf('time');
  const ci = header.indexOf(column);
  // The header is not echoed: the file may be any file the scene names (/etc/passwd, say), and an
  // error must not print another file's content.
  if (ti < 0) return 'no `time` column in its header line';
  if (ci < 0) return `no column \`${column}\` in its header line`;
  const times: number[] = [];
  const values: number[] = [];
  for (let r = 1; r < lines.length; r++) {
    const cells = lines[r].split(',');
    const t = Number(cells[ti]);
    const v = Number(cells[ci]);
    if (!Number.isFinite(t) || !Number.isFinite(v)) return `row ${r + 1}: a cell that is not a finite number`;
    if (times.length && !(t > times[times.length - 1])) return `row ${r + 1}: time ${t} does not increase`;
    times.push(t);
    values.push(v);
  }
  return { times, values };
}
