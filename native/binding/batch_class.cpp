// NativeBatch: owns a Batch and hands its state arrays to JavaScript as typed arrays over the same
// memory (no copy).
#include "binding.hpp"
#include "field_names.hpp"

#include <cmath>
#include <memory>
#include <string>

#include "achilles/collision/pair_filter.hpp"

namespace ach::binding {
namespace {

class BatchWrap : public Napi::ObjectWrap<BatchWrap> {
 public:
  static Napi::Function Define(Napi::Env env) {
    return DefineClass(
        env, "NativeBatch",
        {InstanceMethod("step", &BatchWrap::Step), InstanceMethod("forward", &BatchWrap::Forward), InstanceMethod("observe", &BatchWrap::Observe),
         InstanceMethod("collide", &BatchWrap::Collide), InstanceMethod("reset", &BatchWrap::Reset),
         InstanceMethod("constrain", &BatchWrap::Constrain), InstanceMethod("constraints", &BatchWrap::Constraints),
         InstanceMethod("sense", &BatchWrap::Sense), InstanceMethod("setRobotModel", &BatchWrap::SetRobotModel),
         InstanceMethod("field", &BatchWrap::Field), InstanceMethod("info", &BatchWrap::Info), InstanceMethod("contacts", &BatchWrap::Contacts),
         InstanceMethod("candidatePairs", &BatchWrap::CandidatePairs)});
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
      s = batch_->step(static_cast<std::int64_t>(n), info.Length() > 1 && info[1].ToBoolean().Value(),
                       info.Length() > 2 && info[2].ToBoolean().Value());
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
    out.Set("nonFiniteControl", bad_control(env, s.bad_control));
    return out;
  }
  /// null, or the bad control that stopped a step() call before its first step: the step it would
  /// have taken (0-based), the robot, the actuator's name and the value written.
  Napi::Value bad_control(Napi::Env env, const BadControl& bad) const {
    if (!bad) return env.Null();
    Napi::Object o = Napi::Object::New(env);
    o.Set("step", Napi::Number::New(env, static_cast<double>(batch_->steps())));
    o.Set("robot", Napi::Number::New(env, bad.robot));
    o.Set("actuator", Napi::String::New(env, batch_->model().actuators[bad.actuator].name));
    o.Set("value", Napi::Number::New(env, bad.value));
    return o;
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
  /// constrain(record?, robots?): with record true (a record: true batch), also keep its fields
  /// (mj_forward's); with robots, only their blocks are evaluated.
  Napi::Value Constrain(const Napi::CallbackInfo& info) {
    const bool record = info.Length() > 0 && info[0].IsBoolean() && info[0].As<Napi::Boolean>().Value();
    std::vector<int> robots;
    const bool some = info.Length() > 1 && info[1].IsArray();
    if (some) {
      const Napi::Array a = info[1].As<Napi::Array>();
      for (std::uint32_t i = 0; i < a.Length(); ++i) {
        const Napi::Value v = a.Get(i);
        if (!v.IsNumber()) throw Napi::TypeError::New(info.Env(), "constrain(record, robots): robots must be numbers");
        robots.push_back(v.As<Napi::Number>().Int32Value());
      }
    }
    try {
      batch_->constrain(record, some ? &robots : nullptr);
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
    if (robot != std::floor(robot) || iters != std::floor(iters))
      throw Napi::TypeError::New(env, "constraints: robot and iterations must be integers");
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
      static const char* const kinds[] = {"limit", "contact", "friction", "tendon-limit", "tendon-friction", "equality"};
      x.Set("kind", Napi::String::New(env, kinds[w.kind]));
      x.Set("id", Napi::Number::New(env, w.id));
      x.Set(w.kind == 0 || w.kind == 3 ? "side" : w.kind == 1 ? "point" : w.kind == 5 ? "row" : "dof", Napi::Number::New(env, w.point));
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
      x.Set("shapeA", Napi::Number::New(env, c.shape_a));
      x.Set("shapeB", Napi::Number::New(env, c.shape_b));
      x.Set("point", Napi::Number::New(env, c.point));
      x.Set("dist", Napi::Number::New(env, c.dist));
      x.Set("pos", arr(c.pos, 3));
      x.Set("frame", arr(c.frame, 9));
      x.Set("force", arr(c.force, 6));
      cons.Set(static_cast<uint32_t>(i), x);
    }
    o.Set("contacts", cons);
    return o;
  }

  /// setRobotModel(robot, model): robot `robot` runs with `model`'s per-robot parameters (Batch::set_robot_model).
  Napi::Value SetRobotModel(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 2 || !info[0].IsNumber() || !info[1].IsObject())
      throw Napi::TypeError::New(env, "setRobotModel(robot, model): expected an integer and an object");
    const double robot = info[0].As<Napi::Number>().DoubleValue();
    if (robot != std::floor(robot) || !(robot >= 0 && robot < batch_->options().copies))
      throw Napi::RangeError::New(env, "setRobotModel: robot must be an integer from 0 to " + std::to_string(batch_->options().copies - 1));
    try {
      batch_->set_robot_model(static_cast<int>(robot), model_from_js(info[1].As<Napi::Object>()));
    } catch (const std::exception& e) {
      throw Napi::Error::New(env, e.what());
    }
    return env.Undefined();
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
    if (!field_by_name(name, f)) throw Napi::Error::New(env, "unknown field '" + name + "'");
    const Storage& st = batch_->storage();
    auto* keep = new std::shared_ptr<Buffer>(st.buffer);
    const std::size_t count = st.count[static_cast<int>(f)];
    Napi::ArrayBuffer ab = Napi::ArrayBuffer::New(
        env, st.ptr(f), count * st.elem, [](Napi::Env, void*, std::shared_ptr<Buffer>* hold) { delete hold; }, keep);
    if (st.elem == 4) return Napi::Float32Array::New(env, count, ab, 0);
    return Napi::Float64Array::New(env, count, ab, 0);
  }

  /// contacts(robot) → one robot's active contact points from the last collide() or constrain():
  /// {shapeA, shapeB, point (Int32Array), dist, pos (3 per point), normal (3), force (3) (Float64Array)}.
  Napi::Value Contacts(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsNumber()) throw Napi::TypeError::New(env, "contacts(robot): robot must be a number");
    const double rd = info[0].As<Napi::Number>().DoubleValue();
    if (!(rd >= 0 && rd < batch_->options().copies && rd == std::floor(rd)))
      throw Napi::RangeError::New(env, "contacts(robot): robot must be an integer from 0 to " + std::to_string(batch_->options().copies - 1));
    const ContactList c = batch_->storage().contacts->contacts_of(static_cast<int>(rd));
    auto ints = [&](const std::vector<int>& x) {
      Napi::Int32Array a = Napi::Int32Array::New(env, x.size());
      for (std::size_t k = 0; k < x.size(); ++k) a[k] = x[k];
      return a;
    };
    auto reals = [&](const std::vector<double>& x) {
      Napi::Float64Array a = Napi::Float64Array::New(env, x.size());
      for (std::size_t k = 0; k < x.size(); ++k) a[k] = x[k];
      return a;
    };
    Napi::Object o = Napi::Object::New(env);
    o.Set("shapeA", ints(c.shape_a));
    o.Set("shapeB", ints(c.shape_b));
    o.Set("point", ints(c.point));
    o.Set("dist", reals(c.dist));
    o.Set("pos", reals(c.pos));
    o.Set("normal", reals(c.normal));
    o.Set("force", reals(c.force));
    return o;
  }

  /// candidatePairs() → every pair of shapes the filter admits, {a, b} with a < b, in row order
  /// (quadratic in the shapes: a listing for inspection and validation, never used to step).
  Napi::Value CandidatePairs(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const std::vector<ShapePair> mp = candidate_pairs(batch_->model());
    Napi::Array pairs = Napi::Array::New(env, mp.size());
    for (std::size_t i = 0; i < mp.size(); ++i) {
      Napi::Object p = Napi::Object::New(env);
      p.Set("a", Napi::Number::New(env, mp[i].a));
      p.Set("b", Napi::Number::New(env, mp[i].b));
      pairs.Set(static_cast<uint32_t>(i), p);
    }
    return pairs;
  }

  Napi::Value Info(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Object o = Napi::Object::New(env);
    const Storage& st = batch_->storage();
    o.Set("stride", Napi::Number::New(env, st.stride));
    o.Set("nq", Napi::Number::New(env, batch_->model().nq));
    o.Set("nv", Napi::Number::New(env, batch_->model().nv));
    o.Set("nu", Napi::Number::New(env, static_cast<double>(batch_->model().actuators.size())));
    int na = 0;
    for (const Actuator& a : batch_->model().actuators) na += a.stateful() ? 1 : 0;
    o.Set("na", Napi::Number::New(env, na));
    o.Set("isa", Napi::String::New(env, isa_name(isa_for(batch_->options().precision, batch_->options().lanes))));
    o.Set("steps", Napi::Number::New(env, static_cast<double>(batch_->steps())));
    o.Set("hasPairs", Napi::Boolean::New(env, batch_->model().has_pairs));
    return o;
  }

  std::unique_ptr<Batch> batch_;
};

} // namespace

Napi::Function define_batch_class(Napi::Env env) { return BatchWrap::Define(env); }

} // namespace ach::binding
