// One validation stage behind a common face (as bench/runner.ts's Runner is for what bench times):
// the suite (suite.ts) loads every selected stage's reference, runs each stage's gates at both
// precisions, and sweeps the planted bugs through them, knowing nothing of any one stage. A stage is
// one folder with a definition.ts exporting its ValidationStage, registered by one line in
// registry.ts.

import type { Precision } from '../engine/api.js';
import type { NativeAddon } from '../engine/native.js';
import type { NamedModel } from './models.js';
import type { SuiteResult } from './suite-result.js';
import type { CheckRow, StageName } from './types.js';

/** What a stage's reference may draw on. */
export interface ReferenceContext {
  python: string;
  seed: number;
  /** Random states per model. */
  states: number;
  /** The --stage names selected (a stage producing several gates checks only these). */
  stages: ReadonlySet<StageName>;
  /** The --model subset, if any. */
  models?: ReadonlySet<string>;
  /** The suite's models after the --model subset, files given with --model included. */
  all: readonly NamedModel[];
  /** The smooth-dynamics models: `all` without contacts and limits, and without the contact-only
   *  scenes (the contact stages judge those). */
  smooth: readonly NamedModel[];
  log: (line: string) => void;
  /** Another stage's reference, for a stage that builds on it (undefined when that stage is not run). */
  referenceOf<R>(stage: ValidationStage<R>): Promise<R | undefined>;
}

/** What a stage's gates run against. */
export interface GateContext {
  precision: Precision;
  /** The engine: the normal build, or the planted-bug build in its sweep. */
  addon: NativeAddon;
  /** States per model (the normal run's --states, the sweep's --bug-states). */
  states: number;
  seed: number;
  stages: ReadonlySet<StageName>;
  /** The normal run's result, for the report's extra data (charts, summaries); null in the sweep. */
  report: SuiteResult | null;
}

/** Bugs planted in TypeScript that this stage checks, switched in this process. */
export interface OwnPlantedBugs {
  names: readonly string[];
  /** Sets one bug ('none': none). */
  set(name: string): void;
  /** Whether a run that does not run this stage still lists them (as not judged). The sensors' are
   *  listed, the importer's are not, as before the stage interface (kept so that a subset prints
   *  what it did). */
  listedWhenNotRun: boolean;
}

export interface ValidationStage<R = unknown> {
  /** Its folder under src/validation/, and its group in the report's timings. */
  readonly name: string;
  readonly description: string;
  /** The --stage names of the gates it produces; it runs when any is selected. */
  readonly gates: readonly StageName[];
  /** Precisions of the normal run (the planted-bug sweep runs f64 only). */
  readonly precisions: readonly Precision[];
  /** Whether it runs under a --model subset (false: its own scenario models, not the suite's). */
  readonly underModelSubset: boolean;
  /** Whether the native planted-bug build's sweep runs it (false: it runs on the normal engine only,
   *  after the stages that are swept, precision by precision). */
  readonly bugBuild: boolean;
  /** The planted bugs its gates catch, per gate: what a subset running it is judged on. A full run
   *  (`validate --json`: bugs[].stages) names any declared gate that did not catch its bug. */
  readonly catches: Readonly<Partial<Record<StageName, readonly string[]>>>;
  /** Bugs planted in TypeScript it owns: swept on the normal engine at f64 through this stage alone. */
  readonly ownBugs?: OwnPlantedBugs;
  /** Its reference (MuJoCo runs, closed forms); undefined when the selected models give it nothing
   *  to check. A stage without one checks against references it computes in rows(). */
  reference?(ctx: ReferenceContext): Promise<R | undefined>;
  /** Once, before the engine runs: the report's data that comes from the reference alone. */
  prepareReport?(ref: R, result: SuiteResult): void;
  /** Its gate rows at one precision, on one engine. */
  rows(ref: R, ctx: GateContext): CheckRow[];
}

/** Whether a run of `stages` (and a --model subset or not) runs `stage`. */
export const stageRuns = (stage: ValidationStage, stages: ReadonlySet<StageName>, modelSubset: boolean): boolean =>
  stage.gates.some((g) => stages.has(g)) && (stage.underModelSubset || !modelSubset);
