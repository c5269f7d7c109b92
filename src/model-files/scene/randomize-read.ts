// A `model:` block of per-robot parameters, as a sweep's `randomize.model` writes it: one entry per
// parameter, its name (names.ts) and its distribution. Names are checked here; what they name is
// checked against the loaded model by planModelDraws, at the same positions (FILE:LINE:COL).

import { isScalar } from 'yaml';
import { checkKeys, entries, readInt, type Ctx, type YNode } from './yaml-read.js';
import { coordinateNames } from '../../engine/batch.js';
import { coordinateLayout } from '../../engine/model-desc.js';
import { didYouMean } from '../common/errors.js';
import { parameterKey, type Distribution } from '../../params/draws.js';
import { extremesProblem } from '../../params/extremes.js';
import { checkRange, parseParameterName, resolveParameter, type ParameterName, type ParameterTarget } from '../../params/names.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import { readDistribution } from './distribution-read.js';
import type { ModelDraw } from '../../params/robot-values.js';

/** Where an entry was written, to report a problem found later (against the model) there. */
export interface At {
  ctx: Ctx;
  node: YNode;
  subject: string;
}

export interface InitialDraw {
  /** As written: `q:torso.z`. Also the key of its random numbers (draws.ts parameterKey). */
  name: string;
  field: 'q' | 'v';
  coordinate: string;
  dist: Distribution;
  at: At;
}

export interface PlannedDraw {
  name: string;
  field: 'q' | 'v';
  /** Coordinate index in q (field q) or v (field v). */
  index: number;
  dist: Distribution;
  /** Key of this parameter's random numbers (a hash of its name). */
  key: number;
  /** The seed it is drawn with when not the sweep's: a scene's randomize.seed. */
  seed?: number;
}

/** A parameter as written, before the model is known. */
export interface DeclaredModelDraw {
  name: string;
  parsed: ParameterName;
  dist: Distribution;
  at: At;
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
  // what the draws derive at their extremes (a mass that overflows, a model the engine refuses)
  const over = extremesProblem(
    model,
    resolved.map(({ d, target }) => ({ name: d.name, target, dist: d.dist })),
  );
  if (over) {
    const { d } = resolved[over.index];
    d.at.ctx.fail(d.at.node, d.at.subject, over.found, over.expected);
  }
  return resolved.map(({ d, target }) => ({ name: d.name, key: parameterKey(d.name), dist: d.dist, target }));
}

export function readInitialDraws(ctx: Ctx, node: YNode, subject: string): InitialDraw[] {
  if (node == null || (isScalar(node) && node.value === null)) return [];
  const out: InitialDraw[] = [];
  for (const e of entries(ctx, node, subject).values()) {
    const at = { ctx, node: e.keyNode, subject: `${subject}.${e.key}` };
    const m = /^(q|v):(.+)$/.exec(e.key);
    if (!m) {
      if (!('found' in parseParameterName(e.key)))
        ctx.fail(
          e.keyNode,
          at.subject,
          `the model parameter \`${e.key}\` under randomize.initial`,
          'q:COORDINATE or v:COORDINATE',
          'write model parameters under randomize.model',
        );
      ctx.fail(
        e.keyNode,
        at.subject,
        `the key \`${e.key}\``,
        'q:COORDINATE or v:COORDINATE, as trace.csv names its columns (e.g. q:torso.z, v:knee)',
      );
    }
    out.push({ name: e.key, field: m[1] as 'q' | 'v', coordinate: m[2], dist: readDistribution(ctx, e.value, at.subject), at });
  }
  return out;
}

/** The declared initial draws resolved against `model`: coordinate names become indices; a name the
 *  model lacks, a quaternion component or a coordinate drawn twice is reported at its entry. */
export function planInitialDraws(declared: readonly InitialDraw[], model: ModelDesc): PlannedDraw[] {
  const fail = (at: At, found: string, expected: string, hint?: string): never => at.ctx.fail(at.node, at.subject, found, expected, hint);
  const names = coordinateNames(model);
  const { qOffset } = coordinateLayout(model.bodies);
  // Orientation coordinates: a quaternion component drawn alone would leave the unit sphere.
  const quaternion = new Set<number>();
  model.bodies.forEach((b, i) => {
    const first = b.joint === 'free' ? qOffset[i] + 3 : b.joint === 'ball' ? qOffset[i] : -1;
    if (first >= 0) for (let k = 0; k < 4; k++) quaternion.add(first + k);
  });
  const seen = new Map<string, At>();
  return declared.map((d): PlannedDraw => {
    const list = d.field === 'q' ? names.q : names.v;
    const index = list.indexOf(d.coordinate);
    if (index < 0)
      fail(
        d.at,
        `no ${d.field === 'q' ? 'coordinate' : 'velocity'} \`${d.coordinate}\` in ${model.name}`,
        `one of ${listed(list.map((n) => `${d.field}:${n}`))}`,
        didYouMean(
          d.name,
          list.map((n) => `${d.field}:${n}`),
        ),
      );
    if (d.field === 'q' && quaternion.has(index))
      fail(
        d.at,
        `the orientation component \`${d.name}\``,
        'a position coordinate or a velocity',
        'orientation draws are not implemented yet: a quaternion component drawn alone would leave the unit sphere',
      );
    if (seen.has(d.name)) fail(d.at, `\`${d.name}\` twice`, 'each coordinate once');
    seen.set(d.name, d.at);
    return { name: d.name, field: d.field, index, dist: d.dist, key: parameterKey(d.name) };
  });
}

const listed = (names: readonly string[]): string => {
  const shown = names.slice(0, 12).join(', ');
  return names.length > 12 ? `${shown}, … (${names.length} in all)` : shown;
};

/** A scene's own `randomize:` block: its seed and its draws, resolved against the scene's model. */
export interface SceneRandomization {
  seed: number;
  initial: PlannedDraw[];
  model: ModelDraw[];
  at: At;
}

export const SCENE_RANDOMIZE_KEYS = ['seed', 'initial', 'model'] as const;

/** Reads a scene's `randomize: { seed, initial, model }` (the sweep file's syntax, with the scene's
 *  own seed) against the scene's model. */
export function readSceneRandomization(ctx: Ctx, keyNode: YNode, node: YNode, model: ModelDesc): SceneRandomization {
  const m = entries(ctx, node, 'randomize');
  checkKeys(ctx, node, m, 'randomize', SCENE_RANDOMIZE_KEYS);
  const seedNode = m.get('seed')?.value;
  const seed = seedNode === undefined ? 0 : readInt(ctx, seedNode, 'randomize.seed', 0);
  if (seed > 0xffffffff) ctx.fail(seedNode, 'randomize.seed', `${seed}`, 'an integer from 0 to 4294967295');
  const initial = m.get('initial');
  const params = m.get('model');
  return {
    seed,
    initial: initial ? planInitialDraws(readInitialDraws(ctx, initial.value, 'randomize.initial'), model).map((d) => ({ ...d, seed })) : [],
    model: params ? planModelDraws(readModelDraws(ctx, params.value, 'randomize.model'), model).map((d) => ({ ...d, seed })) : [],
    at: { ctx, node: keyNode, subject: 'randomize' },
  };
}
