// The `equality` stage: MuJoCo's equality constraints (connect, weld, joint) against MuJoCo, on the
// fixtures in test/fixtures/equality/ (a four-bar linkage closed by a connect between two trees, a
// parallel gripper whose fingers a joint equality couples through every polycoef term, welds between
// two branches of one tree and to the world):
//   per state (seeded random states; contact/per-state.ts's comparison, row blocks matched by the
//   constraint's name): rows.structure, rows.dist (efc_pos), rows.J, rows.aref (with MuJoCo's J̇·v
//   term), rows.R (diagA from body_invweight0 / dof_invweight0 and the block's impedance), qacc
//   (converged) and qacc.newton1 (one Newton step: the Hessian with the equality rows)
//   over time: the four-bar's q along 0.5 s from its initial state (Newton, both engines), the bar
//   from MuJoCo's own spread under float32-sized perturbations of the model and that state, its state
//   stored in float32 after every step (judgeOverTime)
// Bars are the per-state stages' (metrics.ts): f64 1e-9 relative, f32 3 × the measured float32 floor.

import { fileURLToPath } from 'node:url';
import type { Precision } from '../../engine/api.js';
import type { ModelDesc } from '../../engine/model-desc.js';
import type { NativeAddon } from '../../engine/native.js';
import { loadScene } from '../../model-files/scene/index.js';
import { contactStateRows, type ContactStateReference } from '../contact/per-state.js';
import { initialState, mujocoConstraints, mujocoRollout, type RolloutAnswer } from './mujoco.js';
import { engineRollout } from '../contact/rollout.js';
import { judgeOverTime } from '../judge.js';
import { relErr } from '../metrics.js';
import { Rng, seedFor } from '../rng.js';
import { F32_PERTURBATIONS, perturbedModels, perturbState, type TestState } from '../states.js';
import type { CheckRow } from '../types.js';

export const EQUALITY_FIXTURES = ['four-bar', 'gripper', 'weld'] as const;
const FIXTURE_DIR = fileURLToPath(new URL('../../../test/fixtures/equality/', import.meta.url));

export const equalityModel = (name: (typeof EQUALITY_FIXTURES)[number]): ModelDesc => loadScene(`${FIXTURE_DIR}${name}.arow`);

/** Seeded states near the reference pose: hinges ±0.6 rad, slides ±0.02 m, balls turned up to ~0.6 rad,
 *  velocities ±1 (slides ±0.1), no applied force: every constraint violated a little, and moving. */
export function equalityStates(model: ModelDesc, n: number, seed: number): TestState[] {
  const rng = new Rng(seed);
  return Array.from({ length: n }, () => {
    const q: number[] = [];
    const v: number[] = [];
    for (const b of model.bodies) {
      if (b.joint === 'revolute') (q.push(rng.uniform(-0.6, 0.6)), v.push(rng.uniform(-1, 1)));
      else if (b.joint === 'prismatic') (q.push(rng.uniform(-0.02, 0.02)), v.push(rng.uniform(-0.1, 0.1)));
      else if (b.joint === 'ball') {
        const a = [rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)];
        const th = Math.hypot(...a);
        const s = th > 0 ? Math.sin(th / 2) / th : 0.5;
        q.push(Math.cos(th / 2), a[0] * s, a[1] * s, a[2] * s);
        v.push(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1));
      } else throw new Error(`equality fixture joint type ${b.joint} has no state sampler`);
    }
    return { q, v, tau: model.bodies.flatMap((b) => b.tau) };
  });
}

export interface EqualityReference {
  states: ContactStateReference[];
  fourBar: { model: ModelDesc; steps: number; every: number; ref: RolloutAnswer; twins: RolloutAnswer[] };
}

export const equalityStateCount = (states: number): number => Math.min(states, 16);
const ROLLOUT = { steps: 500, every: 10, solver: 'newton' as const, iterations: 100, tolerance: 1e-10 };

export async function equalityReference(python: string, seed: number, states = 16): Promise<EqualityReference> {
  const n = equalityStateCount(states);
  const perState = Promise.all(
    EQUALITY_FIXTURES.map(async (name) => {
      const model = equalityModel(name);
      const xs = equalityStates(model, n, seedFor(seed, 'equality', name));
      const twinsModels = perturbedModels(model, F32_PERTURBATIONS, seedFor(seed, name, 'equality-f32'));
      const ref = mujocoConstraints(
        python,
        model,
        xs.map((s) => ({ qpos: s.q, qvel: s.v, tau: s.tau })),
      );
      const twins = await Promise.all(
        twinsModels.map((tm, k) =>
          mujocoConstraints(
            python,
            tm,
            xs.map((s, i) => {
              const p = perturbState(model, s, new Rng(seedFor(seed, name, 'equality-f32-state', String(i), String(k))));
              return { qpos: p.q, qvel: p.v, tau: p.tau };
            }),
          ),
        ),
      );
      return { name, model, states: xs, mujoco: await ref, twins: xs.map((_, i) => twins.map((t) => t[i])) };
    }),
  );
  const model = equalityModel('four-bar');
  const s0 = initialState(model);
  const start: TestState = { q: s0.qpos, v: s0.qvel, tau: s0.tau };
  const ref = mujocoRollout(python, model, ROLLOUT);
  // the floor over time: MuJoCo from float32-perturbed twins of the model and the start, its state
  // rounded to float32 after every step (as a float32 engine stores it)
  const twins = Promise.all(
    perturbedModels(model, F32_PERTURBATIONS, seedFor(seed, 'four-bar-rollout-model')).map((tm, k) => {
      const p = perturbState(model, start, new Rng(seedFor(seed, 'four-bar-rollout', String(k))));
      return mujocoRollout(python, tm, { ...ROLLOUT, round32: true, state: { qpos: p.q, qvel: p.v, tau: p.tau } });
    }),
  );
  return { states: await perState, fourBar: { model, steps: ROLLOUT.steps, every: ROLLOUT.every, ref: await ref, twins: await twins } };
}

/** The stage's judged rows at one precision. */
export function equalityRows(ref: EqualityReference, precision: Precision, addon: NativeAddon, maxStates?: number): CheckRow[] {
  const rows: CheckRow[] = [];
  for (const r of ref.states) rows.push(...contactStateRows(r, precision, addon, maxStates ?? r.states.length, undefined, 'equality').rows);
  const fb = ref.fourBar;
  const ours = engineRollout(fb.model, precision, addon, { steps: fb.steps, every: fb.every });
  const samples = fb.ref.qpos.map((q, k) => ({
    state: k,
    t: (k + 1) * fb.every * fb.model.world.dt,
    error: relErr(ours.q[0][k], q),
    stateFloor: Math.max(...fb.twins.map((tw) => relErr(tw.qpos[k], q))),
  }));
  rows.push(...judgeOverTime({ stage: 'equality', model: 'four-bar', precision, field: 'rollout.q' }, samples));
  return rows;
}
