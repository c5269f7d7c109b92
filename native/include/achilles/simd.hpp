// Lane packs: one value per robot, W robots side by side.
//
// A kernel is written once against a "pack" type V and runs unchanged on
//   V = float / double            (lanes 1: plain scalar code), or
//   V = Wide<xsimd::batch<T,A>,K> (lanes W = K · batch size: K registers of instruction set A).
// Only IEEE-exact operations are used (+ − × ÷ sqrt, compares, selects), never FMA or a
// library's transcendental functions: every lane width then computes bit-identical results.
#pragma once

#include "isa_namespace.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>

#if ACHILLES_SIMD
// GCC 12's own avx512fintrin.h makes _mm512_undefined_ps/pd/epi32 from a self-initialised local
// (`__m512 __Y = __Y;`), and -Wmaybe-uninitialized reports that line wherever an intrinsic passes it
// as the unused pass-through operand (GCC bug 105593, fixed in GCC 13 by pragmas in the header
// itself). The false positive is in GCC's header, so only that header is included with the warning
// off: a diagnostic pragma applies by source location, and the intrinsics' lines sit inside this
// region (immintrin.h is included nowhere earlier). Our code and xsimd's keep every warning.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#include <xsimd/xsimd.hpp>
#endif

// The kernels' helpers are forced inline. A spatial value is many packs (a 6×6 articulated
// inertia is 21), and left to GCC's inliner budget, whether a helper's values pass through
// memory changed from one translation unit or unrelated edit to the next (arm7 f32 × 16 once went
// from 39 to 47 µs per step when a constructor became a function). The passes stay calls.
// The sanitizer build (-O1 with ASan) defines ACH_NO_FORCE_INLINE: forced inlining there only makes its
// kernel compiles many minutes longer, and inlining changes no result.
#ifdef ACH_NO_FORCE_INLINE
#define ACH_ALWAYS_INLINE
#else
#define ACH_ALWAYS_INLINE __attribute__((always_inline))
#endif
#define ACH_INLINE ACH_ALWAYS_INLINE inline

namespace ach {
inline namespace ACH_ISA_NS {

// ---- scalar packs (lanes 1) ---------------------------------------------------------------

template <class V>
struct PackTraits;

template <>
struct PackTraits<float> {
  using Scalar = float;
  using Mask = bool;
  static constexpr int lanes = 1;
};
template <>
struct PackTraits<double> {
  using Scalar = double;
  using Mask = bool;
  static constexpr int lanes = 1;
};

ACH_INLINE float vload(const float* p, float*) { return *p; }
ACH_INLINE double vload(const double* p, double*) { return *p; }
ACH_INLINE void vstore(float* p, float x) { *p = x; }
ACH_INLINE void vstore(double* p, double x) { *p = x; }
ACH_INLINE float vsqrt(float x) { return std::sqrt(x); }
ACH_INLINE double vsqrt(double x) { return std::sqrt(x); }
ACH_INLINE float vselect(bool m, float a, float b) { return m ? a : b; }
ACH_INLINE double vselect(bool m, double a, double b) { return m ? a : b; }
ACH_INLINE float vabs(float x) { return std::fabs(x); }
ACH_INLINE double vabs(double x) { return std::fabs(x); }
ACH_INLINE bool vany(bool m) { return m; }
inline bool vlane(bool m, int) { return m; }
inline float vlane(float x, int) { return x; }
inline double vlane(double x, int) { return x; }
ACH_INLINE bool vor(bool a, bool b) { return a || b; }
ACH_INLINE bool vnot(bool a) { return !a; }

#if ACHILLES_SIMD

// ---- SIMD packs: K registers of one instruction set -----------------------------------------

template <class B, int K>
struct WideMask {
  typename B::batch_bool_type r[K];
};

template <class B, int K>
struct Wide {
  using Scalar = typename B::value_type;
  static constexpr int lanes = int(B::size) * K;
  B r[K];

  Wide() = default;
  Wide(Scalar s) { // broadcast
    for (int k = 0; k < K; ++k) r[k] = B(s);
  }
  Wide& operator+=(const Wide& o) {
    for (int k = 0; k < K; ++k) r[k] = r[k] + o.r[k];
    return *this;
  }
  Wide& operator-=(const Wide& o) {
    for (int k = 0; k < K; ++k) r[k] = r[k] - o.r[k];
    return *this;
  }
  Wide& operator*=(const Wide& o) {
    for (int k = 0; k < K; ++k) r[k] = r[k] * o.r[k];
    return *this;
  }
};

#define ACH_WIDE_BINOP(OP)                                                           \
  template <class B, int K>                                                          \
  ACH_INLINE Wide<B, K> operator OP(const Wide<B, K>& a, const Wide<B, K>& b) {      \
    Wide<B, K> o;                                                                    \
    for (int k = 0; k < K; ++k) o.r[k] = a.r[k] OP b.r[k];                           \
    return o;                                                                        \
  }                                                                                  \
  template <class B, int K>                                                          \
  ACH_INLINE Wide<B, K> operator OP(const Wide<B, K>& a, typename B::value_type b) { \
    return a OP Wide<B, K>(b);                                                       \
  }                                                                                  \
  template <class B, int K>                                                          \
  ACH_INLINE Wide<B, K> operator OP(typename B::value_type a, const Wide<B, K>& b) { \
    return Wide<B, K>(a) OP b;                                                       \
  }
ACH_WIDE_BINOP(+)
ACH_WIDE_BINOP(-)
ACH_WIDE_BINOP(*)
ACH_WIDE_BINOP(/)
#undef ACH_WIDE_BINOP

#define ACH_WIDE_CMP(OP)                                                                 \
  template <class B, int K>                                                              \
  ACH_INLINE WideMask<B, K> operator OP(const Wide<B, K>& a, const Wide<B, K>& b) {      \
    WideMask<B, K> o;                                                                    \
    for (int k = 0; k < K; ++k) o.r[k] = a.r[k] OP b.r[k];                               \
    return o;                                                                            \
  }                                                                                      \
  template <class B, int K>                                                              \
  ACH_INLINE WideMask<B, K> operator OP(const Wide<B, K>& a, typename B::value_type b) { \
    return a OP Wide<B, K>(b);                                                           \
  }
ACH_WIDE_CMP(<)
ACH_WIDE_CMP(>)
ACH_WIDE_CMP(<=)
ACH_WIDE_CMP(>=)
ACH_WIDE_CMP(==)
ACH_WIDE_CMP(!=)
#undef ACH_WIDE_CMP

template <class B, int K>
ACH_INLINE Wide<B, K> operator-(const Wide<B, K>& a) {
  Wide<B, K> o;
  for (int k = 0; k < K; ++k) o.r[k] = -a.r[k];
  return o;
}

template <class B, int K>
struct PackTraits<Wide<B, K>> {
  using Scalar = typename B::value_type;
  using Mask = WideMask<B, K>;
  static constexpr int lanes = Wide<B, K>::lanes;
};

template <class B, int K>
ACH_INLINE Wide<B, K> vload(const typename B::value_type* p, Wide<B, K>*) {
  Wide<B, K> o;
  for (int k = 0; k < K; ++k) o.r[k] = B::load_unaligned(p + k * B::size);
  return o;
}
template <class B, int K>
ACH_INLINE void vstore(typename B::value_type* p, const Wide<B, K>& x) {
  for (int k = 0; k < K; ++k) x.r[k].store_unaligned(p + k * B::size);
}
template <class B, int K>
ACH_INLINE Wide<B, K> vsqrt(const Wide<B, K>& a) {
  Wide<B, K> o;
  for (int k = 0; k < K; ++k) o.r[k] = xsimd::sqrt(a.r[k]);
  return o;
}
template <class B, int K>
ACH_INLINE Wide<B, K> vabs(const Wide<B, K>& a) {
  Wide<B, K> o;
  for (int k = 0; k < K; ++k) o.r[k] = xsimd::abs(a.r[k]);
  return o;
}
template <class B, int K>
ACH_INLINE Wide<B, K> vselect(const WideMask<B, K>& m, const Wide<B, K>& a, const Wide<B, K>& b) {
  Wide<B, K> o;
  for (int k = 0; k < K; ++k) o.r[k] = xsimd::select(m.r[k], a.r[k], b.r[k]);
  return o;
}
template <class B, int K>
ACH_INLINE bool vany(const WideMask<B, K>& m) {
  bool any = false;
  for (int k = 0; k < K; ++k) any = any || xsimd::any(m.r[k]);
  return any;
}
template <class B, int K>
ACH_INLINE WideMask<B, K> vor(const WideMask<B, K>& a, const WideMask<B, K>& b) {
  WideMask<B, K> o;
  for (int k = 0; k < K; ++k) o.r[k] = a.r[k] | b.r[k];
  return o;
}
template <class B, int K>
ACH_INLINE WideMask<B, K> vnot(const WideMask<B, K>& a) {
  WideMask<B, K> o;
  for (int k = 0; k < K; ++k) o.r[k] = !a.r[k];
  return o;
}
// One lane, for the rare paths (reporting which robot went non-finite).
template <class B, int K>
inline typename B::value_type vlane(const Wide<B, K>& x, int lane) {
  alignas(64) typename B::value_type buf[Wide<B, K>::lanes];
  vstore(buf, x);
  return buf[lane];
}
template <class B, int K>
inline bool vlane(const WideMask<B, K>& m, int lane) {
  const int k = lane / int(B::size);
  alignas(64) bool buf[B::size];
  m.r[k].store_unaligned(buf);
  return buf[lane % B::size];
}

#endif // ACHILLES_SIMD

template <class V>
using ScalarOf = typename PackTraits<V>::Scalar;
template <class V>
using MaskOf = typename PackTraits<V>::Mask;
template <class V>
constexpr int lanes_of = PackTraits<V>::lanes;

template <class V>
ACH_INLINE V load(const ScalarOf<V>* p) {
  return vload(p, static_cast<V*>(nullptr));
}

// Non-finite test: x − x is 0 for finite x and NaN otherwise, and NaN is the one value not equal
// to itself. Written as !(d == d), never d != d: xsimd's != is an *ordered* compare on AVX and
// AVX-512 (false when either side is NaN), so d != d would never see a NaN there.
template <class V>
ACH_INLINE MaskOf<V> nonfinite(const V& x) {
  const V d = x - x;
  return vnot(d == d);
}

} // namespace ACH_ISA_NS
} // namespace ach
