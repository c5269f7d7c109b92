// Provenance of a run, written as the trace's `# key: value` header and into run.json, so a
// trace file on its own says exactly what produced it (the scene's sha256 pins its content).

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { achillesVersion } from '../cli/version.js';
import type { MetaValue } from '../reports/csv.js';
import type { RunSettings } from './settings.js';

export function sha256File(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

export function runMetadata(s: RunSettings, isa: string, midpointIterations: number, date = new Date()): Record<string, MetaValue> {
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
    duration: s.duration,
    steps: s.steps,
    record_every: s.recordEvery,
    achilles_version: achillesVersion(),
    node_version: process.version,
    date: date.toISOString(),
  };
}
