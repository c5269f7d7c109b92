// The import stage's constrained gates: fixtures whose dynamics go through the constraint solver
// (fixed tendons, contacts, limits) against MuJoCo compiling the same file with constraints ON
// (validation/mujoco_contact.py given the fixture's own XML, not our export of it):
//   tendon.length, tendon.velocity  per state: the engine's L = Σ coef·q and L̇ = J·q̇ against MuJoCo's
//                    ten_length, ten_velocity (relative to the largest |L|, |L̇|, at least 1)
//   tendon.moment    per state: the imported coefficients on their dofs against MuJoCo's ten_J
//   rows.*, qacc (constraints on)  per state, the contact stage's machinery (per-state.ts contactStateRows): every
//                    constraint row (dry friction, joint and tendon limits, contacts) matched by owner
//                    and side, dist, J, a_ref, R, and the converged constrained q̈ against Newton's
//   trajectory (q)   a short run from the file's initial state (its keyframe), our CG against MuJoCo's
//                    CG at the file's iteration count (tolerance 0, both), max |q − q_MuJoCo| per step,
//                    judged as the trajectory stages (judge.ts judgeOverTime): f64 F64_BAR, f32
//                    F32_FACTOR × MuJoCo's own change when the model and start are perturbed by a float32
//                    half-ulp and its state stored in float32 every step (our export of the perturbed
//                    twins, F32_PERTURBATIONS of them).
// Fixtures with tendons, ball-joint cone limits, equality constraints or noslip (pyramidal) get the per-state gates (the
// equality rows matched by the constraint's name: the anchors and relative poses the importer made at
// MuJoCo's qpos0 against MuJoCo's own compile of the file); so do fixtures whose geoms set priority or
// solmix, at states about their keyframe (key-states.ts: the contact pairs' mixed parameters in every
// row, contacts moving in and out of their margins); the fixtures in TRAJECTORY_SECONDS also the trajectory.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import { coordinateLayout, withSolver, type ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { importFile } from '../../model-files/import/index.js';
import { judgeField, judgeOverTime } from '../judge.js';
import { relErr } from '../metrics.js';
import { Rng, seedFor } from '../rng.js';
import { F32_PERTURBATIONS, perturbedModels, perturbState, type TestState } from '../states.js';
import type { CheckRow, Sample } from '../types.js';
import { contactStateRows, type ContactStateReference } from '../contact/per-state.js';
import { contactXml, queryContact, type ConstraintAnswer, type ContactQuery, type RolloutAnswer } from '../contact/mujoco.js';
import { engineRollout } from '../contact/rollout.js';
import { keyContactStates } from './key-states.js';
import { meshContactStates } from './mesh-states.js';
import { restingStates } from './resting-states.js';

/** The fixture starting from its first keyframe when it has one (the fixtures' keys set up the motion
 *  the trajectory gate watches; a plain import starts from qpos0, as MuJoCo's mj_resetData). */
function importAtKey(path: string): ModelDesc {
  const imp = importFile(path);
  return imp.keyframes.length ? importFile(path, { keyframe: '0' }).model : imp.model;
}

/** Seconds of the trajectory gate per fixture (short: the stage must stay quick in CI). */
export const TRAJECTORY_SECONDS: Record<string, number> = {
  'import:mjcf-tendon-coupling.xml': 0.6,
  'import:mjcf-tendon-hipknee.xml': 0.5,
  'import:mjcf-contact-drop.xml': 0.5,
  'import:mjcf-contact-convex.xml': 0.5,
  'import:mjcf-contact-multiccd.xml': 0.5,
  'import:mjcf-ball-limit.xml': 0.5,
  'import:mjcf-equality.xml': 0.3,
  'import:mjcf-qpos0.xml': 0.5,
  'import:mjcf-condim.xml': 0.5,
  'import:mjcf-elliptic.xml': 0.5,
  'import:mjcf-fluid.xml': 0.5,
  'import:mjcf-fluid-euler.xml': 0.5,
  'import:mjcf-noslip.xml': 0.5,
  'import:mjcf-noslip-elliptic.xml': 0.5,
  'import:mjcf-springdamper.xml': 0.5,
  'import:mjcf-contact-priority.xml': 0.5,
};
/** Random states of the per-state gates (the f32 bars pool each field's floor over them). */
export const CONSTRAINED_STATES = 24;

export interface TendonAnswer {
  ten_length: number[];
  ten_velocity: number[];
  ten_J: number[][];
}

export interface ConstrainedFixtureRef {
  name: string;
  path: string;
  model: ModelDesc;
  /** Per-state rows and tendons (fixtures with tendons); twinTendons[twin][state]: MuJoCo at the float32-perturbed twins. */
  perState?: { ref: ContactStateReference; tendons: TendonAnswer[]; twinTendons: TendonAnswer[][] };
  /** The run from the initial state (fixtures in TRAJECTORY_SECONDS). */
  trajectory?: { steps: number; mujoco: RolloutAnswer; twins: RolloutAnswer[] };
}

/** Random states with every hinge/slide in ±2 (rad or m), velocities in ±2, forces in ±1; free and
 *  ball joints at unit quaternions (the same draw as the import stage's). */
function randomStates(model: ModelDesc, n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  const { nv } = coordinateLayout(model.bodies);
  const u = (): number => 2 * rng.next() - 1;
  const quat = (): number[] => {
    const q = [u(), u(), u(), u()];
    const k = Math.hypot(...q) || 1;
    return q.map((x) => x / k);
  };
  return Array.from({ length: n }, () => ({
    q: model.bodies.flatMap((b) =>
      b.joint === 'revolute' || b.joint === 'prismatic'
        ? [2 * u()]
        : b.joint === 'ball'
          ? quat()
          : b.joint === 'free'
            ? [u(), u(), 0.5 + u(), ...quat()]
            : b.joint === 'planar'
              ? [u(), u(), 2 * u()]
              : [],
    ),
    v: Array.from({ length: nv }, () => 2 * u()),
    tau: Array.from({ length: nv }, () => u()),
  }));
}

/** MuJoCo's answers for one fixture: one Python process for the file itself and one per float32
 *  twin (our export of the perturbed model), each answering every query of its model. */
export async function constrainedFixtureReference(
  python: string,
  seed: number,
  f: { name: string; path: string; seconds?: number; meshStates?: boolean },
): Promise<ConstrainedFixtureRef | undefined> {
  const model = importAtKey(f.path);
  const tendons = (model.tendons?.length ?? 0) > 0;
  const ballLimits = model.bodies.some((b) => b.joint === 'ball' && b.range); // cone rows: the per-state gates too
  const equalities = (model.equalities?.length ?? 0) > 0; // equality rows, with what the import made at qpos0
  // mesh hulls on a floor, on request (test/mesh-hulls.test.ts): their contacts, at states where they touch
  const meshes = f.meshStates === true;
  // noslip after the solver (the pyramid: the per-state gates also run PGS, which takes no elliptic
  // cone), at states where the bodies rest on each other (resting-states.ts)
  const noslip = (model.solver?.noslipIterations ?? 0) > 0 && model.solver?.cone !== 'elliptic';
  // contact pairs that take one geom's parameters or mix them by solmix: at states about the keyframe
  const mixes = (model.shapes ?? []).some((s) => s.priority !== undefined || s.solmix !== undefined);
  const perState = tendons || ballLimits || equalities || meshes || noslip || mixes;
  const seconds = f.seconds ?? TRAJECTORY_SECONDS[f.name];
  if (!perState && seconds === undefined) return undefined;
  // MuJoCo reads the text, not the file: a mesh file named relative to the model's folder is named by its full path
  const xml = readFileSync(f.path, 'utf8').replace(/\bfile="(?!\/)([^"]*)"/g, (_, name: string) => `file="${join(dirname(f.path), name)}"`);
  const iterations = model.solver?.iterations ?? 100;
  const stateSeed = seedFor(seed, f.name, 'constrained');
  const states = !perState
    ? []
    : meshes
      ? meshContactStates(model, CONSTRAINED_STATES, stateSeed)
      : noslip
        ? restingStates(model, CONSTRAINED_STATES, stateSeed)
        : mixes
          ? keyContactStates(model, CONSTRAINED_STATES, stateSeed)
          : randomStates(model, CONSTRAINED_STATES, stateSeed);
  const steps = seconds === undefined ? 0 : Math.round(seconds / model.world.dt);
  const s0: TestState = {
    q: model.bodies.flatMap((b) => b.q0),
    v: model.bodies.flatMap((b) => b.v0),
    tau: model.bodies.flatMap((b) => b.tau),
  };
  const cg = { solver: 'cg' as const, iterations, tolerance: 0 };
  const st = (s: TestState) => ({ qpos: s.q, qvel: s.v, tau: s.tau });
  // per model: the states' constraint rows, their tendons, then (with a trajectory) the rollout
  const queries = (ss: readonly TestState[], start: TestState, twin: boolean, jseed: number): ContactQuery[] => [
    ...ss.map((s, i): ContactQuery => ({
      kind: 'constraint',
      cg_iterations: 20,
      ...st(s),
      ...(twin ? {} : { j_floor: true, seed: jseed + i, draws: F32_PERTURBATIONS }),
    })),
    ...ss.map((s): ContactQuery => ({ kind: 'tendon', ...st(s) })),
    ...(steps ? [{ kind: 'rollout', steps, ...cg, ...(twin ? { round32: true } : {}), ...st(start) } as ContactQuery] : []),
  ];
  const split = (a: unknown[]) => ({
    rows: a.slice(0, states.length) as ConstraintAnswer[],
    tendons: a.slice(states.length, 2 * states.length) as TendonAnswer[],
    rollout: a[2 * states.length] as RolloutAnswer,
  });
  const twinModels = perturbedModels(model, F32_PERTURBATIONS, seedFor(seed, f.name, 'constrained-f32'));
  const [mine, ...twins] = await Promise.all([
    queryContact(python, xml, queries(states, s0, false, seedFor(seed, f.name, 'j-f32'))).then(split),
    ...twinModels.map((tm, k) => {
      const rng = (...tag: string[]) => new Rng(seedFor(seed, f.name, 'constrained-f32-state', ...tag, String(k)));
      const ts = states.map((s, i) => perturbState(model, s, rng(String(i))));
      return queryContact(python, contactXml(tm), queries(ts, perturbState(model, s0, rng('start')), true, 0)).then(split);
    }),
  ]);
  const out: ConstrainedFixtureRef = { name: f.name, path: f.path, model };
  if (perState) {
    out.perState = {
      ref: { name: f.name, model, states, mujoco: mine.rows, twins: states.map((_, i) => twins.map((t) => t.rows[i])) },
      tendons: mine.tendons,
      twinTendons: twins.map((t) => t.tendons),
    };
  }
  if (steps) out.trajectory = { steps, mujoco: mine.rollout, twins: twins.map((t) => t.rollout) };
  return out;
}

/** The constrained gates of one fixture at one precision (stage 'import'). */
export function constrainedRows(ref: ConstrainedFixtureRef, precision: Precision, addon: NativeAddon): CheckRow[] {
  const rows: CheckRow[] = [];
  let model: ModelDesc;
  try {
    model = importAtKey(ref.path); // the importer as it is now (a planted bug may be set)
  } catch (e) {
    return judgeField({ stage: 'import', model: ref.name, precision, field: 'import' }, [{ state: 0, error: Infinity, stateFloor: 0 }]).map(
      (r) => ({ ...r, note: (e as Error).message }),
    );
  }
  if (ref.perState) {
    const { ref: cs, tendons, twinTendons } = ref.perState;
    if ((model.tendons?.length ?? 0) > 0) rows.push(...tendonRows(ref.name, model, cs.states, tendons, twinTendons, precision, addon));
    const c = contactStateRows({ ...cs, model }, precision, addon);
    // f32 J of a model with equality rows is not judged: its floor (MuJoCo's float32 twins, and the
    // j_floor of contact rows) does not count the engine's own float32 arithmetic on the bodies'
    // rotations that an equality row's J is made of (measured on mjcf-equality.xml: 5.96e-7 against a
    // bar of 1.97e-7, the same gap for which the equality stage runs f64 only); dist, aref, R and the
    // constrained q̈ are judged. Nor on the noslip fixtures' resting states, for the same reason: the box
    // turned 12 degrees to rest on the tilted plane puts its corners' float32 rotation into the box–plane
    // rows' J (measured on mjcf-noslip.xml: 8.6e-7 at 3 of 24 states against a bar of 6.7e-7; f64 J 1e-15)
    const noslipStates = (model.solver?.noslipIterations ?? 0) > 0;
    const skipJ = precision === 'f32' && ((model.equalities?.length ?? 0) > 0 || noslipStates);
    // (q̈ renamed: the compile gates' free-space `qacc` is another field)
    rows.push(
      ...c.rows
        .filter((r) => !(skipJ && r.field === 'rows.J'))
        .map((r) => ({ ...r, stage: 'import' as const, field: r.field.replace(/^qacc/, 'qacc (constraints on)') })),
    );
  }
  if (ref.trajectory) {
    const t = ref.trajectory;
    // our CG at the file's iteration count, tolerance 0, as MuJoCo's reference run (whatever the file's solver)
    const cgModel = withSolver(model, 'cg', 0, model.solver?.iterations ?? 100);
    const ours = engineRollout(cgModel, precision, addon, { steps: t.steps });
    const samples: Sample[] = t.mujoco.qpos.map((q, k) => {
      const got = ours.q[0][k];
      let err = 0;
      q.forEach((x, i) => (err = Math.max(err, Math.abs(got[i] - x) || (Number.isNaN(got[i] - x) ? Infinity : 0))));
      const floor =
        precision === 'f32'
          ? Math.max(0, ...t.twins.map((tw) => Math.max(...tw.qpos[k].map((x, i) => Math.abs(Math.fround(x) - q[i])))))
          : 0;
      return { state: 0, t: (k + 1) * model.world.dt, error: err, stateFloor: floor };
    });
    rows.push(...judgeOverTime({ stage: 'import', model: ref.name, precision, field: 'trajectory q (constraints on)' }, samples));
  }
  return rows;
}

/** Tendon lengths, velocities (the engine) and moments (the import) against MuJoCo's at each state;
 *  f32 floors: MuJoCo's twins (perturbed by a float32 half-ulp) stored in float32, against the exact answer. */
function tendonRows(
  name: string,
  model: ModelDesc,
  states: readonly TestState[],
  mj: readonly TendonAnswer[],
  twins: readonly TendonAnswer[][],
  precision: Precision,
  addon: NativeAddon,
): CheckRow[] {
  const tendons = model.tendons ?? [];
  const { vOffset, nv } = coordinateLayout(model.bodies);
  const J = Array.from({ length: tendons.length }, () => new Array<number>(nv).fill(0));
  tendons.forEach((t, i) => t.joints.forEach((j) => (J[i][vOffset[j.body]] += j.coef)));
  const b = new Batch(model, { copies: states.length, precision }, addon);
  states.forEach((s, r) => b.setRobot(r, s));
  const samples: Record<string, Sample[]> = { 'tendon.length': [], 'tendon.velocity': [], 'tendon.moment': [] };
  const scaled = (got: readonly number[], ref: readonly number[]) =>
    got.length === ref.length ? relErr(got, ref, Math.max(1, ...ref.map(Math.abs))) : Infinity;
  states.forEach((_, r) => {
    const st = b.constraints(r, { iterations: 0 });
    const ref = mj[r];
    const floor = (f: 'ten_length' | 'ten_velocity') =>
      precision === 'f32' ? Math.max(0, ...twins.map((tw) => scaled(tw[r][f].map(Math.fround), ref[f]))) : 0;
    samples['tendon.length'].push({ state: r, error: scaled(st.tendonLength, ref.ten_length), stateFloor: floor('ten_length') });
    samples['tendon.velocity'].push({ state: r, error: scaled(st.tendonVelocity, ref.ten_velocity), stateFloor: floor('ten_velocity') });
    samples['tendon.moment'].push({
      state: r,
      error: J.length === ref.ten_J.length ? relErr(J.flat(), ref.ten_J.flat(), 1) : Infinity,
      stateFloor: 0,
    });
  });
  return Object.entries(samples).flatMap(([field, ss]) => judgeField({ stage: 'import', model: name, precision, field }, ss));
}
