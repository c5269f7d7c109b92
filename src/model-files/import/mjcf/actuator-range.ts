// An actuator's limited range (ctrlrange, forcerange, actrange), as MuJoCo's compiler decides it is
// limited: its *limited flag "true", or "auto" with the range given and compiler autolimits.

import type { XmlAttr, XmlElement } from '../xml.js';
import type { Reader } from '../read-attrs.js';
import type { MjcfContext } from './context.js';

/** Range `n` when the actuator is limited by `lim` ("true", or "auto" with a range and compiler autolimits). */
export function limitedRange(
  ctx: MjcfContext,
  c: XmlElement,
  get: (n: string) => XmlAttr | undefined,
  subject: string,
  n: string,
  lim: string,
): [number, number] | undefined {
  const r: Reader = ctx.r;
  const { compiler } = ctx;
  const ra = get(n);
  const la = get(lim);
  const l = la ? r.choice(la, `${subject} ${lim}`, ['true', 'false', 'auto'] as const) : 'auto';
  if (!(l === 'true' || (l === 'auto' && compiler.autolimits && ra))) return undefined;
  const v = ra ? r.nums(ra, `${subject} ${n}`, 2) : [0, 0];
  if (!(v[0] < v[1])) r.fail(ra ?? c, `${subject} ${n}`, `[${v.join(', ')}]`, 'lower < upper');
  return [v[0], v[1]];
}
