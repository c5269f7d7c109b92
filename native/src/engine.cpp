// Storage layout, CPU dispatch and the kernel factory.
#include "achilles/engine.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace ach {

Buffer::Buffer(std::size_t bytes) : data_(nullptr), bytes_(bytes) {
  const std::size_t rounded = (bytes + 63) / 64 * 64;
  data_ = std::aligned_alloc(64, rounded ? rounded : 64);
  if (!data_) throw std::bad_alloc();
  std::memset(data_, 0, rounded ? rounded : 64);
}
Buffer::~Buffer() { std::free(data_); }

Isa isa_for(Precision precision, int lanes) {
  const bool f32 = precision == Precision::F32;
  switch (lanes) {
    case 1:
      return Isa::Scalar;
    case 4:
      return f32 ? Isa::Sse2 : Isa::Avx2;
    case 8:
      return f32 ? Isa::Avx2 : Isa::Avx512;
    case 16:
      return Isa::Avx512;
    default:
      throw std::invalid_argument("lanes must be 1, 4, 8 or 16 (got " + std::to_string(lanes) + ")");
  }
}

bool cpu_supports(Isa isa) {
  __builtin_cpu_init();
  switch (isa) {
    case Isa::Scalar:
      return true;
    case Isa::Sse2:
      return __builtin_cpu_supports("sse2");
    case Isa::Avx2:
      return __builtin_cpu_supports("avx2");
    case Isa::Avx512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") &&
             __builtin_cpu_supports("avx512vl");
  }
  return false;
}

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::Scalar:
      return "scalar";
    case Isa::Sse2:
      return "SSE2";
    case Isa::Avx2:
      return "AVX2";
    case Isa::Avx512:
      return "AVX-512";
  }
  return "?";
}

int widest_lanes() {
  if (cpu_supports(Isa::Avx512)) return 16;
  if (cpu_supports(Isa::Avx2)) return 8;
  if (cpu_supports(Isa::Sse2)) return 4;
  return 1;
}

Storage storage_layout(const Model& model, const BatchOptions& opt, std::size_t* total_bytes) {
  if (opt.copies < 1) throw std::invalid_argument("copies must be >= 1");
  Storage s;
  const int lanes = opt.lanes;
  // Pad to the lane width, and to 16 elements so every field starts 64-byte aligned.
  const int pad = lanes > 16 ? lanes : 16;
  s.stride = (opt.copies + pad - 1) / pad * pad;
  s.elem = opt.precision == Precision::F32 ? 4 : 8;
  const std::size_t nb = model.joints.size();
  std::size_t na = 0;
  for (const Actuator& a : model.actuators) na += a.stateful() ? 1 : 0;
  const std::size_t counts[] = {std::size_t(model.nq),
                                std::size_t(model.nv),
                                std::size_t(model.nv),
                                std::size_t(model.nv),
                                1,
                                1,
                                nb * 3,
                                nb * 9,
                                std::size_t(model.nv),
                                1,
                                1,
                                1,
                                model.constrained() ? std::size_t(model.nv) : 0,
                                2 * model.actuators.size(),
                                model.actuators.size(),
                                model.actuators.size(),
                                nb * 6,
                                nb * 6 /* sensors: BodyVel, BodyAcc */,
                                na,
                                model.actuators.size(),
                                na /* Act, ActuatorForceNow, ActDotNow */,
                                opt.record ? std::size_t(model.nv) : 0,
                                opt.record ? nb * 6 : 0, /* QfrcConstraint, CfrcExt */
                                opt.record ? nb * 3 : 0,
                                opt.record ? nb * 9 : 0, /* RecordBodyPos, RecordBodyRot */
                                opt.record ? std::size_t(model.nv) : 0,
                                opt.record ? nb * 6 : 0 /* QfrcActuator, RecordBodyVel */,
                                opt.record ? nb * 3 : 0,
                                opt.record ? nb * 10 : 0,
                                opt.record ? nb * 6 : 0 /* RecordXipos, RecordCinert, RecordCvel */,
                                std::size_t(model.nsensordata) /* MjcfSensorData */};
  static_assert(sizeof(counts) / sizeof(counts[0]) == static_cast<int>(FieldId::Count), "one count per field");
  std::size_t total = 0;
  for (int f = 0; f < static_cast<int>(FieldId::Count); ++f) {
    s.off[f] = total;
    s.count[f] = counts[f] * s.stride;
    total += (s.count[f] * s.elem + 63) / 64 * 64;
  }
  *total_bytes = total;
  return s;
}

std::size_t storage_bytes(const Model& model, const BatchOptions& opt) {
  std::size_t total = 0;
  storage_layout(model, opt, &total);
  return total;
}

Storage make_storage(const Model& model, const BatchOptions& opt) {
  std::size_t total = 0;
  Storage s = storage_layout(model, opt, &total);
  s.buffer = std::make_shared<Buffer>(total);
  s.contacts = std::make_shared<ContactStore>();
  s.contacts->resize((opt.copies + opt.lanes - 1) / opt.lanes, opt.lanes);
  return s;
}

/// The instruction set (precision, lanes) needs, or an error that says which widths do run here.
static Isa supported_isa(Precision precision, int lanes) {
  const Isa isa = isa_for(precision, lanes);
  if (!cpu_supports(isa)) {
    std::string have;
    for (Isa i : {Isa::Sse2, Isa::Avx2, Isa::Avx512})
      if (cpu_supports(i)) have += std::string(have.empty() ? "" : ", ") + isa_name(i);
    // The widths that do run depend on the precision (f64 x 8 needs AVX-512, f32 x 8 only AVX2).
    std::string runs = "1";
    for (int w : {4, 8, 16})
      if (cpu_supports(isa_for(precision, w))) runs += ", " + std::to_string(w);
    const std::string prec = precision == Precision::F32 ? "f32" : "f64";
    throw std::invalid_argument("lanes " + std::to_string(lanes) + " in " + prec + " needs " + isa_name(isa) + ", which this CPU lacks (it has " +
                                (have.empty() ? std::string("none") : have) + "); it runs " + prec + " at lanes " + runs);
  }
  return isa;
}

std::unique_ptr<Kernel> make_kernel(const Model& model, const BatchOptions& opt, const Storage& storage) {
  const Isa isa = supported_isa(opt.precision, opt.lanes);
  if (opt.threads < 1 || opt.threads > 256) throw std::invalid_argument("threads must be between 1 and 256");
  if (opt.substeps < 1) throw std::invalid_argument("substeps must be >= 1");
  if (opt.midpoint_iterations < 1) throw std::invalid_argument("midpoint iterations must be >= 1");
  if (!(opt.dt > 0) || !(opt.dt < 1e3)) throw std::invalid_argument("dt must be a positive number of seconds");
  // MuJoCo's implicitfast adds the fluid forces' velocity derivatives to qDeriv (mjd_passive_vel), which implicit.hpp does not form
  if (model.fluid.on() && opt.integrator == Integrator::ImplicitFast)
    throw std::invalid_argument(
        "the model has fluid forces (density or viscosity), whose velocity derivatives MuJoCo's implicitfast adds to "
        "qDeriv and the engine does not: choose integrator euler or rk4");
  if (opt.record) {
    // cfrc_ext also sums connect and weld constraint forces (mj_rnePostConstraint), not recorded here
    if (!model.constrained())
      throw std::invalid_argument(
          "record: the model has no constraints (contacts, limits, equalities); its last evaluation has no constraint forces to keep");
    for (const Equality& e : model.equalities)
      if (e.type != EqualityType::Joint) throw std::invalid_argument("record: cfrc_ext with connect or weld equality constraints is not implemented");
  }
  switch (isa) {
    case Isa::Scalar:
      return make_kernel_scalar(model, opt, storage);
    case Isa::Sse2:
      return make_kernel_sse2(model, opt, storage);
    case Isa::Avx2:
      return make_kernel_avx2(model, opt, storage);
    case Isa::Avx512:
      return make_kernel_avx512(model, opt, storage);
  }
  throw std::invalid_argument("unknown instruction set");
}

/// Cycles per second from a chain of dependent register-register integer adds, which retire one per
/// cycle on every x86 core since the Pentium Pro: the clock the core actually runs at (turbo
/// included). The addend is a register, not an immediate: recent Intel cores fold chains of
/// add-immediate at rename and ran such a chain at 21–23 G adds/s on a 3.7 GHz Xeon.
static double measure_clock_hz(long iters) {
#if defined(__x86_64__)
  long x = 0, n = iters;
  const long one = 1;
  const auto t0 = std::chrono::steady_clock::now();
  asm volatile(
      "1:\n\t"
      ".rept 100\n\t"
      "add %2, %0\n\t"
      ".endr\n\t"
      "dec %1\n\t"
      "jnz 1b"
      : "+r"(x), "+r"(n)
      : "r"(one));
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return s > 0 ? 100.0 * double(iters) / s : 0;
#else
  (void)iters;
  return 0;
#endif
}

PeakMeasure measure_peak(Precision precision, int lanes, double seconds) {
  const Isa isa = supported_isa(precision, lanes);
  if (!(seconds > 0) || seconds > 60) throw std::invalid_argument("peak measurement seconds must be in (0, 60]");
  auto run = [&](long iters, int reps) {
    switch (isa) {
      case Isa::Scalar:
        return peak_flops_scalar(precision, lanes, iters, reps);
      case Isa::Sse2:
        return peak_flops_sse2(precision, lanes, iters, reps);
      case Isa::Avx2:
        return peak_flops_avx2(precision, lanes, iters, reps);
      case Isa::Avx512:
        return peak_flops_avx512(precision, lanes, iters, reps);
    }
    throw std::invalid_argument("unknown instruction set");
  };
  // Short repetitions (about 2 ms), as many as fit the budget, and the best of them: a core's
  // peak is its fastest clean run, and on a busy machine only short runs escape preemption.
  const long probe = 20000;
  const double rate = run(probe, 1);
  const double per_iter = 12.0 * lanes / (rate > 0 ? rate : 1e9); // seconds per loop iteration
  const long iters = std::max(probe, static_cast<long>(0.002 / per_iter));
  const int reps = std::max(10, static_cast<int>(seconds / 0.002));
  const double best = run(iters, reps);
  double clock = 0;
  for (int r = 0; r < 20; ++r) clock = std::max(clock, measure_clock_hz(20000)); // 2 M cycles each
  return PeakMeasure{best / 1e9, clock / 1e6};
}

} // namespace ach
