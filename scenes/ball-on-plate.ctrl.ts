// The ball-on-plate controller (scenes/ball-on-plate.arow). It sees the ball only through the
// camera (30 Hz, 50 ms late, 2 mm noise) and the plate through its two pivot angles, and drives the
// two rate-limited position servos. Every robot of the batch at once, no per-robot call.
//
//   estimate:  each new frame is moved into the plate frame with the pivot angles of its capture
//              step (a ring of past angles), then an α–β filter (position, velocity) in the plate
//              plane; between frames, and over the camera's latency, the estimate is carried forward
//              with the rolling-ball model a = (5/7) g sin(tilt) under the measured tilt.
//   control:   PD on the estimate toward the reference plus its acceleration (feedforward), turned
//              into tilt angles: x is driven by the plate pivot (+β raises −x... see SIGN below),
//              y by the roll pivot; both limited to ±TILT_MAX.
//   reference: t < CATCH_S: the centre (catch the ball, bring it in); then a figure-8
//              x = A sin(ωτ), y = (A/2) sin(2ωτ) (a lemniscate of Gerono), its amplitude ramped in over RAMP_S.

import type { ControlIO } from '../src/control/controller.js';

export const CATCH_S = 6;
export const RAMP_S = 3;
export const FIGURE8 = { amplitude: 0.12, period: 12 };
const G = 9.81;
const ROLL = 5 / 7; // a solid ball rolling without slipping: a = (5/7) g sin(tilt)
const TILT_MAX = 0.25;
const KP = 3.0; // 1/s²
const KD = 3.0; // 1/s
const ALPHA = 0.5; // α–β filter gains per frame
const BETA = 0.25;
const CAMERA = 'ball-cam';
const HISTORY = 64; // steps of pivot angles kept (> latency + one frame)

/** The figure-8 reference at time t: position, velocity, acceleration in the plate frame (m). */
export function reference(t: number): { p: [number, number]; v: [number, number]; a: [number, number] } {
  if (t < CATCH_S) return { p: [0, 0], v: [0, 0], a: [0, 0] };
  const tau = t - CATCH_S;
  const w = (2 * Math.PI) / FIGURE8.period;
  // amplitude ramped in linearly: A(τ) = A0 · min(1, τ/RAMP_S), A' = A0/RAMP_S while ramping (A'' = 0)
  const A = FIGURE8.amplitude * Math.min(1, tau / RAMP_S);
  const dA = tau < RAMP_S ? FIGURE8.amplitude / RAMP_S : 0;
  const s1 = Math.sin(w * tau), c1 = Math.cos(w * tau), s2 = Math.sin(2 * w * tau), c2 = Math.cos(2 * w * tau);
  // p = A·f, v = A'·f + A·f', a = 2A'·f' + A·f''  with f = (sin ωτ, ½ sin 2ωτ)
  return {
    p: [A * s1, (A / 2) * s2],
    v: [dA * s1 + A * w * c1, (dA / 2) * s2 + A * w * c2],
    a: [2 * dA * w * c1 - A * w * w * s1, 2 * dA * w * c2 - 2 * A * w * w * s2],
  };
}

/** World point (relative to the pivot) → plate frame, for roll α about x then pitch β about y: Ryᵀ Rxᵀ p. */
export function toPlate(px: number, py: number, pz: number, alpha: number, beta: number): [number, number, number] {
  const ca = Math.cos(alpha), sa = Math.sin(alpha), cb = Math.cos(beta), sb = Math.sin(beta);
  // Rxᵀ p
  const x1 = px, y1 = ca * py + sa * pz, z1 = -sa * py + ca * pz;
  // Ryᵀ (x1, y1, z1)
  return [cb * x1 - sb * z1, y1, sb * x1 + cb * z1];
}

export const PIVOT_Z = 0.5;

interface State {
  x: Float64Array; y: Float64Array; vx: Float64Array; vy: Float64Array;
  /** Capture time of the frame the estimate was last corrected with (−1: none yet). */
  stamp: Float64Array;
  /** Pivot angles of past steps, per robot: [step % HISTORY][robot]. */
  alphaHist: Float64Array; betaHist: Float64Array;
}

let st: State | null = null;

export default {
  init(io: ControlIO) {
    const n = io.copies;
    st = {
      x: new Float64Array(n), y: new Float64Array(n), vx: new Float64Array(n), vy: new Float64Array(n),
      stamp: new Float64Array(n).fill(-1),
      alphaHist: new Float64Array(HISTORY * n), betaHist: new Float64Array(HISTORY * n),
    };
  },
  update(io: ControlIO) {
    const s = st!;
    const S = io.stride;
    const n = io.copies;
    const dt = io.step > 0 ? io.time / io.step : 0.002;
    const cam = io.sensors.channel(`${CAMERA}.x`), camY = io.sensors.channel(`${CAMERA}.y`), camZ = io.sensors.channel(`${CAMERA}.z`);
    const stamp = io.sensors.channel(`${CAMERA}.stamp`);
    const aX = io.actuators.indexOf('tilt-x'), aY = io.actuators.indexOf('tilt-y');
    // q: roll (about x) then plate (about y), then the ball's free joint
    const slot = (io.step % HISTORY) * n;
    for (let r = 0; r < n; r++) {
      s.alphaHist[slot + r] = io.q[r];
      s.betaHist[slot + r] = io.q[S + r];
    }
    const ref = reference(io.time);
    for (let r = 0; r < n; r++) {
      const alpha = io.q[r], beta = io.q[S + r];
      // A new frame: correct the estimate at its capture time.
      if (stamp[r] >= 0 && stamp[r] !== s.stamp[r]) {
        const k = Math.round(stamp[r] / dt);
        const h = (k % HISTORY) * n + r;
        const [mx, my] = toPlate(cam[r], camY[r], camZ[r] - PIVOT_Z, s.alphaHist[h], s.betaHist[h]);
        if (s.stamp[r] < 0) {
          s.x[r] = mx; s.y[r] = my; s.vx[r] = 0; s.vy[r] = 0;
        } else {
          // predict from the last frame to this one with the model, then correct
          const T = stamp[r] - s.stamp[r];
          const ax = ROLL * G * Math.sin(s.betaHist[h]) , ay = -ROLL * G * Math.sin(s.alphaHist[h]);
          const px = s.x[r] + s.vx[r] * T + 0.5 * ax * T * T, py = s.y[r] + s.vy[r] * T + 0.5 * ay * T * T;
          const pvx = s.vx[r] + ax * T, pvy = s.vy[r] + ay * T;
          s.x[r] = px + ALPHA * (mx - px); s.y[r] = py + ALPHA * (my - py);
          s.vx[r] = pvx + (BETA / T) * (mx - px); s.vy[r] = pvy + (BETA / T) * (my - py);
        }
        s.stamp[r] = stamp[r];
      }
      if (s.stamp[r] < 0) {
        io.ctrl[aX * S + r] = alpha; // nothing seen yet: hold the plate
        io.ctrl[aY * S + r] = beta;
        continue;
      }
      // Carry the estimate from its frame's capture time to now under the current tilt.
      const T = io.time - s.stamp[r];
      const ax = ROLL * G * Math.sin(beta), ay = -ROLL * G * Math.sin(alpha);
      const x = s.x[r] + s.vx[r] * T + 0.5 * ax * T * T, y = s.y[r] + s.vy[r] * T + 0.5 * ay * T * T;
      const vx = s.vx[r] + ax * T, vy = s.vy[r] + ay * T;
      // Desired ball acceleration, then the tilt that produces it.
      const wantX = ref.a[0] + KP * (ref.p[0] - x) + KD * (ref.v[0] - vx);
      const wantY = ref.a[1] + KP * (ref.p[1] - y) + KD * (ref.v[1] - vy);
      const tilt = (a: number) => Math.asin(Math.max(-1, Math.min(1, a / (ROLL * G))));
      const clamp = (x: number) => Math.max(-TILT_MAX, Math.min(TILT_MAX, x));
      // +β (pitch about y) tips +x down: gravity along the plate's x is +g sin β; +α tips +y up: −g sin α.
      io.ctrl[aY * S + r] = clamp(tilt(wantX));
      io.ctrl[aX * S + r] = clamp(-tilt(wantY));
    }
  },
};

// ---- the run's charts of this demo (called by `achilles run` with the recorded trace) ----------

type Spec = Record<string, unknown>;

/** The ball in the plate frame at every record of every recorded robot (true state, from the trace). */
export function ballPaths(trace: { columns: readonly string[]; rows: readonly (readonly number[])[] }): { robot: number; t: number; x: number; y: number; z: number }[] {
  const c = (name: string) => {
    const i = trace.columns.indexOf(name);
    if (i < 0) throw new Error(`ball-on-plate: the trace has no column '${name}'`);
    return i;
  };
  const [iT, iR, iA, iB, iX, iY, iZ] = ['time', 'robot', 'q:roll', 'q:plate', 'q:ball.x', 'q:ball.y', 'q:ball.z'].map(c);
  return trace.rows.map((row) => {
    const [x, y, z] = toPlate(row[iX], row[iY], row[iZ] - PIVOT_Z, row[iA], row[iB]);
    return { robot: row[iR], t: row[iT], x, y, z };
  });
}

/** Tracking error |p − p_ref(t)| (m). */
export const trackingError = (p: { t: number; x: number; y: number }) => {
  const r = reference(p.t).p;
  return Math.hypot(p.x - r[0], p.y - r[1]);
};

export function report(trace: { columns: readonly string[]; rows: readonly (readonly number[])[] }): Record<string, Spec> {
  const paths = ballPaths(trace);
  const robots = new Set(paths.map((p) => p.robot)).size;
  const tEnd = paths.reduce((m, p) => Math.max(m, p.t), 0);
  const ref: Spec[] = [];
  for (let k = 0; k <= 400; k++) {
    const t = CATCH_S + RAMP_S + (k / 400) * FIGURE8.period;
    const p = reference(t).p;
    ref.push({ x: p[0], y: p[1], k });
  }
  const path = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: `ball on plate: the ball's path in the plate frame against the figure-8 (${robots} plate${robots === 1 ? '' : 's'})`, subtitle: 'plate edge at ±0.25 m; the camera is 30 Hz, 50 ms late, 2 mm noise; each robot draws its own noise' },
    width: 520,
    height: 520,
    layer: [
      { data: { values: paths.map((p, k) => ({ ...p, k, series: `robot ${p.robot}` })) }, mark: { type: 'line', strokeWidth: robots > 8 ? 0.6 : 1.2, opacity: robots > 8 ? 0.5 : 0.9 }, encoding: { x: { field: 'x', type: 'quantitative', title: 'x in the plate frame (m)', scale: { domain: [-0.25, 0.25] } }, y: { field: 'y', type: 'quantitative', title: 'y in the plate frame (m)', scale: { domain: [-0.25, 0.25] } }, order: { field: 'k' }, detail: { field: 'series' }, color: robots > 8 ? { value: '#4c78a8' } : { field: 'series', type: 'nominal', title: 'ball' } } },
      { data: { values: ref }, mark: { type: 'line', strokeDash: [6, 4], color: 'black', strokeWidth: 1.5 }, encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' }, order: { field: 'k' } } },
    ],
  };
  const err = paths.map((p) => ({ t: p.t, error: trackingError(p), series: `robot ${p.robot}` }));
  const error = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'ball on plate: tracking error |p − p_ref| over time', subtitle: `reference: the centre until ${CATCH_S} s, then the figure-8 (amplitude ramped in over ${RAMP_S} s); ${tEnd.toFixed(0)} s` },
    width: 640,
    height: 260,
    data: { values: err },
    mark: { type: 'line', strokeWidth: robots > 8 ? 0.6 : 1.2, opacity: robots > 8 ? 0.5 : 0.9 },
    encoding: { x: { field: 't', type: 'quantitative', title: 'time (s)' }, y: { field: 'error', type: 'quantitative', title: 'tracking error (m)' }, detail: { field: 'series' }, color: robots > 8 ? { value: '#4c78a8' } : { field: 'series', type: 'nominal', title: 'ball' } },
  };
  return { 'ball-path': path, 'tracking-error': error };
}
