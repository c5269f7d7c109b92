// The columns of results.csv and traces.csv, from the plan alone: every shard of a sweep writes the
// same header, so merged shards and the unsharded run have the same bytes.

import type { SweepPlan } from './plan.js';

/** What each column holds, for the provenance header. */
export const COLUMN_NOTES: Record<string, string> = {
  robot: 'robot index (0-based, over the whole sweep)',
  'init:*': 'the drawn initial value of a coordinate (q:) or velocity (v:), as the robot started with it',
  'param:*': "the drawn value of a model parameter (randomize.model), as written into the robot's model",
  diverged_step:
    "the step (1-based) at which the robot's state first turned NaN or infinite (empty: it never did); such a row has no metrics and no final state",
  diverged_joint: 'the first joint whose coordinate or velocity was not finite then',
  fell: 'true when the kept body went below fall_height at a sampled step',
  fell_time: 'time (s) of the first such sample (empty: never)',
  height: "the kept body's final height (world z, m)",
  min_height: "the kept body's lowest height over the samples (m)",
  kinetic: 'final kinetic energy (J)',
  potential: 'final potential energy (J)',
  total: 'final total energy (J)',
  max_drift: 'largest |E - E(0)| over every step (J)',
  contacts: 'active contact points at the end',
  max_contacts: 'most active contact points at a sample',
  'q:*, v:*': 'the final state',
};

export function resultColumns(plan: SweepPlan): string[] {
  const cols = [
    'robot',
    ...plan.draws.map((d) => `init:${d.name}`),
    ...plan.modelDraws.map((d) => `param:${d.name}`),
    'diverged_step',
    'diverged_joint',
  ];
  for (const m of plan.metrics) {
    if (m === 'fell') cols.push('fell', 'fell_time');
    if (m === 'height') cols.push('height', 'min_height');
    if (m === 'energy') cols.push('kinetic', 'potential', 'total', 'max_drift');
    if (m === 'contacts') cols.push('contacts', 'max_contacts');
  }
  if (plan.final) cols.push(...plan.names.q.map((n) => `q:${n}`), ...plan.names.v.map((n) => `v:${n}`));
  return cols;
}

export function traceColumns(plan: SweepPlan): string[] {
  return ['robot', 'step', 'time', ...plan.names.q.map((n) => `q:${n}`), ...plan.names.v.map((n) => `v:${n}`)];
}
