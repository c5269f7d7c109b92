// The entry points `achilles run --html` calls: a sampler for simulate() to fill with the run's own
// poses, then the replay files from what it sampled, staged into the run's own OutputSet (so they
// appear with the trace or not at all).

import type { Batch } from '../engine/batch.js';
import type { OutputSink } from '../reports/atomic.js';
import type { MetaValue } from '../reports/csv.js';
import type { RunSettings } from './settings.js';
import { DEFAULT_FPS, ReplaySampler } from '../viewer/record.js';
import type { ReplayMeta } from '../viewer/replay-data.js';
import { writeReplay } from '../viewer/write.js';

/** The sampler simulate() calls at every frame step of the run (`fps` lowered if the poses would not fit). */
export function runReplaySampler(batch: Batch, s: RunSettings, fps = DEFAULT_FPS): ReplaySampler {
  const sampler = new ReplaySampler(batch, s.robots, s.steps, fps);
  if (sampler.downsampleReason)
    process.stderr.write(
      `achilles run: the replay is recorded at ${Number(sampler.fps.toPrecision(4))} fps, not ${fps}: ${sampler.downsampleReason}\n`,
    );
  return sampler;
}

/** Stage the replay the run sampled, with the run's settings and provenance in its header. */
export async function writeRunReplay(
  sink: OutputSink,
  sampler: ReplaySampler,
  s: RunSettings,
  modelName: string,
  meta: Record<string, MetaValue>,
): Promise<void> {
  const full: ReplayMeta = {
    scene: s.scene,
    model: modelName,
    integrator: s.integrator,
    dt: s.dt,
    substeps: s.substeps,
    precision: s.precision,
    copies: s.copies,
    spread: s.spread,
    duration: s.steps * s.dt,
    steps: s.steps,
    ...(typeof meta.isa === 'string' ? { isa: meta.isa } : {}),
    ...(typeof meta.date === 'string' ? { date: meta.date } : {}),
  };
  await writeReplay(sink, sampler.result(full));
}
