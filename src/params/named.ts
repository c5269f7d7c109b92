// The TypeScript API's way to set a robot's parameters directly: values by the names a sweep's
// randomize.model uses, e.g. withNamedParameters(model, { 'mass_scale:torso': 1.2, 'gravity.z': -9.7 }),
// giving the model that robot runs (build its Batch from it). A name the model lacks, or a value that
// would make the model invalid, throws naming it.

import type { ModelDesc } from '../engine/model-desc.js';
import { withParameters } from './apply.js';
import { extremesProblem } from './extremes.js';
import { brief } from '../util/brief.js';
import { checkRange, parseParameterName, resolveParameter, type ParameterValue } from './names.js';

export function withNamedParameters(model: ModelDesc, values: Readonly<Record<string, number>>): ModelDesc {
  const resolved: ParameterValue[] = Object.entries(values).map(([name, value]) => {
    const parsed = parseParameterName(name);
    if ('found' in parsed) throw new Error(`${brief(name)}: found ${parsed.found}, expected ${parsed.expected}`);
    const target = resolveParameter(parsed, model);
    if ('found' in target)
      throw new Error(`${brief(name)}: found ${target.found}, expected ${target.expected}${target.hint ? ` (${target.hint})` : ''}`);
    if (!Number.isFinite(value)) throw new Error(`${brief(name)}: found ${value}, expected a finite number`);
    return { target, value, name };
  });
  // A fixed value is a distribution of one point: the same checks as a drawn range.
  const asDraw = (v: ParameterValue) => ({ target: v.target, dist: { kind: 'uniform' as const, low: v.value, high: v.value } });
  const names = Object.keys(values);
  for (const v of resolved) {
    const problem = checkRange(v.target, asDraw(v).dist, model, resolved.filter((o) => o !== v).map(asDraw));
    if (problem) throw new Error(`${brief(names[resolved.indexOf(v)])}: found ${v.value}, expected ${problem.expected}`);
  }
  // what the values derive (a mass that overflows, a model the engine refuses), named by the value
  const over = extremesProblem(
    model,
    resolved.map((v, i) => ({ name: names[i], ...asDraw(v) })),
  );
  if (over) throw new Error(`${brief(names[over.index])}: found ${over.found}, expected ${over.expected}`);
  return withParameters(model, resolved);
}
