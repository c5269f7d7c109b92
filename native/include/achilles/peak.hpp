// The machine's measured floating-point peak, per core, for one pack type: what "fraction of
// peak" in `achilles bench --flops` divides by, measured in the same run instead of assumed.
//
// 6 independent add chains and 6 independent multiply chains of the pack V, interleaved: enough
// chains in flight to cover the adders' and multipliers' latency on every current x86 core, so
// the loop runs at the issue rate of the vector add and multiply pipes. Adds and multiplies stay
// separate (no FMA), as the engine's kernels do, so each lane of each operation is one flop.
#pragma once

#include "isa_namespace.hpp"

#include <chrono>

#include "simd.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// Flops per second of the add+mul loop on V: the best of `reps` timed runs of `iters` iterations.
template <class V>
inline double measure_peak_flops(long iters, int reps) {
  using T = ScalarOf<V>;
  constexpr int C = 6; // chains per operation: 12 + 2 constants fit the 16 registers of AVX2
  V a[C], m[C];
  for (int k = 0; k < C; ++k) {
    a[k] = V(T(k + 1));
    m[k] = V(T(1) + T(k) * T(1e-3));
  }
  const V inc(T(1e-7)), shrink(T(0.9999999));
  double best = 0;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < iters; ++i) {
      for (int k = 0; k < C; ++k) {
        a[k] = a[k] + inc;
        m[k] = m[k] * shrink;
      }
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double flops = double(iters) * 2 * C * lanes_of<V>;
    if (s > 0 && flops / s > best) best = flops / s;
  }
  // Use the chains so they are computed.
  V sum = a[0] + m[0];
  for (int k = 1; k < C; ++k) sum = sum + (a[k] + m[k]);
  alignas(64) T out[lanes_of<V>];
  vstore(out, sum);
  volatile T sink = out[0];
  (void)sink;
  return best;
}

} // namespace ACH_ISA_NS
} // namespace ach
