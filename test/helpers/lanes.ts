// The lane widths a test can run on this CPU. Tests cover every width; the cells the CPU cannot run
// (f32 × 16 and f64 × 8/16 without AVX-512) are skipped by name, so the report says what was left out.
import { LANE_WIDTHS, PRECISIONS, type LaneWidth, type Precision } from '../../src/engine/api.js';
import { laneProblem } from '../../src/engine/lanes.js';
import { engineAddon } from '../../src/engine/native.js';

export const cpu = engineAddon().cpuInfo();

export interface LaneCell {
  precision: Precision;
  lanes: LaneWidth;
  /** Why this CPU cannot run the cell, or null. */
  skip: string | null;
}

export function laneCells(precisions: readonly Precision[] = PRECISIONS): LaneCell[] {
  return precisions.flatMap((precision) => LANE_WIDTHS.map((lanes) => ({ precision, lanes, skip: laneProblem(cpu, precision, lanes) })));
}

/** A test title that says when, and why, the cell is skipped here. */
export const cellTitle = (title: string, c: LaneCell): string => (c.skip ? `${title} — skipped on this CPU: ${c.skip}` : title);
