// Errors relative to a field's own scale, the float32 floor, and the bars built from it.

import type { Precision } from '../engine/api.js';

/** Below this a field is treated as zero-scale: errors are then absolute (no division by ~0). */
export const TINY = 1e-12;

/** f64 bar: 1e-9 relative. A float64 answer carries ~1e-16·κ of round-off; the models here have
 *  mass-matrix condition numbers up to ~1e4, and an ABA pass chains ~10² operations, so an honest
 *  f64 engine sits near 1e-12 at worst; 1e-9 leaves 10³ of margin while any real mistake in the
 *  physics (a dropped term, a sign) moves the answer by 1e-6 or (much) more. */
export const F64_BAR = 1e-9;
/** f32 bar = F32_FACTOR × the measured float32 floor of the field (see fieldFloor).
 *
 *  The float32 floor is measured, never assumed: it is the reference's own change when every
 *  input number (state coordinates, velocities, torques, and every model constant: masses, CoMs,
 *  inertias, joint pos/quat, axes, gravity, dt) is multiplied by 1 + δ with δ uniform in
 *  [−2⁻²⁴, 2⁻²⁴] (a float32 half-ulp, relative; zero stays zero; quaternions renormalised), its
 *  answer stored in float32, taken as the largest over several seeded perturbations. A float32
 *  engine's result is at best the exact answer for inputs perturbed that way (every number it
 *  reads, and every intermediate it writes, carries up to a half-ulp), so this is the floor no
 *  float32 engine can beat, and the factor 3 is the margin for an engine's round-off in many
 *  operations where the reference perturbs its inputs only once. Rounding the inputs to float32
 *  (the first version of this floor) is a degenerate perturbation: inputs that are exactly
 *  representable (masses 1 or 0.5, lengths 0.5, zeros, integers) do not move at all, and on an
 *  ill-conditioned model the floor then came out far too small.
 *
 *  For the fields that come from solving the equations of motion (forward q̈, the mass-matrix
 *  and bias checks, one step of every integrator) the floor is the reference's own float32
 *  sensitivity both to its inputs and to storing its equations of motion in float32: the larger
 *  of the input perturbations' change and the change when MuJoCo's own M and b = qfrc_bias have
 *  every entry multiplied by 1 + δ (M kept symmetric), |δ| ≤ 2⁻²⁴, and M̃ q̈ = τ − b̃ is solved in
 *  float64 (per-state.ts). Any float32 dynamics computation stores M-like quantities (the mass
 *  matrix, or ABA's articulated inertias) entry by entry in float32; on an ill-conditioned M that
 *  alone moves q̈ by about κ(M)·2⁻²⁴, in directions that perturbing the inputs never excites.
 *
 *  The principle throughout: the floor is the reference's own float32 sensitivity, the change in
 *  its answer when every number a float32 engine must store is perturbed by a float32 half-ulp.
 *  So a step's floor from the equations also perturbs every intermediate the engine's integrator
 *  stores (stage velocities, accelerations, positions, RK4's sums; validate_extra.py step_with),
 *  and a trajectory's floor runs that fully perturbed step at every step (trajectory.ts), where
 *  rounding to float32 to nearest (itself a perturbation within a half-ulp) is one of the draws:
 *  only it shows a float32 state swallowing increments below its half-ulp step after step. */
export const F32_FACTOR = 3;
/** A state whose float32 floor exceeds this cannot be judged in float32 (perturbing its inputs by
 *  a float32 half-ulp moves the reference's own answer by more than 1%): it is reported as
 *  skipped, never compared. */
export const F32_ILL_CONDITIONED = 1e-2;

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}

/** ‖got − ref‖∞ / max(‖ref‖∞, TINY); NaN in `got` gives Infinity (a NaN must never pass). */
export function relErr(got: ArrayLike<number>, ref: ArrayLike<number>, scale = maxAbs(ref)): number {
  if (got.length !== ref.length) throw new Error(`length mismatch ${got.length} vs ${ref.length}`);
  let m = 0;
  for (let i = 0; i < ref.length; i++) {
    const d = Math.abs(got[i] - ref[i]);
    if (!Number.isFinite(d)) return Infinity;
    m = Math.max(m, d);
  }
  return m / Math.max(scale, TINY);
}

/** Rotation angle (rad) between two orientations given as unit quaternions [w,x,y,z];
 *  q and −q are the same orientation, so the sign is taken out with |w|. */
export function quatAngle(a: readonly number[], b: readonly number[]): number {
  // d = conj(b) ⊗ a
  const [aw, ax, ay, az] = a;
  const [bw, bx, by, bz] = b;
  const w = bw * aw + bx * ax + by * ay + bz * az;
  const x = bw * ax - bx * aw - by * az + bz * ay;
  const y = bw * ay + bx * az - by * aw - bz * ax;
  const z = bw * az - bx * ay + by * ax - bz * aw;
  const r = 2 * Math.atan2(Math.hypot(x, y, z), Math.abs(w));
  return Number.isFinite(r) ? r : Infinity;
}

/** Rotation angle between two row-major 3×3 rotation matrices (rad), via the trace, stable near 0
 *  through the antisymmetric part: sin θ = ‖vee(RᵀS − SᵀR)‖/2. */
export function matAngle(R: readonly number[], S: readonly number[]): number {
  // D = Rᵀ S
  const D = (i: number, j: number) => R[i] * S[j] + R[3 + i] * S[3 + j] + R[6 + i] * S[6 + j];
  const s = 0.5 * Math.hypot(D(2, 1) - D(1, 2), D(0, 2) - D(2, 0), D(1, 0) - D(0, 1));
  const c = 0.5 * (D(0, 0) + D(1, 1) + D(2, 2) - 1);
  const r = Math.atan2(s, c);
  return Number.isFinite(r) ? r : Infinity;
}

export interface FieldBar {
  /** The measured floor of this field (f32), or the documented constant (f64). */
  floor: number;
  factor: number;
  bar: number;
}

/** The float32 floor of one field: the largest per-state floor (the reference's own largest change
 *  when its inputs, state and model constants, are perturbed by a float32 half-ulp each, and for
 *  fields solved from the equations of motion also when its M and b are; see F32_FACTOR) over the
 *  compared states.
 *  States above F32_ILL_CONDITIONED are left out (they are skipped, not compared). */
export function fieldFloor(perStateFloors: readonly number[]): number {
  let m = 0;
  for (const f of perStateFloors) if (f <= F32_ILL_CONDITIONED && f > m) m = f;
  return m;
}

/** The bar for a field: f64 a fixed documented constant; f32 3× its measured floor. */
export function barFor(precision: Precision, perStateFloors: readonly number[]): FieldBar {
  if (precision === 'f64') return { floor: F64_BAR, factor: 1, bar: F64_BAR };
  const floor = fieldFloor(perStateFloors);
  return { floor, factor: F32_FACTOR, bar: F32_FACTOR * floor };
}
