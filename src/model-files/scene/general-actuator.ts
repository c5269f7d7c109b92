// The `.arow` keys of a general actuator (`kind: general`): MuJoCo's general actuator as its
// <general> element states it, with MuJoCo's defaults (docs/scene-format.md, "General actuators").
//
//   actuators: [{ name: elbow, kind: general, gear: 2, dyntype: filterexact, dynprm: [0.05],
//                 gaintype: fixed, gainprm: [100], biastype: affine, biasprm: [0, -100, -5],
//                 ctrlrange: [-1, 1], actrange: [-1, 1], actearly: true }]
//
// dynprm, gainprm and biasprm take 1 to 3 numbers (the ones these types read; the rest are 0, as
// MuJoCo fills them), defaults [1, 0, 0], [1, 0, 0] and [0, 0, 0]; the types default to none, fixed
// and none. The engine's formulas: GeneralActuatorDesc (engine/model-desc.ts).

import type { GeneralActuatorDesc } from '../../engine/model-desc.js';
import { BIAS_TYPES, DYN_TYPES, GAIN_TYPES } from '../../engine/model-desc.js';
import { isScalar } from 'yaml';
import { describe, readEnum, readVec, type Ctx, type Entry } from './yaml-read.js';

export const GENERAL_KEYS = ['dyntype', 'gaintype', 'biastype', 'dynprm', 'gainprm', 'biasprm', 'actrange', 'actearly'] as const;

/** Reads the general keys of an actuator's mapping (`m`); `subject` names the actuator. */
export function readGeneral(ctx: Ctx, m: Map<string, Entry>, subject: string): GeneralActuatorDesc {
  const en = <T extends string>(k: string, options: readonly T[]): T => {
    const e = m.get(k);
    return e ? readEnum(ctx, e.value, `${subject}.${k}`, options) : options[0];
  };
  const prm = (k: string, dflt: [number, number, number]): [number, number, number] => {
    const e = m.get(k);
    if (!e) return dflt;
    const v = readVec(ctx, e.value, `${subject}.${k}`, [1, 2, 3]);
    return [v[0], v[1] ?? 0, v[2] ?? 0];
  };
  const g: GeneralActuatorDesc = {
    dyntype: en('dyntype', DYN_TYPES),
    gaintype: en('gaintype', GAIN_TYPES),
    biastype: en('biastype', BIAS_TYPES),
    dynprm: prm('dynprm', [1, 0, 0]),
    gainprm: prm('gainprm', [1, 0, 0]),
    biasprm: prm('biasprm', [0, 0, 0]),
  };
  const rE = m.get('actrange');
  if (rE) {
    const r = readVec(ctx, rE.value, `${subject}.actrange`, 2);
    if (!(r[0] <= r[1])) ctx.fail(rE.value, `${subject}.actrange`, `[${r.join(', ')}]`, '[lower, upper] with lower <= upper');
    if (g.dyntype === 'none')
      ctx.fail(
        rE.keyNode,
        `${subject}.actrange`,
        'an activation range on an actuator without dynamics',
        'a `dyntype` of integrator, filter or filterexact',
      );
    g.actrange = [r[0], r[1]];
  }
  const aE = m.get('actearly');
  if (aE) {
    if (!isScalar(aE.value) || typeof aE.value.value !== 'boolean')
      ctx.fail(aE.value, `${subject}.actearly`, describe(aE.value), 'true or false');
    g.actearly = aE.value.value as boolean;
  }
  return g;
}
