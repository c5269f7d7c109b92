// Exact floating-point operation counts of one robot-step (see counted.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine.hpp"

namespace ach {

struct FlopTally {
  std::uint64_t add, mul, div, sqrt, cmp;
  std::uint64_t total() const { return add + mul + div + sqrt + cmp; }
};

struct FlopReport : FlopTally {
  /// The same operations by pass (passes.hpp's FlopPass order, named by kFlopPassNames).
  std::vector<std::pair<std::string, FlopTally>> by_pass;
};

/// Operations of one step of one robot with opt's integrator, substeps and iterations.
FlopReport count_flops(const Model& model, BatchOptions opt);

} // namespace ach
