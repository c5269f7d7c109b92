// Which stages' gates can catch each planted bug: what a subset of the suite (`--stage`) is judged on.
//
// A subset cannot tell "this bug is out of my reach" from "my gates missed it" by watching values
// move: a dynamics bug moves values that the engine and its reference share (a pose the collision
// stage builds its own pairs from, say), so it would count as reached though no gate of the subset
// compares anything it breaks. Instead every stage declares, per gate, the planted bugs it catches
// (ValidationStage.catches, in each stage's definition.ts); a subset is judged on a bug only when it
// runs one of those gates (and its models reach the bug). The full suite is judged on every bug
// whatever the stages declare.
//
// The declarations are the full suite's own result: for each bug, the gates that failed on it
// (`achilles validate --json` at the default seed, states and bug states: bugs[].stages, 2026-12-02,
// a run where every gate passed on the normal engine: a gate failing without any bug would fail in the
// sweep too and look like a catch), so running any one of those stages alone catches the bug too. A
// full run names any declared gate that did not catch its bug (tableMismatches): update the
// declarations from that run's JSON. This file gathers them into one table.

import { VALIDATION_STAGES } from './registry.js';
import { STAGES, type StageName } from './types.js';

/** bug -> the gates that catch it (in STAGES order), gathered from every registered stage. */
export const BUG_TARGETS: Readonly<Record<string, readonly StageName[]>> = (() => {
  const table: Record<string, StageName[]> = {};
  for (const gate of STAGES) {
    for (const stage of VALIDATION_STAGES) {
      for (const bug of stage.catches[gate] ?? []) {
        const gates = (table[bug] ??= []);
        if (!gates.includes(gate)) gates.push(gate);
      }
    }
  }
  return table;
})();

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
