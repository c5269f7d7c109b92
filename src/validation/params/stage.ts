// The params gate: a robot of a randomized batch runs exactly as the scene with that robot's drawn
// values written in as constants. For a few robots of each scenario (constants.ts: the quadruped and
// the ball on the plate, every kind of parameter drawn, constant controls), the path of a robot in a
// batch of its own (src/params: robotParameters, withParameters) steps each robot at lane widths 1, 8
// and 16 and threads 1 and 2; lanes.ts runs the scenarios of per-lane kinds with their robots together
// in one batch. The reference steps constantsScene alone, one lane, one thread. The bar is 0: any bit
// of q or v that differs at any step fails (the engine is bit-identical across lanes and threads, so
// nothing but a wrong parameter can move it).

import type { Precision } from '../../engine/api.js';
import type { LaneWidth } from '../../engine/api.js';
import { supportedLanes } from '../../engine/lanes.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { withParameters } from '../../params/apply.js';
import { robotParameters, type ModelDraw } from '../../params/robot-values.js';
import { sceneModel } from '../contact/exact.js';
import type { CheckRow } from '../types.js';
import { GATE_SCENARIOS, constantsScene, type GateScenario } from './constants.js';
import { laneRows } from './lanes.js';
import { compareRow, gateDraws, trace } from './trace.js';

/** The robots checked (of a batch of 16: the first, and one in the second block of 8). */
export const GATE_ROBOTS = [0, 13];
const LANES: readonly LaneWidth[] = [1, 8, 16];
const THREADS = [1, 2];

export function paramsRows(precision: Precision, addon: NativeAddon, seed: number): CheckRow[] {
  const lanes = LANES.filter((w) => supportedLanes(addon.cpuInfo(), precision).includes(w));
  const rows: CheckRow[] = [];
  for (const scenario of GATE_SCENARIOS) {
    const model = sceneModel(scenario.scene);
    const draws = gateDraws(model, scenario);
    for (const robot of GATE_ROBOTS) rows.push(...robotRows(scenario, model, draws, robot, lanes, precision, addon, seed));
  }
  rows.push(...laneRows(precision, addon, seed));
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
      rows.push(compareRow(scenario.scene, precision, robot, `q,v lanes ${w} threads ${threads}`, want, got));
    }
  }
  return rows;
}
