// `achilles run`: load a scene, step a batch headless, record, write the outputs as one set.
//
// Outcomes and what is left on disk (every file is written whole or not at all; a run's files
// appear together):
//   finished                  → all files committed, summary on stdout, exit 0
//   Ctrl-C / SIGTERM          → stop at the next slice, nothing written, exit 130 / 143
//   non-finite state          → where and when on stderr, nothing written, exit 1. A trace cut
//                               at the divergence would end in numbers that are already garbage
//                               while still finite; rerun with a shorter --duration to look at
//                               the motion leading up to it.
//   controller threw, or wrote → the controller, where (step, time; actuator and robot for a
//   a non-finite control         control) on stderr, nothing written, exit 1

import { Batch, batchBytes, NonFiniteStateError } from '../engine/batch.js';
import { engineAddon } from '../engine/native.js';
import { needsContactWrenches, sensorDataSize } from '../engine/mjcf-sensors.js';
import { openOutput } from '../reports/output-dir.js';
import { ensureMemory } from '../engine/memory.js';
import { createProgress, type Progress } from '../reports/progress.js';
import { loadSceneForRun } from './load-scene.js';
import { NonFiniteRecordError } from './finite-check.js';
import { Interrupt } from './interrupt.js';
import { runMetadata } from './metadata.js';
import { writeRunFiles } from './outputs.js';
import { resolveSettings, type RunFlags, type RunSettings } from './settings.js';
import { simulate } from './simulate.js';
import { applySpread } from './spread.js';
import { applyInitialDraws, applyRobotModels, randomizationLine, randomizedModels, type RandomizedModels } from './randomize.js';
import type { SceneRandomization } from '../model-files/scene/randomize-read.js';
import { solverLine, summarize, summaryText } from './summary.js';
import { runReplaySampler, writeRunReplay } from './replay.js';
import { ControlLoop, type Controller } from '../control/controller.js';
import type { ControllerPlan } from '../control/load.js';
import { PolicyController, type PolicyScore } from '../gym/policy.js';
import { planPolicy, withEpisodeDuration } from './policy.js';
import { ControllerError, NonFiniteControlError } from '../control/errors.js';
import { controllerRun, isBundled, loadRunController, planRunController } from './controller.js';
import { writeChart } from '../reports/render.js';
import type { VlSpec } from '../reports/charts.js';
import { SensorBank, sensorChannels as sensorChannelNames } from '../sensors/bank.js';
import type { ModelDesc, SensorDesc } from '../engine/model-desc.js';

const sensorChannelCount = (s: SensorDesc): number => sensorChannelNames(s).length;

const MIDPOINT_ITERATIONS = 4;
/** Peak bytes per recorded number: the row (8), its CSV text and object (~60), chart data (~130). */
const BYTES_PER_RECORDED_VALUE = 200;
/** Runs shorter than this never show a progress bar (it would only flicker). */
const PROGRESS_AFTER_MS = 1000;

/** Forwards to a real progress bar only once the run has lasted PROGRESS_AFTER_MS. It counts
 *  steps, but its rate is robot-steps/s (steps × copies), the unit the summary's throughput uses. */
export function delayedProgress(
  total: number,
  copies: number,
  bar = createProgress({ total: total * copies, label: 'run', unit: 'robot-steps' }),
): Progress {
  const start = performance.now();
  return {
    active: bar.active,
    update(n) {
      if (performance.now() - start >= PROGRESS_AFTER_MS) bar.update(n * copies);
    },
    tick(n = 1) {
      bar.tick(n * copies);
    },
    finish() {
      bar.finish();
    },
  };
}

/** What a run is, settled before anything is built or written: the model (randomized per robot),
 *  the settings, and the controller (a scene's module runs only when asked, and the notice comes
 *  before its code runs: src/run/controller.ts; a policy replaces it). */
interface RunPlan {
  s: RunSettings;
  model: ModelDesc;
  randomized: RandomizedModels;
  randomization: SceneRandomization | undefined;
  controllerPlan: ControllerPlan;
  controller: Controller | undefined;
}

async function planRun(scene: string, flags: RunFlags): Promise<RunPlan> {
  let randomization: SceneRandomization | undefined;
  const sceneModel = loadSceneForRun(scene, {
    command: 'run',
    ...(flags.config === undefined ? {} : { config: flags.config }),
    ...(flags.keyframe === undefined ? {} : { keyframe: flags.keyframe }),
    randomize: (r) => (randomization = r),
    allowLarge: flags.yes === true,
  });
  const addon = engineAddon();
  const policyPlan = planPolicy(sceneModel, flags);
  const s = resolveSettings(scene, sceneModel, withEpisodeDuration(flags, sceneModel, policyPlan), addon.cpuInfo());
  const randomized = randomizedModels(sceneModel, randomization, s.copies, s.lanes, addon);
  const model = randomized.model;
  process.stderr.write(randomizationLine(randomization, s.lanes));
  const controllerPlan: ControllerPlan = policyPlan ? { kind: 'none' } : planRunController(scene, model, flags);
  const controller: Controller | undefined = policyPlan
    ? await PolicyController.load(policyPlan.file, policyPlan.task, model, s.dt, s.copies)
    : await loadRunController(
        model,
        controllerPlan,
        (line) => process.stderr.write(line),
        !flags.allowController && isBundled(scene, model),
      );
  return { s, model, randomized, randomization, controllerPlan, controller };
}

/** The batch and the records (kept in memory, then written as CSV and charts) must fit: checked
 *  before any stepping. */
function checkRunMemory({ s, model }: RunPlan): void {
  const records = Math.ceil(s.steps / s.recordEvery) + 1; // the first state, every recordEvery steps, the last
  const sensorChannels = (model.sensors ?? []).reduce((n, x) => n + sensorChannelCount(x), 0) + sensorDataSize(model);
  const values = records * s.robots.length * (3 + 2 * model.bodies.length * 7 + 4 + sensorChannels + (model.actuators?.length ?? 0));
  ensureMemory(
    batchBytes(model, s.copies, s.precision, s.lanes) + values * BYTES_PER_RECORDED_VALUE,
    `this run (${s.copies} robot${s.copies === 1 ? '' : 's'}, ${records} records of ${s.robots.length})`,
    'use fewer --copies, record fewer --robots, or record less often (--record)',
  );
}

/** The batch the plan runs, each robot's model and initial draws applied, with its sensors and the
 *  loop that calls the controller (said on stderr). */
function buildBatch(plan: RunPlan): { batch: Batch; sensors: SensorBank | null; control: ControlLoop | undefined } {
  const { s, model, controller, controllerPlan } = plan;
  const batch = new Batch(
    model,
    {
      copies: s.copies,
      precision: s.precision,
      lanes: s.lanes,
      integrator: s.integrator,
      dt: s.dt,
      substeps: s.substeps,
      midpointIterations: MIDPOINT_ITERATIONS,
      threads: s.threads,
      // force and torque sensors read the contact wrenches a record batch keeps
      record: (controller instanceof PolicyController && controller.needsRecord) || needsContactWrenches(model),
    },
    engineAddon(),
  );
  applySpread(batch, s.spread);
  applyRobotModels(batch, plan.randomized);
  applyInitialDraws(batch, plan.randomization);
  if (controller instanceof PolicyController) controller.attach(batch);
  const sensors = s.sensors ? new SensorBank(batch, model.sensors ?? [], { seed: s.seed }) : null;
  // simulate() reads the sensors (at step 0, then after every step, before the controller's turn),
  // so the loop gets their readings without updating them itself.
  const control = controller
    ? new ControlLoop(batch, controller, sensors ? { readings: sensors.readings, update: () => undefined } : undefined)
    : undefined;
  if (control) {
    const what =
      controller instanceof PolicyController
        ? controller.name
        : controllerPlan.kind === 'module'
          ? controllerPlan.path
          : `the scene's PD controller (${model.controller?.kind === 'pd' ? model.controller.terms.length : 0} terms)`;
    process.stderr.write(`achilles run: controller ${what}, called every ${control.period} step${control.period === 1 ? '' : 's'}\n`);
  }
  return { batch, sensors, control };
}

/** A run that stops on a value it cannot go on from (non-finite state, record or control, or a
 *  controller that threw): said on stderr, nothing written. Anything else is not the run's to report. */
const stopsTheRun = (e: unknown): e is Error =>
  e instanceof NonFiniteStateError ||
  e instanceof NonFiniteRecordError ||
  e instanceof NonFiniteControlError ||
  e instanceof ControllerError;

export async function runScene(scene: string, flags: RunFlags): Promise<number> {
  const start = performance.now();
  const plan = await planRun(scene, flags);
  const { s, model, controller, controllerPlan } = plan;
  // Checked and staged before any stepping: a bad --out is reported now, not after the run.
  checkRunMemory(plan);
  const set = await openOutput(s.outDir, { command: 'run', force: flags.force });
  const interrupt = new Interrupt((sig) => {
    // Second Ctrl-C: the user wants out now, even mid-step or mid-render.
    set.abortSync();
    process.stderr.write(`\nachilles run: ${sig} again: stopped immediately; nothing was written to ${s.outDir}\n`);
    process.exit(sig === 'SIGTERM' ? 143 : 130);
  });
  const progress = delayedProgress(s.steps, s.copies);
  try {
    const { batch, sensors, control } = buildBatch(plan);
    const loadSeconds = (performance.now() - start) / 1000;
    process.stderr.write(
      `achilles run: ${model.name}, ${s.copies} robot${s.copies === 1 ? '' : 's'} x ${s.steps} step${s.steps === 1 ? '' : 's'} (${Number((s.steps * s.dt).toPrecision(12))} s); Ctrl-C stops without writing anything\n`,
    );

    // --html: the replay's frames are sampled from this very run (controller, sensors and all).
    const replay = flags.html ? runReplaySampler(batch, s, flags.fps) : undefined;
    const wall0 = performance.now();
    let result;
    try {
      result = await simulate(batch, {
        steps: s.steps,
        recordEvery: s.recordEvery,
        robots: s.robots,
        shouldStop: () => interrupt.requested,
        progress,
        sensors,
        control,
        frames: replay,
      });
    } catch (e) {
      if (!stopsTheRun(e)) throw e;
      progress.finish();
      set.abortSync();
      process.stderr.write(`achilles run: ${e.message}\nachilles run: no output files were written (${s.outDir} is unchanged)\n`);
      return 1;
    }
    const simulateSeconds = (performance.now() - wall0) / 1000;
    progress.finish();

    const interrupted = (): number => {
      set.abortSync();
      process.stderr.write(
        `achilles run: interrupted (${interrupt.signal}) at step ${result.stepsDone} of ${s.steps}; nothing was written to ${s.outDir}\n`,
      );
      return interrupt.exitCode;
    };
    if (result.stopped) return interrupted();

    const summary = summarize(
      result.recorder,
      s,
      model,
      result.stepsDone,
      { startSeconds: start / 1000, loadSeconds, simulateSeconds, stepSeconds: result.stepSeconds },
      result.energy,
    );
    const write0 = performance.now();
    const policy = controller instanceof PolicyController && control ? controller : undefined;
    const meta = runMetadata(
      s,
      batch.isa,
      MIDPOINT_ITERATIONS,
      new Date(),
      policy && control
        ? { name: policy.name, module: policy.file, rate: policy.rate, period: control.period }
        : controller && control
          ? controllerRun(controllerPlan, controller, control.period)
          : undefined,
    );
    const score = policy && control ? policy.finish(control.io, result.stepsDone) : undefined;
    if (score) Object.assign(meta, policyMetadata(policy!.task.id, score, s.robots));
    await writeRunFiles(set, result.recorder, meta, summary, model.name);
    // The controller's own charts (a demo's path against its reference, say), from the same trace.
    if (controller?.report) {
      const charts = controller.report({ columns: result.recorder.columns.all, rows: result.recorder.rows });
      for (const [name, spec] of Object.entries(charts)) await writeChart(set, name, spec as VlSpec);
    }
    if (replay) await writeRunReplay(set, replay, s, model.name, meta);
    // A signal during chart rendering still means "don't leave anything behind".
    if (interrupt.requested) return interrupted();
    await set.commit();
    summary.writeSeconds = (performance.now() - write0) / 1000;
    // From the process's start (performance.now() counts from performance.timeOrigin): what the user waited, Node's start-up included.
    summary.wallSeconds = performance.now() / 1000;
    process.stdout.write(summaryText(summary, s, model.name, batch.isa, s.outDir, solverLine(model)));
    if (score) process.stdout.write(policyLines(policy!.task.id, score, s.robots));
    return 0;
  } finally {
    progress.finish();
    interrupt.dispose();
    if (set.status === 'open') set.abortSync();
  }
}

/** run.json / trace header keys of a policy run: the task, env steps, and each recorded robot's
 *  return and first termination (env step, or "never"). */
function policyMetadata(task: string, score: PolicyScore, robots: readonly number[]): Record<string, string | number> {
  return {
    policy_task: task,
    policy_env_steps: score.envSteps,
    policy_returns: robots.map((r) => `${r}:${score.returns[r]}`).join(' '),
    policy_terminated_at: robots.map((r) => `${r}:${score.terminatedAt[r] ?? 'never'}`).join(' '),
  };
}

function policyLines(task: string, score: PolicyScore, robots: readonly number[]): string {
  return robots
    .map((r) => {
      const t = score.terminatedAt[r];
      return `policy ${task}: robot ${r} return ${Number(score.returns[r].toPrecision(6))} over ${score.envSteps} env steps, ${t === null ? 'never terminated' : `terminated at env step ${t}`}\n`;
    })
    .join('');
}
