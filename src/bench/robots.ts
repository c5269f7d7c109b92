// What the robots of a bench cell do: all the same ('lockstep': the scene's start, zero controls,
// so the 16 lanes of a block do identical work) or different ('differ': `--spread` starts and
// `--ctrl random` controls, as an RL batch has them). Both engines get the very same starts and
// controls, built here once per cell, outside every timed region.

import { spreadRobot } from '../engine/spread.js';
import type { ModelDesc } from '../engine/model-desc.js';
import { RobotStreams } from '../sensors/rng.js';

export type RobotsKind = 'differ' | 'lockstep';
export const ROBOTS_KINDS: readonly RobotsKind[] = ['differ', 'lockstep'];
/** --lockstep: only the lockstep robots, also them (beside differing ones), or no lockstep robots. */
export const LOCKSTEP_CHOICES = ['only', 'also', 'no'] as const;
export type CtrlMode = 'random' | 'zero';
export const CTRL_MODES: readonly CtrlMode[] = ['random', 'zero'];

/** The default spread of 'differ' robots (rad or m on each 1-DOF joint). */
export const DEFAULT_BENCH_SPREAD = 0.05;
/** The control streams' seed: fixed, so every run and both engines draw the same controls. */
export const BENCH_CTRL_SEED = 25;
/** The largest control table (rows × copies × nu, each engine's copy) a cell holds: 2^25 floats,
 *  128 MiB. A segment's table longer than this is cut to fewer rows, which then repeat. */
export const MAX_CTRL_TABLE = 2 ** 25;

/** Rows of a cell's control table: one per step of a restart segment, fewer (repeating) where the
 *  segment's table would pass MAX_CTRL_TABLE (e.g. the humanoid's 17 controls × 4096 robots). */
export function controlRows(restartEvery: number, copies: number, nu: number): number {
  return Math.max(1, Math.min(restartEvery, Math.floor(MAX_CTRL_TABLE / Math.max(1, copies * nu))));
}

export interface Robots {
  kind: RobotsKind;
  spread: number;
  ctrl: CtrlMode;
  /** 'differ' robots each with their own per-lane model parameters (laneParamModels). */
  laneParams?: boolean;
}

/** What the user asked for (absent: chosen per scene). */
export interface RobotsRequest {
  kinds?: RobotsKind[];
  spread?: number;
  ctrl?: CtrlMode;
  laneParams?: boolean;
}

const actuated = (m: ModelDesc) => (m.actuators?.length ?? 0) > 0;
const hasShapes = (m: ModelDesc) => (m.shapes?.length ?? 0) > 0;

/** Actuators random controls cannot be drawn for: those without a ctrlrange (an unbounded
 *  uniform does not exist, and inventing a range would time motions nobody asked for). */
function unranged(m: ModelDesc): string[] {
  return (m.actuators ?? []).filter((a) => !a.ctrlrange).map((a) => a.name);
}

/**
 * The robot settings a scene is timed with. Default: scenes with contacts or actuators get
 * 'differ' (spread 0.05, random controls when every actuator has a ctrlrange) and 'lockstep'
 * beside it; others 'lockstep' only (as before). An explicit --spread or --ctrl means 'differ'
 * only, unless --lockstep says otherwise. `note` receives what was chosen instead of random ctrl.
 */
export function robotsFor(model: ModelDesc, req: RobotsRequest, note: (s: string) => void = () => undefined): Robots[] {
  const explicit = req.spread !== undefined || req.ctrl !== undefined;
  const kinds = req.kinds ?? (explicit ? ['differ'] : hasShapes(model) || actuated(model) ? ['differ', 'lockstep'] : ['lockstep']);
  const missing = unranged(model);
  if (req.ctrl === 'random' && actuated(model) && missing.length > 0 && kinds.includes('differ')) {
    throw new Error(
      `--ctrl random draws each control uniformly in its actuator's ctrlrange; ${model.name}'s actuator${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ha${missing.length > 1 ? 've' : 's'} none (give ${missing.length > 1 ? 'them' : 'it'} a ctrlrange, or use --ctrl zero)`,
    );
  }
  let ctrl: CtrlMode = req.ctrl ?? (actuated(model) ? 'random' : 'zero');
  if (req.ctrl === undefined && ctrl === 'random' && missing.length > 0) {
    ctrl = 'zero';
    note(
      `${model.name}: differing robots get zero controls: actuator${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ha${missing.length > 1 ? 've' : 's'} no ctrlrange to draw from`,
    );
  }
  return kinds.map((kind) =>
    kind === 'lockstep'
      ? { kind, spread: 0, ctrl: 'zero' }
      : { kind, spread: req.spread ?? DEFAULT_BENCH_SPREAD, ctrl, ...(req.laneParams ? { laneParams: true } : {}) },
  );
}

/** 'differ (spread 0.05, random ctrl)' / 'lockstep'. */
export function robotsLabel(r: Robots): string {
  return r.kind === 'lockstep' ? 'lockstep' : `differ (spread ${r.spread}, ${r.ctrl} ctrl${r.laneParams ? ', per-lane parameters' : ''})`;
}

/** Each robot's model for --lane-params: gravity (z times 0.95..1.05, x and y ±0.2 m/s²), each
 *  body's mass and inertia together (times 0.8..1.2), the damping and armature of each joint that has
 *  one, each shape's friction and each servo's kp and kv (times 0.8..1.2) drawn per robot from the
 *  bench's fixed seed; everything else, and every zero, as the scene's, so that robot r differs from
 *  the same robots without --lane-params only in values the engine holds per lane (a model with
 *  contacts: each robot's own inverse weights and μ in its constraint rows too). */
export function laneParamModels(model: ModelDesc, copies: number): ModelDesc[] {
  const streams = new RobotStreams(BENCH_CTRL_SEED + 1, copies);
  return Array.from({ length: copies }, (_, r) => {
    const u = () => streams.uniform(r);
    const g = model.world.gravity;
    const gravity: [number, number, number] = [g[0] + 0.4 * (u() - 0.5), g[1] + 0.4 * (u() - 0.5), g[2] * (0.95 + 0.1 * u())];
    const bodies = model.bodies.map((b) => {
      const s = 0.8 + 0.4 * u();
      return {
        ...b,
        ...(b.mass ? { mass: b.mass * s, inertia: b.inertia.map((x) => x * s) as typeof b.inertia } : {}),
        ...(b.damping ? { damping: b.damping * (0.8 + 0.4 * u()) } : {}),
        ...(b.armature ? { armature: b.armature * (0.8 + 0.4 * u()) } : {}),
      };
    });
    const shapes = model.shapes?.map((sh) => ({ ...sh, friction: sh.friction * (0.8 + 0.4 * u()) }));
    const actuators = model.actuators?.map((a) => ({
      ...a,
      ...(a.kp ? { kp: a.kp * (0.8 + 0.4 * u()) } : {}),
      ...(a.kv ? { kv: a.kv * (0.8 + 0.4 * u()) } : {}),
    }));
    return { ...model, world: { ...model.world, gravity }, bodies, ...(shapes ? { shapes } : {}), ...(actuators ? { actuators } : {}) };
  });
}

/** Every robot's start, robot after robot: q (copies × nq) and v (copies × nv), in f64, with
 *  `achilles run --spread`'s offsets (the engine's spreadRobot: the same function, not a copy). */
export function robotStarts(model: ModelDesc, copies: number, spread: number): { qpos: Float64Array; qvel: Float64Array } {
  const q0 = model.bodies.flatMap((b) => b.q0);
  const v0 = model.bodies.flatMap((b) => b.v0);
  const qpos = new Float64Array(copies * q0.length);
  const qvel = new Float64Array(copies * v0.length);
  for (let r = 0; r < copies; r++) {
    const q = q0.slice();
    spreadRobot(model.bodies, q, r, spread);
    qpos.set(q, r * q0.length);
    qvel.set(v0, r * v0.length);
  }
  return { qpos, qvel };
}

/**
 * Random controls for `rows` steps of every robot: robot r's stream (RobotStreams, seeded by
 * (BENCH_CTRL_SEED, r) only) draws its nu controls of step 0, then of step 1, ...; control a is
 * lo + (hi − lo)·u in its ctrlrange, rounded to f32 so that an f32 batch and MuJoCo (f64) apply
 * the very same number. Two layouts of the same draws: `byRobot[(s·copies + r)·nu + a]` (MuJoCo:
 * each mjData's controls contiguous) and `byActuator[(s·nu + a)·copies + r]` (Achilles' ctrl[a·stride + r]).
 */
export function randomControls(
  model: ModelDesc,
  copies: number,
  rows: number,
): { byRobot: Float32Array; byActuator: Float32Array; nu: number } {
  const acts = model.actuators ?? [];
  const nu = acts.length;
  const size = rows * copies * nu;
  const byRobot = new Float32Array(size);
  const byActuator = new Float32Array(size);
  const streams = new RobotStreams(BENCH_CTRL_SEED, copies);
  for (let s = 0; s < rows; s++) {
    for (let r = 0; r < copies; r++) {
      for (let a = 0; a < nu; a++) {
        const [lo, hi] = acts[a].ctrlrange!;
        const u = Math.fround(lo + (hi - lo) * streams.uniform(r));
        byRobot[(s * copies + r) * nu + a] = u;
        byActuator[(s * nu + a) * copies + r] = u;
      }
    }
  }
  return { byRobot, byActuator, nu };
}
