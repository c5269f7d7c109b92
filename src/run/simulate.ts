// The stepping loop of `achilles run`.
//
// Steps go in chunks of `recordEvery` (a record after each chunk and at the very end). Long
// chunks are cut into slices of ~20-100 ms so Ctrl-C and the progress bar stay responsive;
// between slices the loop yields to the event loop (signal handlers only run there), but at
// most every 50 ms so tiny chunks don't pay for it. Only the batch.step calls are timed.
// With a replay sampler (--html) a slice also ends at each of its frame steps, where the sampler
// reads the state: the replay shows the run's own poses. Cutting a slice changes neither the
// states (a step is a step however they are grouped) nor when records are taken.

import { NonFiniteStateError, type Batch } from '../engine/batch.js';
import type { ControlLoop } from '../control/controller.js';
import type { Progress } from '../reports/progress.js';
import { checkFinite } from './finite-check.js';
import { Recorder } from './recorder.js';
import type { SensorBank } from '../sensors/bank.js';
import type { StepSampler } from '../viewer/record.js';

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
  /** Sensors read after every step (and at step 0): with them the engine steps one step per call. */
  sensors?: SensorBank | null;
  /** A controller: called before every step (at its rate), so the batch steps one step at a time. */
  control?: ControlLoop;
  /** Sampled at its own steps (step 0 included, after the sensors are read): the replay's frames. */
  frames?: StepSampler;
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
  const sensors = o.sensors ?? null;
  sensors?.update(); // step 0
  const recorder = new Recorder(batch, o.robots, sensors?.readings ?? null);
  recorder.record();
  const frames = o.frames;
  let done = 0;
  const sampleDue = (): void => {
    if (frames && frames.nextStep() === done) frames.sample();
  };
  sampleDue();
  // The engine tracks every robot's largest |E − E(0)| and peak kinetic energy at every step.
  batch.monitorEnergyFromHere();
  const energy = everyStepEnergy(batch, o.robots);
  let stepMs = 0;
  let slice = Math.max(1, o.initialSlice ?? 16);
  let lastYield = performance.now();
  while (done < o.steps) {
    const chunkEnd = Math.min(done + o.recordEvery, o.steps);
    while (done < chunkEnd) {
      const k = Math.min(slice, chunkEnd - done, (frames?.nextStep() ?? Infinity) - done);
      const t0 = performance.now();
      const r = sensors || o.control ? await stepEach(batch, k, sensors, o.control) : batch.stepMonitored(k);
      // A non-finite state ends the run: nothing after it is meaningful.
      if (r.nonFinite) throw new NonFiniteStateError(r.nonFinite, r.nonFinite.step * batch.dt);
      const ms = performance.now() - t0;
      stepMs += ms;
      done += k;
      sampleDue();
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

/** k single steps: the controller's turn before each, the sensors read after each (a non-finite
 *  state stops at once, unread). */
async function stepEach(
  batch: Batch,
  k: number,
  sensors: SensorBank | null,
  control: ControlLoop | undefined,
): Promise<ReturnType<Batch['stepMonitored']>> {
  let robotSteps = 0;
  for (let i = 0; i < k; i++) {
    const pending = control?.beforeStep();
    if (pending) await pending; // a controller that answers asynchronously (a policy)
    const r = batch.stepMonitored(1);
    robotSteps += r.robotSteps;
    if (r.nonFinite) return { robotSteps, nonFinite: r.nonFinite };
    sensors?.update();
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
