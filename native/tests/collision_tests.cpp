// C++ checks of the collision room that JavaScript cannot see: collide() allocates nothing, the
// narrow phase at lanes 1 in both precisions gives the closed forms, and the f32 answers sit
// within float32 rounding of the f64 ones. Prints "N passed, N failed"; non-zero exit on failure.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <new>

#define ACH_ISA_NS isa_collision_test
#include "achilles/batch.hpp"
#include "achilles/collision/pair_filter.hpp"
#include "achilles/collision/collide.hpp"

#include "alloc_count.hpp"

static int passed = 0, failed = 0;
static void check(bool ok, const char* what) {
  if (ok)
    ++passed;
  else {
    ++failed;
    std::printf("FAIL: %s\n", what);
  }
}

using namespace ach;

static Shape make_shape(const char* name, int body, ShapeKind kind, double hx, double hy, double hz, double r, double z = 0) {
  Shape s;
  s.name = name;
  s.body = body;
  s.kind = kind;
  s.half[0] = hx;
  s.half[1] = hy;
  s.half[2] = hz;
  s.radius = r;
  s.p_BS[2] = z;
  return s;
}

/// Ground; a free rounded box resting on it; a hinged capsule arm over it.
static Model scene() {
  Model m;
  m.gravity[2] = -9.81;
  Joint box;
  box.name = "box";
  box.type = JointType::Free;
  box.mass = 1;
  box.I_com[0] = box.I_com[1] = box.I_com[2] = 0.01;
  Joint arm;
  arm.name = "arm";
  arm.type = JointType::Revolute;
  arm.mass = 1;
  arm.axis[0] = 0;
  arm.axis[1] = 1;
  arm.axis[2] = 0;
  arm.p_PJ[2] = 0.6;
  arm.I_com[0] = arm.I_com[1] = arm.I_com[2] = 0.01;
  m.joints = {box, arm};
  m.q0 = {0, 0, 0.19, 1, 0, 0, 0, 0.4};
  m.v0 = std::vector<double>(7, 0.0);
  m.tau0 = std::vector<double>(7, 0.0);
  m.shapes = {make_shape("ground", -1, ShapeKind::Plane, 0, 0, 0, 0), make_shape("box", 0, ShapeKind::RoundedBox, 0.2, 0.15, 0.15, 0.05),
              make_shape("arm", 1, ShapeKind::Capsule, 0, 0, 0.3, 0.05, -0.3)};
  m.finalize();
  return m;
}

template <class T>
static Manifold<T> collide(ShapeKind ka, const T* ha, T ra, const Transform<T>& Xa, ShapeKind kb, const T* hb, T rb, const Transform<T>& Xb,
                           T margin) {
  ShapeGeom<T> a{ka, {ha[0], ha[1], ha[2]}, ra}, b{kb, {hb[0], hb[1], hb[2]}, rb};
  Manifold<T> m;
  narrow_pair<T>(a, Xa, b, Xb, margin, m);
  return m;
}

template <class T>
static Transform<T> at(T x, T y, T z, T yaw = 0) {
  Transform<T> X;
  const T c = std::cos(yaw), s = std::sin(yaw);
  const T R[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
  for (int e = 0; e < 9; ++e) X.R.m[e] = R[e];
  X.p = {x, y, z};
  return X;
}

template <class T>
static int count(const Manifold<T>& m) {
  int n = 0;
  for (int i = 0; i < kPairPoints; ++i) n += m.on[i] ? 1 : 0;
  return n;
}

int main() {
  // 1. collide() allocates nothing, at every width this CPU runs, with and without threads
  const Model model = scene();
  check(candidate_pairs(model).size() == 3, "ground–box, ground–arm (hinged to the world) and box–arm are the candidate pairs");
  for (Precision prec : {Precision::F32, Precision::F64})
    for (int lanes : {1, 4, 8, 16}) {
      if (!cpu_supports(isa_for(prec, lanes))) continue;
      for (int threads : {1, 2}) {
        BatchOptions opt;
        opt.precision = prec;
        opt.lanes = lanes;
        opt.copies = 3 * lanes + 1;
        opt.threads = threads;
        Batch batch(model, opt);
        batch.collide(); // warm
        g_allocs = 0;
        g_counting = true;
        for (int k = 0; k < 5; ++k) batch.collide();
        g_counting = false;
        char what[128];
        std::snprintf(what, sizeof what, "collide() allocates nothing (%s, lanes %d, threads %d; got %ld)", prec == Precision::F32 ? "f32" : "f64",
                      lanes, threads, g_allocs);
        check(g_allocs == 0, what);
        // the rounded box rests 0.01 deep on the ground: 4 corners of its core, dist −0.01 (f32: to rounding)
        const double tol = prec == Precision::F32 ? 1e-6 : 1e-14;
        int active = 0;
        bool depthOk = true;
        const ContactList c = batch.storage().contacts->contacts_of(0);
        for (std::size_t k = 0; k < c.dist.size(); ++k) {
          if (c.shape_a[k] != 0 || c.shape_b[k] != 1) continue; // ground–box
          ++active;
          depthOk = depthOk && std::fabs(c.dist[k] + 0.01) <= tol;
        }
        check(active == 4 && depthOk, "rounded box on the ground: 4 active slots at dist −0.01");
      }
    }

  // 2. closed forms, both precisions, through the lanes-1 narrow phase
  {
    const double h[3] = {0.5, 0.5, 0.5}, z0[3] = {0, 0, 0};
    // yawed box face on box face: the overlap is an octagon, reduced to 4 points, all at −0.01
    const Manifold<double> m = collide<double>(ShapeKind::Box, h, 0, at<double>(0, 0, 0), ShapeKind::Box, h, 0, at<double>(0, 0, 0.99, 0.7), 0);
    bool ok = count(m) == 4;
    for (int i = 0; i < 4; ++i) ok = ok && std::fabs(m.dist[i] + 0.01) < 1e-14;
    check(ok, "yawed box face on box face: 4 points at −0.01");
    // every point of that manifold lies on the overlap: inside both top/bottom faces
    bool inside = true;
    for (int i = 0; i < 4; ++i) {
      const double x = m.pos[i].x, y = m.pos[i].y;
      const double c = std::cos(0.7), s = std::sin(0.7);
      const double xb = c * x + s * y, yb = -s * x + c * y;
      inside = inside && std::fabs(x) <= 0.5 + 1e-12 && std::fabs(y) <= 0.5 + 1e-12 && std::fabs(xb) <= 0.5 + 1e-12 && std::fabs(yb) <= 0.5 + 1e-12;
    }
    check(inside, "manifold points lie on the contact patch (inside both faces)");
    // separated boxes: true distance 0.2·√3, not the separating-axis bound 0.2
    const Manifold<double> s = collide<double>(ShapeKind::Box, h, 0, at<double>(0, 0, 0), ShapeKind::Box, h, 0, at<double>(1.2, 1.2, 1.2), 1);
    check(count(s) == 1 && std::fabs(s.dist[0] - 0.2 * std::sqrt(3.0)) < 1e-14, "separated boxes: closest-feature distance");
    // sphere at a point: normal fallback is finite and unit
    const Manifold<double> p = collide<double>(ShapeKind::Sphere, z0, 0.5, at<double>(0, 0, 0), ShapeKind::Sphere, z0, 0.5, at<double>(0, 0, 0), 0);
    check(count(p) == 1 && std::fabs(p.dist[0] + 1) < 1e-15 && std::fabs(p.n[0].x * p.n[0].x + p.n[0].y * p.n[0].y + p.n[0].z * p.n[0].z - 1) < 1e-15,
          "concentric spheres: dist −(rA + rB), a unit normal");
  }

  // 3. f32 sits within float32 rounding of f64 (random box–capsule and box–box poses)
  {
    double worst = 0;
    unsigned seed = 12345;
    auto rnd = [&] {
      seed = seed * 1103515245u + 12345u;
      return (seed >> 8) / double(1u << 24);
    };
    for (int t = 0; t < 500; ++t) {
      const double ha[3] = {0.2 + rnd(), 0.2 + rnd(), 0.2 + rnd()};
      const double hb[3] = {t % 2 ? 0.0 : 0.2 + rnd(), t % 2 ? 0.0 : 0.2 + rnd(), 0.2 + rnd()};
      const double yaw = 6 * rnd();
      const double x = 2 * rnd() - 1, y = 2 * rnd() - 1, z = ha[2] + hb[2] + 0.4 * (rnd() - 0.7);
      const ShapeKind kb = t % 2 ? ShapeKind::Capsule : ShapeKind::Box;
      const double rb = t % 2 ? 0.1 : 0.0;
      const Manifold<double> d = collide<double>(ShapeKind::Box, ha, 0, at<double>(0, 0, 0), kb, hb, rb, at<double>(x, y, z, yaw), 10);
      const float haf[3] = {float(ha[0]), float(ha[1]), float(ha[2])}, hbf[3] = {float(hb[0]), float(hb[1]), float(hb[2])};
      const Manifold<float> f =
          collide<float>(ShapeKind::Box, haf, 0, at<float>(0, 0, 0), kb, hbf, float(rb), at<float>(float(x), float(y), float(z), float(yaw)), 10);
      worst = std::fmax(worst, std::fabs(double(f.dist[0]) - d.dist[0]) / (ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]));
    }
    std::printf("f32 vs f64 pair distance, worst over 500 box pairs: %.3g of the summed half-extents\n", worst);
    check(worst < 64 * 6e-8, "f32 distance within 64 float32 epsilons of f64");
  }

  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
