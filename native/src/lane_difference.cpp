// lane_difference: every field of the model compared, but the per-lane constants (lane_values.hpp). A field added to
// Model, Joint, Shape, Tendon, Equality or Actuator must be added here too, or robots that differ in
// it would share a block and silently run with the batch's value.
#include "achilles/lane_difference.hpp"

#include <sstream>
#include <type_traits>

namespace ach {

namespace {

/// The first difference found; later comparisons do nothing once one is found.
class Differ {
 public:
  std::string first;
  bool found() const { return !first.empty(); }

  template <class X>
  void eq(const std::string& what, const X& a, const X& b) {
    if (found() || a == b) return;
    std::ostringstream o;
    o.precision(17);
    o << what << ": ";
    if constexpr (std::is_enum_v<X>)
      o << static_cast<int>(a) << " in the batch's model, " << static_cast<int>(b) << " here";
    else if constexpr (std::is_same_v<X, std::string>)
      o << "'" << a << "' in the batch's model, '" << b << "' here";
    else
      o << a << " in the batch's model, " << b << " here";
    first = o.str();
  }
  template <class X>
  void arr(const std::string& what, const X* a, const X* b, int n) {
    for (int k = 0; k < n && !found(); ++k) eq(what + "[" + std::to_string(k) + "]", a[k], b[k]);
  }
  template <class X>
  void vec(const std::string& what, const std::vector<X>& a, const std::vector<X>& b) {
    eq(what + " count", a.size(), b.size());
    if (!found()) arr(what, a.data(), b.data(), static_cast<int>(a.size()));
  }
  /// Zero in one and not in the other: the kernels would keep or drop the term for the whole block.
  void zero_pattern(const std::string& what, double a, double b) {
    if (found() || (a == 0) == (b == 0)) return;
    first = what + ": " + (a == 0 ? "0 in the batch's model, nonzero here" : "nonzero in the batch's model, 0 here") +
            " (a per-robot value must be zero in every robot or in none)";
  }
  void limit(const std::string& what, const LimitSpec& a, const LimitSpec& b) {
    eq(what + " limited", a.limited, b.limited);
    arr(what + " range", a.range, b.range, 2);
    arr(what + " solref", a.solref, b.solref, 2);
    arr(what + " solimp", a.solimp, b.solimp, 5);
    eq(what + " margin", a.margin, b.margin);
  }
};

void joints(Differ& d, const Model& a, const Model& b) {
  d.eq("joint count", a.joints.size(), b.joints.size());
  for (std::size_t i = 0; i < a.joints.size() && !d.found(); ++i) {
    const Joint &x = a.joints[i], &y = b.joints[i];
    const std::string j = "joint '" + x.name + "' ";
    d.eq("joint " + std::to_string(i) + " name", x.name, y.name);
    d.eq(j + "type", x.type, y.type);
    d.eq(j + "axis kind", x.axis_kind, y.axis_kind);
    d.eq(j + "parent", x.parent, y.parent);
    d.eq(j + "nq", x.nq, y.nq);
    d.eq(j + "nv", x.nv, y.nv);
    d.eq(j + "qoff", x.qoff, y.qoff);
    d.eq(j + "voff", x.voff, y.voff);
    d.arr(j + "R_PJ", x.R_PJ, y.R_PJ, 9);
    d.arr(j + "p_PJ", x.p_PJ, y.p_PJ, 3);
    d.arr(j + "axis", x.axis, y.axis, 3);
    d.arr(j + "u", x.u, y.u, 3);
    d.arr(j + "w", x.w, y.w, 3);
    // per lane: the body's mass, centre of mass and inertia (and h, I_o made from them); whether it
    // has mass is not (a massless body's tree is treated apart: implicit.hpp's free bodies, the record)
    d.zero_pattern(j + "mass", x.mass, y.mass);
    d.limit(j + "limit", x.limit, y.limit);
    d.eq(j + "frictionloss", x.frictionloss, y.frictionloss);
    // (a springdamper's stiffness follows the robot's inertia: robots of different masses differ in it, refused here)
    d.eq(j + "stiffness", x.stiffness, y.stiffness);
    d.arr(j + "springdamper", x.springdamper, y.springdamper, 2);
    d.eq(j + "springref", x.springref, y.springref);
    d.eq(j + "ref", x.ref, y.ref);
    // per lane: damping and armature (their zeros are not)
    d.zero_pattern(j + "damping", x.damping, y.damping);
    d.zero_pattern(j + "armature", x.armature, y.armature);
  }
}

void shapes(Differ& d, const Model& a, const Model& b) {
  d.eq("shape count", a.shapes.size(), b.shapes.size());
  for (std::size_t i = 0; i < a.shapes.size() && !d.found(); ++i) {
    const Shape &x = a.shapes[i], &y = b.shapes[i];
    const std::string s = "shape '" + x.name + "' ";
    d.eq("shape " + std::to_string(i) + " name", x.name, y.name);
    d.eq(s + "body", x.body, y.body);
    d.eq(s + "kind", x.kind, y.kind);
    d.arr(s + "half", x.half, y.half, 3);
    d.eq(s + "radius", x.radius, y.radius);
    d.arr(s + "size", x.size, y.size, 3);
    d.vec(s + "vertices", x.vert, y.vert);
    d.vec(s + "hull graph", x.graph, y.graph);
    d.arr(s + "R_BS", x.R_BS, y.R_BS, 9);
    d.arr(s + "p_BS", x.p_BS, y.p_BS, 3);
    // per lane: friction, torsion and rolling (contact/lane_constraints.hpp)
    d.eq(s + "contype", x.contype, y.contype);
    d.eq(s + "conaffinity", x.conaffinity, y.conaffinity);
    d.eq(s + "margin", x.margin, y.margin);
    d.eq(s + "gap", x.gap, y.gap);
    d.arr(s + "solref", x.solref, y.solref, 2);
    d.arr(s + "solimp", x.solimp, y.solimp, 5);
    d.eq(s + "condim", x.condim, y.condim);
    d.eq(s + "priority", x.priority, y.priority);
    d.eq(s + "solmix", x.solmix, y.solmix);
  }
  d.eq("contact exclude count", a.excludes.size(), b.excludes.size());
  for (std::size_t i = 0; i < a.excludes.size() && !d.found(); ++i) {
    d.eq("contact exclude " + std::to_string(i) + " body 1", a.excludes[i].first, b.excludes[i].first);
    d.eq("contact exclude " + std::to_string(i) + " body 2", a.excludes[i].second, b.excludes[i].second);
  }
  d.eq("has pairs", a.has_pairs, b.has_pairs);
}

void tendons(Differ& d, const Model& a, const Model& b) {
  d.eq("tendon count", a.tendons.size(), b.tendons.size());
  for (std::size_t i = 0; i < a.tendons.size() && !d.found(); ++i) {
    const Tendon &x = a.tendons[i], &y = b.tendons[i];
    const std::string t = "tendon '" + x.name + "' ";
    d.eq("tendon " + std::to_string(i) + " name", x.name, y.name);
    d.vec(t + "joints", x.joints, y.joints);
    d.vec(t + "coefs", x.coefs, y.coefs);
    d.limit(t + "limit", x.limit, y.limit);
    d.eq(t + "frictionloss", x.frictionloss, y.frictionloss);
    d.eq(t + "stiffness", x.stiffness, y.stiffness);
    d.eq(t + "damping", x.damping, y.damping);
    d.arr(t + "springlength", x.springlength, y.springlength, 2);
  }
}

void equalities(Differ& d, const Model& a, const Model& b) {
  d.eq("equality count", a.equalities.size(), b.equalities.size());
  for (std::size_t i = 0; i < a.equalities.size() && !d.found(); ++i) {
    const Equality &x = a.equalities[i], &y = b.equalities[i];
    const std::string e = "equality " + std::to_string(i) + " ";
    d.eq(e + "name", x.name, y.name);
    d.eq(e + "type", x.type, y.type);
    d.eq(e + "active", x.active, y.active);
    d.eq(e + "body1", x.body1, y.body1);
    d.eq(e + "body2", x.body2, y.body2);
    d.arr(e + "p1", x.p1, y.p1, 3);
    d.arr(e + "p2", x.p2, y.p2, 3);
    d.arr(e + "Q1", x.Q1, y.Q1, 9);
    d.arr(e + "Q2", x.Q2, y.Q2, 9);
    d.eq(e + "at qpos0", x.at_qpos0, y.at_qpos0);
    d.eq(e + "torquescale", x.torquescale, y.torquescale);
    d.eq(e + "joint1", x.joint1, y.joint1);
    d.eq(e + "joint2", x.joint2, y.joint2);
    d.arr(e + "polycoef", x.polycoef, y.polycoef, 5);
    d.eq(e + "ref1", x.ref1, y.ref1);
    d.eq(e + "ref2", x.ref2, y.ref2);
    d.arr(e + "solref", x.solref, y.solref, 2);
    d.arr(e + "solimp", x.solimp, y.solimp, 5);
  }
}

void actuators(Differ& d, const Model& a, const Model& b) {
  d.eq("actuator count", a.actuators.size(), b.actuators.size());
  for (std::size_t i = 0; i < a.actuators.size() && !d.found(); ++i) {
    const Actuator &x = a.actuators[i], &y = b.actuators[i];
    const std::string s = "actuator '" + x.name + "' ";
    d.eq("actuator " + std::to_string(i) + " name", x.name, y.name);
    d.eq(s + "joint", x.joint, y.joint);
    d.eq(s + "tendon", x.tendon, y.tendon);
    d.eq(s + "body transmission", x.trn_body, y.trn_body);
    d.eq(s + "kind", x.kind, y.kind);
    d.arr(s + "gear", x.gear, y.gear, 6);
    // per lane: kp, kv, the control range, gainprm and biasprm (the zeros of those the kernels test are not)
    d.zero_pattern(s + "kv", x.kv, y.kv);
    d.eq(s + "ctrl limited", x.ctrl_limited, y.ctrl_limited);
    d.eq(s + "force limited", x.force_limited, y.force_limited);
    d.eq(s + "forcerange low", x.force_lo, y.force_lo);
    d.eq(s + "forcerange high", x.force_hi, y.force_hi);
    d.eq(s + "rate", x.rate, y.rate);
    d.eq(s + "dyntype", x.dyntype, y.dyntype);
    d.eq(s + "gaintype", x.gaintype, y.gaintype);
    d.eq(s + "biastype", x.biastype, y.biastype);
    d.arr(s + "dynprm", x.dynprm, y.dynprm, 3);
    d.zero_pattern(s + "gainprm[2]", x.gainprm[2], y.gainprm[2]);
    // a dampratio is resolved at load into biasprm₂ (from kp and the joint-space inertia): per lane too
    d.zero_pattern(s + "biasprm[2]", x.biasprm[2], y.biasprm[2]);
    d.eq(s + "act limited", x.act_limited, y.act_limited);
    d.eq(s + "act early", x.act_early, y.act_early);
    d.eq(s + "actrange low", x.act_lo, y.act_lo);
    d.eq(s + "actrange high", x.act_hi, y.act_hi);
  }
}

} // namespace

/// The fluid settings (passive/fluid_spec.hpp): the box's centre is the link's centre of mass (per lane); the rest
/// is the model's.
void fluid(Differ& d, const Model& a, const Model& b) {
  const FluidSpec &x = a.fluid, &y = b.fluid;
  d.eq("fluid density", x.density, y.density);
  d.eq("fluid viscosity", x.viscosity, y.viscosity);
  d.arr("fluid wind", x.wind, y.wind, 3);
  d.eq("fluid body count", x.bodies.size(), y.bodies.size());
  for (std::size_t i = 0; i < x.bodies.size() && !d.found(); ++i) {
    const FluidBody &p = x.bodies[i], &q = y.bodies[i];
    const std::string w = "fluid body " + std::to_string(i) + " ";
    d.eq(w + "link", p.body, q.body);
    d.eq(w + "box", p.box, q.box);
    d.arr(w + "inertial frame", p.R, q.R, 9);
    d.arr(w + "box sides", p.size, q.size, 3);
    d.eq(w + "ellipsoid count", p.ellipsoids.size(), q.ellipsoids.size());
    for (std::size_t k = 0; k < p.ellipsoids.size() && !d.found(); ++k) {
      const FluidEllipsoid &e = p.ellipsoids[k], &f = q.ellipsoids[k];
      const std::string g = w + "ellipsoid " + std::to_string(k) + " ";
      d.arr(g + "pos", e.pos, f.pos, 3);
      d.arr(g + "frame", e.R, f.R, 9);
      d.arr(g + "semi-axes", e.semiaxes, f.semiaxes, 3);
      const double c[5] = {e.blunt_drag, e.slender_drag, e.ang_drag, e.kutta_lift, e.magnus_lift};
      const double c2[5] = {f.blunt_drag, f.slender_drag, f.ang_drag, f.kutta_lift, f.magnus_lift};
      d.arr(g + "fluidcoef", c, c2, 5);
      d.arr(g + "virtual mass", e.virtual_mass, f.virtual_mass, 3);
      d.arr(g + "virtual inertia", e.virtual_inertia, f.virtual_inertia, 3);
    }
  }
}

std::string lane_difference(const Model& a, const Model& b) {
  Differ d;
  d.eq("nq", a.nq, b.nq);
  d.eq("nv", a.nv, b.nv);
  d.eq("max nv", a.max_nv, b.max_nv);
  joints(d, a, b);
  d.vec("q0", a.q0, b.q0);
  d.vec("v0", a.v0, b.v0);
  d.vec("tau0", a.tau0, b.tau0);
  shapes(d, a, b);
  d.eq("solver iterations", a.solver_iterations, b.solver_iterations);
  d.eq("impratio", a.impratio, b.impratio);
  d.eq("cone", a.cone_elliptic, b.cone_elliptic);
  d.eq("multiccd", a.multiccd, b.multiccd);
  d.eq("solver tolerance", a.solver_tolerance, b.solver_tolerance);
  d.eq("solver newton", a.solver_newton, b.solver_newton);
  d.eq("solver pgs", a.solver_pgs, b.solver_pgs);
  d.eq("noslip iterations", a.noslip_iterations, b.noslip_iterations);
  d.eq("noslip tolerance", a.noslip_tolerance, b.noslip_tolerance);
  tendons(d, a, b);
  equalities(d, a, b);
  actuators(d, a, b);
  fluid(d, a, b);
  // per lane too: what load derives at qpos0 from the masses and armatures (meaninertia and the
  // inverse weights, contact/lane_constraints.hpp)
  return d.first;
}

} // namespace ach
