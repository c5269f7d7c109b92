// A second, independent check for NaN/inf states, run on the whole batch at every record.
//
// The engine checks after every step and throws NonFiniteStateError; this scan does not trust
// that alone (a lane-mask bug in the SIMD check would otherwise let a NaN trace through with
// exit code 0). It costs nq + nv reads per robot per record, nothing next to stepping.

import type { Batch } from '../engine/batch.js';
import { coordinateLayout } from '../engine/model-desc.js';

export class NonFiniteRecordError extends Error {
  readonly step: number;
  readonly robot: number;
  readonly joint: string;
  constructor(step: number, time: number, robot: number, joint: string) {
    super(
      `the state became non-finite by step ${step} (t = ${time.toFixed(6)} s, found at this record), robot ${robot}, joint '${joint}'` +
        ' (the motion diverged: try a smaller --dt, more --substeps or another --integrator)',
    );
    this.name = 'NonFiniteRecordError';
    this.step = step;
    this.robot = robot;
    this.joint = joint;
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
    return s.q.slice(qOffset[i], qOffset[i] + qn).some((x) => !Number.isFinite(x)) || s.v.slice(vOffset[i], vOffset[i] + vn).some((x) => !Number.isFinite(x));
  });
  throw new NonFiniteRecordError(batch.steps, batch.time, bad, batch.model.bodies[joint].name);
}
