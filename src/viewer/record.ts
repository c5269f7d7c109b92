// Records a run's poses for the replay at a fixed frame rate, independent of dt.
//
// The replay re-simulates the recorded robots with the run's own settings rather than sampling
// inside the run's loop: the engine is bit-identical whatever the batch size and lane width, and
// --spread offsets depend only on (robot, coordinate), so robot r here is robot r of the run
// (test/viewer-record.test.ts checks the last frame against the trace). Frame f shows the state
// after round(f / (fps · dt)) steps; the final state is always the last frame.

import type { LaneWidth, Precision, Real } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import type { IntegratorName, ModelDesc, Vec3 } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import { applySpread } from '../run/spread.js';
import { sceneGeometry } from './geometry.js';
import { packFrames, poseBytesPerFrame, QUAT_SCALE, REPLAY_VERSION, type ReplayHeader, type ReplayMeta } from './replay-data.js';
import { quatFromMatrix } from './geometry.js';

export const DEFAULT_FPS = 60;
/** Pose bytes allowed before the frame rate is lowered: 3 MB is 4 MB of base64, which with the
 *  ~0.7 MB viewer keeps a page under about 5 MB (60 s of a 30-body robot at 60 fps fits). */
export const MAX_POSE_BYTES = 3_000_000;

export interface ReplayRun {
  integrator: IntegratorName;
  dt: number;
  substeps: number;
  steps: number;
  copies: number;
  precision: Precision;
  lanes: LaneWidth;
  robots: number[];
  spread: number;
  midpointIterations?: number;
  scene: string;
}

/** Steps at which frames are taken: t = f / fps rounded to a step, deduplicated, ending at `steps`. */
export function frameSteps(steps: number, dt: number, fps: number): number[] {
  const out: number[] = [];
  const total = steps * dt;
  for (let f = 0; f / fps <= total + 1e-12; f++) {
    const n = Math.min(steps, Math.round(f / fps / dt));
    if (out.length === 0 || n > out[out.length - 1]) out.push(n);
  }
  if (out[out.length - 1] !== steps) out.push(steps);
  return out;
}

/** The frame rate actually used: the requested one, lowered by a whole factor if the poses would not fit. */
export function chooseFps(run: Pick<ReplayRun, 'steps' | 'dt'>, robots: number, bodies: number, fps: number, maxBytes = MAX_POSE_BYTES): { fps: number; reason?: string } {
  const frames = (f: number) => frameSteps(run.steps, run.dt, f).length;
  const bytes = (f: number) => frames(f) * poseBytesPerFrame(robots, bodies);
  if (bytes(fps) <= maxBytes) return { fps };
  let k = 2;
  while (bytes(fps / k) > maxBytes && fps / k > 1e-3) k++;
  const mb = (bytes(fps) / 1e6).toFixed(1);
  return {
    fps: fps / k,
    reason: `${robots} robot${robots === 1 ? '' : 's'} x ${bodies} bodies x ${(run.steps * run.dt).toFixed(3)} s at ${fps} fps would take ${mb} MB of poses (limit ${(maxBytes / 1e6).toFixed(1)} MB)`,
  };
}

/** Contact fields of a batch that has collision detection (feature-detected: older engines lack it). */
export interface CollidingBatch {
  collide(): void;
  stride: number;
  contactActive: Real;
  contactDist: Real;
  contactPos: Real;
  contactNormal: Real;
}

function asColliding(b: Batch): CollidingBatch | undefined {
  const c = b as unknown as Partial<CollidingBatch>;
  return typeof c.collide === 'function' && c.contactActive && c.contactDist && c.contactPos && c.contactNormal ? (c as CollidingBatch) : undefined;
}

/** Active contacts of robot r, appended to `out` as rows of 8 (see replay-data.ts): slot (p, i) is component p·4+i of active/dist, (p·4+i)·3+c of pos, p·3+c of normal. */
export function robotContacts(c: CollidingBatch, r: number, slot: number, out: number[]): void {
  const s = c.stride;
  const slots = c.contactActive.length / s;
  for (let k = 0; k < slots; k++) {
    if (!c.contactActive[k * s + r]) continue;
    const p = Math.floor(k / 4);
    out.push(
      c.contactPos[(k * 3) * s + r],
      c.contactPos[(k * 3 + 1) * s + r],
      c.contactPos[(k * 3 + 2) * s + r],
      c.contactNormal[(p * 3) * s + r],
      c.contactNormal[(p * 3 + 1) * s + r],
      c.contactNormal[(p * 3 + 2) * s + r],
      c.contactDist[k * s + r],
      slot,
    );
  }
}

/** Re-simulate the run's recorded robots and sample poses (and contacts, where the engine detects them);
 *  undefined when `shouldStop` asked to stop. */
export async function recordReplay(
  model: ModelDesc,
  run: ReplayRun,
  meta: ReplayMeta,
  addon: NativeAddon,
  requestedFps = DEFAULT_FPS,
  maxPoseBytes = MAX_POSE_BYTES,
  shouldStop: () => boolean = () => false,
): Promise<{ header: ReplayHeader; bytes: Uint8Array } | undefined> {
  const nb = model.bodies.length;
  const R = run.robots.length;
  const chosen = chooseFps(run, R, nb, requestedFps, maxPoseBytes);
  const steps = frameSteps(run.steps, run.dt, chosen.fps);
  const F = steps.length;
  const batch = new Batch(
    model,
    {
      copies: Math.max(...run.robots) + 1,
      precision: run.precision,
      lanes: run.lanes,
      integrator: run.integrator,
      dt: run.dt,
      substeps: run.substeps,
      midpointIterations: run.midpointIterations ?? 4,
      threads: 1,
    },
    addon,
  );
  applySpread(batch, run.spread);
  const colliding = asColliding(batch);
  const times = new Float64Array(F);
  const pos = new Float32Array(F * R * nb * 3);
  const quat = new Int16Array(F * R * nb * 4);
  const contactStart = new Uint32Array(F + 1);
  const contacts: number[] = [];
  const S = batch.stride;
  let lastYield = performance.now();
  for (let f = 0; f < F; f++) {
    if (steps[f] > batch.steps) batch.step(steps[f] - batch.steps);
    // Let Ctrl-C through (signal handlers run only on the event loop); a stop records nothing.
    if (performance.now() - lastYield > 50) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = performance.now();
      if (shouldStop()) return undefined;
    }
    times[f] = batch.time;
    const k = batch.kinematics();
    run.robots.forEach((r, j) => {
      for (let i = 0; i < nb; i++) {
        const o = ((f * R + j) * nb + i);
        for (let c = 0; c < 3; c++) pos[o * 3 + c] = k.pos[(i * 3 + c) * S + r];
        const m = [0, 1, 2].map((row) => [0, 1, 2].map((col) => k.rot[(i * 9 + row * 3 + col) * S + r]));
        const q = quatFromMatrix(m);
        for (let c = 0; c < 4; c++) quat[o * 4 + c] = Math.round(q[c] * QUAT_SCALE);
      }
    });
    if (colliding) {
      colliding.collide();
      run.robots.forEach((r, j) => robotContacts(colliding, r, j, contacts));
    }
    contactStart[f + 1] = contacts.length / 8;
  }
  const { bytes, layout } = packFrames({ times, pos, quat, contactStart, contacts: new Float32Array(contacts) });
  const header: ReplayHeader = {
    version: REPLAY_VERSION,
    meta,
    fps: chosen.fps,
    requestedFps,
    ...(chosen.reason ? { downsampled: { fromFps: requestedFps, toFps: chosen.fps, reason: chosen.reason } } : {}),
    frames: F,
    robots: run.robots,
    nbody: nb,
    gravity: model.world.gravity as Vec3,
    geometry: sceneGeometry(model),
    hasContacts: colliding !== undefined && (model.shapes ?? []).length > 0,
    layout,
    bytes: bytes.byteLength,
  };
  return { header, bytes };
}
