// Lane-pack maths beyond simd.hpp, shared by collision, contact rows, the solver, actuators and the
// kernel: min/max/clamp/sign as selects, mask conjunction, and selects of 3-vectors. Selects only:
// every lane computes its own answer.
#pragma once

#include "isa_namespace.hpp"

#include "spatial.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

inline bool vand(bool a, bool b) { return a && b; }
inline bool vxor(bool a, bool b) { return a != b; }
#if ACHILLES_SIMD
template <class B, int K>
inline WideMask<B, K> vand(const WideMask<B, K>& a, const WideMask<B, K>& b) {
  WideMask<B, K> o;
  for (int k = 0; k < K; ++k) o.r[k] = a.r[k] & b.r[k];
  return o;
}
// From and/not: xsimd 8.1's batch_bool `^` is an or on AVX-512 (xsimd_avx512f.hpp bitwise_xor),
// and its `!=` on SSE2 float masks is a float compare, true for two all-ones (NaN) masks.
template <class B, int K>
inline WideMask<B, K> vxor(const WideMask<B, K>& a, const WideMask<B, K>& b) {
  return vor(vand(a, vnot(b)), vand(vnot(a), b));
}
#endif

inline bool vselect_mask(bool m, bool a, bool b) { return m ? a : b; }
#if ACHILLES_SIMD
template <class B, int K>
inline WideMask<B, K> vselect_mask(const WideMask<B, K>& m, const WideMask<B, K>& a, const WideMask<B, K>& b) {
  return vor(vand(m, a), vand(vnot(m), b));
}
template <class B, int K>
inline WideMask<B, K> vselect_mask(const WideMask<B, K>& m, bool a, const WideMask<B, K>& b) {
  return a ? vor(m, b) : vand(vnot(m), b);
}
#endif

template <class V>
inline MaskOf<V> mask_false() {
  return V(0) > V(1);
}
template <class V>
inline MaskOf<V> mask_true() {
  return V(1) > V(0);
}
template <class V>
inline V vmin(const V& a, const V& b) {
  return vselect(a < b, a, b);
}
template <class V>
inline V vmax(const V& a, const V& b) {
  return vselect(a > b, a, b);
}
template <class V>
inline V vclamp(const V& x, const V& lo, const V& hi) {
  return vmin(vmax(x, lo), hi);
}
/// −1 for x < 0, else +1 (so a zero picks +).
template <class V>
inline V vsign(const V& x) {
  return vselect(x < V(0), V(-1), V(1));
}
template <class V>
inline Vec3<V> sel3(const MaskOf<V>& m, const Vec3<V>& a, const Vec3<V>& b) {
  return {vselect(m, a.x, b.x), vselect(m, a.y, b.y), vselect(m, a.z, b.z)};
}
template <class V>
inline Vec3<V> col(const Mat3<V>& R, int k) {
  return {R.m[k], R.m[3 + k], R.m[6 + k]};
}
template <class V>
inline Vec3<V> splat3(double x, double y, double z) {
  return {V(x), V(y), V(z)};
}

} // namespace ACH_ISA_NS
} // namespace ach
