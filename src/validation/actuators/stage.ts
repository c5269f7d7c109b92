// The `actuators` and `passive` stages: against MuJoCo 3.x (validation/mujoco_actuated.py).
//
// actuators: the six-joint arm (models.ts) under the built-in PD controller (src/control/pd.ts) for
//   20 s at 2 ms, semi-implicit Euler and RK4. Both engines read the joints before every step and
//   apply the efforts over that step (ours through the double-buffered controls). Bars are the
//   issue's: |q − q_MuJoCo| within 1e-5 rad (f32) and 1e-9 rad (f64) at every sampled time; the
//   efforts, relative to the run's largest effort, within the same; the effort the engine applied
//   equals the commanded one to float round-off (2⁻²⁴ relative in f32, exactly in f64). The floors
//   MuJoCo itself shows (its run with the state stored in float32 after every step, and with a
//   one-ulp nudge per step) are measured and reported beside each row; a bar is never widened to them.
// passive: damped, sprung and armature pendulums: qacc, one Euler step and one RK4 step at random
//   states (f64, relative, F64_BAR) and 5 s runs of each (bars as above).

import type { Precision } from '../../engine/api.js';
import { Batch } from '../../engine/batch.js';
import { coordinateLayout, type ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { ControlLoop } from '../../control/controller.js';
import { pdController } from '../../control/pd.js';
import type { PdTermSpec } from '../../engine/controller-spec.js';
import { exportMjcf } from '../../model-files/scene/index.js';
import { runPythonJson } from '../mujoco-ref.js';
import { F64_BAR, relErr } from '../metrics.js';
import { checkRow, judgeField } from '../judge.js';
import { seedFor } from '../rng.js';
import { randomStates } from '../states.js';
import type { CheckRow, StageName } from '../types.js';
import { arm6, passiveModels } from './models.js';
import { fileURLToPath } from 'node:url';
import { ciSampling } from '../sampling.js';

const SCRIPT = fileURLToPath(new URL('../../../validation/mujoco_actuated.py', import.meta.url));
/** The issue's bars over a run (rad, or m for slides). */
export const RUN_BAR: Record<Precision, number> = { f32: 1e-5, f64: 1e-9 };
const INTEGRATORS = ['euler', 'rk4'] as const;
type Integ = (typeof INTEGRATORS)[number];
/** MuJoCo's runs: as written, and its own floors (state stored in float32; one ulp per step). The
 *  floors are reported, never gating (the bars are the issue's), so CI (CI=true) skips them and
 *  reports "not measured" in their place. */
const FLOOR_RUNS: readonly ('exact' | 'f32' | 'ulp')[] = ciSampling() ? ['exact'] : ['exact', 'f32', 'ulp'];
const FLOORS_MEASURED = FLOOR_RUNS.length > 1;
/** Float round-off of one stored effort. */
const APPLIED_BAR: Record<Precision, number> = { f32: 2 ** -24, f64: 0 };

interface RunRef {
  qpos: number[][];
  qvel: number[][];
  ctrl: number[][];
}

interface PassiveRef {
  name: string;
  model: ModelDesc;
  states: { q: number[]; v: number[] }[];
  qacc: number[][];
  /** qacc's float32 floor per state (validation/mujoco_actuated.py forward_floor). */
  qaccFloor: number[];
  steps: Record<Integ, { qpos: number[]; qvel: number[] }[]>;
  runs: Record<Integ, { exact: RunRef; f32: RunRef; ulp: RunRef }>;
  every: number;
}

export interface ActuatorReference {
  arm?: {
    model: ModelDesc;
    terms: PdTermSpec[];
    steps: number;
    every: number;
    runs: Record<Integ, { exact: RunRef; f32: RunRef; ulp: RunRef }>;
  };
  passive: PassiveRef[];
}

/** The request's model part: the MJCF, the passive parameters and the motors. */
function request(model: ModelDesc) {
  return {
    // mujoco_actuated.py adds the motors itself (after the passive terms), so the export leaves them out.
    xml: exportMjcf({ ...model, actuators: [] }),
    passive: model.bodies.map((b, body) => ({
      body,
      damping: b.damping ?? 0,
      stiffness: b.stiffness ?? 0,
      springref: b.springref ?? 0,
      armature: b.armature ?? 0,
    })),
    motors: (model.actuators ?? []).map((a) => ({ body: a.body, gear: a.gear })),
  };
}

function pdTerms(model: ModelDesc, terms: readonly PdTermSpec[]) {
  const { qOffset, vOffset } = coordinateLayout(model.bodies);
  return terms.map((t) => {
    const a = (model.actuators ?? [])[t.actuator];
    const s = t.target;
    if (s.kind !== 'sine') throw new Error('the reference PD takes sine targets');
    return {
      act: t.actuator,
      kp: t.kp,
      kd: t.kd,
      gear: a.gear[0],
      qadr: qOffset[a.body],
      vadr: vOffset[a.body],
      amp: s.amplitude,
      freq: s.frequency,
      phase: s.phase,
      offset: s.offset,
    };
  });
}

const initial = (m: ModelDesc) => ({ qpos: m.bodies.flatMap((b) => b.q0), qvel: m.bodies.flatMap((b) => b.v0) });

export async function actuatorReference(python: string, stages: ReadonlySet<StageName>, seed: number): Promise<ActuatorReference> {
  const out: ActuatorReference = { passive: [] };
  const jobs: Promise<void>[] = [];
  if (stages.has('actuators')) {
    const { model, terms } = arm6();
    const h = model.world.dt;
    const steps = Math.round(model.world.duration / h);
    const every = 25;
    const pd = pdTerms(model, terms);
    const qs = INTEGRATORS.flatMap((integrator) =>
      FLOOR_RUNS.map((round) => ({
        kind: 'run',
        integrator,
        h,
        steps,
        every,
        pd,
        ...initial(model),
        ...(round === 'exact' ? {} : { round }),
        seed: seedFor(seed, 'arm6', integrator),
      })),
    );
    jobs.push(
      (runPythonJson(python, SCRIPT, { ...request(model), queries: qs }, qs.length) as Promise<RunRef[]>).then((r) => {
        const runs = {} as Record<Integ, { exact: RunRef; f32: RunRef; ulp: RunRef }>;
        const per = FLOOR_RUNS.length;
        INTEGRATORS.forEach(
          (g, i) => (runs[g] = { exact: r[per * i], f32: r[per * i + (per > 1 ? 1 : 0)], ulp: r[per * i + (per > 1 ? 2 : 0)] }),
        );
        out.arm = { model, terms, steps, every, runs };
      }),
    );
  }
  if (stages.has('passive')) {
    for (const { name, model } of passiveModels()) {
      const h = model.world.dt;
      const steps = Math.round(model.world.duration / h);
      const every = 25;
      const states = randomStates(model, 16, seedFor(seed, 'passive', name), 0).map((s) => ({ q: s.q, v: s.v }));
      const qs: object[] = states.map((s, i) => ({
        kind: 'forward_floor',
        qpos: s.q,
        qvel: s.v,
        k: 4,
        seed: seedFor(seed, name, 'qacc-floor', String(i)),
      }));
      for (const integrator of INTEGRATORS) qs.push(...states.map((s) => ({ kind: 'step', integrator, h, qpos: s.q, qvel: s.v })));
      for (const integrator of INTEGRATORS)
        for (const round of FLOOR_RUNS)
          qs.push({
            kind: 'run',
            integrator,
            h,
            steps,
            every,
            ...initial(model),
            ...(round === 'exact' ? {} : { round }),
            seed: seedFor(seed, name, integrator),
          });
      jobs.push(
        (runPythonJson(python, SCRIPT, { ...request(model), queries: qs }, qs.length) as Promise<unknown[]>).then((r) => {
          const n = states.length;
          const fw = r.slice(0, n) as { qacc: number[]; floor: number }[];
          const qacc = fw.map((x) => x.qacc);
          const qaccFloor = fw.map((x) => x.floor);
          const stepsOut = { euler: r.slice(n, 2 * n), rk4: r.slice(2 * n, 3 * n) } as PassiveRef['steps'];
          const runs = {} as PassiveRef['runs'];
          INTEGRATORS.forEach((g, i) => {
            const per = FLOOR_RUNS.length;
            const b = 3 * n + per * i;
            runs[g] = { exact: r[b] as RunRef, f32: r[b + (per > 1 ? 1 : 0)] as RunRef, ulp: r[b + (per > 1 ? 2 : 0)] as RunRef };
          });
          out.passive.push({ name, model, states, qacc, qaccFloor, steps: stepsOut, runs, every });
        }),
      );
    }
  }
  await Promise.all(jobs);
  out.passive.sort((a, b) => a.name.localeCompare(b.name));
  return out;
}

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return Number.isNaN(m) ? Infinity : m;
};

function row(
  stage: StageName,
  model: string,
  precision: Precision,
  field: string,
  state: number,
  t: number | undefined,
  error: number,
  bar: number,
  floor: number,
  note: string,
): CheckRow {
  return checkRow({ stage, model, precision, field }, state, t, error, floor, 1, bar, note);
}

/** Our run of a model from its initial state, sampled like the reference; with a PD controller,
 *  also the commanded controls and the efforts the engine applied, at the same steps. */
function engineRun(
  model: ModelDesc,
  precision: Precision,
  addon: NativeAddon,
  integrator: Integ,
  steps: number,
  every: number,
  terms?: readonly PdTermSpec[],
) {
  const b = new Batch(model, { copies: 1, precision, integrator, lanes: 1 }, addon);
  const loop = terms ? new ControlLoop(b, pdController(model, terms)) : undefined;
  const q: number[][] = [];
  const v: number[][] = [];
  const ctrl: number[][] = [];
  const applied: number[][] = [];
  for (let k = 0; k < steps; k++) {
    loop?.beforeStep();
    const r = b.stepRaw(1);
    if (r.nonFinite) break;
    if ((k + 1) % every === 0) {
      const s = b.getRobot(0);
      q.push(s.q);
      v.push(s.v);
      if (loop) {
        ctrl.push(Array.from({ length: b.nu }, (_, a) => loop.io.ctrl[a * b.stride]));
        applied.push(Array.from({ length: b.nu }, (_, a) => b.actuatorForce[a * b.stride]));
      }
    }
  }
  return { q, v, ctrl, applied };
}

/** Rows of one run against MuJoCo's: q at every sample (the issue's bar), efforts and applied efforts. */
function runRows(
  stage: StageName,
  name: string,
  precision: Precision,
  integrator: Integ,
  ref: { exact: RunRef; f32: RunRef; ulp: RunRef },
  ours: ReturnType<typeof engineRun>,
  h: number,
  every: number,
): CheckRow[] {
  const rows: CheckRow[] = [];
  const floorRun = precision === 'f32' ? ref.f32 : ref.ulp;
  const bar = RUN_BAR[precision];
  let floor = 0;
  const n = ref.exact.qpos.length;
  for (let k = 0; k < n; k++) {
    const t = (k + 1) * every * h;
    floor = Math.max(floor, maxAbsDiff(floorRun.qpos[k], ref.exact.qpos[k]));
    const got = ours.q[k];
    const e = got ? maxAbsDiff(got, ref.exact.qpos[k]) : Infinity;
    rows.push(
      row(
        stage,
        name,
        precision,
        `${integrator}.q`,
        k,
        t,
        e,
        bar,
        FLOORS_MEASURED ? floor : NaN,
        FLOORS_MEASURED
          ? `MuJoCo's own ${precision === 'f32' ? 'float32-storage' : 'one-ulp'} floor so far: ${floor.toExponential(2)}`
          : 'floor not measured (CI)',
      ),
    );
  }
  if (ours.ctrl.length || ref.exact.ctrl[0]?.length) {
    const scale = Math.max(...ref.exact.ctrl.map((u) => Math.max(...u.map(Math.abs))));
    let uFloor = 0;
    for (let k = 0; k < n; k++) {
      const t = (k + 1) * every * h;
      uFloor = Math.max(uFloor, maxAbsDiff(floorRun.ctrl[k], ref.exact.ctrl[k]) / scale);
      const got = ours.ctrl[k];
      rows.push(
        row(
          stage,
          name,
          precision,
          `${integrator}.effort`,
          k,
          t,
          got ? maxAbsDiff(got, ref.exact.ctrl[k]) / scale : Infinity,
          bar,
          FLOORS_MEASURED ? uFloor : NaN,
          `relative to the run's largest effort ${scale.toFixed(1)}; ${FLOORS_MEASURED ? `MuJoCo's own floor so far ${uFloor.toExponential(2)}` : 'floor not measured (CI)'}`,
        ),
      );
      const app = ours.applied[k];
      const cmd = ours.ctrl[k];
      const roundOff = app && cmd ? Math.max(...cmd.map((c, a) => Math.abs(app[a] - c) / Math.max(Math.abs(c), 1e-300))) : Infinity;
      rows.push(
        row(
          stage,
          name,
          precision,
          `${integrator}.applied`,
          k,
          t,
          roundOff,
          APPLIED_BAR[precision],
          0,
          'the effort applied over the step vs the one commanded before it (float round-off)',
        ),
      );
    }
  }
  return rows;
}

export function actuatorRows(ref: ActuatorReference, precision: Precision, addon: NativeAddon): CheckRow[] {
  const rows: CheckRow[] = [];
  if (ref.arm) {
    const { model, terms, steps, every, runs } = ref.arm;
    for (const g of INTEGRATORS) {
      const ours = engineRun(model, precision, addon, g, steps, every, terms);
      rows.push(...runRows('actuators', 'arm6 PD sine', precision, g, runs[g], ours, model.world.dt, every));
    }
  }
  for (const p of ref.passive) {
    const h = p.model.world.dt;
    if (precision === 'f64') {
      // Per state: qacc (damping explicit, as mj_forward). Float64 only: the float32 floor this stage
      // can measure (forward_floor: inputs, constants, M, b and the passive force perturbed) sits
      // 3–5× below the float32 engine's error on the ball joint (6.6e-7 vs 1.2e-7 relative at seed 4),
      // so a float32 per-state bar from it would not be a floor; float32 is judged over time below.
      const fb = new Batch(p.model, { copies: 1, precision, lanes: 1, integrator: 'euler' }, addon);
      const samples = p.states.map((s, i) => {
        fb.setRobot(0, { q: s.q, v: s.v });
        fb.forwardUnconstrained();
        return { state: i, error: relErr(fb.getRobot(0).qacc, p.qacc[i]), stateFloor: p.qaccFloor[i] };
      });
      rows.push(...judgeField({ stage: 'passive', model: p.name, precision, field: 'qacc' }, samples));
      // Per state: one step of each integrator (Euler's damping implicit).
      for (const g of INTEGRATORS) {
        const sb = new Batch(p.model, { copies: 1, precision, lanes: 1, integrator: g }, addon);
        p.states.forEach((s, i) => {
          sb.reset();
          sb.setRobot(0, { q: s.q, v: s.v });
          sb.stepRaw(1);
          const r = sb.getRobot(0);
          const want = p.steps[g][i];
          rows.push(
            row(
              'passive',
              p.name,
              precision,
              `${g}.step.v`,
              i,
              undefined,
              relErr(r.v, want.qvel),
              F64_BAR,
              F64_BAR,
              'one step from a random state, relative',
            ),
          );
          rows.push(
            row(
              'passive',
              p.name,
              precision,
              `${g}.step.q`,
              i,
              undefined,
              relErr(r.q, want.qpos),
              F64_BAR,
              F64_BAR,
              'one step from a random state, relative',
            ),
          );
        });
      }
    }
    const steps = p.runs.euler.exact.qpos.length * p.every;
    for (const g of INTEGRATORS)
      rows.push(
        ...runRows('passive', p.name, precision, g, p.runs[g], engineRun(p.model, precision, addon, g, steps, p.every), h, p.every),
      );
  }
  return rows;
}
