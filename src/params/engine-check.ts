// Whether the native core takes a model: what it says when it refuses one at load, built once (one
// lane, float64) as loading checks a scene. The per-robot parameters ask it of the models their
// values make, so that a value the engine cannot run is refused naming the parameter, not the engine.

import { toNativeModel } from '../engine/batch.js';
import type { ModelDesc } from '../engine/model-desc.js';
import { engineAddon } from '../engine/native.js';

const OPTIONS = { precision: 'f64', lanes: 1, copies: 1, integrator: 'euler', dt: 0.001, substeps: 1, midpointIterations: 1, threads: 1 };

/** The native core's refusal of `model` at load, or undefined when it takes it. */
export function engineRefusal(model: ModelDesc): string | undefined {
  try {
    new (engineAddon().NativeBatch)(toNativeModel(model), OPTIONS);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
