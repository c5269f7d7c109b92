// The lane widths a test can run on this CPU. Tests cover every width; the cells the CPU cannot run
// (f32 × 16 and f64 × 8/16 without AVX-512) are skipped by name, so the report says what was left out.
import { expect } from 'vitest';
import { LANE_WIDTHS, PRECISIONS, type LaneWidth, type Precision } from '../../src/engine/api.js';
import { Batch } from '../../src/engine/batch.js';
import { laneProblem, widestLanes } from '../../src/engine/lanes.js';
import type { ModelDesc } from '../../src/engine/model-desc.js';
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

type RobotInit = Parameters<Batch['setRobot']>[1];

/** Every robot's positions after `steps` steps, each robot r started from init(r). */
function finalPositions(
  model: ModelDesc,
  precision: Precision,
  lanes: number,
  threads: number,
  init: (r: number) => RobotInit,
  copies: number,
  steps: number,
): number[][] {
  const b = new Batch(model, { copies, precision, lanes: lanes as LaneWidth, threads }, engineAddon());
  for (let r = 0; r < copies; r++) b.setRobot(r, init(r));
  b.stepRaw(steps);
  return Array.from({ length: copies }, (_, r) => Array.from(b.getRobot(r).q));
}

/** In f32 and f64: finite, and bit-identical at the widest lanes on 2 threads to one lane on one thread. */
export function expectSameAcrossLanesAndThreads(model: ModelDesc, init: (r: number) => RobotInit, copies = 11, steps = 300): void {
  for (const p of PRECISIONS) {
    const ref = finalPositions(model, p, 1, 1, init, copies, steps);
    expect(ref.every((q) => q.every(Number.isFinite))).toBe(true);
    expect(finalPositions(model, p, widestLanes(cpu, p), 2, init, copies, steps)).toEqual(ref);
  }
}
