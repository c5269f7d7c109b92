// Random test states, and the float32-rounded and float32-perturbed twins of states and models.

import { coordinateLayout, JOINT_NQ, JOINT_NV, type BodyDesc, type ModelDesc } from '../engine/model-desc.js';
import { Rng, seedFor } from './rng.js';

export interface TestState {
  q: number[];
  v: number[];
  tau: number[];
}

/** Velocities ~ N(0, VEL_SIGMA²): fast enough that velocity-product terms matter, slow enough
 *  that one 1–2 ms step stays well resolved. */
export const VEL_SIGMA = 1.5;

/** Random positions (hinges uniform in [−π, π], slides in [−1, 1] m, planar x, y in [−0.5, 0.5] m,
 *  ball/free orientation a uniform random unit quaternion, free position in [−1, 1]³ m),
 *  velocities N(0, 1.5²), torques N(0, (tauScale·w)²) with w the tree weight below. */
export function randomStates(model: ModelDesc, n: number, seed: number, tauScale: number): TestState[] {
  const rng = new Rng(seed);
  const { nv } = coordinateLayout(model.bodies);
  const weight = treeWeights(model);
  const out: TestState[] = [];
  for (let i = 0; i < n; i++) {
    const q: number[] = [];
    for (const b of model.bodies) q.push(...randomJointPosition(b, rng));
    const v = Array.from({ length: nv }, () => VEL_SIGMA * rng.normal());
    const tau = Array.from({ length: nv }, (_, k) => tauScale * weight[k] * rng.normal());
    out.push({ q, v, tau });
  }
  return out;
}

/** Per velocity coordinate: the mass of its tree over the heaviest tree's. The torque scale is
 *  the model's RMS gravity force, set by its heaviest bodies; trees are independent (nothing
 *  couples them without contacts), so a light tree beside a heavy one (the domino amplifier spans
 *  a factor 5·10⁴ in mass) gets torques sized to its own weight instead of accelerations of
 *  10⁵ g. A single tree has weight 1 everywhere, so its states are unchanged. */
export function treeWeights(model: ModelDesc): number[] {
  const root = model.bodies.map((_, i) => i);
  model.bodies.forEach((b, i) => (root[i] = b.parent < 0 ? i : root[b.parent]));
  const treeMass = new Map<number, number>();
  model.bodies.forEach((b, i) => treeMass.set(root[i], (treeMass.get(root[i]) ?? 0) + b.mass));
  const heaviest = Math.max(...treeMass.values());
  const { vOffset } = coordinateLayout(model.bodies);
  const out: number[] = [];
  model.bodies.forEach((b, i) => {
    const w = treeMass.size === 1 ? 1 : (treeMass.get(root[i]) as number) / heaviest;
    for (let k = 0; k < JOINT_NV[b.joint]; k++) out[vOffset[i] + k] = w;
  });
  return out;
}

function randomJointPosition(b: BodyDesc, rng: Rng): number[] {
  switch (b.joint) {
    case 'revolute':
      return [rng.uniform(-Math.PI, Math.PI)];
    case 'prismatic':
      return [rng.uniform(-1, 1)];
    case 'planar':
      return [rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5), rng.uniform(-Math.PI, Math.PI)];
    case 'ball':
      return rng.unitQuat();
    case 'free':
      return [rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), ...rng.unitQuat()];
    case 'fixed':
      return [];
  }
}

/** Offsets in q of every quaternion (ball: its 4 numbers; free: numbers 3..6). */
export function quaternionOffsets(model: ModelDesc): number[] {
  const { qOffset } = coordinateLayout(model.bodies);
  const out: number[] = [];
  model.bodies.forEach((b, i) => {
    if (b.joint === 'ball') out.push(qOffset[i]);
    if (b.joint === 'free') out.push(qOffset[i] + 3);
  });
  return out;
}

/** q indices that are not quaternion components. */
export function plainCoordinates(model: ModelDesc): number[] {
  const quat = new Set(quaternionOffsets(model).flatMap((o) => [o, o + 1, o + 2, o + 3]));
  const nq = model.bodies.reduce((s, b) => s + JOINT_NQ[b.joint], 0);
  return Array.from({ length: nq }, (_, k) => k).filter((k) => !quat.has(k));
}

export const f32 = (xs: readonly number[]): number[] => xs.map(Math.fround);

export function roundState(s: TestState): TestState {
  return { q: f32(s.q), v: f32(s.v), tau: f32(s.tau) };
}

/** The model with every physical constant rounded to float32 (kept for comparison: the suite's
 *  floor perturbs instead, see perturbModel). */
export function roundModel(model: ModelDesc): ModelDesc {
  const r3 = (x: readonly number[]) => f32(x) as [number, number, number];
  return {
    ...model,
    world: { ...model.world, gravity: r3(model.world.gravity), dt: Math.fround(model.world.dt) },
    bodies: model.bodies.map((b) => ({
      ...b,
      pos: r3(b.pos),
      quat: f32(b.quat) as BodyDesc['quat'],
      axis: r3(b.axis),
      mass: Math.fround(b.mass),
      com: r3(b.com),
      inertia: f32(b.inertia) as BodyDesc['inertia'],
      q0: f32(b.q0),
      v0: f32(b.v0),
      tau: f32(b.tau),
    })),
  };
}

// ---- The float32 floor by perturbation ------------------------------------------------------
//
// A float32 engine's result is at best the exact answer for inputs that each carry a relative
// error of up to a float32 half-ulp (2⁻²⁴): every number it reads is stored in float32, and every
// operation it does rounds by as much again. So the reference's own change under such
// perturbations of *every* input number is the float32 floor: the error no float32 engine can
// beat. Rounding the inputs to float32 is one such perturbation, but a degenerate one: a number
// that is exactly representable (masses 1, 0.5, 5; lengths 0.5; integers) is not moved at all, and
// on an ill-conditioned model the directions it leaves out can be the sensitive ones. A random
// relative perturbation moves every nonzero input (zero stays zero, as it does in float32).

/** A float32 half-ulp, relative: the largest relative error of storing a number in float32. */
export const HALF_ULP32 = 2 ** -24;
/** Seeded perturbations per state whose largest effect is the state's float32 floor. */
export const F32_PERTURBATIONS = 4;
/** Perturbed reference runs per trajectory (each perturbs the model once and every step fully:
 *  M and b, the integrator's intermediates, the state; two of each of the four kinds, see
 *  trajectory.ts); the floor over time is the largest of them. */
export const F32_RUN_PERTURBATIONS = 8;

/** x·(1 + δ), δ uniform in [−2⁻²⁴, 2⁻²⁴]. */
export const perturbed = (xs: readonly number[], rng: Rng): number[] => xs.map((x) => x * (1 + HALF_ULP32 * (2 * rng.next() - 1)));

function unit(q: number[]): number[] {
  const n = Math.hypot(...q);
  return n > 0 ? q.map((x) => x / n) : q;
}

/** Every number of q perturbed, each quaternion (ball; free numbers 3..6) renormalised. */
function perturbQ(bodies: readonly BodyDesc[], q: readonly number[], rng: Rng): number[] {
  const out = perturbed(q, rng);
  let o = 0;
  for (const b of bodies) {
    if (b.joint === 'ball') out.splice(o, 4, ...unit(out.slice(o, o + 4)));
    if (b.joint === 'free') out.splice(o + 3, 4, ...unit(out.slice(o + 3, o + 7)));
    o += JOINT_NQ[b.joint];
  }
  return out;
}

/** The state with every coordinate, velocity and torque perturbed by a float32 half-ulp. */
export function perturbState(model: ModelDesc, s: TestState, rng: Rng): TestState {
  return { q: perturbQ(model.bodies, s.q, rng), v: perturbed(s.v, rng), tau: perturbed(s.tau, rng) };
}

/** The model with every constant (gravity, dt, joint placements pos/quat, axes, masses, CoMs,
 *  inertias, initial state and constant torques; tendon coefficients and ranges; equality constraints'
 *  anchors, relposes, torquescales, polycoefs, solref and solimp) perturbed by a float32 half-ulp;
 *  quaternions renormalised (axes are normalised by MuJoCo's compiler). */
export function perturbModel(model: ModelDesc, rng: Rng): ModelDesc {
  const p3 = (x: readonly number[]) => perturbed(x, rng) as [number, number, number];
  const [dt] = perturbed([model.world.dt], rng);
  return {
    ...model,
    world: { ...model.world, gravity: p3(model.world.gravity), dt },
    bodies: model.bodies.map((b) => ({
      ...b,
      pos: p3(b.pos),
      quat: unit(perturbed(b.quat, rng)) as BodyDesc['quat'],
      axis: p3(b.axis),
      mass: perturbed([b.mass], rng)[0],
      com: p3(b.com),
      inertia: perturbed(b.inertia, rng) as BodyDesc['inertia'],
      q0: perturbQ([b], b.q0, rng),
      v0: perturbed(b.v0, rng),
      tau: perturbed(b.tau, rng),
    })),
    ...(model.tendons
      ? {
          tendons: model.tendons.map((t) => ({
            ...t,
            joints: t.joints.map((j) => ({ ...j, coef: perturbed([j.coef], rng)[0] })),
            ...(t.range ? { range: perturbed(t.range, rng) as [number, number] } : {}),
          })),
        }
      : {}),
    ...(model.equalities
      ? {
          equalities: model.equalities.map((e) => ({
            ...e,
            solref: perturbed(e.solref, rng) as typeof e.solref,
            solimp: perturbed(e.solimp, rng) as typeof e.solimp,
            ...(e.anchor ? { anchor: p3(e.anchor) } : {}),
            ...(e.anchor2 ? { anchor2: p3(e.anchor2) } : {}),
            ...(e.relpose ? { relpose: perturbed(e.relpose, rng) as typeof e.relpose } : {}),
            ...(e.torquescale !== undefined ? { torquescale: perturbed([e.torquescale], rng)[0] } : {}),
            ...(e.polycoef ? { polycoef: perturbed(e.polycoef, rng) as typeof e.polycoef } : {}),
          })),
        }
      : {}),
  };
}

/** The model's K perturbed twins (seeded), as the reference's named models p0 … p(K−1). */
export function perturbedModels(model: ModelDesc, k: number, seed: number): ModelDesc[] {
  return Array.from({ length: k }, (_, j) => perturbModel(model, new Rng(seedFor(seed, 'f32-model', String(j)))));
}
