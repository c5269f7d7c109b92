// C++ checks of what JavaScript cannot reach: the polynomial sin/cos against the C library, and
// the arena's overflow check. Prints "N passed, N failed" and exits non-zero on any failure.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#define ACH_ISA_NS isa_test
#include "achilles/kernel_impl.hpp"
#include "achilles/trig.hpp"

static int passed = 0, failed = 0;
static void check(bool ok, const char* what) {
  if (ok) ++passed;
  else {
    ++failed;
    std::printf("FAIL: %s\n", what);
  }
}

template <class T> static double worst_ulps(double lo, double hi, int n) {
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

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
