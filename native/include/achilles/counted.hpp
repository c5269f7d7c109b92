// A scalar that counts the floating-point operations done on it, so the FLOPs of one robot-step
// are counted exactly by running the very same templated kernels once (`achilles bench --flops`).
// Negation and selection are not counted (sign flips and blends, not arithmetic).
#pragma once

#include <cmath>
#include <cstdint>

#include "isa_namespace.hpp"
#include "simd.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

struct FlopCounts {
  std::uint64_t add = 0, mul = 0, div = 0, sqrt = 0, cmp = 0;
};
inline FlopCounts g_flops;

struct Counted {
  double v;
  Counted() = default;
  Counted(double x) : v(x) {}
  Counted& operator+=(Counted o) { ++g_flops.add; v += o.v; return *this; }
  Counted& operator-=(Counted o) { ++g_flops.add; v -= o.v; return *this; }
  Counted& operator*=(Counted o) { ++g_flops.mul; v *= o.v; return *this; }
};
inline Counted operator+(Counted a, Counted b) { ++g_flops.add; return a.v + b.v; }
inline Counted operator-(Counted a, Counted b) { ++g_flops.add; return a.v - b.v; }
inline Counted operator*(Counted a, Counted b) { ++g_flops.mul; return a.v * b.v; }
inline Counted operator/(Counted a, Counted b) { ++g_flops.div; return a.v / b.v; }
inline Counted operator+(Counted a, double b) { return a + Counted(b); }
inline Counted operator-(Counted a, double b) { return a - Counted(b); }
inline Counted operator*(Counted a, double b) { return a * Counted(b); }
inline Counted operator/(Counted a, double b) { return a / Counted(b); }
inline Counted operator+(double a, Counted b) { return Counted(a) + b; }
inline Counted operator-(double a, Counted b) { return Counted(a) - b; }
inline Counted operator*(double a, Counted b) { return Counted(a) * b; }
inline Counted operator/(double a, Counted b) { return Counted(a) / b; }
inline Counted operator-(Counted a) { return -a.v; }
#define ACH_COUNTED_CMP(OP) \
  inline bool operator OP(Counted a, Counted b) { ++g_flops.cmp; return a.v OP b.v; } \
  inline bool operator OP(Counted a, double b) { ++g_flops.cmp; return a.v OP b; }
ACH_COUNTED_CMP(<)
ACH_COUNTED_CMP(>)
ACH_COUNTED_CMP(<=)
ACH_COUNTED_CMP(>=)
ACH_COUNTED_CMP(==)
ACH_COUNTED_CMP(!=)
#undef ACH_COUNTED_CMP

template <> struct PackTraits<Counted> {
  using Scalar = double;
  using Mask = bool;
  static constexpr int lanes = 1;
};
inline Counted vload(const double* p, Counted*) { return *p; }
inline void vstore(double* p, Counted x) { *p = x.v; }
inline Counted vsqrt(Counted x) { ++g_flops.sqrt; return std::sqrt(x.v); }
inline Counted vabs(Counted x) { return std::fabs(x.v); }
inline Counted vselect(bool m, Counted a, Counted b) { return m ? a : b; }
inline double vlane(Counted x, int) { return x.v; }

} // namespace ACH_ISA_NS
} // namespace ach
