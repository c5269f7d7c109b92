// Provenance of a run, written as the trace's `# key: value` header and into run.json, so a
// trace file on its own says exactly what produced it (the scene's sha256 pins its content).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { achillesVersion } from '../util/version.js';
import type { MetaValue } from '../reports/csv.js';
import type { RunSettings } from './settings.js';

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** The controller that ran: a module (its path, pinned by its sha256) or the built-in PD. */
export interface ControllerRun {
  /** A module's path, or `pd (N terms)`. */
  name: string;
  /** The module file (absent for the built-in PD, whose terms are in the scene). */
  module?: string;
  /** Calls per simulated second the controller asked for (absent: every step). */
  rate?: number;
  /** Steps between its calls, as the run used them (the rate rounded to whole steps). */
  period: number;
}

export function runMetadata(
  s: RunSettings,
  isa: string,
  midpointIterations: number,
  date = new Date(),
  controller?: ControllerRun,
): Record<string, MetaValue> {
  return {
    scene: s.scene,
    scene_sha256: sha256File(s.scene),
    ...(s.config === undefined ? {} : { config: s.config, config_sha256: sha256File(s.config) }),
    integrator: s.integrator,
    ...(s.integrator === 'midpoint' ? { midpoint_iterations: midpointIterations } : {}),
    dt: s.dt,
    substeps: s.substeps,
    precision: s.precision,
    lanes: s.lanes,
    isa,
    threads: s.threads,
    copies: s.copies,
    robots: s.robots.join(','),
    spread: s.spread,
    ...(s.sensors ? { sensor_seed: s.seed } : {}),
    ...(controller === undefined
      ? {}
      : {
          controller: controller.name,
          ...(controller.module === undefined ? {} : { controller_sha256: sha256File(controller.module) }),
          controller_rate: controller.rate === undefined ? 'every step' : `${controller.rate} Hz`,
          controller_period_steps: controller.period,
        }),
    duration: s.duration,
    steps: s.steps,
    record_every: s.recordEvery,
    achilles_version: achillesVersion(),
    node_version: process.version,
    date: date.toISOString(),
  };
}
