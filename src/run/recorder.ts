// Samples the recorded robots' state into trace rows.
//
// Every value in a row belongs to the same instant t = step · dt: q and v are the state after
// `step` steps, qacc is recomputed at exactly that state (batch.forward(), or batch.constrain() with contacts or limits: constrained, as the next step starts; after a step the
// engine's qacc would still hold the acceleration at the step's *start*), and the energies are
// evaluated at that state too. Values are copied out as float64 (exact for f32 and f64). With
// actuators, qacc is under the controls of the step just taken (held), and `force:<actuator>` is
// each actuator's force at that step's start.

import type { Batch } from '../engine/batch.js';
import { coordinateNames } from '../engine/batch.js';
import { hasActivation } from '../engine/model-desc.js';
import { ContactRecorder } from './contacts.js';
import { checkFiniteRow } from './finite-check.js';
import type { SensorReadings } from '../sensors/readings.js';

export interface TraceColumns {
  q: string[];
  v: string[];
  qacc: string[];
  /** Each actuator's force over the step that led here (`force:<actuator>`; none without actuators). */
  force: string[];
  /** Each activation (MuJoCo's act) of a general actuator with dynamics, at the recorded state
   *  (`act:<actuator>`; none without such actuators). */
  act: string[];
  all: string[];
}

export function traceColumns(batch: Batch): TraceColumns {
  const names = coordinateNames(batch.model);
  const q = names.q.map((n) => `q:${n}`);
  const v = names.v.map((n) => `v:${n}`);
  const qacc = names.v.map((n) => `qacc:${n}`);
  const force = (batch.model.actuators ?? []).map((a) => `force:${a.name}`);
  const act = (batch.model.actuators ?? []).filter(hasActivation).map((a) => `act:${a.name}`);
  return {
    q,
    v,
    qacc,
    force,
    act,
    all: ['step', 'time', 'robot', ...q, ...v, ...qacc, 'kinetic', 'potential', 'total', 'drift', ...force, ...act],
  };
}

export class Recorder {
  readonly columns: TraceColumns;
  /** One row per (record, robot), in `columns.all` order. */
  readonly rows: number[][] = [];
  /** Each recorded robot's total energy at step 0 (drift is measured from it). */
  private readonly initialTotal = new Map<number, number>();
  /** Contacts at the same instants (only when the model has candidate shape pairs). */
  readonly contacts: ContactRecorder | null;

  constructor(
    private readonly batch: Batch,
    readonly robots: readonly number[],
    /** The scene's sensor readings at the same instants (columns `sensor:<channel>` after `drift` and the actuator forces). */
    readonly readings: SensorReadings | null = null,
  ) {
    this.columns = traceColumns(batch);
    if (readings) this.columns.all.push(...readings.channels.map((c) => `sensor:${c}`));
    this.contacts = batch.hasPairs ? new ContactRecorder(batch, batch.model, robots) : null;
  }

  /** Record the current state of every recorded robot. */
  record(): void {
    const b = this.batch;
    // qacc at this state as the next step computes it: with contacts and limits, constrained
    const solved = b.hasPairs || b.model.bodies.some((x) => x.range || (x.frictionloss ?? 0) > 0);
    if (solved) b.constrain();
    else b.forward();
    const e = b.energy();
    const step = b.steps;
    const time = b.time;
    for (const r of this.robots) {
      const row: number[] = [step, time, r];
      for (let k = 0; k < b.nq; k++) row.push(b.q[k * b.stride + r]);
      for (let k = 0; k < b.nv; k++) row.push(b.v[k * b.stride + r]);
      for (let k = 0; k < b.nv; k++) row.push(b.qacc[k * b.stride + r]);
      const total = e.total[r];
      if (!this.initialTotal.has(r)) this.initialTotal.set(r, total);
      row.push(e.kinetic[r], e.potential[r], total, total - this.initialTotal.get(r)!);
      for (let a = 0; a < b.nu; a++) row.push(b.actuatorForce[a * b.stride + r]);
      for (let i = 0; i < b.na; i++) row.push(b.act[i * b.stride + r]);
      if (this.readings) for (let c = 0; c < this.readings.channels.length; c++) row.push(this.readings.data[c * this.readings.stride + r]);
      // A finite state can still give an infinite energy or reading (a body at z = 1e308, an IMU
      // noise of 1e308): the run stops on it rather than write Infinity into trace.csv.
      checkFiniteRow(this.columns.all, row, step, time, r);
      this.rows.push(row);
    }
    this.contacts?.record(step, time, solved);
  }

  /** Rows as objects keyed by column name (for CSV). */
  objects(): Record<string, number>[] {
    const cols = this.columns.all;
    return this.rows.map((row) => Object.fromEntries(cols.map((c, i) => [c, row[i]])));
  }

  /** The model whose state is recorded. */
  get model(): Batch['model'] {
    return this.batch.model;
  }

  /** Index of a column in each row (−1: none); a map, as a scene of thousands of links has tens of thousands of columns. */
  index(column: string): number {
    this.columnIndex ??= new Map(this.columns.all.map((c, i) => [c, i]));
    return this.columnIndex.get(column) ?? -1;
  }
  private columnIndex?: Map<string, number>;
}
