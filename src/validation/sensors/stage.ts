// The `sensors` validation stage: over long seeded runs, the measured statistics of every sensor
// model equal the configured ones, each within BAR_SIGMAS standard errors of its estimate
// (stats.ts derives them); latency and the camera's frame schedule are exact, to the step.
//
//   at-rest (256 robots × 20 s at 2 ms): white-noise σ and mean; independence of adjacent robots'
//     noise (lanes of one SIMD block must not share a stream); Gauss–Markov drift: stationary σ and
//     correlation time τ (from the lag-1 coefficient φ = e^(−dt/τ)); the low-pass filter driven by
//     its white noise: the filter's pole from the same AR(1) fit, turned into its −3 dB frequency,
//     and its output σ.
//   pendulum (64 robots × 20 s): the camera's latency (the lag that best aligns its frames with the
//     true tip path, in whole steps), its frame interval (each exactly ⌊P⌋ or ⌈P⌉ steps, P = 1/(rate·dt),
//     and the mean within the half-step rounding of the schedule), its noise σ; the scale-factor
//     encoder's fitted scale and quantization; the IMU's gyro and accelerometer noise σ (the noisy
//     IMU minus a noise-free one at the same point).

import type { Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { widestLanes } from '../../engine/lanes.js';
import { cutoffOfPole, lowPassPole } from '../../sensors/filter.js';
import { SensorBank } from '../../sensors/bank.js';
import type { CheckRow } from '../types.js';
import { AT_REST, atRestModel, PENDULUM, pendulumModel } from './scenarios.js';
import { AdjacentCorrelation, BAR_SIGMAS, SeriesSums, seSigmaAr1, sePhi, seSigmaWhite, slope } from './stats.js';

export interface SensorStageOptions {
  seed: number;
  /** Steps per run (default 10 000: 20 s at 2 ms). */
  steps?: number;
  atRestRobots?: number;
  pendulumRobots?: number;
}

/** A measured statistic against its configured value, within `sigmas` standard errors. */
function judged(
  model: string,
  precision: Precision,
  field: string,
  measured: number,
  configured: number,
  se: number,
  relative: boolean,
  what: string,
): CheckRow {
  const error = relative ? Math.abs(measured - configured) / Math.abs(configured) : Math.abs(measured - configured);
  const bar = BAR_SIGMAS * se;
  const note = `measured ${measured.toPrecision(6)}, configured ${configured}; ${relative ? 'relative ' : ''}standard error ${se.toPrecision(3)} (${what})`;
  return {
    stage: 'sensors',
    model,
    precision,
    state: 0,
    t: undefined,
    field,
    error,
    stateFloor: NaN,
    floor: se,
    factor: BAR_SIGMAS,
    bar,
    status: error <= bar ? 'pass' : 'fail',
    note,
  };
}

/** An exact property: error must be 0 (or below a stated bound). */
function exact(model: string, precision: Precision, field: string, error: number, bar: number, note: string): CheckRow {
  return {
    stage: 'sensors',
    model,
    precision,
    state: 0,
    t: undefined,
    field,
    error,
    stateFloor: NaN,
    floor: bar,
    factor: 1,
    bar,
    status: error <= bar ? 'pass' : 'fail',
    note,
  };
}

function makeBatch(model: ModelDesc, copies: number, precision: Precision, addon: NativeAddon): Batch {
  return new Batch(model, { copies, precision, lanes: widestLanes(addon.cpuInfo(), precision) }, addon);
}

export function atRestRows(precision: Precision, addon: NativeAddon, o: SensorStageOptions): CheckRow[] {
  const model = atRestModel();
  const robots = o.atRestRobots ?? 256;
  const steps = o.steps ?? 10000;
  const batch = makeBatch(model, robots, precision, addon);
  const bank = new SensorBank(batch, model.sensors!, { seed: o.seed });
  const dt = batch.dt;
  const white = bank.readings.channel(AT_REST.white.name);
  const drift = bank.readings.channel(AT_REST.drift.name);
  const low = bank.readings.channel(AT_REST.lowPass.name);
  const sWhite = new SeriesSums(robots);
  const sDrift = new SeriesSums(robots);
  const sLow = new SeriesSums(robots);
  const corr = new AdjacentCorrelation();
  const e = new Float64Array(robots);
  const add = (ch: Float64Array, sums: SeriesSums, c?: AdjacentCorrelation) => {
    for (let r = 0; r < robots; r++) e[r] = ch[r] - batch.q[r]; // the true coordinate (exactly q0 throughout)
    sums.add(e, robots);
    c?.add(e, robots);
  };
  // The filter starts settled on its first (noisy) sample, a transient of variance σ² decaying as
  // p^k: its samples count only after p^(2k) < 1e-12 (drift and noise are stationary from step 0).
  const burnIn = Math.ceil(Math.log(1e-12) / (2 * Math.log(lowPassPole(AT_REST.lowPass.cutoff, dt))));
  bank.update();
  let moved = 0;
  for (let k = 0; k <= steps; k++) {
    if (k > 0) {
      batch.step(1);
      bank.update();
    }
    for (let r = 0; r < robots; r++) moved = Math.max(moved, Math.abs(batch.q[r] - batch.q[0]));
    add(white, sWhite, corr);
    add(drift, sDrift);
    if (k >= burnIn) add(low, sLow);
  }
  const name = model.name;
  const rows: CheckRow[] = [];
  // white noise
  const nW = sWhite.n;
  rows.push(judged(name, precision, 'white noise σ', sWhite.rms, AT_REST.white.noise, seSigmaWhite(nW), true, `1/√(2N), N = ${nW}`));
  rows.push(
    judged(name, precision, 'white noise mean / σ', sWhite.mean / AT_REST.white.noise, 0, 1 / Math.sqrt(nW), false, `1/√N, N = ${nW}`),
  );
  rows.push(
    judged(
      name,
      precision,
      'adjacent robots: noise correlation',
      corr.rho,
      0,
      1 / Math.sqrt(corr.n),
      false,
      `1/√N over ${corr.n} adjacent-robot pairs of samples; robots of one SIMD block sharing a stream read 1`,
    ),
  );
  // Gauss–Markov drift
  const phi = Math.exp(-dt / AT_REST.drift.tau);
  const tauOf = (p: number) => -dt / Math.log(p);
  const nD = sDrift.n;
  rows.push(
    judged(
      name,
      precision,
      'drift correlation time τ',
      tauOf(sDrift.phi),
      AT_REST.drift.tau,
      (slope(tauOf, phi) * sePhi(phi, nD)) / AT_REST.drift.tau,
      true,
      `τ = −dt/ln φ̂, SE(φ̂) = √((1−φ²)/N), N = ${nD}`,
    ),
  );
  rows.push(
    judged(
      name,
      precision,
      'drift stationary σ',
      sDrift.rms,
      AT_REST.drift.sigma,
      seSigmaAr1(phi, nD),
      true,
      `√((1+φ²)/(2N(1−φ²))), N = ${nD}`,
    ),
  );
  // low-pass filter on white noise: an AR(1) with φ = the filter's pole
  const p = lowPassPole(AT_REST.lowPass.cutoff, dt);
  const nL = sLow.n;
  const f = (x: number) => cutoffOfPole(x, dt);
  rows.push(
    judged(
      name,
      precision,
      'low-pass −3 dB frequency',
      f(sLow.phi),
      AT_REST.lowPass.cutoff,
      (slope(f, p) * sePhi(p, nL)) / AT_REST.lowPass.cutoff,
      true,
      `f(p̂) with p̂ the output's lag-1 coefficient, SE(p̂) = √((1−p²)/N), N = ${nL}`,
    ),
  );
  const sigmaOut = AT_REST.lowPass.noise * Math.sqrt((1 - p) / (1 + p));
  rows.push(
    judged(
      name,
      precision,
      'low-pass output σ',
      sLow.rms,
      sigmaOut,
      seSigmaAr1(p, nL),
      true,
      `σ_out = σ √((1−p)/(1+p)) = ${sigmaOut.toPrecision(4)}; SE √((1+p²)/(2N(1−p²)))`,
    ),
  );
  rows.push(
    exact(
      name,
      precision,
      'true coordinate moved',
      moved,
      0,
      'the slider is at rest (gravity across its axis), so each error above is the sensor model alone',
    ),
  );
  return rows;
}

/** What the pendulum run records for the checks: the rod's true tip, the camera's newly shown
 *  frames, the encoder's rounding, the ideal IMU against the closed form, and the noise samples. */
interface PendulumRecord {
  robots: number;
  dt: number;
  /** The camera's configured delay, in steps. */
  delay: number;
  /** p_W of the rod's tip, [(k·robots + r)·3 + axis] for step k. */
  tip: Float64Array;
  /** Each frame the camera newly shows (step, robot, reported position). */
  events: { k: number; r: number; x: number; y: number; z: number }[];
  /** The steps at which robot 0's camera shows a new frame. */
  eventSteps: number[];
  /** Largest |reading − (1+s)·q| of the scaled encoder, readings off its quantum grid, Σ reading·q, Σ q². */
  worstQuant: number;
  offGrid: number;
  qr: number;
  qq: number;
  /** Largest |ideal IMU − closed form|, and the largest closed-form value. */
  imuWorst: number;
  imuScale: number;
  /** Noisy minus noise-free IMU readings. */
  gyro: SeriesSums;
  accel: SeriesSums;
}

/** Runs the pendulums (robot r released from −0.6 − 1.2·r/robots rad) and records every step. */
function recordPendulum(precision: Precision, addon: NativeAddon, o: SensorStageOptions): PendulumRecord {
  const model = pendulumModel();
  const robots = o.pendulumRobots ?? 64;
  const steps = o.steps ?? 10000;
  const batch = makeBatch(model, robots, precision, addon);
  for (let r = 0; r < robots; r++) batch.setRobot(r, { q: [-0.6 - (1.2 * r) / robots] });
  const bank = new SensorBank(batch, model.sensors!, { seed: o.seed });
  const views = batch.sense(); // the same arrays every bank.update() refreshes
  const S = batch.stride;
  const rec: PendulumRecord = {
    robots,
    dt: batch.dt,
    delay: bank.cameraDelaySteps(PENDULUM.camera.name),
    tip: new Float64Array((steps + 1) * robots * 3),
    events: [],
    eventSteps: [],
    worstQuant: 0,
    offGrid: 0,
    qr: 0,
    qq: 0,
    imuWorst: 0,
    imuScale: 0,
    gyro: new SeriesSums(robots),
    accel: new SeriesSums(robots),
  };
  const cam = bank.readings.sensor(PENDULUM.camera.name);
  const scaled = bank.readings.channel(PENDULUM.scaled.name);
  const imu = bank.readings.sensor(PENDULUM.imu.name);
  const ideal = bank.readings.sensor('imu-ideal');
  const prev = new Float64Array(robots * 3).fill(NaN);
  const e = new Float64Array(robots);
  // The noise-free IMU against the rod's closed form at every step: gyro (θ̇, 0, 0); accelerometer
  // (0, −θ̇² + g sin θ, θ̈ + g cos θ) with θ̈ = −(3/2) g cos θ (uniform 1 m rod about its end).
  const g = 9.81;
  bank.update();
  for (let k = 0; k <= steps; k++) {
    if (k > 0) {
      batch.step(1);
      bank.update();
    }
    for (let r = 0; r < robots; r++) {
      // p_W of the tip: p_WB + R_WB · (0, 1, 0)
      const b = (k * robots + r) * 3;
      rec.tip[b] = views.pos[r] + views.rot[1 * S + r];
      rec.tip[b + 1] = views.pos[S + r] + views.rot[4 * S + r];
      rec.tip[b + 2] = views.pos[2 * S + r] + views.rot[7 * S + r];
      const x = cam[r],
        y = cam[S + r],
        z = cam[2 * S + r];
      if (cam[3 * S + r] >= 0 && (x !== prev[3 * r] || y !== prev[3 * r + 1] || z !== prev[3 * r + 2])) {
        rec.events.push({ k, r, x, y, z });
        if (r === 0) rec.eventSteps.push(k);
      }
      prev[3 * r] = x;
      prev[3 * r + 1] = y;
      prev[3 * r + 2] = z;
      // scale factor and quantization: reading = round((1 + s) q / quantum) · quantum
      const q = batch.q[r];
      const reading = scaled[r];
      rec.worstQuant = Math.max(rec.worstQuant, Math.abs(reading - (1 + PENDULUM.scaled.scale) * q));
      const units = reading / PENDULUM.scaled.quantum;
      if (Math.abs(units - Math.round(units)) > 1e-6) rec.offGrid++;
      rec.qr += reading * q;
      rec.qq += q * q;
    }
    for (let r = 0; r < robots; r++) {
      const th = batch.q[r],
        w = batch.v[r];
      const want = [w, 0, 0, 0, -w * w + g * Math.sin(th), -1.5 * g * Math.cos(th) + g * Math.cos(th)];
      for (let c = 0; c < 6; c++) {
        rec.imuWorst = Math.max(rec.imuWorst, Math.abs(ideal[c * S + r] - want[c]));
        rec.imuScale = Math.max(rec.imuScale, Math.abs(want[c]));
      }
    }
    for (let c = 0; c < 3; c++) {
      for (let r = 0; r < robots; r++) e[r] = imu[c * S + r] - ideal[c * S + r];
      rec.gyro.add(e, robots);
      for (let r = 0; r < robots; r++) e[r] = imu[(c + 3) * S + r] - ideal[(c + 3) * S + r];
      rec.accel.add(e, robots);
    }
  }
  return rec;
}

/** The camera: its latency (the lag that best matches the true tip), frame schedule, rate and noise. */
function cameraRows(name: string, precision: Precision, rec: PendulumRecord): CheckRow[] {
  const { robots, dt, delay, tip, events, eventSteps } = rec;
  const rows: CheckRow[] = [];
  // Latency: the lag (steps) minimizing the mean squared distance of each newly shown frame to the true tip.
  const maxLag = 2 * delay + 10;
  const mse = (lag: number) => {
    let s = 0;
    let n = 0;
    for (const ev of events) {
      if (ev.k < maxLag) continue;
      const b = ((ev.k - lag) * robots + ev.r) * 3;
      s += (ev.x - tip[b]) ** 2 + (ev.y - tip[b + 1]) ** 2 + (ev.z - tip[b + 2]) ** 2;
      n++;
    }
    return { mean: s / n, n };
  };
  let best = 0;
  for (let lag = 1; lag <= maxLag; lag++) if (mse(lag).mean < mse(best).mean) best = lag;
  const atBest = mse(best);
  const neighbour = Math.min(mse(best - 1 >= 0 ? best - 1 : best + 1).mean, mse(best + 1).mean);
  rows.push(
    exact(
      name,
      precision,
      'camera latency (steps)',
      Math.abs(best - delay),
      0,
      `measured ${best} steps (${(best * dt * 1000).toFixed(1)} ms), configured ${PENDULUM.camera.latency * 1000} ms = ${delay} steps; mean squared distance at the measured lag ${atBest.mean.toExponential(3)} m², at the nearer neighbouring lag ${neighbour.toExponential(3)} m² (${atBest.n} frames)`,
    ),
  );
  // Frame schedule: every interval ⌊P⌋ or ⌈P⌉ steps; the mean interval within the schedule's rounding.
  const P = 1 / (PENDULUM.camera.rate * dt);
  let badIntervals = 0;
  for (let i = 1; i < eventSteps.length; i++) {
    const d = eventSteps[i] - eventSteps[i - 1];
    if (d !== Math.floor(P) && d !== Math.ceil(P)) badIntervals++;
  }
  rows.push(
    exact(
      name,
      precision,
      'camera frame intervals off schedule',
      badIntervals,
      0,
      `each interval must be ${Math.floor(P)} or ${Math.ceil(P)} steps (P = ${P.toPrecision(6)} steps per frame); ${eventSteps.length} frames`,
    ),
  );
  const frames = eventSteps.length - 1;
  const rate = frames / ((eventSteps[eventSteps.length - 1] - eventSteps[0]) * dt);
  rows.push(
    exact(
      name,
      precision,
      'camera rate (relative)',
      Math.abs(rate - PENDULUM.camera.rate) / PENDULUM.camera.rate,
      (0.5 * PENDULUM.camera.rate * dt) / frames + 1e-12,
      `measured ${rate.toPrecision(8)} Hz over ${frames} frame intervals; each frame is captured within half a step of n/rate, so the mean interval is within 0.5·dt/${frames} of 1/rate`,
    ),
  );
  const nCam = atBest.n * 3;
  rows.push(
    judged(
      name,
      precision,
      'camera noise σ',
      Math.sqrt(atBest.mean / 3),
      PENDULUM.camera.noise,
      seSigmaWhite(nCam),
      true,
      `at the measured lag; 1/√(2N), N = ${nCam} coordinates`,
    ),
  );
  return rows;
}

/** The noise-free scaled encoder: its scale factor, and its rounding to the quantum grid. */
function encoderRows(name: string, precision: Precision, rec: PendulumRecord): CheckRow[] {
  const sHat = rec.qr / rec.qq - 1;
  const seScale = PENDULUM.scaled.quantum / Math.sqrt(12) / Math.sqrt(rec.qq);
  return [
    judged(
      name,
      precision,
      'encoder scale factor',
      sHat,
      PENDULUM.scaled.scale,
      seScale / PENDULUM.scaled.scale,
      true,
      'least-squares slope of reading on q, minus 1; quantization acts as noise of σ = quantum/√12, SE = σ/√Σq²',
    ),
    exact(
      name,
      precision,
      'encoder rounding beyond half a quantum',
      Math.max(0, rec.worstQuant / PENDULUM.scaled.quantum - 0.5),
      1e-9,
      `largest |reading − (1+s)·q| = ${(rec.worstQuant / PENDULUM.scaled.quantum).toPrecision(6)} quanta; rounding to the nearest quantum keeps it at most 1/2 (bar: float64 round-off of the quotient)`,
    ),
    exact(name, precision, 'encoder readings off the quantum grid', rec.offGrid, 0, 'every reading an integer number of quanta'),
  ];
}

/** The IMU: the noise-free one against the closed form, and the noise of the noisy one. */
function imuRows(name: string, precision: Precision, rec: PendulumRecord): CheckRow[] {
  // The chain from (θ, θ̇) to the reading is a few dozen roundings of the engine's precision, so the
  // bar is 32 units of its round-off of the largest reading.
  const unit = precision === 'f32' ? 2 ** -24 : 2 ** -53;
  return [
    exact(
      name,
      precision,
      'IMU vs closed form (relative)',
      rec.imuWorst / rec.imuScale,
      32 * unit,
      `largest |reading − closed form| / largest reading (${rec.imuScale.toPrecision(4)}): gyro θ̇; accelerometer −θ̇² + g sin θ along the rod, θ̈ + g cos θ across it`,
    ),
    judged(
      name,
      precision,
      'IMU gyro noise σ',
      rec.gyro.rms,
      PENDULUM.imu.gyroNoise,
      seSigmaWhite(rec.gyro.n),
      true,
      `noisy minus noise-free IMU at the same point; 1/√(2N), N = ${rec.gyro.n}`,
    ),
    judged(
      name,
      precision,
      'IMU accelerometer noise σ',
      rec.accel.rms,
      PENDULUM.imu.accelNoise,
      seSigmaWhite(rec.accel.n),
      true,
      `noisy minus noise-free IMU at the same point; 1/√(2N), N = ${rec.accel.n}`,
    ),
  ];
}

/** The swinging pendulums: camera, scaled encoder and IMU, each against what the rod truly did. */
export function pendulumRows(precision: Precision, addon: NativeAddon, o: SensorStageOptions): CheckRow[] {
  const rec = recordPendulum(precision, addon, o);
  const name = pendulumModel().name;
  return [...cameraRows(name, precision, rec), ...encoderRows(name, precision, rec), ...imuRows(name, precision, rec)];
}

export function sensorRows(precision: Precision, addon: NativeAddon, o: SensorStageOptions): CheckRow[] {
  return [...atRestRows(precision, addon, o), ...pendulumRows(precision, addon, o)];
}
