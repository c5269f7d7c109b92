// The metrics a sweep keeps per robot of one batch: sampled at the plan's sample steps (step 0,
// every `sampleEvery` steps, the last), then written into each robot's row. Sampling only reads
// the state (kinematics, contact detection), so it never changes what the robots do.

import type { Batch } from '../engine/batch.js';
import type { SweepPlan } from './plan.js';

export type MetricCells = Record<string, number | boolean | undefined>;

export class BatchMetrics {
  private readonly wants: ReadonlySet<string>;
  private readonly minHeight: Float64Array;
  /** The step of the first sample below fall_height (-1: none yet). */
  private readonly fellStep: Float64Array;
  private readonly lastContacts: Float64Array;
  private readonly maxContacts: Float64Array;

  constructor(
    private readonly plan: SweepPlan,
    private readonly batch: Batch,
  ) {
    const n = batch.copies;
    this.wants = new Set(plan.metrics);
    this.minHeight = new Float64Array(n).fill(Infinity);
    this.fellStep = new Float64Array(n).fill(-1);
    this.lastContacts = new Float64Array(n);
    this.maxContacts = new Float64Array(n);
  }

  /** Whether the engine must track every robot's energy drift at every step (stepMonitored). */
  get energy(): boolean {
    return this.wants.has('energy');
  }

  /** Reads the current state of every robot of the batch. */
  sample(): void {
    const { batch, plan } = this;
    const S = batch.stride;
    if (this.wants.has('height') || this.wants.has('fell')) {
      const pos = batch.kinematics().pos;
      for (let i = 0; i < batch.copies; i++) {
        const h = pos[(plan.body * 3 + 2) * S + i];
        if (h < this.minHeight[i]) this.minHeight[i] = h;
        if (plan.fallHeight !== undefined && this.fellStep[i] < 0 && h < plan.fallHeight) this.fellStep[i] = batch.steps;
      }
    }
    if (this.wants.has('contacts')) {
      // Detection only: it reads the positions and writes nothing the next step uses.
      batch.collide();
      for (let i = 0; i < batch.copies; i++) {
        const c = batch.contacts(i).dist.length;
        this.lastContacts[i] = c;
        if (c > this.maxContacts[i]) this.maxContacts[i] = c;
      }
    }
  }

  /** Every robot's metric cells at the end (after the last sample), in results.csv's column order. */
  cells(): MetricCells[] {
    const { batch, plan } = this;
    const S = batch.stride;
    const energy = this.wants.has('energy') ? batch.energy() : undefined;
    const drift = energy ? batch.energyMaxima().maxAbsDrift : undefined;
    const pos = this.wants.has('height') ? batch.kinematics().pos : undefined;
    return Array.from({ length: batch.copies }, (_, i) => {
      const row: MetricCells = {};
      if (this.wants.has('fell')) {
        row.fell = this.fellStep[i] >= 0;
        row.fell_time = this.fellStep[i] >= 0 ? this.fellStep[i] * plan.dt : undefined;
      }
      if (pos) {
        row.height = pos[(plan.body * 3 + 2) * S + i];
        row.min_height = this.minHeight[i];
      }
      if (energy && drift) {
        row.kinetic = energy.kinetic[i];
        row.potential = energy.potential[i];
        row.total = energy.total[i];
        row.max_drift = drift[i];
      }
      if (this.wants.has('contacts')) {
        row.contacts = this.lastContacts[i];
        row.max_contacts = this.maxContacts[i];
      }
      return row;
    });
  }
}
