// What the params gate's two paths share (stage.ts: a robot in a batch of its own; lanes.ts: robots
// together, one per lane): the scenarios' draws, a robot's trace of q and v under constant controls,
// and the row that compares a trace with its constants scene's, bit for bit.

import type { LaneWidth, Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { parameterKey } from '../../params/draws.js';
import { parseParameterName, resolveParameter } from '../../params/names.js';
import type { ModelDraw } from '../../params/robot-values.js';
import type { CheckRow } from '../types.js';
import type { GateScenario } from './constants.js';

export const STEPS = 150; // 0.3 s: the quadruped lands on its feet and its contacts act

/** The scenario's parameters resolved against `model`, as a sweep's plan resolves them. */
export function gateDraws(model: ModelDesc, scenario: GateScenario): ModelDraw[] {
  return scenario.parameters.map((p) => {
    const parsed = parseParameterName(p.name);
    if ('found' in parsed) throw new Error(`params gate: ${parsed.found}`);
    const target = resolveParameter(parsed, model);
    if ('found' in target) throw new Error(`params gate: ${target.found}`);
    return { name: p.name, key: parameterKey(p.name), dist: p.dist, target };
  });
}

/** q then v of each of `robots` at every step of `batch`, under the constant controls `ctrl` for
 *  every robot. */
export function batchTraces(batch: Batch, ctrl: readonly number[], robots: readonly number[]): Float64Array[] {
  const { nq, nv, stride } = batch;
  const out = robots.map(() => new Float64Array(STEPS * (nq + nv)));
  for (let s = 0; s < STEPS; s++) {
    const c = batch.ctrl; // a control acts over the next step only: written before each
    ctrl.forEach((u, a) => c.fill(u, a * stride, a * stride + batch.copies));
    // stepRaw: under a planted engine bug a scenario may diverge; its NaNs are compared like any value
    batch.stepRaw(1);
    robots.forEach((r, i) => {
      for (let k = 0; k < nq; k++) out[i][s * (nq + nv) + k] = batch.q[k * stride + r];
      for (let k = 0; k < nv; k++) out[i][s * (nq + nv) + nq + k] = batch.v[k * stride + r];
    });
  }
  return out;
}

/** q then v at every step of a robot in a batch of its own. */
export function trace(
  model: ModelDesc,
  ctrl: readonly number[],
  precision: Precision,
  lanes: LaneWidth,
  threads: number,
  addon: NativeAddon,
): Float64Array {
  return batchTraces(new Batch(model, { copies: 1, precision, lanes, threads }, addon), ctrl, [0])[0];
}

/** The gate's row: `got` against the constants scene's `want`, every value bit for bit (bar 0). */
export function compareRow(
  model: string,
  precision: Precision,
  robot: number,
  field: string,
  want: Float64Array,
  got: Float64Array,
): CheckRow {
  let differ = 0;
  let worst = 0;
  for (let i = 0; i < want.length; i++) {
    if (Object.is(got[i], want[i])) continue;
    differ++;
    worst = Math.max(worst, Math.abs(got[i] - want[i]) || Infinity);
  }
  return {
    stage: 'params',
    model,
    precision,
    state: robot,
    t: undefined,
    field,
    error: worst,
    stateFloor: 0,
    floor: 0,
    factor: 1,
    bar: 0,
    status: differ === 0 ? 'pass' : 'fail',
    note: differ === 0 ? `bit-identical over ${STEPS} steps` : `${differ} of ${want.length} values differ from the constants scene`,
  };
}
