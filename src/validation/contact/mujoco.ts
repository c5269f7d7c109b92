// MuJoCo's constraint rows, solves and rollouts (validation/mujoco_contact.py: mujoco_ref.py's
// request loop with two more query kinds), one Python process per batch of queries.

import { fileURLToPath } from 'node:url';
import type { ModelDesc } from '../../engine/model-desc.js';
import { exportMjcf } from '../../model-files/scene/index.js';
import { runPythonJson } from '../mujoco-ref.js';

const SCRIPT = fileURLToPath(new URL('../../../validation/mujoco_contact.py', import.meta.url));

/** MuJoCo's mjtConstraint values of the rows we make. */
export const MJ_CONSTRAINT = { limitJoint: 3, contactFrictionless: 5, contactPyramidal: 6 } as const;

export interface EfcRows {
  type: number[];
  id: number[];
  pos: number[];
  margin: number[];
  J: number[][];
  aref: number[];
  R: number[];
  D: number[];
  vel: number[];
  /** A limit row's joint (= body) name; a contact row's two shape names, sorted, joined by `|`. */
  name: string[];
}

export interface ConstraintAnswer {
  qacc_smooth: number[];
  newton: { qacc: number[]; niter: number; force: number[] };
  cg: { qacc: number[]; niter: number };
  /** Newton stopped after one iteration per island (its first direction H⁻¹g and exact step). */
  newton1: { qacc: number[]; niter: number };
  /** PGS from qacc_smooth, at most 20 sweeps per island, tolerance 1e-8. */
  pgs: { qacc: number[]; niter: number };
  efc: EfcRows;
  /** J's float32 floor from its stored intermediates (contact points and frames), when asked. */
  j_floor?: number;
  /** Per active weld (by name): the w of MuJoCo's relative quaternion, whose sign its rotation rows take. */
  weld_w?: Record<string, number>;
  contacts: {
    dist: number[];
    pos: number[][];
    frame: number[][];
    geom: number[][];
    dim: number[];
    mu: number[];
    includemargin: number[];
    efc_address: number[];
    /** 1 for a contact inside its gap (dist >= includemargin): listed, no rows (mj_setContact). */
    exclude: number[];
    /** The pair's parameters (mj_contactParam): friction (5), solref, solimp. */
    friction: number[][];
    solref: number[][];
    solimp: number[][];
  };
}

export interface RolloutAnswer {
  qpos: number[][];
  qvel: number[][];
  /** Acting contacts (efc_address >= 0) and the smallest distance among them (Infinity: none). */
  ncon: number[];
  mindist: number[];
}

export interface StateQuery {
  qpos: number[];
  qvel: number[];
  tau: number[];
}

export type ContactQuery =
  | ({ kind: 'constraint'; cg_iterations?: number; j_floor?: boolean; seed?: number; draws?: number } & StateQuery)
  | ({
      kind: 'rollout';
      steps: number;
      every?: number;
      solver?: 'newton' | 'cg';
      iterations?: number;
      tolerance?: number;
      round32?: boolean;
    } & StateQuery)
  | ({ kind: 'tendon' } & StateQuery);

/** The model as MuJoCo sees it: `achilles export --contacts on`. */
export const contactXml = (model: ModelDesc): string => exportMjcf(model, { contacts: true });

export function queryContact(python: string, xml: string, queries: readonly ContactQuery[]): Promise<unknown[]> {
  return runPythonJson(python, SCRIPT, { xml, queries }, queries.length);
}

export async function mujocoConstraints(
  python: string,
  model: ModelDesc,
  states: readonly StateQuery[],
  cgIterations = 20,
  jFloor?: { seed: number; draws: number },
): Promise<ConstraintAnswer[]> {
  const qs: ContactQuery[] = states.map((s, i) => ({
    kind: 'constraint',
    cg_iterations: cgIterations,
    ...s,
    ...(jFloor ? { j_floor: true, seed: jFloor.seed + i, draws: jFloor.draws } : {}),
  }));
  return (await queryContact(python, contactXml(model), qs)) as ConstraintAnswer[];
}

/** The model's initial state (q0, v0, tau), as MuJoCo's qpos/qvel/qfrc_applied. */
export const initialState = (model: ModelDesc): StateQuery => ({
  qpos: model.bodies.flatMap((b) => b.q0),
  qvel: model.bodies.flatMap((b) => b.v0),
  tau: model.bodies.flatMap((b) => b.tau),
});

export async function mujocoRollout(
  python: string,
  model: ModelDesc,
  o: {
    steps: number;
    every?: number;
    solver?: 'newton' | 'cg';
    iterations?: number;
    tolerance?: number;
    round32?: boolean;
    state?: StateQuery;
  },
): Promise<RolloutAnswer> {
  const { state, ...rest } = o;
  const [r] = await queryContact(python, contactXml(model), [{ kind: 'rollout', ...(state ?? initialState(model)), ...rest }]);
  return r as RolloutAnswer;
}
