// The engine's side of the per-state contact comparison: at given states, its constraint rows
// and its constrained accelerations (after the model's iteration count, and run to convergence).
// The rows come in blocks (one limit side, or one contact's 1 or 4 rows), each named like
// MuJoCo's (mujoco_contact.py row_name: a limit's joint name, a contact's two shape names sorted
// and joined by `|`) with the contact's point, so the two engines' blocks can be matched whatever
// order each lists them in.

import type { Precision } from '../../engine/api.js';
import { withSolver, type ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { Batch } from '../../engine/batch.js';
import type { TestState } from '../states.js';

export interface RowBlock {
  /** mjtConstraint: 1 dof friction, 3 joint limit, 5 frictionless contact, 6 pyramidal contact. */
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
  /** The Newton solver stopped after one iteration per island (tolerance 1e-14, as MuJoCo's newton1). */
  qaccNewton1: number[];
  /** PGS from qacc_smooth, at most 20 sweeps per island, tolerance 1e-8 (as MuJoCo's pgs). */
  qaccPgs: number[];
}

/** Iterations that count as "run to convergence": conjugate gradient on a strictly convex
 *  piecewise-quadratic cost of nv ≤ 24 unknowns ends far sooner (contact-solver's note: 2000 in f64). */
export const CONVERGED_ITERATIONS = 2000;

/** What Batch.constraints(robot, {iterations, warm}) returns (contact-solver's diagnostic, read by
 *  shape so this file does not depend on its types). */
interface EngineRow {
  kind: 'limit' | 'contact' | 'friction' | 'tendon-limit' | 'tendon-friction' | 'equality';
  /** equality rows: the row within its constraint. */
  row?: number;
  /** friction rows: which of the body's dofs. */
  dof?: number;
  id: number;
  side?: number;
  point?: number;
  edge: number;
  dist: number;
  aref: number;
  R: number;
  J: number[];
}
interface EngineState {
  qacc: number[];
  rows: EngineRow[];
  contacts: { pair: number; shapeA: number; shapeB: number; point: number; pos: number[] }[];
}
type Diagnosable = Batch & { constraints?: (robot: number, o: { iterations?: number; warm?: boolean }) => EngineState };

/** The engine's rows as blocks: a limit side alone, a contact point's rows in edge order (MuJoCo's). */
export function engineBlocks(model: ModelDesc, st: EngineState): RowBlock[] {
  const shapes = model.shapes ?? [];
  const blocks = new Map<string, { type: number; name: string; point: number[]; rows: EngineRow[] }>();
  for (const r of st.rows) {
    const key =
      r.kind === 'limit'
        ? `l${r.id}:${r.side ?? 0}`
        : r.kind === 'friction'
          ? `f${r.id}:${r.dof ?? 0}`
          : r.kind === 'contact'
            ? `c${r.id}:${r.point ?? 0}`
            : r.kind === 'equality'
              ? `e${r.id}`
              : `${r.kind}${r.id}:${r.side ?? 0}`;
    let b = blocks.get(key);
    if (!b) {
      // MuJoCo's mjtConstraint: 0 equality, 1 friction dof, 2 friction tendon, 3 limit joint, 4 limit tendon, 5/6/7 contact
      if (r.kind === 'equality') b = { type: 0, name: model.equalities?.[r.id]?.name ?? `#${r.id}`, point: [], rows: [] };
      else if (r.kind === 'tendon-limit' || r.kind === 'tendon-friction')
        b = { type: r.kind === 'tendon-limit' ? 4 : 2, name: model.tendons?.[r.id]?.name ?? `#${r.id}`, point: [], rows: [] };
      else if (r.kind === 'limit') b = { type: 3, name: model.bodies[r.id].name, point: [], rows: [] };
      else if (r.kind === 'friction') b = { type: 1, name: model.bodies[r.id].name, point: [], rows: [] };
      else {
        // a contact row's point is on, so the point's entry names the pair's shapes
        const c = st.contacts.find((x) => x.pair === r.id && x.point === (r.point ?? 0));
        const name = c ? [shapes[c.shapeA].name, shapes[c.shapeB].name].sort().join('|') : `pair #${r.id}`;
        b = { type: model.solver?.cone === 'elliptic' ? 7 : 6, name, point: c ? [...c.pos] : [], rows: [] };
      }
      blocks.set(key, b);
    }
    b.rows.push(r);
  }
  return [...blocks.values()].map((b) => {
    const rows = [...b.rows].sort((x, y) => x.edge - y.edge || (x.row ?? 0) - (y.row ?? 0));
    const type = b.type >= 6 && rows.length === 1 ? 5 : b.type; // condim 1: frictionless under either cone
    return {
      type,
      name: b.name,
      point: b.point,
      dist: rows.map((r) => r.dist),
      J: rows.map((r) => [...r.J]),
      aref: rows.map((r) => r.aref),
      R: rows.map((r) => r.R),
    };
  });
}

/** The engine's answers at every state (one batch, one robot per state; no warm start, as MuJoCo's
 *  reference). Throws when the engine has no constraint diagnostics. */
export function engineConstraints(
  addon: NativeAddon,
  model: ModelDesc,
  precision: Precision,
  states: readonly TestState[],
): EngineConstraintAnswer[] {
  // rows and the converged answer from CG at tolerance 0 (a model that runs Newton at MuJoCo's 1e-8
  // stops cost-accurate, not converged); the Newton solver is pinned by its first step below
  const cgModel = withSolver(model, 'cg', 0, 20);
  const b = new Batch(cgModel, { copies: states.length, precision }, addon) as Diagnosable;
  if (typeof b.constraints !== 'function')
    throw new Error('the native engine exposes no constraint rows (Batch.constraints: the contact solver is not merged)');
  states.forEach((s, r) => b.setRobot(r, s));
  const iterations = model.solver?.iterations ?? 20;
  // the same model on the Newton solver (every contact model here has nv <= NEWTON_MAX_DOFS)
  const newtonModel = withSolver(model, 'newton', 1e-14, 1);
  const bn = new Batch(newtonModel, { copies: states.length, precision }, addon) as Diagnosable;
  states.forEach((s, r) => bn.setRobot(r, s));
  const bp = new Batch(withSolver(model, 'pgs', 1e-8, 20), { copies: states.length, precision }, addon) as Diagnosable;
  states.forEach((s, r) => bp.setRobot(r, s));
  return states.map((_, r) => {
    const st = b.constraints!(r, { iterations, warm: false });
    const conv = b.constraints!(r, { iterations: CONVERGED_ITERATIONS, warm: false });
    const n1 = bn.constraints!(r, { iterations: 1, warm: false });
    const pgs = bp.constraints!(r, { iterations: 20, warm: false });
    return {
      blocks: engineBlocks(model, conv),
      qacc: [...st.qacc],
      qaccConverged: [...conv.qacc],
      qaccNewton1: [...n1.qacc],
      qaccPgs: [...pgs.qacc],
    };
  });
}
