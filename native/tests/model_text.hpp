// Reads the plain text model test/helpers/native-dump.ts writes (the numbers toNativeModel hands
// the addon, into the same fields the binding fills), for the C++-only test tools. Version 2 adds
// joint limits, frictionloss and passive forces, shape softness, solver settings, tendons and
// actuators; version 3 the solver method, general actuators and equality constraints; version 4
// each joint's ref (MuJoCo's qpos0 of a hinge or slide); version 5 an actuator's tendon; version 6 an actuator's
// body transmission (an adhesion's link). Throws
// std::runtime_error on anything unexpected.
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <fstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "achilles/model.hpp"
#include "achilles/contact/equality_spec.hpp"

namespace ach_test {

inline void quat_to_R(const double* q, double* R) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
  if (q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0)
    for (int k = 0; k < 9; ++k) R[k] = (k % 4 == 0) ? 1.0 : 0.0;
}

/// The text model's reader: words and numbers in order, each mismatch an error naming the file.
class ModelText {
 public:
  explicit ModelText(const std::string& path) : path_(path), in(path) {
    if (!in) throw std::runtime_error("cannot open " + path);
  }

  ach::Model read() {
    ach::Model m;
    expect("achilles-model");
    int version;
    in >> version;
    if (version != 6)
      throw std::runtime_error(path_ + ": text model version " + std::to_string(version) +
                               ", expected 6 (rewrite it with test/helpers/dump-models.ts)");
    expect("gravity");
    get(m.gravity, 3);
    for (int i = 0, n = section("bodies"); i < n; ++i) m.joints.push_back(body(m));
    for (int i = 0, n = section("shapes"); i < n; ++i) m.shapes.push_back(shape());
    for (int i = 0, n = section("excludes"); i < n; ++i) {
      int a, b;
      in >> a >> b;
      m.excludes.emplace_back(a, b);
    }
    expect("solver");
    solver(m);
    for (int i = 0, n = section("tendons"); i < n; ++i) m.tendons.push_back(tendon());
    for (int i = 0, n = section("actuators"); i < n; ++i) m.actuators.push_back(actuator());
    for (int i = 0, n = section("equalities"); i < n; ++i) m.equalities.push_back(equality());
    if (!in) throw std::runtime_error(path_ + ": truncated");
    m.finalize();
    return m;
  }

 private:
  std::string path_;
  std::ifstream in;

  void expect(const char* word) {
    std::string w;
    in >> w;
    if (w != word) throw std::runtime_error(path_ + ": expected '" + word + "', found '" + w + "'");
  }
  /// `word n`: a section's heading and its count
  int section(const char* word) {
    expect(word);
    int n;
    in >> n;
    return n;
  }
  void get(double* x, int n) {
    for (int k = 0; k < n; ++k)
      if (!(in >> x[k])) throw std::runtime_error(path_ + ": bad number");
  }
  void list(std::vector<double>& v) {
    int n;
    in >> n;
    for (int k = 0; k < n; ++k) {
      double x;
      get(&x, 1);
      v.push_back(x);
    }
  }
  /// one of the words, as its index
  int choice(std::initializer_list<const char*> words) {
    std::string w;
    in >> w;
    int i = 0;
    for (const char* c : words) {
      if (w == c) return i;
      ++i;
    }
    throw std::runtime_error(path_ + ": unexpected word '" + w + "'");
  }
  /// `flag lo hi`: an optional range
  void range(bool& on, double* lohi) {
    int flag;
    in >> flag;
    get(lohi, 2);
    on = flag != 0;
  }
  /// `flag x…`: an optional vector
  bool optional(double* x, int n) {
    int flag;
    in >> flag;
    get(x, n);
    return flag != 0;
  }
  /// a one-sided limit's settings (joints and tendons): range, solref, solimp, margin
  void limit(ach::LimitSpec& l) {
    range(l.limited, l.range);
    get(l.solref, 2);
    get(l.solimp, 5);
    get(&l.margin, 1);
  }

  /// a body: its joint, inertia, initial state and passive settings
  ach::Joint body(ach::Model& m) {
    ach::Joint j;
    std::string type;
    double quat[4];
    in >> j.name >> type >> j.parent;
    get(j.p_PJ, 3);
    get(quat, 4);
    quat_to_R(quat, j.R_PJ);
    get(j.axis, 3);
    get(j.u, 3);
    get(j.w, 3);
    get(&j.mass, 1);
    get(j.com, 3);
    get(j.I_com, 6);
    using JT = ach::JointType;
    j.type = type == "revolute"    ? JT::Revolute
             : type == "prismatic" ? JT::Prismatic
             : type == "ball"      ? JT::Ball
             : type == "free"      ? JT::Free
             : type == "planar"    ? JT::Planar
                                   : JT::Fixed;
    list(m.q0);
    list(m.v0);
    list(m.tau0);
    limit(j.limit);
    get(&j.frictionloss, 1);
    get(&j.damping, 1);
    get(&j.stiffness, 1);
    get(&j.springref, 1);
    get(&j.armature, 1);
    get(&j.ref, 1);
    return j;
  }

  ach::Shape shape() {
    ach::Shape s;
    std::string kind;
    double quat[4];
    in >> s.name >> s.body >> kind;
    get(s.half, 3);
    get(&s.radius, 1);
    get(s.p_BS, 3);
    get(quat, 4);
    quat_to_R(quat, s.R_BS);
    get(&s.friction, 1);
    in >> s.contype >> s.conaffinity;
    get(&s.margin, 1);
    get(&s.gap, 1);
    get(s.solref, 2);
    get(s.solimp, 5);
    in >> s.condim;
    get(s.size, 3);
    int nvert = 0;
    in >> nvert;
    s.vert.resize(3 * static_cast<std::size_t>(nvert));
    if (nvert) get(s.vert.data(), static_cast<int>(s.vert.size()));
    using SK = ach::ShapeKind;
    const std::pair<const char*, SK> kinds[] = {{"sphere", SK::Sphere},          {"capsule", SK::Capsule}, {"box", SK::Box},
                                                {"rounded-box", SK::RoundedBox}, {"plane", SK::Plane},     {"cylinder", SK::Cylinder},
                                                {"ellipsoid", SK::Ellipsoid},    {"convex", SK::Convex}};
    bool known = false;
    for (const auto& [name, k] : kinds)
      if (kind == name) s.kind = k, known = true;
    if (!known) throw std::runtime_error(path_ + ": shape kind '" + kind + "'");
    if (ach::is_convex_kind(s.kind)) ach::bound_convex_shape(s);
    return s;
  }

  void solver(ach::Model& m) {
    in >> m.solver_iterations;
    get(&m.impratio, 1);
    get(&m.solver_tolerance, 1);
    std::string method;
    in >> method;
    if (method != "cg" && method != "newton" && method != "pgs") throw std::runtime_error(path_ + ": solver method '" + method + "'");
    m.solver_newton = method == "newton";
    m.solver_pgs = method == "pgs";
    std::string cone;
    in >> cone;
    if (cone != "pyramidal" && cone != "elliptic") throw std::runtime_error(path_ + ": solver cone '" + cone + "'");
    m.cone_elliptic = cone == "elliptic";
  }

  ach::Tendon tendon() {
    ach::Tendon t;
    int n;
    in >> t.name >> n;
    t.joints.resize(n);
    t.coefs.resize(n);
    for (int& j : t.joints) in >> j;
    get(t.coefs.data(), n);
    limit(t.limit);
    get(&t.frictionloss, 1);
    get(&t.stiffness, 1);
    get(&t.damping, 1);
    get(t.springlength, 2);
    return t;
  }

  ach::Actuator actuator() {
    ach::Actuator a;
    std::string kind;
    int ngear;
    in >> a.name >> a.joint >> a.tendon >> a.trn_body >> kind >> ngear;
    if (ngear < 0 || ngear > 6) throw std::runtime_error(path_ + ": an actuator's gear has " + std::to_string(ngear) + " entries");
    get(a.gear, ngear);
    get(&a.kp, 1);
    get(&a.kv, 1);
    double lohi[2];
    range(a.ctrl_limited, lohi);
    a.ctrl_lo = lohi[0], a.ctrl_hi = lohi[1];
    range(a.force_limited, lohi);
    a.force_lo = lohi[0], a.force_hi = lohi[1];
    get(&a.rate, 1);
    using AK = ach::ActuatorKind;
    if (kind != "motor" && kind != "position" && kind != "velocity" && kind != "general")
      throw std::runtime_error(path_ + ": actuator kind '" + kind + "'");
    a.kind = kind == "motor" ? AK::Motor : kind == "position" ? AK::Position : kind == "velocity" ? AK::Velocity : AK::General;
    if (a.kind == AK::General) { // as model_from_js.cpp general_from_js
      a.dyntype = static_cast<ach::DynType>(choice({"none", "integrator", "filter", "filterexact"}));
      a.gaintype = static_cast<ach::GainType>(choice({"fixed", "affine"}));
      a.biastype = static_cast<ach::BiasType>(choice({"none", "affine"}));
      get(a.dynprm, 3);
      get(a.gainprm, 3);
      get(a.biasprm, 3);
      range(a.act_limited, lohi);
      a.act_lo = lohi[0], a.act_hi = lohi[1];
      int early;
      in >> early;
      a.act_early = early != 0;
    }
    return a;
  }

  /// as model_from_js.cpp equalities_from_js
  ach::Equality equality() {
    ach::Equality e;
    in >> e.name;
    e.type = static_cast<ach::EqualityType>(choice({"connect", "weld", "joint"}));
    int active;
    in >> active;
    e.active = active != 0;
    get(e.solref, 2);
    get(e.solimp, 5);
    if (e.type == ach::EqualityType::Joint) {
      in >> e.joint1 >> e.joint2;
      get(e.polycoef, 5);
      get(&e.ref1, 1);
      get(&e.ref2, 1);
    } else {
      in >> e.body1 >> e.body2;
      double p1[3], p2[3], q1[4], q2[4];
      const bool has1 = optional(p1, 3), has2 = optional(p2, 3);
      if (has1) std::copy(p1, p1 + 3, e.p1);
      if (has2) std::copy(p2, p2 + 3, e.p2);
      e.at_qpos0 = e.type == ach::EqualityType::Connect ? !has2 : !has1;
      if (optional(q1, 4)) quat_to_R(q1, e.Q1);
      if (optional(q2, 4)) quat_to_R(q2, e.Q2);
      get(&e.torquescale, 1);
    }
    return e;
  }
};

inline ach::Model read_model(const std::string& path) { return ModelText(path).read(); }

} // namespace ach_test
