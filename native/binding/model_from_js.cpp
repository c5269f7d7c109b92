// The compiled model and the batch options, from the plain JavaScript objects src/engine/batch.ts
// builds (toNativeModel): every key checked, errors name the key's path.
#include "binding.hpp"

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "achilles/bugs.hpp"

namespace ach::binding {

[[noreturn]] void type_error(const std::string& what) { throw std::invalid_argument(what); }

double number_at(const Napi::Object& o, const char* key, const std::string& where) {
  const Napi::Value v = o.Get(key);
  if (!v.IsNumber()) type_error(where + "." + key + " must be a number");
  return v.As<Napi::Number>().DoubleValue();
}

void numbers_at(const Napi::Object& o, const char* key, double* out, std::size_t n, const std::string& where) {
  const Napi::Value v = o.Get(key);
  if (!v.IsArray()) type_error(where + "." + key + " must be an array of " + std::to_string(n) + " numbers");
  const Napi::Array a = v.As<Napi::Array>();
  if (a.Length() != n) type_error(where + "." + key + " has " + std::to_string(a.Length()) + " numbers, expected " + std::to_string(n));
  for (std::size_t k = 0; k < n; ++k) {
    const Napi::Value e = a.Get(static_cast<uint32_t>(k));
    if (!e.IsNumber()) type_error(where + "." + key + "[" + std::to_string(k) + "] must be a number");
    out[k] = e.As<Napi::Number>().DoubleValue();
  }
}

void append_numbers(const Napi::Object& o, const char* key, std::vector<double>& out, std::size_t n, const std::string& where) {
  std::vector<double> tmp(n);
  if (n > 0) numbers_at(o, key, tmp.data(), n, where);
  else if (o.Get(key).IsArray() && o.Get(key).As<Napi::Array>().Length() != 0) type_error(where + "." + key + " must be empty");
  out.insert(out.end(), tmp.begin(), tmp.end());
}

/// An optional key: absent (undefined) leaves `out` as it is.
bool optional_numbers(const Napi::Object& o, const char* key, double* out, std::size_t n, const std::string& where) {
  const Napi::Value v = o.Get(key);
  if (v.IsUndefined()) return false;
  numbers_at(o, key, out, n, where);
  return true;
}
bool optional_number(const Napi::Object& o, const char* key, double& out, const std::string& where) {
  const Napi::Value v = o.Get(key);
  if (v.IsUndefined()) return false;
  out = number_at(o, key, where);
  return true;
}

JointType joint_type(const std::string& s, const std::string& where) {
  if (s == "revolute") return JointType::Revolute;
  if (s == "prismatic") return JointType::Prismatic;
  if (s == "ball") return JointType::Ball;
  if (s == "free") return JointType::Free;
  if (s == "planar") return JointType::Planar;
  if (s == "fixed") return JointType::Fixed;
  type_error(where + ".joint is '" + s + "'; expected revolute, prismatic, ball, free, planar or fixed");
}

/// R from a unit quaternion [w, x, y, z] (normalised here, so the caller's rounding cannot skew R).
void quat_to_rotation(const double* q, double* R) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 0) || !std::isfinite(n)) type_error("quaternion must be non-zero and finite");
  const double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
  R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z); R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = 1 - 2 * (x * x + y * y);
  if (q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0) { // exact identity, so kernels can skip it
    for (int k = 0; k < 9; ++k) R[k] = (k % 4 == 0) ? 1.0 : 0.0;
  }
}

ShapeKind shape_kind(const Napi::Value& v, const std::string& where) {
  if (!v.IsString()) type_error(where + ".kind must be a string");
  const std::string k = v.As<Napi::String>().Utf8Value();
  if (k == "sphere") return ShapeKind::Sphere;
  if (k == "capsule") return ShapeKind::Capsule;
  if (k == "box") return ShapeKind::Box;
  if (k == "rounded-box") return ShapeKind::RoundedBox;
  if (k == "plane") return ShapeKind::Plane;
  type_error(where + ".kind is '" + k + "'; expected sphere, capsule, box, rounded-box or plane");
}

/// The name of an unnamed element: "#" and its index. Appended rather than `"#" + std::to_string(i)`:
/// GCC 12 reports that operator+ (an insert at 0) with a false -Wrestrict (GCC bug 105329).
std::string unnamed(std::uint32_t i) {
  std::string name = "#";
  name += std::to_string(i);
  return name;
}

std::uint32_t filter_bits(const Napi::Object& o, const char* key, const std::string& where) {
  const double x = number_at(o, key, where);
  if (!(x >= 0) || x > 4294967295.0 || x != std::floor(x)) type_error(where + "." + key + " must be an integer from 0 to 2^32-1");
  return static_cast<std::uint32_t>(x);
}

/// Shapes and excludes (optional: a model without them collides nothing).
void shapes_from_js(const Napi::Object& m, Model& model) {
  const Napi::Value sv = m.Get("shapes");
  if (!sv.IsUndefined() && !sv.IsNull()) {
    if (!sv.IsArray()) type_error("model.shapes must be an array");
    const Napi::Array shapes = sv.As<Napi::Array>();
    for (uint32_t i = 0; i < shapes.Length(); ++i) {
      const std::string where = "model.shapes[" + std::to_string(i) + "]";
      if (!shapes.Get(i).IsObject()) type_error(where + " must be an object");
      const Napi::Object o = shapes.Get(i).As<Napi::Object>();
      Shape s;
      const Napi::Value name = o.Get("name");
      s.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : unnamed(i);
      s.body = static_cast<int>(number_at(o, "body", where));
      s.kind = shape_kind(o.Get("kind"), where);
      numbers_at(o, "halfExtents", s.half, 3, where);
      s.radius = number_at(o, "radius", where);
      double quat[4];
      numbers_at(o, "pos", s.p_BS, 3, where);
      numbers_at(o, "quat", quat, 4, where);
      quat_to_rotation(quat, s.R_BS);
      s.friction = number_at(o, "friction", where);
      s.contype = filter_bits(o, "contype", where);
      s.conaffinity = filter_bits(o, "conaffinity", where);
      s.margin = number_at(o, "margin", where);
      s.gap = number_at(o, "gap", where);
      // contact softness (optional: MuJoCo's defaults)
      optional_numbers(o, "solref", s.solref, 2, where);
      optional_numbers(o, "solimp", s.solimp, 5, where);
      double condim = 3;
      if (optional_number(o, "condim", condim, where) && condim != 1 && condim != 3)
        type_error(where + ".condim must be 1 or 3 (got " + std::to_string(condim) + ")");
      s.condim = static_cast<int>(condim);
      model.shapes.push_back(std::move(s));
    }
  }
  const Napi::Value ev = m.Get("excludes");
  if (!ev.IsUndefined() && !ev.IsNull()) {
    if (!ev.IsArray()) type_error("model.excludes must be an array of [body, body] pairs");
    const Napi::Array ex = ev.As<Napi::Array>();
    for (uint32_t i = 0; i < ex.Length(); ++i) {
      const Napi::Value e = ex.Get(i);
      if (!e.IsArray() || e.As<Napi::Array>().Length() != 2) type_error("model.excludes[" + std::to_string(i) + "] must be [body, body]");
      const Napi::Array pr = e.As<Napi::Array>();
      if (!pr.Get(0u).IsNumber() || !pr.Get(1u).IsNumber()) type_error("model.excludes[" + std::to_string(i) + "] must hold two body indices");
      model.excludes.emplace_back(pr.Get(0u).As<Napi::Number>().Int32Value(), pr.Get(1u).As<Napi::Number>().Int32Value());
    }
  }
}

/// An optional number (absent: `fallback`).
double optional_number_or(const Napi::Object& o, const char* key, double fallback, const std::string& where) {
  const Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return fallback;
  return number_at(o, key, where);
}

/// An optional [lo, hi] range; returns whether it was given.
bool optional_range(const Napi::Object& o, const char* key, double& lo, double& hi, const std::string& where) {
  const Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return false;
  double r[2];
  numbers_at(o, key, r, 2, where);
  lo = r[0];
  hi = r[1];
  return true;
}

/// One of `names` at o[key] (absent: the first); its index.
int choice_at(const Napi::Object& o, const char* key, std::initializer_list<const char*> names, const std::string& where) {
  const Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return 0;
  const std::string s = v.IsString() ? v.As<Napi::String>().Utf8Value() : "";
  int i = 0;
  std::string all;
  for (const char* n : names) {
    if (s == n) return i;
    all += std::string(i ? ", " : "") + n;
    ++i;
  }
  type_error(where + "." + key + " is '" + s + "'; expected one of " + all);
}

/// A general actuator's MuJoCo parameters, `general: { dyntype, gaintype, biastype, dynprm, gainprm,
/// biasprm, actrange?, actearly? }` (the prm arrays: their first three numbers).
void general_from_js(const Napi::Object& o, Actuator& a, const std::string& where) {
  const Napi::Value gv = o.Get("general");
  if (!gv.IsObject()) type_error(where + ".general must be an object (a general actuator's parameters)");
  const Napi::Object g = gv.As<Napi::Object>();
  const std::string at = where + ".general";
  a.dyntype = static_cast<DynType>(choice_at(g, "dyntype", {"none", "integrator", "filter", "filterexact"}, at));
  a.gaintype = static_cast<GainType>(choice_at(g, "gaintype", {"fixed", "affine"}, at));
  a.biastype = static_cast<BiasType>(choice_at(g, "biastype", {"none", "affine"}, at));
  numbers_at(g, "dynprm", a.dynprm, 3, at);
  numbers_at(g, "gainprm", a.gainprm, 3, at);
  numbers_at(g, "biasprm", a.biasprm, 3, at);
  a.act_limited = optional_range(g, "actrange", a.act_lo, a.act_hi, at);
  const Napi::Value early = g.Get("actearly");
  a.act_early = early.IsBoolean() && early.As<Napi::Boolean>().Value();
}

/// Actuators (optional). `gear` is the direction already projected onto the joint's free axes;
/// the bug build's GearNotProjected takes the unprojected `direction` in its place.
void actuators_from_js(const Napi::Object& m, Model& model) {
  const Napi::Value av = m.Get("actuators");
  if (av.IsUndefined() || av.IsNull()) return;
  if (!av.IsArray()) type_error("model.actuators must be an array");
  const Napi::Array arr = av.As<Napi::Array>();
  for (uint32_t i = 0; i < arr.Length(); ++i) {
    const std::string where = "model.actuators[" + std::to_string(i) + "]";
    if (!arr.Get(i).IsObject()) type_error(where + " must be an object");
    const Napi::Object o = arr.Get(i).As<Napi::Object>();
    Actuator a;
    const Napi::Value name = o.Get("name");
    a.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : unnamed(i);
    a.joint = static_cast<int>(number_at(o, "body", where));
    if (a.joint < 0 || a.joint >= static_cast<int>(model.joints.size())) type_error(where + ".body is out of range");
    const Napi::Value kind = o.Get("kind");
    const std::string k = kind.IsString() ? kind.As<Napi::String>().Utf8Value() : "";
    if (k == "motor") a.kind = ActuatorKind::Motor;
    else if (k == "position") a.kind = ActuatorKind::Position;
    else if (k == "velocity") a.kind = ActuatorKind::Velocity;
    else if (k == "general") a.kind = ActuatorKind::General;
    else type_error(where + ".kind is '" + k + "'; expected motor, position, velocity or general");
    if (a.kind == ActuatorKind::General) general_from_js(o, a, where);
    const int nv = joint_nv(model.joints[a.joint].type);
    const bool raw = ACH_BUG(GearNotProjected) && o.Get("direction").IsArray();
    numbers_at(o, raw ? "direction" : "gear", a.gear, raw ? 6 : nv, where);
    if (raw)
      for (int e = nv; e < 6; ++e) a.gear[e] = 0;
    a.kp = optional_number_or(o, "kp", 0, where);
    a.kv = optional_number_or(o, "kv", 0, where);
    a.ctrl_limited = optional_range(o, "ctrlrange", a.ctrl_lo, a.ctrl_hi, where);
    a.force_limited = optional_range(o, "forcerange", a.force_lo, a.force_hi, where);
    a.rate = optional_number_or(o, "rateLimit", 0, where);
    model.actuators.push_back(std::move(a));
  }
}

/// A limit's optional settings object `limit: {solref?, solimp?, margin?}` (joints and tendons).
void limit_settings_from_js(const Napi::Object& o, LimitSpec& limit, const std::string& where) {
  const Napi::Value lim = o.Get("limit");
  if (lim.IsUndefined() || lim.IsNull()) return;
  if (!lim.IsObject()) type_error(where + ".limit must be an object {solref, solimp, margin}");
  const Napi::Object lo = lim.As<Napi::Object>();
  const std::string lw = where + ".limit";
  optional_numbers(lo, "solref", limit.solref, 2, lw);
  optional_numbers(lo, "solimp", limit.solimp, 5, lw);
  optional_number(lo, "margin", limit.margin, lw);
}

/// Fixed tendons (optional): {name, joints: [body index], coefs, range?, limit?, frictionloss?,
/// stiffness?, damping?, springlength?: [lower, upper]} (checked by finalize_constraints).
void tendons_from_js(const Napi::Object& m, Model& model) {
  const Napi::Value tv = m.Get("tendons");
  if (tv.IsUndefined() || tv.IsNull()) return;
  if (!tv.IsArray()) type_error("model.tendons must be an array");
  const Napi::Array arr = tv.As<Napi::Array>();
  for (uint32_t i = 0; i < arr.Length(); ++i) {
    const std::string where = "model.tendons[" + std::to_string(i) + "]";
    if (!arr.Get(i).IsObject()) type_error(where + " must be an object");
    const Napi::Object o = arr.Get(i).As<Napi::Object>();
    Tendon t;
    const Napi::Value name = o.Get("name");
    t.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : unnamed(i);
    const Napi::Value jv = o.Get("joints"), cv = o.Get("coefs");
    if (!jv.IsArray() || !cv.IsArray()) type_error(where + ".joints and .coefs must be arrays");
    const uint32_t n = jv.As<Napi::Array>().Length();
    if (n == 0 || cv.As<Napi::Array>().Length() != n) type_error(where + ": needs one coef per joint, and at least one joint");
    std::vector<double> joints;
    append_numbers(o, "joints", joints, static_cast<int>(n), where);
    append_numbers(o, "coefs", t.coefs, static_cast<int>(n), where);
    for (double j : joints) {
      if (j != std::floor(j)) type_error(where + ".joints must hold body indices");
      t.joints.push_back(static_cast<int>(j));
    }
    t.limit.limited = optional_range(o, "range", t.limit.range[0], t.limit.range[1], where);
    limit_settings_from_js(o, t.limit, where);
    t.frictionloss = optional_number_or(o, "frictionloss", 0, where);
    t.stiffness = optional_number_or(o, "stiffness", 0, where);
    t.damping = optional_number_or(o, "damping", 0, where);
    optional_range(o, "springlength", t.springlength[0], t.springlength[1], where);
    model.tendons.push_back(std::move(t));
  }
}

/// Equality constraints (optional): {name, type: 'connect' | 'weld' | 'joint', active, solref, solimp;
/// connect/weld: body1, body2 (−1: world), anchor1?, anchor2? (each in its body's frame), quat1?, quat2?
/// (weld), torquescale; joint: joint1, joint2 (−1: none), polycoef, ref1, ref2}. A connect without anchor2,
/// or a weld without anchor1, has it (and the weld's quat1) made at qpos0 (finalize_constraints).
void equalities_from_js(const Napi::Object& m, Model& model) {
  const Napi::Value ev = m.Get("equalities");
  if (ev.IsUndefined() || ev.IsNull()) return;
  if (!ev.IsArray()) type_error("model.equalities must be an array");
  const Napi::Array arr = ev.As<Napi::Array>();
  for (uint32_t i = 0; i < arr.Length(); ++i) {
    const std::string where = "model.equalities[" + std::to_string(i) + "]";
    if (!arr.Get(i).IsObject()) type_error(where + " must be an object");
    const Napi::Object o = arr.Get(i).As<Napi::Object>();
    Equality e;
    const Napi::Value name = o.Get("name");
    e.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : unnamed(i);
    const int type = choice_at(o, "type", {"connect", "weld", "joint"}, where);
    e.type = type == 0 ? EqualityType::Connect : type == 1 ? EqualityType::Weld : EqualityType::Joint;
    const Napi::Value active = o.Get("active");
    e.active = active.IsUndefined() || active.ToBoolean().Value();
    optional_numbers(o, "solref", e.solref, 2, where);
    optional_numbers(o, "solimp", e.solimp, 5, where);
    auto index = [&](const char* key, double fallback) {
      const double x = optional_number_or(o, key, fallback, where);
      if (x != std::floor(x) || !std::isfinite(x)) type_error(where + "." + key + " must be an index");
      return static_cast<int>(x);
    };
    if (e.type == EqualityType::Joint) {
      e.joint1 = index("joint1", -1);
      e.joint2 = index("joint2", -1);
      optional_numbers(o, "polycoef", e.polycoef, 5, where);
      e.ref1 = optional_number_or(o, "ref1", 0, where);
      e.ref2 = optional_number_or(o, "ref2", 0, where);
    } else {
      e.body1 = index("body1", -1);
      e.body2 = index("body2", -1);
      const bool has1 = optional_numbers(o, "anchor1", e.p1, 3, where);
      const bool has2 = optional_numbers(o, "anchor2", e.p2, 3, where);
      e.at_qpos0 = e.type == EqualityType::Connect ? !has2 : !has1;
      double q[4];
      if (optional_numbers(o, "quat1", q, 4, where)) quat_to_rotation(q, e.Q1);
      if (optional_numbers(o, "quat2", q, 4, where)) quat_to_rotation(q, e.Q2);
      e.torquescale = optional_number_or(o, "torquescale", 1, where);
    }
    model.equalities.push_back(std::move(e));
  }
}

/// The native model from the object batch.ts builds (`toNativeModel`).
Model model_from_js(const Napi::Object& m) {
  Model model;
  numbers_at(m, "gravity", model.gravity, 3, "model");
  const Napi::Value bv = m.Get("bodies");
  if (!bv.IsArray()) type_error("model.bodies must be an array");
  const Napi::Array bodies = bv.As<Napi::Array>();
  for (uint32_t i = 0; i < bodies.Length(); ++i) {
    const std::string where = "model.bodies[" + std::to_string(i) + "]";
    if (!bodies.Get(i).IsObject()) type_error(where + " must be an object");
    const Napi::Object b = bodies.Get(i).As<Napi::Object>();
    Joint j;
    const Napi::Value name = b.Get("name");
    j.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : unnamed(i);
    const Napi::Value jt = b.Get("joint");
    if (!jt.IsString()) type_error(where + ".joint must be a string");
    j.type = joint_type(jt.As<Napi::String>().Utf8Value(), where);
    j.parent = static_cast<int>(number_at(b, "parent", where));
    double quat[4];
    numbers_at(b, "pos", j.p_PJ, 3, where);
    numbers_at(b, "quat", quat, 4, where);
    quat_to_rotation(quat, j.R_PJ);
    numbers_at(b, "axis", j.axis, 3, where);
    numbers_at(b, "u", j.u, 3, where);
    numbers_at(b, "w", j.w, 3, where);
    j.mass = number_at(b, "mass", where);
    numbers_at(b, "com", j.com, 3, where);
    numbers_at(b, "inertia", j.I_com, 6, where);
    const int nq = joint_nq(j.type), nv = joint_nv(j.type);
    append_numbers(b, "q0", model.q0, nq, where);
    append_numbers(b, "v0", model.v0, nv, where);
    append_numbers(b, "tau", model.tau0, nv, where);
    // joint limit and dry friction (optional)
    const Napi::Value range = b.Get("range");
    if (!range.IsUndefined() && !range.IsNull()) {
      j.limit.limited = true;
      numbers_at(b, "range", j.limit.range, 2, where);
      limit_settings_from_js(b, j.limit, where);
    }
    optional_number(b, "frictionloss", j.frictionloss, where);
    j.damping = optional_number_or(b, "damping", 0, where);
    j.stiffness = optional_number_or(b, "stiffness", 0, where);
    j.springref = optional_number_or(b, "springref", 0, where);
    j.armature = optional_number_or(b, "armature", 0, where);
    j.ref = optional_number_or(b, "ref", 0, where);
    model.joints.push_back(std::move(j));
  }
  const Napi::Value solver = m.Get("solver");
  if (!solver.IsUndefined() && !solver.IsNull()) {
    if (!solver.IsObject()) type_error("model.solver must be an object {iterations, impratio, tolerance?, method?}");
    const Napi::Object so = solver.As<Napi::Object>();
    double it = model.solver_iterations;
    if (optional_number(so, "iterations", it, "model.solver") && (it != std::floor(it) || it < 0 || it > 100000))
      type_error("model.solver.iterations must be an integer from 0 to 100000 (got " + std::to_string(it) + ")");
    model.solver_iterations = static_cast<int>(it);
    optional_number(so, "impratio", model.impratio, "model.solver");
    optional_number(so, "tolerance", model.solver_tolerance, "model.solver");
    const Napi::Value method = so.Get("method");
    if (!method.IsUndefined()) {
      const std::string name = method.IsString() ? method.As<Napi::String>().Utf8Value() : std::string();
      if (name != "newton" && name != "cg") type_error("model.solver.method must be 'newton' or 'cg'");
      model.solver_newton = name == "newton";
    }
  }
  shapes_from_js(m, model);
  actuators_from_js(m, model);
  tendons_from_js(m, model);
  equalities_from_js(m, model);
  model.finalize();
  return model;
}

BatchOptions options_from_js(const Napi::Object& o) {
  BatchOptions opt;
  auto str = [&](const char* key) {
    const Napi::Value v = o.Get(key);
    if (!v.IsString()) type_error(std::string("options.") + key + " must be a string");
    return v.As<Napi::String>().Utf8Value();
  };
  const std::string prec = str("precision");
  if (prec != "f32" && prec != "f64") type_error("precision must be f32 or f64 (got '" + prec + "')");
  opt.precision = prec == "f32" ? Precision::F32 : Precision::F64;
  opt.lanes = static_cast<int>(number_at(o, "lanes", "options"));
  opt.copies = static_cast<int>(number_at(o, "copies", "options"));
  const std::string integ = str("integrator");
  if (integ == "euler") opt.integrator = Integrator::Euler;
  else if (integ == "verlet") opt.integrator = Integrator::Verlet;
  else if (integ == "midpoint") opt.integrator = Integrator::Midpoint;
  else if (integ == "rk4") opt.integrator = Integrator::Rk4;
  else if (integ == "implicitfast") opt.integrator = Integrator::ImplicitFast;
  else type_error("integrator must be euler, verlet, midpoint, rk4 or implicitfast (got '" + integ + "')");
  opt.dt = number_at(o, "dt", "options");
  opt.substeps = static_cast<int>(number_at(o, "substeps", "options"));
  opt.midpoint_iterations = static_cast<int>(number_at(o, "midpointIterations", "options"));
  opt.threads = static_cast<int>(number_at(o, "threads", "options"));
  return opt;
}

} // namespace ach::binding
