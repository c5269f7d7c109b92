// The whole validation, over the registered stages (registry.ts) and knowing none of them: every
// selected stage's reference (MuJoCo, once), the normal engine through every gate at f32 and f64,
// then the planted-bug sweep (f64, fewer states, same bars), one family of bugs at a time.

import { PRECISIONS, type Precision } from '../engine/api.js';
import type { IntegratorName } from '../engine/model-desc.js';
import { bugAddon, engineAddon, type NativeAddon } from '../engine/native.js';
import { suiteModels, withoutConstraints } from './models.js';
import { STAGES, type CheckRow, type StageName } from './types.js';
import { StageClock } from './clock.js';
import { tableMismatches, targetedBy } from './bug-targets.js';
import { VALIDATION_STAGES } from './registry.js';
import { stageRuns, type GateContext, type ReferenceContext, type ValidationStage } from './validation-stage.js';

import type { BugOutcome, SuiteOptions, SuiteResult } from './suite-result.js';
export type { BugOutcome, SuiteOptions, SuiteResult } from './suite-result.js';

export const gateKey = (r: Pick<CheckRow, 'stage' | 'model' | 'precision'>) => `${r.stage}/${r.model}/${r.precision}`;

/** A stage this run runs, with its reference. */
interface Loaded {
  stage: ValidationStage;
  ref: unknown;
}

/** Bundled scenes judged only by the contact stages (see references()). */
const CONTACT_ONLY_SCENES = new Set(['ball-on-plane', 'box-stack', 'humanoid', 'quadruped']);

/** Every stage the run selects, with its reference: all started at once (each stage pools its own
 *  MuJoCo runs), in registry order. A stage whose reference is undefined has nothing to check. */
async function references(o: SuiteOptions): Promise<Loaded[]> {
  const all = [...suiteModels().filter((m) => !o.models || o.models.has(m.name)), ...(o.extra ?? [])];
  // The smooth-dynamics stages compare with MuJoCo without contacts or limits: so does the engine.
  // ball-on-plane and box-stack are contact scenes: stripped of their contacts they are free bodies that
  // spinning-box and slider-ball already cover, and in f32 their kinematics (1.05×) and mass-matrix
  // (1.35×) errors exceed the bars measured from MuJoCo's float32 floor (an open finding); the
  // contact stages judge those scenes. So for the legged robots (issue 25): free trees on their feet,
  // whose f32 kinetic energy misses the energy stage's bar (quadruped 1.64×, humanoid 1.04×, 4 states,
  // 2026-12-02; f64 and every other smooth stage pass); test/scenes-mujoco.test.ts compares them.
  const smooth = all.filter((m) => !CONTACT_ONLY_SCENES.has(m.name)).map((m) => ({ name: m.name, model: withoutConstraints(m.model) }));
  const pending = new Map<ValidationStage, Promise<unknown>>();
  const ctx: ReferenceContext = {
    python: o.python,
    seed: o.seed,
    states: o.states,
    stages: o.stages,
    models: o.models,
    all,
    smooth,
    log: o.log ?? (() => undefined),
    referenceOf: <R>(stage: ValidationStage<R>) =>
      (pending.get(stage as ValidationStage) ?? Promise.resolve(undefined)) as Promise<R | undefined>,
  };
  const running = VALIDATION_STAGES.filter((s) => stageRuns(s, o.stages, o.models !== undefined));
  for (const stage of running) {
    const ref = stage.reference ? stage.reference(ctx) : Promise.resolve(null);
    ref.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
    pending.set(stage, ref);
  }
  const loaded: Loaded[] = [];
  for (const stage of running) {
    const ref = await pending.get(stage);
    if (ref !== undefined) loaded.push({ stage, ref });
  }
  return loaded;
}

/** The rows of `stages` at one precision on one engine, each stage's time charged to its name. */
function runGates(
  stages: readonly Loaded[],
  o: SuiteOptions,
  precision: Precision,
  addon: NativeAddon,
  states: number,
  out: SuiteResult | null,
  clock: StageClock,
): CheckRow[] {
  const ctx: GateContext = { precision, addon, states, seed: o.seed, stages: o.stages, report: out };
  return stages.flatMap(({ stage, ref }) => clock.time(stage.name, () => stage.rows(ref, ctx)));
}

/** A set of planted bugs and where they are swept: the engine (normal or bug build), the stages. */
interface BugFamily {
  names: readonly string[];
  set(name: string): void;
  addon: NativeAddon;
  stages: readonly Loaded[];
}

/** The planted-bug sweep, one family at a time: each bug set in turn, the family's stages at f64 on
 *  `bugStates` states. A subset is judged on the bugs its stages target that change any value it
 *  compares, against the same sweep (same engine, states and scales) with no bug set. */
function sweep(family: BugFamily, o: SuiteOptions, full: boolean, clock: StageClock): BugOutcome[] {
  const log = o.log ?? (() => undefined);
  const judgedAnyway = full && family.stages.length > 0;
  const gates = () => runGates(family.stages, o, 'f64', family.addon, o.bugStates, null, clock);
  const outcomes: BugOutcome[] = [];
  try {
    family.set('none');
    const control = judgedAnyway ? new Map<string, number>() : new Map(gates().map((r) => [rowKey(r), r.error]));
    for (const name of family.names) {
      log(`planted bug: ${name}`);
      family.set(name);
      const rows = gates();
      outcomes.push(outcome(name, rows, o.stages, judgedAnyway, () => changedRows(rows, control) > 0));
    }
  } finally {
    family.set('none');
  }
  return outcomes;
}

export async function runSuite(o: SuiteOptions): Promise<SuiteResult> {
  const t0 = performance.now();
  const log = o.log ?? (() => undefined);
  const clock = new StageClock();
  clock.phase = 'references';
  const loaded = await references(o);
  clock.add('MuJoCo references (overlapping)', (performance.now() - t0) / 1000);
  clock.phase = 'engine';
  const result: SuiteResult = { rows: [], bugs: [], energy: {}, closedForm: [], tauScale: {}, seconds: 0, timings: [], options: o };
  for (const { stage, ref } of loaded) stage.prepareReport?.(ref, result);
  // The normal run: the real engine (never the bug build), every state, each stage's precisions.
  const swept = loaded.filter((l) => l.stage.bugBuild);
  const at = (p: Precision, ls: readonly Loaded[]) => ls.filter((l) => l.stage.precisions.includes(p));
  for (const p of PRECISIONS) {
    log(`engine: ${p}`);
    result.rows.push(...runGates(at(p, swept), o, p, engineAddon(), o.states, result, clock));
  }
  for (const l of loaded.filter((x) => !x.stage.bugBuild)) {
    for (const p of PRECISIONS) {
      if (!l.stage.precisions.includes(p)) continue;
      log(`${l.stage.name}: ${p}`);
      result.rows.push(...runGates([l], o, p, engineAddon(), o.states, result, clock));
    }
  }
  if (o.bugs) {
    const bugs = bugAddon();
    if (!bugs.isBugBuild || !bugs.plantedBugs || !bugs.setBug) throw new Error('achilles_bugs.node is not a planted-bug build');
    const full = isFullSuite(o);
    clock.phase = 'planted bugs';
    // The native bugs: the bug build through every stage it sweeps.
    const setBug = bugs.setBug.bind(bugs);
    result.bugs.push(...sweep({ names: bugs.plantedBugs(), set: setBug, addon: bugs, stages: swept }, o, full, clock));
    // Bugs planted in TypeScript (sensors, the importer), switched in this process: their stage
    // alone on the normal engine.
    for (const stage of VALIDATION_STAGES) {
      if (!stage.ownBugs) continue;
      const l = loaded.filter((x) => x.stage === stage);
      if (!l.length && !stage.ownBugs.listedWhenNotRun) continue;
      result.bugs.push(...sweep({ names: stage.ownBugs.names, set: stage.ownBugs.set, addon: engineAddon(), stages: l }, o, full, clock));
    }
  }
  if (o.bugs && isFullSuite(o)) {
    const caughtBy = new Map(result.bugs.map((b) => [b.name, [...new Set(b.failed.map((k) => k.split('/')[0] as StageName))]]));
    result.bugTableStale = tableMismatches(caughtBy);
  }
  result.seconds = (performance.now() - t0) / 1000;
  result.timings = clock.entries();
  return result;
}

/** One bug's sweep: the gates it failed, and whether the run is judged on it. `judgedAnyway`: the
 *  full suite (judged on every bug); `changed`: whether the bug moved any value compared. */
function outcome(
  name: string,
  rows: readonly CheckRow[],
  stages: ReadonlySet<StageName>,
  judgedAnyway: boolean,
  changed: () => boolean,
): BugOutcome {
  const failed = [...new Set(rows.filter((r) => r.status === 'fail').map(gateKey))];
  const targeted = targetedBy(name, stages);
  return { name, failed, reached: judgedAnyway || failed.length > 0 || (targeted && changed()), targeted };
}

/** Whether the run covers every stage and model (then every planted bug must be caught). */
export function isFullSuite(o: Pick<SuiteOptions, 'stages' | 'models'>): boolean {
  return STAGES.every((s) => o.stages.has(s)) && (!o.models || suiteModels().every((m) => o.models!.has(m.name)));
}

/** A row's identity across runs: which quantity, where, when. */
const rowKey = (r: CheckRow) => `${gateKey(r)}|${r.field}|${r.state}|${r.t ?? ''}`;

/** Rows whose error differs, bitwise, from the same sweep with no bug set (the engine is deterministic). */
function changedRows(rows: readonly CheckRow[], normal: ReadonlyMap<string, number>): number {
  let n = 0;
  for (const r of rows) {
    const e = normal.get(rowKey(r));
    if (e === undefined || !Object.is(e, r.error)) n++;
  }
  return n;
}

export interface GateSummary {
  stage: StageName;
  model: string;
  precision: Precision;
  status: 'PASS' | 'FAIL';
  worstRatio: number;
  compared: number;
  skipped: number;
  worstField: string;
  bugsPlanted: number;
  /** The planted bugs this run is judged on (all of them in the full suite; see BugOutcome.reached). */
  bugsJudged: number;
  bugsCaught: number;
}

/** One line per gate (stage × model × precision). A gate's bugsCaught counts the planted bugs it
 *  failed on; the sweep runs f64 only, so f32 gates report the f64 gate's catches (same bars), or
 *  their own where the f64 pass makes their rows. */
export function summarize(r: SuiteResult): GateSummary[] {
  const gates = new Map<string, GateSummary>();
  for (const row of r.rows) {
    const k = gateKey(row);
    let g = gates.get(k);
    if (!g) {
      g = {
        stage: row.stage,
        model: row.model,
        precision: row.precision,
        status: 'PASS',
        worstRatio: 0,
        compared: 0,
        skipped: 0,
        worstField: '',
        bugsPlanted: r.bugs.length,
        bugsJudged: r.bugs.filter((b) => b.reached).length,
        bugsCaught: 0,
      };
      gates.set(k, g);
    }
    if (row.status === 'skip') {
      g.skipped++;
      continue;
    }
    g.compared++;
    if (row.status === 'fail') g.status = 'FAIL';
    const ratio = row.error === 0 ? 0 : row.error / row.bar;
    if (!(ratio <= g.worstRatio)) {
      g.worstRatio = ratio;
      g.worstField = row.field;
    }
  }
  for (const g of gates.values()) {
    // an f32 gate whose rows the f64 pass makes (contact/line-search-stop.ts) is swept under its own key
    const keys = [`${g.stage}/${g.model}/f64`, gateKey(g)];
    g.bugsCaught = r.bugs.filter((b) => keys.some((k) => b.failed.includes(k))).length;
  }
  return [...gates.values()];
}

/** Bugs this run reached that no gate caught: each is a broken gate and fails the suite. */
export const uncaughtBugs = (r: SuiteResult) => r.bugs.filter((b) => b.reached && b.failed.length === 0).map((b) => b.name);

/** Bugs this subset is not judged on: no stage it ran targets them, or its models never reach them. */
export const unreachedBugs = (r: SuiteResult) => r.bugs.filter((b) => !b.reached).map((b) => b.name);

/** Whether the run passes: every gate passes, every judged planted bug is caught, and it is judged
 *  on at least one bug (a run judged on none has not shown that its checks can fail). */
export const runPasses = (r: SuiteResult) => suitePasses(r) && r.bugs.some((b) => b.reached);

/** One line on the planted bugs: how many of those the run is judged on were caught, and why the
 *  others are not judged (e.g. "planted bugs: 6/6 caught (30 others target stages not run)"). */
export function bugVerdict(r: SuiteResult): string {
  if (!r.bugs.length) return 'planted bugs: not swept (--skip-bugs), so the run cannot pass';
  const judged = r.bugs.filter((b) => b.reached);
  const missed = uncaughtBugs(r);
  const untargeted = r.bugs.filter((b) => !b.reached && !b.targeted).map((b) => b.name);
  const hidden = r.bugs.filter((b) => !b.reached && b.targeted).map((b) => b.name);
  let line = `planted bugs: ${judged.length - missed.length}/${judged.length} caught`;
  const others: string[] = [];
  if (untargeted.length) others.push(`${untargeted.length} other${untargeted.length === 1 ? '' : 's'} target stages not run`);
  if (hidden.length) others.push(`${hidden.length} not reached by the chosen models: ${hidden.join(', ')}`);
  if (others.length) line += ` (${others.join('; ')}; not judged: run all stages and models to judge every bug)`;
  if (missed.length) line += `; NOT caught: ${missed.join(', ')}`;
  if (!judged.length) line += '; none judged, so the run cannot pass';
  if (r.bugTableStale?.length) line += `; bug-targets.ts is out of date, declared stages that did not catch: ${r.bugTableStale.join(', ')}`;
  return line;
}

export const suitePasses = (r: SuiteResult) => summarize(r).every((g) => g.status === 'PASS') && uncaughtBugs(r).length === 0;

export type { IntegratorName };
