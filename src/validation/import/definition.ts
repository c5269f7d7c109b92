// Stage 16: models imported from MJCF and URDF (test/fixtures/import/) against MuJoCo's compile of
// the same files, and run with their tendons and contacts (the machinery: stage.ts and
// constrained.ts beside this file). Its planted bugs include the importer's (src/model-files/import/bugs.ts).

import { PRECISIONS } from '../../engine/api.js';
import { IMPORT_BUGS, setImportBug, type ImportBug } from '../../model-files/import/bugs.js';
import type { ValidationStage } from '../validation-stage.js';
import { importReference, importRows, type ImportReference } from './stage.js';

/** States per import fixture (the first is the initial configuration): the importer's mistakes
 *  show at any state, so a few suffice and the stage stays cheap in CI. */
const IMPORT_STATES = 8;

export const importStage: ValidationStage<ImportReference> = {
  name: 'import',
  description: 'Imported MJCF and URDF fixtures against MuJoCo compiling the same files, and their constrained runs',
  gates: ['import'],
  precisions: PRECISIONS,
  underModelSubset: true,
  bugBuild: true,
  // It runs the engine on its fixtures, so it catches engine bugs as well.
  catches: {
    import: [
      'hinge-sign',
      'body-as-world-rotation',
      'parallel-axis-dropped',
      'gyroscopic-sign',
      'coriolis-dropped',
      'gravity-sign',
      'free-quaternion-world-frame',
      'collision-normal-flipped',
      'collision-filtered-pair-kept',
      'contact-edge-sign',
      'contact-r-dropped',
      'contact-aref-damping-sign',
      'limit-sign',
      'contact-tangent-frame',
      'damping-explicit-in-euler',
      'tendon-limit-sign',
      'ball-limit-axis-sign',
      'import-euler-order',
      'import-inertial-quat-ignored',
      'import-fromto-length',
      'import-degrees-as-radians',
      'import-urdf-rpy-order',
      'import-default-not-inherited',
      'import-tendon-coef-sign',
      'import-springdamper-ratio',
      'actuator-tendon-moment-sign',
      'convex-epa-normal-sign',
      'convex-box-support-corner-sign',
      'import-mesh-hull-drops-vertex',
      'import-mesh-inertia-about-origin',
      'import-mesh-hull-frame-dropped',
      'contact-torsion-axis',
      'contact-rolling-coefficient',
      'cone-middle-dm-factor',
      'cone-friction-r-impratio-ignored',
      'contact-perturbed-normal-shared',
      'fluid-added-mass-dropped',
      'fluid-kutta-lift-sign',
      'fluid-box-wind-ignored',
      'noslip-skips-friction-rows',
      'contact-priority-ignored',
      'contact-gap-row-kept',
    ],
  },
  ownBugs: { names: IMPORT_BUGS, set: (name) => setImportBug(name as ImportBug | 'none'), listedWhenNotRun: false },
  reference(ctx) {
    ctx.log('reference: MuJoCo compiling the import fixtures');
    return importReference(ctx.python, ctx.seed, IMPORT_STATES, ctx.models);
  },
  // compile gates f64; constrained gates (tendons, contacts) both
  rows: (ref, ctx) => importRows(ref, ctx.addon, ctx.precision),
};
