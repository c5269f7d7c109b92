// The `# key: value` header of results.csv and traces.csv: where the numbers came from. Only what
// determines them is in it (the sweep and scene files' hashes, the settings, the draws, the
// version), never the machine, the date, the shard, the lanes or the threads: so every shard writes
// the same header and merged shards are byte-identical to the unsharded run. What ran where is in
// each shard's shard.json.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { MetaValue } from '../reports/csv.js';
import { achillesVersion } from '../util/version.js';
import { COLUMN_NOTES } from './columns.js';
import { distributionText } from '../params/draws.js';
import type { SweepPlan } from './plan.js';

export function fileSha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

export function provenance(plan: SweepPlan, sceneSha256: string): Record<string, MetaValue> {
  const s = plan.sweep;
  const meta: Record<string, MetaValue> = {
    sweep: s.name,
    sweep_file: s.fileName,
    sweep_sha256: s.sha256,
    scene: basename(s.scene),
    scene_sha256: sceneSha256,
    robots: s.robots,
    seed: s.seed,
    precision: plan.precision,
    integrator: plan.integrator,
    dt: plan.dt,
    substeps: plan.substeps,
    steps: plan.steps,
    duration: plan.steps * plan.dt,
    draws: plan.draws.length
      ? plan.draws
          .map((d) => `${d.name} ~ ${distributionText(d.dist)}${d.seed === undefined ? '' : ` (the scene's seed ${d.seed})`}`)
          .join('; ')
      : 'none (every robot starts from the scene)',
    model_draws: plan.modelDraws.length
      ? plan.modelDraws
          .map((d) => `${d.name} ~ ${distributionText(d.dist)}${d.seed === undefined ? '' : ` (the scene's seed ${d.seed})`}`)
          .join('; ')
      : "none (every robot runs the scene's model)",
    draw_rule:
      "robot r's value of parameter P is a counter-based hash of (seed, r, P) (src/params/draws.ts): the same in any batch, lane, shard or thread count",
    metrics: plan.metrics.join(' ') || 'none',
    metric_body: plan.model.bodies[plan.body].name,
    sample_every_steps: plan.sampleEvery,
  };
  if (plan.fallHeight !== undefined) meta.fall_height = plan.fallHeight;
  if (plan.trace) {
    meta.traced_robots = plan.trace.robots.join(' ');
    meta.trace_every_steps = plan.trace.every;
  }
  meta.achilles = achillesVersion();
  meta.columns = Object.entries(COLUMN_NOTES)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ');
  return meta;
}
