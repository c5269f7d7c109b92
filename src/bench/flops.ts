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
}

type CountFlops = (model: object, opts: { integrator: IntegratorName; substeps: number; midpointIterations: number; dt: number }) => FlopCount;

export function countFlops(model: ModelDesc, integrator: IntegratorName): FlopCount {
  const fn = (engineAddon() as unknown as { countFlops?: CountFlops }).countFlops;
  if (typeof fn !== 'function') {
    throw new Error('countFlops missing from the addon: rebuild the engine (npm run build:native) with a version that exports it, or drop --flops');
  }
  return fn(toNativeModel(model), { integrator, substeps: model.world.substeps, midpointIterations: 4, dt: model.world.dt });
}

/** SIMD lanes of the widest vector unit this CPU has, for one precision. */
export function widestVectorLanes(widestLanesF32: number, precision: Precision): number {
  return precision === 'f32' ? widestLanesF32 : Math.max(1, widestLanesF32 / 2);
}

/** Floating-point pipes that each retire one vector add or mul per cycle (Zen 4, Ice Lake+: 2). */
export const FP_PIPES = 2;

/**
 * Peak GFLOP/s we measure against, per thread: pipes × lanes × 1 flop × clock. No FMA (the
 * engine does not fuse), so each add or mul lane is one flop; with FMA the peak would double.
 */
export function peakGflops(mhz: number, widestLanesF32: number, precision: Precision, threads: number): number {
  return (FP_PIPES * widestVectorLanes(widestLanesF32, precision) * mhz * 1e6 * threads) / 1e9;
}

export function describePeak(mhz: number, widestLanesF32: number): string {
  return (
    `peak = ${FP_PIPES} FP pipes × vector lanes (f32 ${widestVectorLanes(widestLanesF32, 'f32')}, f64 ${widestVectorLanes(widestLanesF32, 'f64')}) ` +
    `× 1 flop (no FMA) × ${mhz.toFixed(0)} MHz (/proc/cpuinfo) per thread (nominal clock: a fraction above 100% means the core boosts above it) = ` +
    `${peakGflops(mhz, widestLanesF32, 'f32', 1).toFixed(1)} GFLOP/s f32, ${peakGflops(mhz, widestLanesF32, 'f64', 1).toFixed(1)} GFLOP/s f64`
  );
}
