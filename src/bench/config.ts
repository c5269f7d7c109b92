// `achilles bench` options → a fully resolved run description (defaults filled, checked against
// this CPU), so the runner never has to guess.

import { join } from 'node:path';
import { LANE_WIDTHS, PRECISIONS, type LaneWidth, type Precision } from '../engine/api.js';
import { INTEGRATORS, type IntegratorName } from '../engine/model-desc.js';
import { engineAddon, packageRoot } from '../engine/native.js';
import { laneProblem } from '../engine/lanes.js';
import type { ParsedOptions } from '../util/command-spec.js';
import { CTRL_MODES, LOCKSTEP_CHOICES, ROBOTS_KINDS, type RobotsRequest } from './robots.js';

export interface BenchConfig {
  scenes: string[];
  lanes: LaneWidth[];
  precisions: Precision[];
  copies: number[];
  integrators: IntegratorName[];
  threads: number[];
  vsMujoco: boolean;
  flops: boolean;
  /** Target seconds of one timed repetition. */
  repSeconds: number;
  reps: number;
  /** Simulated steps between restarts from the initial state (untimed), same for MuJoCo. */
  restartEvery: number;
  /** --robots / --spread / --ctrl as given (robots.ts robotsFor fills the rest per scene). */
  robots: RobotsRequest;
  json: boolean;
  out: string;
  /** Read MJCF models that replicate past their size limit (--yes). */
  allowLarge: boolean;
}

export const DEFAULT_SCENES = ['arm7.arow', 'double-pendulum.arow'].map((f) => join(packageRoot, 'scenes', f));
export const DEFAULT_COPIES = [1, 16, 64, 256, 1024, 4096];
/** ~0.5 s repetitions: long enough that timer resolution and call overhead vanish. */
export const DEFAULT_REP_SECONDS = 0.5;
export const DEFAULT_REPS = 5;
/** 1 s simulated at the bundled 2 ms: well before the undamped arm diverges (~4 s) under Euler. */
export const DEFAULT_RESTART_EVERY = 500;

const LANE_ISA: Record<LaneWidth, string> = { 1: 'scalar', 4: 'SSE2', 8: 'AVX2', 16: 'AVX-512' };

function list<T>(v: unknown, dflt: readonly T[]): T[] {
  if (v === undefined) return [...dflt];
  const a = (Array.isArray(v) ? v : String(v).split(',')) as unknown[];
  return a.flatMap((x) =>
    typeof x === 'string'
      ? x
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [x],
  ) as T[];
}

function choices<T extends string | number>(what: string, got: readonly unknown[], allowed: readonly T[]): T[] {
  return got.map((x) => {
    const hit = allowed.find((a) => String(a) === String(x));
    if (hit === undefined) throw new Error(`--${what} must be among ${allowed.join(', ')} (got ${String(x)})`);
    return hit;
  });
}

function positiveInts(what: string, got: readonly unknown[], max: number): number[] {
  return got.map((x) => {
    const n = Number(x);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${what} takes integers from 1 to ${max} (got ${String(x)})`);
    return n;
  });
}

const uniq = <T>(xs: T[]): T[] => [...new Set(xs)];

export function resolveConfig(o: ParsedOptions): BenchConfig {
  const widest = engineAddon().cpuInfo().widestLanes;
  const supported = LANE_WIDTHS.filter((l) => l <= widest);
  const lanes = uniq(choices('lanes', list(o.lanes, supported), LANE_WIDTHS));
  for (const l of lanes) {
    if (l > widest) throw new Error(`--lanes ${l} needs ${LANE_ISA[l]}, which this CPU lacks (it supports lanes ${supported.join(', ')})`);
  }
  // A precision asked for by name (or, by default, at least one) must have a requested width that
  // runs here (f64 × 8 needs AVX-512 where f32 × 8 needs AVX2): otherwise it would silently time nothing.
  const precisions = uniq(choices('precision', list(o.precision, PRECISIONS), PRECISIONS));
  const cpu = engineAddon().cpuInfo();
  const idle = precisions.filter((p) => !lanes.some((l) => laneProblem(cpu, p, l) === null));
  if (idle.length && (o.precision !== undefined || idle.length === precisions.length)) {
    const p = idle[0];
    throw new Error(`--lanes ${lanes.join(',')} --precision ${p}: ${laneProblem(cpu, p, lanes[0])}`);
  }
  const vs = o.vs === undefined ? [] : list<string>(o.vs, []);
  for (const v of vs) if (v !== 'mujoco') throw new Error(`--vs only knows 'mujoco' (got ${v})`);
  const budget = o.budget === undefined ? DEFAULT_REP_SECONDS : Number(o.budget);
  if (!(budget > 0) || budget > 60) throw new Error(`--budget is seconds per repetition, above 0 and at most 60 (got ${String(o.budget)})`);
  const reps = o.reps === undefined ? (budget < 0.2 ? 3 : DEFAULT_REPS) : positiveInts('reps', [o.reps], 100)[0];
  const scenes = o.scene === undefined ? DEFAULT_SCENES : list<string>(o.scene, []);
  const robots: RobotsRequest = {};
  if (o.lockstep !== undefined) {
    const l = choices('lockstep', [o.lockstep], LOCKSTEP_CHOICES)[0];
    robots.kinds = l === 'only' ? ['lockstep'] : l === 'no' ? ['differ'] : [...ROBOTS_KINDS];
  }
  if (o.spread !== undefined) {
    const sp = Number(o.spread);
    if (!Number.isFinite(sp) || sp < 0 || sp > 1) throw new Error(`--spread is radians (or metres) from 0 to 1 (got ${String(o.spread)})`);
    robots.spread = sp;
  }
  if (o.ctrl !== undefined) robots.ctrl = choices('ctrl', [o.ctrl], CTRL_MODES)[0];
  if (o['lane-params'] === true) {
    // MuJoCo's cells run one model for every robot: its per-robot models would time other physics
    if (vs.includes('mujoco')) throw new Error('--lane-params times Achilles alone: leave out --vs mujoco');
    robots.laneParams = true;
  }
  return {
    scenes: uniq(scenes),
    lanes,
    precisions,
    copies: uniq(positiveInts('copies', list(o.copies, DEFAULT_COPIES), 1 << 20)),
    integrators: uniq(choices('integrator', list(o.integrator, ['euler']), INTEGRATORS)),
    threads: uniq(positiveInts('threads', list(o.threads, [1]), 256)),
    vsMujoco: vs.includes('mujoco'),
    flops: o.flops === true,
    repSeconds: budget,
    reps,
    restartEvery: o['restart-every'] === undefined ? DEFAULT_RESTART_EVERY : positiveInts('restart-every', [o['restart-every']], 1e9)[0],
    robots,
    json: o.json === true,
    allowLarge: o.yes === true,
    out: typeof o.out === 'string' ? o.out : 'reports/bench',
  };
}
