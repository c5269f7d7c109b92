// The scalar kernels (f32 and f64), compiled with this instruction set's flags only.
#include "achilles/kernel_impl.hpp"

namespace ach {

std::unique_ptr<Kernel> make_kernel_scalar(const Model& model, const BatchOptions& opt, const Storage& storage) {
  if (opt.precision == Precision::F32) return make_kernel_for<float>(model, opt, storage);
  return make_kernel_for<double>(model, opt, storage);
}

} // namespace ach
