// The AVX2 kernels: f32 × 8 and f64 × 4 lanes, one ymm register per pack.
#include <stdexcept>

#include "achilles/kernel_impl.hpp"
#include "achilles/peak.hpp"

namespace ach {
namespace {

/// Call f.operator()<V>() with the pack type V of this instruction set for (precision, lanes).
template <class F>
auto with_pack(Precision precision, int lanes, F&& f) {
  if (precision == Precision::F32 && lanes == 8) return f.template operator()<Wide<xsimd::batch<float, xsimd::avx2>, 1>>();
  if (precision == Precision::F64 && lanes == 4) return f.template operator()<Wide<xsimd::batch<double, xsimd::avx2>, 1>>();
  throw std::invalid_argument("no avx2 kernel for this precision and lane width");
}

} // namespace

std::unique_ptr<Kernel> make_kernel_avx2(const Model& model, const BatchOptions& opt, const Storage& storage) {
  return with_pack(opt.precision, opt.lanes, [&]<class V>() { return make_kernel_for<V>(model, opt, storage); });
}

double peak_flops_avx2(Precision precision, int lanes, long iters, int reps) {
  return with_pack(precision, lanes, [&]<class V>() { return measure_peak_flops<V>(iters, reps); });
}

} // namespace ach
