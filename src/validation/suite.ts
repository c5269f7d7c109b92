// The whole validation: references from MuJoCo (once per model), the normal engine through every
// gate at f32 and f64, then the planted-bug sweep (bug build, f64, fewer states, same bars).

import { PRECISIONS, type Precision } from '../engine/api.js';
import type { IntegratorName, ModelDesc } from '../engine/model-desc.js';
import { bugAddon, engineAddon, type NativeAddon } from '../engine/native.js';
import { energyReference, energyRows, type EnergyOutcome, type EnergyReference } from './energy.js';
import { closedFormRun, readmeReference, readmeRows, README_QACC } from './exact.js';
import { suiteModels, withoutConstraints, type NamedModel } from './models.js';
import { perStateReference, perStateRows, type PerStateReference } from './per-state.js';
import { trajectoryReference, trajectoryRows, trajectoryScenarios, type TrajectoryReference } from './trajectory.js';
import { STAGES, type CheckRow, type StageName } from './types.js';
import { batchCheckReference, batchCheckRows, type BatchCheckReference } from './collision/batch-check.js';
import { filterRulesModel } from './collision/filter.js';
import { collisionReference, collisionRows, engineContacts, filterRows, scatterPoints, type CollisionReference, type ScatterPoint } from './collision/stage.js';
import { sensorRows } from './sensors/stage.js';
import { SENSOR_BUGS, setPlantedSensorBug } from '../sensors/planted-bugs.js';
import { actuatorReference, actuatorRows, type ActuatorReference } from './actuators/stage.js';
import { contactExactReference, contactExactRows, type ContactExactReference, type InclineSummary } from './contact/exact.js';
import { contactStateReferences, contactStateRows, type ContactStateReference, type ContactStateSummary } from './contact/per-state.js';
import { contactTrajectoryReference, contactTrajectoryRows, type ContactTrajectoryReference, type DominoSummary } from './contact/trajectory.js';
import { importReference, importRows, type ImportReference } from './import/stage.js';
import { IMPORT_BUGS, setImportBug } from '../import/bugs.js';
import { StageClock, type StageTiming } from './clock.js';
import { tableMismatches, targetedBy } from './bug-targets.js';

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
  collision?: { pairs: number; scatter: ScatterPoint[] };
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

export const gateKey = (r: Pick<CheckRow, 'stage' | 'model' | 'precision'>) => `${r.stage}/${r.model}/${r.precision}`;

/** At most `n` promises in flight (2 cores: Python references overlap with each other). */
async function pool<T, R>(items: readonly T[], n: number, f: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await f(items[i]);
      }
    }),
  );
  return out;
}

interface References {
  perState: PerStateReference[];
  trajectories: TrajectoryReference[];
  energy?: EnergyReference;
  readme: Map<string, number[][]>;
  models: Map<string, ModelDesc>;
  collision?: CollisionReference;
  /** Models whose candidate pairs the collision stage checks against MuJoCo's filter rules. */
  filterModels: NamedModel[];
  /** The batch path of detection (batch.collide()) at random states of a pile of shapes. */
  collisionBatch?: BatchCheckReference;
  /** The actuators and passive stages' MuJoCo runs (actuators/stage.ts). */
  actuators?: ActuatorReference;
  /** The contact stages' MuJoCo references (contact/). */
  contactStates?: ContactStateReference[];
  contactExact?: ContactExactReference;
  contactTrajectory?: ContactTrajectoryReference;
  /** The import stage: fixtures imported by Achilles against MuJoCo's compile of the same files. */
  imports?: ImportReference;
}

/** Bundled scenes judged only by the contact stages (see references()). */
const CONTACT_ONLY_SCENES = new Set(['ball-on-plane', 'box-stack']);

/** States per import fixture (the first is the initial configuration): the importer's mistakes
 *  show at any state, so a few suffice and the stage stays cheap in CI. */
const IMPORT_STATES = 8;

const PER_STATE: StageName[] = ['kinematics', 'mass-matrix', 'bias', 'forward', 'step', 'energy'];

async function references(o: SuiteOptions): Promise<References> {
  const log = o.log ?? (() => undefined);
  const all = [...suiteModels().filter((m) => !o.models || o.models.has(m.name)), ...(o.extra ?? [])];
  // The smooth-dynamics stages compare with MuJoCo without contacts or limits: so does the engine.
  // ball-on-plane and box-stack are contact scenes: stripped of their contacts they are free bodies that
  // spinning-box and slider-ball already cover, and in f32 their kinematics (1.05×) and mass-matrix
  // (1.35×) errors exceed the bars measured from MuJoCo's float32 floor (an open finding); the
  // contact stages judge those scenes.
  const smooth = all.filter((m) => !CONTACT_ONLY_SCENES.has(m.name)).map((m) => ({ name: m.name, model: withoutConstraints(m.model) }));
  const models = new Map(smooth.map((m) => [m.name, m.model]));
  const perState = PER_STATE.some((s) => o.stages.has(s))
    ? await pool(smooth, 2, async ({ name, model }) => {
        log(`reference: ${name} (${o.states} states)`);
        return perStateReference(o.python, name, model, o.states, o.seed);
      })
    : [];
  const pendulum = models.get('double-pendulum');
  // The energy runs need no per-state answer: they overlap with the trajectories.
  const energyRef = o.stages.has('energy') && pendulum ? energyReference(o.python, pendulum, o.seed) : undefined;
  energyRef?.catch(() => undefined); // awaited below; an early failure must not go unhandled meanwhile
  const tauScale = new Map(perState.map((r) => [r.name, r.tauScale]));
  // The collision reference (exact, float32 floors, MuJoCo) needs no model: it overlaps the rest.
  const collisionRef = o.stages.has('collision') ? collisionReference(o.python, o.seed) : undefined;
  collisionRef?.catch(() => undefined);
  const actuatorRef = o.stages.has('actuators') || o.stages.has('passive') ? actuatorReference(o.python, o.stages, o.seed) : undefined;
  actuatorRef?.catch(() => undefined);
  if (actuatorRef) log('reference: actuated arm and passive pendulums (MuJoCo runs)');
  const importRef = o.stages.has('import') ? importReference(o.python, o.seed, IMPORT_STATES, o.models) : undefined;
  importRef?.catch(() => undefined);
  if (importRef) log('reference: MuJoCo compiling the import fixtures');
  if (collisionRef) log('reference: collision pairs (exact, float32 floors, MuJoCo)');
  const trajectories = o.stages.has('trajectory')
    ? await pool(trajectoryScenarios(models, (n) => tauScale.get(n) ?? 1, o.seed), 2, async (sc) => {
        log(`reference: ${sc.name} (${sc.seconds} s)`);
        return trajectoryReference(o.python, sc, o.seed);
      })
    : [];
  const energy = await energyRef;
  const readme = new Map<string, number[][]>();
  if (o.stages.has('exact')) {
    for (const name of Object.keys(README_QACC)) {
      const m = models.get(name);
      if (m) readme.set(name, await readmeReference(o.python, m, o.seed));
    }
  }
  // The contact stages' references (MuJoCo constraint rows, rollouts) overlap with each other.
  const contactStates = o.stages.has('contact') ? contactStateReferences(o.python, o.seed, o.states) : undefined;
  const contactExact = o.stages.has('contact-exact') ? contactExactReference(o.python) : undefined;
  const contactTrajectory = o.stages.has('contact-trajectory') ? contactTrajectoryReference(o.python, o.seed) : undefined;
  for (const p of [contactStates, contactExact, contactTrajectory]) p?.catch(() => undefined);
  if (contactStates || contactExact || contactTrajectory) log('reference: contact (MuJoCo constraint rows, Newton and CG-20, rollouts)');
  const filterModels = o.stages.has('collision') ? [{ name: 'filter-rules', model: filterRulesModel() }, ...all.filter((m) => m.model.shapes?.length)] : [];
  const collisionBatch = o.stages.has('collision') ? batchCheckReference(o.seed) : undefined;
  return {
    perState, trajectories, energy, readme, models, collision: await collisionRef, filterModels, collisionBatch, actuators: await actuatorRef,
    contactStates: await contactStates, contactExact: await contactExact, contactTrajectory: await contactTrajectory, imports: await importRef,
  };
}

function runGates(refs: References, o: SuiteOptions, precision: Precision, addon: NativeAddon, states: number, out: SuiteResult | null, clock: StageClock): CheckRow[] {
  const rows: CheckRow[] = [];
  const timed = <T>(group: string, f: () => T): T => clock.time(group, f);
  timed('per-state', () => { for (const r of refs.perState) rows.push(...perStateRows(r, precision, addon, o.stages, Math.min(states, r.states.length))); });
  timed('trajectory', () => { for (const t of refs.trajectories) rows.push(...trajectoryRows(t, precision, addon)); });
  if (refs.energy) {
    const e = timed('energy', () => energyRows(refs.energy!, precision, addon));
    rows.push(...e.rows);
    if (out) out.energy[precision] = e.series;
  }
  if (refs.collision) {
    const collision = refs.collision;
    timed('collision', () => {
      rows.push(...collisionRows(collision, precision, addon));
      rows.push(...filterRows(refs.filterModels, precision, addon));
      if (refs.collisionBatch) rows.push(...batchCheckRows(refs.collisionBatch, precision, addon));
    });
  }
  if (refs.actuators) rows.push(...timed('actuators+passive', () => actuatorRows(refs.actuators!, precision, addon)));
  for (const r of refs.contactStates ?? []) {
    const c = timed('contact', () => contactStateRows(r, precision, addon, Math.min(states, r.states.length)));
    rows.push(...c.rows);
    out?.contact?.states.push(c.summary);
  }
  if (refs.contactExact) {
    const c = timed('contact-exact', () => contactExactRows(refs.contactExact!, precision, addon));
    rows.push(...c.rows);
    if (c.incline) out?.contact?.incline.push(c.incline);
  }
  if (refs.contactTrajectory) {
    const c = timed('contact-trajectory', () => contactTrajectoryRows(refs.contactTrajectory!, precision, addon, out === null));
    rows.push(...c.rows);
    out?.contact?.domino.push(c.domino);
  }
  // compile gates f64; constrained gates (tendons, contacts) both
  if (refs.imports) rows.push(...timed('import', () => importRows(refs.imports!, addon, precision)));
  if (o.stages.has('exact')) timed('exact', () => {
    for (const [name, model] of refs.models) {
      const run = closedFormRun(name, model, precision, addon, o.seed);
      if (run) {
        rows.push(...run.rows);
        out?.closedForm.push({ model: name, precision, t: run.t, error: run.error });
      }
      const q32 = refs.readme.get(name);
      if (q32) rows.push(...readmeRows(name, model, precision, addon, q32));
    }
  });
  return rows;
}

export async function runSuite(o: SuiteOptions): Promise<SuiteResult> {
  const t0 = performance.now();
  const log = o.log ?? (() => undefined);
  const clock = new StageClock();
  clock.phase = 'references';
  const refs = await references(o);
  clock.add('MuJoCo references (overlapping)', (performance.now() - t0) / 1000);
  clock.phase = 'engine';
  const result: SuiteResult = { rows: [], bugs: [], energy: {}, closedForm: [], tauScale: {}, seconds: 0, timings: [], options: o };
  for (const r of refs.perState) result.tauScale[r.name] = r.tauScale;
  if (refs.contactStates || refs.contactExact || refs.contactTrajectory) result.contact = { states: [], incline: [], domino: [] };
  if (refs.collision) {
    const ref = refs.collision;
    const ours = Object.fromEntries(PRECISIONS.map((p) => {
      try {
        return [p, engineContacts(engineAddon(), ref.pairs, p)];
      } catch {
        return [p, undefined];
      }
    }));
    result.collision = { pairs: ref.pairs.length, scatter: scatterPoints(ref, ours) };
  }
  // The normal run: the real engine (never the bug build), every state, both precisions.
  for (const p of PRECISIONS) {
    log(`engine: ${p}`);
    result.rows.push(...runGates(refs, o, p, engineAddon(), o.states, result, clock));
  }
  // Sensors (src/validation/sensors/): their own two scenario models, so a --model subset skips them.
  const sensorsRun = o.stages.has('sensors') && !o.models;
  if (sensorsRun) {
    for (const p of PRECISIONS) {
      log(`sensors: ${p}`);
      result.rows.push(...clock.time('sensors', () => sensorRows(p, engineAddon(), { seed: o.seed })));
    }
  }
  if (o.bugs) {
    const bugs = bugAddon();
    if (!bugs.isBugBuild || !bugs.plantedBugs || !bugs.setBug) throw new Error('achilles_bugs.node is not a planted-bug build');
    const full = isFullSuite(o);
    clock.phase = 'planted bugs';
    try {
      // A subset is judged on the bugs its stages target that change any value it compares,
      // against the same sweep (same build, states and scales) with no bug set.
      let control = new Map<string, number>();
      if (!full) {
        bugs.setBug('none');
        control = new Map(runGates(refs, o, 'f64', bugs, o.bugStates, null, clock).map((r) => [rowKey(r), r.error]));
      }
      for (const name of bugs.plantedBugs()) {
        log(`planted bug: ${name}`);
        bugs.setBug(name);
        const rows = runGates(refs, o, 'f64', bugs, o.bugStates, null, clock);
        result.bugs.push(outcome(name, rows, o.stages, full, () => changedRows(rows, control) > 0));
      }
    } finally {
      bugs.setBug('none');
    }
    // The sensors run in TypeScript: their planted bugs (src/sensors/planted-bugs.ts) are switched
    // in this process, swept on the normal engine at f64 against the normal run's f64 rows.
    const control = new Map(result.rows.filter((r) => r.stage === 'sensors' && r.precision === 'f64').map((r) => [rowKey(r), r.error]));
    try {
      for (const name of SENSOR_BUGS) {
        log(`planted bug: ${name}`);
        setPlantedSensorBug(name);
        const rows = sensorsRun ? clock.time('sensors', () => sensorRows('f64', engineAddon(), { seed: o.seed })) : [];
        result.bugs.push(outcome(name, rows, o.stages, full && sensorsRun, () => changedRows(rows, control) > 0));
      }
    } finally {
      setPlantedSensorBug('none');
    }
    // The importer's planted bugs (TypeScript, src/import/bugs.ts): the import stage with the real engine.
    if (refs.imports) {
      const imports = refs.imports;
      const control = new Map(clock.time('import', () => importRows(imports, engineAddon())).map((r) => [rowKey(r), r.error]));
      try {
        for (const name of IMPORT_BUGS) {
          log(`planted bug: ${name}`);
          setImportBug(name);
          const rows = clock.time('import', () => importRows(imports, engineAddon()));
          result.bugs.push(outcome(name, rows, o.stages, full, () => changedRows(rows, control) > 0));
        }
      } finally {
        setImportBug('none');
      }
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
function outcome(name: string, rows: readonly CheckRow[], stages: ReadonlySet<StageName>, judgedAnyway: boolean, changed: () => boolean): BugOutcome {
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
 *  failed on; the sweep runs f64 only, so f32 gates report the f64 gate's catches (same bars). */
export function summarize(r: SuiteResult): GateSummary[] {
  const gates = new Map<string, GateSummary>();
  for (const row of r.rows) {
    const k = gateKey(row);
    let g = gates.get(k);
    if (!g) {
      g = { stage: row.stage, model: row.model, precision: row.precision, status: 'PASS', worstRatio: 0, compared: 0, skipped: 0, worstField: '', bugsPlanted: r.bugs.length, bugsJudged: r.bugs.filter((b) => b.reached).length, bugsCaught: 0 };
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
    const key = `${g.stage}/${g.model}/f64`;
    g.bugsCaught = r.bugs.filter((b) => b.failed.includes(key)).length;
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
