// One env's quantities in MuJoCo's layouts, as the task files name them (tasks/gymnasium/*.json),
// read from a batch's views: what both the policy controller (policy.ts) and the vector env
// (vec-env.ts) hand to the task's formulas. The twin of python/src/achilles/gym/vector.py's _values.

import type { Real } from '../engine/api.js';
import type { BodyDesc, ModelDesc, MujocoLayout } from '../engine/model-desc.js';
import { namesIn, type Val } from './expr.js';
import { RECORDED_QUANTITIES, recordedValues, type RecordViews } from './mujoco-layout.js';
import { CONSTANT_NAMES, resetFormulas, type Task } from './task.js';

/** Quantities of the task files computed from the state (as the Python env does). */
export const STATE_QUANTITIES = [
  'qpos',
  'qvel',
  'ctrl',
  'action',
  'init_qpos',
  'init_qvel',
  'state_vector',
  'dt',
  'timestep',
  'nq',
  'nv',
  'nu',
];

const DEFINED = [...CONSTANT_NAMES, 'observation'];

/** The names a task's formulas read that are neither its parameters nor its own terms. */
function quantitiesRead(t: Task): string[] {
  const formulas = [
    t.observation,
    ...t.before.map(([, n]) => n),
    ...t.step.map(([, n]) => n),
    ...resetFormulas(t),
    ...t.resetInfo.map(([, n]) => n),
  ];
  // a reset entry's name (Reacher's goal) is the task's own, unless it is the state it resets
  const ownReset = t.reset.map((e) => e.name).filter((k) => k !== 'qpos' && k !== 'qvel');
  const own = new Set([...Object.keys(t.params), ...t.before.map(([k]) => k), ...t.step.map(([k]) => k), ...ownReset, ...DEFINED]);
  return [...new Set(formulas.flatMap((f) => [...namesIn(f)]))].filter((n) => !own.has(n));
}

/** Whether the task reads mjData's post-step fields (the batch must record them). */
export function readsRecorded(t: Task): boolean {
  return quantitiesRead(t).some((n) => (RECORDED_QUANTITIES as readonly string[]).includes(n));
}

/** What the task's env computes for a model: the recorded quantities (xpos, site_xpos, ...) need
 *  MuJoCo's body layout, i.e. a model imported from MJCF. */
export function computedQuantities(model?: ModelDesc): string[] {
  return [...STATE_QUANTITIES, ...(model?.mujoco ? RECORDED_QUANTITIES : [])];
}

/** The quantities a task reads that the engine does not compute yet (refused by name, never approximated). */
export function missingQuantities(t: Task, model?: ModelDesc): string[] {
  const computed = new Set(computedQuantities(model));
  return quantitiesRead(t)
    .filter((n) => !computed.has(n))
    .sort();
}

export interface EnvViews {
  q: Real;
  v: Real;
  stride: number;
  nq: number;
  nv: number;
  nu: number;
}

export interface EnvConstants {
  initQpos: number[];
  initQvel: number[];
  /** The env step's duration: the batch's dt × the task's frame skip. */
  dt: number;
  /** The model's timestep (MuJoCo's opt.timestep: HumanoidStandup's uph_cost divides by it, not by dt). */
  timestep: number;
  /** A record: true batch's post-step fields, with MuJoCo's body layout (tasks that read them). */
  recorded?: { layout: MujocoLayout; links: readonly BodyDesc[]; rec: RecordViews };
}

/** Robot r's quantities, `action` (float32, as Gymnasium's action space) being the controls in force. */
export function envValues(views: EnvViews, c: EnvConstants, r: number, action: Float32Array): Record<string, Val> {
  const s = views.stride;
  const qpos = Array.from({ length: views.nq }, (_, k) => views.q[k * s + r]);
  const qvel = Array.from({ length: views.nv }, (_, k) => views.v[k * s + r]);
  const recorded = c.recorded ? recordedValues(c.recorded.layout, c.recorded.links, c.recorded.rec, s, views.nv, r) : {};
  return {
    ...recorded,
    qpos,
    qvel,
    action,
    ctrl: Array.from(action),
    init_qpos: c.initQpos,
    init_qvel: c.initQvel,
    state_vector: [...qpos, ...qvel],
    dt: c.dt,
    timestep: c.timestep,
    nq: views.nq,
    nv: views.nv,
    nu: views.nu,
  };
}
