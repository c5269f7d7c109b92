// A `model:` block of per-robot parameters, as a sweep's `randomize.model` writes it: one entry per
// parameter, its name (names.ts) and its distribution. Names are checked here; what they name is
// checked against the loaded model by planModelDraws, at the same positions (FILE:LINE:COL).

import { isScalar } from 'yaml';
import { entries, type Ctx, type YNode } from '../model-files/scene/yaml-read.js';
import { parameterKey, type Distribution } from './draws.js';
import { checkRange, parseParameterName, resolveParameter, type ParameterName, type ParameterTarget } from './names.js';
import type { ModelDesc } from '../engine/model-desc.js';
import { readDistribution } from './read-distribution.js';
import type { ModelDraw } from './robot-values.js';

/** A parameter as written, before the model is known. */
export interface DeclaredModelDraw {
  name: string;
  parsed: ParameterName;
  dist: Distribution;
  at: { ctx: Ctx; node: YNode; subject: string };
}

export function readModelDraws(ctx: Ctx, node: YNode, subject: string): DeclaredModelDraw[] {
  if (node == null || (isScalar(node) && node.value === null)) return [];
  const out: DeclaredModelDraw[] = [];
  for (const e of entries(ctx, node, subject).values()) {
    const at = { ctx, node: e.keyNode, subject: `${subject}.${e.key}` };
    const parsed = parseParameterName(e.key);
    if ('found' in parsed) ctx.fail(e.keyNode, at.subject, parsed.found, parsed.expected, parsed.hint);
    out.push({ name: e.key, parsed, dist: readDistribution(ctx, e.value, at.subject), at });
  }
  return out;
}

/** The declared parameters resolved against `model`: a name the model lacks, a parameter asked twice
 *  (a link's friction and one of its shapes' count as the same shape twice) or a range that could
 *  draw an invalid model is reported at its entry. */
export function planModelDraws(declared: readonly DeclaredModelDraw[], model: ModelDesc): ModelDraw[] {
  const resolved = declared.map((d): { d: DeclaredModelDraw; target: ParameterTarget } => {
    const t = resolveParameter(d.parsed, model);
    if ('found' in t) throw d.at.ctx.error(d.at.node, d.at.subject, t.found, t.expected, t.hint);
    return { d, target: t };
  });
  const seen = new Map<string, string>();
  for (const { d, target } of resolved) {
    const ids = target.kind === 'friction' ? target.shapes.map((s) => `friction:${s}`) : [JSON.stringify(target)];
    for (const id of ids) {
      const before = seen.get(id);
      if (before) d.at.ctx.fail(d.at.node, d.at.subject, `\`${d.name}\`, which changes what \`${before}\` changes`, 'each parameter once');
      seen.set(id, d.name);
    }
    const problem = checkRange(
      target,
      d.dist,
      model,
      resolved.filter((o) => o.d !== d).map((o) => ({ target: o.target, dist: o.d.dist })),
    );
    if (problem) d.at.ctx.fail(d.at.node, d.at.subject, problem.found, problem.expected, problem.hint);
  }
  return resolved.map(({ d, target }) => ({ name: d.name, key: parameterKey(d.name), dist: d.dist, target }));
}
