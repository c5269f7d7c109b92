// Load-time refusal of a singular model, named at the link's own line and column.
//
// The check itself lives in the native core (Model::check_effective_inertia, native/src/model.cpp),
// so one definition guards both loading and the engine: every moving joint needs mass in its
// subtree, and the ABA's D = Sᵀ·IA·S at the initial configuration, scaled by the locked-subtree
// inertia, must be positive definite with every Cholesky pivot above 1e-6. Loading builds the
// native model once (one lane, float64) and turns its complaint into a SceneError.

import type { ModelDesc } from '../../engine/model-desc.js';
import { toNativeModel } from '../../engine/batch.js';
import { engineAddon } from '../../engine/native.js';
import { SceneError } from '../common/errors.js';

const OPTIONS = { precision: 'f64', lanes: 1, copies: 1, integrator: 'euler', dt: 0.001, substeps: 1, midpointIterations: 1, threads: 1 };

export function checkEffectiveInertia(model: ModelDesc): void {
  try {
    new (engineAddon().NativeBatch)(toNativeModel(model), OPTIONS);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const m = /^joint '(.*?)': (.*)$/s.exec(msg);
    const body = m ? model.bodies.find((b) => b.name === m[1]) : undefined;
    if (!m || !body) throw e;
    const src = body.source ?? { file: model.files[0], line: 1, column: 1 };
    throw new SceneError({
      file: src.file,
      line: src.line,
      column: src.column,
      subject: `link ${body.name}`,
      found: m[2],
      expected: 'a joint with positive effective inertia (the model is refused at load, never at step time)',
    });
  }
}
