// The scene's `sensors:` list (everyday dialect), read strictly like the rest of a scene: every key
// checked, every error at its node.
//
//   sensors:
//     - { name: enc, kind: encoder, joint: upper, noise: 0.002, drift: { sigma: 0.01, tau: 2 },
//         cutoff: 5, scale: 0.03, quantum: 0.0015, coordinate: 0 }
//     - { name: imu, kind: imu, body: lower, pos: [0, 1, 0], gyro_noise: 0.01, accel_noise: 0.05 }
//     - { name: cam, kind: camera, body: lower, pos: [0, 1, 0], rate: 30, latency: 0.05, noise: 0.002 }

import { isSeq } from 'yaml';
import { JOINT_NQ, type BodyDesc, type SensorDesc, type Vec3 } from '../../engine/model-desc.js';
import { didYouMean } from '../common/errors.js';
import {
  checkKeys,
  describe,
  entries,
  readEnum,
  readInt,
  readNumber,
  readPositive,
  readString,
  readVec,
  type Ctx,
  type YNode,
} from './yaml-read.js';

export const SENSOR_KINDS = ['encoder', 'imu', 'camera'] as const;
const KEYS = {
  encoder: ['name', 'kind', 'joint', 'coordinate', 'noise', 'drift', 'cutoff', 'scale', 'quantum'],
  imu: ['name', 'kind', 'body', 'pos', 'gyro_noise', 'accel_noise'],
  camera: ['name', 'kind', 'body', 'pos', 'rate', 'latency', 'noise'],
} as const;

/** A number >= 0 (0 turns the effect off). */
function readNonNegative(ctx: Ctx, node: YNode, subject: string): number {
  const v = readNumber(ctx, node, subject);
  if (!(v >= 0)) ctx.fail(node, subject, `${v}`, 'a number >= 0');
  return v;
}

/** `dt`: the scene's step (after any --config), against which a camera's rate is checked; a
 *  --dt given at run time is checked again where the sensors are built (bank.ts). */
/** The step rate 1/dt, as a short number. */
export function stepRate(dt: number): string {
  return String(Number((1 / dt).toPrecision(12)));
}

/** "found" for a camera faster than the step rate. */
export function cameraTooFast(rate: number, dt: number): string {
  return `${rate} Hz, faster than the step rate ${stepRate(dt)} Hz (dt ${dt} s)`;
}

export function readSensors(ctx: Ctx, node: YNode, bodies: readonly BodyDesc[], dt: number): SensorDesc[] {
  if (!isSeq(node))
    ctx.fail(node, 'sensors', describe(node), 'a list of sensors, e.g. - { name: enc, kind: encoder, joint: upper, noise: 0.001 }');
  const index = new Map(bodies.map((b, i) => [b.name, i]));
  const names = new Set<string>();
  return node.items.map((item, i) => {
    let subject = `sensors[${i}]`;
    const m = entries(ctx, item as YNode, subject);
    const nameE = m.get('name');
    if (nameE) subject = `sensors[${i}] (${readString(ctx, nameE.value, `${subject}.name`)})`;
    const kindE = m.get('kind');
    if (!kindE)
      ctx.fail(
        item as YNode,
        subject,
        'no `kind` key',
        `a required \`kind\` key: one of ${SENSOR_KINDS.map((k) => `\`${k}\``).join(', ')}`,
      );
    const kind = readEnum(ctx, kindE.value, `${subject}.kind`, SENSOR_KINDS);
    checkKeys(
      ctx,
      item as YNode,
      m,
      subject,
      KEYS[kind],
      kind === 'encoder' ? ['name', 'joint'] : kind === 'camera' ? ['name', 'body', 'rate'] : ['name', 'body'],
    );
    const name = readString(ctx, nameE?.value, `${subject}.name`);
    if (names.has(name)) ctx.fail(nameE?.value, `${subject}.name`, `the name \`${name}\` again`, 'a name no other sensor has');
    names.add(name);
    const at = (key: 'joint' | 'body'): number => {
      const e = m.get(key)!;
      const link = readString(ctx, e.value, `${subject}.${key}`);
      const b = index.get(link);
      if (b === undefined)
        throw ctx.error(
          e.value,
          `${subject}.${key}`,
          `\`${link}\`, which is not a link of this scene`,
          'the name of a link',
          didYouMean(link, [...index.keys()]),
        );
      return b;
    };
    const num = (key: string, dflt: number, read = readNonNegative): number => {
      const e = m.get(key);
      return e ? read(ctx, e.value, `${subject}.${key}`) : dflt;
    };
    const pos = (): Vec3 => (m.has('pos') ? (readVec(ctx, m.get('pos')!.value, `${subject}.pos`, 3) as Vec3) : [0, 0, 0]);
    const { line, column } = ctx.pos(item as YNode);
    const source = { file: ctx.file, line, column };
    if (kind === 'encoder') {
      const body = at('joint');
      const nq = JOINT_NQ[bodies[body].joint];
      if (nq === 0)
        ctx.fail(m.get('joint')!.value, `${subject}.joint`, `\`${bodies[body].name}\`, a fixed joint`, 'a joint with a position to read');
      const coordinate = m.has('coordinate') ? readInt(ctx, m.get('coordinate')!.value, `${subject}.coordinate`, 0) : 0;
      if (coordinate >= nq)
        ctx.fail(
          m.get('coordinate')!.value,
          `${subject}.coordinate`,
          `${coordinate}`,
          `a coordinate of \`${bodies[body].name}\`: 0 to ${nq - 1}`,
        );
      let drift: { sigma: number; tau: number } | undefined;
      const dE = m.get('drift');
      if (dE) {
        const d = entries(ctx, dE.value, `${subject}.drift`);
        checkKeys(ctx, dE.value, d, `${subject}.drift`, ['sigma', 'tau'], ['sigma', 'tau']);
        drift = {
          sigma: readNonNegative(ctx, d.get('sigma')!.value, `${subject}.drift.sigma`),
          tau: readPositive(ctx, d.get('tau')!.value, `${subject}.drift.tau`),
        };
      }
      const scale = m.has('scale') ? readNumber(ctx, m.get('scale')!.value, `${subject}.scale`) : 0;
      if (!(scale > -1))
        ctx.fail(m.get('scale')!.value, `${subject}.scale`, `${scale}`, 'a scale-factor error > -1 (reading = (1 + scale)·q)');
      const s: SensorDesc = { kind, name, body, coordinate, noise: num('noise', 0), scale, quantum: num('quantum', 0), source };
      if (drift) s.drift = drift;
      if (m.has('cutoff')) s.cutoff = num('cutoff', 0, readPositive);
      return s;
    }
    if (kind === 'imu')
      return { kind, name, body: at('body'), pos: pos(), gyroNoise: num('gyro_noise', 0), accelNoise: num('accel_noise', 0), source };
    const rate = num('rate', 0, readPositive);
    // At most one frame a step: a faster camera would need frames between steps, which never exist.
    if (!(1 / (rate * dt) >= 1))
      ctx.fail(
        m.get('rate')!.value,
        `${subject}.rate`,
        cameraTooFast(rate, dt),
        `a rate of at most ${stepRate(dt)} Hz (one frame per step)`,
      );
    return { kind, name, body: at('body'), pos: pos(), rate, latency: num('latency', 0), noise: num('noise', 0), source };
  });
}
