// What every gate produces: one row per (state or time sample, field), judged against its bar.

import type { Precision } from '../engine/api.js';

export const STAGES = [
  'kinematics',
  'mass-matrix',
  'bias',
  'forward',
  'step',
  'trajectory',
  'energy',
  'exact',
  'collision',
  'contact',
  'contact-exact',
  'contact-trajectory',
  'equality',
  'actuators',
  'passive',
  'general-actuators',
  'implicitfast',
  'transmissions',
  'sensors',
  'import',
  'mjcf-sensors',
  'params',
] as const;
export type StageName = (typeof STAGES)[number];

export type Status = 'pass' | 'fail' | 'skip';

/** One compared quantity before judging: its error and the reference's own float32 (or float64 round-off) floor there. */
export interface Sample {
  state: number;
  /** Time (s) along a run, for trajectory-like checks. */
  t?: number;
  error: number;
  /** Per-state float32 floor (f32 runs) or round-off floor (f64 trajectories); NaN if not measured. */
  stateFloor: number;
}

export interface CheckRow {
  stage: StageName;
  model: string;
  precision: Precision;
  state: number;
  t: number | undefined;
  field: string;
  error: number;
  stateFloor: number;
  floor: number;
  factor: number;
  bar: number;
  status: Status;
  note: string;
}
