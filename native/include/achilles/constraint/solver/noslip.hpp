// MuJoCo's noslip post-solve (engine_solver.c solNoSlip, run by mj_fwdConstraint after any solver
// when option noslip_iterations > 0, per island as the solver, then mj_dualFinish): projected
// Gauss–Seidel on the dual problem of primal.hpp/pgs.hpp, over the friction rows only, with the
// friction rows' regularisation taken out:
//
//   A = AR − diag(R) = J M⁻¹ Jᵀ,   res_i = b_i + AR_i·f − R_i f_i = b_i + A_i·f   (residual, flg_subR)
//
// every other force (equality, limit, a contact's normal force) held where the solver left it. Per
// sweep, in MuJoCo's row order:
//   dry friction row i:   f_i ← clamp(f_i − res_i / Â_ii, ±frictionloss),  Â_ii = max(1e-15, AR_ii − R_i)
//   pyramidal point, per pair of opposite edges (j, j+1) (the point's normal force Σ f_e is kept):
//     f_j = mid + y, f_j+1 = mid − y, mid = ½(f_j + f_j+1): the pair's quadratic in y
//     ½K1·y² + K0·y with K1 = A_00 + A_11 − A_01 − A_10, K0 = mid(A_00 − A_11) + bc_0 − bc_1,
//     bc = res − A_c·f_c, minimized over |y| ≤ mid (A_c: the 2 × 2 block, diagonal ≥ 1e-10)
//   elliptic point: its friction forces f_t = argmin ½f_tᵀA_c f_t + bc·f_t on the ellipsoid
//     Σ (f_t,j/μ_j)² ≤ f_n² (mju_QCQP2/3/QCQP, put on the surface when the bound is active;
//     0 when f_n < 1e-15)
// keeping the old force of a block whose cost would rise by more than 1e-10 (costChange). The
// sweep's improvement (the cost decrease; at the first sweep plus Σ ½R_i f_i² over the island's
// rows), scaled by 1/(meaninertia·nv), below noslip_tolerance ends the island's noslip.
//
// Each lane runs its own islands scalar, on the AR that dual_prepare forms for the block (as PGS):
// a lane's answer is the same whatever lanes share its block.
#pragma once

#include "../../isa_namespace.hpp"

#include "../../bugs.hpp"
#include "pgs.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// mju_QCQP2/mju_QCQP3/mju_QCQP: min ½xᵀAx + xᵀb subject to Σ (x_i/d_i)² ≤ r² in n ≤ 5 dimensions,
/// by Newton's method on the multiplier λ of (A + λ)x = −b in the scaled variables x_i/d_i (at most
/// 20 steps; a singular A + λ gives 0). Returns whether the bound is active (λ ≠ 0). The 2- and
/// 3-dimensional cases invert A + λ by cofactors as MuJoCo's do; the general one by Cholesky.
template <class T>
inline bool mju_qcqp(T* res, const T* Ain, const T* bin, const T* d, T r, int n) {
  T A[25], b[5], v[5] = {};
  for (int i = 0; i < n; ++i) {
    b[i] = bin[i] * d[i];
    for (int j = 0; j < n; ++j) A[j + i * n] = Ain[j + i * n] * d[i] * d[j];
  }
  T la(0);
  if (n == 2) {
    const T A11 = A[0], A22 = A[3], A12 = A[1]; // A_21 is not read (A is symmetric), as mju_QCQP2
    for (int iter = 0; iter < 20; ++iter) {
      const T det = (A11 + la) * (A22 + la) - A12 * A12;
      if (det < T(1e-10)) {
        res[0] = res[1] = T(0);
        return false;
      }
      const T detinv = T(1) / det;
      const T P11 = (A22 + la) * detinv, P22 = (A11 + la) * detinv, P12 = -A12 * detinv;
      v[0] = -P11 * b[0] - P12 * b[1];
      v[1] = -P12 * b[0] - P22 * b[1];
      const T val = v[0] * v[0] + v[1] * v[1] - r * r;
      if (val < T(1e-10)) break;
      const T deriv = T(-2.0) * (P11 * v[0] * v[0] + T(2.0) * P12 * v[0] * v[1] + P22 * v[1] * v[1]);
      const T delta = -val / deriv;
      if (delta < T(1e-10)) break;
      la += delta;
    }
  } else if (n == 3) {
    const T A11 = A[0], A22 = A[4], A33 = A[8], A12 = A[1], A13 = A[2], A23 = A[5];
    for (int iter = 0; iter < 20; ++iter) {
      T P11 = (A22 + la) * (A33 + la) - A23 * A23;
      T P22 = (A11 + la) * (A33 + la) - A13 * A13;
      T P33 = (A11 + la) * (A22 + la) - A12 * A12;
      T P12 = A13 * A23 - A12 * (A33 + la);
      T P13 = A12 * A23 - A13 * (A22 + la);
      T P23 = A12 * A13 - A23 * (A11 + la);
      const T det = (A11 + la) * P11 + A12 * P12 + A13 * P13;
      if (det < T(1e-10)) {
        res[0] = res[1] = res[2] = T(0);
        return false;
      }
      const T detinv = T(1) / det;
      P11 *= detinv, P22 *= detinv, P33 *= detinv, P12 *= detinv, P13 *= detinv, P23 *= detinv;
      v[0] = -P11 * b[0] - P12 * b[1] - P13 * b[2];
      v[1] = -P12 * b[0] - P22 * b[1] - P23 * b[2];
      v[2] = -P13 * b[0] - P23 * b[1] - P33 * b[2];
      const T val = v[0] * v[0] + v[1] * v[1] + v[2] * v[2] - r * r;
      if (val < T(1e-10)) break;
      const T deriv = T(-2.0) * (P11 * v[0] * v[0] + P22 * v[1] * v[1] + P33 * v[2] * v[2]) -
                      T(4.0) * (P12 * v[0] * v[1] + P13 * v[0] * v[2] + P23 * v[1] * v[2]);
      const T delta = -val / deriv;
      if (delta < T(1e-10)) break;
      la += delta;
    }
  } else {
    for (int iter = 0; iter < 20; ++iter) {
      // A + λ = LLᵀ (mju_cholFactor, threshold 1e-10: a rank-deficient matrix gives 0)
      T Lf[25];
      for (int e = 0; e < n * n; ++e) Lf[e] = A[e];
      for (int i = 0; i < n; ++i) Lf[i * (n + 1)] += la;
      bool full = true;
      for (int j = 0; j < n; ++j) {
        T t = Lf[j * (n + 1)];
        if (j) t -= mju_dot(Lf + j * n, Lf + j * n, j);
        const bool deficient = t < T(1e-10);
        if (deficient) t = T(1e-10), full = false;
        Lf[j * (n + 1)] = std::sqrt(t);
        if (deficient) {
          for (int i = j + 1; i < n; ++i) Lf[i * n + j] = T(0);
        } else {
          const T inv = T(1) / Lf[j * (n + 1)];
          for (int i = j + 1; i < n; ++i) Lf[i * n + j] = (Lf[i * n + j] - mju_dot(Lf + i * n, Lf + j * n, j)) * inv;
        }
      }
      if (!full) {
        for (int i = 0; i < n; ++i) res[i] = T(0);
        return false;
      }
      // mju_cholSolve: L·Lᵀ x = rhs, forward then backward
      auto chol_solve = [&](T* x, const T* rhs) {
        for (int i = 0; i < n; ++i) x[i] = rhs[i];
        for (int i = 0; i < n; ++i) {
          if (i) x[i] -= mju_dot(Lf + i * n, x, i);
          x[i] /= Lf[i * (n + 1)];
        }
        for (int i = n - 1; i >= 0; --i) {
          for (int j = i + 1; j < n; ++j) x[i] -= Lf[j * n + i] * x[j];
          x[i] /= Lf[i * (n + 1)];
        }
      };
      chol_solve(v, b);
      for (int i = 0; i < n; ++i) v[i] *= T(-1);
      const T val = mju_dot(v, v, n) - r * r;
      if (val < T(1e-10)) break;
      T tmp[5];
      chol_solve(tmp, v);
      const T deriv = T(-2.0) * mju_dot(v, tmp, n);
      const T delta = -val / deriv;
      if (delta < T(1e-10)) break;
      la += delta;
    }
  }
  for (int i = 0; i < n; ++i) res[i] = v[i] * d[i];
  return la != T(0);
}

/// MuJoCo's costChange: ½δᵀA_cδ + δ·res for the block's step δ = f − old; a rise past 1e-10 puts the
/// old force back and counts 0.
template <class T>
inline T noslip_cost_change(const T* Ac, T* f, const T* old, const T* res, int n) {
  T change;
  if (n == 1) {
    const T delta = f[0] - old[0];
    change = T(0.5) * delta * delta * Ac[0] + delta * res[0];
  } else {
    T delta[5];
    for (int k = 0; k < n; ++k) delta[k] = f[k] - old[k];
    T quad(0); // mju_mulVecMatVec
    for (int k = 0; k < n; ++k) quad += delta[k] * mju_dot(Ac + k * n, delta, n);
    change = T(0.5) * quad + mju_dot(delta, res, n);
  }
  if (change > T(1e-10)) {
    for (int k = 0; k < n; ++k) f[k] = old[k];
    change = T(0);
  }
  return change;
}

/// What solNoSlip needs to know of the island's contact rows beyond AR: per row, the rows of its
/// point at its first row (`first_rows`: 2(condim − 1) for a pyramid, condim for an elliptic point,
/// 0 elsewhere: a frictionless point, a point's later rows, a limit) and whether the point is
/// elliptic; μ of an elliptic point's friction rows.
template <class T>
struct NoslipRows {
  const int* first_rows;
  const unsigned char* elliptic;
  const T* mu;
};

/// solNoSlip on one island of one lane: at most `maxiter` sweeps from the forces in D.f.
template <class T>
inline void noslip_island(const DualIsland<T>& D, const NoslipRows<T>& C, int maxiter, double tolerance, T scale) {
  const int n = D.n, nfric_end = D.ne + D.nf;
  T* f = D.f;
  T* ARinv = D.scratch;
  // ARdiaginv with flg_subR: 1/max(mjMINVAL, AR_cc − R_c)
  for (int c = 0; c < n; ++c) {
    const T a = D.A[c * n + c] - D.R[c];
    ARinv[c] = T(1) / (a < T(kMinVal) ? T(kMinVal) : a);
  }
  // residual(…, flg_subR): b_i + AR_i·f − R_i f_i
  auto residual = [&](int i) { return D.b[i] + mju_dot(D.A + i * n, f, n) - D.R[i] * f[i]; };
  // extractBlock(…, flg_subR): AR's k × k diagonal block from row i, R off its diagonal, clamped to 1e-10
  auto block = [&](T* Ac, int i, int k) {
    for (int r = 0; r < k; ++r)
      for (int c = 0; c < k; ++c) Ac[r * k + c] = D.A[(i + r) * n + i + c];
    for (int r = 0; r < k; ++r) {
      Ac[r * (k + 1)] -= D.R[i + r];
      Ac[r * (k + 1)] = Ac[r * (k + 1)] < T(1e-10) ? T(1e-10) : Ac[r * (k + 1)];
    }
  };
  for (int it = 0; it < maxiter; ++it) {
    T improvement(0);
    if (it == 0) // the cost's regularisation term, which the sweeps leave out
      for (int c = 0; c < n; ++c) improvement += T(0.5) * f[c] * f[c] * D.R[c];
    // dry friction
    for (int c = D.ne; c < nfric_end; ++c) {
      const T res = residual(c);
      const T old = f[c];
      T fc = old - res * ARinv[c];
      fc = fc < -D.floss[c] ? -D.floss[c] : (fc > D.floss[c] ? D.floss[c] : fc);
      f[c] = fc;
      const T delta = fc - old;
      improvement -= T(0.5) * delta * delta / ARinv[c] + delta * res;
    }
    // contact friction
    for (int c = nfric_end; c < n; ++c) {
      const int rows = C.first_rows[c];
      if (rows == 0 || ACH_BUG(NoslipSkipsFrictionRows)) continue; // the planted bug: the contacts' friction left as the solver had it
      if (!C.elliptic[c]) {
        for (int j = c; j < c + rows; j += 2) { // each pair of opposite edges
          const T res[2] = {residual(j), residual(j + 1)};
          const T old[2] = {f[j], f[j + 1]};
          T Ac[4];
          block(Ac, j, 2);
          T bc[2];
          for (int k = 0; k < 2; ++k) bc[k] = res[k] - mju_dot(Ac + k * 2, old, 2);
          const T mid = T(0.5) * (f[j] + f[j + 1]);
          const T K1 = Ac[0] + Ac[3] - Ac[1] - Ac[2];
          const T K0 = mid * (Ac[0] - Ac[3]) + bc[0] - bc[1];
          if (K1 < T(kMinVal)) {
            f[j] = f[j + 1] = mid;
          } else {
            const T y = -K0 / K1;
            if (y < -mid)
              f[j] = T(0), f[j + 1] = T(2) * mid;
            else if (y > mid)
              f[j] = T(2) * mid, f[j + 1] = T(0);
            else
              f[j] = mid + y, f[j + 1] = mid - y;
          }
          improvement -= noslip_cost_change(Ac, f + j, old, res, 2);
        }
      } else {
        const int k = rows - 1, i = c + 1; // the friction rows after the normal row c
        T res[5], old[5], Ac[25], bc[5];
        for (int e = 0; e < k; ++e) res[e] = residual(i + e), old[e] = f[i + e];
        block(Ac, i, k);
        for (int e = 0; e < k; ++e) bc[e] = res[e] - mju_dot(Ac + e * k, old, k);
        if (f[c] < T(kMinVal)) {
          for (int e = 0; e < k; ++e) f[i + e] = T(0);
        } else {
          T v[5];
          const T* mu = C.mu + i;
          // solveQCQP: on the bound, v put on the ellipsoid (the Newton steps stop near it)
          if (mju_qcqp(v, Ac, bc, mu, f[c], k)) {
            T s(0);
            for (int e = 0; e < k; ++e) s += v[e] * v[e] / (mu[e] * mu[e]);
            const T scl = std::sqrt(f[c] * f[c] / (s < T(kMinVal) ? T(kMinVal) : s));
            for (int e = 0; e < k; ++e) v[e] *= scl;
          }
          for (int e = 0; e < k; ++e) f[i + e] = v[e];
        }
        improvement -= noslip_cost_change(Ac, f + i, old, res, k);
      }
      c += rows - 1;
    }
    improvement *= scale;
    if (improvement < T(tolerance)) break;
  }
}

/// mj_fwdConstraint's noslip after the block's solve (any solver), then mj_dualFinish: a = a₀ + M⁻¹Jᵀf.
/// After PGS the dual problem is formed already and pgs_f holds the solver's forces; after CG or
/// Newton it is formed here and the forces taken from the solve (u_force, 0 off a lane's rows).
template <class V>
inline void solve_noslip(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw) {
  using T = ScalarOf<V>;
  constexpr int L = lanes_of<V>;
  const int n = cw.nused;
  if (KC.method != SolverMethod::pgs) {
    cw.reserve_pgs(n);
    dual_prepare(M, KC, W, cw);
    for (int u = 0; u < n; ++u) {
      const MaskOf<V> in = u < cw.nfric_used ? mask_true<V>() : cw.u_on[u];
      vstore(cw.pgs_f + u * L, vselect(in, cw.u_force[u], V(T(0))));
    }
  }
  for (int l = 0; l < L; ++l) {
    const T scale = pgs_scale(KC, cw.lanes, M.nv, l);
    // per island row: its point's rows at its first row, elliptic or not, μ (the island's own order)
    int* first_rows = cw.pgs_int + 2 * n;
    for_each_island(KC, cw, l, [&](const DualIsland<T>& D) {
      T* mu = D.scratch + n; // the scratch after noslip_island's ARinv
      unsigned char* ell = reinterpret_cast<unsigned char*>(D.scratch + 2 * n);
      for (int c = 0; c < D.n; ++c) {
        const int u = D.rows[c], r = cw.used[u];
        first_rows[c] = 0;
        ell[c] = 0;
        mu[c] = cw.u_cone[u] != 0 ? vlane(cw.u_cone_mu[u], l) : T(0); // set for the elliptic cone's rows only
        if (u < cw.first_contact_used) continue;
        const int slot = cw.row_point[r - cw.first_contact], p = slot / kPairPoints;
        const KContactPair<T>& P = cw.pair[p];
        const int k = r - (cw.pair_row[p] + (slot % kPairPoints) * P.rows); // the row within its point
        if (k != 0 || P.rows == 1) continue;
        first_rows[c] = P.rows;
        ell[c] = P.elliptic ? 1 : 0;
      }
      noslip_island(D, NoslipRows<T>{first_rows, ell, mu}, KC.noslip_iterations, KC.noslip_tolerance, scale);
    });
  }
  dual_finish(M, KC, W, cw);
}

} // namespace ACH_ISA_NS
} // namespace ach
