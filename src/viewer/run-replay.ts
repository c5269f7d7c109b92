// The one entry point `achilles run --html` calls: the run's settings and provenance → the
// replay files, staged into the run's own OutputSet (so they appear with the trace or not at all).

import type { ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import type { OutputSink } from '../reports/atomic.js';
import type { MetaValue } from '../reports/csv.js';
import type { RunSettings } from '../run/settings.js';
import { DEFAULT_FPS } from './record.js';
import { writeReplay } from './write.js';

export async function writeRunReplay(
  sink: OutputSink,
  model: ModelDesc,
  s: RunSettings,
  meta: Record<string, MetaValue>,
  addon: NativeAddon,
  fps = DEFAULT_FPS,
  shouldStop: () => boolean = () => false,
): Promise<void> {
  process.stderr.write(`achilles run: recording the replay at ${fps} fps (re-simulating robot${s.robots.length === 1 ? '' : 's'} ${s.robots.join(', ')})\n`);
  const mid = meta.midpoint_iterations;
  await writeReplay(
    sink,
    model,
    {
      scene: s.scene,
      integrator: s.integrator,
      dt: s.dt,
      substeps: s.substeps,
      steps: s.steps,
      copies: s.copies,
      precision: s.precision,
      lanes: s.lanes,
      robots: s.robots,
      spread: s.spread,
      ...(typeof mid === 'number' ? { midpointIterations: mid } : {}),
    },
    { ...(typeof meta.isa === 'string' ? { isa: meta.isa } : {}), ...(typeof meta.date === 'string' ? { date: meta.date } : {}) },
    addon,
    fps,
    shouldStop,
  );
}
