// Records a run's poses for the replay at a fixed frame rate, independent of dt.
//
// The replay is sampled from the run itself: simulate() (src/run/simulate.ts) cuts its stepping
// slices so that one ends exactly at each frame step and calls sample() there, so whatever shaped
// the run (controller, sensors, --spread, actuators) is in the replay by construction, and frame f
// is the state the run had after frameSteps(...)[f] steps. Sampling reads the state and runs
// detection (collide() writes only the contact list, which no step reads), so a run's trace is
// the same with and without --html (test/viewer-replay-run.test.ts checks both).

import type { ContactPoints } from '../engine/native.js';
import type { Batch } from '../engine/batch.js';
import type { ModelDesc, Vec3 } from '../engine/model-desc.js';
import { quatFromMatrix, sceneGeometry } from './geometry.js';
import { packFrames, poseBytesPerFrame, QUAT_SCALE, REPLAY_VERSION, type ReplayHeader, type ReplayMeta } from './replay-data.js';

export const DEFAULT_FPS = 60;
/** Pose bytes allowed before the frame rate is lowered: 3 MB is 4 MB of base64, which with the
 *  ~0.7 MB viewer keeps a page under about 5 MB (60 s of a 30-body robot at 60 fps fits). */
export const MAX_POSE_BYTES = 3_000_000;

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
export function chooseFps(
  run: { steps: number; dt: number },
  robots: number,
  bodies: number,
  fps: number,
  maxBytes = MAX_POSE_BYTES,
): { fps: number; reason?: string } {
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

/** What the replay needs of a batch with collision detection: detection now, and each robot's points. */
export interface CollidingBatch {
  collide(): void;
  contacts(robot: number): ContactPoints;
}

/** Whether the replay turns a contact's normal around. The engine's normal points from shape a to
 *  shape b; a floor or other world shape that is shape b would get an arrow pointing into it, so
 *  those contacts are flipped to point out of the world shape (as MuJoCo's, whose plane is always
 *  geom1). Contacts of two moving bodies keep a → b. */
export function normalFlip(model: ModelDesc, a: number, b: number): boolean {
  const onWorld = (s: number) => model.shapes?.[s]?.body === -1;
  return onWorld(b) && !onWorld(a);
}

/** Active contacts of robot r, appended to `out` as rows of 8 (see replay-data.ts): pos, normal
 *  (turned out of a world shape: normalFlip), dist, slot. */
export function robotContacts(c: CollidingBatch, model: ModelDesc, r: number, slot: number, out: number[]): void {
  const p = c.contacts(r);
  for (let k = 0; k < p.dist.length; k++) {
    const sign = normalFlip(model, p.shapeA[k], p.shapeB[k]) ? -1 : 1;
    out.push(
      p.pos[3 * k],
      p.pos[3 * k + 1],
      p.pos[3 * k + 2],
      sign * p.normal[3 * k],
      sign * p.normal[3 * k + 1],
      sign * p.normal[3 * k + 2],
      p.dist[k],
      slot,
    );
  }
}

/** What a run's loop needs to sample: the next step to stop at, and the sampling itself. */
export interface StepSampler {
  /** The next step at which sample() must be called (≥ the steps done), or undefined when done. */
  nextStep(): number | undefined;
  /** Record the batch's current state (it has taken exactly nextStep() steps). */
  sample(): void;
}

/** Samples the recorded robots' poses (and contacts, where the engine detects them) at the frame
 *  steps of a run of `steps` steps; simulate() calls it, result() packs what it took. */
export class ReplaySampler implements StepSampler {
  readonly fps: number;
  readonly steps: readonly number[];
  /** Why fps is below the requested rate (the poses would not fit), if it is. */
  readonly downsampleReason?: string;
  private f = 0;
  private readonly times: Float64Array;
  private readonly pos: Float32Array;
  private readonly quat: Int16Array;
  private readonly contactStart: Uint32Array;
  private readonly contacts: number[] = [];
  private readonly colliding: CollidingBatch | undefined;

  constructor(
    private readonly batch: Batch,
    private readonly robots: readonly number[],
    totalSteps: number,
    readonly requestedFps = DEFAULT_FPS,
    maxPoseBytes = MAX_POSE_BYTES,
  ) {
    const nb = batch.model.bodies.length;
    const chosen = chooseFps({ steps: totalSteps, dt: batch.dt }, robots.length, nb, requestedFps, maxPoseBytes);
    this.fps = chosen.fps;
    this.downsampleReason = chosen.reason;
    this.steps = frameSteps(totalSteps, batch.dt, chosen.fps);
    const F = this.steps.length;
    const R = robots.length;
    this.times = new Float64Array(F);
    this.pos = new Float32Array(F * R * nb * 3);
    this.quat = new Int16Array(F * R * nb * 4);
    this.contactStart = new Uint32Array(F + 1);
    this.colliding = (batch.model.shapes ?? []).length > 0 ? batch : undefined;
  }

  nextStep(): number | undefined {
    return this.f < this.steps.length ? this.steps[this.f] : undefined;
  }

  sample(): void {
    const b = this.batch;
    const f = this.f;
    // A frame taken anywhere else would show a state the run never had at that time.
    if (b.steps !== this.steps[f])
      throw new Error(`internal error: replay frame ${f} is due at step ${this.steps[f]}, the run is at step ${b.steps}`);
    const nb = b.model.bodies.length;
    const R = this.robots.length;
    const S = b.stride;
    this.times[f] = b.time;
    const k = b.kinematics();
    this.robots.forEach((r, j) => {
      for (let i = 0; i < nb; i++) {
        const o = (f * R + j) * nb + i;
        for (let c = 0; c < 3; c++) this.pos[o * 3 + c] = k.pos[(i * 3 + c) * S + r];
        const m = [0, 1, 2].map((row) => [0, 1, 2].map((col) => k.rot[(i * 9 + row * 3 + col) * S + r]));
        const q = quatFromMatrix(m);
        for (let c = 0; c < 4; c++) this.quat[o * 4 + c] = Math.round(q[c] * QUAT_SCALE);
      }
    });
    if (this.colliding) {
      this.colliding.collide();
      this.robots.forEach((r, j) => robotContacts(this.colliding!, b.model, r, j, this.contacts));
    }
    this.contactStart[f + 1] = this.contacts.length / 8;
    this.f++;
  }

  /** The replay's header and data; every frame must have been sampled. */
  result(meta: ReplayMeta): { header: ReplayHeader; bytes: Uint8Array } {
    const F = this.steps.length;
    if (this.f !== F) throw new Error(`internal error: the replay has ${this.f} of its ${F} frames (the run stopped early?)`);
    const { bytes, layout } = packFrames({
      times: this.times,
      pos: this.pos,
      quat: this.quat,
      contactStart: this.contactStart,
      contacts: new Float32Array(this.contacts),
    });
    const model = this.batch.model;
    const header: ReplayHeader = {
      version: REPLAY_VERSION,
      meta,
      fps: this.fps,
      requestedFps: this.requestedFps,
      ...(this.downsampleReason ? { downsampled: { fromFps: this.requestedFps, toFps: this.fps, reason: this.downsampleReason } } : {}),
      frames: F,
      robots: [...this.robots],
      nbody: model.bodies.length,
      gravity: model.world.gravity as Vec3,
      geometry: sceneGeometry(model),
      hasContacts: this.colliding !== undefined,
      layout,
      bytes: bytes.byteLength,
    };
    return { header, bytes };
  }
}
