// The `general-actuators` stage: MuJoCo's general actuators against MuJoCo 3.x
// (validation/mujoco_general.py), on two models: the five-joint arm of models.ts (one actuator per
// dyntype, gaintype and biastype the engine follows; MuJoCo runs its MJCF export), and the fixture
// test/fixtures/import/mjcf-general-servos.xml (position servos with timeconst and dampratio, an
// intvelocity and <general> actuators; imported by Achilles, compiled by MuJoCo from the same file), and
// the fixture test/fixtures/import/mjcf-actuator-tendon.xml (every actuator kind pulling fixed tendons:
// MuJoCo's tendon transmission, gears other than 1, a dampratio made from the tendon's reflected inertia).
//
// Per state (f64): at random (q, q̇, act, ctrl), controls beyond ctrlrange and activations beyond
//   actrange included, mj_forward's actuator_force, act_dot and qacc against the engine's
//   forwardUnconstrained(); relative to each field's largest value, within F64_BAR.
// Over a run (f32 and f64): 1000 steps (2 s at 2 ms) under sine controls that leave ctrlrange,
//   semi-implicit Euler and RK4 (each advances act its own way, engine_forward.c), q and act at every
//   25th step within the `actuators` stage's run bar in f64 (1e-9; rad, and act units), and in f32
//   within that stage's 1e-5 or 3× MuJoCo's own float32 floor over the run, whichever is larger.
// Per state the qacc compared is MuJoCo's qacc_smooth (random states may overlap geoms: contacts are
//   the contact stages' to judge).

import type { Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import { hasActivation, type ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { exportMjcf } from '../../model-files/scene/index.js';
import { importFile } from '../../model-files/import/index.js';
import { packageRoot } from '../../engine/native.js';
import { join } from 'node:path';
import { runPythonJson } from '../mujoco-ref.js';
import { F32_FACTOR, F64_BAR, relErr } from '../metrics.js';
import { Rng, seedFor } from '../rng.js';
import { randomStates } from '../states.js';
import type { CheckRow } from '../types.js';
import { checkRow, column } from '../judge.js';
import { generalArm } from './models.js';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../../validation/mujoco_general.py', import.meta.url));
/** f64: the `actuators` stage's run bar. f32: that bar (1e-5) or F32_FACTOR × MuJoCo's own float32 floor
 *  over the run, whichever is larger (the servos' stiff filters make this arm's floor ~1e-5). */
const RUN_BAR: Record<Precision, number> = { f32: 1e-5, f64: 1e-9 };
const maxDiff = (a: number[][], b: number[][]) => Math.max(0, ...a.flatMap((x, k) => x.map((v, n) => Math.abs(v - b[k][n]))));
const INTEGRATORS = ['euler', 'rk4'] as const;
type Integ = (typeof INTEGRATORS)[number];
const STATES = 24;
const EVERY = 25;
const RUN_STEPS = 1000; // 2 s at 2 ms

interface StateRef {
  q: number[];
  v: number[];
  act: number[];
  ctrl: number[];
  force: number[];
  actDot: number[];
  qacc: number[];
}

/** The fixture of an arm with MuJoCo's general position servos. */
export const SERVO_FIXTURE = join(packageRoot, 'test', 'fixtures', 'import', 'mjcf-general-servos.xml');
/** The fixture of a gripper whose actuators pull fixed tendons. */
export const TENDON_FIXTURE = join(packageRoot, 'test', 'fixtures', 'import', 'mjcf-actuator-tendon.xml');

export interface GeneralModelRef {
  name: string;
  model: ModelDesc;
  states: StateRef[];
  /** ctrl[k][a]: the control of actuator a before step k (both engines read the same numbers). */
  ctrl: number[][];
  /** MuJoCo's runs; floorQ, floorAct: the largest change over the run when MuJoCo stores its state
   *  in float32 after every step (its own float32 floor). */
  runs: Record<Integ, { qpos: number[][]; act: number[][]; floorQ: number; floorAct: number }>;
}

export interface GeneralReference {
  models: GeneralModelRef[];
}

/** The controls of the run: a sine per actuator, amplitude 1.3 (beyond the ctrlranges of ±1). */
function controls(nu: number, steps: number, h: number): number[][] {
  return Array.from({ length: steps }, (_, k) =>
    Array.from({ length: nu }, (_, a) => 1.3 * Math.sin(2 * Math.PI * (0.6 + 0.35 * a) * k * h + 0.7 * a)),
  );
}

/** MuJoCo's answers for the stage's models (`only`: those named). */
export async function generalReference(python: string, seed: number, only?: ReadonlySet<string>): Promise<GeneralReference> {
  const sources: [string, () => ModelDesc, object][] = [
    ['general-arm', generalArm, { xml: exportMjcf(generalArm()) }],
    ['mjcf-general-servos', () => importFile(SERVO_FIXTURE).model, { path: SERVO_FIXTURE }],
    ['mjcf-actuator-tendon', () => importFile(TENDON_FIXTURE).model, { path: TENDON_FIXTURE }],
  ];
  const chosen = sources.filter(([name]) => !only || only.has(name));
  const models = await Promise.all(chosen.map(([name, model, source]) => modelReference(python, seed, name, model(), source)));
  return { models };
}

async function modelReference(python: string, seed: number, name: string, model: ModelDesc, source: object): Promise<GeneralModelRef> {
  const nu = model.actuators!.length;
  const na = model.actuators!.filter(hasActivation).length;
  const rng = new Rng(seedFor(seed, 'general-actuators', name));
  const uni = (lo: number, hi: number) => lo + (hi - lo) * rng.next();
  const inputs = randomStates(model, STATES, seedFor(seed, 'general-actuators', name, 'states'), 0).map((s) => ({
    q: s.q,
    v: s.v,
    act: Array.from({ length: na }, () => uni(-1.2, 1.2)),
    ctrl: Array.from({ length: nu }, () => uni(-2.5, 2.5)),
  }));
  const steps = RUN_STEPS;
  const ctrl = controls(nu, steps, model.world.dt);
  const q0 = model.bodies.map((b) => b.q0[0]);
  const queries: object[] = inputs.map((s) => ({ kind: 'state', qpos: s.q, qvel: s.v, act: s.act, ctrl: s.ctrl }));
  for (const integrator of INTEGRATORS)
    for (const round of [undefined, 'f32'])
      queries.push({ kind: 'run', integrator, qpos: q0, qvel: q0.map(() => 0), every: EVERY, ctrl, ...(round ? { round } : {}) });
  const r = (await runPythonJson(python, SCRIPT, { ...source, queries }, queries.length)) as {
    force: number[];
    act_dot: number[];
    qacc: number[];
    qpos: number[][];
    act: number[][];
  }[];
  const states = inputs.map((s, i) => ({ ...s, force: r[i].force, actDot: r[i].act_dot, qacc: r[i].qacc }));
  const runs = {} as GeneralModelRef['runs'];
  INTEGRATORS.forEach((g, i) => {
    const exact = r[STATES + 2 * i];
    const f32 = r[STATES + 2 * i + 1];
    runs[g] = { qpos: exact.qpos, act: exact.act, floorQ: maxDiff(f32.qpos, exact.qpos), floorAct: maxDiff(f32.act, exact.act) };
  });
  return { name, model, states, ctrl, runs };
}

function row(
  model: string,
  precision: Precision,
  field: string,
  state: number,
  t: number | undefined,
  error: number,
  bar: number,
  note: string,
): CheckRow {
  return checkRow({ stage: 'general-actuators', model, precision, field }, state, t, error, NaN, 1, bar, note);
}

function stateRows(ref: GeneralModelRef, addon: NativeAddon): CheckRow[] {
  const rows: CheckRow[] = [];
  const b = new Batch(ref.model, { copies: 1, precision: 'f64', lanes: 1, integrator: 'euler' }, addon);
  ref.states.forEach((s, i) => {
    b.reset();
    b.setRobot(0, { q: s.q, v: s.v });
    s.act.forEach((x, k) => (b.act[k * b.stride] = x));
    const ctrl = b.ctrl;
    s.ctrl.forEach((u, a) => (ctrl[a * b.stride] = u));
    b.forwardUnconstrained();
    const now = b.actuatorsNow();
    const note = 'mj_forward at a random state, relative to the field’s largest value';
    rows.push(row(ref.name, 'f64', 'actuator_force', i, undefined, relErr(column(now.force, b.nu, b.stride), s.force), F64_BAR, note));
    rows.push(row(ref.name, 'f64', 'act_dot', i, undefined, relErr(column(now.actDot, b.na, b.stride), s.actDot), F64_BAR, note));
    rows.push(row(ref.name, 'f64', 'qacc', i, undefined, relErr(b.getRobot(0).qacc, s.qacc), F64_BAR, note));
  });
  return rows;
}

function runRowsOf(ref: GeneralModelRef, precision: Precision, addon: NativeAddon, integrator: Integ): CheckRow[] {
  const rows: CheckRow[] = [];
  const b = new Batch(ref.model, { copies: 1, precision, lanes: 1, integrator }, addon);
  const want = ref.runs[integrator];
  const f32 = (floor: number) => Math.max(RUN_BAR.f32, F32_FACTOR * floor);
  const barQ = precision === 'f64' ? RUN_BAR.f64 : f32(want.floorQ);
  const barAct = precision === 'f64' ? RUN_BAR.f64 : f32(want.floorAct);
  for (let k = 0; k < ref.ctrl.length; k++) {
    const ctrl = b.ctrl;
    ref.ctrl[k].forEach((u, a) => (ctrl[a * b.stride] = u));
    if (b.stepRaw(1).nonFinite) break;
    if ((k + 1) % EVERY !== 0) continue;
    const j = (k + 1) / EVERY - 1;
    const t = (k + 1) * ref.model.world.dt;
    const q = b.getRobot(0).q;
    const act = column(b.act, b.na, b.stride);
    const maxAbs = (x: number[], y: number[]) => Math.max(...x.map((v, n) => Math.abs(v - y[n])));
    rows.push(
      row(
        ref.name,
        precision,
        `${integrator}.q`,
        j,
        t,
        maxAbs(q, want.qpos[j]),
        barQ,
        `max |q − q_MuJoCo| (rad); MuJoCo's float32 floor ${want.floorQ.toExponential(2)}`,
      ),
    );
    rows.push(
      row(
        ref.name,
        precision,
        `${integrator}.act`,
        j,
        t,
        maxAbs(act, want.act[j]),
        barAct,
        `max |act − act_MuJoCo|; MuJoCo's float32 floor ${want.floorAct.toExponential(2)}`,
      ),
    );
  }
  const samples = want.qpos.length;
  if (rows.length < 2 * samples)
    rows.push(row(ref.name, precision, `${integrator}.q`, samples, undefined, Infinity, barQ, 'the run became non-finite'));
  return rows;
}

export function generalRows(ref: GeneralReference, precision: Precision, addon: NativeAddon): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const m of ref.models) {
    if (precision === 'f64') rows.push(...stateRows(m, addon));
    for (const g of INTEGRATORS) rows.push(...runRowsOf(m, precision, addon, g));
  }
  return rows;
}
