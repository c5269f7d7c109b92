// C++ checks of what JavaScript cannot reach: the polynomial sin/cos against the C library, the
// arena's overflow check, the three paths of the solver's island sums against a lane-by-lane sum, and
// the coordinate-axis placement path of the ABA's transforms against the full matrix and vector, the
// mask exclusive or, and PGS's tabled sweep orders against its random stream. Prints "N passed, N
// failed" and exits non-zero on any failure.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <limits>
#include <vector>

#define ACH_ISA_NS isa_test
#define ACHILLES_SIMD 1 // SSE2 packs: the x86-64 baseline
#include "achilles/kernel_impl.hpp"
#include "achilles/trig.hpp"

static int passed = 0, failed = 0;
static void check(bool ok, const char* what) {
  if (ok)
    ++passed;
  else {
    ++failed;
    std::printf("FAIL: %s\n", what);
  }
}

template <class T>
static double worst_ulps(double lo, double hi, int n) {
  double worst = 0;
  for (int i = 0; i <= n; ++i) {
    const T x = T(lo + (hi - lo) * i / n);
    T s, c;
    ach::sincos(x, s, c);
    const long double xs = std::sin(static_cast<long double>(x)), xc = std::cos(static_cast<long double>(x));
    const double ulp = std::numeric_limits<T>::epsilon();
    // error in units of the output's epsilon, relative to max(|value|, 2^-10) so zeros do not blow up
    const double es = double(std::fabs(static_cast<long double>(s) - xs)) / (ulp * std::fmax(std::fabs(double(xs)), 1.0 / 1024));
    const double ec = double(std::fabs(static_cast<long double>(c) - xc)) / (ulp * std::fmax(std::fabs(double(xc)), 1.0 / 1024));
    worst = std::fmax(worst, std::fmax(es, ec));
  }
  return worst;
}

/// island_sums on random islands of W = 4 lanes (f32): the wide path (member lists), the lane-by-lane
/// path (lists that do not fit) and the one-tree path must each equal, bit for bit, a per-lane sum
/// of the island's trees in ascending order from +0. Values of very different sizes make the order
/// show in the bits.
static bool island_sums_agree(std::uint32_t seed, bool lone) {
  using V = ach::Wide<xsimd::batch<float, xsimd::sse2>, 1>;
  using M = ach::isa_test::MaskOf<V>;
  constexpr int W = 4, nt = 12;
  const int nrows = lone ? 12 : 20;
  std::uint32_t st = seed;
  auto rnd = [&](std::uint32_t n) {
    st = st * 1664525u + 1013904223u;
    return (st >> 8) % n;
  };
  ach::Model empty;
  ach::isa_test::KConstraints<float> KC(empty, 0.002);
  KC.ntrees = nt;
  std::vector<M> on(nrows);
  std::vector<int> used(nrows);
  for (int r = 0; r < nrows; ++r) {
    KC.row_tree_a.push_back(lone ? r : static_cast<int>(rnd(nt)));
    KC.row_tree_b.push_back(lone || rnd(3) == 0 ? -1 : static_cast<int>(rnd(nt)));
    float lanes[W];
    for (float& l : lanes) l = rnd(4) ? 1.0f : 0.0f;
    on[r] = ach::isa_test::load<V>(lanes) > V(0.5f);
    used[r] = r;
  }
  ach::isa_test::ConstraintWork<V> cw;
  using CW = ach::isa_test::ConstraintWork<V>;
  std::vector<int> label(nt * W), uf(nt), start(nt + 1), tree(nt * nt);
  std::vector<unsigned char> has_row(nt * (W + 1));
  std::vector<float> red(nt * W), acc(nt), acc_lanes(W);
  std::vector<V> tv(CW::kTreeVecs * nt), tmp(CW::kIslandSums * nt);
  std::vector<M> tm(CW::kTreeMasks * nt), mmask(nt * nt);
  cw.nused = nrows, cw.used = used.data(), cw.on = on.data();
  cw.row_tree_a = KC.row_tree_a.data(), cw.row_tree_b = KC.row_tree_b.data();
  cw.nrows = cw.first_contact = nrows; // rows of one tree or two, as limits and tendons make (no contact points)
  cw.label = label.data(), cw.uf = uf.data(), cw.has_row = has_row.data(), cw.red = red.data(), cw.acc = acc.data();
  cw.per_tree.carve(tv.data(), tm.data(), nt);
  cw.member_capacity = nt * nt, cw.member_start = start.data(), cw.member_tree = tree.data(), cw.member_mask = mmask.data();
  cw.acc_lanes = acc_lanes.data(), cw.island_tmp = tmp.data();
  ach::isa_test::find_islands(KC, cw);
  if (cw.lone_islands != lone) return false;
  const float sizes[] = {1e8f, 1.0f, -1e8f, 3.0e-3f, 7.0f, -2.5e7f};
  std::vector<float> vals(3 * nt * W);
  for (float& x : vals) x = sizes[rnd(6)] * (1.0f + float(rnd(1000)) / 997.0f);
  auto expected = [&](int k, int t, int l) {
    const int lab = label[t * W + l];
    if (lab < 0) return vals[(k * nt + t) * W + l];
    float s = 0.0f;
    for (int u = 0; u < nt; ++u)
      if (label[u * W + l] == lab) s += vals[(k * nt + u) * W + l];
    return s;
  };
  for (int path = 0; path < (lone ? 1 : 2); ++path) {
    cw.members_listed = !lone && path == 0;
    std::vector<V> a(3 * nt);
    for (int i = 0; i < 3 * nt; ++i) a[i] = ach::isa_test::load<V>(vals.data() + i * W);
    V* const arrays[] = {a.data(), a.data() + nt, a.data() + 2 * nt};
    ach::isa_test::island_sums(KC, cw, arrays, 3);
    for (int k = 0; k < 3; ++k)
      for (int t = 0; t < nt; ++t) {
        float got[W];
        a[k * nt + t].r[0].store_unaligned(got);
        for (int l = 0; l < W; ++l) {
          const float want = expected(k, t, l);
          if (std::memcmp(&got[l], &want, sizeof(float)) != 0) return false;
        }
      }
  }
  return true;
}

/// The coordinate-axis placement path (AxisRotation for hinges about x, y or z, with AxisOffset for
/// an origin on one axis or a full offset; with_placement) against the full matrix coord_rotation(k,
/// s, c) and vector: every product of the ABA's transforms must give equal values (== : only the
/// sign of an exact zero may differ) on random inputs.
template <class T>
static bool axis_rotations_agree(std::uint32_t seed) {
  namespace K = ach::isa_test;
  std::uint32_t st = seed;
  auto rnd = [&]() {
    st = st * 1664525u + 1013904223u;
    return T(int(st >> 8) % 20001 - 10000) / T(997);
  };
  auto vec = [&]() { return K::Vec3<T>{rnd(), rnd(), rnd()}; };
  K::ABInertia<T> I{{rnd(), rnd(), rnd(), rnd(), rnd(), rnd()}, {}, {rnd(), rnd(), rnd(), rnd(), rnd(), rnd()}};
  for (T& b : I.B.m) b = rnd();
  const K::Motion<T> m{vec(), vec()};
  const K::Force<T> f{vec(), vec()};
  auto same3 = [](const K::Vec3<T>& a, const K::Vec3<T>& b) { return a.x == b.x && a.y == b.y && a.z == b.z; };
  auto same_ia = [](const K::ABInertia<T>& a, const K::ABInertia<T>& b) {
    bool ok = a.A.xx == b.A.xx && a.A.yy == b.A.yy && a.A.zz == b.A.zz && a.A.xy == b.A.xy && a.A.xz == b.A.xz && a.A.yz == b.A.yz;
    ok = ok && a.C.xx == b.C.xx && a.C.yy == b.C.yy && a.C.zz == b.C.zz && a.C.xy == b.C.xy && a.C.xz == b.C.xz && a.C.yz == b.C.yz;
    for (int e = 0; e < 9; ++e) ok = ok && a.B.m[e] == b.B.m[e];
    return ok;
  };
  K::KJoint<T> J{};
  bool ok = true;
  for (int k = 0; k < 3; ++k)
    for (int o = -1; o < 3; ++o) {
      T s, c;
      K::sincos(rnd(), s, c);
      K::Vec3<T> p = vec();
      if (o >= 0) p = {o == 0 ? p.x : T(0), o == 1 ? p.y : T(0), o == 2 ? p.z : T(0)};
      const K::Transform<T> X{K::coord_rotation(k, s, c), p};
      K::KJoint<T> general = J, axis = J;
      general.rot_axis = general.offset_axis = -1;
      axis.rot_axis = k;
      axis.offset_axis = o;
      const K::Motion<T> m1 = K::motion_to_child(general, X, m), m2 = K::motion_to_child(axis, X, m);
      const K::Force<T> f1 = K::force_to_parent(general, X, f), f2 = K::force_to_parent(axis, X, f);
      ok = ok && same3(m1.w, m2.w) && same3(m1.v, m2.v) && same3(f1.n, f2.n) && same3(f1.f, f2.f);
      ok = ok && same_ia(K::inertia_to_parent(general, X, I), K::inertia_to_parent(axis, X, I));
    }
  return ok;
}

/// vxor is exclusive or on every lane, for each pattern of two masks (xsimd 8.1's own batch_bool
/// `^` and `!=` are not, on AVX-512 and SSE2).
template <class V>
static bool vxor_is_exclusive_or() {
  using T = ach::isa_test::ScalarOf<V>;
  constexpr int W = ach::isa_test::lanes_of<V>;
  alignas(64) T a[W], b[W], got[W];
  for (int pattern = 0; pattern < 16; ++pattern) {
    for (int l = 0; l < W; ++l) {
      a[l] = T((pattern >> (l % 4)) & 1);
      b[l] = T((pattern >> ((l + 1) % 4)) & 1);
    }
    const V one(T(1)), zero(T(0));
    const auto x = ach::isa_test::vxor(ach::isa_test::load<V>(a) > zero, ach::isa_test::load<V>(b) > zero);
    ach::isa_test::vstore(got, ach::isa_test::vselect(x, one, zero));
    for (int l = 0; l < W; ++l)
      if (got[l] != T((a[l] != T(0)) != (b[l] != T(0)))) return false;
  }
  return true;
}

/// PGS's tabled sweep orders (PgsSweepOrder from PgsOrders, then the stream continued past the
/// table) against the stream drawn sweep by sweep, for islands of 1 to 40 rows over 100 sweeps: the
/// same row at every position of every sweep.
static bool pgs_orders_agree() {
  using ach::isa_test::PgsSweepOrder;
  for (int n = 1; n <= 40; ++n) {
    std::vector<int> a(n), b(n);
    PgsSweepOrder tabled(n, a.data(), true), drawn(n, b.data(), true, /*tabled=*/false);
    for (int it = 0; it < 100; ++it) {
      tabled.sweep(it);
      drawn.sweep(it);
      for (int s = 0; s < n; ++s)
        if (tabled[s] != drawn[s]) return false;
    }
  }
  return true;
}

int main() {
  const double wf = worst_ulps<float>(-200.0, 200.0, 2000003);
  const double wd = worst_ulps<double>(-200.0, 200.0, 2000003);
  std::printf("sincos worst error: float %.2f ulp, double %.2f ulp\n", wf, wd);
  check(wf < 4, "float sincos within 4 ulp on [-200, 200]");
  check(wd < 4, "double sincos within 4 ulp on [-200, 200]");
  float s, c;
  ach::sincos(0.0f, s, c);
  check(s == 0.0f && c == 1.0f, "sincos(0) = (0, 1) exactly");

  bool threw = false;
  try {
    ach::Arena a(128);
    a.take<double>(8);
    a.take<double>(16);
  } catch (const std::length_error& e) {
    threw = std::strstr(e.what(), "arena overflow") != nullptr;
  }
  check(threw, "arena overflow throws a length_error naming the overflow");

  bool islands = true;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) islands = islands && island_sums_agree(seed, false);
  check(islands, "island sums: the member-list and lane-by-lane paths equal a per-lane ascending sum, bit for bit (200 random islandings)");
  check(island_sums_agree(7, true), "island sums: one-tree islands equal 0 + x");

  using ach::isa_test::Wide;
  check(vxor_is_exclusive_or<Wide<xsimd::batch<float, xsimd::sse2>, 1>>() && vxor_is_exclusive_or<Wide<xsimd::batch<float, xsimd::sse2>, 2>>() &&
            vxor_is_exclusive_or<Wide<xsimd::batch<double, xsimd::sse2>, 1>>() && vxor_is_exclusive_or<Wide<xsimd::batch<double, xsimd::sse2>, 2>>(),
        "vxor: exclusive or of two lane masks, every pattern, float and double packs");

  bool rotations = true;
  for (std::uint32_t seed = 1; seed <= 200; ++seed) rotations = rotations && axis_rotations_agree<float>(seed) && axis_rotations_agree<double>(seed);
  check(rotations,
        "coordinate-axis placements: X⁻¹·m, X*·f and X* I X⁻¹ equal the full matrix and vector's, turning about x, y and z with the origin on x, y, "
        "z or anywhere (200 random f32 and f64 draws)");

  check(pgs_orders_agree(),
        "PGS sweep orders: the table (and the stream continued past it) equal the PCG32 stream drawn sweep by sweep, islands of 1 to 40 rows, 100 "
        "sweeps");

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
