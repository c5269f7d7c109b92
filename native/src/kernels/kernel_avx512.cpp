// The AVX-512 kernels: f32 × 16 and f64 × 8 lanes in one zmm register, f64 × 16 in two.
#include <stdexcept>

#include "achilles/kernel_impl.hpp"

namespace ach {

std::unique_ptr<Kernel> make_kernel_avx512(const Model& model, const BatchOptions& opt, const Storage& storage) {
  if (opt.precision == Precision::F32 && opt.lanes == 16) return make_kernel_for<Wide<xsimd::batch<float, xsimd::avx512f>, 1>>(model, opt, storage);
  if (opt.precision == Precision::F64 && opt.lanes == 8) return make_kernel_for<Wide<xsimd::batch<double, xsimd::avx512f>, 1>>(model, opt, storage);
  if (opt.precision == Precision::F64 && opt.lanes == 16) return make_kernel_for<Wide<xsimd::batch<double, xsimd::avx512f>, 2>>(model, opt, storage);
  throw std::invalid_argument("no AVX-512 kernel for this precision and lane width");
}

} // namespace ach
