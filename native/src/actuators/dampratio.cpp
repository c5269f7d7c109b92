// resolve_dampratios: MuJoCo's compile-time conversion of a position-like actuator's dampratio
// into a damping gain (mj_setConst, engine_setconst.c, "compute actuator damping from dampratio"):
//
//   position-like: gainprm₀ = −biasprm₁ (kp = gainprm₀), and biasprm₂ > 0 (a dampratio ζ; a kv is
//   stored as biasprm₂ = −kv <= 0 and left alone)
//   reflected inertia  m = Σ_dofs M0_kk / g_k²  over the transmission's dofs with g_k² > mjMINVAL
//   (g_k: the gear on a joint's dofs; through a fixed tendon, the moment gear₀·coef_k on each of its dofs)
//   biasprm₂ ← −ζ·2·√(kp·m)
//
// M0 is the joint-space inertia (armature included) at qpos0: hinges and slides at their ref
// (Joint::ref, 0 unless given), as MuJoCo's qpos0 (our MJCF export writes each joint's ref, and the
// initial state as a keyframe, never as qpos0). Its diagonal is
// read from M⁻¹'s columns (the ABA's accelerations of unit forces at rest, without gravity),
// inverted: M0 to round-off, as MuJoCo's own CRB gives it. M⁻¹ itself (inverse_mass_at_qpos0) also
// serves the joints' springdamper (springdamper.cpp), made from dof_invweight0 = diag(M⁻¹).
#define ACH_ISA_NS isa_dampratio
#include <cmath>
#include <stdexcept>
#include <vector>

#include "achilles/kernel_impl.hpp"

namespace ach {

namespace {

constexpr double kDampMinVal = 1e-15; // MuJoCo's mjMINVAL

bool wants_dampratio(const Actuator& a) { return a.kind == ActuatorKind::General && a.gainprm[0] == -a.biasprm[1] && a.biasprm[2] > 0; }

/// The diagonal of M = (M⁻¹)⁻¹ by Gauss–Jordan elimination with partial pivoting (nv is small).
std::vector<double> inverse_diagonal(std::vector<double> A, int n) {
  std::vector<double> I(static_cast<std::size_t>(n) * n, 0.0);
  for (int k = 0; k < n; ++k) I[static_cast<std::size_t>(k) * n + k] = 1;
  auto at = [n](std::vector<double>& X, int r, int c) -> double& { return X[static_cast<std::size_t>(r) * n + c]; };
  for (int c = 0; c < n; ++c) {
    int p = c;
    for (int r = c + 1; r < n; ++r)
      if (std::fabs(at(A, r, c)) > std::fabs(at(A, p, c))) p = r;
    if (at(A, p, c) == 0) throw std::invalid_argument("dampratio: the mass matrix at qpos0 is singular");
    if (p != c)
      for (int k = 0; k < n; ++k) std::swap(at(A, p, k), at(A, c, k)), std::swap(at(I, p, k), at(I, c, k));
    const double d = at(A, c, c);
    for (int k = 0; k < n; ++k) at(A, c, k) /= d, at(I, c, k) /= d;
    for (int r = 0; r < n; ++r) {
      if (r == c || at(A, r, c) == 0) continue;
      const double f = at(A, r, c);
      for (int k = 0; k < n; ++k) at(A, r, k) -= f * at(A, c, k), at(I, r, k) -= f * at(I, c, k);
    }
  }
  std::vector<double> diag(n);
  for (int k = 0; k < n; ++k) diag[k] = at(I, k, k);
  return diag;
}

/// diag(M) at qpos0: M = (M⁻¹)⁻¹.
std::vector<double> mass_diagonal_at_qpos0(const Model& m) { return inverse_diagonal(inverse_mass_at_qpos0(m), m.nv); }

} // namespace

std::vector<double> inverse_mass_at_qpos0(const Model& m) {
  using namespace isa_dampratio;
  KModel<double> K(m);
  K.without_gravity();
  const int nv = m.nv;
  const KForces<double> F(m, 0.0);
  Arena arena(BlockScratch<double>::bytes_needed(K, 0, F.nu));
  BlockScratch<double> sc(arena, K, F, 0);
  std::vector<double> q(m.q0), zero(nv, 0.0), e(nv, 0.0), Minv(static_cast<std::size_t>(nv) * nv);
  for (const Joint& j : m.joints) {
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic) q[j.qoff] = j.ref;
    if (j.type == JointType::Planar)
      for (int k = 0; k < j.nq; ++k) q[j.qoff + k] = 0;
    if (j.type == JointType::Ball) q[j.qoff] = 1, q[j.qoff + 1] = q[j.qoff + 2] = q[j.qoff + 3] = 0;
  }
  for (int c = 0; c < nv; ++c) {
    e.assign(nv, 0.0);
    e[c] = 1;
    forward_dynamics(K, sc.s.W, q.data(), zero.data(), e.data(), sc.s.qacc);
    for (int r = 0; r < nv; ++r) Minv[static_cast<std::size_t>(r) * nv + c] = sc.s.qacc[r];
  }
  return Minv;
}

void resolve_dampratios(Model& m) {
  bool any = false;
  for (const Actuator& a : m.actuators) any = any || wants_dampratio(a);
  if (!any) return;
  const std::vector<double> M0 = mass_diagonal_at_qpos0(m);
  for (Actuator& a : m.actuators) {
    if (!wants_dampratio(a)) continue;
    // the transmission: gear on the joint's dofs, or gear₀·coef on the tendon's (MuJoCo's actuator_moment at qpos0)
    double mass = 0;
    const auto add = [&](double moment, int dof) {
      const double trn = std::fabs(moment);
      const double trn2 = trn * trn;
      if (trn2 > kDampMinVal) mass += M0[dof] / trn2;
    };
    if (a.tendon >= 0) {
      const Tendon& t = m.tendons[a.tendon];
      for (std::size_t e = 0; e < t.joints.size(); ++e) add(a.gear[0] * t.coefs[e], m.joints[t.joints[e]].voff);
    } else {
      const Joint& j = m.joints[a.joint];
      for (int k = 0; k < j.nv; ++k) add(a.gear[k], j.voff + k);
    }
    const double kp = a.gainprm[0];
    a.biasprm[2] = -(a.biasprm[2] * 2 * std::sqrt(kp * mass));
  }
}

} // namespace ach
