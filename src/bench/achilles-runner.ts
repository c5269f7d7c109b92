// Times the Achilles engine: one Batch per cell, stepped with stepRaw so a diverging robot is not
// an exception but simply uncounted; restarts (batch.reset) happen outside the timed region.

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

  constructor(cell: AchillesCell) {
    this.batch = new Batch(cell.model, {
      copies: cell.copies,
      precision: cell.precision,
      lanes: cell.lanes,
      integrator: cell.integrator,
      threads: cell.threads,
    });
    this.copies = cell.copies;
    this.restartEvery = cell.restartEvery;
  }

  get isa(): string {
    return this.batch.isa;
  }

  run(steps: number): Timed {
    const out: Timed = { seconds: 0, robotSteps: 0, nonFinite: 0 };
    for (let done = 0; done < steps; done += this.restartEvery) {
      const n = Math.min(this.restartEvery, steps - done);
      this.batch.reset(); // untimed, like MuJoCo's restarts
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
      this.batch.reset(); // untimed
      for (let s = 0; s < n; s++) {
        const t0 = process.hrtime.bigint();
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
