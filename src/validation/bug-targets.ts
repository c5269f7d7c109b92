// Which stages' gates can catch each planted bug: what a subset of the suite (`--stage`) is judged on.
//
// A subset cannot tell "this bug is out of my reach" from "my gates missed it" by watching values
// move: a dynamics bug moves values that the engine and its reference share (a pose the collision
// stage builds its own pairs from, say), so it would count as reached though no gate of the subset
// compares anything it breaks. Instead every planted bug names the stages that catch it; a subset is
// judged on a bug only when it runs one of them (and its models reach the bug). The full suite is
// judged on every bug whatever this table says.
//
// The table is the full suite's own result: for each bug, the stages with a gate that failed on it
// (`achilles validate --json` at the default seed, states and bug states: bugs[].stages, 2026-12-02,
// a run where every gate passed on the normal engine: a gate failing without any bug would fail in the
// sweep too and look like a catch), so running any one of those stages alone catches the bug too. (The import stage runs the engine on
// its fixtures, so it catches engine bugs as well.) A full run names any declared stage that did not
// catch its bug (tableMismatches): update the table from that run's JSON.

import type { StageName } from './types.js';

export const BUG_TARGETS: Readonly<Record<string, readonly StageName[]>> = {
  // native engine (native/include/achilles/bugs.hpp)
  'hinge-sign': ['kinematics', 'mass-matrix', 'bias', 'forward', 'step', 'trajectory', 'energy', 'exact', 'contact', 'contact-trajectory', 'actuators', 'passive', 'import'],
  'body-as-world-rotation': ['kinematics', 'energy', 'import'],
  'parallel-axis-dropped': ['mass-matrix', 'bias', 'forward', 'step', 'trajectory', 'energy', 'exact', 'contact', 'contact-trajectory', 'actuators', 'passive', 'import'],
  'gyroscopic-sign': ['bias', 'forward', 'step', 'trajectory', 'energy', 'exact', 'contact', 'actuators', 'passive', 'import'],
  'coriolis-dropped': ['bias', 'forward', 'step', 'trajectory', 'energy', 'exact', 'contact', 'actuators', 'passive', 'import'],
  'gravity-sign': ['bias', 'forward', 'step', 'trajectory', 'energy', 'exact', 'contact', 'contact-exact', 'contact-trajectory', 'actuators', 'passive', 'import'],
  'rk4-weight': ['step', 'trajectory', 'energy', 'actuators', 'passive'],
  'verlet-stale-acceleration': ['step', 'trajectory', 'energy'],
  'free-quaternion-world-frame': ['step', 'trajectory', 'passive', 'import'],
  'torque-one-step-late': ['step', 'trajectory'],
  'collision-normal-flipped': ['collision', 'contact', 'contact-exact', 'contact-trajectory', 'import'],
  'collision-radius-dropped': ['collision', 'contact'],
  'collision-box-axis-swapped': ['collision'],
  'collision-margin-ignored': ['collision', 'contact'],
  'collision-manifold-clip': ['collision'],
  'collision-filtered-pair-kept': ['collision', 'import'],
  'contact-edge-sign': ['contact', 'contact-exact', 'contact-trajectory', 'import'],
  'contact-r-dropped': ['contact', 'contact-exact', 'contact-trajectory', 'import'],
  'contact-aref-damping-sign': ['contact', 'contact-exact', 'contact-trajectory', 'import'],
  'contact-warmstart-other-lane': ['contact-exact', 'contact-trajectory'],
  'limit-sign': ['contact', 'contact-trajectory', 'import'],
  'contact-tangent-frame': ['contact', 'contact-exact', 'import'],
  'actuator-effort-one-step-late': ['actuators'],
  'actuator-gear-not-projected': ['actuators'],
  'damping-explicit-in-euler': ['contact-trajectory', 'actuators', 'passive', 'import'],
  'tendon-limit-sign': ['import'],
  'ball-limit-axis-sign': ['import'],
  // sensors (src/sensors/planted-bugs.ts)
  'sensor-latency-off-by-one': ['sensors'],
  'noise-stream-shared-between-lanes': ['sensors'],
  // importer (src/import/bugs.ts)
  'import-euler-order': ['import'],
  'import-inertial-quat-ignored': ['import'],
  'import-fromto-length': ['import'],
  'import-degrees-as-radians': ['import'],
  'import-urdf-rpy-order': ['import'],
  'import-default-not-inherited': ['import'],
  'import-tendon-coef-sign': ['import'],
};

/** The stages whose gates catch `bug`; undefined for a bug the table lacks (a test keeps it complete). */
export function bugTargets(bug: string): readonly StageName[] | undefined {
  return Object.prototype.hasOwnProperty.call(BUG_TARGETS, bug) ? BUG_TARGETS[bug] : undefined;
}

/** Whether a run of `stages` includes a stage that targets `bug` (a bug missing from the table is
 *  targeted by every stage: judged on whatever it changes, never silently dropped). */
export function targetedBy(bug: string, stages: ReadonlySet<StageName>): boolean {
  const t = bugTargets(bug);
  return t === undefined || t.some((s) => stages.has(s));
}

/** Declared stages that did not catch their bug in a full run: a subset of such a stage would be
 *  judged on the bug and fail. (A stage that catches a bug it does not declare does no harm: a
 *  caught bug always counts as caught.) `caughtBy`: bug name -> stages with a failing gate. */
export function tableMismatches(caughtBy: ReadonlyMap<string, readonly StageName[]>): string[] {
  const out: string[] = [];
  for (const [bug, stages] of caughtBy) {
    const missed = (bugTargets(bug) ?? []).filter((s) => !stages.includes(s));
    if (missed.length) out.push(`${bug} (declared ${missed.join(', ')})`);
  }
  return out;
}
