// The engine's answers at a list of states, one batch robot per state (all states in one batch).

import type { Precision } from '../engine/api.js';
import { Batch } from '../engine/batch.js';
import type { IntegratorName, ModelDesc } from '../engine/model-desc.js';
import type { NativeAddon } from '../engine/native.js';
import type { TestState } from './states.js';

export interface EngineAnswers {
  /** Per state: body positions (nbody×3) and row-major rotations (nbody×9), body order. */
  pos: number[][];
  rot: number[][];
  /** q̈ at (q, v, τ) and at (q, v, 0). */
  qacc: number[][];
  qacc0: number[][];
  /** At (q, v). */
  kinetic: number[];
  potential: number[];
}

function column(a: ArrayLike<number>, stride: number, r: number, n: number): number[] {
  return Array.from({ length: n }, (_, k) => a[k * stride + r]);
}

function load(b: Batch, states: readonly TestState[], withTau: boolean): void {
  states.forEach((s, r) => b.setRobot(r, { q: s.q, v: s.v, tau: withTau ? s.tau : s.tau.map(() => 0) }));
}

export function engineAnswers(model: ModelDesc, precision: Precision, addon: NativeAddon, states: readonly TestState[]): EngineAnswers {
  const b = new Batch(model, { copies: states.length, precision }, addon);
  load(b, states, true);
  b.forwardUnconstrained();
  const qacc = states.map((_, r) => column(b.qacc, b.stride, r, b.nv));
  const { pos, rot } = b.kinematics();
  const nb = b.nbody;
  const posOut = states.map((_, r) => column(pos, b.stride, r, nb * 3));
  const rotOut = states.map((_, r) => column(rot, b.stride, r, nb * 9));
  const e = b.energy();
  const kinetic = Array.from(e.kinetic);
  const potential = Array.from(e.potential);
  load(b, states, false);
  b.forwardUnconstrained();
  const qacc0 = states.map((_, r) => column(b.qacc, b.stride, r, b.nv));
  return { pos: posOut, rot: rotOut, qacc, qacc0, kinetic, potential };
}

/** One step of `integrator` from each state (a fresh batch, so nothing carries over between states). */
export function engineStep(
  model: ModelDesc,
  precision: Precision,
  addon: NativeAddon,
  integrator: IntegratorName,
  states: readonly TestState[],
): { q: number[][]; v: number[][] } {
  const b = new Batch(model, { copies: states.length, precision, integrator, substeps: 1 }, addon);
  load(b, states, true);
  b.stepRaw(1); // a non-finite result shows up as an infinite error, not an exception
  return { q: states.map((_, r) => column(b.q, b.stride, r, b.nq)), v: states.map((_, r) => column(b.v, b.stride, r, b.nv)) };
}
