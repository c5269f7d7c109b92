// The SSE2 kernel: f32 × 4 lanes (f64 packs of 4 need AVX2, see isa_for).
#include <stdexcept>

#include "achilles/kernel_impl.hpp"

namespace ach {

std::unique_ptr<Kernel> make_kernel_sse2(const Model& model, const BatchOptions& opt, const Storage& storage) {
  if (opt.precision == Precision::F32 && opt.lanes == 4) return make_kernel_for<Wide<xsimd::batch<float, xsimd::sse2>, 1>>(model, opt, storage);
  throw std::invalid_argument("no SSE2 kernel for this precision and lane width");
}

} // namespace ach
