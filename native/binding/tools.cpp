// The binding's free functions: storage size, CPU info, flop counts, peak measurement, the narrow
// phase on single pairs, and the planted bugs of the bug build.
#include "binding.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "achilles/bugs.hpp"
#include "achilles/collision/standalone.hpp"
#include "achilles/flops.hpp"
#include "achilles/lane_difference.hpp"

namespace ach::binding {
namespace {

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

/// laneDifference(model, robotModel) → "" when robotModel may run in a lane of a batch of model
/// (NativeBatch.setRobotModel accepts it), else its first difference (lane_difference.hpp).
Napi::Value LaneDifference(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 2 || !info[0].IsObject() || !info[1].IsObject())
    throw Napi::TypeError::New(env, "laneDifference(model, robotModel): expected two objects");
  try {
    return Napi::String::New(env, lane_difference(model_from_js(info[0].As<Napi::Object>()), model_from_js(info[1].As<Napi::Object>())));
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

/// collideShapePairs(pairs, {precision}) → [{count, normal, points, dists, normals}] (see CONTRACT-collision);
/// a cylinder or ellipsoid gives `size`, a convex shape `vertices` (and optional `faces`), as in a model.
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
        q.kind[s] = shape_kind(NapiValue(g.Get("kind")), w);
        if (is_convex_kind(q.kind[s])) {
          // cylinder, ellipsoid: `size`; convex: `vertices` and optional `faces`, read as a model's shapes are
          Shape shape;
          shape.kind = q.kind[s];
          read_convex_size(NapiValue(g), shape, w);
          for (int k = 0; k < 3; ++k) q.half[s][k] = shape.half[k], q.size[s][k] = shape.size[k];
          q.radius[s] = 0;
          q.vert[s] = std::move(shape.vert);
          q.graph[s] = std::move(shape.graph);
          q.extrema[s] = std::move(shape.extrema);
          q.polygons[s] = std::move(shape.polygons);
        } else {
          numbers_at(NapiValue(g), "halfExtents", q.half[s], 3, w);
          q.radius[s] = number_at(NapiValue(g), "radius", w);
          for (int k = 0; k < 3; ++k)
            if (!(q.half[s][k] >= 0) || !std::isfinite(q.half[s][k])) type_error(w + ".halfExtents must be finite and >= 0");
          if (!(q.radius[s] >= 0) || !std::isfinite(q.radius[s])) type_error(w + ".radius must be finite and >= 0");
        }
        const std::string pw = where + "." + poses[s];
        if (!o.Get(poses[s]).IsObject()) type_error(pw + " must be an object {pos, quat}");
        const Napi::Object pose = o.Get(poses[s]).As<Napi::Object>();
        double quat[4];
        numbers_at(NapiValue(pose), "pos", q.p[s], 3, pw);
        numbers_at(NapiValue(pose), "quat", quat, 4, pw);
        quat_to_rotation(quat, q.R[s]);
      }
      q.margin = o.Get("margin").IsUndefined() ? 0.0 : number_at(NapiValue(o), "margin", where);
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
      Napi::Array pts = Napi::Array::New(env, r.count), ds = Napi::Array::New(env, r.count), ns = Napi::Array::New(env, r.count);
      for (int c = 0; c < r.count; ++c) {
        Napi::Array p = Napi::Array::New(env, 3), pn = Napi::Array::New(env, 3);
        for (uint32_t k = 0; k < 3; ++k) p.Set(k, Napi::Number::New(env, r.pos[c][k])), pn.Set(k, Napi::Number::New(env, r.normals[c][k]));
        pts.Set(static_cast<uint32_t>(c), p);
        ns.Set(static_cast<uint32_t>(c), pn);
        ds.Set(static_cast<uint32_t>(c), Napi::Number::New(env, r.dist[c]));
      }
      o.Set("points", pts);
      o.Set("dists", ds);
      o.Set("normals", ns);
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

} // namespace

void export_tools(Napi::Env env, Napi::Object exports) {
  exports.Set("cpuInfo", Napi::Function::New(env, CpuInfo));
  exports.Set("countFlops", Napi::Function::New(env, CountFlops));
  exports.Set("measurePeak", Napi::Function::New(env, MeasurePeak));
  exports.Set("storageBytes", Napi::Function::New(env, StorageBytes));
  exports.Set("laneDifference", Napi::Function::New(env, LaneDifference));
  exports.Set("collideShapePairs", Napi::Function::New(env, CollideShapePairs));
#ifdef ACHILLES_PLANTED_BUGS
  exports.Set("plantedBugs", Napi::Function::New(env, Bugs));
  exports.Set("setBug", Napi::Function::New(env, SetBug));
  exports.Set("isBugBuild", Napi::Boolean::New(env, true));
#else
  exports.Set("isBugBuild", Napi::Boolean::New(env, false));
#endif
}

} // namespace ach::binding
