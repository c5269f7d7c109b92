// The `implicitfast` stage: MuJoCo's implicitfast integrator against MuJoCo's own
// (validation/mujoco_implicit.py, m.opt.integrator = implicitfast), on the models of models.ts.
//
// Per state (f64): one mj_step from a state (q, q̇, act, ctrl) against one engine step from it, q', q̇'
//   and act' relative to each field's largest value, within F64_BAR. Random states (controls beyond
//   ctrlrange and activations beyond actrange included) for the models without constraints; for the
//   contact and tendon models, states along MuJoCo's own run (overlapping bodies at random would
//   judge the contact solver, not the integrator), where both solve the constraints to convergence
//   (SOLVED: tolerance 0, 100 iterations; from a zero warm start, a solve stopped by the model's
//   tolerance 1e-8 differs by ~1e-6 between two correct solvers).
// Over a run (f32 and f64): RUN_STEPS steps under sine controls that leave ctrlrange, q, q̇ and act
//   compared at every step (one report row per window of WINDOW steps: its worst step relative to
//   the bar). The bars come from MuJoCo's own sensitivity, measured on the same run:
//   f64: F64_RUN_FACTOR × the running maximum of the larger change of MuJoCo's run when its initial
//        state moves by one float64 ulp, or when every state component moves by one ulp after every
//        step (a float64 engine's round-off, step after step); at least F64_RUN_MIN (absolute).
//   f32: F32_FACTOR × the running maximum of MuJoCo's change when it stores its state in float32
//        after every step, rounded to nearest, or first multiplied by 1 + δ (|δ| ≤ 2⁻²⁴, fresh every
//        step; F32_RUNS seeds); at least F32_RUN_MIN (the general-actuators stage's f32 run bar).

import type { Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import { hasActivation, type ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { exportMjcf } from '../../model-files/scene/index.js';
import { DEFAULT_SOLVER } from '../../model-files/scene/contact-settings.js';
import { importFile } from '../../model-files/import/index.js';
import { runPythonJson } from '../mujoco-ref.js';
import { F32_FACTOR, F64_BAR, maxAbs, relErr } from '../metrics.js';
import { Rng, seedFor } from '../rng.js';
import { randomStates } from '../states.js';
import type { CheckRow } from '../types.js';
import { checkRow, column } from '../judge.js';
import { generalArm } from '../general-actuators/models.js';
import { FIXTURES, servoChain, tumblingBody } from './models.js';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../validation/mujoco_implicit.py', import.meta.url));
export const RUN_STEPS = 1000; // 2 s at 2 ms
const WINDOW = 25;
const STATES = 16;
/** See the header: the factors on MuJoCo's measured floors, and the least bars. */
export const F64_RUN_FACTOR = 100;
export const F64_RUN_MIN = 1e-13;
export const F32_RUN_MIN = 1e-5;
const F32_RUNS = 4;
const SOLVED = { iterations: 100, tolerance: 0 };
const FIELDS = ['q', 'v', 'act'] as const;
type Field = (typeof FIELDS)[number];

interface Run {
  qpos: number[][];
  qvel: number[][];
  act: number[][];
}
const part = (r: Run, f: Field) => (f === 'q' ? r.qpos : f === 'v' ? r.qvel : r.act);

interface StateRef {
  q: number[];
  v: number[];
  act: number[];
  ctrl: number[];
  next: Run; // one step: qpos[0], qvel[0], act[0]
}

export interface ImplicitModelRef {
  name: string;
  model: ModelDesc;
  q0: number[];
  v0: number[];
  /** ctrl[k][a]: the control of actuator a before step k. */
  ctrl: number[][];
  run: Run;
  /** Per field and step: MuJoCo's float64 and float32 floors (running maxima, see the header). */
  floor64: Record<Field, number[]>;
  floor32: Record<Field, number[]>;
  states: StateRef[];
  /** The per-state checks are at states along the run, solved to convergence (SOLVED). */
  alongRun: boolean;
}

export interface ImplicitReference {
  models: ImplicitModelRef[];
}

/** The controls of the run: a sine per actuator, amplitude 1.3 (beyond the ctrlranges of ±1). */
function controls(nu: number, steps: number, h: number): number[][] {
  return Array.from({ length: steps }, (_, k) =>
    Array.from({ length: nu }, (_, a) => 1.3 * Math.sin(2 * Math.PI * (0.6 + 0.35 * a) * k * h + 0.7 * a)),
  );
}

const maxDiff = (a: number[], b: number[]) => Math.max(0, ...a.map((x, n) => Math.abs(x - b[n])));
/** Running maximum over the steps of the largest change of any run in `runs` from `exact`. */
function floorOf(exact: Run, runs: Run[], f: Field): number[] {
  let m = 0;
  return part(exact, f).map((x, k) => (m = Math.max(m, ...runs.map((r) => maxDiff(part(r, f)[k], x)))));
}

interface Source {
  name: string;
  model: ModelDesc;
  request: object;
  v0?: number[];
  /** Per-state checks at states along MuJoCo's run (constrained models) rather than random ones. */
  alongRun: boolean;
}

function sources(): Source[] {
  const arm = generalArm();
  const chain = servoChain();
  const tumbling = tumblingBody();
  return [
    { name: 'general-arm', model: arm, request: { xml: exportMjcf(arm) }, alongRun: false },
    { name: 'servo-chain', model: chain, request: { xml: exportMjcf(chain) }, alongRun: false },
    { name: 'tumbling-body', model: tumbling, request: { xml: exportMjcf(tumbling) }, alongRun: false },
    { name: 'mjcf-general-servos', model: importFile(FIXTURES.servos).model, request: { path: FIXTURES.servos }, alongRun: false },
    { name: 'mjcf-contact-drop', model: importFile(FIXTURES.contact).model, request: { path: FIXTURES.contact }, alongRun: true },
    {
      name: 'mjcf-tendon-coupling',
      model: importFile(FIXTURES.tendon).model,
      request: { path: FIXTURES.tendon },
      v0: [2, -1],
      alongRun: true,
    },
    {
      name: 'mjcf-actuator-tendon-chain',
      model: importFile(FIXTURES.actuatorTendon).model,
      request: { path: FIXTURES.actuatorTendon },
      alongRun: false,
    },
  ];
}

/** MuJoCo's answers for the stage's models (`only`: those named). */
export async function implicitReference(python: string, seed: number, only?: ReadonlySet<string>): Promise<ImplicitReference> {
  const chosen = sources().filter((s) => !only || only.has(s.name));
  return { models: await Promise.all(chosen.map((s) => modelReference(python, seed, s))) };
}

async function modelReference(python: string, seed: number, src: Source): Promise<ImplicitModelRef> {
  const { model, name } = src;
  const nu = model.actuators?.length ?? 0;
  const na = (model.actuators ?? []).filter(hasActivation).length;
  const ctrl = controls(nu, RUN_STEPS, model.world.dt);
  const q0 = model.bodies.flatMap((b) => b.q0);
  const v0 = src.v0 ?? model.bodies.flatMap((b) => b.v0);
  const f32Runs = [
    { round: 'f32' },
    ...Array.from({ length: F32_RUNS }, (_, i) => ({ round: 'f32', seed: seedFor(seed, 'implicitfast', name, 'f32', String(i)) })),
  ];
  const runs: object[] = [{}, { perturb: 'ulp' }, { perturb: 'ulp-every' }, ...f32Runs].map((x) => ({
    kind: 'run',
    qpos: q0,
    qvel: v0,
    ctrl,
    ...x,
  }));
  const [exact, ulp, ulpEvery, ...f32] = (await runPythonJson(python, SCRIPT, { ...src.request, queries: runs }, runs.length)) as Run[];
  const rng = new Rng(seedFor(seed, 'implicitfast', name));
  const uni = (lo: number, hi: number) => lo + (hi - lo) * rng.next();
  const inputs = src.alongRun
    ? Array.from({ length: STATES }, (_, i) => {
        const k = Math.floor(((i + 0.5) * RUN_STEPS) / STATES);
        return { q: exact.qpos[k], v: exact.qvel[k], act: exact.act[k], ctrl: ctrl[k] };
      })
    : randomStates(model, STATES, seedFor(seed, 'implicitfast', name, 'states'), 0).map((s) => ({
        q: s.q,
        v: s.v,
        act: Array.from({ length: na }, () => uni(-1.2, 1.2)),
        ctrl: Array.from({ length: nu }, () => uni(-2.5, 2.5)),
      }));
  const solver = src.alongRun ? { solver: SOLVED } : {};
  const queries = inputs.map((s) => ({ kind: 'step', qpos: s.q, qvel: s.v, act: s.act, ctrl: s.ctrl, ...solver }));
  const next = (await runPythonJson(python, SCRIPT, { ...src.request, queries }, queries.length)) as {
    qpos: number[];
    qvel: number[];
    act: number[];
  }[];
  const states = inputs.map((s, i) => ({ ...s, next: { qpos: [next[i].qpos], qvel: [next[i].qvel], act: [next[i].act] } }));
  const floor64 = {} as Record<Field, number[]>;
  const floor32 = {} as Record<Field, number[]>;
  for (const f of FIELDS) {
    floor64[f] = floorOf(exact, [ulp, ulpEvery], f);
    floor32[f] = floorOf(exact, f32, f);
  }
  return { name, model, q0, v0, ctrl, run: exact, floor64, floor32, states, alongRun: src.alongRun };
}

function row(
  model: string,
  precision: Precision,
  field: string,
  state: number,
  t: number | undefined,
  error: number,
  floor: number,
  bar: number,
  note: string,
): CheckRow {
  const factor = precision === 'f64' ? F64_RUN_FACTOR : F32_FACTOR;
  return checkRow({ stage: 'implicitfast', model, precision, field }, state, t, error, floor, factor, bar, note);
}

/** The engine's integrator the rows run: implicitfast; another (euler) only to show what the stage catches. */
type Integ = 'implicitfast' | 'euler';

function batchOf(ref: ImplicitModelRef, precision: Precision, addon: NativeAddon, integrator: Integ): Batch {
  return new Batch(ref.model, { copies: 1, precision, lanes: 1, integrator }, addon);
}

function stateRows(ref: ImplicitModelRef, addon: NativeAddon, integrator: Integ): CheckRow[] {
  const rows: CheckRow[] = [];
  const model = ref.alongRun ? { ...ref.model, solver: { ...(ref.model.solver ?? DEFAULT_SOLVER), ...SOLVED } } : ref.model;
  const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1, integrator }, addon);
  const gh = Math.hypot(...ref.model.world.gravity) * ref.model.world.dt;
  ref.states.forEach((s, i) => {
    b.reset();
    b.setRobot(0, { q: s.q, v: s.v });
    s.act.forEach((x, k) => (b.act[k * b.stride] = x));
    const ctrl = b.ctrl;
    s.ctrl.forEach((u, a) => (ctrl[a * b.stride] = u));
    b.stepRaw(1);
    const got = { q: b.getRobot(0).q, v: b.getRobot(0).v, act: column(b.act, b.na, b.stride) };
    const note = 'one step from the state (mj_step, implicitfast), relative to the field’s largest value (q̇: at least |g|·h)';
    for (const f of FIELDS) {
      if (f === 'act' && b.na === 0) continue;
      const want = part(s.next, f)[0];
      const start = f === 'q' ? s.q : f === 'v' ? s.v : s.act;
      // the scale: the field's largest value before or after the step, and for q̇ at least the change
      // gravity makes in one step (a body at rest has q̇ ~ 1e-10: its round-off is not relative to that)
      const scale = Math.max(maxAbs(want), maxAbs(start), f === 'v' ? gh : 0);
      rows.push(row(ref.name, 'f64', `step.${f}`, i, undefined, relErr(got[f], want, scale), NaN, F64_BAR, note));
    }
  });
  return rows;
}

function runRows(ref: ImplicitModelRef, precision: Precision, addon: NativeAddon, integrator: Integ): CheckRow[] {
  const rows: CheckRow[] = [];
  const b = batchOf(ref, precision, addon, integrator);
  b.setRobot(0, { q: ref.q0, v: ref.v0 });
  const fields = FIELDS.filter((f) => f !== 'act' || b.na > 0);
  const bar = (f: Field, k: number) =>
    precision === 'f64' ? Math.max(F64_RUN_MIN, F64_RUN_FACTOR * ref.floor64[f][k]) : Math.max(F32_RUN_MIN, F32_FACTOR * ref.floor32[f][k]);
  // per field: the window's worst step (largest error / bar)
  let worst = fields.map(() => ({ ratio: -1, k: 0, error: 0 }));
  for (let k = 0; k < ref.ctrl.length; k++) {
    const ctrl = b.ctrl;
    ref.ctrl[k].forEach((u, a) => (ctrl[a * b.stride] = u));
    const bad = b.stepRaw(1).nonFinite !== null;
    const got = { q: b.getRobot(0).q, v: b.getRobot(0).v, act: column(b.act, b.na, b.stride) };
    fields.forEach((f, j) => {
      const error = bad ? Infinity : maxDiff(got[f], part(ref.run, f)[k]);
      const ratio = error / bar(f, k);
      if (!(ratio <= worst[j].ratio)) worst[j] = { ratio, k, error };
    });
    if ((k + 1) % WINDOW !== 0 && !bad) continue;
    fields.forEach((f, j) => {
      const w = worst[j];
      const floor = precision === 'f64' ? ref.floor64[f][w.k] : ref.floor32[f][w.k];
      const what = f === 'q' ? 'q (rad, m)' : f === 'v' ? 'q̇ (rad/s, m/s)' : 'act';
      const source = precision === 'f64' ? 'float64 ulp' : 'float32';
      rows.push(
        row(
          ref.name,
          precision,
          `run.${f}`,
          Math.floor(k / WINDOW),
          (w.k + 1) * ref.model.world.dt,
          w.error,
          floor,
          bar(f, w.k),
          `max |${what} − MuJoCo's| over steps ${k + 2 - WINDOW}..${k + 1} (its worst step); MuJoCo's own ${source} floor ${floor.toExponential(2)}`,
        ),
      );
    });
    worst = fields.map(() => ({ ratio: -1, k: 0, error: 0 }));
    if (bad) break;
  }
  return rows;
}

export function implicitRows(
  ref: ImplicitReference,
  precision: Precision,
  addon: NativeAddon,
  integrator: Integ = 'implicitfast',
): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const m of ref.models) {
    if (precision === 'f64') rows.push(...stateRows(m, addon, integrator));
    rows.push(...runRows(m, precision, addon, integrator));
  }
  return rows;
}
