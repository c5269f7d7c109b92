// Reads the plain text model test/helpers/native-dump.ts writes (the numbers toNativeModel hands
// the addon), for the C++-only test tools. Throws std::runtime_error on anything unexpected.
#pragma once

#include <cmath>
#include <fstream>
#include <stdexcept>
#include <string>

#include "achilles/model.hpp"

namespace ach_test {

inline void quat_to_R(const double* q, double* R) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
  R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z); R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = 1 - 2 * (x * x + y * y);
  if (q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0)
    for (int k = 0; k < 9; ++k) R[k] = (k % 4 == 0) ? 1.0 : 0.0;
}

inline ach::Model read_model(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  auto expect = [&](const char* word) {
    std::string w;
    in >> w;
    if (w != word) throw std::runtime_error(path + ": expected '" + word + "', found '" + w + "'");
  };
  auto get = [&](double* x, int n) {
    for (int k = 0; k < n; ++k)
      if (!(in >> x[k])) throw std::runtime_error(path + ": bad number");
  };
  auto list = [&](std::vector<double>& v) {
    int n;
    in >> n;
    for (int k = 0; k < n; ++k) {
      double x;
      get(&x, 1);
      v.push_back(x);
    }
  };
  ach::Model m;
  expect("achilles-model");
  int version;
  in >> version;
  expect("gravity");
  get(m.gravity, 3);
  expect("bodies");
  int nb;
  in >> nb;
  for (int i = 0; i < nb; ++i) {
    ach::Joint j;
    std::string type;
    double quat[4];
    in >> j.name >> type >> j.parent;
    get(j.p_PJ, 3);
    get(quat, 4);
    quat_to_R(quat, j.R_PJ);
    get(j.axis, 3);
    get(j.u, 3);
    get(j.w, 3);
    get(&j.mass, 1);
    get(j.com, 3);
    get(j.I_com, 6);
    using JT = ach::JointType;
    j.type = type == "revolute" ? JT::Revolute : type == "prismatic" ? JT::Prismatic : type == "ball" ? JT::Ball : type == "free" ? JT::Free
           : type == "planar" ? JT::Planar : JT::Fixed;
    list(m.q0);
    list(m.v0);
    list(m.tau0);
    m.joints.push_back(j);
  }
  expect("shapes");
  int ns;
  in >> ns;
  for (int i = 0; i < ns; ++i) {
    ach::Shape s;
    std::string kind;
    double quat[4];
    in >> s.name >> s.body >> kind;
    get(s.half, 3);
    get(&s.radius, 1);
    get(s.p_BS, 3);
    get(quat, 4);
    quat_to_R(quat, s.R_BS);
    get(&s.friction, 1);
    in >> s.contype >> s.conaffinity;
    get(&s.margin, 1);
    get(&s.gap, 1);
    using SK = ach::ShapeKind;
    s.kind = kind == "sphere" ? SK::Sphere : kind == "capsule" ? SK::Capsule : kind == "box" ? SK::Box : kind == "rounded-box" ? SK::RoundedBox : SK::Plane;
    m.shapes.push_back(s);
  }
  expect("excludes");
  int ne;
  in >> ne;
  for (int i = 0; i < ne; ++i) {
    int a, b;
    in >> a >> b;
    m.excludes.emplace_back(a, b);
  }
  if (!in) throw std::runtime_error(path + ": truncated");
  m.finalize();
  return m;
}

} // namespace ach_test
