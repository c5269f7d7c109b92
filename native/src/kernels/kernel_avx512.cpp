// The avx512 kernels (f32 and f64), compiled with this instruction set's flags only.
#include "achilles/kernel_impl.hpp"

namespace ach {

std::unique_ptr<Kernel> make_kernel_avx512(const Model& model, const BatchOptions& opt, const Storage& storage) {
  if (opt.precision == Precision::F32) return make_kernel_for<Wide<xsimd::batch<float, xsimd::avx512f>, 1>>(model, opt, storage);
  return make_kernel_for<Wide<xsimd::batch<double, xsimd::avx512f>, 2>>(model, opt, storage);
}

} // namespace ach
