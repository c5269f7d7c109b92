// Wolfe's minimum-norm-point algorithm (1976): the point of a finite point set's convex hull
// nearest the origin, as a convex combination of at most 4 of the points (in 3-D). Finite: each
// major cycle adds the point most opposite the current iterate, each minor cycle drops points
// whose affine minimiser leaves the simplex, and the norm strictly decreases.

import { dot, type V3 } from './geometry.js';

export interface MinNormPoint {
  /** The nearest point x of the hull to the origin. */
  x: V3;
  /** Indices into the input and their convex weights (Σ = 1, each > 0): x = Σ w_k P[idx_k]. */
  idx: number[];
  w: number[];
}

/** Affine minimiser on the points S: argmin ‖Σ μ_i s_i‖ with Σ μ_i = 1, as μ (via s_0 + E c). */
function affineMinimizer(S: readonly V3[]): number[] | null {
  const m = S.length - 1;
  if (m === 0) return [1];
  const E = S.slice(1).map((s) => [s[0] - S[0][0], s[1] - S[0][1], s[2] - S[0][2]]);
  // Normal equations (EᵀE) c = −Eᵀ s0, solved by Gaussian elimination with partial pivoting.
  const A = E.map((ei) => [...E.map((ej) => dot(ei, ej)), -dot(ei, S[0])]);
  for (let col = 0; col < m; col++) {
    let piv = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(A[r][col]) > Math.abs(A[piv][col])) piv = r;
    [A[col], A[piv]] = [A[piv], A[col]];
    const d = A[col][col];
    if (!(Math.abs(d) > 1e-300)) return null;
    for (let r = 0; r < m; r++) {
      if (r === col) continue;
      const f = A[r][col] / d;
      for (let k = col; k <= m; k++) A[r][k] -= f * A[col][k];
    }
  }
  const c = A.map((row, i) => row[m] / row[i]);
  return [1 - c.reduce((s, x) => s + x, 0), ...c];
}

const combine = (P: readonly V3[], idx: readonly number[], w: readonly number[]): V3 => {
  const x: V3 = [0, 0, 0];
  idx.forEach((i, k) => {
    x[0] += w[k] * P[i][0];
    x[1] += w[k] * P[i][1];
    x[2] += w[k] * P[i][2];
  });
  return x;
};

/** Minimum-norm point of conv(P). `tol` (relative to max‖p‖²) ends a major cycle whose best new
 *  point improves the Wolfe gap ‖x‖² − min_p p·x by less than round-off. */
export function minNormPoint(P: readonly V3[], tol = 1e-15): MinNormPoint {
  let scale2 = 0;
  for (const p of P) scale2 = Math.max(scale2, dot(p, p));
  let first = 0;
  for (let i = 1; i < P.length; i++) if (dot(P[i], P[i]) < dot(P[first], P[first])) first = i;
  let idx = [first];
  let w = [1];
  let x = P[first];
  for (let major = 0; major < 200; major++) {
    // Major cycle: the point most opposite x; stop when it cannot lower ‖x‖ beyond round-off.
    let j = 0;
    for (let i = 1; i < P.length; i++) if (dot(P[i], x) < dot(P[j], x)) j = i;
    const xx = dot(x, x);
    if (xx - dot(P[j], x) <= tol * scale2 || idx.includes(j) || idx.length === 4) break;
    const [prevIdx, prevW] = [idx, w];
    idx = [...idx, j];
    w = [...w, 0];
    // Minor cycles: move toward the affine minimiser, dropping points whose weight reaches 0.
    for (let minor = 0; minor < 10; minor++) {
      const mu = affineMinimizer(idx.map((i) => P[i]));
      if (!mu) {
        // Affinely dependent (round-off on degenerate input): drop the newest point and stop.
        idx = idx.slice(0, -1);
        w = w.slice(0, -1);
        break;
      }
      if (mu.every((m) => m > 0)) {
        w = mu;
        break;
      }
      let theta = 1;
      mu.forEach((m, k) => {
        if (m <= 0) theta = Math.min(theta, w[k] / (w[k] - m));
      });
      w = w.map((wk, k) => wk + theta * (mu[k] - wk));
      const keep = w.map((wk) => wk > 0);
      // Remove at least the point that defined theta (its weight is 0 up to round-off).
      let drop = -1;
      mu.forEach((m, k) => {
        if (m <= 0 && (drop < 0 || w[k] < w[drop])) drop = k;
      });
      if (drop >= 0) keep[drop] = false;
      idx = idx.filter((_, k) => keep[k]);
      w = w.filter((_, k) => keep[k]);
      const s = w.reduce((a, b) => a + b, 0);
      w = w.map((wk) => wk / s);
    }
    const next = combine(P, idx, w);
    if (!(dot(next, next) < xx)) {
      // No strict decrease: round-off has the last word; keep the previous simplex.
      [idx, w] = [prevIdx, prevW];
      break;
    }
    x = next;
  }
  return { x: combine(P, idx, w), idx, w };
}
