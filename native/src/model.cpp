// Model::finalize: derived quantities and the invariants the kernels assume.
#include "achilles/model.hpp"

#include <array>
#include <cmath>
#include <sstream>

namespace ach {

namespace {

[[noreturn]] void fail(const Joint& j, const std::string& what) { throw std::invalid_argument("joint '" + j.name + "': " + what); }

bool finite_all(const double* x, int n) {
  for (int k = 0; k < n; ++k)
    if (!std::isfinite(x[k])) return false;
  return true;
}

double norm3(const double* a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

// ---- the load-time singularity check (plain double, 6x6 spatial matrices, [ω; v] order) ----------

using Mat6 = std::array<double, 36>;
using Mat3 = std::array<double, 9>;

Mat3 quat_to_R(double w, double x, double y, double z) {
  const double n = std::sqrt(w * w + x * x + y * y + z * z);
  w /= n, x /= n, y /= n, z /= n;
  return {1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z),    1 - 2 * (x * x + z * z),
          2 * (y * z - w * x),     2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
}
Mat3 axis_angle_R(const double* a, double th) {
  const double s = std::sin(th / 2), c = std::cos(th / 2);
  return quat_to_R(c, a[0] * s, a[1] * s, a[2] * s);
}
Mat3 mul3(const Mat3& A, const Mat3& B) {
  Mat3 C{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) C[r * 3 + c] += A[r * 3 + k] * B[k * 3 + c];
  return C;
}
Mat6 mul6(const Mat6& A, const Mat6& B) {
  Mat6 C{};
  for (int r = 0; r < 6; ++r)
    for (int k = 0; k < 6; ++k)
      for (int c = 0; c < 6; ++c) C[r * 6 + c] += A[r * 6 + k] * B[k * 6 + c];
  return C;
}

/// X_PB(q0) = X_PJ · X_J(q0) as (R_PB, p_PoBo_P).
void placement_at_q0(const Joint& j, const double* q, Mat3& R, double* p) {
  Mat3 R_PJ;
  for (int e = 0; e < 9; ++e) R_PJ[e] = j.R_PJ[e];
  Mat3 R_J = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double p_J[3] = {0, 0, 0};
  switch (j.type) {
    case JointType::Revolute:
      R_J = axis_angle_R(j.axis, q[0]);
      break;
    case JointType::Prismatic:
      for (int k = 0; k < 3; ++k) p_J[k] = q[0] * j.axis[k];
      break;
    case JointType::Ball:
      R_J = quat_to_R(q[0], q[1], q[2], q[3]);
      break;
    case JointType::Free:
      for (int k = 0; k < 3; ++k) p_J[k] = q[k];
      R_J = quat_to_R(q[3], q[4], q[5], q[6]);
      break;
    case JointType::Planar:
      for (int k = 0; k < 3; ++k) p_J[k] = q[0] * j.u[k] + q[1] * j.w[k];
      R_J = axis_angle_R(j.axis, q[2]);
      break;
    case JointType::Fixed:
      break;
  }
  R = mul3(R_PJ, R_J);
  for (int r = 0; r < 3; ++r) p[r] = j.p_PJ[r] + R_PJ[r * 3] * p_J[0] + R_PJ[r * 3 + 1] * p_J[1] + R_PJ[r * 3 + 2] * p_J[2];
}

/// A body-frame spatial inertia expressed in its parent: Xf · I · Xm⁻¹ with Xm = [[R,0],[p×R,R]], Xf = Xm⁻ᵀ.
Mat6 inertia_to_parent(const Mat6& I, const Mat3& R, const double* p) {
  const Mat3 px = {0, -p[2], p[1], p[2], 0, -p[0], -p[1], p[0], 0};
  const Mat3 pxR = mul3(px, R);
  Mat6 Xf{}, XmInv{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      Xf[r * 6 + c] = R[r * 3 + c];
      Xf[r * 6 + c + 3] = pxR[r * 3 + c];
      Xf[(r + 3) * 6 + c + 3] = R[r * 3 + c];
      XmInv[r * 6 + c] = R[c * 3 + r];           // Rᵀ
      XmInv[(r + 3) * 6 + c + 3] = R[c * 3 + r]; // Rᵀ
      XmInv[(r + 3) * 6 + c] = pxR[c * 3 + r];   // −Rᵀ·p× = (p×·R)ᵀ
    }
  return mul6(mul6(Xf, I), XmInv);
}

/// The motion subspace's columns in the body frame, as any basis of its span (the span is all
/// that decides whether Sᵀ·IA·S is positive definite): free = I₆, ball = [I₃; 0], planar = {[0;u], [0;w], [n;0]}.
int subspace_basis(const Joint& j, double S[6][6]) {
  for (int k = 0; k < 6; ++k)
    for (int r = 0; r < 6; ++r) S[k][r] = 0;
  switch (j.type) {
    case JointType::Revolute:
      for (int r = 0; r < 3; ++r) S[0][r] = j.axis[r];
      return 1;
    case JointType::Prismatic:
      for (int r = 0; r < 3; ++r) S[0][r + 3] = j.axis[r];
      return 1;
    case JointType::Ball:
      for (int k = 0; k < 3; ++k) S[k][k] = 1;
      return 3;
    case JointType::Free:
      for (int k = 0; k < 6; ++k) S[k][k] = 1;
      return 6;
    case JointType::Planar:
      for (int r = 0; r < 3; ++r) S[0][r + 3] = j.u[r], S[1][r + 3] = j.w[r], S[2][r] = j.axis[r];
      return 3;
    case JointType::Fixed:
      return 0;
  }
  return 0;
}

/// Sᵀ·A·S for nv columns.
void project(const Mat6& A, double S[6][6], int nv, double* D) {
  for (int a = 0; a < nv; ++a)
    for (int b = 0; b < nv; ++b) {
      double s = 0;
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) s += S[a][r] * A[r * 6 + c] * S[b][c];
      D[a * nv + b] = s;
    }
}

} // namespace

// Why a relative bar of 1e-6: D_art/D_locked is the share of the joint's inertia that survives when
// the bodies below may move; in float32 (about 7 significant digits) a share below 1e-6 is lost in
// the round-off of forming IA, so the step would divide by noise. Exact singularities (two parallel
// hinges through one massless point, a massless leaf) give 0 up to double round-off (~1e-16).
const double Model::kSingularShare = 1e-6;

void Model::check_effective_inertia() const {
  const int n = static_cast<int>(joints.size());
  // Structural: every moving joint must carry some mass in its subtree.
  std::vector<double> subtree_mass(n, 0.0);
  for (int i = n - 1; i >= 0; --i) {
    subtree_mass[i] += joints[i].mass;
    if (joints[i].parent >= 0) subtree_mass[joints[i].parent] += subtree_mass[i];
  }
  for (int i = 0; i < n; ++i)
    if (joints[i].nv > 0 && !(subtree_mass[i] > 0))
      fail(joints[i], "it and every link below it are massless, so its joint has no inertia to move (give it or a link below it a mass)");

  // Numerical: the ABA's D = Sᵀ·IA·S at q0, scaled by the locked-subtree D_c = Sᵀ·Ic·S.
  std::vector<Mat6> IA(n), Ic(n);
  std::vector<Mat3> R(n);
  std::vector<std::array<double, 3>> p(n);
  for (int i = 0; i < n; ++i) {
    const Joint& j = joints[i];
    placement_at_q0(j, q0.data() + j.qoff, R[i], p[i].data());
    Mat6 I{};
    const double m = j.mass, h[3] = {j.h[0], j.h[1], j.h[2]};
    const double Io[9] = {j.I_o[0], j.I_o[3], j.I_o[4], j.I_o[3], j.I_o[1], j.I_o[5], j.I_o[4], j.I_o[5], j.I_o[2]};
    const double hx[9] = {0, -h[2], h[1], h[2], 0, -h[0], -h[1], h[0], 0};
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        I[r * 6 + c] = Io[r * 3 + c];
        I[r * 6 + c + 3] = hx[r * 3 + c];
        I[(r + 3) * 6 + c] = -hx[r * 3 + c];
        I[(r + 3) * 6 + c + 3] = r == c ? m : 0;
      }
    IA[i] = Ic[i] = I;
  }
  for (int i = n - 1; i >= 0; --i) {
    const Joint& j = joints[i];
    double S[6][6];
    const int nv = subspace_basis(j, S);
    Mat6 Ia = IA[i];
    if (nv > 0) {
      double D[36], Dc[36];
      project(IA[i], S, nv, D);
      project(Ic[i], S, nv, Dc);
      // Cholesky of diag(Dc)^-½ · D · diag(Dc)^-½: every pivot is a share of the locked inertia.
      double L[36] = {};
      for (int c = 0; c < nv; ++c) {
        if (!(Dc[c * nv + c] > 0)) fail(j, "its joint has no inertia along one of its directions (singular model)");
        for (int r = c; r < nv; ++r) {
          double s = D[r * nv + c] / std::sqrt(Dc[r * nv + r] * Dc[c * nv + c]);
          for (int k = 0; k < c; ++k) s -= L[r * nv + k] * L[c * nv + k];
          if (r == c) {
            if (!(s > kSingularShare)) {
              std::ostringstream msg;
              msg << "singular model: the effective inertia of its joint (the ABA's D = S^T IA S at the initial "
                     "configuration) keeps only "
                  << (s > 0 ? s : 0.0) << " of the locked-subtree inertia along direction " << c << ", below the bar " << kSingularShare
                  << " (a massless link needs the links below it to resist every motion of its joint: "
                     "e.g. two hinges at one point on non-parallel axes with the mass off both axes)";
              fail(j, msg.str());
            }
            L[c * nv + c] = std::sqrt(s);
          } else {
            L[r * nv + c] = s / L[c * nv + c];
          }
        }
      }
      // Ia = IA − U D⁻¹ Uᵀ, U = IA S (D⁻¹ from the Cholesky of the unscaled D).
      double U[6][6];
      for (int k = 0; k < nv; ++k)
        for (int r = 0; r < 6; ++r) {
          double s = 0;
          for (int c = 0; c < 6; ++c) s += IA[i][r * 6 + c] * S[k][c];
          U[k][r] = s;
        }
      double Dinv[36];
      for (int a = 0; a < nv; ++a)
        for (int b = 0; b < nv; ++b) Dinv[a * nv + b] = a == b ? 1 : 0;
      double A[36];
      for (int k = 0; k < nv * nv; ++k) A[k] = D[k];
      for (int piv = 0; piv < nv; ++piv) { // Gauss–Jordan on the (checked) positive-definite D
        const double inv = 1.0 / A[piv * nv + piv];
        for (int c = 0; c < nv; ++c) A[piv * nv + c] *= inv, Dinv[piv * nv + c] *= inv;
        for (int r = 0; r < nv; ++r) {
          if (r == piv) continue;
          const double f = A[r * nv + piv];
          for (int c = 0; c < nv; ++c) A[r * nv + c] -= f * A[piv * nv + c], Dinv[r * nv + c] -= f * Dinv[piv * nv + c];
        }
      }
      for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 6; ++c) {
          double s = 0;
          for (int a = 0; a < nv; ++a)
            for (int b = 0; b < nv; ++b) s += U[a][r] * Dinv[a * nv + b] * U[b][c];
          Ia[r * 6 + c] -= s;
        }
    }
    if (j.parent >= 0) {
      const Mat6 add = inertia_to_parent(Ia, R[i], p[i].data());
      const Mat6 addc = inertia_to_parent(Ic[i], R[i], p[i].data());
      for (int e = 0; e < 36; ++e) IA[j.parent][e] += add[e], Ic[j.parent][e] += addc[e];
    }
  }
}

namespace {

AxisKind classify_axis(const Joint& j) {
  const int base = j.type == JointType::Prismatic ? 3 : 0;
  for (int k = 0; k < 3; ++k) {
    const double a = j.axis[k], b = j.axis[(k + 1) % 3], c = j.axis[(k + 2) % 3];
    if (a == 1.0 && b == 0.0 && c == 0.0) return static_cast<AxisKind>(base + k);
  }
  return AxisKind::General;
}

} // namespace

void Model::finalize() {
  nq = nv = max_nv = 0;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    Joint& j = joints[i];
    if (j.parent < -1 || j.parent >= static_cast<int>(i))
      fail(j, "parent index " + std::to_string(j.parent) + " must name an earlier joint (topological order)");
    j.nq = joint_nq(j.type);
    j.nv = joint_nv(j.type);
    j.qoff = nq;
    j.voff = nv;
    nq += j.nq;
    nv += j.nv;
    if (j.nv > max_nv) max_nv = j.nv;

    if (!finite_all(j.R_PJ, 9) || !finite_all(j.p_PJ, 3) || !finite_all(j.axis, 3) || !finite_all(j.com, 3) || !finite_all(j.I_com, 6) ||
        !std::isfinite(j.mass))
      fail(j, "non-finite number in its placement or inertia");
    if (!(j.mass >= 0)) fail(j, "mass must be >= 0 (0: a massless link, checked below)");
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic || j.type == JointType::Planar) {
      const double n = norm3(j.axis);
      if (std::fabs(n - 1.0) > 1e-9) fail(j, "axis must be a unit vector (norm " + std::to_string(n) + ")");
    }
    if (j.type == JointType::Free) {
      const double* R = j.R_PJ;
      const bool identity = R[0] == 1 && R[4] == 1 && R[8] == 1 && R[1] == 0 && R[2] == 0 && R[3] == 0 && R[5] == 0 && R[6] == 0 && R[7] == 0 &&
                            j.p_PJ[0] == 0 && j.p_PJ[1] == 0 && j.p_PJ[2] == 0;
      if (j.parent != -1 || !identity) fail(j, "a free joint must be a root with an identity placement");
    }
    j.axis_kind = (j.type == JointType::Revolute || j.type == JointType::Prismatic) ? classify_axis(j) : AxisKind::General;

    // Parallel-axis theorem: Io = Icom + m(|c|²·1 − c cᵀ).
    const double m = j.mass, cx = j.com[0], cy = j.com[1], cz = j.com[2];
    j.h[0] = m * cx;
    j.h[1] = m * cy;
    j.h[2] = m * cz;
    j.I_o[0] = j.I_com[0] + m * (cy * cy + cz * cz);
    j.I_o[1] = j.I_com[1] + m * (cx * cx + cz * cz);
    j.I_o[2] = j.I_com[2] + m * (cx * cx + cy * cy);
    j.I_o[3] = j.I_com[3] - m * cx * cy;
    j.I_o[4] = j.I_com[4] - m * cx * cz;
    j.I_o[5] = j.I_com[5] - m * cy * cz;
  }
  if (static_cast<int>(q0.size()) != nq || static_cast<int>(v0.size()) != nv || static_cast<int>(tau0.size()) != nv) {
    std::ostringstream s;
    s << "initial state has " << q0.size() << " coordinates, " << v0.size() << " velocities and " << tau0.size() << " torques; the joints need " << nq
      << ", " << nv << " and " << nv;
    throw std::invalid_argument(s.str());
  }
  if (!finite_all(q0.data(), nq) || !finite_all(v0.data(), nv) || !finite_all(tau0.data(), nv))
    throw std::invalid_argument("initial state has a non-finite number");
  if (joints.empty()) throw std::invalid_argument("a model needs at least one joint");
  check_effective_inertia();
  check_fluid();
  finalize_collision(*this);
  finalize_constraints(*this);
  resolve_springdampers(*this);
  finalize_actuators(*this);
  resolve_dampratios(*this);
}

/// The fluid settings (passive/fluid_spec.hpp): finite, density and viscosity >= 0, each body a link
/// with a box of finite sides or at least one ellipsoid of positive semi-axes.
void Model::check_fluid() const {
  const FluidSpec& f = fluid;
  auto bad = [](const std::string& what) { throw std::invalid_argument("fluid: " + what); };
  if (!(f.density >= 0) || !std::isfinite(f.density) || !(f.viscosity >= 0) || !std::isfinite(f.viscosity))
    bad("density and viscosity must be finite and >= 0");
  if (!finite_all(f.wind, 3)) bad("wind must be finite");
  for (const FluidBody& b : f.bodies) {
    if (b.body < 0 || b.body >= static_cast<int>(joints.size())) bad("body index " + std::to_string(b.body) + " out of range");
    const std::string at = "body '" + joints[b.body].name + "': ";
    if (!finite_all(b.R, 9)) bad(at + "non-finite inertial frame");
    if (b.box && !(finite_all(b.size, 3) && b.size[0] >= 0 && b.size[1] >= 0 && b.size[2] >= 0)) bad(at + "box sides must be finite and >= 0");
    if (!b.box && b.ellipsoids.empty()) bad(at + "neither a box nor ellipsoids");
    for (const FluidEllipsoid& e : b.ellipsoids) {
      const double c[5] = {e.blunt_drag, e.slender_drag, e.ang_drag, e.kutta_lift, e.magnus_lift};
      if (!finite_all(e.pos, 3) || !finite_all(e.R, 9) || !finite_all(c, 5) || !finite_all(e.virtual_mass, 3) || !finite_all(e.virtual_inertia, 3))
        bad(at + "a non-finite ellipsoid constant");
      if (!(e.semiaxes[0] > 0 && e.semiaxes[1] > 0 && e.semiaxes[2] > 0 && finite_all(e.semiaxes, 3)))
        bad(at + "ellipsoid semi-axes must be finite and > 0");
    }
  }
}

} // namespace ach
