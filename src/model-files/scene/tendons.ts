// Fixed tendons in the everyday dialect (docs/scene-format.md, "Fixed tendons"): MuJoCo's
// <tendon><fixed>, a length L = Σ coef·q over revolute and prismatic links, written like a joint's
// limit settings:
//
//   tendons:
//     - name: hip_knee
//       joints: [{ link: hip, coef: -1 }, { link: knee, coef: 1 }]
//       range: [-0.3, 1.2]                       # limited: two soft rows (MuJoCo's tendon limit)
//       limit: { solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 }
//       frictionloss: 0.1                        # dry friction along the tendon (N or N·m)
//       stiffness: 5                             # spring −k·x, x = L outside springlength
//       springlength: 0.2                        # rest length, or a dead band [lower, upper]
//       damping: 0.5                             # −b·L̇ (explicit, as MuJoCo's Euler)
//
// Without `springlength` the rest length is MuJoCo's default: L at the links' spring references.

import { isSeq } from 'yaml';
import { DEFAULT_SOLIMP, DEFAULT_SOLREF, type BodyDesc, type TendonDesc } from '../../engine/model-desc.js';
import { readLimit } from './contact-settings.js';
import { didYouMean } from '../common/errors.js';
import { checkKeys, describe, entries, readNumber, readString, readVec, type Ctx, type YNode } from './yaml-read.js';

export const TENDON_KEYS = ['name', 'joints', 'range', 'limit', 'frictionloss', 'stiffness', 'springlength', 'damping'] as const;

export function readTendons(ctx: Ctx, node: YNode, bodies: readonly BodyDesc[]): TendonDesc[] {
  if (!isSeq(node))
    ctx.fail(node, 'tendons', describe(node), 'a list of fixed tendons, e.g. [{ name: t, joints: [{ link: a, coef: 1 }] }]');
  const index = new Map(bodies.map((b, i) => [b.name, i]));
  const seen = new Set<string>();
  return node.items.map((tn, i) => {
    const at = `tendons[${i}]`;
    const m = entries(ctx, tn as YNode, at);
    checkKeys(ctx, tn as YNode, m, at, TENDON_KEYS, ['name', 'joints']);
    const name = readString(ctx, m.get('name')?.value, `${at}.name`);
    if (seen.has(name)) ctx.fail(m.get('name')?.value, `${at}.name`, `\`${name}\` a second time`, 'a name no other tendon has');
    seen.add(name);
    const subject = `tendon \`${name}\``;
    const jn = m.get('joints')?.value;
    if (!isSeq(jn) || jn.items.length === 0) ctx.fail(jn, `${subject}.joints`, describe(jn), 'a non-empty list of { link: NAME, coef: C }');
    const joints = jn.items.map((e, k) => {
      const s = `${subject}.joints[${k}]`;
      const em = entries(ctx, e as YNode, s);
      checkKeys(ctx, e as YNode, em, s, ['link', 'coef'], ['link', 'coef']);
      const ln = em.get('link')?.value;
      const link = readString(ctx, ln, `${s}.link`);
      const body = index.get(link);
      if (body === undefined)
        throw ctx.error(
          ln,
          `${s}.link`,
          `\`${link}\`, which is not a link of this scene`,
          'the name of a revolute or prismatic link',
          didYouMean(link, [...index.keys()]),
        );
      const type = bodies[body].joint;
      if (type !== 'revolute' && type !== 'prismatic')
        ctx.fail(
          ln,
          `${s}.link`,
          `\`${link}\`, a ${type} joint`,
          'a revolute or prismatic link (a fixed tendon couples scalar joint coordinates)',
        );
      return { body, coef: readNumber(ctx, em.get('coef')?.value, `${s}.coef`) };
    });
    const rootOf = (b: number): number => (bodies[b].parent < 0 ? b : rootOf(bodies[b].parent));
    const trees = new Set(joints.map((j) => rootOf(j.body)));
    if (trees.size > 2)
      ctx.fail(
        jn,
        `${subject}.joints`,
        `links of ${trees.size} separate trees`,
        'links of at most two trees (a constraint row joins at most two trees into one island)',
      );
    const t: TendonDesc = { name, joints };
    const nonNegative = (key: 'frictionloss' | 'stiffness' | 'damping', unit: string): void => {
      const e = m.get(key);
      if (!e) return;
      const v = readNumber(ctx, e.value, `${subject}.${key}`);
      if (!(v >= 0)) ctx.fail(e.value, `${subject}.${key}`, `${v}`, `a ${key} >= 0 (${unit})`);
      if (v !== 0) t[key] = v;
    };
    nonNegative('frictionloss', 'N or N·m along the tendon');
    nonNegative('stiffness', 'force per unit of tendon length');
    nonNegative('damping', 'force per unit of tendon velocity');
    const rE = m.get('range');
    const lE = m.get('limit');
    if (lE && !rE)
      ctx.fail(
        lE.keyNode,
        `${subject}.limit`,
        '`limit` without `range`',
        'a `range: [lower, upper]` on the tendon (the limit settings apply to its ends)',
      );
    if (rE) {
      const [lo, hi] = readVec(ctx, rE.value, `${subject}.range`, 2);
      if (!(lo < hi)) ctx.fail(rE.value, `${subject}.range`, `[${lo}, ${hi}]`, '[lower, upper] with lower < upper (a length: Σ coef·q)');
      t.range = [lo, hi];
      const l = lE ? readLimit(ctx, lE.value, `${subject}.limit`) : {};
      t.limit = { solref: l.solref ?? [...DEFAULT_SOLREF], solimp: l.solimp ?? [...DEFAULT_SOLIMP], margin: l.margin ?? 0 };
    }
    const sE = m.get('springlength');
    if (sE) {
      const v = isSeq(sE.value)
        ? readVec(ctx, sE.value, `${subject}.springlength`, 2)
        : [readNumber(ctx, sE.value, `${subject}.springlength`)];
      const band: [number, number] = v.length === 1 ? [v[0], v[0]] : [v[0], v[1]];
      if (!(band[0] <= band[1]))
        ctx.fail(
          sE.value,
          `${subject}.springlength`,
          `[${band.join(', ')}]`,
          'a rest length, or a dead band [lower, upper] with lower <= upper',
        );
      t.springlength = band;
    } else if (t.stiffness) {
      const L = joints.reduce((s, j) => s + j.coef * (bodies[j.body].springref ?? 0), 0);
      t.springlength = [L, L];
    }
    return t;
  });
}
