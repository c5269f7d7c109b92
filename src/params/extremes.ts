// Whether every value a parameter can take keeps a model the engine runs, checked where the parameter
// is given (a sweep's or scene's randomize.model entry, --parameters), so that a refusal names the
// parameter and its place instead of the engine failing later without one. The values a distribution
// can draw are bounded (a normal draw too: draws.ts takes u >= 2^-53), and what can go wrong grows
// with their size (a mass that overflows, a centre of mass whose parallel-axis inertia m·|c|² does,
// inertias so large that the engine's load check overflows), so the model at the extremes of every
// parameter at once is the one to check: first its derived mass properties (massOverflow), then the
// native core's own load check (engine-check.ts).

import type { ModelDesc } from '../engine/model-desc.js';
import { applyParameters, derivedOverflow } from './apply.js';
import { distributionText, type Distribution } from './draws.js';
import { engineRefusal } from './engine-check.js';
import type { ParameterTarget, ParameterValue } from './names.js';

/** No normal draw lies farther than this many standard deviations from its mean: draws.ts's
 *  Box–Muller takes u >= 2^-53, so |z| <= sqrt(-2 ln 2^-53) ≈ 8.57. */
export const NORMAL_REACH = Math.sqrt(-2 * Math.log(2 ** -53));

/** The values `d` can draw: [lowest, highest]. */
export function reach(d: Distribution): [number, number] {
  return d.kind === 'normal' ? [d.mean - NORMAL_REACH * d.std, d.mean + NORMAL_REACH * d.std] : [d.low, d.high];
}

/** A parameter as given: its name, what it changes, the values it takes. */
export interface GivenParameter {
  name: string;
  target: ParameterTarget;
  dist: Distribution;
}

/** What is wrong with the extremes of `params[index]` (found and expected, for its entry). */
export interface ExtremesProblem {
  index: number;
  found: string;
  expected: string;
}

/** The end of a parameter's reach that strains the model most: the centre of mass farthest from the
 *  link origin, else the value of largest magnitude (the largest scale, gain, friction, ...). */
function extreme(t: ParameterTarget, [lo, hi]: [number, number], model: ModelDesc): number {
  if (t.kind === 'com_offset') {
    const c = model.bodies[t.body].com[t.axis];
    return Math.abs(c + lo) > Math.abs(c + hi) ? lo : hi;
  }
  return Math.abs(lo) > Math.abs(hi) ? lo : hi;
}

/** Why the model with `values` written in is not one the engine runs, or undefined. */
function problemWith(model: ModelDesc, values: ParameterValue[]): string | undefined {
  const m = applyParameters(model, values);
  const over = derivedOverflow(m, values);
  if (over) return `link ${over.link} gets ${over.what}`;
  const refused = engineRefusal(m);
  return refused === undefined ? undefined : `the engine refuses the model (${refused})`;
}

/** The first parameter whose extreme values make a model the engine cannot run (with every other at
 *  its own extreme: a scale and a centre-of-mass offset of one link strain it together); undefined
 *  when the model at every extreme runs. */
export function extremesProblem(model: ModelDesc, params: readonly GivenParameter[]): ExtremesProblem | undefined {
  if (params.length === 0) return undefined;
  const values = params.map((p): ParameterValue => ({ name: p.name, target: p.target, value: extreme(p.target, reach(p.dist), model) }));
  const together = problemWith(model, values);
  if (!together) return undefined;
  const point = (i: number): boolean => params[i].dist.kind !== 'normal' && reach(params[i].dist)[0] === reach(params[i].dist)[1];
  const given = (i: number): string =>
    point(i) ? `${values[i].value}` : `${distributionText(params[i].dist)}, which can draw ${values[i].value}`;
  const at = (i: number): string => (point(i) ? 'with it' : `at ${values[i].value}`);
  // the parameter that does it alone, else the first, with the others it takes
  for (let i = 0; i < values.length; i++) {
    const alone = problemWith(model, [values[i]]);
    if (alone) return { index: i, found: given(i), expected: `a value the engine can run: ${at(i)}, ${alone}` };
  }
  const others = params.slice(1).map((p, k) => `${p.name} = ${values[k + 1].value}`);
  return {
    index: 0,
    found: given(0),
    expected: `values the engine can run: ${at(0)} and ${others.join(', ')}, ${together}`,
  };
}
