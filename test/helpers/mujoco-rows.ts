// Our constraint rows and solved accelerations beside MuJoCo's at given states (test/helpers/contact_ref.py):
// rows matched by content (MuJoCo orders contacts by geom pair), the worst differences returned.
import { fileURLToPath } from 'node:url';
import { Batch } from '../../src/engine/batch.js';
import { withSolver, type ModelDesc } from '../../src/engine/model-desc.js';
import type { NativeAddon } from '../../src/engine/native.js';
import type { Precision } from '../../src/engine/api.js';
import { exportMjcf } from '../../src/model-files/scene/mjcf-writer.js';
import { execFileAsync } from './spawn-async.js';

export interface MjState {
  /** mjtConstraint and mjtConstraintState per row (the state after the Newton solve). */
  type: number[];
  state: number[];
  /** efc_id: the contact (or joint, ...) of each row. */
  id: number[];
  J: number[][];
  pos: number[];
  aref: number[];
  R: number[];
  D: number[];
  force: number[];
  qacc: number[];
  qacc_cg: number[];
  /** Newton stopped after one iteration (its line search to |slope| < 1e-16): the Hessian's direction and the exact step. */
  qacc_newton1: number[];
  /** CG at the same iterations, MuJoCo's default tolerance 1e-8. */
  qacc_cg_tol: number[];
  qacc_smooth: number[];
}

export interface State {
  qpos: number[];
  qvel: number[];
}

/** MuJoCo's rows and accelerations (the model's cone, warm start off) at the states; `cg`: the CG
 *  answer's iterations (20), `newtonTol`: the Newton answer's tolerance (1e-15; 0 runs it until its line
 *  search stalls, at most 1000 iterations). */
export async function mujocoRows(model: ModelDesc, states: State[], o: { cg?: number; newtonTol?: number } = {}): Promise<MjState[]> {
  const geoms = Object.fromEntries((model.shapes ?? []).filter((s) => s.condim).map((s) => [s.name, { condim: s.condim }]));
  const script = fileURLToPath(new URL('./contact_ref.py', import.meta.url));
  const req = {
    xml: exportMjcf(model, { contacts: true }),
    impratio: model.solver!.impratio,
    cone: model.solver!.cone ?? 'pyramidal',
    geoms,
    joints: {},
    states,
    cg: o.cg ?? 20,
    newton_tol: o.newtonTol ?? 1e-15,
  };
  return (JSON.parse(await execFileAsync('python3', [script], { input: JSON.stringify(req) })) as { states: MjState[] }).states;
}

export interface RowsWorst {
  rows: number;
  J: number;
  dist: number;
  aref: number;
  R: number;
  force: number;
  /** Newton run to convergence (relative to max(1, |qacc|)). */
  qacc: number;
  /** CG run to convergence. */
  qaccCg: number;
  /** CG stopped after 20 iterations (tolerance 0), against MuJoCo's 20. */
  qaccCg20: number;
}

/** Each of our rows with MuJoCo's row of the nearest J (max |ΔJ|), each of MuJoCo's taken once: the
 *  engines order contacts differently (MuJoCo by geom pair type). */
export function matchRows<R extends { J: ArrayLike<number> }>(rows: readonly R[], mjJ: number[][]): { r: R; best: number; err: number }[] {
  const free = new Set(mjJ.map((_, i) => i));
  return rows.map((r) => {
    let best = -1,
      err = Infinity;
    for (const i of free) {
      const e = Math.max(...mjJ[i].map((x, c) => Math.abs(x - r.J[c])));
      if (e < err) ((err = e), (best = i));
    }
    free.delete(best);
    return { r, best, err };
  });
}

/** The worst differences from MuJoCo's rows and converged accelerations over the states (our Newton at
 *  `newtonTol`, as the reference's; our CG for `cgIterations`). */
export function compareRows(
  model: ModelDesc,
  states: State[],
  ref: MjState[],
  precision: Precision = 'f64',
  addon?: NativeAddon,
  newtonTol = 1e-15,
  cgIterations = 3000,
): RowsWorst {
  const newton = new Batch(withSolver(model, 'newton', newtonTol, 1000), { copies: 1, precision, lanes: 1 }, addon);
  const cg = new Batch(model, { copies: 1, precision, lanes: 1 }, addon);
  const worst: RowsWorst = { rows: 0, J: 0, dist: 0, aref: 0, R: 0, force: 0, qacc: 0, qaccCg: 0, qaccCg20: 0 };
  states.forEach((st, k) => {
    const mj = ref[k];
    newton.setRobot(0, { q: st.qpos, v: st.qvel });
    const ours = newton.constraints(0);
    if (ours.rows.length !== mj.J.length) throw new Error(`state ${k}: ${ours.rows.length} rows, MuJoCo ${mj.J.length}`);
    for (const { r, best, err } of matchRows(ours.rows, mj.J)) {
      worst.rows++;
      worst.J = Math.max(worst.J, err);
      worst.dist = Math.max(worst.dist, Math.abs(mj.pos[best] - r.dist));
      worst.aref = Math.max(worst.aref, Math.abs(mj.aref[best] - r.aref) / Math.max(1, Math.abs(mj.aref[best])));
      worst.R = Math.max(worst.R, Math.abs(mj.R[best] - r.R) / mj.R[best]);
      worst.force = Math.max(worst.force, Math.abs(mj.force[best] - r.force) / Math.max(1, Math.abs(mj.force[best])));
    }
    const scale = Math.max(1, ...mj.qacc.map(Math.abs));
    worst.qacc = Math.max(worst.qacc, ...mj.qacc.map((x, c) => Math.abs(x - ours.qacc[c]) / scale));
    cg.setRobot(0, { q: st.qpos, v: st.qvel });
    const oursCg = cg.constraints(0, { iterations: cgIterations }).qacc;
    worst.qaccCg = Math.max(worst.qaccCg, ...mj.qacc.map((x, c) => Math.abs(x - oursCg[c]) / scale));
    const oursCg20 = cg.constraints(0, { iterations: 20 }).qacc;
    worst.qaccCg20 = Math.max(worst.qaccCg20, ...mj.qacc_cg.map((x, c) => Math.abs(x - oursCg20[c]) / scale));
  });
  return worst;
}
