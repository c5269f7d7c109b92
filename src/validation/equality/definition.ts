// Stage: MuJoCo's equality constraints (connect, weld, joint) against MuJoCo: rows and solves per
// state, and a closed-chain (four-bar) run (the machinery: stage.ts beside this file).

import type { ValidationStage } from '../validation-stage.js';
import { equalityReference, equalityRows, equalityStateCount, type EqualityReference } from './stage.js';

export const equalityStage: ValidationStage<EqualityReference> = {
  name: 'equality',
  description: 'Equality constraints (connect, weld, joint): rows, forces and qacc per state, and a four-bar run, against MuJoCo',
  gates: ['equality'],
  // f64 only, for now: in f32 the rows' and the run's errors sit 1–4× above the float32 floor that
  // MuJoCo's input twins measure (the engine's own float32 arithmetic on the world anchors, whose
  // difference is the violation, is not in that floor); judged at f32 once the floor counts it
  precisions: ['f64'],
  underModelSubset: true,
  bugBuild: true,
  catches: {
    equality: ['equality-connect-anchor-wrong-body', 'equality-weld-orientation-sign', 'equality-joint-polycoef-order'],
  },
  reference(ctx) {
    ctx.log('reference: equality (MuJoCo rows per state, four-bar run)');
    return equalityReference(ctx.python, ctx.seed, ctx.states);
  },
  rows: (ref, ctx) => equalityRows(ref, ctx.precision, ctx.addon, equalityStateCount(ctx.states)),
};
