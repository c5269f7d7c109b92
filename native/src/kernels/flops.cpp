// FLOPs of one robot-step, counted by running the kernels once on the counting scalar.
#include "achilles/counted.hpp"
#include "achilles/flops.hpp"
#include "achilles/kernel_impl.hpp"

namespace ach {

FlopReport count_flops(const Model& model, BatchOptions opt) {
  opt.precision = Precision::F64;
  opt.lanes = 1;
  opt.copies = 1;
  opt.threads = 1;
  const Storage storage = make_storage(model, opt);
  fill_initial_state(model, storage);
  KernelImpl<Counted> kernel(model, opt, storage);
  StepStats stats;
  g_flops = FlopCounts{};
  kernel.step_blocks(0, 0, 1, 1, 0, stats, false);
  const FlopCounts c = g_flops;
  return FlopReport{c.add, c.mul, c.div, c.sqrt, c.cmp};
}

} // namespace ach
