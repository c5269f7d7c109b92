// The `transmissions` stage: actuator transmissions that read more of the state than a joint or a fixed
// tendon, against MuJoCo 3.x compiling the same fixture (validation/mujoco_transmissions.py): the body
// transmission of <adhesion> (mjTRN_BODY: its moment is minus the mean of the normal Jacobians of the
// body's contacts, engine_core_smooth.c mj_transmission), on test/fixtures/import/mjcf-adhesion.xml (a box
// on a welded pad with margin and gap on the floor, a ball at a wall, a condim-1 capsule on the floor).
//
// Per state (random q, q̇ about the fixture's start, where the pads' contacts move in and out of their
// margins and gaps, and controls beyond ctrlrange):
//   contacts         the count each adhesion's moment averages (the body's contacts with rows or in the gap), exact
//   actuator_force   gain·ctrl clamped (f64, F64_BAR of the largest)
//   qacc_smooth      M⁻¹·(qfrc_smooth): the adhesion forces enter here, made from the contacts (f64, F64_BAR;
//                    f32 within F32_BAR)
//   qacc             the constrained q̈ (the engine's solve run to convergence against MuJoCo's Newton at
//                    tolerance 1e-15; f64, F64_BAR)
// Over a run (f64): Euler and RK4, 0.2 s with the controls held, CG at the fixture's iterations with
//   tolerance 0 in both, q within RUN_BAR (rad, m) at every 10th step.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import { withSolver, type ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { packageRoot } from '../../engine/native.js';
import { importFile } from '../../model-files/import/index.js';
import { checkRow, column } from '../judge.js';
import { runPythonJson } from '../mujoco-ref.js';
import { F64_BAR, relErr } from '../metrics.js';
import { Rng, seedFor } from '../rng.js';
import type { CheckRow } from '../types.js';

const SCRIPT = fileURLToPath(new URL('../../../validation/mujoco_transmissions.py', import.meta.url));
/** The fixture of adhesion actuators (MuJoCo's body transmission). */
export const ADHESION_FIXTURE = join(packageRoot, 'test', 'fixtures', 'import', 'mjcf-adhesion.xml');
const STATES = 32;
/** f32 per state, relative to the largest |q̈|: float32 contact points, normals and body poses move the
 *  adhesion's moment by ~1e-7 of the lever (measured worst 1.3e-6 over the 32 states, seed 1). */
const F32_BAR = 1e-5;
/** The constrained q̈: the engine's solve run to convergence against MuJoCo's Newton at tolerance 1e-15
 *  (measured worst 1.1e-14, seed 1). */
const QACC_BAR = F64_BAR;
const RUN_BAR = 1e-9;
const RUN_STEPS = 100;
const EVERY = 10;
const INTEGRATORS = ['euler', 'rk4'] as const;

interface StateRef {
  q: number[];
  v: number[];
  ctrl: number[];
  force: number[];
  qaccSmooth: number[];
  qacc: number[];
  count: number[];
}

export interface TransmissionModelRef {
  name: string;
  model: ModelDesc;
  states: StateRef[];
  /** The runs' start and held controls, and MuJoCo's q after every EVERY steps. */
  run: { q: number[]; v: number[]; ctrl: number[]; qpos: Record<(typeof INTEGRATORS)[number], number[][]> };
}

export interface TransmissionsReference {
  models: TransmissionModelRef[];
}

/** A state about the model's start: free bodies moved by up to ±1.2 cm and turned by up to 0.15 rad, slides
 *  ±5 cm, hinges ±0.2 rad, every velocity ±0.3. */
function stateAbout(model: ModelDesc, rng: Rng): { q: number[]; v: number[] } {
  const uni = (lo: number, hi: number) => lo + (hi - lo) * rng.next();
  const q: number[] = [];
  const v: number[] = [];
  for (const b of model.bodies) {
    const q0 = b.q0;
    if (b.joint === 'free') {
      q.push(q0[0] + uni(-0.012, 0.012), q0[1] + uni(-0.012, 0.012), q0[2] + uni(-0.012, 0.012));
      const axis = [uni(-1, 1), uni(-1, 1), uni(-1, 1)];
      const n = Math.hypot(...axis) || 1;
      const h = uni(-0.15, 0.15) / 2;
      const dq = [Math.cos(h), ...axis.map((x) => (Math.sin(h) * x) / n)];
      const [w, x, y, z] = q0.slice(3);
      // q0 ⊗ dq
      q.push(
        w * dq[0] - x * dq[1] - y * dq[2] - z * dq[3],
        w * dq[1] + x * dq[0] + y * dq[3] - z * dq[2],
        w * dq[2] - x * dq[3] + y * dq[0] + z * dq[1],
        w * dq[3] + x * dq[2] - y * dq[1] + z * dq[0],
      );
    } else if (b.joint === 'prismatic') q.push(q0[0] + uni(-0.05, 0.05));
    else if (b.joint === 'revolute') q.push(q0[0] + uni(-0.2, 0.2));
    else q.push(...q0);
    for (let k = 0; k < b.v0.length; k++) v.push(uni(-0.3, 0.3));
  }
  return { q, v };
}

/** MuJoCo's answers for the stage's fixtures. */
export async function transmissionsReference(python: string, seed: number): Promise<TransmissionsReference> {
  const name = 'mjcf-adhesion';
  const model = importFile(ADHESION_FIXTURE).model;
  const nu = model.actuators!.length;
  const rng = new Rng(seedFor(seed, 'transmissions', name));
  const inputs = Array.from({ length: STATES }, () => ({
    ...stateAbout(model, rng),
    ctrl: Array.from({ length: nu }, () => -0.5 + 2.5 * rng.next()),
  }));
  const start = { q: model.bodies.flatMap((b) => b.q0), v: model.bodies.flatMap((b) => b.v0), ctrl: model.actuators!.map(() => 0.8) };
  const iterations = model.solver?.iterations ?? 100;
  const queries: object[] = inputs.map((s) => ({ kind: 'state', qpos: s.q, qvel: s.v, ctrl: s.ctrl }));
  for (const integrator of INTEGRATORS)
    queries.push({
      kind: 'run',
      integrator,
      qpos: start.q,
      qvel: start.v,
      ctrl: start.ctrl,
      steps: RUN_STEPS,
      every: EVERY,
      solver: 'cg',
      iterations,
      tolerance: 0,
    });
  const r = (await runPythonJson(python, SCRIPT, { path: ADHESION_FIXTURE, queries }, queries.length)) as {
    force: number[];
    qacc_smooth: number[];
    qacc: number[];
    count: number[];
    qpos: number[][];
  }[];
  const states = inputs.map((s, i) => ({ ...s, force: r[i].force, qaccSmooth: r[i].qacc_smooth, qacc: r[i].qacc, count: r[i].count }));
  const run = { ...start, qpos: { euler: r[STATES].qpos, rk4: r[STATES + 1].qpos } };
  return { models: [{ name, model, states, run }] };
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
) {
  return checkRow({ stage: 'transmissions', model, precision, field }, state, t, error, NaN, 1, bar, note);
}

/** Per state: the contacts each adhesion counts, actuator_force, qacc_smooth and the converged qacc. */
function stateRows(ref: TransmissionModelRef, precision: Precision, addon: NativeAddon): CheckRow[] {
  const rows: CheckRow[] = [];
  const b = new Batch(ref.model, { copies: 1, precision, lanes: 1 }, addon);
  const note = 'mj_forward at a random state about the contacts, relative to the field’s largest value';
  ref.states.forEach((s, i) => {
    b.reset();
    b.setRobot(0, { q: s.q, v: s.v });
    s.ctrl.forEach((u, a) => (b.ctrl[a * b.stride] = u));
    b.forward();
    const force = column(b.actuatorsNow().force, b.nu, b.stride);
    const c = b.constraints(0, { iterations: precision === 'f64' ? 2000 : 200, warm: false });
    if (precision === 'f64') {
      rows.push(row(ref.name, precision, 'actuator_force', i, undefined, relErr(force, s.force), F64_BAR, note));
      rows.push(
        row(
          ref.name,
          precision,
          'contacts',
          i,
          undefined,
          adhesionCounts(b, ref.model, s.count),
          0,
          'the contacts each adhesion averages: |ours − MuJoCo’s| summed',
        ),
      );
      rows.push(
        row(
          ref.name,
          precision,
          'qacc',
          i,
          undefined,
          relErr(c.qacc, s.qacc),
          QACC_BAR,
          'converged solve against MuJoCo’s Newton at tolerance 1e-15',
        ),
      );
    }
    rows.push(
      row(
        ref.name,
        precision,
        'qacc_smooth',
        i,
        undefined,
        relErr(c.qaccSmooth, s.qaccSmooth),
        precision === 'f64' ? F64_BAR : F32_BAR,
        note,
      ),
    );
  });
  return rows;
}

/** Σ over adhesion actuators of |our count − MuJoCo's|: the detected points of the pairs with a shape on its body. */
function adhesionCounts(b: Batch, model: ModelDesc, want: number[]): number {
  const shapes = model.shapes ?? [];
  const pts = b.contacts(0);
  let err = 0;
  (model.actuators ?? []).forEach((a, k) => {
    if (a.bodyTransmission === undefined) return;
    let n = 0;
    for (let p = 0; p < pts.shapeA.length; p++)
      if (shapes[pts.shapeA[p]]?.body === a.bodyTransmission || shapes[pts.shapeB[p]]?.body === a.bodyTransmission) n++;
    err += Math.abs(n - want[k]);
  });
  return err;
}

/** Euler and RK4 from the fixture's start with the controls held, CG at the fixture's iterations, tolerance 0. */
function runRows(ref: TransmissionModelRef, addon: NativeAddon): CheckRow[] {
  const rows: CheckRow[] = [];
  const model = withSolver(ref.model, 'cg', 0, ref.model.solver?.iterations ?? 100);
  for (const integrator of INTEGRATORS) {
    const b = new Batch(model, { copies: 1, precision: 'f64', lanes: 1, integrator }, addon);
    b.setRobot(0, { q: ref.run.q, v: ref.run.v });
    const want = ref.run.qpos[integrator];
    for (let k = 1; k <= RUN_STEPS; k++) {
      const ctrl = b.ctrl; // a control acts over the next step only (the halves swap)
      ref.run.ctrl.forEach((u, a) => (ctrl[a * b.stride] = u));
      const broken = b.stepRaw(1).nonFinite !== null;
      if (k % EVERY !== 0 && !broken) continue;
      const j = Math.floor(k / EVERY) - 1;
      const q = b.getRobot(0).q;
      const err = broken ? Infinity : Math.max(...q.map((x, n) => Math.abs(x - want[j][n])));
      rows.push(
        row(
          ref.name,
          'f64',
          `${integrator}.q`,
          j,
          k * model.world.dt,
          err,
          RUN_BAR,
          'max |q − q_MuJoCo| with the adhesions pulling (ctrl 0.8)',
        ),
      );
      if (broken) break;
    }
  }
  return rows;
}

export function transmissionsRows(ref: TransmissionsReference, precision: Precision, addon: NativeAddon): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const m of ref.models) {
    rows.push(...stateRows(m, precision, addon));
    if (precision === 'f64') rows.push(...runRows(m, addon));
  }
  return rows;
}
