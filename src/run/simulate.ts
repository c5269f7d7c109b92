// The stepping loop of `achilles run`.
//
// Steps go in chunks of `recordEvery` (a record after each chunk and at the very end). Long
// chunks are cut into slices of ~20-100 ms so Ctrl-C and the progress bar stay responsive;
// between slices the loop yields to the event loop (signal handlers only run there), but at
// most every 50 ms so tiny chunks don't pay for it. Only the batch.step calls are timed.

import type { Batch } from '../engine/batch.js';
import type { Progress } from '../reports/progress.js';
import { checkFinite } from './finite-check.js';
import { Recorder } from './recorder.js';

export interface SimulateOptions {
  steps: number;
  recordEvery: number;
  robots: readonly number[];
  /** Checked after every slice; true stops the loop (the result says so). */
  shouldStop: () => boolean;
  /** Receives the steps done so far; called after every slice. */
  progress?: Progress;
  /** Steps per slice to start with (the loop adapts it). */
  initialSlice?: number;
}

/** Per recorded robot, over every step (not only the recorded ones): the largest |E − E(0)| and
 *  the peak kinetic energy, so the reported drift does not depend on --record. */
export interface EveryStepEnergy {
  robots: number[];
  maxAbsDrift: number[];
  peakKinetic: number[];
}

export interface SimulateResult {
  energy: EveryStepEnergy;
  recorder: Recorder;
  /** Steps actually taken (< steps when stopped). */
  stepsDone: number;
  stopped: boolean;
  /** Seconds spent inside batch.step only. */
  stepSeconds: number;
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function simulate(batch: Batch, o: SimulateOptions): Promise<SimulateResult> {
  const recorder = new Recorder(batch, o.robots);
  recorder.record();
  const energy = everyStepEnergy(batch, o.robots);
  // Recording every step already sees every state; otherwise step one at a time and read the
  // energies in between (measured: see README, "Outputs of achilles run").
  const perStep = o.recordEvery > 1;
  let done = 0;
  let stepMs = 0;
  let slice = Math.max(1, o.initialSlice ?? 16);
  let lastYield = performance.now();
  while (done < o.steps) {
    const chunkEnd = Math.min(done + o.recordEvery, o.steps);
    while (done < chunkEnd) {
      const k = Math.min(slice, chunkEnd - done);
      const t0 = performance.now();
      let observeMs = 0;
      if (perStep)
        for (let j = 0; j < k; j++) {
          batch.step(1); // throws NonFiniteStateError: nothing after it is meaningful
          const o0 = performance.now();
          energy.observe();
          observeMs += performance.now() - o0;
        }
      else batch.step(k);
      const ms = performance.now() - t0;
      // Throughput is timed on stepping only: the energy reads are the run's monitoring, not the engine.
      stepMs += ms - observeMs;
      done += k;
      // Aim for slices of 20-100 ms: responsive to Ctrl-C without measurable overhead.
      if (k === slice && ms < 20) slice *= 2;
      else if (ms > 100 && slice > 1) slice = Math.max(1, Math.floor(slice / 2));
      o.progress?.update(done);
      if (performance.now() - lastYield > 50) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
      if (o.shouldStop()) return { recorder, energy: energy.result(), stepsDone: done, stopped: true, stepSeconds: stepMs / 1000 };
    }
    checkFinite(batch);
    recorder.record();
    if (!perStep) energy.observe();
  }
  return { recorder, energy: energy.result(), stepsDone: done, stopped: false, stepSeconds: stepMs / 1000 };
}

/** Tracks the recorded robots' largest |E − E(0)| and peak kinetic energy at every observed state. */
function everyStepEnergy(batch: Batch, robots: readonly number[]) {
  // Totals rounded as the recorder rounds them (batch.energy(): in the batch's precision), so every
  // recorded drift is one of the drifts seen here and the maximum cannot depend on --record.
  const total = batch.precision === 'f32' ? (k: number, p: number) => Math.fround(k + p) : (k: number, p: number) => k + p;
  const e0 = batch.energyViews();
  const initial = robots.map((r) => total(e0.kinetic[r], e0.potential[r]));
  const maxAbsDrift = robots.map(() => 0);
  const peakKinetic = robots.map((r) => e0.kinetic[r]);
  return {
    observe(): void {
      const e = batch.energyViews();
      for (let i = 0; i < robots.length; i++) {
        const r = robots[i];
        const d = Math.abs(total(e.kinetic[r], e.potential[r]) - initial[i]);
        // NaN-safe: a non-finite state is reported by the step itself.
        if (d > maxAbsDrift[i]) maxAbsDrift[i] = d;
        if (e.kinetic[r] > peakKinetic[i]) peakKinetic[i] = e.kinetic[r];
      }
    },
    result: (): EveryStepEnergy => ({ robots: [...robots], maxAbsDrift, peakKinetic }),
  };
}
