// Everything a headless run needs, resolved from the flags and the scene: explicit flags win,
// then the scene's (or --config's) world settings, then run defaults. Cross-flag mistakes are
// usage errors (exit 2), found before any stepping.

import { join } from 'node:path';
import type { LaneWidth, Precision } from '../engine/api.js';
import type { IntegratorName, ModelDesc } from '../engine/model-desc.js';
import { UsageError } from '../util/usage-error.js';
import type { CpuInfo } from '../engine/native.js';
import { defaultLanes, laneProblem, registerLanes } from './lanes.js';

export interface RunFlags {
  config?: string;
  integrator?: IntegratorName;
  dt?: number;
  duration?: number;
  substeps?: number;
  copies?: number;
  precision?: Precision;
  lanes?: LaneWidth;
  threads?: number;
  robots?: number[];
  out?: string;
  force?: boolean;
  record?: number;
  spread?: number;
  /** Also write replay.html (+ its data) at `fps` frames per second (src/viewer/). */
  html?: boolean;
  fps?: number;
  /** Seed of the sensor noise (src/sensors/). */
  seed?: number;
  /** A controller module (.ts/.js) that replaces the scene's (src/control/). */
  controller?: string;
  /** Run the scene's own `controller:` module (code: it runs only when asked; src/run/controller.ts). */
  allowController?: boolean;
  /** An MJCF model's keyframe (name or index) to start from instead of qpos0 (src/model-files/import/keyframe.ts). */
  keyframe?: string;
  /** A trained policy (.onnx) and the Gymnasium task it acts in (src/gym/policy.ts). */
  policy?: string;
  task?: string;
  /** Read an MJCF model that replicates past its size limit (import/mjcf/model-size.ts). */
  yes?: boolean;
}

export interface RunSettings {
  scene: string;
  config?: string;
  integrator: IntegratorName;
  /** Step length (s); each step is split into `substeps` equal substeps. */
  dt: number;
  substeps: number;
  /** Requested duration (s); the run takes `steps` = round(duration / dt) steps. */
  duration: number;
  steps: number;
  copies: number;
  precision: Precision;
  lanes: LaneWidth;
  threads: number;
  /** Robots whose state is recorded (sorted, unique). */
  robots: number[];
  /** Record every this many steps (the first and last state are always recorded). */
  recordEvery: number;
  outDir: string;
  /** Amplitude (rad or m) of the deterministic initial offsets of robots 1..copies-1; 0 = identical robots. */
  spread: number;
  /** Seed of the sensor noise streams (robot r: stream of (seed, r)). */
  seed: number;
  /** Whether the scene declares sensors (then they are read after every step and recorded). */
  sensors: boolean;
}

/** The most steps one run takes: 1e9 steps of even the smallest scene are over ten minutes of
 *  stepping; beyond it a duration is a typo (1e308), not a plan. */
export const MAX_STEPS = 1e9;

/** About this many rows are recorded by default: enough for smooth charts, small enough to open anywhere. */
export const TARGET_ROWS = 1000;

/** Scene names become directory names: keep them to safe characters. */
export function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_') || 'scene';
}

export function resolveSettings(
  scene: string,
  model: ModelDesc,
  flags: RunFlags,
  cpu: Pick<CpuInfo, 'sse2' | 'avx2' | 'avx512'>,
): RunSettings {
  const w = model.world;
  const integrator = flags.integrator ?? w.integrator;
  const dt = flags.dt ?? w.dt;
  if (!(dt > 0)) throw new UsageError(`--dt: ${dt} is out of range (expected a number > 0)`, 'run');
  const duration = flags.duration ?? w.duration;
  if (!(duration > 0)) throw new UsageError(`--duration: ${duration} is out of range (expected a number > 0)`, 'run');
  // Round, not ceil: a duration written as 0.3 with dt 0.1 must not become 4 steps through 0.30000000000000004.
  const steps = Math.max(1, Math.round(duration / dt));
  if (!(steps <= MAX_STEPS)) {
    const from = flags.duration === undefined ? "the scene's duration" : '--duration';
    const count = Number.isFinite(steps) ? `${steps.toPrecision(3)} steps` : 'an infinite number of steps';
    throw new UsageError(
      `${from} ${duration} s at dt ${dt} s is ${count}; a run takes at most ${MAX_STEPS.toExponential()} steps: shorten --duration or lengthen --dt`,
      'run',
    );
  }
  const copies = flags.copies ?? 1;
  const precision = flags.precision ?? 'f64';
  const lanes = flags.lanes ?? defaultLanes(copies, registerLanes(cpu, precision));
  const problem = laneProblem(cpu, precision, lanes);
  if (problem) throw new UsageError(`--lanes: ${problem}`, 'run');
  const robots = [...new Set(flags.robots ?? [0])].sort((a, b) => a - b);
  const bad = robots.find((r) => r >= copies);
  if (bad !== undefined) throw new UsageError(`--robots: robot ${bad} does not exist (robots are 0..${copies - 1}; set --copies)`, 'run');
  const recordEvery = flags.record ?? Math.max(1, Math.ceil(steps / TARGET_ROWS));
  return {
    scene,
    ...(flags.config === undefined ? {} : { config: flags.config }),
    integrator,
    dt,
    substeps: flags.substeps ?? w.substeps,
    duration,
    steps,
    copies,
    precision,
    lanes,
    threads: flags.threads ?? 1,
    robots,
    recordEvery,
    outDir: flags.out ?? join('reports', 'run', `${safeName(model.name)}-${integrator}-${precision}`),
    spread: flags.spread ?? 0,
    seed: flags.seed ?? 0,
    sensors: (model.sensors?.length ?? 0) > 0 || (model.mjcfSensors?.length ?? 0) > 0,
  };
}
