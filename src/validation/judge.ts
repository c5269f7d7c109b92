// Turns samples of one field into judged rows: the bar comes from metrics.barFor (per field) or,
// for runs over time, from the running maximum of the measured floor (judgeOverTime).

import type { Precision } from '../engine/api.js';
import { F32_FACTOR, F32_ILL_CONDITIONED, F64_BAR, barFor } from './metrics.js';
import type { CheckRow, Sample, StageName } from './types.js';

export interface FieldId {
  stage: StageName;
  model: string;
  precision: Precision;
  field: string;
}

/** One compared sample against its bar: pass, fail, or skip (with the reason). */
function row(id: FieldId, s: Sample, floor: number, factor: number, bar: number, skip: boolean, note: string): CheckRow {
  const status = skip ? 'skip' : s.error <= bar ? 'pass' : 'fail';
  return { ...id, state: s.state, t: s.t, error: s.error, stateFloor: s.stateFloor, floor, factor, bar, status, note };
}

/** A row for a stage that sets its own bar: a non-finite error counts as Infinity and fails. */
export function checkRow(
  id: FieldId,
  state: number,
  t: number | undefined,
  error: number,
  floor: number,
  factor: number,
  bar: number,
  note: string,
): CheckRow {
  const e = Number.isFinite(error) ? error : Infinity;
  return { ...id, state, t, error: e, stateFloor: floor, floor, factor, bar, status: e <= bar ? 'pass' : 'fail', note };
}

/** Robot 0's n values of a batch's strided array (entry k at k × stride). */
export const column = (a: ArrayLike<number>, n: number, stride: number) => Array.from({ length: n }, (_, k) => a[k * stride]);

/** Per-state gates: one bar per field (f64: the constant; f32: 3 × the field's float32 floor).
 *  In f32 a state whose own floor is above F32_ILL_CONDITIONED is skipped and reported. */
export function judgeField(id: FieldId, samples: readonly Sample[]): CheckRow[] {
  const { floor, factor, bar } = barFor(
    id.precision,
    samples.map((s) => s.stateFloor),
  );
  return samples.map((s) => {
    const skip = id.precision === 'f32' && !(s.stateFloor <= F32_ILL_CONDITIONED);
    const note = skip ? `float32 cannot resolve this state: its floor ${s.stateFloor.toExponential(2)} > ${F32_ILL_CONDITIONED}` : '';
    return row(id, s, floor, factor, bar, skip, note);
  });
}

/** Runs over time (samples in time order): the floor at t is the largest floor measured up to t
 *  (perturbation differences grow, but cross zero now and then); bar = factor × that floor, and in
 *  f64 never below F64_BAR. Once the floor passes F32_ILL_CONDITIONED the reference itself has
 *  lost the trajectory to float32-sized perturbations (chaos), so later samples are skipped and reported. */
export function judgeOverTime(id: FieldId, samples: readonly Sample[]): CheckRow[] {
  let running = 0;
  let lost = false;
  return samples.map((s) => {
    running = Math.max(running, Number.isFinite(s.stateFloor) ? s.stateFloor : Infinity);
    lost ||= running > F32_ILL_CONDITIONED;
    const bar = id.precision === 'f64' ? Math.max(F64_BAR, F32_FACTOR * running) : F32_FACTOR * running;
    const note = lost
      ? `float32-sized perturbations alone have moved the reference by more than ${F32_ILL_CONDITIONED} by t = ${s.t}: not comparable`
      : '';
    return row(id, s, running, F32_FACTOR, bar, lost, note);
  });
}
