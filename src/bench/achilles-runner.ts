// Times the Achilles engine: one Batch per cell, stepped with stepRaw so a diverging robot is not
// an exception but simply uncounted; restarts (batch.reset, then each robot's own start) happen
// outside the timed region. With random controls the batch steps one dt per call, each preceded
// (inside the timing, as MuJoCo's cell copies its controls inside its own) by that step's controls.

import type { LaneWidth, Precision } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import type { IntegratorName, ModelDesc } from '../engine/model-desc.js';
import type { Runner, Timed } from './runner.js';

export interface AchillesCell {
  model: ModelDesc;
  precision: Precision;
  lanes: LaneWidth;
  copies: number;
  integrator: IntegratorName;
  threads: number;
  restartEvery: number;
  /** Each robot's start, robot after robot (robots.ts robotStarts); absent: the scene's start. */
  starts?: { qpos: Float64Array; qvel: Float64Array };
  /** Controls of each step of a restart segment, [(s·nu + a)·copies + r] (robots.ts randomControls'
   *  byActuator; step s reads row s mod rows, as MuJoCo's cell does); absent: zero controls. */
  ctrl?: Float32Array;
  /** Each robot's model (per-lane parameters: robots.ts laneParamModels); the batch is made with the first. */
  robotModels?: ModelDesc[];
}

/**
 * Finite robot-steps of one stepRaw(k) call. With no non-finite state every robot-step counts;
 * the reported number is trusted only when something diverged (and clamped to what is possible):
 * an engine build was seen returning negative counts for lanes < 16, which must not turn into
 * negative (or inflated) throughput.
 */
export function finiteRobotSteps(r: { robotSteps: number; nonFinite: unknown }, k: number, copies: number): number {
  const all = k * copies;
  if (!r.nonFinite) return all;
  return Math.min(all, Math.max(0, r.robotSteps));
}

export class AchillesRunner implements Runner {
  readonly copies: number;
  readonly batch: Batch;
  protected readonly restartEvery: number;
  private readonly starts?: { qpos: Float64Array; qvel: Float64Array };
  protected readonly ctrl?: Float32Array;
  private readonly ctrlRows: number;

  constructor(cell: AchillesCell) {
    this.batch = new Batch(cell.robotModels?.[0] ?? cell.model, {
      copies: cell.copies,
      precision: cell.precision,
      lanes: cell.lanes,
      integrator: cell.integrator,
      threads: cell.threads,
    });
    cell.robotModels?.forEach((m, r) => r > 0 && this.batch.setRobotModel(r, m));
    this.copies = cell.copies;
    this.restartEvery = cell.restartEvery;
    this.starts = cell.starts;
    this.ctrl = cell.ctrl;
    const perRow = this.batch.nu * cell.copies;
    if (this.ctrl && (perRow === 0 || this.ctrl.length === 0 || this.ctrl.length % perRow !== 0)) {
      throw new Error(`ctrl holds ${this.ctrl.length} numbers, not a positive multiple of nu × copies = ${perRow}`);
    }
    this.ctrlRows = this.ctrl ? this.ctrl.length / perRow : 0;
  }

  /** Back to every robot's own start (untimed). */
  protected restart(): void {
    this.batch.reset();
    if (!this.starts) return;
    const { q, v, nq, nv, stride } = this.batch;
    const { qpos, qvel } = this.starts;
    for (let r = 0; r < this.copies; r++) {
      for (let k = 0; k < nq; k++) q[k * stride + r] = qpos[r * nq + k];
      for (let k = 0; k < nv; k++) v[k * stride + r] = qvel[r * nv + k];
    }
  }

  /** Step s of the segment's controls into the half the next step reads. */
  protected feed(step: number): void {
    const s = step % this.ctrlRows;
    const nu = this.batch.nu;
    const c = this.batch.ctrl;
    const n = this.copies;
    const stride = this.batch.stride;
    for (let a = 0; a < nu; a++) c.set(this.ctrl!.subarray((s * nu + a) * n, (s * nu + a + 1) * n), a * stride);
  }

  get isa(): string {
    return this.batch.isa;
  }

  run(steps: number): Timed {
    const out: Timed = { seconds: 0, robotSteps: 0, nonFinite: 0 };
    for (let done = 0; done < steps; done += this.restartEvery) {
      const n = Math.min(this.restartEvery, steps - done);
      this.restart(); // untimed, like MuJoCo's restarts
      if (this.ctrl) {
        for (let s = 0; s < n; s++) {
          const t0 = process.hrtime.bigint();
          this.feed(s);
          const r = this.batch.stepRaw(1);
          const t1 = process.hrtime.bigint();
          out.seconds += Number(t1 - t0) / 1e9;
          const ok = finiteRobotSteps(r, 1, this.copies);
          out.robotSteps += ok;
          out.nonFinite += this.copies - ok;
        }
        continue;
      }
      const t0 = process.hrtime.bigint();
      const r = this.batch.stepRaw(n);
      const t1 = process.hrtime.bigint();
      out.seconds += Number(t1 - t0) / 1e9;
      const ok = finiteRobotSteps(r, n, this.copies);
      out.robotSteps += ok;
      out.nonFinite += n * this.copies - ok;
    }
    return out;
  }
}

/** What a collision cell times: detection alone, or the whole step (dynamics, then detection). */
export type CollisionMeasure = 'detect' | 'step+detect';

/**
 * Achilles' detection per robot-step: the batch steps one dt at a time, and collide() (poses,
 * broad and narrow phase for every robot) is timed after each step ('detect': the step untimed;
 * 'step+detect': both timed). The clock is read around each call, as MuJoCo's cell does in C.
 */
export class AchillesCollisionRunner extends AchillesRunner {
  constructor(
    cell: AchillesCell,
    readonly measure: CollisionMeasure,
  ) {
    super(cell);
  }

  override run(steps: number): Timed {
    const out: Timed = { seconds: 0, robotSteps: 0, nonFinite: 0 };
    const whole = this.measure === 'step+detect';
    let ns = 0n;
    for (let done = 0; done < steps; done += this.restartEvery) {
      const n = Math.min(this.restartEvery, steps - done);
      this.restart(); // untimed
      for (let s = 0; s < n; s++) {
        // The controls' copy counts where the step does ('step+detect'), never in 'detect'.
        const t0 = process.hrtime.bigint();
        if (this.ctrl) this.feed(s);
        const r = this.batch.stepRaw(1);
        const t1 = process.hrtime.bigint();
        this.batch.collide();
        const t2 = process.hrtime.bigint();
        ns += whole ? t2 - t0 : t2 - t1;
        const ok = finiteRobotSteps(r, 1, this.copies);
        out.robotSteps += ok;
        out.nonFinite += this.copies - ok;
      }
    }
    out.seconds = Number(ns) / 1e9;
    return out;
  }
}
