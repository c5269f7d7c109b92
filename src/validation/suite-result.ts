// What one `achilles validate` run was asked (SuiteOptions) and found (SuiteResult): its own
// module, apart from the runner (suite.ts), so the stage interface (validation-stage.ts) can name
// the result it reports into without an import circle through the registry of stages.

import type { Precision } from '../engine/api.js';
import type { StageTiming } from './clock.js';
import type { ScatterPoint } from './collision/stage.js';
import type { InclineSummary } from './contact/exact.js';
import type { ContactStateSummary } from './contact/per-state.js';
import type { DominoSummary } from './contact/trajectory.js';
import type { EnergyOutcome } from './energy.js';
import type { NamedModel } from './models.js';
import type { CheckRow, StageName } from './types.js';

export interface SuiteOptions {
  stages: ReadonlySet<StageName>;
  /** Model names to include (default all). */
  models?: ReadonlySet<string>;
  states: number;
  bugStates: number;
  seed: number;
  python: string;
  /** Run the planted-bug sweep (default true). */
  bugs: boolean;
  log?: (line: string) => void;
  /** Models given as files (`validate --model robot.urdf`), validated beside the suite's own. */
  extra?: NamedModel[];
}

export interface BugOutcome {
  name: string;
  /** Gates ("stage/model/precision") the bug made fail. */
  failed: string[];
  /** Whether this run is judged on the bug (always true for the full suite, which must catch every
   *  bug): a subset is judged on a bug it caught, or on one that a stage it ran targets
   *  (bug-targets.ts) and that changed a value it compares. A subset runs no stage that can catch
   *  the other bugs, or its models hide them (a hinge sign on a model without hinges). */
  reached: boolean;
  /** Whether one of the run's stages targets the bug (bug-targets.ts). */
  targeted: boolean;
}

export interface SuiteResult {
  rows: CheckRow[];
  bugs: BugOutcome[];
  energy: Partial<Record<Precision, EnergyOutcome['series']>>;
  closedForm: { model: string; precision: Precision; t: number[]; error: number[] }[];
  tauScale: Record<string, number>;
  /** The collision stage's distances (exact vs reported, ours and MuJoCo's), when it ran. */
  collision?: { pairs: number; scatter: ScatterPoint[]; refused?: { combo: string; why: string }[] };
  /** The contact stages' measurements for the report (20-iteration errors, incline, dominoes), when they ran. */
  contact?: { states: ContactStateSummary[]; incline: InclineSummary[]; domino: DominoSummary[] };
  /** Full runs: bugs a stage that bug-targets.ts declares for them did not catch (the table is
   *  out of date: a subset of that stage would fail). */
  bugTableStale?: string[];
  seconds: number;
  /** Seconds per phase (references, engine, planted bugs) and group of stages, largest first. */
  timings: StageTiming[];
  options: SuiteOptions;
  mujocoVersion?: string;
}
