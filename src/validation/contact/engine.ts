// The engine's side of the per-state contact comparison: at given states, its constraint rows
// and its constrained accelerations (after the model's iteration count, and run to convergence).
// The rows come in blocks (one limit side, or one contact's 1 or 4 rows), each named like
// MuJoCo's (mujoco_contact.py row_name: a limit's joint name, a contact's two shape names sorted
// and joined by `|`) with the contact's point, so the two engines' blocks can be matched whatever
// order each lists them in.

import type { Precision } from '../../engine/api.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import type { TestState } from '../states.js';

export interface RowBlock {
  /** mjtConstraint: 3 joint limit, 5 frictionless contact, 6 pyramidal contact. */
  type: number;
  name: string;
  /** A contact's point (world), a limit's [] . */
  point: number[];
  dist: number[];
  J: number[][];
  aref: number[];
  R: number[];
}

export interface EngineConstraintAnswer {
  blocks: RowBlock[];
  /** After the model's solver.iterations (the default 20). */
  qacc: number[];
  /** Run to convergence (CONVERGED_ITERATIONS). */
  qaccConverged: number[];
}

/** Iterations that count as "run to convergence": conjugate gradient on a strictly convex
 *  piecewise-quadratic cost of nv ≤ 12 unknowns ends in far fewer. */
export const CONVERGED_ITERATIONS = 200;

/** The engine's answers at every state. Throws when the engine has no constraint diagnostics. */
export function engineConstraints(addon: NativeAddon, model: ModelDesc, precision: Precision, states: readonly TestState[]): EngineConstraintAnswer[] {
  void addon;
  void model;
  void precision;
  void states;
  throw new Error('the native engine exposes no constraint rows (the contact solver is not merged yet)');
}
