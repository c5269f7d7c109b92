// The sensors of a batch: after every step, every sensor of every robot is read from the engine's
// state, distorted by its models and written into `readings`. Runs in TypeScript over the whole
// batch at once (one pass per sensor over the robots; a few multiply-adds and at most one normal
// draw per channel), since the native step's own cost dwarfs it and the readings are needed here,
// by the controllers, anyway. IMU and camera sensors need body motion: one native `sense()` per step
// (forward dynamics + body velocities, accelerations and poses at the current state).
//
// Order inside one update (the draw order of each robot's stream): sensors in scene order; an
// encoder draws its white noise, then its drift increment; an IMU 3 gyro then 3 accelerometer draws;
// a camera 3 draws when it captures a frame.

import type { CameraSensorDesc, EncoderSensorDesc, ImuSensorDesc, MjcfSensorDesc, ModelDesc, SensorDesc } from '../engine/model-desc.js';
import { mjcfSensorData, sensorDataSize, type SensorInputs } from '../engine/mjcf-sensors.js';
import { coordinateLayout } from '../engine/model-desc.js';
import type { Real } from '../engine/api.js';
import { lowPassPole } from './filter.js';
import { plantedSensorBug } from './planted-bugs.js';
import { SensorReadings } from './readings.js';
import { cameraTooFast, stepRate } from '../model-files/scene/sensors.js';
import { SceneError } from '../model-files/common/errors.js';
import { RobotStreams } from './rng.js';

/** Body motion at the current state, as the native sense() lays it out (see batch.ts). */
export interface BodyMotion {
  /** Spatial velocity in body axes, 6 per body: ω then v (of the body origin). */
  vel: Real;
  /** Spatial acceleration in body axes, 6 per body: α then a (gravity entered as −g at the base). */
  acc: Real;
  /** World position of the body origin, 3 per body. */
  pos: Real;
  /** R_WB row-major, 9 per body. */
  rot: Real;
}

/** What the bank needs of a batch. */
export interface SensedBatch {
  readonly model: ModelDesc;
  readonly copies: number;
  readonly stride: number;
  readonly dt: number;
  readonly steps: number;
  readonly q: Real;
  sense(): BodyMotion;
  /** What an imported model's MuJoCo sensors read (engine/mjcf-sensors.ts); needed when it has them. */
  sensorInputs?(): SensorInputs;
  /** Robot r's model (its own masses and inertias where the robots differ). */
  robotModel?(r: number): ModelDesc;
}

/** Channel names of an imported model's MuJoCo sensors (ModelDesc.mjcfSensors), in sensordata's order:
 *  a scalar sensor is its name, a vector one NAME.0 .. NAME.(dim − 1); an unnamed sensor is named
 *  TYPE + its index, as MuJoCo's tools show it. */
export function mjcfSensorChannels(s: MjcfSensorDesc, index: number): string[] {
  const name = s.name || `${s.type}${index}`;
  return s.dim === 1 ? [name] : Array.from({ length: s.dim }, (_, k) => `${name}.${k}`);
}

export interface SensorOptions {
  /** Run seed: robot r's stream is a function of (seed, r) only. */
  seed: number;
}

/** Channel names of one sensor, in order. */
export function sensorChannels(s: SensorDesc): string[] {
  switch (s.kind) {
    case 'encoder':
      return [s.name];
    case 'imu':
      return ['gx', 'gy', 'gz', 'ax', 'ay', 'az'].map((c) => `${s.name}.${c}`);
    case 'camera':
      return ['x', 'y', 'z', 'stamp'].map((c) => `${s.name}.${c}`);
  }
}

interface EncoderState {
  desc: EncoderSensorDesc;
  channel: number;
  qIndex: number;
  drift: Float64Array | null;
  /** Drift recursion b ← φ b + σ √(1 − φ²) w. */
  phi: number;
  kick: number;
  filter: Float64Array | null;
  pole: number;
}

interface CameraState {
  desc: CameraSensorDesc;
  channel: number;
  /** Steps per frame (1 / (rate · dt)) and latency in whole steps. */
  stepsPerFrame: number;
  delay: number;
  /** Captured frames in flight, per robot: ring of `ring` frames × 3 coordinates. */
  ring: number;
  frames: Float64Array;
  /** Global frame bookkeeping (the schedule is the same for every robot). */
  nextFrame: number;
  shown: number;
}

export class SensorBank {
  readonly readings: SensorReadings;
  readonly sensors: readonly SensorDesc[];
  private readonly streams: RobotStreams;
  private readonly encoders: EncoderState[] = [];
  private readonly imus: { desc: ImuSensorDesc; channel: number }[] = [];
  private readonly cameras: CameraState[] = [];
  private readonly needsMotion: boolean;
  /** The MuJoCo sensors' first channel and their count (nsensordata). */
  private readonly mjcfFirst: number;
  private readonly mjcfCount: number;
  private lastStep = -1;

  constructor(
    private readonly batch: SensedBatch,
    sensors: readonly SensorDesc[],
    o: SensorOptions,
  ) {
    this.sensors = sensors;
    this.streams = new RobotStreams(o.seed, batch.copies);
    const dt = batch.dt;
    const channels: string[] = [];
    const layout: { name: string; first: number; dim: number }[] = [];
    const { qOffset } = coordinateLayout(batch.model.bodies);
    for (const s of sensors) {
      const first = channels.length;
      const names = sensorChannels(s);
      channels.push(...names);
      layout.push({ name: s.name, first, dim: names.length });
      if (s.kind === 'encoder') {
        const phi = s.drift ? Math.exp(-dt / s.drift.tau) : 0;
        this.encoders.push({
          desc: s,
          channel: first,
          qIndex: qOffset[s.body] + s.coordinate,
          drift: s.drift ? new Float64Array(batch.copies) : null,
          phi,
          kick: s.drift ? s.drift.sigma * Math.sqrt(1 - phi * phi) : 0,
          filter: s.cutoff !== undefined ? new Float64Array(batch.copies) : null,
          pole: s.cutoff !== undefined ? lowPassPole(s.cutoff, dt) : 0,
        });
      } else if (s.kind === 'imu') {
        this.imus.push({ desc: s, channel: first });
      } else {
        const stepsPerFrame = 1 / (s.rate * dt);
        // The scene's own dt was checked at load (src/model-files/scene/sensors.ts); a --dt given to the run is checked here, at the sensor.
        if (!(stepsPerFrame >= 1)) {
          const expected = `a rate of at most ${stepRate(dt)} Hz (one frame per step), or a smaller dt`;
          if (!s.source) throw new Error(`sensor '${s.name}': a camera rate of ${cameraTooFast(s.rate, dt)}; expected ${expected}`);
          throw new SceneError({ ...s.source, subject: `sensors (${s.name}).rate`, found: cameraTooFast(s.rate, dt), expected });
        }
        const delay = Math.round(s.latency / dt);
        const ring = Math.ceil((delay + 1) / Math.floor(stepsPerFrame)) + 2;
        this.cameras.push({
          desc: s,
          channel: first,
          stepsPerFrame,
          delay,
          ring,
          frames: new Float64Array(ring * 4 * batch.copies),
          nextFrame: 0,
          shown: -1,
        });
      }
    }
    // an imported model's MuJoCo sensors: noise-free, as MuJoCo's sensordata (their noise is metadata)
    this.mjcfFirst = channels.length;
    (batch.model.mjcfSensors ?? []).forEach((s, i) => {
      const names = mjcfSensorChannels(s, i);
      layout.push({ name: s.name || `${s.type}${i}`, first: channels.length, dim: names.length });
      channels.push(...names);
    });
    this.mjcfCount = sensorDataSize(batch.model);
    this.needsMotion = this.imus.length > 0 || this.cameras.length > 0;
    this.readings = new SensorReadings(channels, batch.stride, layout);
  }

  /** Latency of a camera in whole steps (its `latency` rounded to the step). */
  cameraDelaySteps(name: string): number {
    const c = this.cameras.find((x) => x.desc.name === name);
    if (!c) throw new Error(`no camera '${name}'`);
    return c.delay;
  }

  /** Read every sensor at the batch's current state. Call once at step 0, then after every step. */
  update(): void {
    const b = this.batch;
    const k = b.steps;
    if (k !== this.lastStep + 1) {
      throw new Error(
        this.lastStep < 0
          ? `sensors start at step 0 (the batch is at step ${k}): create the sensors before stepping, or after reset()`
          : `sensors are read after every step: last read at step ${this.lastStep}, now at step ${k}`,
      );
    }
    this.lastStep = k;
    const motion = this.needsMotion ? b.sense() : null;
    for (const e of this.encoders) this.readEncoder(e, k === 0);
    if (motion) {
      for (const i of this.imus) this.readImu(i, motion);
      for (const c of this.cameras) this.readCamera(c, motion, k);
    }
    if (this.mjcfCount > 0) this.readMjcf();
  }

  /** sensordata of every robot at the current state (as mj_forward computes it), into its channels. */
  private readMjcf(): void {
    const b = this.batch;
    if (!b.sensorInputs) throw new Error('the MuJoCo sensors need a batch that evaluates them (sensorInputs)');
    const inputs = b.sensorInputs();
    const one = new Float64Array(this.mjcfCount);
    const out = this.readings.data;
    for (let r = 0; r < b.copies; r++) {
      mjcfSensorData(b.robotModel ? b.robotModel(r) : b.model, inputs, r, one);
      for (let k = 0; k < this.mjcfCount; k++) out[(this.mjcfFirst + k) * b.stride + r] = one[k];
    }
  }

  /** Back to step 0 (after batch.reset()); the streams continue, so a reset episode draws new noise. */
  restart(): void {
    this.lastStep = -1;
    for (const c of this.cameras) {
      c.nextFrame = 0;
      c.shown = -1;
    }
  }

  private readEncoder(e: EncoderState, first: boolean): void {
    const { q, stride, copies } = this.batch;
    const out = this.readings.data;
    const d = e.desc;
    const rng = this.streams;
    const base = e.qIndex * stride;
    const o = e.channel * stride;
    const gain = 1 + d.scale;
    for (let r = 0; r < copies; r++) {
      let x = gain * q[base + r];
      if (d.noise > 0) x += d.noise * rng.normal(r);
      if (e.drift) {
        // Stationary from the start: b_0 ~ N(0, σ²), then b ← φ b + σ √(1 − φ²) w.
        const b = first ? d.drift!.sigma * rng.normal(r) : e.phi * e.drift[r] + e.kick * rng.normal(r);
        e.drift[r] = b;
        x += b;
      }
      if (e.filter) {
        // Settled on the first sample, then y ← y + (1 − p)(x − y).
        const y = first ? x : e.filter[r] + (1 - e.pole) * (x - e.filter[r]);
        e.filter[r] = y;
        x = y;
      }
      if (d.quantum > 0) x = Math.round(x / d.quantum) * d.quantum;
      out[o + r] = x;
    }
  }

  private readImu(i: { desc: ImuSensorDesc; channel: number }, m: BodyMotion): void {
    const { stride, copies } = this.batch;
    const out = this.readings.data;
    const d = i.desc;
    const rng = this.streams;
    const [px, py, pz] = d.pos;
    const v6 = d.body * 6;
    for (let r = 0; r < copies; r++) {
      const c = (k: number) => (v6 + k) * stride + r;
      const wx = m.vel[c(0)],
        wy = m.vel[c(1)],
        wz = m.vel[c(2)];
      const vx = m.vel[c(3)],
        vy = m.vel[c(4)],
        vz = m.vel[c(5)];
      const ax = m.acc[c(0)],
        ay = m.acc[c(1)],
        az = m.acc[c(2)];
      // Velocity of the point p: v + ω × p; spatial acceleration there: a + α × p;
      // its classical (proper) acceleration: that + ω × (v + ω × p).
      const pvx = vx + (wy * pz - wz * py),
        pvy = vy + (wz * px - wx * pz),
        pvz = vz + (wx * py - wy * px);
      const lax = m.acc[c(3)] + (ay * pz - az * py),
        lay = m.acc[c(4)] + (az * px - ax * pz),
        laz = m.acc[c(5)] + (ax * py - ay * px);
      const gx = wx,
        gy = wy,
        gz = wz;
      const accx = lax + (wy * pvz - wz * pvy),
        accy = lay + (wz * pvx - wx * pvz),
        accz = laz + (wx * pvy - wy * pvx);
      const o = i.channel * stride + r;
      out[o] = gx + (d.gyroNoise > 0 ? d.gyroNoise * rng.normal(r) : 0);
      out[o + stride] = gy + (d.gyroNoise > 0 ? d.gyroNoise * rng.normal(r) : 0);
      out[o + 2 * stride] = gz + (d.gyroNoise > 0 ? d.gyroNoise * rng.normal(r) : 0);
      out[o + 3 * stride] = accx + (d.accelNoise > 0 ? d.accelNoise * rng.normal(r) : 0);
      out[o + 4 * stride] = accy + (d.accelNoise > 0 ? d.accelNoise * rng.normal(r) : 0);
      out[o + 5 * stride] = accz + (d.accelNoise > 0 ? d.accelNoise * rng.normal(r) : 0);
    }
  }

  private readCamera(c: CameraState, m: BodyMotion, k: number): void {
    const { stride, copies, dt } = this.batch;
    const out = this.readings.data;
    const d = c.desc;
    const rng = this.streams;
    const [px, py, pz] = d.pos;
    // Capture: frame n at the step nearest n / rate.
    if (k === Math.round(c.nextFrame * c.stepsPerFrame)) {
      const n = c.nextFrame++;
      const slot = (n % c.ring) * 4;
      for (let r = 0; r < copies; r++) {
        const R = (e: number) => m.rot[(d.body * 9 + e) * stride + r];
        const P = (e: number) => m.pos[(d.body * 3 + e) * stride + r];
        const f = r * c.ring * 4 + slot;
        c.frames[f] = P(0) + R(0) * px + R(1) * py + R(2) * pz + d.noise * rng.normal(r);
        c.frames[f + 1] = P(1) + R(3) * px + R(4) * py + R(5) * pz + d.noise * rng.normal(r);
        c.frames[f + 2] = P(2) + R(6) * px + R(7) * py + R(8) * pz + d.noise * rng.normal(r);
        c.frames[f + 3] = k * dt;
      }
    }
    // Show the newest frame whose latency has passed (captured at step k_n, visible from k_n + delay).
    const delay = plantedSensorBug() === 'sensor-latency-off-by-one' ? c.delay - 1 : c.delay;
    let shown = c.shown;
    while (shown + 1 < c.nextFrame && Math.round((shown + 1) * c.stepsPerFrame) + delay <= k) shown++;
    if (shown === c.shown && k > 0) return; // nothing new: the readings hold the last frame
    c.shown = shown;
    const o = c.channel * stride;
    for (let r = 0; r < copies; r++) {
      if (shown < 0) {
        out[o + r] = out[o + stride + r] = out[o + 2 * stride + r] = 0;
        out[o + 3 * stride + r] = -1;
        continue;
      }
      const f = r * c.ring * 4 + (shown % c.ring) * 4;
      out[o + r] = c.frames[f];
      out[o + stride + r] = c.frames[f + 1];
      out[o + 2 * stride + r] = c.frames[f + 2];
      out[o + 3 * stride + r] = c.frames[f + 3];
    }
  }
}
