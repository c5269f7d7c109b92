// The Node binding: converts the compiled model from JavaScript, owns a Batch, and hands its
// state arrays to JavaScript as typed arrays over the same memory (no copy). Every C++
// exception becomes a JavaScript Error; nothing here aborts the process.
#include <napi.h>

#include <cmath>
#include <memory>
#include <string>

#include "achilles/batch.hpp"
#include "achilles/bugs.hpp"
#include "achilles/collision/standalone.hpp"
#include "achilles/flops.hpp"

namespace {

using namespace ach;

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
      s.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : ("#" + std::to_string(i));
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
    a.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : ("#" + std::to_string(i));
    a.joint = static_cast<int>(number_at(o, "body", where));
    if (a.joint < 0 || a.joint >= static_cast<int>(model.joints.size())) type_error(where + ".body is out of range");
    const Napi::Value kind = o.Get("kind");
    const std::string k = kind.IsString() ? kind.As<Napi::String>().Utf8Value() : "";
    if (k == "motor") a.kind = ActuatorKind::Motor;
    else if (k == "position") a.kind = ActuatorKind::Position;
    else if (k == "velocity") a.kind = ActuatorKind::Velocity;
    else type_error(where + ".kind is '" + k + "'; expected motor, position or velocity");
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
    t.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : ("#" + std::to_string(i));
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
    j.name = name.IsString() ? name.As<Napi::String>().Utf8Value() : ("#" + std::to_string(i));
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
    model.joints.push_back(std::move(j));
  }
  const Napi::Value solver = m.Get("solver");
  if (!solver.IsUndefined() && !solver.IsNull()) {
    if (!solver.IsObject()) type_error("model.solver must be an object {iterations, impratio, tolerance?}");
    const Napi::Object so = solver.As<Napi::Object>();
    double it = model.solver_iterations;
    if (optional_number(so, "iterations", it, "model.solver") && (it != std::floor(it) || it < 0 || it > 100000))
      type_error("model.solver.iterations must be an integer from 0 to 100000 (got " + std::to_string(it) + ")");
    model.solver_iterations = static_cast<int>(it);
    optional_number(so, "impratio", model.impratio, "model.solver");
    optional_number(so, "tolerance", model.solver_tolerance, "model.solver");
  }
  shapes_from_js(m, model);
  actuators_from_js(m, model);
  tendons_from_js(m, model);
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
  else type_error("integrator must be euler, verlet, midpoint or rk4 (got '" + integ + "')");
  opt.dt = number_at(o, "dt", "options");
  opt.substeps = static_cast<int>(number_at(o, "substeps", "options"));
  opt.midpoint_iterations = static_cast<int>(number_at(o, "midpointIterations", "options"));
  opt.threads = static_cast<int>(number_at(o, "threads", "options"));
  return opt;
}

class BatchWrap : public Napi::ObjectWrap<BatchWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(env, "NativeBatch",
                       {InstanceMethod("step", &BatchWrap::Step), InstanceMethod("forward", &BatchWrap::Forward),
                        InstanceMethod("observe", &BatchWrap::Observe), InstanceMethod("collide", &BatchWrap::Collide),
                        InstanceMethod("reset", &BatchWrap::Reset), InstanceMethod("constrain", &BatchWrap::Constrain),
                        InstanceMethod("constraints", &BatchWrap::Constraints),
                        InstanceMethod("sense", &BatchWrap::Sense),
                        InstanceMethod("field", &BatchWrap::Field), InstanceMethod("info", &BatchWrap::Info)});
  }

  BatchWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<BatchWrap>(info) {
    Napi::Env env = info.Env();
    if (info.Length() < 2 || !info[0].IsObject() || !info[1].IsObject())
      throw Napi::TypeError::New(env, "NativeBatch(model, options): expected two objects");
    try {
      batch_ = std::make_unique<Batch>(model_from_js(info[0].As<Napi::Object>()), options_from_js(info[1].As<Napi::Object>()));
    } catch (const std::exception& e) {
      throw Napi::Error::New(env, e.what());
    }
  }

 private:
  Napi::Value Step(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const double n = info[0].IsNumber() ? info[0].As<Napi::Number>().DoubleValue() : 1;
    if (!(n >= 0) || n != std::floor(n) || n > 9e15) throw Napi::RangeError::New(env, "step count must be a non-negative integer");
    StepStats s;
    try {
      s = batch_->step(static_cast<std::int64_t>(n), info.Length() > 1 && info[1].ToBoolean().Value());
    } catch (const std::exception& e) {
      throw Napi::Error::New(env, e.what());
    }
    Napi::Object out = Napi::Object::New(env);
    out.Set("robotSteps", Napi::Number::New(env, static_cast<double>(s.robot_steps)));
    if (s.nonfinite) {
      Napi::Object nf = Napi::Object::New(env);
      nf.Set("step", Napi::Number::New(env, static_cast<double>(s.step)));
      nf.Set("robot", Napi::Number::New(env, s.robot));
      nf.Set("joint", Napi::String::New(env, batch_->model().joints[s.joint].name));
      out.Set("nonFinite", nf);
    } else {
      out.Set("nonFinite", env.Null());
    }
    return out;
  }
  Napi::Value Forward(const Napi::CallbackInfo& info) {
    batch_->forward();
    return info.Env().Undefined();
  }
  Napi::Value Observe(const Napi::CallbackInfo& info) {
    batch_->observe();
    return info.Env().Undefined();
  }
  Napi::Value Collide(const Napi::CallbackInfo& info) {
    try {
      batch_->collide();
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
    return info.Env().Undefined();
  }
  Napi::Value Constrain(const Napi::CallbackInfo& info) {
    try {
      batch_->constrain();
    } catch (const std::exception& e) {
      throw Napi::Error::New(info.Env(), e.what());
    }
    return info.Env().Undefined();
  }

  /// constraints(robot, iterations, warm) → {qaccSmooth, qacc, qfrcConstraint, rows, contacts}.
  Napi::Value Constraints(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 3 || !info[0].IsNumber() || !info[1].IsNumber() || !info[2].IsBoolean())
      throw Napi::TypeError::New(env, "constraints(robot, iterations, warm): expected two integers and a boolean");
    const double robot = info[0].As<Napi::Number>().DoubleValue(), iters = info[1].As<Napi::Number>().DoubleValue();
    if (robot != std::floor(robot) || iters != std::floor(iters)) throw Napi::TypeError::New(env, "constraints: robot and iterations must be integers");
    ConstraintReport r;
    try {
      r = batch_->constraint_report(static_cast<int>(robot), static_cast<int>(iters), info[2].As<Napi::Boolean>().Value());
    } catch (const std::exception& e) {
      throw Napi::Error::New(env, e.what());
    }
    auto arr = [&](const double* x, std::size_t n) {
      Napi::Array a = Napi::Array::New(env, n);
      for (std::size_t k = 0; k < n; ++k) a.Set(static_cast<uint32_t>(k), Napi::Number::New(env, x[k]));
      return a;
    };
    Napi::Object o = Napi::Object::New(env);
    o.Set("qaccSmooth", arr(r.qacc_smooth.data(), r.qacc_smooth.size()));
    o.Set("qacc", arr(r.qacc.data(), r.qacc.size()));
    o.Set("qfrcConstraint", arr(r.qfrc_constraint.data(), r.qfrc_constraint.size()));
    o.Set("tendonLength", arr(r.tendon_length.data(), r.tendon_length.size()));
    o.Set("tendonVelocity", arr(r.tendon_velocity.data(), r.tendon_velocity.size()));
    Napi::Array rows = Napi::Array::New(env, r.rows.size());
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
      const ConstraintRowReport& w = r.rows[i];
      Napi::Object x = Napi::Object::New(env);
      static const char* const kinds[] = {"limit", "contact", "friction", "tendon-limit", "tendon-friction"};
      x.Set("kind", Napi::String::New(env, kinds[w.kind]));
      x.Set("id", Napi::Number::New(env, w.id));
      x.Set(w.kind == 0 || w.kind == 3 ? "side" : w.kind == 1 ? "point" : "dof", Napi::Number::New(env, w.point));
      x.Set("edge", Napi::Number::New(env, w.edge));
      x.Set("dist", Napi::Number::New(env, w.dist));
      x.Set("vel", Napi::Number::New(env, w.vel));
      x.Set("aref", Napi::Number::New(env, w.aref));
      x.Set("R", Napi::Number::New(env, w.R));
      x.Set("D", Napi::Number::New(env, w.D));
      x.Set("imp", Napi::Number::New(env, w.imp));
      x.Set("force", Napi::Number::New(env, w.force));
      x.Set("J", arr(w.J.data(), w.J.size()));
      rows.Set(static_cast<uint32_t>(i), x);
    }
    o.Set("rows", rows);
    Napi::Array cons = Napi::Array::New(env, r.contacts.size());
    for (std::size_t i = 0; i < r.contacts.size(); ++i) {
      const ContactPointReport& c = r.contacts[i];
      Napi::Object x = Napi::Object::New(env);
      x.Set("pair", Napi::Number::New(env, c.pair));
      x.Set("point", Napi::Number::New(env, c.point));
      x.Set("dist", Napi::Number::New(env, c.dist));
      x.Set("pos", arr(c.pos, 3));
      x.Set("frame", arr(c.frame, 9));
      x.Set("force", arr(c.force, 3));
      cons.Set(static_cast<uint32_t>(i), x);
    }
    o.Set("contacts", cons);
    return o;
  }

  Napi::Value Sense(const Napi::CallbackInfo& info) {
    batch_->sense();
    return info.Env().Undefined();
  }
  Napi::Value Reset(const Napi::CallbackInfo& info) {
    batch_->reset();
    return info.Env().Undefined();
  }

  /// A typed array over one field's storage. The ArrayBuffer holds a share of the storage, so
  /// the memory outlives the batch object for as long as JavaScript keeps the array.
  Napi::Value Field(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const std::string name = info[0].As<Napi::String>().Utf8Value();
    FieldId f;
    if (name == "q") f = FieldId::Q;
    else if (name == "v") f = FieldId::V;
    else if (name == "tau") f = FieldId::Tau;
    else if (name == "qacc") f = FieldId::Qacc;
    else if (name == "kinetic") f = FieldId::Kinetic;
    else if (name == "potential") f = FieldId::Potential;
    else if (name == "bodyPos") f = FieldId::BodyPos;
    else if (name == "bodyRot") f = FieldId::BodyRot;
    else if (name == "contactActive") f = FieldId::ContactActive;
    else if (name == "contactDist") f = FieldId::ContactDist;
    else if (name == "contactPos") f = FieldId::ContactPos;
    else if (name == "contactNormal") f = FieldId::ContactNormal;
    else if (name == "energyRef") f = FieldId::EnergyRef;
    else if (name == "driftMax") f = FieldId::DriftMax;
    else if (name == "kineticPeak") f = FieldId::KineticPeak;
    else if (name == "qaccWarm") f = FieldId::QaccWarm;
    else if (name == "contactForce") f = FieldId::ContactForce;
    else if (name == "ctrl") f = FieldId::Ctrl;
    else if (name == "ctrlTarget") f = FieldId::CtrlTarget;
    else if (name == "actuatorForce") f = FieldId::ActuatorForce;
    else if (name == "bodyVel") f = FieldId::BodyVel; // sensors
    else if (name == "bodyAcc") f = FieldId::BodyAcc; // sensors
    else throw Napi::Error::New(env, "unknown field '" + name + "'");
    const Storage& st = batch_->storage();
    auto* keep = new std::shared_ptr<Buffer>(st.buffer);
    const std::size_t count = st.count[static_cast<int>(f)];
    Napi::ArrayBuffer ab = Napi::ArrayBuffer::New(env, st.ptr(f), count * st.elem,
                                                  [](Napi::Env, void*, std::shared_ptr<Buffer>* hold) { delete hold; }, keep);
    if (st.elem == 4) return Napi::Float32Array::New(env, count, ab, 0);
    return Napi::Float64Array::New(env, count, ab, 0);
  }

  Napi::Value Info(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Object o = Napi::Object::New(env);
    const Storage& st = batch_->storage();
    o.Set("stride", Napi::Number::New(env, st.stride));
    o.Set("nq", Napi::Number::New(env, batch_->model().nq));
    o.Set("nv", Napi::Number::New(env, batch_->model().nv));
    o.Set("nu", Napi::Number::New(env, static_cast<double>(batch_->model().actuators.size())));
    o.Set("isa", Napi::String::New(env, isa_name(isa_for(batch_->options().precision, batch_->options().lanes))));
    o.Set("steps", Napi::Number::New(env, static_cast<double>(batch_->steps())));
    Napi::Array pairs = Napi::Array::New(env);
    const auto& mp = batch_->model().pairs;
    for (std::size_t i = 0; i < mp.size(); ++i) {
      Napi::Object p = Napi::Object::New(env);
      p.Set("a", Napi::Number::New(env, mp[i].a));
      p.Set("b", Napi::Number::New(env, mp[i].b));
      pairs.Set(static_cast<uint32_t>(i), p);
    }
    o.Set("pairs", pairs);
    return o;
  }

  std::unique_ptr<Batch> batch_;
};

/// storageBytes(model, options) → bytes of the batch's state storage, without allocating it
/// (the same layout the batch would use: candidate pairs included).
Napi::Value StorageBytes(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsObject() || !info[1].IsObject())
    throw Napi::TypeError::New(env, "storageBytes(model, options): expected two objects");
  try {
    return Napi::Number::New(env, double(storage_bytes(model_from_js(info[0].As<Napi::Object>()), options_from_js(info[1].As<Napi::Object>()))));
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
}

Napi::Value CpuInfo(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  o.Set("sse2", Napi::Boolean::New(env, cpu_supports(Isa::Sse2)));
  o.Set("avx2", Napi::Boolean::New(env, cpu_supports(Isa::Avx2)));
  o.Set("avx512", Napi::Boolean::New(env, cpu_supports(Isa::Avx512)));
  o.Set("widestLanes", Napi::Number::New(env, widest_lanes()));
#if defined(__clang__)
  o.Set("compiler", Napi::String::New(env, std::string("clang ") + __clang_version__));
#elif defined(__GNUC__)
  o.Set("compiler", Napi::String::New(env, std::string("g++ ") + __VERSION__));
#endif
  return o;
}

/// countFlops(model, {integrator, substeps, midpointIterations, dt}) → per robot-step counts.
Napi::Value CountFlops(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsObject() || !info[1].IsObject())
    throw Napi::TypeError::New(env, "countFlops(model, options): expected two objects");
  try {
    const Napi::Object o = info[1].As<Napi::Object>();
    Napi::Object full = Napi::Object::New(env);
    full.Set("precision", "f64");
    full.Set("lanes", 1);
    full.Set("copies", 1);
    full.Set("threads", 1);
    full.Set("integrator", o.Has("integrator") ? o.Get("integrator") : Napi::String::New(env, "euler"));
    full.Set("dt", o.Has("dt") ? o.Get("dt") : Napi::Number::New(env, 0.002));
    full.Set("substeps", o.Has("substeps") ? o.Get("substeps") : Napi::Number::New(env, 1));
    full.Set("midpointIterations", o.Has("midpointIterations") ? o.Get("midpointIterations") : Napi::Number::New(env, 4));
    const FlopReport r = count_flops(model_from_js(info[0].As<Napi::Object>()), options_from_js(full));
    Napi::Object out = Napi::Object::New(env);
    out.Set("add", Napi::Number::New(env, double(r.add)));
    out.Set("mul", Napi::Number::New(env, double(r.mul)));
    out.Set("div", Napi::Number::New(env, double(r.div)));
    out.Set("sqrt", Napi::Number::New(env, double(r.sqrt)));
    out.Set("cmp", Napi::Number::New(env, double(r.cmp)));
    out.Set("total", Napi::Number::New(env, double(r.total())));
    Napi::Array passes = Napi::Array::New(env, r.by_pass.size());
    for (std::size_t i = 0; i < r.by_pass.size(); ++i) {
      Napi::Object p = Napi::Object::New(env);
      p.Set("pass", Napi::String::New(env, r.by_pass[i].first));
      p.Set("total", Napi::Number::New(env, double(r.by_pass[i].second.total())));
      passes.Set(uint32_t(i), p);
    }
    out.Set("byPass", passes);
    return out;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
}

/// measurePeak({precision, lanes, seconds}) → {gflops, clockMHz}: one core's add+mul peak at that
/// pack width and the clock it ran at (peak.hpp), measured now. Blocks for about `seconds`.
Napi::Value MeasurePeak(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  try {
    if (info.Length() < 1 || !info[0].IsObject()) type_error("measurePeak({precision, lanes, seconds}): expected an object");
    const Napi::Object o = info[0].As<Napi::Object>();
    const Napi::Value pv = o.Get("precision"), lv = o.Get("lanes"), sv = o.Get("seconds");
    if (!pv.IsString() || (pv.As<Napi::String>().Utf8Value() != "f32" && pv.As<Napi::String>().Utf8Value() != "f64"))
      type_error("measurePeak: precision must be 'f32' or 'f64'");
    if (!lv.IsNumber()) type_error("measurePeak: lanes must be a number (1, 4, 8 or 16)");
    const double seconds = sv.IsUndefined() ? 0.2 : (sv.IsNumber() ? sv.As<Napi::Number>().DoubleValue() : -1);
    const Precision prec = pv.As<Napi::String>().Utf8Value() == "f32" ? Precision::F32 : Precision::F64;
    const PeakMeasure m = measure_peak(prec, lv.As<Napi::Number>().Int32Value(), seconds);
    Napi::Object out = Napi::Object::New(env);
    out.Set("gflops", Napi::Number::New(env, m.gflops));
    out.Set("clockMHz", Napi::Number::New(env, m.clock_mhz));
    return out;
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
}

/// collideShapePairs(pairs, {precision}) → [{count, normal, points, dists}] (see CONTRACT-collision).
Napi::Value CollideShapePairs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  try {
    if (info.Length() < 1 || !info[0].IsArray()) type_error("collideShapePairs(pairs, {precision}): pairs must be an array");
    Precision prec = Precision::F64;
    if (info.Length() >= 2 && info[1].IsObject()) {
      const Napi::Value pv = info[1].As<Napi::Object>().Get("precision");
      if (!pv.IsUndefined()) {
        const std::string p = pv.IsString() ? pv.As<Napi::String>().Utf8Value() : "";
        if (p != "f32" && p != "f64") type_error("precision must be f32 or f64");
        prec = p == "f32" ? Precision::F32 : Precision::F64;
      }
    }
    const Napi::Array arr = info[0].As<Napi::Array>();
    std::vector<PairQuery> qs(arr.Length());
    for (uint32_t i = 0; i < arr.Length(); ++i) {
      const std::string where = "pairs[" + std::to_string(i) + "]";
      if (!arr.Get(i).IsObject()) type_error(where + " must be an object");
      const Napi::Object o = arr.Get(i).As<Napi::Object>();
      PairQuery& q = qs[i];
      const char* sides[2] = {"a", "b"};
      const char* poses[2] = {"poseA", "poseB"};
      for (int s = 0; s < 2; ++s) {
        const std::string w = where + "." + sides[s];
        if (!o.Get(sides[s]).IsObject()) type_error(w + " must be an object");
        const Napi::Object g = o.Get(sides[s]).As<Napi::Object>();
        q.kind[s] = shape_kind(g.Get("kind"), w);
        numbers_at(g, "halfExtents", q.half[s], 3, w);
        q.radius[s] = number_at(g, "radius", w);
        for (int k = 0; k < 3; ++k)
          if (!(q.half[s][k] >= 0) || !std::isfinite(q.half[s][k])) type_error(w + ".halfExtents must be finite and >= 0");
        if (!(q.radius[s] >= 0) || !std::isfinite(q.radius[s])) type_error(w + ".radius must be finite and >= 0");
        const std::string pw = where + "." + poses[s];
        if (!o.Get(poses[s]).IsObject()) type_error(pw + " must be an object {pos, quat}");
        const Napi::Object pose = o.Get(poses[s]).As<Napi::Object>();
        double quat[4];
        numbers_at(pose, "pos", q.p[s], 3, pw);
        numbers_at(pose, "quat", quat, 4, pw);
        quat_to_rotation(quat, q.R[s]);
      }
      q.margin = o.Get("margin").IsUndefined() ? 0.0 : number_at(o, "margin", where);
      if (!(q.margin >= 0) || !std::isfinite(q.margin)) type_error(where + ".margin must be finite and >= 0");
    }
    std::vector<PairContacts> res;
    collide_shape_pairs(qs, prec, res);
    Napi::Array out = Napi::Array::New(env, res.size());
    for (std::size_t i = 0; i < res.size(); ++i) {
      const PairContacts& r = res[i];
      Napi::Object o = Napi::Object::New(env);
      o.Set("count", Napi::Number::New(env, r.count));
      Napi::Array n = Napi::Array::New(env, 3);
      for (uint32_t k = 0; k < 3; ++k) n.Set(k, Napi::Number::New(env, r.normal[k]));
      o.Set("normal", n);
      Napi::Array pts = Napi::Array::New(env, r.count), ds = Napi::Array::New(env, r.count);
      for (int c = 0; c < r.count; ++c) {
        Napi::Array p = Napi::Array::New(env, 3);
        for (uint32_t k = 0; k < 3; ++k) p.Set(k, Napi::Number::New(env, r.pos[c][k]));
        pts.Set(static_cast<uint32_t>(c), p);
        ds.Set(static_cast<uint32_t>(c), Napi::Number::New(env, r.dist[c]));
      }
      o.Set("points", pts);
      o.Set("dists", ds);
      out.Set(static_cast<uint32_t>(i), o);
    }
    return out;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
}

#ifdef ACHILLES_PLANTED_BUGS
Napi::Value Bugs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Array a = Napi::Array::New(env);
  for (int b = 1; b < static_cast<int>(Bug::Count); ++b) a.Set(static_cast<uint32_t>(b - 1), Napi::String::New(env, bug_name(static_cast<Bug>(b))));
  return a;
}
Napi::Value SetBug(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const std::string name = info[0].As<Napi::String>().Utf8Value();
  for (int b = 0; b < static_cast<int>(Bug::Count); ++b)
    if (name == bug_name(static_cast<Bug>(b))) {
      g_bug = static_cast<Bug>(b);
      return env.Undefined();
    }
  throw Napi::Error::New(env, "unknown planted bug '" + name + "'");
}
#endif

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("NativeBatch", BatchWrap::Define(env));
  exports.Set("cpuInfo", Napi::Function::New(env, CpuInfo));
  exports.Set("countFlops", Napi::Function::New(env, CountFlops));
  exports.Set("measurePeak", Napi::Function::New(env, MeasurePeak));
  exports.Set("storageBytes", Napi::Function::New(env, StorageBytes));
  exports.Set("collideShapePairs", Napi::Function::New(env, CollideShapePairs));
#ifdef ACHILLES_PLANTED_BUGS
  exports.Set("plantedBugs", Napi::Function::New(env, Bugs));
  exports.Set("setBug", Napi::Function::New(env, SetBug));
  exports.Set("isBugBuild", Napi::Boolean::New(env, true));
#else
  exports.Set("isBugBuild", Napi::Boolean::New(env, false));
#endif
  return exports;
}

} // namespace

NODE_API_MODULE(achilles, Init)
