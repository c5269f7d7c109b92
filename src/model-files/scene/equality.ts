// Equality constraints in the everyday dialect (docs/scene-format.md, "Equality constraints"):
// MuJoCo's <equality> with its element and attribute names, links named as bodies and joints:
//
//   equality:
//     - { type: connect, name: loop, body1: coupler, body2: rocker, anchor: [0.4, 0, 0] }
//     - { type: weld, name: glue, body1: a, body2: b, torquescale: 1 }    # relpose from the reference pose (q = ref)
//     - { type: joint, name: fingers, joint1: left, joint2: right, polycoef: [0, -1, 0, 0, 0] }
//
// Common keys: name, active (default true), solref, solimp (MuJoCo's defaults). connect: body1,
// body2 (default world), anchor (body1's frame); anchor2 (body2's frame) gives body2's point instead
// of taking it where the anchor is at the reference pose (MuJoCo's site semantic). weld: body1, body2,
// anchor (body2's frame), relpose [x y z qw qx qy qz] (a zero quaternion, the default: from the
// reference pose), torquescale, quat2 (site semantic: body2's frame turned by it). joint: joint1,
// joint2 (absent: joint1 held at a0), polycoef a0..a4 (y − y0 = Σ a_i (x − x0)^i, y0 and x0 the
// joints' refs). The reference pose (MuJoCo's qpos0) is q = ref for revolute and prismatic links
// (the joint's `ref`, default 0), the identity for ball and free ones.

import { isSeq } from 'yaml';
import {
  DEFAULT_SOLIMP,
  DEFAULT_SOLREF,
  EQUALITY_TYPES,
  type BodyDesc,
  type EqualityDesc,
  type Quat,
  type Vec3,
} from '../../engine/model-desc.js';
import { didYouMean } from '../common/errors.js';
import { readSolimp, readSolref } from './contact-settings.js';
import { checkKeys, describe, entries, readEnum, readNumber, readString, readVec, type Ctx, type YNode } from './yaml-read.js';

const COMMON = ['type', 'name', 'active', 'solref', 'solimp'] as const;
export const EQUALITY_KEYS = {
  connect: [...COMMON, 'body1', 'body2', 'anchor', 'anchor2'],
  weld: [...COMMON, 'body1', 'body2', 'anchor', 'relpose', 'torquescale', 'quat2'],
  joint: [...COMMON, 'joint1', 'joint2', 'polycoef'],
} as const;

export function readEqualities(ctx: Ctx, node: YNode, bodies: readonly BodyDesc[]): EqualityDesc[] {
  if (!isSeq(node))
    ctx.fail(
      node,
      'equality',
      describe(node),
      'a list of equality constraints, e.g. [{ type: connect, name: loop, body1: a, anchor: [0, 0, 0] }]',
    );
  const index = new Map(bodies.map((b, i) => [b.name, i]));
  const seen = new Set<string>();
  return node.items.map((en, i) => {
    const at = `equality[${i}]`;
    const m = entries(ctx, en as YNode, at);
    const type = readEnum(ctx, m.get('type')?.value, `${at}.type`, EQUALITY_TYPES);
    const required = type === 'joint' ? ['type', 'name', 'joint1'] : ['type', 'name', 'body1'];
    checkKeys(ctx, en as YNode, m, at, EQUALITY_KEYS[type], required);
    const name = readString(ctx, m.get('name')?.value, `${at}.name`);
    if (seen.has(name))
      ctx.fail(m.get('name')?.value, `${at}.name`, `\`${name}\` a second time`, 'a name no other equality constraint has');
    seen.add(name);
    const subject = `equality \`${name}\``;
    const link = (key: string, world: boolean): number => {
      const n = m.get(key)?.value;
      const s = readString(ctx, n, `${subject}.${key}`);
      if (world && s === 'world') return -1;
      const b = index.get(s);
      if (b === undefined)
        throw ctx.error(
          n,
          `${subject}.${key}`,
          `\`${s}\`, which is not a link of this scene`,
          world ? 'a link name or `world`' : 'a link name',
          didYouMean(s, [...index.keys()]),
        );
      return b;
    };
    const activeE = m.get('active');
    let active = true;
    if (activeE) {
      const v = (activeE.value as { value?: unknown } | undefined)?.value;
      if (typeof v !== 'boolean') ctx.fail(activeE.value, `${subject}.active`, describe(activeE.value), 'true or false');
      active = v as boolean;
    }
    const e: EqualityDesc = {
      name,
      type,
      active,
      solref: m.get('solref') ? readSolref(ctx, m.get('solref')!.value, `${subject}.solref`) : [...DEFAULT_SOLREF],
      solimp: m.get('solimp') ? readSolimp(ctx, m.get('solimp')!.value, `${subject}.solimp`) : [...DEFAULT_SOLIMP],
    };
    const vec = (key: string, n: number): number[] | undefined => {
      const v = m.get(key);
      return v ? readVec(ctx, v.value, `${subject}.${key}`, n) : undefined;
    };
    if (type === 'joint') {
      const scalar = (key: string): number => {
        const b = link(key, false);
        const j = bodies[b].joint;
        if (j !== 'revolute' && j !== 'prismatic')
          ctx.fail(
            m.get(key)?.value,
            `${subject}.${key}`,
            `\`${bodies[b].name}\`, a ${j} joint`,
            'a revolute or prismatic link (MuJoCo couples scalar joints)',
          );
        return b;
      };
      e.joint1 = scalar('joint1');
      if (m.get('joint2')) e.joint2 = scalar('joint2');
      const pc = vec('polycoef', 5);
      e.polycoef = (pc ?? [0, 1, 0, 0, 0]) as EqualityDesc['polycoef'];
      // MuJoCo's y0, x0: the joints' refs (their qpos0)
      const r = jointRefs(e, bodies);
      if (r[0] !== 0 || r[1] !== 0) e.ref = r;
      return e;
    }
    e.body1 = link('body1', true);
    e.body2 = m.get('body2') ? link('body2', true) : -1;
    if (e.body1 === e.body2) ctx.fail(m.get('body2')?.value, `${subject}.body2`, 'the same body as body1', 'another body (or the world)');
    const anchor = vec('anchor', 3);
    if (type === 'connect') {
      if (!anchor) ctx.fail(en as YNode, `${subject}.anchor`, 'no anchor', "anchor: [x, y, z] (the point in body1's frame)");
      e.anchor = anchor as Vec3;
      const a2 = vec('anchor2', 3);
      if (a2) e.anchor2 = a2 as Vec3;
      return e;
    }
    e.anchor = (anchor ?? [0, 0, 0]) as Vec3;
    const rp = vec('relpose', 7);
    if (rp) e.relpose = rp as EqualityDesc['relpose'];
    const ts = m.get('torquescale');
    e.torquescale = ts ? readNumber(ctx, ts.value, `${subject}.torquescale`) : 1;
    const q2 = vec('quat2', 4);
    if (q2) {
      if (!(Math.hypot(...q2) > 0))
        ctx.fail(m.get('quat2')?.value, `${subject}.quat2`, '[0, 0, 0, 0]', 'a non-zero quaternion [w, x, y, z]');
      e.quat2 = q2 as Quat;
      if (!rp || rp.slice(3).every((x) => x === 0))
        ctx.fail(
          m.get('quat2')?.value,
          `${subject}.quat2`,
          'quat2 without a relpose quaternion',
          'relpose [x, y, z, qw, qx, qy, qz] too (the site semantic gives both frames)',
        );
    }
    return e;
  });
}

/** A joint constraint's polycoef about reference positions 0 (MuJoCo's y0 = x0 = 0, as a scene's and an
 *  exported model's joints have): y − y0 = Σ a_i (x − x0)^i is y = Σ b_k x^k with
 *  b_k = Σ_{i≥k} a_i·C(i, k)·(−x0)^(i−k), and y0 added to b_0 (without joint2, x stays at x0: b_0 =
 *  y0 + a0). The same constraint, written where the format has no `ref` (.arow, MJCF). */
export function polycoefAtZero(e: Pick<EqualityDesc, 'polycoef' | 'ref' | 'joint2'>): [number, number, number, number, number] {
  const a = e.polycoef ?? [0, 1, 0, 0, 0];
  const [y0, x0] = e.ref ?? [0, 0];
  if (y0 === 0 && x0 === 0) return [...a];
  if (e.joint2 === undefined || e.joint2 < 0) return [y0 + a[0], a[1], a[2], a[3], a[4]];
  const C = [[1], [1, 1], [1, 2, 1], [1, 3, 3, 1], [1, 4, 6, 4, 1]];
  const b: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  for (let k = 0; k < 5; k++) for (let i = k; i < 5; i++) b[k] += a[i] * C[i][k] * (-x0) ** (i - k);
  b[0] += y0;
  return b;
}

/** A joint constraint's polycoef about the reference positions `to` = [y0', x0'] (the refs of the joints
 *  it is written with: MuJoCo takes y0, x0 from its joints' qpos0): with y = Q(x) the constraint about
 *  0 (polycoefAtZero), y − y0' = Q(x) − y0' = Σ c_k (x − x0')^k with c_k = Σ_{i≥k} b_i·C(i, k)·x0'^(i−k),
 *  and y0' taken from c_0. The given polycoef unchanged when `to` is the constraint's own ref. */
export function polycoefAbout(
  e: Pick<EqualityDesc, 'polycoef' | 'ref' | 'joint2'>,
  to: readonly [number, number],
): [number, number, number, number, number] {
  const [y0, x0] = e.ref ?? [0, 0];
  const two = e.joint2 !== undefined && e.joint2 >= 0;
  const tx = two ? to[1] : 0;
  if (y0 === to[0] && (!two || x0 === tx)) return [...(e.polycoef ?? [0, 1, 0, 0, 0])];
  const b = polycoefAtZero(e);
  if (to[0] === 0 && tx === 0) return b;
  const C = [[1], [1, 1], [1, 2, 1], [1, 3, 3, 1], [1, 4, 6, 4, 1]];
  const c: [number, number, number, number, number] = [0, 0, 0, 0, 0];
  if (!two) c.splice(0, 5, ...b);
  else for (let k = 0; k < 5; k++) for (let i = k; i < 5; i++) c[k] += b[i] * C[i][k] * tx ** (i - k);
  c[0] -= to[0];
  return c;
}

/** The refs [y0, x0] MuJoCo takes for a joint constraint written with these joints: their `ref`s. */
export function jointRefs(e: Pick<EqualityDesc, 'joint1' | 'joint2'>, bodies: readonly BodyDesc[]): [number, number] {
  const r = (j: number | undefined) => (j !== undefined && j >= 0 ? (bodies[j].ref ?? 0) : 0);
  return [r(e.joint1), r(e.joint2)];
}
