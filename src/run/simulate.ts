// The stepping loop of `achilles run`.
//
// Steps go in chunks of `recordEvery` (a record after each chunk and at the very end). Long
// chunks are cut into slices of ~20-100 ms so Ctrl-C and the progress bar stay responsive;
// between slices the loop yields to the event loop (signal handlers only run there), but at
// most every 50 ms so tiny chunks don't pay for it. Only the batch.step calls are timed.

import { NonFiniteStateError, type Batch } from '../engine/batch.js';
import type { ControlLoop } from '../control/controller.js';
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
  /** A controller: called before every step (at its rate), so the batch steps one step at a time. */
  control?: ControlLoop;
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
  // The engine tracks every robot's largest |E − E(0)| and peak kinetic energy at every step.
  batch.monitorEnergyFromHere();
  const energy = everyStepEnergy(batch, o.robots);
  let done = 0;
  let stepMs = 0;
  let slice = Math.max(1, o.initialSlice ?? 16);
  let lastYield = performance.now();
  while (done < o.steps) {
    const chunkEnd = Math.min(done + o.recordEvery, o.steps);
    while (done < chunkEnd) {
      const k = Math.min(slice, chunkEnd - done);
      const t0 = performance.now();
      const r = o.control ? stepControlled(batch, o.control, k) : batch.stepMonitored(k);
      // A non-finite state ends the run: nothing after it is meaningful.
      if (r.nonFinite) throw new NonFiniteStateError(r.nonFinite, r.nonFinite.step * batch.dt);
      const ms = performance.now() - t0;
      stepMs += ms;
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
  }
  return { recorder, energy: energy.result(), stepsDone: done, stopped: false, stepSeconds: stepMs / 1000 };
}

/** k single steps, each after the controller's turn; stops at the first non-finite state. */
function stepControlled(batch: Batch, control: ControlLoop, k: number): ReturnType<Batch['stepMonitored']> {
  let robotSteps = 0;
  for (let i = 0; i < k; i++) {
    control.beforeStep();
    const r = batch.stepMonitored(1);
    robotSteps += r.robotSteps;
    if (r.nonFinite) return { robotSteps, nonFinite: r.nonFinite };
  }
  return { robotSteps, nonFinite: null };
}

/** The recorded robots' largest |E − E(0)| and peak kinetic energy, as the engine tracked them at every step. */
function everyStepEnergy(batch: Batch, robots: readonly number[]) {
  return {
    result(): EveryStepEnergy {
      const m = batch.energyMaxima();
      return { robots: [...robots], maxAbsDrift: robots.map((r) => m.maxAbsDrift[r]), peakKinetic: robots.map((r) => m.peakKinetic[r]) };
    },
  };
}
