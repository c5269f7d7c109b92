// FLOP accounting: the engine counts the flops of one robot-step exactly (its templated kernels
// run on a counting scalar type); we turn rates into GFLOP/s and a fraction of the machine's peak.

import { toNativeModel } from '../engine/batch.js';
import type { Precision } from '../engine/api.js';
import type { IntegratorName, ModelDesc } from '../engine/model-desc.js';
import { engineAddon } from '../engine/native.js';

export interface FlopCount {
  add: number;
  mul: number;
  div: number;
  sqrt: number;
  cmp: number;
  total: number;
  /** The same count by pass (the engine's passes.hpp names), in pipeline order. */
  byPass: { pass: string; total: number }[];
}

/** "velocity 1,234 (25%), …": where a robot-step's flops go. */
export function describeFlopsByPass(f: FlopCount): string {
  return f.byPass
    .filter((p) => p.total > 0)
    .map((p) => `${p.pass} ${p.total} (${((100 * p.total) / f.total).toFixed(0)}%)`)
    .join(', ');
}

type CountFlops = (
  model: object,
  opts: { integrator: IntegratorName; substeps: number; midpointIterations: number; dt: number },
) => FlopCount;

export function countFlops(model: ModelDesc, integrator: IntegratorName): FlopCount {
  const fn = (engineAddon() as unknown as { countFlops?: CountFlops }).countFlops;
  if (typeof fn !== 'function') {
    throw new Error(
      'countFlops missing from the addon: rebuild the engine (npm run build:native) with a version that exports it, or drop --flops',
    );
  }
  return fn(toNativeModel(model), { integrator, substeps: model.world.substeps, midpointIterations: 4, dt: model.world.dt });
}

/** One core's measured add+mul peak at one pack width (native peak.hpp), and its clock then. */
export interface PeakMeasure {
  precision: Precision;
  lanes: number;
  gflops: number;
  clockMHz: number;
}

type MeasurePeak = (o: { precision: Precision; lanes: number; seconds: number }) => { gflops: number; clockMHz: number };

/**
 * Measure the peak at each (precision, lanes) now, on this core: a loop of independent vector adds
 * and multiplies (no FMA, as the engine), the best of about 2 ms runs over 0.2 s, with the clock measured by a
 * chain of dependent integer adds. A cell's fraction of peak divides by the peak of its own pack
 * width (times its threads), so it says how much of what that code could reach it reaches.
 */
export function measurePeaks(cells: { precision: Precision; lanes: number }[], seconds = 0.2): PeakMeasure[] {
  const fn = (engineAddon() as unknown as { measurePeak?: MeasurePeak }).measurePeak;
  if (typeof fn !== 'function') {
    throw new Error('measurePeak missing from the addon: rebuild the engine (npm run build:native), or drop --flops');
  }
  const seen = new Set<string>();
  const out: PeakMeasure[] = [];
  for (const c of cells) {
    const key = `${c.precision}x${c.lanes}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...c, ...fn({ precision: c.precision, lanes: c.lanes, seconds }) });
  }
  return out;
}

export function peakFor(peaks: PeakMeasure[], precision: Precision, lanes: number): PeakMeasure | undefined {
  return peaks.find((p) => p.precision === precision && p.lanes === lanes);
}

export function describePeaks(peaks: PeakMeasure[]): string {
  const clock = Math.max(...peaks.map((p) => p.clockMHz));
  return (
    `peak measured in this run on one core (independent vector adds and multiplies, no FMA, best of ~2 ms runs over 0.2 s; ` +
    `clock ${clock.toFixed(0)} MHz measured by dependent integer adds): ` +
    peaks.map((p) => `${p.precision}×${p.lanes} ${p.gflops.toFixed(1)} GFLOP/s`).join(', ') +
    "; a cell's % of peak divides by the peak of its own precision and lanes × its threads"
  );
}
