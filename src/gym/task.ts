// A Gymnasium MuJoCo task as its file in tasks/gymnasium/ states it (the same files and the same
// rules as python/achilles/gym/task.py): model, frame skip, parameters (the env's keyword
// arguments), observation, the step's terms in file order (reward and terminated among them), info,
// reset distribution and reset info. Evaluated here for one env at a time (src/gym/expr.ts).
//
// Reset entries are evaluated in file order, each seeing those above it; qpos and qvel (required)
// are the state the env is reset to. An entry may be rejection-sampled, as Gymnasium's reset_model
// draws Reacher's goal and Pusher's cylinder:
//
//   "goal": {"draw": "uniform(-0.2, 0.2, 2)", "until": "sqrt(sum(square(goal))) < 0.2"}
//
// draws `draw` again while `until` (reading the candidate under the entry's name) is false, at most
// MAX_REDRAWS times: an env's draws come in Gymnasium's order, a rejected candidate's before its
// replacement's (the Python evaluator's order: python/src/achilles/gym/task.py).

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { evaluate, ExprError, parseExpr, type Node, type Scope, type Val } from './expr.js';

/** Where the task files are: ACHILLES_TASK_DIR, else the package's tasks/gymnasium. */
export function taskDir(): string {
  return process.env.ACHILLES_TASK_DIR ?? join(packageRoot, 'tasks', 'gymnasium');
}

export function taskIds(): string[] {
  return readdirSync(taskDir())
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/** Keyword arguments of Gymnasium's MujocoEnv that only concern rendering: accepted, ignored. */
export const RENDER_KWARGS = [
  'render_mode',
  'width',
  'height',
  'camera_id',
  'camera_name',
  'default_camera_config',
  'max_geom',
  'visual_options',
];

/** A bound on a rejection-sampled reset entry's draws: Gymnasium's loops have none, but an `until`
 *  that (almost) never holds would hang the env; Reacher's and Pusher's accept 79% and 88%. */
export const MAX_REDRAWS = 10_000;

const CONSTANTS: Record<string, Val> = { true: true, false: false, inf: Infinity, empty: [] };
/** The names every formula may read besides quantities, parameters and earlier terms. */
export const CONSTANT_NAMES = Object.keys(CONSTANTS);

export interface Task {
  id: string;
  file: string;
  model: string;
  frameSkip: number;
  maxEpisodeSteps: number;
  params: Record<string, Val>;
  observation: Node;
  before: [string, Node][];
  step: [string, Node][];
  info: string[];
  /** In file order; `until`: a rejection-sampled entry's condition (null: drawn once). */
  reset: ResetEntry[];
  resetInfo: [string, Node][];
  /** The model's body names in MuJoCo's order, the world first (body()): set by the env. */
  bodies?: readonly string[];
}

export interface ResetEntry {
  name: string;
  draw: Node;
  until: Node | null;
}

/** Every formula of a reset entry. */
export const resetFormulas = (t: Task): Node[] => t.reset.flatMap((e) => (e.until ? [e.draw, e.until] : [e.draw]));

/** The reset entries of a task file: a formula, or {"draw": formula, "until": formula}. */
function resetEntries(raw: Record<string, unknown>, file: string): ResetEntry[] {
  const out = Object.entries(raw).map(([name, v]): ResetEntry => {
    if (typeof v !== 'object' || v === null) return { name, draw: parseExpr(v, `${file}: reset.${name}`), until: null };
    const keys = Object.keys(v).sort();
    if (keys.join() !== 'draw,until')
      throw new ExprError(
        `${file}: reset.${name}: a rejection-sampled entry has exactly the keys 'draw' and 'until', found [${keys.map((k) => `'${k}'`).join(', ')}]`,
      );
    const e = v as { draw: unknown; until: unknown };
    return { name, draw: parseExpr(e.draw, `${file}: reset.${name}.draw`), until: parseExpr(e.until, `${file}: reset.${name}.until`) };
  });
  for (const need of ['qpos', 'qvel']) if (!out.some((e) => e.name === need)) throw new ExprError(`${file}: reset has no '${need}' entry`);
  return out;
}

/** JSON has no infinity: the task files write "inf" / "-inf". */
function paramValue(v: unknown): Val {
  if (Array.isArray(v)) return v.map(paramValue);
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  return v as Val;
}

/** The task `id` with the env's keyword arguments applied (an unknown one is an error, as in Gymnasium). */
export function loadTask(id: string, kwargs: Record<string, unknown> = {}): Task {
  // looked up among the task files, never joined into a path ('../../package' would read another file)
  if (!taskIds().includes(id)) {
    const shown = id.length <= 80 ? id : `${id.slice(0, 77)}...`;
    throw new Error(`unknown task '${shown}': the tasks are ${taskIds().join(', ')}`);
  }
  const file = join(taskDir(), `${id}.json`);
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const params: Record<string, Val> = Object.fromEntries(Object.entries(raw.params).map(([k, v]) => [k, paramValue(v)]));
  let model: string = raw.model;
  let frameSkip: number = raw.frame_skip;
  for (const [k, v] of Object.entries(kwargs)) {
    if (k === 'xml_file') model = String(v);
    else if (k === 'frame_skip') {
      if (!Number.isInteger(v) || (v as number) < 1) throw new Error(`${id}: frame_skip must be an integer >= 1, got ${String(v)}`);
      frameSkip = v as number;
    } else if (k in params) params[k] = paramValue(v);
    else if (!RENDER_KWARGS.includes(k)) {
      const known = [...Object.keys(params), 'xml_file', 'frame_skip', ...RENDER_KWARGS].sort();
      throw new Error(`${id}: unexpected keyword argument '${k}' (accepted: ${known.join(', ')})`);
    }
  }
  const entries = (o: Record<string, unknown>, field: string): [string, Node][] =>
    Object.entries(o).map(([k, v]) => [k, parseExpr(v, `${file}: ${field}.${k}`)]);
  const step = entries(raw.step, 'step');
  const defined = new Set(step.map(([k]) => k));
  for (const need of ['reward', 'terminated']) if (!defined.has(need)) throw new ExprError(`${file}: step has no '${need}' entry`);
  for (const name of raw.info) if (!defined.has(name)) throw new ExprError(`${file}: info names '${name}', which no step entry defines`);
  return {
    id: raw.id,
    file,
    model,
    frameSkip,
    maxEpisodeSteps: raw.max_episode_steps,
    params,
    observation: parseExpr(raw.observation, `${file}: observation`),
    before: entries(raw.before, 'before'),
    step,
    info: raw.info,
    reset: resetEntries(raw.reset, file),
    resetInfo: entries(raw.reset_info, 'reset_info'),
  };
}

const scope = (t: Task, values: Record<string, Val>, where: string, draw?: Scope['draw']): Scope => ({
  values: { ...CONSTANTS, ...values },
  params: t.params,
  where: `${t.file}: ${where}`,
  ...(draw ? { draw } : {}),
  ...(t.bodies ? { bodies: t.bodies } : {}),
});

/** One env's observation (flat). */
export function observe(t: Task, values: Record<string, Val>): number[] {
  const flat = (x: Val): Val[] => (Array.isArray(x) ? x.flatMap(flat) : [x]);
  return flat(evaluate(t.observation, scope(t, values, 'observation'))).map(Number);
}

export function readBefore(t: Task, values: Record<string, Val>): Record<string, Val> {
  return Object.fromEntries(t.before.map(([k, n]) => [k, evaluate(n, scope(t, values, `before.${k}`))]));
}

/** Every step entry in file order (each sees those above it, the `before` values and `observation`). */
export function stepTerms(t: Task, values: Record<string, Val>, before: Record<string, Val>, observation: number[]): Record<string, Val> {
  const s = scope(t, { ...values, ...before, observation }, '');
  const out: Record<string, Val> = {};
  for (const [k, n] of t.step) {
    s.where = `${t.file}: step.${k}`;
    out[k] = evaluate(n, s);
    s.values[k] = out[k];
  }
  return out;
}

/** Every reset entry in file order (a rejection-sampled one drawn until its `until` holds); the
 *  state they give. */
export function resetState(t: Task, values: Record<string, Val>, draw: NonNullable<Scope['draw']>): { qpos: number[]; qvel: number[] } {
  const s = scope(t, values, '', draw);
  for (const e of t.reset) {
    s.where = `${t.file}: reset.${e.name}`;
    let v = evaluate(e.draw, s);
    if (e.until) v = redrawn(t, e, v, s);
    s.values[e.name] = v;
  }
  return { qpos: (s.values.qpos as Val[]).map(Number), qvel: (s.values.qvel as Val[]).map(Number) };
}

/** Entry e drawn again until its `until` holds for the candidate `v`. */
function redrawn(t: Task, e: ResetEntry, v: Val, s: Scope): Val {
  const until = e.until!;
  for (let draws = 1; ; draws++) {
    const check: Scope = { ...s, values: { ...s.values, [e.name]: v }, where: `${t.file}: reset.${e.name}.until` };
    delete check.draw; // the condition draws nothing
    if (evaluate(until, check)) return v;
    if (draws === MAX_REDRAWS) break;
    v = evaluate(e.draw, s);
  }
  throw new ExprError(`${t.file}: reset.${e.name}.until: still false after ${MAX_REDRAWS} draws`);
}

export function readResetInfo(t: Task, values: Record<string, Val>): Record<string, Val> {
  return Object.fromEntries(t.resetInfo.map(([k, n]) => [k, evaluate(n, scope(t, values, `reset_info.${k}`))]));
}
