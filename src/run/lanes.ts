// SIMD width for a run. What the CPU supports is per precision (src/engine/lanes.ts).
//
// Default: one vector should hold all the robots if it can (copies 3 → 4 lanes); wider only
// pads with idle lanes; and one register of the CPU caps the width (registerLanes).

import { LANE_WIDTHS, type LaneWidth } from '../engine/api.js';

export { cpuHas, isaFor, laneProblem, registerLanes, supportedLanes, widestLanes } from '../engine/lanes.js';

export function defaultLanes(copies: number, widest: LaneWidth): LaneWidth {
  for (const w of LANE_WIDTHS) if (w <= widest && w >= copies) return w;
  return widest;
}
