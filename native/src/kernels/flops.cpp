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
  for (FlopCounts& p : g_flops_by_pass) p = FlopCounts{};
  kernel.step_blocks(0, 0, 1, 1, 0, stats, false, false);
  const auto tally = [](const FlopCounts& c) { return FlopTally{c.add, c.mul, c.div, c.sqrt, c.cmp}; };
  FlopReport r{tally(g_flops), {}};
  for (int p = 0; p < static_cast<int>(FlopPass::Count); ++p) r.by_pass.emplace_back(kFlopPassNames[p], tally(g_flops_by_pass[p]));
  return r;
}

} // namespace ach
