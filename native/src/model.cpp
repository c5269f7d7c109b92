// Model::finalize: derived quantities and the invariants the kernels assume.
#include "achilles/model.hpp"

#include <cmath>
#include <sstream>

namespace ach {

namespace {

[[noreturn]] void fail(const Joint& j, const std::string& what) {
  throw std::invalid_argument("joint '" + j.name + "': " + what);
}

bool finite_all(const double* x, int n) {
  for (int k = 0; k < n; ++k)
    if (!std::isfinite(x[k])) return false;
  return true;
}

double norm3(const double* a) { return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

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

    if (!finite_all(j.R_PJ, 9) || !finite_all(j.p_PJ, 3) || !finite_all(j.axis, 3) || !finite_all(j.com, 3) ||
        !finite_all(j.I_com, 6) || !std::isfinite(j.mass))
      fail(j, "non-finite number in its placement or inertia");
    if (!(j.mass > 0)) fail(j, "mass must be > 0");
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic || j.type == JointType::Planar) {
      const double n = norm3(j.axis);
      if (std::fabs(n - 1.0) > 1e-9) fail(j, "axis must be a unit vector (norm " + std::to_string(n) + ")");
    }
    if (j.type == JointType::Free) {
      const double* R = j.R_PJ;
      const bool identity = R[0] == 1 && R[4] == 1 && R[8] == 1 && R[1] == 0 && R[2] == 0 && R[3] == 0 && R[5] == 0 &&
                            R[6] == 0 && R[7] == 0 && j.p_PJ[0] == 0 && j.p_PJ[1] == 0 && j.p_PJ[2] == 0;
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
    s << "initial state has " << q0.size() << " coordinates, " << v0.size() << " velocities and " << tau0.size()
      << " torques; the joints need " << nq << ", " << nv << " and " << nv;
    throw std::invalid_argument(s.str());
  }
  if (!finite_all(q0.data(), nq) || !finite_all(v0.data(), nv) || !finite_all(tau0.data(), nv))
    throw std::invalid_argument("initial state has a non-finite number");
  if (joints.empty()) throw std::invalid_argument("a model needs at least one joint");
  finalize_collision(*this);
}

} // namespace ach
