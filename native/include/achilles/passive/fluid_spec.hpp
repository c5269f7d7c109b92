// MuJoCo's fluid forces as the model states them (mjOption density, viscosity, wind; geom_fluid):
// what the kernels' fluid pass (passive/fluid.hpp) reads, in double, per MuJoCo body that has mass.
//
// A body takes the inertia-box model unless one of its geoms has fluidshape="ellipsoid", which
// switches the body to the ellipsoid model over those geoms (engine_passive.c mj_fluid).
#pragma once

#include <vector>

namespace ach {

/// One geom of the ellipsoid model (geom_fluid): its frame in the link's frame, its semi-axes
/// (mju_geomSemiAxes), fluidcoef (blunt drag, slender drag, angular drag, Kutta lift, Magnus
/// lift) and the added-mass coefficients the compiler makes from its shape (mjCGeom::SetFluidCoefs).
struct FluidEllipsoid {
  double pos[3] = {0, 0, 0};
  double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}; // R_BG, row-major
  double semiaxes[3] = {0, 0, 0};
  double blunt_drag = 0.5, slender_drag = 0.25, ang_drag = 1.5, kutta_lift = 1, magnus_lift = 1;
  double virtual_mass[3] = {0, 0, 0}, virtual_inertia[3] = {0, 0, 0};
};

/// One MuJoCo body in the fluid: the link carrying it and its model. The inertia box sits at the
/// link's centre of mass (per lane: a robot's com_offset moves it) turned by R_BI (body_iquat);
/// its sides are MuJoCo's box[i] = sqrt(max(mjMINVAL, I_j + I_k − I_i) / m · 6) from body_mass and
/// the principal body_inertia (mass_scale scales both, which leaves them unchanged).
struct FluidBody {
  int body = -1;
  bool box = true;
  double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}; // R_BI (box model), row-major
  double size[3] = {0, 0, 0};                // the box's sides (box model)
  std::vector<FluidEllipsoid> ellipsoids;    // the ellipsoid model's geoms (box = false)
};

struct FluidSpec {
  double density = 0, viscosity = 0;
  double wind[3] = {0, 0, 0};
  std::vector<FluidBody> bodies;
  /// MuJoCo's mj_fluid returns early when density and viscosity are both 0.
  bool on() const { return !bodies.empty() && (density != 0 || viscosity != 0); }
};

} // namespace ach
