// The `contact` stage: the engine's constraint rows and constrained accelerations against MuJoCo's
// at seeded random states of models where both engines' detection agrees exactly (spheres,
// capsules, planes: models.ts; multiccd's cylinder–box and capsule–cylinder contacts, each with its
// own normal: models-multiccd.ts; MuJoCo's face clipping of box–mesh and mesh–mesh at zero margin:
// models-clip.ts; and of a cylinder with a box: models-cylinder.ts), row block by row block (matched
// by owner name and contact point):
//   rows.structure   the same blocks with the same row types (exact: 0 or 1)
//   rows.dist        efc_pos (distance, or joint distance to the range end)
//   rows.J           the rows' Jacobians (a pyramid edge is J_n ± μ·J_t: the tangent frame shows here)
//   rows.aref        a_ref = −B·J·v − K·imp·(dist − margin)
//   rows.R           the regulariser (pyramid: R_py for all four edges)
//   qacc             ours run to convergence against MuJoCo's Newton at tolerance 1e-14
//   qacc.newton1     our Newton solver after one iteration against MuJoCo's: the Hessian M + JᵀDJ
//                    of the rows in their quadratic piece, its direction and the exact step (a
//                    converged answer cannot tell a wrong Hessian: any descent direction gets there)
//   qacc.pgs         our PGS (20 sweeps at most, tolerance 1e-8, from qacc_smooth) against MuJoCo's: 20
//                    sweeps stop short of the optimum, so this pins the sweep (row order, shuffle,
//                    momentum, projection, stop); judged in f64, reported in f32
//   qacc.iter20      ours after the model's iteration count (20), against the same: reported beside,
//                    with MuJoCo's own CG capped at 20 iterations (per island, no warm start) next to it
// Errors are relative to the field's size at that state (‖got − ref‖∞ / ‖ref‖∞). Bars as the other
// per-state stages (metrics.ts): f64 F64_BAR; f32 F32_FACTOR × the field's float32 floor, measured as
// MuJoCo's own change when the state and the model constants are perturbed by a float32 half-ulp
// (states.ts perturbState, perturbedModels; F32_PERTURBATIONS twins), the twin's answer stored in
// float32; J's floor also counts what an engine stores to build J (mujoco_contact.py j_floor: every
// contact point and frame entry perturbed by a half-ulp, a free body's translational block formed as
// R·Rᵀ from its float32 rotation the way a body-frame engine like ours forms it — MuJoCo's is the exact
// identity, a documented choice of representation that costs a few float32 ulps on J — J rebuilt and
// stored in float32), since perturbing the inputs barely moves a plane's normal. A state where a twin's rows differ (a contact or limit switching within a half-ulp) is on
// the edge: float32 cannot call it, and it is skipped in f32 and reported.

import type { Precision } from '../../engine/api.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { judgeField } from '../judge.js';
import { F64_BAR, relErr } from '../metrics.js';
import { Rng, seedFor } from '../rng.js';
import { F32_PERTURBATIONS, perturbedModels, perturbState, type TestState } from '../states.js';
import type { CheckRow, Sample } from '../types.js';
import { engineConstraints, type EngineConstraintAnswer, type RowBlock } from './engine.js';
import { armModel, armStates, ballsModel, ballsStates, spinBallsModel } from './models.js';
import { clipModel, clipStates } from './models-clip.js';
import { cylinderClipModel, cylinderClipStates } from './models-cylinder.js';
import { multiccdModel, multiccdOffModel, multiccdStates } from './models-multiccd.js';
import { mujocoConstraints, type ConstraintAnswer } from './mujoco.js';

export const ROW_FIELDS = ['dist', 'J', 'aref', 'R'] as const;

export interface ContactStateReference {
  name: string;
  model: ModelDesc;
  states: TestState[];
  mujoco: ConstraintAnswer[];
  /** [state][twin]: MuJoCo at the float32-perturbed twins. */
  twins: ConstraintAnswer[][];
  /** MuJoCo's answer carries float32 roundings of its own (a mesh's vertices, which it stores in
   *  float32): f64 is judged on the float32 floor too; and the clipped points of a pair come in
   *  another order than MuJoCo's (its hull's triangles are qhull's), so PGS, which sweeps the rows
   *  in order, is reported, not judged. */
  floatMesh?: boolean;
}

/** MuJoCo's rows as blocks (one limit row, or one contact's rows), in MuJoCo's order. */
export function mujocoBlocks(a: ConstraintAnswer): RowBlock[] {
  const e = a.efc;
  const out: RowBlock[] = [];
  for (let i = 0; i < e.type.length;) {
    let j = i + 1;
    // a contact's rows, or an equality constraint's (3, 6 or 1), form one block
    while (j < e.type.length && e.type[j] === e.type[i] && e.id[j] === e.id[i] && (e.type[i] > 4 || e.type[i] === 0)) j++;
    const point = e.type[i] <= 4 ? [] : a.contacts.pos[e.id[i]];
    // a weld's rotation rows are the axis part of a relative quaternion whose sign MuJoCo takes from
    // its body quaternions (a free body's qpos may have w < 0), the engine with w >= 0
    // (contact/equality.hpp): the same rotation, cost and forces; MuJoCo's rows are compared in the
    // engine's convention, negated where its w < 0 (qacc is compared as it is)
    const flip = e.type[i] === 0 && j - i === 6 && (a.weld_w?.[e.name[i]] ?? 0) < 0;
    const sign = (k: number): number => (flip && k >= 3 ? -1 : 1);
    out.push({
      type: e.type[i],
      name: e.name[i],
      point,
      dist: e.pos.slice(i, j).map((x, k) => sign(k) * x),
      J: e.J.slice(i, j).map((row, k) => (sign(k) < 0 ? row.map((x) => -x) : row)),
      aref: e.aref.slice(i, j).map((x, k) => sign(k) * x),
      R: e.R.slice(i, j),
    });
    i = j;
  }
  return out;
}

/** Pairs each reference block with the engine's block of the same owner and type whose point is
 *  nearest (limits: the same side, told by the sign of J); unmatched blocks on either side count. */
export function matchBlocks(ref: readonly RowBlock[], got: readonly RowBlock[]): { pairs: [RowBlock, RowBlock][]; unmatched: number } {
  const free = new Set(got.map((_, i) => i));
  const pairs: [RowBlock, RowBlock][] = [];
  let unmatched = 0;
  // a limit's side: the sign of its J's first non-zero entry (a tendon's J may sum to zero)
  const side = (b: RowBlock) => Math.sign(b.J[0]?.find((x) => x !== 0) ?? 0);
  for (const r of ref) {
    let best = -1;
    let bestD = Infinity;
    for (const i of free) {
      const g = got[i];
      if (g.name !== r.name || g.type !== r.type || g.dist.length !== r.dist.length) continue;
      if ((r.type === 3 || r.type === 4) && side(g) !== side(r)) continue;
      if (r.type === 1 && g.J[0]?.findIndex((x) => x !== 0) !== r.J[0]?.findIndex((x) => x !== 0)) continue; // the same dof
      const d = r.point.length ? Math.hypot(...r.point.map((x, k) => x - (g.point[k] ?? NaN))) : 0;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    if (best < 0) unmatched++;
    else {
      free.delete(best);
      pairs.push([r, got[best]]);
    }
  }
  return { pairs, unmatched: unmatched + free.size };
}

/** Per field, the error of `got` against `ref` over the matched blocks (relative to the state's field size). */
function fieldErrors(
  ref: readonly RowBlock[],
  got: readonly RowBlock[],
): Record<(typeof ROW_FIELDS)[number], number> & { structure: number } {
  const { pairs, unmatched } = matchBlocks(ref, got);
  const flat = (bs: RowBlock[], f: (typeof ROW_FIELDS)[number]) => bs.flatMap((b) => (f === 'J' ? b.J.flat() : b[f]));
  const rs = pairs.map((p) => p[0]);
  const gs = pairs.map((p) => p[1]);
  const err = (f: (typeof ROW_FIELDS)[number]) => (rs.length ? relErr(flat(gs, f), flat(rs, f)) : 0);
  return { structure: unmatched > 0 ? 1 : 0, dist: err('dist'), J: err('J'), aref: err('aref'), R: err('R') };
}

const f32Blocks = (bs: RowBlock[]): RowBlock[] =>
  bs.map((b) => ({
    ...b,
    dist: b.dist.map(Math.fround),
    J: b.J.map((r) => r.map(Math.fround)),
    aref: b.aref.map(Math.fround),
    R: b.R.map(Math.fround),
  }));

/** States per model, CI included: the f32 bars pool each field's floor over the states, and 8 states
 *  measured it low enough that sound f32 answers failed (MuJoCo's side takes ~4 s for 32). */
export const contactStateCount = (states: number) => Math.min(states, 32);

export async function contactStateReferences(python: string, seed: number, states: number): Promise<ContactStateReference[]> {
  const n = contactStateCount(states);
  const cases = [
    { model: ballsModel(), states: ballsStates(n, seedFor(seed, 'contact-balls')) },
    { model: spinBallsModel(), states: ballsStates(n, seedFor(seed, 'contact-spin-balls')) },
    { model: armModel(), states: armStates(n, seedFor(seed, 'contact-arm')) },
    { model: multiccdModel(), states: multiccdStates(n, seedFor(seed, 'contact-multiccd')) },
    { model: multiccdOffModel(), states: multiccdStates(n, seedFor(seed, 'contact-multiccd-off')) },
    { model: clipModel(), states: clipStates(n, seedFor(seed, 'contact-clip')), floatMesh: true },
    { model: cylinderClipModel(), states: cylinderClipStates(n, seedFor(seed, 'contact-cylinder')) },
  ];
  return Promise.all(
    cases.map(async ({ model, states: xs, ...rest }) => {
      const twinsModels = perturbedModels(model, F32_PERTURBATIONS, seedFor(seed, model.name, 'contact-f32'));
      const mujoco = mujocoConstraints(
        python,
        model,
        xs.map((s) => ({ qpos: s.q, qvel: s.v, tau: s.tau })),
        20,
        { seed: seedFor(seed, model.name, 'contact-j-f32'), draws: F32_PERTURBATIONS },
      );
      const twinAnswers = await Promise.all(
        twinsModels.map((tm, k) =>
          mujocoConstraints(
            python,
            tm,
            xs.map((s, i) => {
              const p = perturbState(model, s, new Rng(seedFor(seed, model.name, 'contact-f32-state', String(i), String(k))));
              return { qpos: p.q, qvel: p.v, tau: p.tau };
            }),
          ),
        ),
      );
      return { name: model.name, model, states: xs, mujoco: await mujoco, twins: xs.map((_, i) => twinAnswers.map((t) => t[i])), ...rest };
    }),
  );
}

export interface ContactStateSummary {
  model: string;
  precision: Precision;
  /** Per state: ours after 20 iterations vs converged Newton, and MuJoCo's CG-20 vs its Newton. */
  iter20: number[];
  mujocoCg20: number[];
}

/** The judged rows of one model at one precision (and the 20-iteration errors, for the report). */
export function contactStateRows(
  ref: ContactStateReference,
  precision: Precision,
  addon: NativeAddon,
  maxStates = ref.states.length,
  engine: typeof engineConstraints = engineConstraints,
  stage: 'contact' | 'equality' = 'contact',
): { rows: CheckRow[]; summary: ContactStateSummary } {
  const states = ref.states.slice(0, maxStates);
  const summary: ContactStateSummary = { model: ref.name, precision, iter20: [], mujocoCg20: [] };
  let ours: EngineConstraintAnswer[];
  try {
    ours = engine(addon, ref.model, precision, states);
  } catch (e) {
    const id = { stage, model: ref.name, precision, field: 'constraint-rows' };
    return {
      rows: judgeField(id, [{ state: 0, error: Infinity, stateFloor: 0 }]).map((r) => ({ ...r, bar: 0, note: (e as Error).message })),
      summary,
    };
  }
  const samples: Record<string, Sample[]> = {
    'rows.structure': [],
    ...Object.fromEntries(ROW_FIELDS.map((f) => [`rows.${f}`, []])),
    qacc: [],
    'qacc.newton1': [],
    'qacc.pgs': [],
    'qacc.iter20': [],
  };
  const skipped = new Map<string, string>();
  states.forEach((_, i) => {
    const mj = ref.mujoco[i];
    const refBlocks = mujocoBlocks(mj);
    const twins = ref.twins[i].map(mujocoBlocks);
    // f32 floor per field: the twins' answers (stored in float32) against the exact one
    const floors: Record<string, number> = { dist: 0, J: 0, aref: 0, R: 0, qacc: 0, newton1: 0 };
    let edge = false;
    ref.twins[i].forEach((tw, k) => {
      const e = fieldErrors(refBlocks, f32Blocks(twins[k]));
      if (e.structure) edge = true;
      for (const f of ROW_FIELDS) floors[f] = Math.max(floors[f], e[f]);
      floors.qacc = Math.max(floors.qacc, relErr(tw.newton.qacc.map(Math.fround), mj.newton.qacc));
      floors.newton1 = Math.max(floors.newton1, relErr(tw.newton1.qacc.map(Math.fround), mj.newton1.qacc));
    });
    floors.J = Math.max(floors.J, mj.j_floor ?? 0);
    const floorOf = (f: string) => (precision === 'f32' || ref.floatMesh ? (edge ? Infinity : floors[f]) : 0);
    if (edge) skipped.set(String(i), 'a contact or limit switches within a float32 half-ulp of this state');
    const got = ours[i];
    const e = fieldErrors(refBlocks, got.blocks);
    samples['rows.structure'].push({ state: i, error: e.structure, stateFloor: precision === 'f32' && edge ? Infinity : 0 });
    for (const f of ROW_FIELDS) samples[`rows.${f}`].push({ state: i, error: e[f], stateFloor: floorOf(f) });
    samples.qacc.push({ state: i, error: relErr(got.qaccConverged, mj.newton.qacc), stateFloor: floorOf('qacc') });
    samples['qacc.newton1'].push({ state: i, error: relErr(got.qaccNewton1, mj.newton1.qacc), stateFloor: floorOf('newton1') });
    samples['qacc.pgs'].push({ state: i, error: relErr(got.qaccPgs, mj.pgs.qacc), stateFloor: 0 });
    const e20 = relErr(got.qacc, mj.newton.qacc);
    summary.iter20.push(e20);
    summary.mujocoCg20.push(relErr(mj.cg.qacc, mj.newton.qacc));
    samples['qacc.iter20'].push({ state: i, error: e20, stateFloor: floorOf('qacc') });
  });
  const rows: CheckRow[] = [];
  for (const [field, ss] of Object.entries(samples)) {
    // a model whose MuJoCo answer carries float32 mesh vertices: f64 judged on the float32 floor
    // too (F32_FACTOR × the twins' spread), never below F64_BAR
    const floatBar = ref.floatMesh && precision === 'f64';
    const judged = floatBar
      ? judgeField({ stage, model: ref.name, precision: 'f32', field }, ss).map((r) => {
          const bar = Math.max(F64_BAR, r.bar);
          const status: CheckRow['status'] = r.status === 'skip' ? 'skip' : r.error <= bar ? 'pass' : 'fail';
          return { ...r, precision, bar, status, note: r.note || "judged on the float32 floor: MuJoCo's mesh vertices are float32" };
        })
      : judgeField({ stage, model: ref.name, precision, field }, ss);
    for (const r of judged) {
      if (field === 'rows.structure') {
        // exact: any unmatched block fails (f32 edge states skipped)
        r.bar = 0;
        r.factor = 0;
        r.status = precision === 'f32' && skipped.has(String(r.state)) ? 'skip' : r.error === 0 ? 'pass' : 'fail';
      }
      if (field === 'qacc.newton1' && precision === 'f32') {
        // the twins measure MuJoCo's sensitivity to its inputs, not float32 arithmetic inside one
        // Newton step (H = M + JᵀDJ spans D/M ~ 1e6, so its factor loses ~6 digits in float32):
        // judged in f64, where it pins the Hessian; the converged f32 answer is judged as qacc
        r.bar = Infinity;
        r.status = 'pass';
        r.note =
          'reported, not judged in f32: one Newton step carries float32 rounding of H = M + JᵀDJ that the input twins do not measure';
      }
      if (field === 'qacc.pgs' && ref.floatMesh) {
        r.bar = Infinity;
        r.status = 'pass';
        r.note =
          "reported, not judged: a pair's clipped points come in another order than MuJoCo's (its hull triangles are qhull's), and PGS sweeps the rows in order";
      } else if (field === 'qacc.pgs' && precision === 'f32') {
        // PGS's 20 sweeps carry the float32 rounding of AR = J M⁻¹ Jᵀ + R and of each sweep, which the
        // input twins do not measure: judged in f64, where it pins the sweep
        r.bar = Infinity;
        r.status = 'pass';
        r.note = 'reported, not judged in f32: 20 PGS sweeps carry float32 rounding of AR that the input twins do not measure';
      }
      if (field === 'qacc.iter20') {
        // reported beside the converged answer, not judged: 20 iterations need not converge
        r.bar = Infinity;
        r.status = 'pass';
        r.note = 'reported, not judged: the default 20 iterations against the converged answer';
      }
      if (r.status === 'skip' && skipped.has(String(r.state))) r.note = skipped.get(String(r.state)) ?? r.note;
      rows.push(r);
    }
  }
  return { rows, summary };
}
