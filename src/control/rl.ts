// The reinforcement-learning face: many robots stepped together, chosen ones reset, controls set
// and observations read as views on the engine's memory (nothing is copied per step).
//
//   const env = new RlEnv(loadScene('scenes/x.arow'), { copies: 1024 });
//   for (;;) {
//     policy(env.obs.q, env.obs.v, env.ctrl);   // write ctrl[a * stride + r]
//     env.step();
//     env.reset(doneRobots);                    // those robots back at the initial state
//   }
//
// A scene's sensors are read at step 0 and after every step (env.obs.sensors, updated in place);
// with sensors the batch steps one step at a time so every step is read.

import type { BatchOptions, Real } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import type { ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { engineAddon } from '../engine/native.js';
import { needsContactWrenches } from '../engine/mjcf-sensors.js';
import { SensorBank } from '../sensors/bank.js';
import { emptyReadings, type SensorReadingsLike } from './controller.js';

export interface RlEnvOptions extends BatchOptions {
  /** Seed of the sensor noise: robot r draws from its own stream of (seed, r). Default 0. */
  seed?: number;
}

export interface Observation {
  /** Positions and velocities: q[k * stride + r], v[k * stride + r]. */
  readonly q: Real;
  readonly v: Real;
  /** Each actuator's force at the last step's start: [a * stride + r]. */
  readonly actuatorForce: Real;
  /** Sensor readings (src/control/controller.ts SensorReadingsLike; no channels without sensors). */
  readonly sensors: SensorReadingsLike;
}

export class RlEnv {
  readonly batch: Batch;
  readonly obs: Observation;
  private readonly q0: number[];
  private readonly v0: number[];
  private readonly tau0: number[];
  private readonly target0: Float64Array;
  private readonly sensors: SensorBank | null;

  constructor(model: ModelDesc, opts: RlEnvOptions, addon: NativeAddon = engineAddon()) {
    const { seed = 0, ...batchOptions } = opts;
    this.batch = new Batch(model, { ...batchOptions, record: batchOptions.record || needsContactWrenches(model) }, addon);
    const b = this.batch;
    this.sensors = model.sensors?.length || model.mjcfSensors?.length ? new SensorBank(b, model.sensors ?? [], { seed }) : null;
    this.sensors?.update(); // step 0
    this.obs = { q: b.q, v: b.v, actuatorForce: b.actuatorForce, sensors: this.sensors?.readings ?? emptyReadings(b.stride) };
    this.q0 = model.bodies.flatMap((x) => x.q0);
    this.v0 = model.bodies.flatMap((x) => x.v0);
    this.tau0 = model.bodies.flatMap((x) => x.tau);
    // The servos' initial targets as the engine set them (robot 0 of a fresh batch).
    this.target0 = Float64Array.from({ length: b.nu }, (_, a) => b.ctrlTarget[a * b.stride]);
  }

  get copies(): number {
    return this.batch.copies;
  }
  get stride(): number {
    return this.batch.stride;
  }
  get time(): number {
    return this.batch.time;
  }
  /** The controls of the next step (a view; it alternates between two halves, so take it anew
   *  after every step): ctrl[a * stride + r]. Unwritten controls read 0. */
  get ctrl(): Real {
    return this.batch.ctrl;
  }

  /** Advance every robot k steps (the controls act over the first of them); the sensors are read
   *  after each. */
  step(k = 1): void {
    if (!this.sensors) {
      this.batch.step(k);
      return;
    }
    for (let i = 0; i < k; i++) {
      this.batch.step(1);
      this.sensors.update();
    }
  }

  /** Put the chosen robots (all when omitted) back at the initial state: q, v, τ, the servos'
   *  targets, the actuator forces and both control halves. Others are untouched. Resetting all
   *  restarts the sensors at step 0 (their noise streams go on, so an episode draws new noise);
   *  resetting some keeps the sensors' own state (drift, filters, camera frames) of those robots. */
  reset(robots?: ArrayLike<number>): void {
    const b = this.batch;
    if (robots === undefined) {
      b.reset();
      this.sensors?.restart();
      this.sensors?.update();
      return;
    }
    const s = b.stride;
    const ctrlBoth = b.controlHalves();
    for (let i = 0; i < robots.length; i++) {
      const r = robots[i];
      if (!Number.isInteger(r) || r < 0 || r >= b.copies) throw new Error(`reset: robot ${r} is out of range 0..${b.copies - 1}`);
      for (let k = 0; k < b.nq; k++) b.q[k * s + r] = this.q0[k];
      for (let k = 0; k < b.nv; k++) {
        b.v[k * s + r] = this.v0[k];
        b.tau[k * s + r] = this.tau0[k];
      }
      for (let a = 0; a < b.nu; a++) {
        b.ctrlTarget[a * s + r] = this.target0[a];
        b.actuatorForce[a * s + r] = 0;
        for (const c of ctrlBoth) c[a * s + r] = 0;
      }
      for (let i = 0; i < b.na; i++) b.act[i * s + r] = 0; // MuJoCo's mj_resetData: act = 0
    }
  }
}
