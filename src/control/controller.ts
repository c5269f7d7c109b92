// Controllers: a function called every step (or at its own rate) with views of the whole batch.
//
// A controller never gets one robot at a time: it reads q, v and the sensor readings of every robot
// (structure of arrays: component k of robot r at [k * stride + r]) and writes every robot's
// controls into `ctrl` (actuator a of robot r at [a * stride + r]). Its output is held between its
// calls (zero-order hold) and copied into the engine's double-buffered control half before each
// step, so it acts over exactly the next step (src/engine/batch.ts `ctrl`).

import type { Real } from '../engine/api.js';
import type { Batch } from '../engine/batch.js';
import { ControllerError, NonFiniteControlError, isBadControl } from './errors.js';

/** Sensor readings as the sensors branch provides them (src/sensors/readings.ts `SensorReadings`):
 *  channel c of robot r at data[c * stride + r]; updated in place, same object every step. */
export interface SensorReadingsLike {
  readonly channels: readonly string[];
  readonly data: Float64Array;
  readonly stride: number;
  channel(name: string): Float64Array;
}

/** What owns the readings: updated once before the first step and after every step. */
export interface SensorSource {
  readonly readings: SensorReadingsLike;
  update(): void;
}

/** No sensors: no channels. */
export function emptyReadings(stride: number): SensorReadingsLike {
  return {
    channels: [],
    data: new Float64Array(0),
    stride,
    channel(name: string): Float64Array {
      throw new Error(`no sensor channel '${name}' (the scene declares no sensors)`);
    },
  };
}

/** What a controller sees and writes; the arrays are views (no copy) and stay the same objects. */
export interface ControlIO {
  readonly copies: number;
  readonly stride: number;
  readonly nq: number;
  readonly nv: number;
  readonly nu: number;
  /** Actuator names, in control order. */
  readonly actuators: readonly string[];
  /** Simulated time (s) and steps taken at this call. */
  time: number;
  step: number;
  /** Positions, velocities: views on the engine's state (read them, don't write). */
  readonly q: Real;
  readonly v: Real;
  /** Sensor readings of every robot (no channels when the scene declares no sensors). */
  readonly sensors: SensorReadingsLike;
  /** The controls to write: ctrl[a * stride + r]. Held until the controller's next call. */
  readonly ctrl: Float64Array;
}

export interface Controller {
  /** How errors and the run's metadata name it: a module's path, or `pd (N terms)`. */
  name?: string;
  /** Calls per simulated second (absent: every step). */
  rate?: number;
  init?(io: ControlIO): void;
  /** May return a promise (a policy run by onnxruntime): the step waits for it. */
  update(io: ControlIO): void | Promise<void>;
  /** Charts of the finished run from its recorded trace (name → Vega-Lite spec), written beside the
   *  run's own (`achilles run`). Optional; a module may export it as `report`. */
  report?(trace: { columns: readonly string[]; rows: readonly (readonly number[])[] }): Record<string, Record<string, unknown>>;
  /** The top stack frame of an error inside the controller's own code, as `fn (FILE:LINE:COL)`
   *  (set by loadControllerModule); errors name it. */
  where?(error: unknown): string | undefined;
}

/** A controller bound to a batch: call beforeStep() before each single step. */
export class ControlLoop {
  readonly io: ControlIO;
  private readonly every: number;
  private started = false;

  constructor(
    readonly batch: Batch,
    readonly controller: Controller,
    readonly source?: SensorSource,
  ) {
    const b = batch;
    this.io = {
      copies: b.copies,
      stride: b.stride,
      nq: b.nq,
      nv: b.nv,
      nu: b.nu,
      actuators: (b.model.actuators ?? []).map((a) => a.name),
      time: b.time,
      step: b.steps,
      q: b.q,
      v: b.v,
      sensors: source?.readings ?? emptyReadings(b.stride),
      ctrl: new Float64Array(b.nu * b.stride),
    };
    const rate = controller.rate;
    if (rate !== undefined && !(rate > 0 && Number.isFinite(rate)))
      throw new Error(`controller rate must be a positive number of calls per second (got ${rate})`);
    // A call every `every` steps: the rate rounded to whole steps (at least every step).
    this.every = rate === undefined ? 1 : Math.max(1, Math.round(1 / (rate * b.dt)));
  }

  /** Steps between the controller's calls. */
  get period(): number {
    return this.every;
  }

  /** Call the controller when due, then hand its held controls to the next step. Throws
   *  ControllerError when the controller throws, NonFiniteControlError when it wrote NaN, ±Infinity or |u| > 1e10.
   *  Returns a promise when the controller's update did (the caller awaits it before stepping). */
  beforeStep(): void | Promise<void> {
    const b = this.batch;
    this.source?.update(); // the readings at the state the next step starts from
    let called = false;
    if (!this.started) {
      this.started = true;
      if (this.controller.init) {
        this.call('init');
        called = true;
      }
    }
    if (b.steps % this.every === 0) {
      const pending = this.call('update');
      if (pending) return pending.then(() => this.handOver(true));
      called = true;
    }
    this.handOver(called);
  }

  private handOver(called: boolean): void {
    const b = this.batch;
    // Before the engine sees them: its ctrlrange clamp would turn a NaN into a bound and hide it.
    if (called) this.checkFinite();
    if (b.nu > 0) b.ctrl.set(this.io.ctrl);
  }

  /** How errors name the controller. */
  get name(): string {
    return this.controller.name ?? 'controller';
  }

  private call(phase: 'init' | 'update'): Promise<void> | undefined {
    const b = this.batch;
    this.io.time = b.time;
    this.io.step = b.steps;
    const at = { step: b.steps, time: b.time };
    const wrap = (e: unknown) => new ControllerError(this.name, phase, at, e, this.controller.where?.(e));
    try {
      if (phase === 'init') this.controller.init?.(this.io);
      else {
        const r = this.controller.update(this.io);
        if (r instanceof Promise)
          return r.catch((e) => {
            throw wrap(e);
          });
      }
    } catch (e) {
      throw wrap(e);
    }
    return undefined;
  }

  /** Every robot's controls (not the padding lanes past `copies`) are good (isBadControl: finite,
   *  |u| <= 1e10), the rule the native step applies again to what it reads. */
  private checkFinite(): void {
    const { ctrl, copies, stride, nu, actuators } = this.io;
    for (let a = 0; a < nu; a++) {
      for (let r = 0; r < copies; r++) {
        const u = ctrl[a * stride + r];
        if (isBadControl(u))
          throw new NonFiniteControlError(this.name, actuators[a] ?? `#${a}`, r, u, { step: this.batch.steps, time: this.batch.time });
      }
    }
  }
}
