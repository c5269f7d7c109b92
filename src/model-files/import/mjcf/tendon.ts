// <tendon>: fixed tendons only, as MuJoCo's mjXReader::Tendon reads <fixed> with its <joint>
// children; attributes from the tendon's class (<default><tendon>). A fixed tendon's range is a
// length (Σ coef·q, q in radians): compiler angle does not convert it. Spatial tendons are refused.

import { DEFAULT_SOLIMP, DEFAULT_SOLREF } from '../../../engine/model-desc.js';
import { quote } from '../../common/errors.js';
import { importBug } from '../bugs.js';
import type { IrJoint, IrTendon } from '../ir.js';
import { readSolimp, readSolref } from './sol-params.js';
import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import { nonNegativeOr, numOr, sections, type MjcfContext } from './context.js';
import { attrOf, classOf } from './defaults.js';

/** Every <tendon> section; read after the bodies, so that each tendon's joints are known. */
export function readTendons(ctx: MjcfContext): void {
  const jointTypes = new Map<string, IrJoint['type']>();
  for (const b of ctx.ir.bodies) for (const j of b.joints) jointTypes.set(j.name, j.type);
  for (const t of sections(ctx, 'tendon')) {
    for (const c of t.children) {
      if (c.name === 'spatial')
        ctx.r.fail(
          c,
          '<spatial>',
          'a spatial tendon',
          'fixed tendons only: <fixed> with <joint joint="NAME" coef="C"/> children (spatial tendons route through sites and wrap geoms, which the engine does not model)',
        );
      if (c.name !== 'fixed')
        ctx.r.fail(c, `<${c.name}>`, 'an element <tendon> does not define', '<fixed> (fixed tendons; spatial tendons are not supported)');
      ctx.ir.tendons ??= [];
      ctx.ir.tendons.push(readFixedTendon(ctx, c, ctx.ir.tendons.length, jointTypes));
    }
  }
}

/** Fixed tendon number `k` (an unnamed one is `tendonK`), over joints of `jointTypes`. */
function readFixedTendon(ctx: MjcfContext, c: XmlElement, k: number, jointTypes: Map<string, IrJoint['type']>): IrTendon {
  const r: Reader = ctx.r;
  const { compiler, note } = ctx;
  const cls = classOf(ctx, c, 'main');
  const get = (n: string): XmlAttr | undefined => attrOf(ctx, c, 'tendon', cls, n);
  const name = c.attrs.get('name')?.value ?? `tendon${k}`;
  const subject = `tendon '${name}'`;
  const arm = get('armature');
  if (arm && r.num(arm, `${subject} armature`) !== 0)
    r.fail(
      arm,
      `${subject} armature`,
      quote(arm.value),
      "no tendon armature (it adds Jᵀ·a·J to the mass matrix, which the engine's O(n) tree products cannot express)",
    );
  for (const f of ['solreffriction', 'solimpfriction', 'actuatorfrcrange', 'actuatorfrclimited', 'damping_poly', 'stiffness_poly']) {
    const a = get(f);
    if (a)
      r.fail(
        a,
        `${subject} ${f}`,
        quote(a.value),
        `no ${f} on a tendon (not supported; frictionloss rows use MuJoCo's default solreffriction/solimpfriction)`,
      );
  }
  const tendon: IrTendon = {
    name,
    joints: [],
    frictionloss: numOr(ctx, get('frictionloss'), `${subject} frictionloss`, 0),
    stiffness: numOr(ctx, get('stiffness'), `${subject} stiffness`, 0),
    damping: numOr(ctx, get('damping'), `${subject} damping`, 0),
    source: r.span(c),
  };
  for (const [f, v] of [
    ['frictionloss', tendon.frictionloss],
    ['stiffness', tendon.stiffness],
    ['damping', tendon.damping],
  ] as const) {
    if (!(v >= 0)) r.fail(get(f)!, `${subject} ${f}`, String(v), `a ${f} >= 0`);
  }
  const sl = get('springlength');
  if (sl) {
    const v = r.nums(sl, `${subject} springlength`, [1, 2]);
    const band: [number, number] = v.length === 1 ? [v[0], v[0]] : [v[0], v[1]];
    if (!(band[0] <= band[1]))
      r.fail(sl, `${subject} springlength`, `[${band.join(', ')}]`, 'one rest length, or a dead band [lower, upper] with lower <= upper');
    // MuJoCo's −1 (one value, or both −1) means: the length at the joints' spring references
    if (!(band[0] === -1 && band[1] === -1)) tendon.springlength = band;
  }
  const rangeA = get('range');
  const limA = get('limited');
  const limited = limA ? r.choice(limA, `${subject} limited`, ['true', 'false', 'auto'] as const) : 'auto';
  if (limited === 'auto' && !compiler.autolimits && rangeA)
    r.fail(
      rangeA,
      `${subject} range`,
      'a range without limited="true" while compiler autolimits="false"',
      'limited="true", or autolimits="true" (as MuJoCo requires)',
    );
  if (limited === 'true' || (limited === 'auto' && compiler.autolimits && rangeA)) {
    const rg = rangeA ? r.nums(rangeA, `${subject} range`, 2) : [0, 0];
    if (!(rg[0] < rg[1])) r.fail(rangeA ?? c, `${subject} range`, `[${rg.join(', ')}]`, 'lower < upper (a length: Σ coef·q)');
    tendon.range = [rg[0], rg[1]];
    const sr = get('solreflimit');
    const si = get('solimplimit');
    tendon.limit = {
      solref: sr ? readSolref(r, sr, `${subject} solreflimit`, note) : [...DEFAULT_SOLREF],
      solimp: si ? readSolimp(r, si, `${subject} solimplimit`, note) : [...DEFAULT_SOLIMP],
      margin: nonNegativeOr(ctx, get('margin'), `${subject} margin`, 0),
    };
  }
  for (const j of c.children) {
    if (j.name !== 'joint') r.fail(j, `${subject} <${j.name}>`, `a <${j.name}> in a fixed tendon`, '<joint joint="NAME" coef="C"/>');
    const ja = j.attrs.get('joint');
    if (!ja) r.fail(j, `${subject} <joint>`, 'no joint', 'joint="NAME" of a hinge or slide joint');
    const type = jointTypes.get(ja.value);
    if (!type)
      r.fail(ja, `${subject} joint`, `${quote(ja.value, 60, "'")}, which the model does not have`, 'the name of a hinge or slide joint');
    if (type !== 'hinge' && type !== 'slide')
      r.fail(
        ja,
        `${subject} joint`,
        `${quote(ja.value, 60, "'")}, a ${type} joint`,
        'a hinge or slide joint (a fixed tendon couples scalar joint coordinates)',
      );
    const coef = numOr(ctx, j.attrs.get('coef'), `${subject} coef`, 1);
    tendon.joints.push({ joint: ja.value, coef: importBug('import-tendon-coef-sign') ? Math.abs(coef) : coef, source: r.span(j) });
  }
  if (tendon.joints.length === 0) r.fail(c, subject, 'a fixed tendon without joints', 'at least one <joint joint="NAME" coef="C"/>');
  return tendon;
}
