// A second, independent check for NaN/inf states, run on the whole batch at every record, and a
// check of every recorded value (energies, accelerations, forces, sensor readings: checkFiniteRow).
//
// The engine checks after every step and throws NonFiniteStateError; this scan does not trust
// that alone (a lane-mask bug in the SIMD check would otherwise let a NaN trace through with
// exit code 0). It costs nq + nv reads per robot per record, nothing next to stepping.

import type { Batch } from '../engine/batch.js';
import { coordinateLayout } from '../engine/model-desc.js';

/** Where a non-finite value was found: a joint's state (q or v), or another recorded column. */
export type NonFiniteWhere = { joint: string } | { column: string };

export class NonFiniteRecordError extends Error {
  readonly step: number;
  readonly robot: number;
  /** The joint whose state is non-finite ('' when the state is finite and another column is not). */
  readonly joint: string;
  /** The trace column that is non-finite (absent for a non-finite state). */
  readonly column?: string;
  constructor(step: number, time: number, robot: number, where: string | NonFiniteWhere) {
    const w: NonFiniteWhere = typeof where === 'string' ? { joint: where } : where;
    super(
      'joint' in w
        ? `the state became non-finite by step ${step} (t = ${time.toFixed(6)} s, found at this record), robot ${robot}, joint '${w.joint}'` +
            ' (the motion diverged: try a smaller --dt, more --substeps or another --integrator)'
        : `the recorded column '${w.column}' is non-finite at step ${step} (t = ${time.toFixed(6)} s), robot ${robot}, while the state is finite (${whyNonFinite(w.column)})`,
    );
    this.name = 'NonFiniteRecordError';
    this.step = step;
    this.robot = robot;
    this.joint = 'joint' in w ? w.joint : '';
    if ('column' in w) this.column = w.column;
  }
}

/** What overflows when a column other than the state is non-finite, and what to look at. */
function whyNonFinite(column: string): string {
  if (['kinetic', 'potential', 'total', 'drift'].includes(column)) {
    return 'the energy overflows the floating-point range: a position, speed or mass too large for its energy to be represented';
  }
  if (column.startsWith('qacc:'))
    return 'the acceleration at this state overflows: the motion diverged; try a smaller --dt, more --substeps or another --integrator';
  if (column.startsWith('force:')) return "the actuator's force overflows: check its gains and the controls it is given";
  if (column.startsWith('sensor:')) return "the sensor's reading overflows: check its noise, scale and drift, and the motion it reads";
  return 'it overflows the floating-point range';
}

/** Throw NonFiniteRecordError naming the first non-finite value of a trace row (columns[i] holds
 *  row[i]): every column written to trace.csv is checked, not only the state, so no Infinity or
 *  NaN is ever written. */
export function checkFiniteRow(columns: readonly string[], row: readonly number[], step: number, time: number, robot: number): void {
  for (let i = 0; i < row.length; i++) {
    if (!Number.isFinite(row[i])) throw new NonFiniteRecordError(step, time, robot, { column: columns[i] });
  }
}

/** Throw NonFiniteRecordError naming the first robot (then joint) whose q or v is not finite. */
export function checkFinite(batch: Batch): void {
  const { stride, nq, nv, q, v, copies } = batch;
  // The lowest-numbered robot with any non-finite coordinate or velocity.
  let bad = copies;
  const scan = (a: ArrayLike<number>, n: number): void => {
    for (let k = 0; k < n; k++) for (let r = 0; r < bad; r++) if (!Number.isFinite(a[k * stride + r])) bad = r;
  };
  scan(q, nq);
  scan(v, nv);
  if (bad === copies) return;
  const { qOffset, vOffset } = coordinateLayout(batch.model.bodies);
  const s = batch.getRobot(bad);
  const joint = batch.model.bodies.findIndex((b, i) => {
    const qn = (i + 1 < qOffset.length ? qOffset[i + 1] : nq) - qOffset[i];
    const vn = (i + 1 < vOffset.length ? vOffset[i + 1] : nv) - vOffset[i];
    return (
      s.q.slice(qOffset[i], qOffset[i] + qn).some((x) => !Number.isFinite(x)) ||
      s.v.slice(vOffset[i], vOffset[i] + vn).some((x) => !Number.isFinite(x))
    );
  });
  throw new NonFiniteRecordError(batch.steps, batch.time, bad, batch.model.bodies[joint].name);
}
