// A sweep file checked against its scene: coordinate names become indices, the kept body a body
// index, the duration a step count. Names the scene does not have are reported at the sweep
// file's line and column, with the names it does have.

import type { Precision } from '../engine/api.js';
import { coordinateNames } from '../engine/batch.js';
import type { IntegratorName, ModelDesc } from '../engine/model-desc.js';
import { didYouMean } from '../model-files/common/errors.js';
import type { At, MetricName, SweepFile } from './sweep-file.js';
import { planInitialDraws, planModelDraws, type PlannedDraw, type SceneRandomization } from '../model-files/scene/randomize-read.js';
import type { ModelDraw } from '../params/robot-values.js';

export interface SweepPlan {
  sweep: SweepFile;
  model: ModelDesc;
  integrator: IntegratorName;
  dt: number;
  substeps: number;
  steps: number;
  precision: Precision;
  draws: PlannedDraw[];
  /** Per-robot model parameters (src/params/): each robot runs its model with its draws written in. */
  modelDraws: ModelDraw[];
  metrics: MetricName[];
  final: boolean;
  /** The body `height` and `fell` follow. */
  body: number;
  fallHeight?: number;
  /** Metrics are sampled at step 0, every `sampleEvery` steps and at the last step. */
  sampleEvery: number;
  trace?: { robots: number[]; every: number };
  names: { q: string[]; v: string[] };
}

/** About this many metric samples per robot by default. */
const TARGET_SAMPLES = 100;
/** About this many trace rows per traced robot by default. */
const TARGET_TRACE_ROWS = 200;
/** The most steps a sweep's robot takes (as `achilles run`). */
const MAX_STEPS = 1e9;

function fail(at: At, found: string, expected: string, hint?: string): never {
  at.ctx.fail(at.node, at.subject, found, expected, hint);
}

const listed = (names: readonly string[]): string => {
  const shown = names.slice(0, 12).join(', ');
  return names.length > 12 ? `${shown}, … (${names.length} in all)` : shown;
};

export function planSweep(sweep: SweepFile, model: ModelDesc, scene?: SceneRandomization): SweepPlan {
  // A controller would drive the robots in a run; a sweep that ran them without it would answer
  // another question than the one asked, so it is refused until sweeps run controllers.
  if (model.controller)
    fail(
      sweep.sceneAt,
      `a scene with a controller (${model.controller.kind === 'pd' ? 'the built-in PD' : `the module ${model.controller.path}`})`,
      'a scene without a `controller:`',
      'sweeps do not run controllers yet (their actuators get zero controls); sweep a copy of the scene without it',
    );
  const names = coordinateNames(model);
  // The scene's own draws (with its seed) and the sweep's: a parameter drawn by both is refused at the sweep's entry.
  const draws = [...(scene?.initial ?? []), ...planInitialDraws(sweep.initial, model)];
  const modelDraws = [...(scene?.model ?? []), ...planModelDraws(sweep.model, model)];
  for (const [mine, theirs] of [
    [sweep.initial, scene?.initial ?? []],
    [sweep.model, scene?.model ?? []],
  ] as const) {
    const twice = mine.find((d) => theirs.some((t) => t.name === d.name));
    if (twice)
      fail(
        twice.at,
        `\`${twice.name}\`, which the scene's randomize block draws too`,
        'each parameter drawn once, in the scene or in the sweep',
      );
  }

  let body = 0;
  const keep = sweep.keep;
  if (keep.body) {
    body = model.bodies.findIndex((b) => b.name === keep.body!.name);
    const bodyNames = model.bodies.map((b) => b.name);
    if (body < 0)
      fail(
        keep.body.at,
        `no link \`${keep.body.name}\` in ${model.name}`,
        `one of ${listed(bodyNames)}`,
        didYouMean(keep.body.name, bodyNames),
      );
  }

  const integrator = sweep.integrator ?? model.world.integrator;
  const dt = sweep.dt ?? model.world.dt;
  const duration = sweep.duration ?? model.world.duration;
  const steps = Math.max(1, Math.round(duration / dt));
  if (!(steps <= MAX_STEPS))
    fail(sweep.at, `a duration of ${duration} s at dt ${dt} s (${steps.toPrecision(3)} steps)`, `at most ${MAX_STEPS} steps per robot`);

  let trace: SweepPlan['trace'];
  if (keep.traces) {
    const bad = keep.traces.robots.find((r) => r >= sweep.robots);
    if (bad !== undefined) fail(keep.traces.at, `robot ${bad}`, `robots 0..${sweep.robots - 1} (the sweep has ${sweep.robots})`);
    trace = { robots: keep.traces.robots, every: keep.traces.every ?? Math.max(1, Math.ceil(steps / TARGET_TRACE_ROWS)) };
  }
  return {
    sweep,
    model,
    integrator,
    dt,
    substeps: model.world.substeps,
    steps,
    precision: sweep.precision,
    draws,
    modelDraws,
    metrics: keep.metrics,
    final: keep.final,
    body,
    ...(keep.fallHeight === undefined ? {} : { fallHeight: keep.fallHeight }),
    sampleEvery: keep.every ?? Math.max(1, Math.ceil(steps / TARGET_SAMPLES)),
    ...(trace ? { trace } : {}),
    names,
  };
}
