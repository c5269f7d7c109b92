// The scalar kernels (f32 and f64), compiled with this instruction set's flags only.
#include <stdexcept>

#include "achilles/kernel_impl.hpp"
#include "achilles/peak.hpp"

namespace ach {
namespace {

/// Call f.operator()<V>() with the pack type V of this instruction set for (precision, lanes).
template <class F>
auto with_pack(Precision precision, int lanes, F&& f) {
  if (precision == Precision::F32 && lanes == 1) return f.template operator()<float>();
  if (precision == Precision::F64 && lanes == 1) return f.template operator()<double>();
  throw std::invalid_argument("no scalar kernel for this precision and lane width");
}

} // namespace

std::unique_ptr<Kernel> make_kernel_scalar(const Model& model, const BatchOptions& opt, const Storage& storage) {
  return with_pack(opt.precision, opt.lanes, [&]<class V>() { return make_kernel_for<V>(model, opt, storage); });
}

double peak_flops_scalar(Precision precision, int lanes, long iters, int reps) {
  return with_pack(precision, lanes, [&]<class V>() { return measure_peak_flops<V>(iters, reps); });
}

} // namespace ach
