// MuJoCo's cylinder and ellipsoid for the exact collision reference, in the shape's own frame, in
// closed form or by a bisection that runs to round-off (written for the validation only):
//   support point (the farthest point along a direction d):
//     cylinder (radius ρ, half-length ℓ, axis z): (ρ·d_xy/‖d_xy‖, ℓ·sign d_z);
//     ellipsoid (radii e): x = E²d / ‖E d‖, E = diag(e), so d·x = ‖E d‖;
//   nearest surface point q to a point y, the signed distance sd (negative inside) and the outward
//   unit normal n at q (y = q + n·sd wherever q is unique):
//     cylinder: with ρ_y = ‖y_xy‖, a = ρ_y − ρ and b = |y_z| − ℓ: sd = ‖max(a, b, 0)‖ + min(max(a, b), 0)
//       (outside: the side, the cap or the rim circle nearest; inside: the nearer of side and cap);
//     ellipsoid: q_i = e_i² y_i / (t + e_i²) with t the root of F(t) = Σ (e_i y_i / (t + e_i²))² − 1,
//       which is decreasing on t > −min e_i² (Eberly, "Distance from a point to an ellipse, an
//       ellipsoid, or a hyperellipsoid"): t > 0 outside, t < 0 inside; bisected until the bracket
//       stops shrinking; n ∝ (q_i / e_i²).

export type Vec = [number, number, number];

const hyp = (x: number, y: number) => Math.hypot(x, y);
const unit3 = (v: Vec): Vec => {
  const l = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / l, v[1] / l, v[2] / l];
};

export interface NearestPoint {
  sd: number;
  q: Vec;
  n: Vec;
}

/** The cylinder's support point along local d (size = [radius, half-length, 0]). On the axis
 *  (d_xy = 0) any rim point ties: the cap's centre is returned (the mean of the tied points). */
export function cylinderSupport(size: readonly number[], d: readonly number[]): Vec {
  const [r, l] = size;
  const t = hyp(d[0], d[1]);
  const z = d[2] > 0 ? l : d[2] < 0 ? -l : 0;
  return t > 0 ? [(r * d[0]) / t, (r * d[1]) / t, z] : [0, 0, z];
}

/** The ellipsoid's support point along local d (size = its radii). */
export function ellipsoidSupport(e: readonly number[], d: readonly number[]): Vec {
  const s = Math.hypot(e[0] * d[0], e[1] * d[1], e[2] * d[2]);
  return [(e[0] * e[0] * d[0]) / s, (e[1] * e[1] * d[1]) / s, (e[2] * e[2] * d[2]) / s];
}

/** Nearest surface point of the cylinder to local point y (see the file comment). */
export function cylinderPoint(size: readonly number[], y: readonly number[]): NearestPoint {
  const [r, l] = size;
  const rho = hyp(y[0], y[1]);
  const a = rho - r;
  const b = Math.abs(y[2]) - l;
  const sz = y[2] >= 0 ? 1 : -1;
  const radial: Vec = rho > 0 ? [y[0] / rho, y[1] / rho, 0] : [1, 0, 0];
  if (a > 0 && b > 0) {
    const q: Vec = [r * radial[0], r * radial[1], sz * l];
    return { sd: hyp(a, b), q, n: unit3([y[0] - q[0], y[1] - q[1], y[2] - q[2]]) };
  }
  if (a >= b) return { sd: a, q: [r * radial[0], r * radial[1], y[2]], n: radial };
  return { sd: b, q: [y[0], y[1], sz * l], n: [0, 0, sz] };
}

/** Nearest surface point of the ellipsoid (radii e) to local point y (see the file comment). */
export function ellipsoidPoint(e: readonly number[], y: readonly number[]): NearestPoint {
  const e2 = e.map((x) => x * x);
  const F = (t: number) => {
    let s = -1;
    for (let i = 0; i < 3; i++) {
      const z = (e[i] * y[i]) / (t + e2[i]);
      s += z * z;
    }
    return s;
  };
  // Bracket: F(lo) > 0 just above the pole −min e², F(hi) < 0 at hi = max e · ‖y‖ (then every term
  // is at most (y_i/‖y‖)² · e_i²·e_max²/(hi + e_i²)² < (y_i/‖y‖)², summing below 1).
  const emin2 = Math.min(...e2);
  // Eberly's degenerate case: y on the plane of the shortest axis k (the centre, say), inside, where
  // the pole at −e_k² is no pole: there q_i = e_i² y_i / (e_i² − e_k²) (i ≠ k) and q_k from the surface.
  const k = e2.indexOf(emin2);
  if (y[k] === 0) {
    let s = 0;
    for (let i = 0; i < 3; i++) if (i !== k) s += ((e[i] * y[i]) / (e2[i] - emin2)) ** 2;
    if (s < 1) {
      const q = [0, 1, 2].map((i) => (i === k ? e[k] * Math.sqrt(1 - s) : (e2[i] * y[i]) / (e2[i] - emin2))) as Vec;
      const dist = Math.hypot(y[0] - q[0], y[1] - q[1], y[2] - q[2]);
      return { sd: -dist, q, n: unit3([q[0] / e2[0], q[1] / e2[1], q[2] / e2[2]]) };
    }
  }
  let lo = -emin2;
  let hi = Math.max(...e) * Math.hypot(y[0], y[1], y[2]);
  if (!(F(hi) < 0)) hi = 0; // y at the centre (or on the surface): the root is at or below 0
  for (let k = 0; k < 2000; k++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (F(mid) > 0) lo = mid;
    else hi = mid;
  }
  const t = lo + (hi - lo) / 2;
  const q = [0, 1, 2].map((i) => (e2[i] * y[i]) / (t + e2[i])) as Vec;
  const inside = (y[0] / e[0]) ** 2 + (y[1] / e[1]) ** 2 + (y[2] / e[2]) ** 2 < 1;
  const dist = Math.hypot(y[0] - q[0], y[1] - q[1], y[2] - q[2]);
  return { sd: inside ? -dist : dist, q, n: unit3([q[0] / e2[0], q[1] / e2[1], q[2] / e2[2]]) };
}
