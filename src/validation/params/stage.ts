// The params gate: a robot of a randomized batch runs exactly as the scene with that robot's drawn
// values written in as constants. For a few robots of each scenario (constants.ts: the quadruped and
// the ball on the plate, every kind of parameter drawn, constant controls), the run path (src/params: robotParameters, withParameters) steps each robot at lane
// widths 1, 8 and 16 and threads 1 and 2; the reference steps constantsScene alone, one lane, one
// thread. The bar is 0: any bit of q or v that differs at any step fails (the engine is bit-identical
// across lanes and threads, so nothing but a wrong parameter can move it).

import type { Precision } from '../../engine/api.js';
import type { LaneWidth } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import { supportedLanes } from '../../engine/lanes.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { withParameters } from '../../params/apply.js';
import { parameterKey } from '../../params/draws.js';
import { parseParameterName, resolveParameter } from '../../params/names.js';
import { robotParameters, type ModelDraw } from '../../params/robot-values.js';
import { sceneModel } from '../contact/exact.js';
import type { CheckRow } from '../types.js';
import { GATE_SCENARIOS, constantsScene, type GateScenario } from './constants.js';

/** The robots checked (of a batch of 16: the first, and one in the second block of 8). */
export const GATE_ROBOTS = [0, 13];
const STEPS = 150; // 0.3 s: the quadruped lands on its feet and its contacts act
const LANES: readonly LaneWidth[] = [1, 8, 16];
const THREADS = [1, 2];

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

/** q then v at every step, robot 0 of a batch, under the scenario's constant controls. */
function trace(
  model: ModelDesc,
  ctrl: readonly number[],
  precision: Precision,
  lanes: LaneWidth,
  threads: number,
  addon: NativeAddon,
): Float64Array {
  const batch = new Batch(model, { copies: 1, precision, lanes, threads }, addon);
  const { nq, nv } = { nq: batch.getRobot(0).q.length, nv: batch.getRobot(0).v.length };
  const out = new Float64Array(STEPS * (nq + nv));
  for (let s = 0; s < STEPS; s++) {
    const c = batch.ctrl; // a control acts over the next step only: written before each
    ctrl.forEach((u, a) => (c[a * batch.stride] = u));
    batch.step(1);
    const { q, v } = batch.getRobot(0);
    out.set(q, s * (nq + nv));
    out.set(v, s * (nq + nv) + nq);
  }
  return out;
}

export function paramsRows(precision: Precision, addon: NativeAddon, seed: number): CheckRow[] {
  const lanes = LANES.filter((w) => supportedLanes(addon.cpuInfo(), precision).includes(w));
  const rows: CheckRow[] = [];
  for (const scenario of GATE_SCENARIOS) {
    const model = sceneModel(scenario.scene);
    const draws = gateDraws(model, scenario);
    for (const robot of GATE_ROBOTS) rows.push(...robotRows(scenario, model, draws, robot, lanes, precision, addon, seed));
  }
  return rows;
}

/** One robot of a scenario: its constants scene's trace against the run path's at each width and thread count. */
function robotRows(
  scenario: GateScenario,
  model: ModelDesc,
  draws: readonly ModelDraw[],
  robot: number,
  lanes: readonly LaneWidth[],
  precision: Precision,
  addon: NativeAddon,
  seed: number,
): CheckRow[] {
  const rows: CheckRow[] = [];
  const want = trace(constantsScene(model, scenario, seed, robot), scenario.ctrl, precision, 1, 1, addon);
  for (const w of lanes) {
    for (const threads of THREADS) {
      const got = trace(withParameters(model, robotParameters(draws, seed, robot, w)), scenario.ctrl, precision, w, threads, addon);
      let differ = 0;
      let worst = 0;
      for (let i = 0; i < want.length; i++) {
        if (Object.is(got[i], want[i])) continue;
        differ++;
        worst = Math.max(worst, Math.abs(got[i] - want[i]) || Infinity);
      }
      rows.push({
        stage: 'params',
        model: scenario.scene,
        precision,
        state: robot,
        t: undefined,
        field: `q,v lanes ${w} threads ${threads}`,
        error: worst,
        stateFloor: 0,
        floor: 0,
        factor: 1,
        bar: 0,
        status: differ === 0 ? 'pass' : 'fail',
        note: differ === 0 ? `bit-identical over ${STEPS} steps` : `${differ} of ${want.length} values differ from the constants scene`,
      });
    }
  }
  return rows;
}
