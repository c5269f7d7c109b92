// How big a sweep is, before it runs or is emitted: its work, the bytes it writes, and the memory of
// a shard while it runs. Past a limit (SWEEP_LIMITS) it is refused with the estimate unless the user
// passes --yes: `robots: 1000000000` is more often a slip than a plan, and it would otherwise run
// 976,563 shards one after the other and fill the disk before anyone looked.
//
// Where each number comes from (docs/sweep-format.md, "Size"):
//   work    robots × steps: the robot-steps the progress bar counts.
//   disk    results.csv has one row per robot, with the plan's columns (columns.ts): numbers in
//           shortest round-trip text, 19 characters as a rule ("0." and 17 significant digits);
//           traces.csv one row per traced robot and trace step (step 0, every `every`, the last).
//           Each shard writes its rows with the provenance header and a shard.json; the merge writes
//           the rows again, with the charts (a panel per charted column) and sweep.json.
//   memory  one batch's engine state (batchBytes: the engine's own layout, without allocating it),
//           and the shard's rows, which run-robots.ts keeps as text until the shard is written
//           (twice over while the parts are joined into one string).
//   string  a shard's rows become one string (run-robots.ts), and the merge holds the merged
//           results.csv as one (merge.ts): past Node's longest string the run fails at its end.

import { constants } from 'node:buffer';
import type { LaneWidth } from '../engine/api.js';
import { batchBytes } from '../engine/batch.js';
import { registerLanes } from '../engine/lanes.js';
import { formatBytes } from '../engine/memory.js';
import { engineAddon } from '../engine/native.js';
import { LANE_KINDS } from '../params/lanes.js';
import { csvHeader } from '../reports/csv.js';
import { UsageError } from '../util/usage-error.js';
import { resultColumns, traceColumns } from './columns.js';
import type { SweepPlan } from './plan.js';
import { provenance } from './provenance.js';
import { shardRange, type Shard } from './shards.js';

const GiB = 2 ** 30;

/** What a sweep may need without --yes. About ten hours of one core at the quadruped's 3·10⁵
 *  robot-steps/s; a disk's worth of CSV that nobody reads whole; a shard that fits a laptop. */
export const SWEEP_LIMITS = {
  robotSteps: 1e10,
  diskBytes: 10 * GiB,
  memoryBytes: 4 * GiB,
  /** Not a choice: the longest string Node can make (characters). */
  stringChars: constants.MAX_STRING_LENGTH,
};

/** Characters of a number in shortest round-trip text ("0." and 17 significant digits); the
 *  bundled sweep's results average 19.0, at most 25 ("-0.000003828708321957287"). */
const NUMBER_CHARS = 19;
/** A contact count, and `true`/`false`. */
const COUNT_CHARS = 3;
const BOOLEAN_CHARS = 5;
/** A shard's shard.json and its output set's manifest (the bundled sweep's: 590 and 196 bytes). */
const SHARD_RECORD_BYTES = 1024;
/** One chart panel, as SVG and Vega-Lite (the bundled sweep's average: 16 KiB), and sweep.json. */
const CHART_PANEL_BYTES = 16 * 1024;
const SWEEP_JSON_BYTES = 4 * 1024;
/** Columns the charts leave out (charts.ts). */
const NOT_CHARTED = new Set(['robot', 'fell', 'fell_time', 'diverged_step', 'diverged_joint']);

export interface SweepEstimate {
  /** What runs: here, or on the cluster for --emit. */
  robots: number;
  steps: number;
  robotSteps: number;
  shards: number;
  /** Bytes of one results.csv row. */
  resultRowBytes: number;
  /** Every file written: the shards', and the merged ones when `merged`. */
  diskBytes: number;
  merged: boolean;
  /** The largest shard while it runs: one batch's engine state, and its rows as text. */
  largestShard: number;
  batchRobots: number;
  engineBytes: number;
  rowTextBytes: number;
  memoryBytes: number;
  /** The strings the run makes of its rows (characters), which, and what would shorten them. */
  strings: { chars: number; what: string; remedy: string }[];
}

export interface EstimateScope {
  /** The split. */
  count: number;
  /** The one shard run here; undefined: every shard, then the merge. */
  only?: Shard;
  batch: number;
  lanes?: LaneWidth;
}

/** The characters of one cell of `column`, as a rule. */
function cellChars(column: string, robots: number, steps: number): number {
  if (column === 'robot') return String(robots - 1).length;
  if (column === 'step') return String(steps).length;
  if (column === 'diverged_step' || column === 'diverged_joint') return 0; // empty unless the robot diverged
  if (column === 'fell') return BOOLEAN_CHARS;
  if (column === 'contacts' || column === 'max_contacts') return COUNT_CHARS;
  return NUMBER_CHARS;
}

/** A CSV row's bytes: its cells, a comma between them, a newline. */
function rowBytes(columns: readonly string[], robots: number, steps: number): number {
  return columns.reduce((n, c) => n + cellChars(c, robots, steps), 0) + columns.length;
}

/** Trace rows of one traced robot: step 0, every `every` steps, and the last (run-robots.ts). */
function traceRowsPerRobot(steps: number, every: number): number {
  return 1 + Math.ceil(steps / every);
}

/** Panels of metrics.svg and draws.svg (charts.ts: a histogram per metric column and per draw, and
 *  the bar of how many fell). */
function chartPanels(columns: readonly string[]): number {
  const metrics = columns.filter((c) => !NOT_CHARTED.has(c) && !/^(init|q|v):/.test(c)).length;
  return metrics + columns.filter((c) => c.startsWith('init:')).length + (columns.includes('fell') ? 1 : 0);
}

/** The robots run here, the largest shard's, and the traced robots among them. */
function scopeRobots(plan: SweepPlan, scope: EstimateScope): { robots: number; shards: number; largest: number; traced: number } {
  const traced = plan.trace?.robots ?? [];
  if (scope.only) {
    const { first, end } = shardRange(plan.sweep.robots, scope.only);
    const n = end - first;
    return { robots: n, shards: 1, largest: n, traced: traced.filter((r) => r >= first && r < end).length };
  }
  const largest = Math.ceil(plan.sweep.robots / scope.count);
  return { robots: plan.sweep.robots, shards: scope.count, largest, traced: traced.length };
}

/** The largest batch a shard of `largest` robots steps, and its engine state (batch.ts batchBytes:
 *  the engine's own layout, not allocated). Robots whose drawn models cannot share lanes run one per
 *  batch (run-robots.ts). */
function batchEstimate(plan: SweepPlan, scope: EstimateScope, largest: number): { batchRobots: number; engineBytes: number } {
  const perLane = plan.modelDraws.every((d) => LANE_KINDS.includes(d.target.kind));
  const batchRobots = Math.min(perLane ? scope.batch : 1, largest);
  const lanes = scope.lanes ?? registerLanes(engineAddon().cpuInfo(), plan.precision);
  return { batchRobots, engineBytes: batchBytes(plan.model, batchRobots, plan.precision, lanes) };
}

export function estimateSweep(plan: SweepPlan, scope: EstimateScope): SweepEstimate {
  const { robots, shards, largest, traced } = scopeRobots(plan, scope);
  const all = plan.sweep.robots;
  const results = resultColumns(plan);
  const resultRow = rowBytes(results, all, plan.steps);
  const meta = provenance(plan, '0'.repeat(64));
  const traceRow = plan.trace ? rowBytes(traceColumns(plan), all, plan.steps) : 0;
  const tracePerRobot = plan.trace ? traceRowsPerRobot(plan.steps, plan.trace.every) * traceRow : 0;
  const headers = csvHeader(results, meta).length + (plan.trace ? csvHeader(traceColumns(plan), meta).length : 0);
  const rows = robots * resultRow + traced * tracePerRobot;
  const merged = scope.only === undefined;
  const mergedBytes = merged ? rows + headers + chartPanels(results) * CHART_PANEL_BYTES + SWEEP_JSON_BYTES : 0;
  const { batchRobots, engineBytes } = batchEstimate(plan, scope, largest);
  const rowText = largest * resultRow + Math.min(traced, largest) * tracePerRobot;
  const shardString = { chars: largest * resultRow, what: "a shard's results", remedy: 'more shards (--shards N)' };
  const mergedString = {
    chars: robots * resultRow,
    what: 'the merged results.csv',
    remedy: 'fewer robots, or `keep: { final: false }`; or run the shards (--shard I/N) and leave them unmerged',
  };
  return {
    robots,
    steps: plan.steps,
    robotSteps: robots * plan.steps,
    shards,
    resultRowBytes: resultRow,
    diskBytes: rows + shards * (headers + SHARD_RECORD_BYTES) + mergedBytes,
    merged,
    largestShard: largest,
    batchRobots,
    engineBytes,
    rowTextBytes: rowText,
    memoryBytes: engineBytes + 2 * rowText,
    strings: merged ? [shardString, mergedString] : [shardString],
  };
}

/** 1,234,567 below ten million, 1.23e10 above (1e10, not 1.00e10). */
function count(n: number): string {
  return n < 1e7 ? n.toLocaleString('en-US') : Number(n.toPrecision(3)).toExponential().replace('e+', 'e');
}

const past = (over: boolean, limit: string): string => (over ? `: past the limit of ${limit}` : ` (limit ${limit})`);

/** The estimate, a line per quantity, each with its limit. */
export function estimateLines(e: SweepEstimate, limits = SWEEP_LIMITS): string[] {
  const shardWord = e.shards === 1 ? '1 shard' : `${count(e.shards)} shards`;
  const lines = [
    `work: ${count(e.robots)} robot${e.robots === 1 ? '' : 's'} × ${count(e.steps)} steps = ${count(e.robotSteps)} robot-steps${past(e.robotSteps > limits.robotSteps, count(limits.robotSteps))}`,
    `disk: about ${formatBytes(e.diskBytes)} (results.csv rows of ${e.resultRowBytes} bytes, in ${shardWord}${e.merged ? ', then merged' : ''})${past(e.diskBytes > limits.diskBytes, formatBytes(limits.diskBytes))}`,
    `memory: about ${formatBytes(e.memoryBytes)} while a shard of ${count(e.largestShard)} robots runs (a batch of ${count(e.batchRobots)}: ${formatBytes(e.engineBytes)} of engine state; the shard's rows as text: ${formatBytes(e.rowTextBytes)})${past(e.memoryBytes > limits.memoryBytes, formatBytes(limits.memoryBytes))}`,
  ];
  for (const s of e.strings.filter((x) => x.chars > limits.stringChars))
    lines.push(
      `string: ${s.what} would be one string of about ${count(s.chars)} characters, past Node's longest (${count(limits.stringChars)}): the run would fail at its end; ${s.remedy}`,
    );
  return lines;
}

/** Whether any quantity is past its limit. */
export function pastLimits(e: SweepEstimate, limits = SWEEP_LIMITS): boolean {
  return (
    e.robotSteps > limits.robotSteps ||
    e.diskBytes > limits.diskBytes ||
    e.memoryBytes > limits.memoryBytes ||
    e.strings.some((s) => s.chars > limits.stringChars)
  );
}

/** Refuses a sweep past the limits unless `yes` (--yes), with the estimate and the ways on.
 *  `emit`: the sweep is being emitted, not run. */
export function checkSweepSize(e: SweepEstimate, o: { yes: boolean; emit: boolean }, limits = SWEEP_LIMITS): void {
  if (o.yes || !pastLimits(e, limits)) return;
  const accept = o.emit ? 'Pass --yes to emit it as it is (its tasks then run with --yes too)' : 'Pass --yes to run it as it is';
  throw new UsageError(
    [
      `this sweep is larger than achilles ${o.emit ? 'emits' : 'runs'} without asking (docs/sweep-format.md, "Size"):`,
      ...estimateLines(e, limits).map((l) => `  ${l}`),
      `${accept}, or make it smaller: fewer robots or a shorter duration (work, disk); \`keep: { final: false }\` or fewer traced robots (disk); more shards, --shards N (memory per shard).`,
    ].join('\n'),
    'sweep',
  );
}
