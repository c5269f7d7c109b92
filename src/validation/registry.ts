// Every validation stage, one line each. The order is the report's: the stages the planted-bug
// build sweeps run first, all of them at f32 then at f64, then the others (on the normal engine
// only) precision by precision; the planted bugs a stage owns are swept in this order too.
// A new stage: a folder with a definition.ts, and its line here (test/validate-registry.test.ts
// checks that folders and lines agree).

import type { ValidationStage } from './validation-stage.js';
import { perStateStage } from './per-state/definition.js';
import { trajectoryStage } from './trajectory/definition.js';
import { energyStage } from './energy/definition.js';
import { collisionStage } from './collision/definition.js';
import { actuatorsStage } from './actuators/definition.js';
import { generalActuatorsStage } from './general-actuators/definition.js';
import { implicitfastStage } from './implicitfast/definition.js';
import { transmissionsStage } from './transmissions/definition.js';
import { contactStage } from './contact/definition.js';
import { contactExactStage } from './contact-exact/definition.js';
import { contactTrajectoryStage } from './contact-trajectory/definition.js';
import { equalityStage } from './equality/definition.js';
import { sensorsStage } from './sensors/definition.js';
import { importStage } from './import/definition.js';
import { mjcfSensorsStage } from './mjcf-sensors/definition.js';
import { exactStage } from './exact/definition.js';
import { paramsStage } from './params/definition.js';

export const VALIDATION_STAGES: readonly ValidationStage[] = [
  perStateStage,
  trajectoryStage,
  energyStage,
  collisionStage,
  actuatorsStage,
  generalActuatorsStage,
  implicitfastStage,
  transmissionsStage,
  contactStage,
  contactExactStage,
  contactTrajectoryStage,
  equalityStage,
  sensorsStage,
  importStage,
  mjcfSensorsStage,
  exactStage,
  paramsStage,
];
