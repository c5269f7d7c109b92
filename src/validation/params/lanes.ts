// The params gate's per-lane rows: the robots of a scenario whose drawn kinds are all per lane
// (constants.ts LANE_SCENARIOS) run together in one batch, one robot per lane, the batch made with
// robot 0's model and every other robot's set in its lane (src/params/lanes.ts); each checked robot's
// trace must equal its constants scene's, run alone (one lane, one thread), bit for bit, at every lane
// width this CPU has and threads 1 and 2. Twenty robots: at 16 lanes two blocks, the second padded; at 8
// three, at 4 five: a parameter read from the wrong lane or block moves some robot's trace.

import { LANE_WIDTHS, type Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import { supportedLanes } from '../../engine/lanes.js';
import type { NativeAddon } from '../../engine/native.js';
import { withParameters } from '../../params/apply.js';
import { setRobotModels } from '../../params/lanes.js';
import { robotParameters } from '../../params/robot-values.js';
import { sceneModel } from '../contact/exact.js';
import type { CheckRow } from '../types.js';
import { LANE_SCENARIOS, constantsScene } from './constants.js';
import { batchTraces, compareRow, gateDraws, trace } from './trace.js';

export const LANE_ROBOTS = 20;
/** The robots checked: the first and last lanes of blocks at several widths, and the padded block's last robot. */
export const LANE_CHECKED = [0, 5, 13, 19];
const THREADS = [1, 2];

export function laneRows(precision: Precision, addon: NativeAddon, seed: number): CheckRow[] {
  const widths = LANE_WIDTHS.filter((w) => supportedLanes(addon.cpuInfo(), precision).includes(w));
  const rows: CheckRow[] = [];
  for (const scenario of LANE_SCENARIOS) {
    const model = sceneModel(scenario.scene);
    const draws = gateDraws(model, scenario);
    const want = LANE_CHECKED.map((r) => trace(constantsScene(model, scenario, seed, r), scenario.ctrl, precision, 1, 1, addon));
    for (const w of widths) {
      // the lane width is passed to the draws only so that the planted lane-width bug can act
      const models = Array.from({ length: LANE_ROBOTS }, (_, r) => withParameters(model, robotParameters(draws, seed, r, w)));
      for (const threads of THREADS) {
        const batch = new Batch(models[0], { copies: LANE_ROBOTS, precision, lanes: w, threads }, addon);
        setRobotModels(batch, models);
        const got = batchTraces(batch, scenario.ctrl, LANE_CHECKED);
        LANE_CHECKED.forEach((r, i) =>
          rows.push(
            compareRow(
              scenario.scene,
              precision,
              r,
              `q,v lanes ${w} threads ${threads}, ${LANE_ROBOTS} robots in one batch`,
              want[i],
              got[i],
            ),
          ),
        );
      }
    }
  }
  return rows;
}
