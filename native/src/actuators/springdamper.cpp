// resolve_springdampers: MuJoCo's compile-time conversion of a joint's springdamper = [timeconst τ,
// dampratio ζ] into its stiffness and damping (user_model.cc, mjCModel::AutoSpringDamper, run after
// mj_setConst has made dof_invweight0):
//
//   m = ndim / max(mjMINVAL, Σ_dofs dof_invweight0)        (the joint's inertia at qpos0)
//   stiffness = m / max(mjMINVAL, τ·τ·ζ·ζ)
//   damping   = 2·m / max(mjMINVAL, τ)                     (on every dof of the joint)
//
// replacing whatever stiffness and damping the joint gave ("same as solref computation": a mass m on
// that spring and damper has time constant τ and damping ratio ζ in MuJoCo's solref sense). A hinge's or
// slide's dof_invweight0 is M⁻¹'s diagonal at qpos0 (armature included). MuJoCo's compiler refuses a
// springdamper with one value <= 0 unless both are 0 ("when defined, springdamper values must be
// positive"); a ball or free joint takes a springdamper in MuJoCo, but this engine's joint stiffness
// is on hinges and slides only, so it is refused here.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "achilles/model.hpp"

namespace ach {

namespace {
constexpr double kSpringMinVal = 1e-15; // MuJoCo's mjMINVAL
bool given(const Joint& j) { return j.springdamper[0] != 0 || j.springdamper[1] != 0; }
} // namespace

void resolve_springdampers(Model& m) {
  bool any = false;
  for (const Joint& j : m.joints) {
    if (!given(j)) continue;
    const std::string where = "joint '" + j.name + "': ";
    if (!std::isfinite(j.springdamper[0]) || !std::isfinite(j.springdamper[1]) || j.springdamper[0] <= 0 || j.springdamper[1] <= 0)
      throw std::invalid_argument(where + "springdamper [timeconst, dampratio] must both be finite and > 0 when given (MuJoCo's rule)");
    if (j.type != JointType::Revolute && j.type != JointType::Prismatic)
      throw std::invalid_argument(where + "springdamper applies to revolute and prismatic joints only (the engine's joint stiffness)");
    any = true;
  }
  if (!any) return;
  const std::vector<double> Minv = inverse_mass_at_qpos0(m);
  const std::size_t nv = static_cast<std::size_t>(m.nv);
  for (Joint& j : m.joints) {
    if (!given(j)) continue;
    double invweight = 0;
    for (int k = 0; k < j.nv; ++k) invweight += Minv[static_cast<std::size_t>(j.voff + k) * nv + static_cast<std::size_t>(j.voff + k)];
    const double inertia = static_cast<double>(j.nv) / std::max(kSpringMinVal, invweight);
    const double timeconst = j.springdamper[0], dampratio = j.springdamper[1];
    j.stiffness = inertia / std::max(kSpringMinVal, timeconst * timeconst * dampratio * dampratio);
    j.damping = 2 * inertia / std::max(kSpringMinVal, timeconst);
  }
}

} // namespace ach
