// Whole-duration runs of a scene file, for tests that check a scene stays finite: seconds of native
// stepping in one call, so the tests run them through inChild (test/helpers/in-child.ts).
import type { BatchOptions } from '../../../src/engine/api.js';
import { Batch } from '../../../src/engine/batch.js';
import { applySpread } from '../../../src/run/spread.js';
import { loadScene } from '../../../src/model-files/scene/index.js';

/** Batch.step over the scene's default duration (world.duration / world.dt steps); the final q of
 *  every lane. A divergence throws NonFiniteStateError, as Batch.step does. */
export function qAfterWholeDuration(path: string, options: BatchOptions): number[] {
  const m = loadScene(path);
  const b = new Batch(m, options);
  b.step(Math.round(m.world.duration / m.world.dt));
  return Array.from(b.q);
}

/** Batch.stepRaw over the scene's default duration, the copies spread apart by `spread` first. */
export function stepRawWholeDurationSpread(path: string, options: BatchOptions, spread: number): ReturnType<Batch['stepRaw']> {
  const model = loadScene(path);
  const b = new Batch(model, options);
  applySpread(b, spread);
  const steps = Math.round(model.world.duration / model.world.dt);
  return b.stepRaw(steps);
}
