// Storage layout, CPU dispatch and the kernel factory.
#include "achilles/engine.hpp"

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
  case 1: return Isa::Scalar;
  case 4: return f32 ? Isa::Sse2 : Isa::Avx2;
  case 8: return f32 ? Isa::Avx2 : Isa::Avx512;
  case 16: return Isa::Avx512;
  default: throw std::invalid_argument("lanes must be 1, 4, 8 or 16 (got " + std::to_string(lanes) + ")");
  }
}

bool cpu_supports(Isa isa) {
  __builtin_cpu_init();
  switch (isa) {
  case Isa::Scalar: return true;
  case Isa::Sse2: return __builtin_cpu_supports("sse2");
  case Isa::Avx2: return __builtin_cpu_supports("avx2");
  case Isa::Avx512: return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  }
  return false;
}

const char* isa_name(Isa isa) {
  switch (isa) {
  case Isa::Scalar: return "scalar";
  case Isa::Sse2: return "SSE2";
  case Isa::Avx2: return "AVX2";
  case Isa::Avx512: return "AVX-512";
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
  const std::size_t np = model.pairs.size();
  const std::size_t counts[] = {std::size_t(model.nq), std::size_t(model.nv), std::size_t(model.nv), std::size_t(model.nv), 1, 1,
                                nb * 3, nb * 9, std::size_t(model.nv), np * 4, np * 4, np * 12, np * 3, 1, 1, 1,
                                model.constrained() ? std::size_t(model.nv) : 0, np * 12};
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
  return s;
}

std::unique_ptr<Kernel> make_kernel(const Model& model, const BatchOptions& opt, const Storage& storage) {
  const Isa isa = isa_for(opt.precision, opt.lanes);
  if (!cpu_supports(isa)) {
    std::string have;
    for (Isa i : {Isa::Sse2, Isa::Avx2, Isa::Avx512})
      if (cpu_supports(i)) have += std::string(have.empty() ? "" : ", ") + isa_name(i);
    // The widths that do run depend on the precision (f64 x 8 needs AVX-512, f32 x 8 only AVX2).
    std::string runs = "1";
    for (int w : {4, 8, 16})
      if (cpu_supports(isa_for(opt.precision, w))) runs += ", " + std::to_string(w);
    const std::string prec = opt.precision == Precision::F32 ? "f32" : "f64";
    throw std::invalid_argument("lanes " + std::to_string(opt.lanes) + " in " + prec + " needs " + isa_name(isa) +
                                ", which this CPU lacks (it has " + (have.empty() ? std::string("none") : have) +
                                "); it runs " + prec + " at lanes " + runs);
  }
  if (opt.threads < 1 || opt.threads > 256) throw std::invalid_argument("threads must be between 1 and 256");
  if (opt.substeps < 1) throw std::invalid_argument("substeps must be >= 1");
  if (opt.midpoint_iterations < 1) throw std::invalid_argument("midpoint iterations must be >= 1");
  if (!(opt.dt > 0) || !(opt.dt < 1e3)) throw std::invalid_argument("dt must be a positive number of seconds");
  switch (isa) {
  case Isa::Scalar: return make_kernel_scalar(model, opt, storage);
  case Isa::Sse2: return make_kernel_sse2(model, opt, storage);
  case Isa::Avx2: return make_kernel_avx2(model, opt, storage);
  case Isa::Avx512: return make_kernel_avx512(model, opt, storage);
  }
  throw std::invalid_argument("unknown instruction set");
}

} // namespace ach
