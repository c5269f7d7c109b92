// The AVX2 kernels: f32 × 8 and f64 × 4 lanes, one ymm register per pack.
#include <stdexcept>

#include "achilles/kernel_impl.hpp"

namespace ach {

std::unique_ptr<Kernel> make_kernel_avx2(const Model& model, const BatchOptions& opt, const Storage& storage) {
  if (opt.precision == Precision::F32 && opt.lanes == 8) return make_kernel_for<Wide<xsimd::batch<float, xsimd::avx2>, 1>>(model, opt, storage);
  if (opt.precision == Precision::F64 && opt.lanes == 4) return make_kernel_for<Wide<xsimd::batch<double, xsimd::avx2>, 1>>(model, opt, storage);
  throw std::invalid_argument("no AVX2 kernel for this precision and lane width");
}

} // namespace ach
