// Native MuJoCo timing harness for the Achilles benchmarks (and a bit-exact trace for tests).
// Links the pip wheel's libmujoco.so; the WebAssembly build is never used for speed.
//
// Exports: timeSteps(opts), timeCollision(opts), stepTrace(opts), info().
#include <dlfcn.h>
#include <mujoco/mujoco.h>
#include <napi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// ---- error handling -------------------------------------------------------------------------
// mju_error must not return into MuJoCo (it would continue with a corrupt state) and the default
// handler calls exit(). We longjmp back to the guarded call and turn the message into a JS
// exception. Only C frames (MuJoCo) and trivially destructible locals lie between setjmp and
// longjmp, so no C++ destructor is skipped; the mjData involved is discarded afterwards.
thread_local std::jmp_buf* g_jump = nullptr;
thread_local char g_error[1024];
thread_local int g_warnings = 0;

void onMujocoError(const char* msg) {
  std::snprintf(g_error, sizeof g_error, "%s", msg);
  if (g_jump) std::longjmp(*g_jump, 1);
  // Unreachable in practice: every MuJoCo call below is guarded.
}

// Warnings (bad qacc, ...) are counted through mjData::warning; printing them per robot would
// swamp the bench output, so the global handler only counts.
void onMujocoWarning(const char*) { ++g_warnings; }

// Runs fn (which must only hold trivially destructible locals) with MuJoCo errors turned into
// a C++ exception thrown *after* the longjmp landed here.
template <class Fn>
void guarded(Fn&& fn) {
  std::jmp_buf env;
  std::jmp_buf* outer = g_jump;
  if (setjmp(env) == 0) {
    g_jump = &env;
    fn();
    g_jump = outer;
    return;
  }
  g_jump = outer;
  throw std::runtime_error(std::string("MuJoCo error: ") + g_error);
}

// ---- RAII owners ----------------------------------------------------------------------------
struct ModelDeleter {
  void operator()(mjModel* m) const { mj_deleteModel(m); }
};
struct DataDeleter {
  void operator()(mjData* d) const { mj_deleteData(d); }
};
using ModelPtr = std::unique_ptr<mjModel, ModelDeleter>;
using DataPtr = std::unique_ptr<mjData, DataDeleter>;

// Same path as Python's MjModel.from_xml_string (VFS buffer + mj_loadXML), so the Python
// reference and this addon compile identical models.
ModelPtr compileXml(const std::string& xml) {
  mjVFS vfs;
  mj_defaultVFS(&vfs);
  char err[1024] = "";
  mjModel* m = nullptr;
  guarded([&] {
    mj_addBufferVFS(&vfs, "achilles_model.xml", xml.data(), static_cast<int>(xml.size()));
    m = mj_loadXML("achilles_model.xml", &vfs, err, sizeof err);
  });
  mj_deleteVFS(&vfs);
  if (!m) throw std::runtime_error(std::string("MuJoCo could not compile the MJCF: ") + err);
  return ModelPtr(m);
}

DataPtr makeData(const mjModel* m) {
  mjData* d = nullptr;
  guarded([&] { d = mj_makeData(m); });
  if (!d) throw std::runtime_error("MuJoCo: mj_makeData failed");
  return DataPtr(d);
}

// ---- argument helpers -----------------------------------------------------------------------
std::vector<double> numbers(const Napi::Object& o, const char* key) {
  std::vector<double> out;
  if (!o.Has(key) || o.Get(key).IsUndefined() || o.Get(key).IsNull()) return out;
  Napi::Value v = o.Get(key);
  if (v.IsTypedArray() && v.As<Napi::TypedArray>().TypedArrayType() == napi_float64_array) {
    auto ta = v.As<Napi::Float64Array>();
    out.assign(ta.Data(), ta.Data() + ta.ElementLength());
    return out;
  }
  // Plain arrays and other typed arrays: element by element (Get converts any numeric type).
  uint32_t n = 0;
  if (v.IsArray())
    n = v.As<Napi::Array>().Length();
  else if (v.IsTypedArray())
    n = static_cast<uint32_t>(v.As<Napi::TypedArray>().ElementLength());
  else
    throw std::runtime_error(std::string(key) + " must be an array of numbers");
  auto arr = v.As<Napi::Object>();
  out.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    Napi::Value x = arr.Get(i);
    if (!x.IsNumber()) throw std::runtime_error(std::string(key) + " must hold numbers only");
    out[i] = x.As<Napi::Number>().DoubleValue();
  }
  return out;
}

int64_t integer(const Napi::Object& o, const char* key, int64_t dflt, int64_t min) {
  if (!o.Has(key) || o.Get(key).IsUndefined()) {
    if (dflt < min) throw std::runtime_error(std::string(key) + " is required");
    return dflt;
  }
  Napi::Value x = o.Get(key);
  double v = x.IsNumber() ? x.As<Napi::Number>().DoubleValue() : -1.0 / 0.0;
  if (!(v >= static_cast<double>(min)) || v != std::floor(v))
    throw std::runtime_error(std::string(key) + " must be an integer >= " + std::to_string(min));
  return static_cast<int64_t>(v);
}

// Expands a per-robot vector to the merged model (robots laid out one after another, as
// exportMjcf({copies}) does), or accepts a vector already of the full length.
std::vector<double> expand(const std::vector<double>& v, int n, int robots, const double* dflt, const char* name) {
  std::vector<double> out(n, 0.0);
  if (v.empty()) {
    if (dflt) std::copy(dflt, dflt + n, out.begin());
    return out;
  }
  if (static_cast<int>(v.size()) == n) return v;
  if (robots > 1 && static_cast<int>(v.size()) * robots == n) {
    for (int r = 0; r < robots; ++r) std::copy(v.begin(), v.end(), out.begin() + r * v.size());
    return out;
  }
  throw std::runtime_error(std::string(name) + " has length " + std::to_string(v.size()) + ", model needs " + std::to_string(n));
}

// Each mjData's start: `v` holds either one start for every data (per robot, tiled in merged mode,
// or the whole model's) or one per data, ndata × n (robot r of the bench starts where robot r of
// Achilles does: per-robot mode, data k is robot k; merged, data k holds robots k·rpm …).
std::vector<double> starts(const std::vector<double>& v, int n, int robots, int ndata, const double* dflt, const char* name) {
  if (ndata > 1 && static_cast<int64_t>(v.size()) == static_cast<int64_t>(n) * ndata) return v;
  std::vector<double> one = expand(v, n, robots, dflt, name);
  std::vector<double> out(static_cast<size_t>(n) * ndata);
  for (int k = 0; k < ndata; ++k) std::copy(one.begin(), one.end(), out.begin() + static_cast<size_t>(k) * n);
  return out;
}

// Per-step controls given by the caller (bench --ctrl random): a Float32Array of rows × ndata × nu
// (row i: every data's controls, data after data; merged: its robots' controls one after another,
// as the exported actuators are), row i applied for ctrlEvery MuJoCo steps from step i·ctrlEvery
// of each restart segment; a table shorter than a segment repeats (row (s / ctrlEvery) mod rows). Float32: the bench draws values that are exact in f32, so the Achilles
// f32 batch and MuJoCo apply the very same numbers.
struct Controls {
  const float* table = nullptr;
  int64_t rows = 0, every = 1;
};

Controls controls(const Napi::Object& o, const mjModel* m, int ndata) {
  Controls c;
  if (!o.Has("ctrl") || o.Get("ctrl").IsUndefined() || o.Get("ctrl").IsNull()) return c;
  Napi::Value v = o.Get("ctrl");
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_float32_array)
    throw std::runtime_error("ctrl must be a Float32Array (rows × copies × nu)");
  auto ta = v.As<Napi::Float32Array>();
  c.every = integer(o, "ctrlEvery", 1, 1);
  const int64_t perRow = static_cast<int64_t>(ndata) * m->nu;
  if (perRow == 0 || static_cast<int64_t>(ta.ElementLength()) % perRow != 0)
    throw std::runtime_error("ctrl has length " + std::to_string(ta.ElementLength()) + ", not a multiple of copies × nu = " + std::to_string(perRow));
  c.rows = static_cast<int64_t>(ta.ElementLength()) / perRow;
  c.table = ta.Data();
  return c;
}

// Data k's controls for step s of its segment (inside the timing, like Achilles' own feeding).
inline void feed(const mjModel* m, mjData* d, const Controls& c, int ndata, int k, int64_t s) {
  if (!c.table) return;
  const float* row = c.table + (((s / c.every) % c.rows) * ndata + k) * static_cast<int64_t>(m->nu);
  for (int a = 0; a < m->nu; ++a) d->ctrl[a] = row[a];
}

// ---- timing loop ----------------------------------------------------------------------------
using Clock = std::chrono::steady_clock;

// A bad control (NaN, Inf or huge: MuJoCo zeroes every control of that data and warns) counts too:
// that robot-step did not run the controls it was given.
int badCount(const mjData* d) {
  return d->warning[mjWARN_BADQPOS].number + d->warning[mjWARN_BADQVEL].number + d->warning[mjWARN_BADQACC].number +
         d->warning[mjWARN_BADCTRL].number;
}

bool finiteState(const mjModel* m, const mjData* d) {
  // Sum-then-test: one branch per step instead of one per coordinate; NaN/Inf propagate.
  double s = 0;
  for (int i = 0; i < m->nq; ++i) s += d->qpos[i] * 0.0;
  for (int i = 0; i < m->nv; ++i) s += d->qvel[i] * 0.0;
  return s == 0.0;
}

struct Run {
  const mjModel* m;
  mjData** data;
  int ndata;
  int robotsPerData;
  int64_t steps, restartEvery;
  // ndata starts, data after data (nq resp. nv each)
  const double* qpos0;
  const double* qvel0;
  bool interleaved;
  Controls ctrl;
  // results
  double seconds = 0, restartSeconds = 0;
  int64_t robotSteps = 0, nonFinite = 0;
};

void restart(const mjModel* m, mjData* d, const double* qpos0, const double* qvel0) {
  mj_resetData(m, d);
  std::memcpy(d->qpos, qpos0, sizeof(double) * m->nq);
  std::memcpy(d->qvel, qvel0, sizeof(double) * m->nv);
}

// One step plus the non-finite check (both inside the timed region: the check is a handful of
// multiply-adds, negligible next to mj_step). MuJoCo itself resets a data whose qpos/qvel/qacc
// went bad and raises a warning; either signal counts the step as non-finite, and we restart
// the trajectory from the initial state so later steps are meaningful again.
inline void restartData(const Run& r, int k) {
  restart(r.m, r.data[k], r.qpos0 + static_cast<int64_t>(k) * r.m->nq, r.qvel0 + static_cast<int64_t>(k) * r.m->nv);
}

inline void stepOne(Run& r, int k, int64_t s) {
  mjData* d = r.data[k];
  feed(r.m, d, r.ctrl, r.ndata, k, s);
  int before = badCount(d);
  mj_step(r.m, d);
  if (badCount(d) != before || !finiteState(r.m, d)) {
    r.nonFinite += r.robotsPerData;
    restartData(r, k);
  } else {
    r.robotSteps += r.robotsPerData;
  }
}

// Plain function with trivially destructible locals only (it runs under guarded/longjmp).
void runLoop(Run& r) {
  for (int64_t done = 0; done < r.steps; done += r.restartEvery) {
    const int64_t n = std::min(r.restartEvery, r.steps - done);
    if (r.interleaved) {
      // for each step, for each data: every data is touched once per step.
      auto t0 = Clock::now();
      for (int k = 0; k < r.ndata; ++k) restartData(r, k);
      auto t1 = Clock::now();
      for (int64_t s = 0; s < n; ++s)
        for (int k = 0; k < r.ndata; ++k) stepOne(r, k, s);
      auto t2 = Clock::now();
      r.restartSeconds += std::chrono::duration<double>(t1 - t0).count();
      r.seconds += std::chrono::duration<double>(t2 - t1).count();
    } else {
      // blocked: one data for the whole segment, then the next (its mjData stays in cache).
      for (int k = 0; k < r.ndata; ++k) {
        auto t0 = Clock::now();
        restartData(r, k);
        auto t1 = Clock::now();
        for (int64_t s = 0; s < n; ++s) stepOne(r, k, s);
        auto t2 = Clock::now();
        r.restartSeconds += std::chrono::duration<double>(t1 - t0).count();
        r.seconds += std::chrono::duration<double>(t2 - t1).count();
      }
    }
  }
}

Napi::Value TimeSteps(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  try {
    if (!info[0].IsObject()) throw std::runtime_error("timeSteps expects an options object");
    auto o = info[0].As<Napi::Object>();
    if (!o.Get("xml").IsString()) throw std::runtime_error("xml must be a string");
    const std::string xml = o.Get("xml").As<Napi::String>().Utf8Value();
    const std::string mode = o.Get("mode").IsString() ? o.Get("mode").As<Napi::String>().Utf8Value() : "";
    if (mode != "per-robot" && mode != "merged") throw std::runtime_error("mode must be 'per-robot' or 'merged'");
    const int64_t copies = integer(o, "copies", -1, 1);
    const int64_t steps = integer(o, "steps", -1, 1);
    const int64_t restartEvery = integer(o, "restartEvery", steps, 1);
    // merged: the xml holds robotsPerModel robots (default: all copies in one mjData).
    const int64_t robotsPerModel = mode == "merged" ? integer(o, "robotsPerModel", copies, 1) : 1;
    if (copies % robotsPerModel != 0) throw std::runtime_error("copies must be a multiple of robotsPerModel");
    std::string order = "blocked"; // measured faster than interleaved on the 7-link arm
    if (o.Get("order").IsString()) order = o.Get("order").As<Napi::String>().Utf8Value();
    if (order != "blocked" && order != "interleaved") throw std::runtime_error("order must be 'blocked' or 'interleaved'");

    ModelPtr model = compileXml(xml); // compile is outside the timing
    const mjModel* m = model.get();
    const int rpm = static_cast<int>(robotsPerModel);
    const int ndata = static_cast<int>(copies / robotsPerModel);
    auto qpos0 = starts(numbers(o, "qpos0"), m->nq, rpm, ndata, m->qpos0, "qpos0");
    auto qvel0 = starts(numbers(o, "qvel0"), m->nv, rpm, ndata, nullptr, "qvel0");
    const Controls ctrl = controls(o, m, ndata);

    std::vector<DataPtr> owned;
    std::vector<mjData*> data;
    for (int k = 0; k < ndata; ++k) {
      owned.push_back(makeData(m));
      data.push_back(owned.back().get());
    }

    Run r{m, data.data(), ndata, rpm, steps, restartEvery, qpos0.data(), qvel0.data(), order == "interleaved", ctrl};
    guarded([&] { runLoop(r); });

    auto out = Napi::Object::New(env);
    out.Set("seconds", r.seconds);
    out.Set("robotSteps", static_cast<double>(r.robotSteps));
    out.Set("nonFinite", static_cast<double>(r.nonFinite));
    out.Set("restartSeconds", r.restartSeconds);
    out.Set("order", order);
    return out;
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
}

// ---- collision timing -----------------------------------------------------------------------
// mj_collision alone over the states of a trajectory: each robot (its own mjData) is stepped with
// contacts disabled (mjDSBL_CONTACT, untimed, so the motion matches Achilles' detection-only
// scenes), then mj_kinematics places the geoms at the new state (untimed) and mj_collision runs
// with contacts enabled, timed call by call. The clock reads (~tens of ns) are inside the timing,
// as they are in the Achilles detection cell.
struct CollisionRun {
  mjModel* m;
  mjData** data;
  int ndata;
  int64_t steps, restartEvery;
  const double* qpos0; // ndata starts, as Run's
  const double* qvel0;
  Controls ctrl;
  double seconds = 0;
  int64_t robotSteps = 0, nonFinite = 0, contacts = 0;
};

void collisionLoop(CollisionRun& r) {
  const int withContacts = r.m->opt.disableflags & ~mjDSBL_CONTACT;
  const int noContacts = r.m->opt.disableflags | mjDSBL_CONTACT;
  for (int64_t done = 0; done < r.steps; done += r.restartEvery) {
    const int64_t n = std::min(r.restartEvery, r.steps - done);
    for (int k = 0; k < r.ndata; ++k) {
      mjData* d = r.data[k];
      const double* qpos0 = r.qpos0 + static_cast<int64_t>(k) * r.m->nq;
      const double* qvel0 = r.qvel0 + static_cast<int64_t>(k) * r.m->nv;
      restart(r.m, d, qpos0, qvel0);
      for (int64_t s = 0; s < n; ++s) {
        r.m->opt.disableflags = noContacts;
        feed(r.m, d, r.ctrl, r.ndata, k, s);
        int before = badCount(d);
        mj_step(r.m, d);
        if (badCount(d) != before || !finiteState(r.m, d)) {
          r.nonFinite += 1;
          restart(r.m, d, qpos0, qvel0);
          continue;
        }
        mj_kinematics(r.m, d);
        r.m->opt.disableflags = withContacts;
        auto t0 = Clock::now();
        mj_collision(r.m, d);
        auto t1 = Clock::now();
        r.seconds += std::chrono::duration<double>(t1 - t0).count();
        r.contacts += d->ncon;
        r.robotSteps += 1;
      }
    }
  }
}

Napi::Value TimeCollision(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  try {
    if (!info[0].IsObject()) throw std::runtime_error("timeCollision expects an options object");
    auto o = info[0].As<Napi::Object>();
    if (!o.Get("xml").IsString()) throw std::runtime_error("xml must be a string");
    const int64_t copies = integer(o, "copies", -1, 1);
    const int64_t steps = integer(o, "steps", -1, 1);
    const int64_t restartEvery = integer(o, "restartEvery", steps, 1);
    ModelPtr model = compileXml(o.Get("xml").As<Napi::String>().Utf8Value());
    mjModel* m = model.get();
    const int ndata = static_cast<int>(copies);
    auto qpos0 = starts(numbers(o, "qpos0"), m->nq, 1, ndata, m->qpos0, "qpos0");
    auto qvel0 = starts(numbers(o, "qvel0"), m->nv, 1, ndata, nullptr, "qvel0");
    const Controls ctrl = controls(o, m, ndata);
    std::vector<DataPtr> owned;
    std::vector<mjData*> data;
    for (int64_t k = 0; k < copies; ++k) {
      owned.push_back(makeData(m));
      data.push_back(owned.back().get());
    }
    const int flags = m->opt.disableflags;
    CollisionRun r{m, data.data(), ndata, steps, restartEvery, qpos0.data(), qvel0.data(), ctrl};
    guarded([&] { collisionLoop(r); });
    m->opt.disableflags = flags;
    auto out = Napi::Object::New(env);
    out.Set("seconds", r.seconds);
    out.Set("robotSteps", static_cast<double>(r.robotSteps));
    out.Set("nonFinite", static_cast<double>(r.nonFinite));
    out.Set("contacts", static_cast<double>(r.contacts));
    return out;
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
}

Napi::Value StepTrace(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  try {
    if (!info[0].IsObject()) throw std::runtime_error("stepTrace expects an options object");
    auto o = info[0].As<Napi::Object>();
    if (!o.Get("xml").IsString()) throw std::runtime_error("xml must be a string");
    ModelPtr model = compileXml(o.Get("xml").As<Napi::String>().Utf8Value());
    mjModel* m = model.get();
    if (o.Get("integrator").IsString()) {
      const std::string integ = o.Get("integrator").As<Napi::String>().Utf8Value();
      if (integ == "euler")
        m->opt.integrator = mjINT_EULER;
      else if (integ == "rk4")
        m->opt.integrator = mjINT_RK4;
      else
        throw std::runtime_error("integrator must be 'euler' or 'rk4' (MuJoCo's own)");
    }
    if (o.Get("timestep").IsNumber()) m->opt.timestep = o.Get("timestep").As<Napi::Number>().DoubleValue();
    const int64_t steps = integer(o, "steps", -1, 0);
    auto qpos0 = expand(numbers(o, "qpos0"), m->nq, 1, m->qpos0, "qpos0");
    auto qvel0 = expand(numbers(o, "qvel0"), m->nv, 1, nullptr, "qvel0");
    auto ctrl = expand(numbers(o, "ctrl"), m->nu, 1, nullptr, "ctrl");
    auto tau = expand(numbers(o, "tau"), m->nv, 1, nullptr, "tau");
    DataPtr data = makeData(m);
    mjData* d = data.get();

    auto qpos = Napi::Float64Array::New(env, steps * m->nq);
    auto qvel = Napi::Float64Array::New(env, steps * m->nv);
    double* qp = qpos.Data();
    double* qv = qvel.Data();
    restart(m, d, qpos0.data(), qvel0.data());
    std::copy(ctrl.begin(), ctrl.end(), d->ctrl);
    std::copy(tau.begin(), tau.end(), d->qfrc_applied);
    guarded([&] {
      for (int64_t s = 0; s < steps; ++s) {
        mj_step(m, d);
        std::memcpy(qp + s * m->nq, d->qpos, sizeof(double) * m->nq);
        std::memcpy(qv + s * m->nv, d->qvel, sizeof(double) * m->nv);
      }
    });
    auto out = Napi::Object::New(env);
    out.Set("qpos", qpos);
    out.Set("qvel", qvel);
    out.Set("nq", m->nq);
    out.Set("nv", m->nv);
    return out;
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, e.what());
  }
}

Napi::Value Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Dl_info dl{};
  std::string lib = "unknown";
  if (dladdr(reinterpret_cast<void*>(&mj_step), &dl) && dl.dli_fname) lib = dl.dli_fname;
  auto out = Napi::Object::New(env);
  out.Set("version", mj_versionString());
  out.Set("lib", lib);
  return out;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  mju_user_error = onMujocoError;
  mju_user_warning = onMujocoWarning;
  exports.Set("timeSteps", Napi::Function::New(env, TimeSteps));
  exports.Set("timeCollision", Napi::Function::New(env, TimeCollision));
  exports.Set("stepTrace", Napi::Function::New(env, StepTrace));
  exports.Set("info", Napi::Function::New(env, Info));
  return exports;
}

} // namespace

NODE_API_MODULE(achilles_mujoco, Init)
