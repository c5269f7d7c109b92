// The bench scheduler. Cells sharing (scene, integrator) form a group; within a group every member
// (each copies × Achilles precision × lanes × threads, and each MuJoCo mode) is warmed up, then the
// repetitions go round-robin — Achilles rep 1, MuJoCo rep 1, Achilles rep 2, ... — so that clock
// or thermal drift and noisy neighbours hit both engines alike.
// A scene with shapes adds detection cells to the same round-robin: Achilles collide() alone and its
// step with detection, and MuJoCo's mj_collision (per-robot), compared in compareCollision.
// Each cell is timed once per robots variant (robots.ts: 'differ' and, beside it, 'lockstep' for scenes
// with contacts or actuators), in the same round-robin; ratios compare within one variant.

import { basename } from 'node:path';
import type { LaneWidth, Precision } from '../engine/api.js';
import type { IntegratorName, ModelDesc } from '../engine/model-desc.js';
import { loadScene } from '../model-files/scene/index.js';
import { createProgress, type Progress } from '../reports/progress.js';
import { AchillesCollisionRunner, AchillesRunner, type AchillesCell, type CollisionMeasure } from './achilles-runner.js';
import type { BenchConfig } from './config.js';
import { countFlops, describeFlopsByPass, describePeaks, measurePeaks, peakFor, type FlopCount, type PeakMeasure } from './flops.js';
import { machineInfo, type MachineInfo } from './machine.js';
import { engineAddon } from '../engine/native.js';
import { laneProblem } from '../engine/lanes.js';
import { loadMujocoNative, type MujocoMode, type MujocoNative } from './mujoco-native.js';
import { MUJOCO_INTEGRATORS, MujocoCollisionRunner, MujocoRunner, type MujocoContactSolver } from './mujoco-runner.js';
import { calibrate, wholeSegments, type Runner } from './runner.js';
import {
  BENCH_CTRL_SEED,
  MAX_CTRL_TABLE,
  controlRows,
  randomControls,
  robotStarts,
  robotsFor,
  laneParamModels,
  robotsLabel,
  type CtrlMode,
  type Robots,
  type RobotsKind,
} from './robots.js';
import { isNoisy, summarize } from './stats.js';

export type EngineName = 'achilles' | 'mujoco-per-robot' | 'mujoco-merged' | 'mujoco-newton' | 'mujoco-cg20';

export interface BenchResult {
  engine: EngineName;
  scene: string;
  integrator: IntegratorName;
  /** MuJoCo always computes in f64. */
  precision: Precision;
  /** SIMD lanes per robot block (MuJoCo: 1). */
  lanes: number;
  /** Instruction set the kernels ran on (batch.isa; MuJoCo: its build). */
  isa: string;
  copies: number;
  threads: number;
  /** 'differ': each robot from its own start (startSpread) and, with ctrl 'random', its own random
   *  controls every step; 'lockstep': every robot the scene's start, zero controls. */
  robots: RobotsKind;
  startSpread: number;
  ctrl: CtrlMode;
  /**
   * Scenes with shapes only; absent on the plain step cells. 'detect': collision detection alone
   * per robot-step (Achilles collide(); MuJoCo mj_collision after mj_kinematics, per-robot mode).
   * 'step+detect': Achilles' whole step, then detection (compared with MuJoCo's step with
   * contacts on; its contacts-off step gives only vsMujocoContactsOff).
   */
  measure?: CollisionMeasure;
  /** MuJoCo 'detect' cells: contacts found per mj_collision call (average of the last rep). */
  contactsPerCall?: number;
  /** MuJoCo merged: robots per mjData. */
  robotsPerModel?: number;
  /** Median over repetitions. */
  robotStepsPerSec: number;
  /** One batch step: every robot advances dt. */
  usPerStep: number;
  usPerRobotStep: number;
  /** (max − min) / median of the repetitions' rates. */
  spread: number;
  minRobotStepsPerSec: number;
  maxRobotStepsPerSec: number;
  noisy: boolean;
  reps: number;
  stepsPerRep: number;
  nonFiniteRobotSteps: number;
  /** The headline: Achilles / the fastest MuJoCo cell running the same physics for this scene,
   *  integrator and copies. Scenes without shapes: the faster of per-robot and merged. Scenes with
   *  shapes (contacts): the faster of MuJoCo's contact-on cells (Newton, CG≤20), never a
   *  contacts-off one; absent when MuJoCo ran with contacts off only (see vsMujocoContactsOff). */
  vsMujoco?: number;
  mujocoBest?: EngineName;
  /** Scenes with shapes: Achilles (contacts on) / the faster MuJoCo step with contacts disabled,
   *  which skips detection and the solve: not the same physics, so never the headline. */
  vsMujocoContactsOff?: number;
  /** Achilles rate / the same cell at 1 thread. */
  threadScaling?: number;
  /** Scenes with shapes: Achilles' step (contacts and their solve included) over MuJoCo's step with
   *  contacts on, per-robot, with its default Newton solver, and with CG capped at 20 iterations. */
  vsMujocoNewton?: number;
  vsMujocoCg20?: number;
  flopsPerRobotStep?: number;
  gflops?: number;
  fractionOfPeak?: number;
}

export interface BenchReport {
  machine: MachineInfo & { peakNote?: string; peaks?: PeakMeasure[] };
  config: { restartEvery: number; repSeconds: number; reps: number; dtByScene: Record<string, number> };
  results: BenchResult[];
  notes: string[];
}

interface Member {
  runner: Runner;
  /** Read after the reps (MuJoCo detection: contacts found). */
  extra?: () => Partial<BenchResult>;
  result: Omit<
    BenchResult,
    | 'robotStepsPerSec'
    | 'usPerStep'
    | 'usPerRobotStep'
    | 'spread'
    | 'minRobotStepsPerSec'
    | 'maxRobotStepsPerSec'
    | 'noisy'
    | 'reps'
    | 'stepsPerRep'
    | 'nonFiniteRobotSteps'
  >;
  steps: number;
  rates: number[];
  nonFinite: number;
}

export interface RunHooks {
  /** Progress sink; default a terminal bar on stderr. */
  progress?: (total: number) => Progress;
}

function hasShapes(model: ModelDesc): boolean {
  return (model.shapes?.length ?? 0) > 0;
}

function sceneName(model: ModelDesc, file: string): string {
  return model.name || basename(file).replace(/\.arow$/, '');
}

/** A member of a group, before its timing. */
const member = (runner: Runner, result: Member['result'], extra?: Member['extra']): Member => ({
  runner,
  ...(extra ? { extra } : {}),
  result,
  steps: 0,
  rates: [],
  nonFinite: 0,
});

const MJ_MODES: MujocoMode[] = ['per-robot', 'merged'];
/** A cell's robots variant, as its results carry it, and MuJoCo's starts and controls (cellRobots). */
type RobotsTag = ReturnType<typeof cellRobots>['tag'];
type MujocoRobots = ReturnType<typeof cellRobots>['mujocoRobots'];
const COLLISION_MEASURES: CollisionMeasure[] = ['detect', 'step+detect'];
/** Scenes with shapes also get MuJoCo's step with contacts on, with each of its solvers. */
const MJ_CONTACT_SOLVERS: MujocoContactSolver[] = ['newton', 'cg20'];

/** What building a group's members needs. */
interface GroupContext {
  cfg: BenchConfig;
  mj: MujocoNative | null;
  machine: BenchReport['machine'];
  progress: Progress;
  /** Adds a note once. */
  note: (n: string) => void;
}

/** Flops per robot-step of each scene and integrator (noted), and the measured peaks they are a
 *  fraction of (on the machine: --flops). */
function flopsAndPeaks(
  cfg: BenchConfig,
  models: { model: ModelDesc }[],
  notes: string[],
  machine: BenchReport['machine'],
): Map<string, FlopCount> {
  const flops = new Map<string, FlopCount>();
  for (const { model } of models)
    for (const integ of cfg.integrators) {
      const f = countFlops(model, integ);
      flops.set(`${model.name}/${integ}`, f);
      notes.push(`${model.name}/${integ}: ${f.total} flops per robot-step: ${describeFlopsByPass(f)}`);
    }
  const cpu = engineAddon().cpuInfo();
  const cells = cfg.precisions.flatMap((precision) => cfg.lanes.map((lanes) => ({ precision, lanes })));
  const peaks = measurePeaks(cells.filter((c) => laneProblem(cpu, c.precision, c.lanes) === null));
  machine.peakNote = describePeaks(peaks);
  machine.peaks = peaks;
  return flops;
}

/** Achilles' cells of one copies count and robots variant: each precision × lanes × threads, and
 *  for a scene with shapes its detection cells beside each. A cell the CPU cannot run is skipped
 *  and said once. */
function achillesMembers(
  g: GroupContext,
  base: Omit<AchillesCell, 'precision' | 'lanes' | 'threads'>,
  scene: string,
  tag: RobotsTag,
): Member[] {
  const { cfg, progress } = g;
  const members: Member[] = [];
  const shapes = hasShapes(base.model);
  for (const precision of cfg.precisions)
    for (const lanes of cfg.lanes)
      for (const threads of cfg.threads) {
        const opts = { ...base, precision, lanes: lanes as LaneWidth, threads };
        let runner: AchillesRunner;
        try {
          runner = new AchillesRunner(opts);
        } catch (e) {
          // e.g. f64 at 8 lanes needs AVX-512 on an AVX2-only CPU: skip that cell, say so once.
          const msg = (e as Error).message;
          if (!/lacks/.test(msg)) throw e;
          g.note(`${precision} lanes ${lanes} skipped: ${msg}`);
          progress.tick(cfg.reps * (shapes ? 1 + COLLISION_MEASURES.length : 1));
          continue;
        }
        const cell = (isa: string) => ({
          engine: 'achilles' as const,
          scene,
          integrator: base.integrator,
          precision,
          lanes,
          isa,
          copies: base.copies,
          threads,
        });
        members.push(member(runner, { ...cell(runner.isa), ...tag }));
        if (shapes)
          for (const measure of COLLISION_MEASURES) {
            const cr = new AchillesCollisionRunner(opts, measure);
            members.push(member(cr, { ...cell(cr.isa), measure, ...tag }));
          }
      }
  return members;
}

/** MuJoCo's cells of one copies count and robots variant: per-robot and merged steps, and for a
 *  scene with shapes its detection (per robot) and its step with contacts on, per solver. */
function mujocoMembers(
  g: GroupContext,
  mj: MujocoNative,
  model: ModelDesc,
  scene: string,
  integrator: IntegratorName,
  copies: number,
  robots: MujocoRobots,
  tag: RobotsTag,
): Member[] {
  const { cfg } = g;
  const members: Member[] = [];
  const cell = { scene, integrator, precision: 'f64' as const, lanes: 1, isa: `MuJoCo ${g.machine.mujoco}`, copies, threads: 1 };
  if (hasShapes(model)) {
    let cr: MujocoCollisionRunner | null = null;
    try {
      cr = new MujocoCollisionRunner(mj, model, integrator, copies, cfg.restartEvery, robots);
    } catch (e) {
      // A rounded box has no MuJoCo geom: no MuJoCo detection cell, said once.
      g.note(`${scene}: no MuJoCo detection cell: ${(e as Error).message}`);
      g.progress.tick(cfg.reps);
    }
    if (cr) {
      const runner = cr;
      members.push(
        member(runner, { engine: 'mujoco-per-robot', ...cell, measure: 'detect', ...tag }, () => ({
          contactsPerCall: runner.contactsPerCall,
        })),
      );
    }
    for (const solver of MJ_CONTACT_SOLVERS) {
      const runner = new MujocoRunner(mj, model, integrator, 'per-robot', copies, cfg.restartEvery, solver, robots);
      members.push(member(runner, { engine: solver === 'newton' ? 'mujoco-newton' : 'mujoco-cg20', ...cell, ...tag }));
    }
  }
  for (const mode of MJ_MODES) {
    const runner = new MujocoRunner(mj, model, integrator, mode, copies, cfg.restartEvery, undefined, robots);
    members.push(
      member(runner, {
        engine: mode === 'merged' ? 'mujoco-merged' : 'mujoco-per-robot',
        ...cell,
        ...tag,
        ...(mode === 'merged' ? { robotsPerModel: runner.robotsPerModel } : {}),
      }),
    );
  }
  return members;
}

/** Times one group: each member calibrated (warm-up included) to a repetition of about
 *  cfg.repSeconds, then the repetitions round-robin over the members. */
async function timeGroup(members: Member[], cfg: BenchConfig, progress: Progress): Promise<void> {
  const warmSeconds = Math.min(0.25, cfg.repSeconds / 2);
  for (const m of members) {
    m.steps = wholeSegments(
      calibrate(m.runner, cfg.repSeconds, warmSeconds, (n) => checkFinite(m, n)),
      cfg.restartEvery,
    );
  }
  for (let rep = 0; rep < cfg.reps; rep++) {
    for (const m of members) {
      const t = m.runner.run(m.steps);
      m.rates.push(t.robotSteps / t.seconds);
      m.nonFinite += t.nonFinite;
      checkFinite(m, t.nonFinite);
      progress.tick();
      // Let the event loop breathe (signals, progress redraw) between reps.
      await new Promise((r) => setImmediate(r));
    }
  }
}

export async function runBench(cfg: BenchConfig, hooks: RunHooks = {}): Promise<BenchReport> {
  const notes: string[] = [];
  const note = (n: string): void => void (notes.includes(n) || notes.push(n));
  let mj: MujocoNative | null = null;
  if (cfg.vsMujoco) mj = loadMujocoNative(); // throws MUJOCO_INSTALL_HINT when absent
  const machine: BenchReport['machine'] = machineInfo(mj ? mj.info() : null);
  const models = cfg.scenes.map((file) => ({ file, model: loadScene(file, { allowLarge: cfg.allowLarge }) }));
  const flops = cfg.flops ? flopsAndPeaks(cfg, models, notes, machine) : new Map<string, FlopCount>();

  const perGroup = cfg.precisions.length * cfg.lanes.length * cfg.threads.length;
  // Scenes with shapes get detection cells: Achilles detect and step+detect per step cell, MuJoCo detect.
  const variantsOf = new Map(models.map(({ model }) => [model, robotsFor(model, cfg.robots, (n) => notes.push(n))]));
  const repsOf = (model: ModelDesc) =>
    variantsOf.get(model)!.length *
    cfg.integrators.length *
    cfg.copies.length *
    (perGroup * (hasShapes(model) ? 1 + COLLISION_MEASURES.length : 1) +
      (mj ? MJ_MODES.length + (hasShapes(model) ? 1 + MJ_CONTACT_SOLVERS.length : 0) : 0)) *
    cfg.reps;
  const progress = (hooks.progress ?? ((total) => createProgress({ total, label: 'bench', unit: 'reps' })))(
    models.reduce((n, { model }) => n + repsOf(model), 0),
  );
  const g: GroupContext = { cfg, mj, machine, progress, note };
  const results: BenchResult[] = [];

  try {
    for (const { file, model } of models) {
      const scene = sceneName(model, file);
      for (const integrator of cfg.integrators) {
        const withMj = mj !== null && MUJOCO_INTEGRATORS[integrator] !== undefined;
        if (mj && !withMj) notes.push(`${scene}/${integrator}: MuJoCo has no ${integrator} integrator, no comparison`);
        if (withMj && model.bodies.some((b) => b.tau.some((t) => t !== 0))) {
          notes.push(`${scene}: constant tau is not applied in the MuJoCo timing loop (cost is unaffected)`);
        }
        // One group per scene × integrator, every copies count in it: comparisons across copies
        // (the 4096-vs-best target) then suffer machine drift no more than Achilles vs MuJoCo does.
        const members: Member[] = [];
        for (const copies of cfg.copies)
          for (const robots of variantsOf.get(model)!) {
            // The starts and controls of this variant, built once and given to every cell (both engines).
            const { achillesRobots, mujocoRobots, tag } = cellRobots(model, copies, robots, cfg.restartEvery, note);
            const base = { model, copies, integrator, restartEvery: cfg.restartEvery, ...achillesRobots };
            members.push(...achillesMembers(g, base, scene, tag));
            if (withMj && mj) members.push(...mujocoMembers(g, mj, model, scene, integrator, copies, mujocoRobots, tag));
          }
        await timeGroup(members, cfg, progress);
        results.push(...members.map((m) => finish(m, machine, flops)));
      }
    }
  } finally {
    progress.finish();
  }
  notes.push(...closingNotes(models, variantsOf, results));
  return {
    machine,
    config: {
      restartEvery: cfg.restartEvery,
      repSeconds: cfg.repSeconds,
      reps: cfg.reps,
      dtByScene: Object.fromEntries(models.map(({ file, model }) => [sceneName(model, file), model.world.dt])),
    },
    results,
    notes,
  };
}

/** What the robots of the 'differ' variant were, and the contact scenes whose MuJoCo ran with
 *  contacts off only; compare() fills the ratios first. */
function closingNotes(
  models: { file: string; model: ModelDesc }[],
  variantsOf: Map<ModelDesc, Robots[]>,
  results: BenchResult[],
): string[] {
  const notes: string[] = [];
  const variants = [
    ...new Set(
      models.flatMap(({ model }) =>
        variantsOf
          .get(model)!
          .filter((v) => v.kind === 'differ')
          .map(robotsLabel),
      ),
    ),
  ];
  if (variants.length)
    notes.push(
      `differ: robot r starts from the scene's state with achilles run --spread's offsets, robot 0 exact; random ctrl: each robot its own seeded stream (seed ${BENCH_CTRL_SEED}), uniform in each ctrlrange, redrawn every step, the same numbers (f32-exact) for both engines, replayed after each restart; the copy of the controls is timed on both sides. ${variants.join('; ')}`,
    );
  const contactScenes = new Set(models.filter(({ model }) => hasShapes(model)).map(({ file, model }) => sceneName(model, file)));
  compare(results, contactScenes);
  for (const scene of contactScenes) {
    const off = results.some((r) => r.scene === scene && r.vsMujocoContactsOff !== undefined);
    const on = results.some((r) => r.scene === scene && r.engine === 'achilles' && r.measure !== 'detect' && r.vsMujoco !== undefined);
    if (off && !on)
      notes.push(
        `${scene}: MuJoCo was timed with contacts off only; that ratio is shown as 'vs MuJoCo (contacts off)', not as the headline (different physics)`,
      );
  }
  return notes;
}

/** A cell whose motion diverged times garbage: an error naming the cell, never "0 robot-steps/s". */
function checkFinite(m: Member, nonFinite: number): void {
  const n = nonFinite;
  if (n <= 0) return;
  const r = m.result;
  const who =
    (r.measure ? `${r.measure} ` : '') +
    (r.engine === 'achilles' ? `achilles ${r.precision} ×${r.lanes}${r.threads !== 1 ? ` ${r.threads} threads` : ''}` : r.engine);
  throw new Error(
    `the motion diverged in the cell ${r.scene} / ${r.integrator} / ${who} / ${r.copies} copies (${n} robot-steps non-finite): ` +
      'timing a diverging scene measures garbage; give the scene a smaller dt or a stabler integrator (--integrator), or restart sooner (--restart-every)',
  );
}

function finish(m: Member, machine: BenchReport['machine'], flops: Map<string, FlopCount>): BenchResult {
  const s = summarize(m.rates);
  const r: BenchResult = {
    ...m.result,
    ...(m.extra ? m.extra() : {}),
    robotStepsPerSec: s.median,
    usPerStep: (1e6 * m.result.copies) / s.median,
    usPerRobotStep: 1e6 / s.median,
    spread: s.spread,
    minRobotStepsPerSec: s.min,
    maxRobotStepsPerSec: s.max,
    noisy: isNoisy(s),
    reps: s.reps,
    stepsPerRep: m.steps,
    nonFiniteRobotSteps: m.nonFinite,
  };
  const f = flops.get(`${r.scene}/${r.integrator}`);
  if (f && r.engine === 'achilles' && r.measure === undefined) {
    r.flopsPerRobotStep = f.total;
    r.gflops = (f.total * s.median) / 1e9;
    const peak = peakFor(machine.peaks ?? [], r.precision, r.lanes);
    if (peak) r.fractionOfPeak = r.gflops / (peak.gflops * r.threads);
  }
  return r;
}

/** Fill in the Achilles/MuJoCo ratios and the scaling over 1 thread. `contactScenes`: the scenes
 *  with shapes, where Achilles steps with contacts (default: those with detection or contact-on
 *  cells); their headline compares with MuJoCo with contacts on only. */
export function compare(results: BenchResult[], contactScenes: ReadonlySet<string> = scenesWithContactCells(results)): void {
  compareCollision(results, contactScenes);
  compareContact(results);
  results = results.filter((r) => r.measure === undefined && r.engine !== 'mujoco-newton' && r.engine !== 'mujoco-cg20');
  const key = (r: BenchResult) => `${r.scene}|${r.integrator}|${r.copies}|${r.robots}`;
  const best = new Map<string, BenchResult>();
  for (const r of results) {
    if (r.engine === 'achilles') continue;
    const b = best.get(key(r));
    if (!b || r.robotStepsPerSec > b.robotStepsPerSec) best.set(key(r), r);
  }
  const oneThread = new Map<string, number>();
  const cellKey = (r: BenchResult) => `${key(r)}|${r.precision}|${r.lanes}`;
  for (const r of results) if (r.engine === 'achilles' && r.threads === 1) oneThread.set(cellKey(r), r.robotStepsPerSec);
  for (const r of results) {
    if (r.engine !== 'achilles') continue;
    const b = best.get(key(r));
    if (b && contactScenes.has(r.scene)) r.vsMujocoContactsOff = r.robotStepsPerSec / b.robotStepsPerSec;
    else if (b) {
      r.vsMujoco = r.robotStepsPerSec / b.robotStepsPerSec;
      r.mujocoBest = b.engine;
    }
    const one = oneThread.get(cellKey(r));
    if (one !== undefined && r.threads !== 1) r.threadScaling = r.robotStepsPerSec / one;
  }
}

/** Scenes whose results include detection or contact-on MuJoCo cells: only scenes with shapes get them. */
function scenesWithContactCells(results: readonly BenchResult[]): Set<string> {
  return new Set(
    results.filter((r) => r.measure !== undefined || r.engine === 'mujoco-newton' || r.engine === 'mujoco-cg20').map((r) => r.scene),
  );
}

/** Achilles' step cells of a scene with shapes over MuJoCo's contact-on step, Newton and CG-20;
 *  the faster of the two is the headline (vsMujoco): the same physics, contacts and their solve. */
function compareContact(results: BenchResult[]): void {
  const key = (r: BenchResult) => `${r.scene}|${r.integrator}|${r.copies}|${r.robots}`;
  const newton = new Map(results.filter((r) => r.engine === 'mujoco-newton').map((r) => [key(r), r.robotStepsPerSec]));
  const cg20 = new Map(results.filter((r) => r.engine === 'mujoco-cg20').map((r) => [key(r), r.robotStepsPerSec]));
  for (const r of results) {
    if (r.engine !== 'achilles' || r.measure !== undefined) continue;
    const n = newton.get(key(r));
    const c = cg20.get(key(r));
    if (n) r.vsMujocoNewton = r.robotStepsPerSec / n;
    if (c) r.vsMujocoCg20 = r.robotStepsPerSec / c;
    if (n || c) {
      const newtonFaster = (n ?? 0) >= (c ?? 0);
      r.vsMujoco = r.robotStepsPerSec / (newtonFaster ? n! : c!);
      r.mujocoBest = newtonFaster ? 'mujoco-newton' : 'mujoco-cg20';
    }
  }
}

/**
 * Detection cells: Achilles detect / MuJoCo mj_collision. Achilles step+detect (a step with its
 * contacts, then detection again) / the faster MuJoCo step with contacts on (Newton or CG≤20); a
 * MuJoCo plain step (contacts disabled: no detection, no solver) gives only vsMujocoContactsOff.
 */
function compareCollision(results: BenchResult[], contactScenes: ReadonlySet<string>): void {
  const key = (r: BenchResult) => `${r.scene}|${r.integrator}|${r.copies}|${r.robots}`;
  const mjDetect = new Map<string, BenchResult>();
  const mjStepOff = new Map<string, BenchResult>();
  const mjStepOn = new Map<string, BenchResult>();
  for (const r of results) {
    if (r.engine === 'achilles') continue;
    const contactsOn = r.engine === 'mujoco-newton' || r.engine === 'mujoco-cg20';
    const map = r.measure === 'detect' ? mjDetect : r.measure !== undefined ? null : contactsOn ? mjStepOn : mjStepOff;
    const b = map?.get(key(r));
    if (map && (!b || r.robotStepsPerSec > b.robotStepsPerSec)) map.set(key(r), r);
  }
  for (const r of results) {
    if (r.engine !== 'achilles' || r.measure === undefined) continue;
    const b = (r.measure === 'detect' ? mjDetect : mjStepOn).get(key(r));
    if (b) {
      r.vsMujoco = r.robotStepsPerSec / b.robotStepsPerSec;
      r.mujocoBest = b.engine;
    }
    const off = r.measure === 'step+detect' ? mjStepOff.get(key(r)) : undefined;
    if (off && contactScenes.has(r.scene)) r.vsMujocoContactsOff = r.robotStepsPerSec / off.robotStepsPerSec;
  }
}

/** One variant's starts and controls for both engines, and the fields its results carry. */
function cellRobots(model: ModelDesc, copies: number, robots: Robots, restartEvery: number, note: (s: string) => void) {
  const starts = robots.spread !== 0 ? robotStarts(model, copies, robots.spread) : undefined;
  const nu = model.actuators?.length ?? 0;
  const rows = controlRows(restartEvery, copies, nu);
  if (robots.ctrl === 'random' && nu > 0 && rows < restartEvery)
    note(
      `${model.name} × ${copies}: the random controls repeat every ${rows} steps (a table of ${restartEvery} steps × ${copies} robots × ${nu} controls would pass ${MAX_CTRL_TABLE} numbers)`,
    );
  const ctrl = robots.ctrl === 'random' && nu > 0 ? randomControls(model, copies, rows) : undefined;
  const robotModels = robots.laneParams ? laneParamModels(model, copies) : undefined;
  return {
    achillesRobots: {
      ...(starts ? { starts } : {}),
      ...(ctrl ? { ctrl: ctrl.byActuator } : {}),
      ...(robotModels ? { robotModels } : {}),
    },
    mujocoRobots: { ...(starts ? { starts } : {}), ...(ctrl ? { ctrl: ctrl.byRobot } : {}) },
    tag: { robots: robots.kind, startSpread: robots.spread, ctrl: robots.ctrl },
  };
}
