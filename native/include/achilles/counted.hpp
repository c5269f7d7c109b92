// A scalar that counts the floating-point operations done on it, so the FLOPs of one robot-step
// are counted exactly by running the very same templated kernels once (`achilles bench --flops`).
// Negation and selection are not counted (sign flips and blends, not arithmetic).
#pragma once

#include <cmath>
#include <cstdint>

#include "isa_namespace.hpp"
#include "passes.hpp"
#include "simd.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

struct FlopCounts {
  std::uint64_t add = 0, mul = 0, div = 0, sqrt = 0, cmp = 0;
};
inline FlopCounts g_flops;
inline FlopCounts g_flops_by_pass[static_cast<int>(FlopPass::Count)];
inline FlopPass g_flop_pass = FlopPass::Other;

/// One operation of kind f, counted in the total and in the open pass.
inline void tally(std::uint64_t FlopCounts::*f) {
  ++(g_flops.*f);
  ++(g_flops_by_pass[static_cast<int>(g_flop_pass)].*f);
}

struct Counted {
  double v;
  Counted() = default;
  Counted(double x) : v(x) {}
  Counted& operator+=(Counted o) {
    tally(&FlopCounts::add);
    v += o.v;
    return *this;
  }
  Counted& operator-=(Counted o) {
    tally(&FlopCounts::add);
    v -= o.v;
    return *this;
  }
  Counted& operator*=(Counted o) {
    tally(&FlopCounts::mul);
    v *= o.v;
    return *this;
  }
};
inline Counted operator+(Counted a, Counted b) {
  tally(&FlopCounts::add);
  return a.v + b.v;
}
inline Counted operator-(Counted a, Counted b) {
  tally(&FlopCounts::add);
  return a.v - b.v;
}
inline Counted operator*(Counted a, Counted b) {
  tally(&FlopCounts::mul);
  return a.v * b.v;
}
inline Counted operator/(Counted a, Counted b) {
  tally(&FlopCounts::div);
  return a.v / b.v;
}
inline Counted operator+(Counted a, double b) { return a + Counted(b); }
inline Counted operator-(Counted a, double b) { return a - Counted(b); }
inline Counted operator*(Counted a, double b) { return a * Counted(b); }
inline Counted operator/(Counted a, double b) { return a / Counted(b); }
inline Counted operator+(double a, Counted b) { return Counted(a) + b; }
inline Counted operator-(double a, Counted b) { return Counted(a) - b; }
inline Counted operator*(double a, Counted b) { return Counted(a) * b; }
inline Counted operator/(double a, Counted b) { return Counted(a) / b; }
inline Counted operator-(Counted a) { return -a.v; }
#define ACH_COUNTED_CMP(OP)                       \
  inline bool operator OP(Counted a, Counted b) { \
    tally(&FlopCounts::cmp);                      \
    return a.v OP b.v;                            \
  }                                               \
  inline bool operator OP(Counted a, double b) {  \
    tally(&FlopCounts::cmp);                      \
    return a.v OP b;                              \
  }
ACH_COUNTED_CMP(<)
ACH_COUNTED_CMP(>)
ACH_COUNTED_CMP(<=)
ACH_COUNTED_CMP(>=)
ACH_COUNTED_CMP(==)
ACH_COUNTED_CMP(!=)
#undef ACH_COUNTED_CMP

template <>
struct PackTraits<Counted> {
  using Scalar = double;
  using Mask = bool;
  static constexpr int lanes = 1;
};
inline Counted vload(const double* p, Counted*) { return *p; }
inline void vstore(double* p, Counted x) { *p = x.v; }
inline Counted vsqrt(Counted x) {
  tally(&FlopCounts::sqrt);
  return std::sqrt(x.v);
}
inline Counted vabs(Counted x) { return std::fabs(x.v); }
inline Counted vselect(bool m, Counted a, Counted b) { return m ? a : b; }
inline double vlane(Counted x, int) { return x.v; }

} // namespace ACH_ISA_NS

/// On the counting scalar a FlopScope attributes the operations done while it is open to its pass.
template <>
struct FlopScope<ACH_ISA_NS::Counted> {
  FlopPass saved;
  explicit FlopScope(FlopPass p) : saved(ACH_ISA_NS::g_flop_pass) { ACH_ISA_NS::g_flop_pass = p; }
  ~FlopScope() { ACH_ISA_NS::g_flop_pass = saved; }
  FlopScope(const FlopScope&) = delete;
  FlopScope& operator=(const FlopScope&) = delete;
};

} // namespace ach
