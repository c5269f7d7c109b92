// Steps robots [first, end) of a sweep and keeps what the plan asks for, in batches of at most
// `batchSize` robots. Robot r (a global index) starts from the scene's state with its own draws
// (draws.ts: a function of (seed, r, parameter) only) and is sampled at the same steps whatever
// batch, lane or shard runs it, and the engine steps it bit for bit alike in any lane, batch or
// thread count: so any split of the robots gives the very same rows.

import { Batch } from '../engine/batch.js';
import type { LaneWidth } from '../engine/api.js';
import { csvRows, type CsvRow } from '../reports/csv.js';
import { resultColumns, traceColumns } from './columns.js';
import { draw } from './draws.js';
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
}

/** A robot's state turned NaN or infinite: which robot, when, and what it was drawn to start from. */
export class SweepDivergedError extends Error {
  constructor(
    readonly robot: number,
    readonly step: number,
    readonly joint: string,
    draws: string,
  ) {
    super(`robot ${robot} diverged at step ${step} (joint ${joint})${draws ? `; it started from ${draws}` : ''}`);
    this.name = 'SweepDivergedError';
  }
}

const MIDPOINT_ITERATIONS = 4;
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function runRobots(plan: SweepPlan, o: RunRobotsOptions): Promise<RobotsResult> {
  const results: string[] = [];
  const traces: string[] = [];
  const columns = { results: resultColumns(plan), traces: traceColumns(plan) };
  let lanes: LaneWidth = 1;
  let isa = 'scalar';
  for (let a = o.first; a < o.end; a += o.batchSize) {
    const b = Math.min(a + o.batchSize, o.end);
    const rows: CsvRow[] = [];
    const traceRows: CsvRow[] = [];
    const r = await runBatch(plan, a, b, o, rows, traceRows);
    lanes = r.lanes;
    isa = r.isa;
    if (r.stopped) return { results: '', traces: '', stopped: true, lanes, isa };
    // Traces in (robot, step) order: batches hold consecutive robots, so the shard's (and the
    // merged) traces are in that order whatever the batches were.
    traceRows.sort((x, y) => (x.robot as number) - (y.robot as number) || (x.step as number) - (y.step as number));
    results.push(csvRows(rows, columns.results));
    traces.push(csvRows(traceRows, columns.traces));
  }
  return { results: results.join(''), traces: traces.join(''), stopped: false, lanes, isa };
}

async function runBatch(
  plan: SweepPlan,
  first: number,
  end: number,
  o: RunRobotsOptions,
  rows: CsvRow[],
  traceRows: CsvRow[],
): Promise<{ stopped: boolean; lanes: LaneWidth; isa: string }> {
  const n = end - first;
  const batch = new Batch(plan.model, {
    copies: n,
    precision: plan.precision,
    ...(o.lanes ? { lanes: o.lanes } : {}),
    integrator: plan.integrator,
    dt: plan.dt,
    substeps: plan.substeps,
    midpointIterations: MIDPOINT_ITERATIONS,
    threads: o.threads,
  });
  const S = batch.stride;
  // Each robot's start: the scene's state with its draws written over it.
  for (let i = 0; i < n; i++) {
    if (plan.draws.length === 0) break;
    const { q, v } = batch.getRobot(i);
    for (const d of plan.draws) (d.field === 'q' ? q : v)[d.index] = draw(d.dist, plan.sweep.seed, first + i, d.key);
    batch.setRobot(i, { q, v });
  }
  const initial = plan.draws.map((d) => Float64Array.from({ length: n }, (_, i) => (d.field === 'q' ? batch.q : batch.v)[d.index * S + i]));

  const metrics = new BatchMetrics(plan, batch);
  const traced = (plan.trace?.robots ?? []).filter((r) => r >= first && r < end);
  const traceNow = (): void => {
    for (const r of traced) {
      const i = r - first;
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
        const robot = first + r.nonFinite.robot;
        const drawn = plan.draws.map((d, j) => `${d.name} = ${initial[j][r.nonFinite!.robot]}`).join(', ');
        throw new SweepDivergedError(robot, r.nonFinite.step, r.nonFinite.joint, drawn);
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
    const row: Record<string, number | boolean | undefined> = { robot: first + i };
    plan.draws.forEach((d, j) => (row[`init:${d.name}`] = initial[j][i]));
    Object.assign(row, cells[i]);
    if (plan.final) {
      plan.names.q.forEach((name, k) => (row[`q:${name}`] = batch.q[k * S + i]));
      plan.names.v.forEach((name, k) => (row[`v:${name}`] = batch.v[k * S + i]));
    }
    rows.push(row);
  }
  return { stopped: false, lanes: batch.lanes, isa: batch.isa };
}
