// sin and cos built from + − × only, so that scalar and SIMD lanes agree bit for bit.
//
// x = k·π/2 + r with |r| <= π/4 (Cody–Waite: π/2 split in three parts so k·part is exact),
// then minimax polynomials for sin r and cos r (Cephes' coefficients), then the quadrant k mod 4
// picks (±sin r, ±cos r). Accurate to about 1 ulp for |x| < 2^20.
#pragma once

#include "isa_namespace.hpp"

#include "simd.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class T>
struct TrigConst;

template <>
struct TrigConst<float> {
  static constexpr float two_over_pi = 0.636619772367581343f;
  static constexpr float pio2_1 = 1.5703125f;
  static constexpr float pio2_2 = 4.837512969970703125e-4f;
  static constexpr float pio2_3 = 7.54978995489188216e-8f;
  static constexpr float round_magic = 12582912.0f; // 1.5 · 2^23: adding then subtracting rounds to nearest
  template <class V>
  static V sin_poly(const V& r, const V& z) {
    return r + r * z * (-1.6666654611e-1f + z * (8.3321608736e-3f + z * -1.9515295891e-4f));
  }
  template <class V>
  static V cos_poly(const V& z) {
    return 1.0f - 0.5f * z + z * z * (4.166664568298827e-2f + z * (-1.388731625493765e-3f + z * 2.443315711809948e-5f));
  }
};

template <>
struct TrigConst<double> {
  static constexpr double two_over_pi = 0.63661977236758134308;
  static constexpr double pio2_1 = 1.57079632673412561417;
  static constexpr double pio2_2 = 6.07710050630396597660e-11;
  static constexpr double pio2_3 = 2.02226624871116645580e-21;
  static constexpr double round_magic = 6755399441055744.0; // 1.5 · 2^52
  template <class V>
  static V sin_poly(const V& r, const V& z) {
    const V p = 1.58962301576546568060e-10 * z + -2.50507477628578072866e-8;
    const V p2 =
        (((p * z + 2.75573136213857245213e-6) * z + -1.98412698295895385996e-4) * z + 8.33333333332211858878e-3) * z + -1.66666666666666307295e-1;
    return r + r * z * p2;
  }
  template <class V>
  static V cos_poly(const V& z) {
    const V p =
        ((((-1.13585365213876817300e-11 * z + 2.08757008419747316778e-9) * z + -2.75573141792967388112e-7) * z + 2.48015872888517045348e-5) * z +
         -1.38888888888730564116e-3) *
            z +
        4.16666666666665929218e-2;
    return 1.0 - 0.5 * z + z * z * p;
  }
};

/// Round to nearest integer (ties to even) for |x| < 2^22 (float) / 2^51 (double).
template <class V>
ACH_INLINE V round_nearest(const V& x) {
  using T = ScalarOf<V>;
  const T m = TrigConst<T>::round_magic;
  return (x + m) - m;
}

/// s = sin x, c = cos x.
template <class V>
ACH_INLINE void sincos(const V& x, V& s, V& c) {
  using T = ScalarOf<V>;
  using C = TrigConst<T>;
  const V k = round_nearest(x * C::two_over_pi);
  const V r = ((x - k * C::pio2_1) - k * C::pio2_2) - k * C::pio2_3;
  const V z = r * r;
  const V sr = C::sin_poly(r, z);
  const V cr = C::cos_poly(z);
  // quadrant = k mod 4 in {0,1,2,3}, from k − 4·floor(k/4)
  const V k4 = k * T(0.25);
  V fl = round_nearest(k4);
  fl = vselect(fl > k4, fl - T(1), fl);
  const V quad = k - T(4) * fl;
  const auto odd = vor(quad == T(1), quad == T(3));     // sin and cos swap
  const auto sin_neg = vor(quad == T(2), quad == T(3)); // sign of sin
  const auto cos_neg = vor(quad == T(1), quad == T(2)); // sign of cos
  const V s0 = vselect(odd, cr, sr);
  const V c0 = vselect(odd, sr, cr);
  s = vselect(sin_neg, -s0, s0);
  c = vselect(cos_neg, -c0, c0);
}

} // namespace ACH_ISA_NS
} // namespace ach
