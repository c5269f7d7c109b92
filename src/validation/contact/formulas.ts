// MuJoCo's soft-constraint formulas, written out independently of the engine (MuJoCo's
// engine_core_constraint.c: getsolparam, getimpedance, mj_makeImpedance, mj_referenceConstraint,
// and the pyramid's R in mj_makeImpedance), and the exact answers the `contact-exact` stage
// compares with: the static penetration of a resting body, the 1-D normal contact of a ball
// dropped on a plane (stepped with semi-implicit Euler exactly as MuJoCo's Euler does, so the
// engine must reproduce it to round-off), and the incline and rolling accelerations.
//
// Notation: r = dist − margin (negative = penetration), v_n = J·v (normal velocity, > 0 separating).
//   imp(r)   solimp's sigmoid in x = |r|/width (dmin at 0, dmax beyond width)
//   K, B     standard solref [tc, ζ]: K = 1/(dmax²·tc²·ζ²), B = 2/(dmax·tc), tc ← max(tc, 2·dt);
//            direct [−k, −b]: K = k/dmax², B = b/dmax
//   a_ref    = −B·v_n − K·imp·r
//   R        = (1 − imp)/imp · A, with A MuJoCo's diagonal approximation (for a free body's
//            translation A = 1/m; a pyramid edge pair adds μ²·A: A = (1 + μ²)/m); pyramid edges
//            all get R_py = 2·μ_r²·R_edge0, μ_r = μ/√impratio; D = 1/R
// One row (or the four edges of a pyramid with no sliding) acting on a body of mass m along its
// normal: the minimiser of ½m(a − a₀)² + ½·D_eff·(a − a_ref)² is a = (m·a₀ + D_eff·a_ref)/(m + D_eff)
// while a < a_ref (the row pushes), else a₀; D_eff = D (condim 1) or 4·D_py (pyramid, no sliding).

import { DEFAULT_SOLIMP, DEFAULT_SOLREF, type Condim, type Solimp, type Solref } from '../../engine/model-desc.js';

export const MJ_MINVAL = 1e-15;
export const MJ_MINIMP = 1e-4;
export const MJ_MAXIMP = 0.9999;

/** getsolparam: the solref the solver uses (refsafe: a standard time constant at least 2·dt) and
 *  solimp clamped to MuJoCo's ranges. */
export function solParams(solref: Solref, solimp: Solimp, dt: number): { solref: Solref; solimp: Solimp } {
  let ref: Solref = [...solref];
  if (ref[0] > 0 !== ref[1] > 0) ref = [...DEFAULT_SOLREF];
  if (ref[0] > 0) ref[0] = Math.max(ref[0], 2 * dt);
  const clampImp = (x: number) => Math.min(MJ_MAXIMP, Math.max(MJ_MINIMP, x));
  const imp: Solimp = [clampImp(solimp[0]), clampImp(solimp[1]), Math.max(0, solimp[2]), clampImp(solimp[3]), Math.max(1, solimp[4])];
  return { solref: ref, solimp: imp };
}

/** getimpedance: the impedance at r = pos − margin. */
export function impedance(solimp: Solimp, pos: number, margin: number): number {
  const [dmin, dmax, width, mid, power] = solimp;
  if (dmin === dmax || width <= MJ_MINVAL) return (dmin + dmax) / 2;
  const x = Math.abs(pos - margin) / width;
  if (x >= 1) return dmax;
  if (x <= 0) return dmin;
  let y: number;
  if (power === 1) y = x;
  else if (x <= mid) y = x ** power / mid ** (power - 1);
  else y = 1 - (1 - x) ** power / (1 - mid) ** (power - 1);
  return dmin + y * (dmax - dmin);
}

/** mj_makeImpedance's K and B. */
export function stiffnessDamping(solref: Solref, solimp: Solimp): { K: number; B: number } {
  const dmax = solimp[1];
  const K =
    solref[0] > 0
      ? 1 / Math.max(MJ_MINVAL, dmax * dmax * solref[0] * solref[0] * solref[1] * solref[1])
      : -solref[0] / Math.max(MJ_MINVAL, dmax * dmax);
  const B = solref[1] > 0 ? 2 / Math.max(MJ_MINVAL, dmax * solref[0]) : -solref[1] / Math.max(MJ_MINVAL, dmax);
  return { K, B };
}

export interface RowParams {
  solref: Solref;
  solimp: Solimp;
  margin: number;
  dt: number;
}

/** a_ref and imp of one row at distance `pos` and normal velocity `vel`. */
export function referenceAcceleration(p: RowParams, pos: number, vel: number): { aref: number; imp: number; K: number; B: number } {
  const { solref, solimp } = solParams(p.solref, p.solimp, p.dt);
  const imp = impedance(solimp, pos, p.margin);
  const { K, B } = stiffnessDamping(solref, solimp);
  return { aref: -B * vel - K * imp * (pos - p.margin), imp, K, B };
}

export interface ContactKind {
  /** 1 (one normal row), or 3, 4, 6 (pyramid, 2(condim − 1) edges). */
  condim: Condim;
  /** The pair's friction (MuJoCo: the larger of the two shapes'). */
  mu: number;
  impratio: number;
}

/** R of each of the contact's rows for a diagonal approximation `A` (= 1/m for a free body against
 *  the world): condim 1 one row, condim 3 every pyramid edge the same R_py. */
export function contactR(kind: ContactKind, imp: number, A: number): number {
  if (kind.condim === 1) return Math.max(MJ_MINVAL, ((1 - imp) * A) / imp);
  const R0 = Math.max(MJ_MINVAL, ((1 - imp) * (1 + kind.mu * kind.mu) * A) / imp);
  const R1 = R0 / Math.max(MJ_MINVAL, kind.impratio);
  const muR = kind.mu * Math.sqrt(R1 / R0);
  return 2 * muR * muR * R0;
}

/** The normal's effective D of one contact at rest in the tangent directions: D (condim 1), or the
 *  sum over the 2(condim − 1) edges (each edge J_n ± μ_k·J_k has the same normal part). */
export function normalD(kind: ContactKind, imp: number, A: number): number {
  return (kind.condim === 1 ? 1 : 2 * (kind.condim - 1)) / contactR(kind, imp, A);
}

export interface NormalContact extends RowParams, ContactKind {
  /** Mass of the body (kg); the contact's A is 1/m (a free body against the static world). */
  mass: number;
  /** Contact points sharing the load equally (a box face on a plane: 4). */
  points: number;
}

/** The unconstrained normal acceleration a₀ and the constrained one at (pos, vel): the minimiser
 *  of the 1-D cost, active while it is below a_ref (MuJoCo's half-quadratic). */
export function normalAcceleration(
  c: NormalContact,
  a0: number,
  pos: number,
  vel: number,
): { a: number; active: boolean; aref: number; imp: number } {
  if (pos > c.margin) return { a: a0, active: false, aref: NaN, imp: NaN };
  const { aref, imp } = referenceAcceleration(c, pos, vel);
  const D = c.points * normalD(c, imp, 1 / c.mass);
  const a = (c.mass * a0 + D * aref) / (c.mass + D);
  return a < aref ? { a, active: true, aref, imp } : { a: a0, active: false, aref, imp };
}

/** Static equilibrium: the distance r < margin at which a resting body (a = 0, v = 0) is held, i.e.
 *  the root of m·a₀ + D_eff(r)·a_ref(r) = 0 (solved by bisection to the last bit). a₀ = −g along the normal. */
export function staticDistance(c: NormalContact, g: number): number {
  const f = (pos: number) => normalAcceleration(c, -g, pos, 0).a;
  // f < 0 (falls) above the equilibrium, > 0 (pushed out) below it
  let hi = c.margin;
  let lo = c.margin - 1;
  while (f(lo) <= 0) lo = c.margin - 2 * (c.margin - lo);
  for (let k = 0; k < 200; k++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface DropRun {
  t: number[];
  /** Distance of the ball to the plane (m, negative = penetration). */
  dist: number[];
  vel: number[];
}

/** A ball dropped on a horizontal plane (no spin, no sliding): the normal contact stepped with
 *  semi-implicit Euler exactly as MuJoCo's Euler and the engine step it (v ← v + h·a, then
 *  dist ← dist + h·v), `steps` steps, recording every `every`. */
export function dropBall(c: NormalContact, g: number, dist0: number, vel0: number, steps: number, every = 1): DropRun {
  const out: DropRun = { t: [], dist: [], vel: [] };
  let d = dist0;
  let v = vel0;
  for (let k = 1; k <= steps; k++) {
    const { a } = normalAcceleration(c, -g, d, v);
    v = v + c.dt * a;
    d = d + c.dt * v;
    if (k % every === 0) {
      out.t.push(k * c.dt);
      out.dist.push(d);
      out.vel.push(v);
    }
  }
  return out;
}

/** Coulomb's answers on an incline of angle θ (rad) with friction μ and gravity g. */
export const inclineSticks = (theta: number, mu: number) => Math.tan(theta) < mu;
export const inclineSlideAcceleration = (theta: number, mu: number, g: number) => g * (Math.sin(theta) - mu * Math.cos(theta));
/** A solid sphere rolling without slipping: a = (5/7)·g·sin θ (needs μ >= (2/7)·tan θ). */
export const rollingAcceleration = (theta: number, g: number) => (5 / 7) * g * Math.sin(theta);

export { DEFAULT_SOLIMP, DEFAULT_SOLREF };

/** MuJoCo's mj_contactParam for two shapes of equal priority and solmix 1: condim the larger,
 *  friction the larger, solref averaged when both are standard and element-wise min otherwise,
 *  solimp averaged; margins summed (mj_collision). */
export function pairParams(
  a: { friction: number; margin: number; solref?: Solref; solimp?: Solimp; condim?: Condim },
  b: { friction: number; margin: number; solref?: Solref; solimp?: Solimp; condim?: Condim },
): { condim: Condim; mu: number; solref: Solref; solimp: Solimp; margin: number } {
  const ra = a.solref ?? DEFAULT_SOLREF;
  const rb = b.solref ?? DEFAULT_SOLREF;
  const ia = a.solimp ?? DEFAULT_SOLIMP;
  const ib = b.solimp ?? DEFAULT_SOLIMP;
  const solref: Solref =
    ra[0] > 0 && rb[0] > 0 ? [0.5 * ra[0] + 0.5 * rb[0], 0.5 * ra[1] + 0.5 * rb[1]] : [Math.min(ra[0], rb[0]), Math.min(ra[1], rb[1])];
  const solimp = ia.map((x, k) => 0.5 * x + 0.5 * ib[k]) as Solimp;
  return {
    condim: Math.max(a.condim ?? 3, b.condim ?? 3) as Condim,
    mu: Math.max(a.friction, b.friction),
    solref,
    solimp,
    margin: a.margin + b.margin,
  };
}
