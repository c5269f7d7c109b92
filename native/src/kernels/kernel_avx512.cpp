// The AVX-512 kernels: f32 × 16 and f64 × 8 lanes in one zmm register, f64 × 16 in two.
#include <stdexcept>

#include "achilles/kernel_impl.hpp"
#include "achilles/peak.hpp"

namespace ach {
namespace {

/// Call f.operator()<V>() with the pack type V of this instruction set for (precision, lanes).
template <class F>
auto with_pack(Precision precision, int lanes, F&& f) {
  if (precision == Precision::F32 && lanes == 16) return f.template operator()<Wide<xsimd::batch<float, xsimd::avx512f>, 1>>();
  if (precision == Precision::F64 && lanes == 8) return f.template operator()<Wide<xsimd::batch<double, xsimd::avx512f>, 1>>();
  if (precision == Precision::F64 && lanes == 16) return f.template operator()<Wide<xsimd::batch<double, xsimd::avx512f>, 2>>();
  throw std::invalid_argument("no avx512 kernel for this precision and lane width");
}

} // namespace

std::unique_ptr<Kernel> make_kernel_avx512(const Model& model, const BatchOptions& opt, const Storage& storage) {
  return with_pack(opt.precision, opt.lanes, [&]<class V>() { return make_kernel_for<V>(model, opt, storage); });
}

double peak_flops_avx512(Precision precision, int lanes, long iters, int reps) {
  return with_pack(precision, lanes, [&]<class V>() { return measure_peak_flops<V>(iters, reps); });
}

} // namespace ach
