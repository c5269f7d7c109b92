// Exact floating-point operation counts of one robot-step (see counted.hpp).
#pragma once

#include <cstdint>

#include "engine.hpp"

namespace ach {

struct FlopReport {
  std::uint64_t add, mul, div, sqrt, cmp;
  std::uint64_t total() const { return add + mul + div + sqrt + cmp; }
};

/// Operations of one step of one robot with opt's integrator, substeps and iterations.
FlopReport count_flops(const Model& model, BatchOptions opt);

} // namespace ach
