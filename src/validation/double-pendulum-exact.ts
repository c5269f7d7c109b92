// Closed-form equations of motion of a planar double compound pendulum, used
// as an engine-independent reference for the two-link validation scenes.
//
// Derivation (Lagrangian mechanics)
// ---------------------------------
// Both joints rotate about axes parallel to world X, so all motion is in the
// YZ plane; write planar vectors as (y, z). A rotation by θ right-handed about
// +X maps +Y to (cos θ, sin θ), and angles are zero when a link points along +Y:
//   u(θ)  = ( cos θ, sin θ)     unit vector along a link at absolute angle θ
//   u⊥(θ) = (−sin θ, cos θ)     = du/dθ
// Link 1's absolute angle is φ; link 2's is φ + ψ (ψ is the relative joint angle).
//
// Positions of the centres of mass:
//   c1 = r1·u(φ)
//   c2 = l1·u(φ) + r2·u(φ+ψ)
//
// Kinetic energy. Link 1 rotates about the fixed origin: T1 = ½ I1 φ̇².
// Link 2 rotates with ω2 = φ̇ + ψ̇ about its pivot p = l1·u(φ), which moves with
// ṗ = l1 φ̇ u⊥(φ). For a rigid body with inertia I2 about a moving reference
// point p, at CoM offset d = r2·u(φ+ψ) from p:
//   T2 = ½ m2 |ṗ|² + m2 ṗ·(ω2 × d) + ½ I2 ω2²,   with ω2 × d = r2 ω2 u⊥(φ+ψ)
//   |ṗ|² = l1² φ̇²,   u⊥(φ)·u⊥(φ+ψ) = cos ψ
//   T2 = ½ m2 l1² φ̇² + m2 l1 r2 cos ψ · φ̇ (φ̇ + ψ̇) + ½ I2 (φ̇ + ψ̇)²
// With P = I1 + m2 l1², Q = I2, R = m2 l1 r2:
//   T = ½ P φ̇² + R cos ψ · φ̇(φ̇ + ψ̇) + ½ Q (φ̇ + ψ̇)² = ½ q̇ᵀ M(ψ) q̇
//   M = [[P + Q + 2R cos ψ,  Q + R cos ψ],
//        [Q + R cos ψ,       Q          ]]
//
// Potential energy, gravity g = (gy, gz), zero at the origin:
//   V = −m1 g·c1 − m2 g·c2
// With G(θ) = g·u(θ) = gy cos θ + gz sin θ  and  H(θ) = dG/dθ = g·u⊥(θ) = −gy sin θ + gz cos θ:
//   V = −(m1 r1 + m2 l1)·G(φ) − m2 r2·G(φ+ψ)
//   ∂V/∂φ = −(m1 r1 + m2 l1)·H(φ) − m2 r2·H(φ+ψ)
//   ∂V/∂ψ = −m2 r2·H(φ+ψ)
//
// Euler–Lagrange, L = T − V, generalized forces τ:
//   d/dt(∂L/∂q̇) − ∂L/∂q = τ   ⇒   M q̈ + Ṁ q̇ − ∂T/∂q + ∂V/∂q = τ
// Only ψ appears in M:
//   Ṁ = −R sin ψ · ψ̇ · [[2, 1], [1, 0]]   ⇒   Ṁ q̇ = −R sin ψ · ψ̇ · (2φ̇ + ψ̇, φ̇)
//   ∂T/∂φ = 0,   ∂T/∂ψ = −R sin ψ · φ̇(φ̇ + ψ̇)
// so the velocity-product terms c = Ṁ q̇ − ∂T/∂q are
//   c1 = −R sin ψ · (2 φ̇ ψ̇ + ψ̇²)
//   c2 = −R sin ψ · φ̇ ψ̇ + R sin ψ · φ̇(φ̇ + ψ̇) = R sin ψ · φ̇²
// and M q̈ = b = τ − c − ∂V/∂q:
//   b1 = τ1 + R sin ψ (2 φ̇ ψ̇ + ψ̇²) + (m1 r1 + m2 l1)·H(φ) + m2 r2·H(φ+ψ)
//   b2 = τ2 − R sin ψ · φ̇²                                 + m2 r2·H(φ+ψ)
// For gravity +g along +Z (gy = 0, gz = g), H(θ) = g cos θ, which is the form in
// shared/achilles-arow/README.md §4.
//
// M is positive definite for physical parameters: the parallel-axis theorem gives
// I2 ≥ m2 r2², so det M = PQ − R² cos²ψ ≥ PQ − R² = I1 I2 + m2 l1² (I2 − m2 r2²) > 0
// whenever I1, I2 > 0. The 2×2 solve below (Cramer's rule) is therefore well-posed
// and accurate to a few ulps in float64 at these condition numbers.

export interface DoublePendulumParams {
  /** Link 1 mass, CoM distance from its pivot, inertia about its pivot axis. */
  m1: number;
  r1: number;
  I1: number;
  /** Link 2 mass, CoM distance from its pivot (the elbow), inertia about the elbow axis. */
  m2: number;
  r2: number;
  I2: number;
  /** Distance from the shoulder to the elbow along link 1. */
  l1: number;
  /** Gravity vector's world Y and Z components (e.g. [0, 9.8] for +Z). */
  gy: number;
  gz: number;
}

export interface DoublePendulumState {
  /** Link 1 angle about +X, zero along +Y. */
  phi: number;
  /** Link 2 angle relative to link 1 (the elbow joint coordinate). */
  psi: number;
  phiDot: number;
  psiDot: number;
}

/** Mass matrix M(ψ) as [M11, M12, M22] (symmetric). */
export function doublePendulumMassMatrix(p: DoublePendulumParams, psi: number): [number, number, number] {
  const P = p.I1 + p.m2 * p.l1 * p.l1;
  const Q = p.I2;
  const R = p.m2 * p.l1 * p.r2;
  const c = Math.cos(psi);
  return [P + Q + 2 * R * c, Q + R * c, Q];
}

/** Right-hand side b of M q̈ = b (gravity, velocity-product terms and torques). */
export function doublePendulumRhs(
  p: DoublePendulumParams,
  s: DoublePendulumState,
  tau: readonly [number, number] = [0, 0],
): [number, number] {
  const R = p.m2 * p.l1 * p.r2;
  const sp = Math.sin(s.psi);
  const H = (theta: number): number => -p.gy * Math.sin(theta) + p.gz * Math.cos(theta);
  const h12 = p.m2 * p.r2 * H(s.phi + s.psi);
  const b1 = tau[0] + R * sp * (2 * s.phiDot * s.psiDot + s.psiDot * s.psiDot) + (p.m1 * p.r1 + p.m2 * p.l1) * H(s.phi) + h12;
  const b2 = tau[1] - R * sp * s.phiDot * s.phiDot + h12;
  return [b1, b2];
}

/** Joint accelerations [φ̈, ψ̈] for the given state and joint torques [τ1, τ2] (default zero). */
export function doublePendulumAccel(
  p: DoublePendulumParams,
  s: DoublePendulumState,
  tau: readonly [number, number] = [0, 0],
): [number, number] {
  const [a, bOff, d] = doublePendulumMassMatrix(p, s.psi);
  const [b1, b2] = doublePendulumRhs(p, s, tau);
  const det = a * d - bOff * bOff;
  if (!(det > 0)) throw new Error(`double pendulum mass matrix is not positive definite (det ${det}); check I_i ≥ m_i·r_i²`);
  return [(d * b1 - bOff * b2) / det, (a * b2 - bOff * b1) / det];
}

/** Kinetic energy ½ q̇ᵀMq̇ and potential −Σ m_i g·c_i (zero with both CoMs at the origin). */
export function doublePendulumEnergy(p: DoublePendulumParams, s: DoublePendulumState): { kinetic: number; potential: number } {
  const [a, bOff, d] = doublePendulumMassMatrix(p, s.psi);
  const kinetic = 0.5 * (a * s.phiDot * s.phiDot + 2 * bOff * s.phiDot * s.psiDot + d * s.psiDot * s.psiDot);
  const G = (theta: number): number => p.gy * Math.cos(theta) + p.gz * Math.sin(theta);
  const potential = -(p.m1 * p.r1 + p.m2 * p.l1) * G(s.phi) - p.m2 * p.r2 * G(s.phi + s.psi);
  return { kinetic, potential };
}
