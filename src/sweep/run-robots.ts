// Steps robots [first, end) of a sweep and keeps what the plan asks for, in batches of at most
// `batchSize` robots. Robot r (a global index) starts from the scene's state with its own draws
// (draws.ts: a function of (seed, r, parameter) only) and is sampled at the same steps whatever
// batch, lane or shard runs it, and the engine steps it bit for bit alike in any lane, batch or
// thread count: so any split of the robots gives the very same rows.
//
// A robot whose state turns NaN or infinite gets a row that says so (diverged_step, diverged_joint;
// no metrics, no final state). The engine stops a block at its first non-finite state, so the batch
// it was in is run again without it: the others' rows are those of a batch that never held it,
// which are the same bytes, since no robot's motion depends on its neighbours.

import { Batch } from '../engine/batch.js';
import type { LaneWidth } from '../engine/api.js';
import { csvRows, type CsvRow } from '../reports/csv.js';
import { resultColumns, traceColumns } from './columns.js';
import { draw } from '../params/draws.js';
import { withParameters } from '../params/apply.js';
import type { ParameterValue } from '../params/names.js';
import { laneSharingProblem, setRobotModels, LANE_KINDS } from '../params/lanes.js';
import { robotParameters } from '../params/robot-values.js';
import { BatchMetrics } from './metrics.js';
import type { SweepPlan } from './plan.js';

export interface RunRobotsOptions {
  first: number;
  end: number;
  batchSize: number;
  lanes?: LaneWidth;
  threads: number;
  /** Checked between slices of steps: true stops (the result says so). */
  shouldStop: () => boolean;
  /** Robot-steps done since the last call (for a progress bar). */
  onSteps?: (robotSteps: number) => void;
}

export interface RobotsResult {
  /** The rows of results.csv and traces.csv as CSV text (no header), robot by robot: each batch's
   *  rows become text as soon as the batch is done, so a shard's memory is its text, not objects. */
  results: string;
  traces: string;
  stopped: boolean;
  lanes: LaneWidth;
  isa: string;
  /** The robots whose state turned non-finite (their rows say at which step), ascending. */
  diverged: number[];
}

/** A robot whose state turned NaN or infinite: the 1-based step that first did, and the joint. */
interface Diverged {
  robot: number;
  step: number;
  joint: string;
}

const MIDPOINT_ITERATIONS = 4;
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function runRobots(plan: SweepPlan, o: RunRobotsOptions): Promise<RobotsResult> {
  const results: string[] = [];
  const traces: string[] = [];
  const columns = { results: resultColumns(plan), traces: traceColumns(plan) };
  let lanes: LaneWidth = 1;
  let isa = 'scalar';
  const divergedRobots: number[] = [];
  // A robot with drawn model parameters runs its own model. Robots whose models differ only in
  // per-lane parameters (params/lanes.ts) share a batch, one per lane; otherwise each runs alone.
  const perLane = plan.modelDraws.every((d) => LANE_KINDS.includes(d.target.kind));
  const batchSize = perLane ? o.batchSize : 1;
  for (let a = o.first; a < o.end; a += batchSize) {
    const range = Array.from({ length: Math.min(a + batchSize, o.end) - a }, (_, i) => a + i);
    for (const group of laneGroups(plan, range, o.lanes)) {
      const stopped = await runGroup(plan, group, o, columns, results, traces, divergedRobots, (l, i) => ((lanes = l), (isa = i)));
      if (stopped) return { results: '', traces: '', stopped: true, lanes, isa, diverged: [] };
    }
  }
  return { results: results.join(''), traces: traces.join(''), stopped: false, lanes, isa, diverged: divergedRobots.sort((x, y) => x - y) };
}

/** `robots` as one batch, or one batch each when their drawn models cannot share lanes (a drawn
 *  armature in a model with constraints, a damping drawn zero for some robots only). */
function laneGroups(plan: SweepPlan, robots: number[], lanes: LaneWidth | undefined): number[][] {
  if (plan.modelDraws.length === 0 || robots.length === 1) return [robots];
  const models = robots.map((r) => withParameters(plan.model, robotModelValues(plan, [r], lanes)));
  const kinds = plan.modelDraws.map((d) => d.target.kind);
  return laneSharingProblem(models, kinds) === undefined ? [robots] : robots.map((r) => [r]);
}

/** One group's batch, run again without any robot that diverges; its rows appended as CSV text.
 *  True when stopped. */
async function runGroup(
  plan: SweepPlan,
  group: number[],
  o: RunRobotsOptions,
  columns: { results: ReturnType<typeof resultColumns>; traces: ReturnType<typeof traceColumns> },
  results: string[],
  traces: string[],
  divergedRobots: number[],
  ran: (lanes: LaneWidth, isa: string) => void,
): Promise<boolean> {
  let robots = group;
  const diverged: CsvRow[] = [];
  const kept: CsvRow[] = [];
  let rows: CsvRow[] = [];
  let traceRows: CsvRow[] = [];
  for (;;) {
    rows = [];
    traceRows = [];
    const r = await runBatch(plan, robots, o, rows, traceRows);
    ran(r.lanes, r.isa);
    if (r.stopped) return true;
    if (!r.diverged) break;
    const { robot, step, joint } = r.diverged;
    divergedRobots.push(robot);
    diverged.push({ robot, ...r.initial, diverged_step: step, diverged_joint: joint });
    // its trace up to the divergence (the same rows in any batch); the others' come from the rerun
    kept.push(...traceRows.filter((row) => row.robot === robot));
    rows = [];
    traceRows = [];
    robots = robots.filter((x) => x !== robot);
    if (robots.length === 0) break;
  }
  rows.push(...diverged);
  rows.sort((x, y) => (x.robot as number) - (y.robot as number));
  traceRows.push(...kept);
  // Traces in (robot, step) order: batches hold consecutive robots, so the shard's (and the
  // merged) traces are in that order whatever the batches were.
  traceRows.sort((x, y) => (x.robot as number) - (y.robot as number) || (x.step as number) - (y.step as number));
  results.push(csvRows(rows, columns.results));
  traces.push(csvRows(traceRows, columns.traces));
  return false;
}

interface BatchOutcome {
  stopped: boolean;
  lanes: LaneWidth;
  isa: string;
  /** The robot whose state turned non-finite first (the batch stopped there; no rows were kept). */
  diverged?: Diverged;
  /** Its drawn initial values, as results.csv's init: cells. */
  initial?: CsvRow;
}

/** The model parameter values of one robot (none without drawn model parameters). */
export function robotModelValues(
  plan: Pick<SweepPlan, 'modelDraws' | 'sweep'>,
  robots: readonly number[],
  lanes: LaneWidth | undefined,
): ParameterValue[] {
  if (plan.modelDraws.length === 0) return [];
  if (robots.length !== 1) throw new Error(`robotModelValues: one robot at a time (${robots.length} given)`);
  return robotParameters(plan.modelDraws, plan.sweep.seed, robots[0], lanes ?? 1);
}

/** Steps `robots` (global indices, ascending) in one batch; lane i holds robots[i]. */
async function runBatch(
  plan: SweepPlan,
  robots: number[],
  o: RunRobotsOptions,
  rows: CsvRow[],
  traceRows: CsvRow[],
): Promise<BatchOutcome> {
  const n = robots.length;
  // each robot's drawn values (params[i]) and model; the batch is made with the first's, the others
  // set in their lanes (laneGroups has checked that they may share it)
  const params = robots.map((r) => robotModelValues(plan, [r], o.lanes));
  const models = params.map((p) => withParameters(plan.model, p));
  const batch = new Batch(models[0], {
    copies: n,
    precision: plan.precision,
    ...(o.lanes ? { lanes: o.lanes } : {}),
    integrator: plan.integrator,
    dt: plan.dt,
    substeps: plan.substeps,
    midpointIterations: MIDPOINT_ITERATIONS,
    threads: o.threads,
  });
  if (plan.modelDraws.length) setRobotModels(batch, models);
  const S = batch.stride;
  // Each robot's start: the scene's state with its draws written over it.
  for (let i = 0; i < n; i++) {
    if (plan.draws.length === 0) break;
    const { q, v } = batch.getRobot(i);
    for (const d of plan.draws) (d.field === 'q' ? q : v)[d.index] = draw(d.dist, d.seed ?? plan.sweep.seed, robots[i], d.key);
    batch.setRobot(i, { q, v });
  }
  const initial = plan.draws.map((d) => Float64Array.from({ length: n }, (_, i) => (d.field === 'q' ? batch.q : batch.v)[d.index * S + i]));

  const metrics = new BatchMetrics(plan, batch);
  const traced = (plan.trace?.robots ?? []).filter((r) => robots.includes(r));
  const traceNow = (): void => {
    for (const r of traced) {
      const i = robots.indexOf(r);
      const row: Record<string, number> = { robot: r, step: batch.steps, time: batch.steps * plan.dt };
      plan.names.q.forEach((name, k) => (row[`q:${name}`] = batch.q[k * S + i]));
      plan.names.v.forEach((name, k) => (row[`v:${name}`] = batch.v[k * S + i]));
      traceRows.push(row);
    }
  };

  metrics.sample();
  if (traced.length) traceNow();
  if (metrics.energy) batch.monitorEnergyFromHere();
  const every = plan.sampleEvery;
  const traceEvery = plan.trace?.every ?? Infinity;
  let done = 0;
  let slice = 16;
  let lastYield = performance.now();
  while (done < plan.steps) {
    // The next step something is read at: a sample, a trace row, or the end.
    const nextSample = Math.min((Math.floor(done / every) + 1) * every, plan.steps);
    const nextTrace = traced.length ? Math.min((Math.floor(done / traceEvery) + 1) * traceEvery, plan.steps) : plan.steps;
    const target = Math.min(nextSample, nextTrace);
    while (done < target) {
      const k = Math.min(slice, target - done);
      const t0 = performance.now();
      // The engine tracks every robot's largest energy drift at every step only when it is kept.
      const r = metrics.energy ? batch.stepMonitored(k) : batch.stepRaw(k);
      if (r.nonFinite) {
        const i = r.nonFinite.robot;
        return {
          stopped: false,
          lanes: batch.lanes,
          isa: batch.isa,
          diverged: { robot: robots[i], step: r.nonFinite.step, joint: r.nonFinite.joint },
          initial: {
            ...Object.fromEntries(plan.draws.map((d, j) => [`init:${d.name}`, initial[j][i]])),
            ...Object.fromEntries(plan.modelDraws.map((d, j) => [`param:${d.name}`, params[i][j].value])),
          },
        };
      }
      done += k;
      o.onSteps?.(k * n);
      const ms = performance.now() - t0;
      // Slices of 20-100 ms keep Ctrl-C and the progress bar responsive without measurable cost.
      if (k === slice && ms < 20) slice *= 2;
      else if (ms > 100 && slice > 1) slice = Math.max(1, Math.floor(slice / 2));
      if (performance.now() - lastYield > 50) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
      if (o.shouldStop()) return { stopped: true, lanes: batch.lanes, isa: batch.isa };
    }
    if (done === nextSample) metrics.sample();
    if (traced.length && done === nextTrace) traceNow();
  }

  const cells = metrics.cells();
  for (let i = 0; i < n; i++) {
    const row: Record<string, number | boolean | undefined> = { robot: robots[i] };
    plan.draws.forEach((d, j) => (row[`init:${d.name}`] = initial[j][i]));
    plan.modelDraws.forEach((d, j) => (row[`param:${d.name}`] = params[i][j].value));
    Object.assign(row, cells[i]);
    if (plan.final) {
      plan.names.q.forEach((name, k) => (row[`q:${name}`] = batch.q[k * S + i]));
      plan.names.v.forEach((name, k) => (row[`v:${name}`] = batch.v[k * S + i]));
    }
    rows.push(row);
  }
  return { stopped: false, lanes: batch.lanes, isa: batch.isa };
}
