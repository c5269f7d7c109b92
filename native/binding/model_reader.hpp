// The one reader of the compiled model and the batch options, for every binding: the Node addon
// reads the plain JavaScript object src/engine/batch.ts builds (toNativeModel), the Python
// extension the same object parsed from `achilles compile`'s JSON. Every key is checked; errors
// name the key's path and are thrown as std::invalid_argument (each binding rethrows them as its
// own error: a JavaScript Error, a Python ValueError).
//
// The reader is a template over the source of values, `V`, a small adapter each binding supplies
// (napi_value.hpp, python/native/py_value.hpp). It follows JavaScript's view of values, since the
// model object is defined there:
//   is_undefined()  the key is absent          is_null()     null / None
//   is_number() is_string() is_boolean() is_array()
//   is_object()     an object or an array (as JavaScript's typeof)
//   number() string() boolean()                the value, once its kind is checked
//   truthy()        JavaScript's ToBoolean
//   get(key)        a key of an object (absent: undefined)
//   length() at(i)  an array's length and element i
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "achilles/batch.hpp"
#include "achilles/bugs.hpp"
#include "achilles/collision/hull_graph.hpp"
#include "achilles/collision/hull_polygons.hpp"
#include "achilles/collision/shape.hpp"

namespace ach::binding {

/// A malformed value: thrown as std::invalid_argument, rethrown by the binding as its own error.
[[noreturn]] inline void type_error(const std::string& what) { throw std::invalid_argument(what); }

/// JavaScript's ToInt32 (what Napi's Int32Value gives): NaN and infinities 0, others truncated
/// and wrapped modulo 2^32 into [-2^31, 2^31).
inline std::int32_t to_int32(double x) {
  if (!std::isfinite(x)) return 0;
  double m = std::fmod(std::trunc(x), 4294967296.0);
  if (m < 0) m += 4294967296.0;
  if (m >= 2147483648.0) m -= 4294967296.0;
  return static_cast<std::int32_t>(m);
}

template <class V>
double number_at(const V& o, const char* key, const std::string& where) {
  const V v = o.get(key);
  if (!v.is_number()) type_error(where + "." + key + " must be a number");
  return v.number();
}

template <class V>
void numbers_at(const V& o, const char* key, double* out, std::size_t n, const std::string& where) {
  const V a = o.get(key);
  if (!a.is_array()) type_error(where + "." + key + " must be an array of " + std::to_string(n) + " numbers");
  if (a.length() != n) type_error(where + "." + key + " has " + std::to_string(a.length()) + " numbers, expected " + std::to_string(n));
  for (std::size_t k = 0; k < n; ++k) {
    const V e = a.at(k);
    if (!e.is_number()) type_error(where + "." + key + "[" + std::to_string(k) + "] must be a number");
    out[k] = e.number();
  }
}

template <class V>
void append_numbers(const V& o, const char* key, std::vector<double>& out, std::size_t n, const std::string& where) {
  std::vector<double> tmp(n);
  if (n > 0)
    numbers_at(o, key, tmp.data(), n, where);
  else if (o.get(key).is_array() && o.get(key).length() != 0)
    type_error(where + "." + key + " must be empty");
  out.insert(out.end(), tmp.begin(), tmp.end());
}

/// An optional key: absent (undefined) leaves `out` as it is.
template <class V>
bool optional_numbers(const V& o, const char* key, double* out, std::size_t n, const std::string& where) {
  if (o.get(key).is_undefined()) return false;
  numbers_at(o, key, out, n, where);
  return true;
}
template <class V>
bool optional_number(const V& o, const char* key, double& out, const std::string& where) {
  if (o.get(key).is_undefined()) return false;
  out = number_at(o, key, where);
  return true;
}

inline JointType joint_type(const std::string& s, const std::string& where) {
  if (s == "revolute") return JointType::Revolute;
  if (s == "prismatic") return JointType::Prismatic;
  if (s == "ball") return JointType::Ball;
  if (s == "free") return JointType::Free;
  if (s == "planar") return JointType::Planar;
  if (s == "fixed") return JointType::Fixed;
  type_error(where + ".joint is '" + s + "'; expected revolute, prismatic, ball, free, planar or fixed");
}

/// R from a unit quaternion [w, x, y, z] (normalised here, so the caller's rounding cannot skew R).
inline void quat_to_rotation(const double* q, double* R) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (!(n > 0) || !std::isfinite(n)) type_error("quaternion must be non-zero and finite");
  const double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
  if (q[0] == 1 && q[1] == 0 && q[2] == 0 && q[3] == 0) { // exact identity, so kernels can skip it
    for (int k = 0; k < 9; ++k) R[k] = (k % 4 == 0) ? 1.0 : 0.0;
  }
}

template <class V>
ShapeKind shape_kind(const V& v, const std::string& where) {
  if (!v.is_string()) type_error(where + ".kind must be a string");
  const std::string k = v.string();
  if (k == "sphere") return ShapeKind::Sphere;
  if (k == "capsule") return ShapeKind::Capsule;
  if (k == "box") return ShapeKind::Box;
  if (k == "rounded-box") return ShapeKind::RoundedBox;
  if (k == "plane") return ShapeKind::Plane;
  if (k == "cylinder") return ShapeKind::Cylinder;
  if (k == "ellipsoid") return ShapeKind::Ellipsoid;
  if (k == "convex") return ShapeKind::Convex;
  type_error(where + ".kind is '" + k + "'; expected sphere, capsule, box, rounded-box, plane, cylinder, ellipsoid or convex");
}

/// The name of an unnamed element: "#" and its index. Appended rather than `"#" + std::to_string(i)`:
/// GCC 12 reports that operator+ (an insert at 0) with a false -Wrestrict (GCC bug 105329).
inline std::string unnamed(std::size_t i) {
  std::string name = "#";
  name += std::to_string(i);
  return name;
}

/// o.name when it is a string, else "#i".
template <class V>
std::string name_or_index(const V& o, std::size_t i) {
  const V name = o.get("name");
  return name.is_string() ? name.string() : unnamed(i);
}

template <class V>
std::uint32_t filter_bits(const V& o, const char* key, const std::string& where) {
  const double x = number_at(o, key, where);
  if (!(x >= 0) || x > 4294967295.0 || x != std::floor(x)) type_error(where + "." + key + " must be an integer from 0 to 2^32-1");
  return static_cast<std::uint32_t>(x);
}

/// Element i of an array that must hold objects.
template <class V>
V object_at(const V& arr, std::size_t i, const std::string& where) {
  const V o = arr.at(i);
  if (!o.is_object()) type_error(where + " must be an object");
  return o;
}

/// A cylinder's or ellipsoid's `size` (MuJoCo's geom_size), or a convex shape's `vertices` (flat x y z,
/// at least 4 points, in the shape frame); `half` becomes a box about the shape origin bounding it.
template <class V>
void read_convex_size(const V& o, Shape& s, const std::string& where) {
  if (s.kind == ShapeKind::Convex) {
    const V v = o.get("vertices");
    if (!v.is_array() || v.length() < 12 || v.length() % 3 != 0) type_error(where + ".vertices must be an array of x y z numbers, at least 4 points");
    s.vert.resize(v.length());
    for (std::size_t i = 0; i < v.length(); ++i) {
      const V x = v.at(i);
      if (!x.is_number() || !std::isfinite(x.number())) type_error(where + ".vertices[" + std::to_string(i) + "] must be a finite number");
      s.vert[i] = x.number();
    }
    // optional: the hull's triangles (indices into the vertices), from which its graph is made
    const V f = o.get("faces");
    if (!f.is_undefined()) {
      const int nvert = static_cast<int>(s.vert.size() / 3);
      if (!f.is_array() || f.length() < 12 || f.length() % 3 != 0)
        type_error(where + ".faces must be an array of vertex indices, three per triangle, at least 4 triangles");
      std::vector<int> faces(f.length());
      for (std::size_t i = 0; i < f.length(); ++i) {
        const V x = f.at(i);
        const double k = x.is_number() ? x.number() : -1;
        if (!(k >= 0 && k < nvert && k == std::floor(k)))
          type_error(where + ".faces[" + std::to_string(i) + "] must be a vertex index from 0 to " + std::to_string(nvert - 1));
        faces[i] = static_cast<int>(k);
      }
      s.graph = hull_graph(faces, nvert);
      s.extrema = hull_extrema(s.graph, s.vert);
      s.polygons = hull_polygons(faces, s.vert);
      if (!polygons_fit_clipping(s.polygons))
        type_error(where + ": a hull polygon of more than " + std::to_string(kMaxHullPolygonVerts) + " vertices, or a vertex on more than " +
                   std::to_string(kMaxHullPolygonVerts) + " polygons, is more than the face clipping holds");
    }
  } else {
    numbers_at(o, "size", s.size, 3, where);
    const bool cyl = s.kind == ShapeKind::Cylinder;
    for (int k = 0; k < (cyl ? 2 : 3); ++k)
      if (!(s.size[k] > 0)) type_error(where + ".size[" + std::to_string(k) + "] must be > 0");
    if (cyl) s.size[2] = 0;
  }
  bound_convex_shape(s);
}

/// Shapes and excludes (optional: a model without them collides nothing).
template <class V>
void read_shapes(const V& m, Model& model, const std::string& root) {
  const V shapes = m.get("shapes");
  if (!shapes.is_undefined() && !shapes.is_null()) {
    if (!shapes.is_array()) type_error(root + ".shapes must be an array");
    for (std::size_t i = 0; i < shapes.length(); ++i) {
      const std::string where = root + ".shapes[" + std::to_string(i) + "]";
      const V o = object_at(shapes, i, where);
      Shape s;
      s.name = name_or_index(o, i);
      s.body = static_cast<int>(number_at(o, "body", where));
      s.kind = shape_kind(o.get("kind"), where);
      if (is_convex_kind(s.kind))
        read_convex_size(o, s, where);
      else {
        numbers_at(o, "halfExtents", s.half, 3, where);
        s.radius = number_at(o, "radius", where);
      }
      double quat[4];
      numbers_at(o, "pos", s.p_BS, 3, where);
      numbers_at(o, "quat", quat, 4, where);
      quat_to_rotation(quat, s.R_BS);
      s.friction = number_at(o, "friction", where);
      // torsional and rolling friction (optional: MuJoCo's defaults; read by condim 4 and 6)
      optional_number(o, "torsionalFriction", s.torsion, where);
      optional_number(o, "rollingFriction", s.rolling, where);
      s.contype = filter_bits(o, "contype", where);
      s.conaffinity = filter_bits(o, "conaffinity", where);
      s.margin = number_at(o, "margin", where);
      s.gap = number_at(o, "gap", where);
      // contact softness (optional: MuJoCo's defaults)
      optional_numbers(o, "solref", s.solref, 2, where);
      optional_numbers(o, "solimp", s.solimp, 5, where);
      double condim = 3;
      if (optional_number(o, "condim", condim, where) && condim != 1 && condim != 3 && condim != 4 && condim != 6)
        type_error(where + ".condim must be 1, 3, 4 or 6 (got " + std::to_string(condim) + ")");
      s.condim = static_cast<int>(condim);
      // MuJoCo's priority and solmix (optional: 0 and 1)
      double priority = 0;
      if (optional_number(o, "priority", priority, where) && !(priority == std::trunc(priority) && std::fabs(priority) <= 2147483647.0))
        type_error(where + ".priority must be a whole number (got " + std::to_string(priority) + ")");
      s.priority = static_cast<int>(priority);
      optional_number(o, "solmix", s.solmix, where);
      model.shapes.push_back(std::move(s));
    }
  }
  const V ex = m.get("excludes");
  if (!ex.is_undefined() && !ex.is_null()) {
    if (!ex.is_array()) type_error(root + ".excludes must be an array of [body, body] pairs");
    for (std::size_t i = 0; i < ex.length(); ++i) {
      const V pr = ex.at(i);
      const std::string where = root + ".excludes[" + std::to_string(i) + "]";
      if (!pr.is_array() || pr.length() != 2) type_error(where + " must be [body, body]");
      if (!pr.at(0).is_number() || !pr.at(1).is_number()) type_error(where + " must hold two body indices");
      model.excludes.emplace_back(to_int32(pr.at(0).number()), to_int32(pr.at(1).number()));
    }
  }
}

/// An optional number (absent: `fallback`).
template <class V>
double optional_number_or(const V& o, const char* key, double fallback, const std::string& where) {
  const V v = o.get(key);
  if (v.is_undefined() || v.is_null()) return fallback;
  return number_at(o, key, where);
}

/// An optional [lo, hi] range; returns whether it was given.
template <class V>
bool optional_range(const V& o, const char* key, double& lo, double& hi, const std::string& where) {
  const V v = o.get(key);
  if (v.is_undefined() || v.is_null()) return false;
  double r[2];
  numbers_at(o, key, r, 2, where);
  lo = r[0];
  hi = r[1];
  return true;
}

/// One of `names` at o[key] (absent: the first); its index.
template <class V>
int choice_at(const V& o, const char* key, std::initializer_list<const char*> names, const std::string& where) {
  const V v = o.get(key);
  if (v.is_undefined() || v.is_null()) return 0;
  const std::string s = v.is_string() ? v.string() : "";
  int i = 0;
  std::string all;
  for (const char* n : names) {
    if (s == n) return i;
    all += std::string(i ? ", " : "") + n;
    ++i;
  }
  type_error(where + "." + key + " is '" + s + "'; expected one of " + all);
}

/// A general actuator's MuJoCo parameters, `general: { dyntype, gaintype, biastype, dynprm, gainprm,
/// biasprm, actrange?, actearly? }` (the prm arrays: their first three numbers).
template <class V>
void read_general(const V& o, Actuator& a, const std::string& where) {
  const V g = o.get("general");
  if (!g.is_object()) type_error(where + ".general must be an object (a general actuator's parameters)");
  const std::string at = where + ".general";
  a.dyntype = static_cast<DynType>(choice_at(g, "dyntype", {"none", "integrator", "filter", "filterexact"}, at));
  a.gaintype = static_cast<GainType>(choice_at(g, "gaintype", {"fixed", "affine"}, at));
  a.biastype = static_cast<BiasType>(choice_at(g, "biastype", {"none", "affine"}, at));
  numbers_at(g, "dynprm", a.dynprm, 3, at);
  numbers_at(g, "gainprm", a.gainprm, 3, at);
  numbers_at(g, "biasprm", a.biasprm, 3, at);
  a.act_limited = optional_range(g, "actrange", a.act_lo, a.act_hi, at);
  const V early = g.get("actearly");
  a.act_early = early.is_boolean() && early.boolean();
}

/// Actuators (optional). `gear` is the direction already projected onto the joint's free axes;
/// the bug build's GearNotProjected takes the unprojected `direction` in its place.
template <class V>
void read_actuators(const V& m, Model& model, const std::string& root) {
  const V arr = m.get("actuators");
  if (arr.is_undefined() || arr.is_null()) return;
  if (!arr.is_array()) type_error(root + ".actuators must be an array");
  for (std::size_t i = 0; i < arr.length(); ++i) {
    const std::string where = root + ".actuators[" + std::to_string(i) + "]";
    const V o = object_at(arr, i, where);
    Actuator a;
    a.name = name_or_index(o, i);
    // the transmission: `body` (the joint it drives) or `tendon` (the fixed tendon it pulls; checked by finalize)
    const V ten = o.get("tendon");
    const bool on_tendon = !ten.is_undefined() && !ten.is_null();
    const V trn_body = o.get("bodyTransmission");
    const bool on_body = !trn_body.is_undefined() && !trn_body.is_null();
    if (on_body) {
      a.trn_body = static_cast<int>(number_at(o, "bodyTransmission", where));
      if (a.trn_body < 0 || a.trn_body >= static_cast<int>(model.joints.size())) type_error(where + ".bodyTransmission is out of range");
    } else if (on_tendon) {
      a.tendon = static_cast<int>(number_at(o, "tendon", where));
      if (a.tendon < 0) type_error(where + ".tendon must be >= 0");
    } else {
      a.joint = static_cast<int>(number_at(o, "body", where));
      if (a.joint < 0 || a.joint >= static_cast<int>(model.joints.size())) type_error(where + ".body is out of range");
    }
    const V kind = o.get("kind");
    const std::string k = kind.is_string() ? kind.string() : "";
    if (k == "motor")
      a.kind = ActuatorKind::Motor;
    else if (k == "position")
      a.kind = ActuatorKind::Position;
    else if (k == "velocity")
      a.kind = ActuatorKind::Velocity;
    else if (k == "general")
      a.kind = ActuatorKind::General;
    else
      type_error(where + ".kind is '" + k + "'; expected motor, position, velocity or general");
    if (a.kind == ActuatorKind::General) read_general(o, a, where);
    const int nv = on_tendon || on_body ? 1 : joint_nv(model.joints[a.joint].type);
    const bool raw = !on_tendon && !on_body && ACH_BUG(GearNotProjected) && o.get("direction").is_array();
    numbers_at(o, raw ? "direction" : "gear", a.gear, raw ? 6 : nv, where);
    if (raw)
      for (int e = nv; e < 6; ++e) a.gear[e] = 0;
    a.kp = optional_number_or(o, "kp", 0, where);
    a.kv = optional_number_or(o, "kv", 0, where);
    a.ctrl_limited = optional_range(o, "ctrlrange", a.ctrl_lo, a.ctrl_hi, where);
    a.force_limited = optional_range(o, "forcerange", a.force_lo, a.force_hi, where);
    a.rate = optional_number_or(o, "rateLimit", 0, where);
    model.actuators.push_back(std::move(a));
  }
}

/// A limit's optional settings object `limit: {solref?, solimp?, margin?}` (joints and tendons).
template <class V>
void read_limit_settings(const V& o, LimitSpec& limit, const std::string& where) {
  const V lim = o.get("limit");
  if (lim.is_undefined() || lim.is_null()) return;
  if (!lim.is_object()) type_error(where + ".limit must be an object {solref, solimp, margin}");
  const std::string lw = where + ".limit";
  optional_numbers(lim, "solref", limit.solref, 2, lw);
  optional_numbers(lim, "solimp", limit.solimp, 5, lw);
  optional_number(lim, "margin", limit.margin, lw);
}

/// Fixed tendons (optional): {name, joints: [body index], coefs, range?, limit?, frictionloss?,
/// stiffness?, damping?, springlength?: [lower, upper]} (checked by finalize_constraints).
template <class V>
void read_tendons(const V& m, Model& model, const std::string& root) {
  const V arr = m.get("tendons");
  if (arr.is_undefined() || arr.is_null()) return;
  if (!arr.is_array()) type_error(root + ".tendons must be an array");
  for (std::size_t i = 0; i < arr.length(); ++i) {
    const std::string where = root + ".tendons[" + std::to_string(i) + "]";
    const V o = object_at(arr, i, where);
    Tendon t;
    t.name = name_or_index(o, i);
    const V jv = o.get("joints"), cv = o.get("coefs");
    if (!jv.is_array() || !cv.is_array()) type_error(where + ".joints and .coefs must be arrays");
    const std::size_t n = jv.length();
    if (n == 0 || cv.length() != n) type_error(where + ": needs one coef per joint, and at least one joint");
    std::vector<double> joints;
    append_numbers(o, "joints", joints, n, where);
    append_numbers(o, "coefs", t.coefs, n, where);
    for (double j : joints) {
      if (j != std::floor(j)) type_error(where + ".joints must hold body indices");
      t.joints.push_back(static_cast<int>(j));
    }
    t.limit.limited = optional_range(o, "range", t.limit.range[0], t.limit.range[1], where);
    read_limit_settings(o, t.limit, where);
    t.frictionloss = optional_number_or(o, "frictionloss", 0, where);
    t.stiffness = optional_number_or(o, "stiffness", 0, where);
    t.damping = optional_number_or(o, "damping", 0, where);
    optional_range(o, "springlength", t.springlength[0], t.springlength[1], where);
    model.tendons.push_back(std::move(t));
  }
}

/// Equality constraints (optional): {name, type: 'connect' | 'weld' | 'joint', active, solref, solimp;
/// connect/weld: body1, body2 (−1: world), anchor1?, anchor2? (each in its body's frame), quat1?, quat2?
/// (weld), torquescale; joint: joint1, joint2 (−1: none), polycoef, ref1, ref2}. A connect without anchor2,
/// or a weld without anchor1, has it (and the weld's quat1) made at qpos0 (finalize_constraints).
template <class V>
void read_equalities(const V& m, Model& model, const std::string& root) {
  const V arr = m.get("equalities");
  if (arr.is_undefined() || arr.is_null()) return;
  if (!arr.is_array()) type_error(root + ".equalities must be an array");
  for (std::size_t i = 0; i < arr.length(); ++i) {
    const std::string where = root + ".equalities[" + std::to_string(i) + "]";
    const V o = object_at(arr, i, where);
    Equality e;
    e.name = name_or_index(o, i);
    const int type = choice_at(o, "type", {"connect", "weld", "joint"}, where);
    e.type = type == 0 ? EqualityType::Connect : type == 1 ? EqualityType::Weld : EqualityType::Joint;
    const V active = o.get("active");
    e.active = active.is_undefined() || active.truthy();
    optional_numbers(o, "solref", e.solref, 2, where);
    optional_numbers(o, "solimp", e.solimp, 5, where);
    auto index = [&](const char* key, double fallback) {
      const double x = optional_number_or(o, key, fallback, where);
      if (x != std::floor(x) || !std::isfinite(x)) type_error(where + "." + key + " must be an index");
      return static_cast<int>(x);
    };
    if (e.type == EqualityType::Joint) {
      e.joint1 = index("joint1", -1);
      e.joint2 = index("joint2", -1);
      optional_numbers(o, "polycoef", e.polycoef, 5, where);
      e.ref1 = optional_number_or(o, "ref1", 0, where);
      e.ref2 = optional_number_or(o, "ref2", 0, where);
    } else {
      e.body1 = index("body1", -1);
      e.body2 = index("body2", -1);
      const bool has1 = optional_numbers(o, "anchor1", e.p1, 3, where);
      const bool has2 = optional_numbers(o, "anchor2", e.p2, 3, where);
      e.at_qpos0 = e.type == EqualityType::Connect ? !has2 : !has1;
      double q[4];
      if (optional_numbers(o, "quat1", q, 4, where)) quat_to_rotation(q, e.Q1);
      if (optional_numbers(o, "quat2", q, 4, where)) quat_to_rotation(q, e.Q2);
      e.torquescale = optional_number_or(o, "torquescale", 1, where);
    }
    model.equalities.push_back(std::move(e));
  }
}

/// The constraint solver's settings (optional): {iterations, impratio, tolerance?, method?, cone?}.
template <class V>
void read_solver(const V& m, Model& model, const std::string& root) {
  const V so = m.get("solver");
  if (so.is_undefined() || so.is_null()) return;
  const std::string where = root + ".solver";
  if (!so.is_object()) type_error(where + " must be an object {iterations, impratio, tolerance?, method?, cone?}");
  double it = model.solver_iterations;
  if (optional_number(so, "iterations", it, where) && (it != std::floor(it) || it < 0 || it > 100000))
    type_error(where + ".iterations must be an integer from 0 to 100000 (got " + std::to_string(it) + ")");
  model.solver_iterations = static_cast<int>(it);
  optional_number(so, "impratio", model.impratio, where);
  optional_number(so, "tolerance", model.solver_tolerance, where);
  // MuJoCo's noslip post-solve: a count of sweeps (0: none) and its tolerance (finite, >= 0)
  double ns = model.noslip_iterations;
  if (optional_number(so, "noslipIterations", ns, where) && (ns != std::floor(ns) || ns < 0 || ns > 100000))
    type_error(where + ".noslipIterations must be an integer from 0 to 100000 (got " + std::to_string(ns) + ")");
  model.noslip_iterations = static_cast<int>(ns);
  if (optional_number(so, "noslipTolerance", model.noslip_tolerance, where) &&
      !(model.noslip_tolerance >= 0 && std::isfinite(model.noslip_tolerance)))
    type_error(where + ".noslipTolerance must be a finite number >= 0");
  const V method = so.get("method");
  if (!method.is_undefined()) {
    const std::string name = method.is_string() ? method.string() : std::string();
    if (name != "newton" && name != "cg" && name != "pgs") type_error(where + ".method must be 'newton', 'cg' or 'pgs'");
    model.solver_newton = name == "newton";
    model.solver_pgs = name == "pgs";
  }
  const V cone = so.get("cone");
  if (!cone.is_undefined()) {
    const std::string name = cone.is_string() ? cone.string() : std::string();
    if (name != "pyramidal" && name != "elliptic") type_error(where + ".cone must be 'pyramidal' or 'elliptic'");
    model.cone_elliptic = name == "elliptic";
  }
}

/// The bodies (each with its joint), in order: the model's joints, q0, v0 and constant torques.
template <class V>
void read_bodies(const V& m, Model& model, const std::string& root) {
  const V bodies = m.get("bodies");
  if (!bodies.is_array()) type_error(root + ".bodies must be an array");
  for (std::size_t i = 0; i < bodies.length(); ++i) {
    const std::string where = root + ".bodies[" + std::to_string(i) + "]";
    const V b = object_at(bodies, i, where);
    Joint j;
    j.name = name_or_index(b, i);
    const V jt = b.get("joint");
    if (!jt.is_string()) type_error(where + ".joint must be a string");
    j.type = joint_type(jt.string(), where);
    j.parent = static_cast<int>(number_at(b, "parent", where));
    double quat[4];
    numbers_at(b, "pos", j.p_PJ, 3, where);
    numbers_at(b, "quat", quat, 4, where);
    quat_to_rotation(quat, j.R_PJ);
    const double qn = std::sqrt(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] + quat[3] * quat[3]);
    for (int k = 0; k < 4; ++k) j.quat_PJ[k] = quat[k] / qn;
    numbers_at(b, "axis", j.axis, 3, where);
    numbers_at(b, "u", j.u, 3, where);
    numbers_at(b, "w", j.w, 3, where);
    j.mass = number_at(b, "mass", where);
    numbers_at(b, "com", j.com, 3, where);
    numbers_at(b, "inertia", j.I_com, 6, where);
    const int nq = joint_nq(j.type), nv = joint_nv(j.type);
    append_numbers(b, "q0", model.q0, nq, where);
    append_numbers(b, "v0", model.v0, nv, where);
    append_numbers(b, "tau", model.tau0, nv, where);
    // joint limit and dry friction (optional)
    const V range = b.get("range");
    if (!range.is_undefined() && !range.is_null()) {
      j.limit.limited = true;
      numbers_at(b, "range", j.limit.range, 2, where);
      read_limit_settings(b, j.limit, where);
    }
    optional_number(b, "frictionloss", j.frictionloss, where);
    j.damping = optional_number_or(b, "damping", 0, where);
    j.stiffness = optional_number_or(b, "stiffness", 0, where);
    j.springref = optional_number_or(b, "springref", 0, where);
    j.armature = optional_number_or(b, "armature", 0, where);
    const V sd = b.get("springdamper"); // MuJoCo's [timeconst, dampratio]: finalize makes stiffness and damping
    if (!sd.is_undefined() && !sd.is_null()) numbers_at(b, "springdamper", j.springdamper, 2, where);
    j.ref = optional_number_or(b, "ref", 0, where);
    model.joints.push_back(std::move(j));
  }
}

/// MuJoCo's fluid forces (optional): {density, viscosity, wind: [3], bodies: [{body, box?: {quat, size},
/// ellipsoids?: [{pos, quat, semiaxes, coef: [blunt, slender, angular, kutta, magnus], virtualMass,
/// virtualInertia}]}]} (checked by finalize: passive/fluid_spec.hpp).
template <class V>
void read_fluid(const V& m, Model& model, const std::string& root) {
  const V f = m.get("fluid");
  if (f.is_undefined() || f.is_null()) return;
  const std::string where = root + ".fluid";
  if (!f.is_object()) type_error(where + " must be an object {density, viscosity, wind, bodies}");
  FluidSpec& fl = model.fluid;
  fl.density = number_at(f, "density", where);
  fl.viscosity = number_at(f, "viscosity", where);
  numbers_at(f, "wind", fl.wind, 3, where);
  const V arr = f.get("bodies");
  if (!arr.is_array()) type_error(where + ".bodies must be an array");
  for (std::size_t i = 0; i < arr.length(); ++i) {
    const std::string bw = where + ".bodies[" + std::to_string(i) + "]";
    const V o = object_at(arr, i, bw);
    FluidBody b;
    const double body = number_at(o, "body", bw);
    if (body != std::floor(body)) type_error(bw + ".body must be a body index");
    b.body = static_cast<int>(body);
    const V box = o.get("box");
    b.box = !box.is_undefined() && !box.is_null();
    if (b.box) {
      const std::string xw = bw + ".box";
      if (!box.is_object()) type_error(xw + " must be an object {quat, size}");
      double q[4];
      numbers_at(box, "quat", q, 4, xw);
      quat_to_rotation(q, b.R);
      numbers_at(box, "size", b.size, 3, xw);
    } else {
      const V es = o.get("ellipsoids");
      if (!es.is_array()) type_error(bw + " needs box or ellipsoids (an array)");
      for (std::size_t k = 0; k < es.length(); ++k) {
        const std::string ew = bw + ".ellipsoids[" + std::to_string(k) + "]";
        const V e = object_at(es, k, ew);
        FluidEllipsoid g;
        numbers_at(e, "pos", g.pos, 3, ew);
        double q[4];
        numbers_at(e, "quat", q, 4, ew);
        quat_to_rotation(q, g.R);
        numbers_at(e, "semiaxes", g.semiaxes, 3, ew);
        double c[5];
        numbers_at(e, "coef", c, 5, ew);
        g.blunt_drag = c[0], g.slender_drag = c[1], g.ang_drag = c[2], g.kutta_lift = c[3], g.magnus_lift = c[4];
        numbers_at(e, "virtualMass", g.virtual_mass, 3, ew);
        numbers_at(e, "virtualInertia", g.virtual_inertia, 3, ew);
        b.ellipsoids.push_back(g);
      }
    }
    fl.bodies.push_back(std::move(b));
  }
}

/// An MJCF sensor's frame {link, pos, quat}.
template <class V>
MjcfSensorFrame read_sensor_frame(const V& o, const std::string& where) {
  if (!o.is_object()) type_error(where + " must be an object {link, pos, quat}");
  MjcfSensorFrame f;
  f.link = static_cast<int>(number_at(o, "link", where));
  numbers_at(o, "pos", f.pos, 3, where);
  numbers_at(o, "quat", f.quat, 4, where);
  return f;
}

/// MuJoCo's sensors of an imported MJCF model (optional): mjcfSensors [{type, adr, dim, datatype,
/// cutoff, terms?: [{index, coef}], actuator?, obj?, ref?, links?}], mjcfSensorsDisabled?.
template <class V>
void read_mjcf_sensors(const V& m, Model& model, const std::string& root) {
  const V arr = m.get("mjcfSensors");
  if (arr.is_undefined()) return;
  if (!arr.is_array()) type_error(root + ".mjcfSensors must be an array");
  static const std::pair<const char*, MjcfSensorType> kTypes[] = {{"jointpos", MjcfSensorType::JointPos},
                                                                  {"jointvel", MjcfSensorType::JointVel},
                                                                  {"actuatorpos", MjcfSensorType::ActuatorPos},
                                                                  {"actuatorvel", MjcfSensorType::ActuatorVel},
                                                                  {"actuatorfrc", MjcfSensorType::ActuatorFrc},
                                                                  {"framepos", MjcfSensorType::FramePos},
                                                                  {"framequat", MjcfSensorType::FrameQuat},
                                                                  {"framexaxis", MjcfSensorType::FrameXAxis},
                                                                  {"frameyaxis", MjcfSensorType::FrameYAxis},
                                                                  {"framezaxis", MjcfSensorType::FrameZAxis},
                                                                  {"framelinvel", MjcfSensorType::FrameLinVel},
                                                                  {"frameangvel", MjcfSensorType::FrameAngVel},
                                                                  {"subtreecom", MjcfSensorType::SubtreeCom},
                                                                  {"gyro", MjcfSensorType::Gyro},
                                                                  {"velocimeter", MjcfSensorType::Velocimeter},
                                                                  {"accelerometer", MjcfSensorType::Accelerometer},
                                                                  {"force", MjcfSensorType::Force},
                                                                  {"torque", MjcfSensorType::Torque},
                                                                  {"touch", MjcfSensorType::Touch}};
  const int nlinks = static_cast<int>(model.joints.size());
  for (std::size_t i = 0; i < arr.length(); ++i) {
    const std::string where = root + ".mjcfSensors[" + std::to_string(i) + "]";
    const V o = object_at(arr, i, where);
    MjcfSensor s;
    const V t = o.get("type");
    if (!t.is_string()) type_error(where + ".type must be a string");
    bool known = false;
    for (const auto& [name, type] : kTypes)
      if (t.string() == name) s.type = type, known = true;
    if (!known) type_error(where + ".type: an MJCF sensor type the engine does not evaluate ('" + t.string() + "')");
    const V dt = o.get("datatype");
    const std::string d = dt.is_string() ? dt.string() : "";
    s.datatype = d == "positive"     ? MjcfSensorData::Positive
                 : d == "axis"       ? MjcfSensorData::Axis
                 : d == "quaternion" ? MjcfSensorData::Quaternion
                                     : MjcfSensorData::Real;
    s.adr = static_cast<int>(number_at(o, "adr", where));
    s.dim = static_cast<int>(number_at(o, "dim", where));
    s.cutoff = number_at(o, "cutoff", where);
    if (s.adr != model.nsensordata || s.dim < 1 || s.dim > 4) type_error(where + ": adr and dim must follow the previous sensor's (dim 1 to 4)");
    model.nsensordata += s.dim;
    const V terms = o.get("terms");
    if (terms.is_array())
      for (std::size_t k = 0; k < terms.length(); ++k) {
        const std::string tw = where + ".terms[" + std::to_string(k) + "]";
        const V e = object_at(terms, k, tw);
        s.term_index.push_back(static_cast<int>(number_at(e, "index", tw)));
        s.term_coef.push_back(number_at(e, "coef", tw));
      }
    const V act = o.get("actuator");
    if (!act.is_undefined()) s.actuator = static_cast<int>(number_at(o, "actuator", where));
    const V obj = o.get("obj");
    if (!obj.is_undefined()) s.obj = read_sensor_frame(obj, where + ".obj");
    const V ref = o.get("ref");
    if (!ref.is_undefined()) s.ref = read_sensor_frame(ref, where + ".ref"), s.has_ref = true;
    const V links = o.get("links");
    if (links.is_array())
      for (std::size_t k = 0; k < links.length(); ++k) {
        const V e = links.at(k);
        if (!e.is_number() || e.number() < 0 || e.number() >= nlinks) type_error(where + ".links must be link indices");
        s.links.push_back(static_cast<int>(e.number()));
      }
    for (int l : {s.obj.link, s.ref.link})
      if (l < -1 || l >= nlinks) type_error(where + ": a frame's link out of range");
    model.mjcf_sensors.push_back(std::move(s));
  }
  const V off = m.get("mjcfSensorsDisabled");
  model.mjcf_sensors_disabled = off.is_boolean() && off.boolean();
}

/// The native model from the object batch.ts builds (`toNativeModel`). `root` names the object in
/// errors ("model": the Node addon's messages; the Python package passes where the object sits).
template <class V>
Model read_model(const V& m, const std::string& root = "model") {
  Model model;
  numbers_at(m, "gravity", model.gravity, 3, root);
  read_bodies(m, model, root);
  read_solver(m, model, root);
  read_shapes(m, model, root);
  const V multiccd = m.get("multiccd");
  if (!multiccd.is_undefined() && !multiccd.is_boolean()) type_error(root + ".multiccd must be a boolean");
  model.multiccd = !multiccd.is_boolean() || multiccd.boolean();
  read_actuators(m, model, root);
  read_tendons(m, model, root);
  read_equalities(m, model, root);
  read_fluid(m, model, root);
  read_mjcf_sensors(m, model, root);
  model.finalize();
  for (std::size_t i = 0; i < model.mjcf_sensors.size(); ++i) { // indices into q, v and the actuators, once finalize made nq and nv
    const MjcfSensor& s = model.mjcf_sensors[i];
    const bool on_q = s.type == MjcfSensorType::JointPos || s.type == MjcfSensorType::ActuatorPos;
    for (int k : s.term_index)
      if (k < 0 || k >= (on_q ? model.nq : model.nv)) type_error(root + ".mjcfSensors[" + std::to_string(i) + "].terms: an index out of range");
    if (s.type == MjcfSensorType::ActuatorFrc && (s.actuator < 0 || s.actuator >= static_cast<int>(model.actuators.size())))
      type_error(root + ".mjcfSensors[" + std::to_string(i) + "].actuator out of range");
  }
  return model;
}

/// The batch options {precision, lanes, copies, integrator, dt, substeps, midpointIterations, threads, record?}.
template <class V>
BatchOptions read_options(const V& o) {
  BatchOptions opt;
  auto str = [&](const char* key) {
    const V v = o.get(key);
    if (!v.is_string()) type_error(std::string("options.") + key + " must be a string");
    return v.string();
  };
  const std::string prec = str("precision");
  if (prec != "f32" && prec != "f64") type_error("precision must be f32 or f64 (got '" + prec + "')");
  opt.precision = prec == "f32" ? Precision::F32 : Precision::F64;
  opt.lanes = static_cast<int>(number_at(o, "lanes", "options"));
  opt.copies = static_cast<int>(number_at(o, "copies", "options"));
  const std::string integ = str("integrator");
  if (integ == "euler")
    opt.integrator = Integrator::Euler;
  else if (integ == "verlet")
    opt.integrator = Integrator::Verlet;
  else if (integ == "midpoint")
    opt.integrator = Integrator::Midpoint;
  else if (integ == "rk4")
    opt.integrator = Integrator::Rk4;
  else if (integ == "implicitfast")
    opt.integrator = Integrator::ImplicitFast;
  else
    type_error("integrator must be euler, verlet, midpoint, rk4 or implicitfast (got '" + integ + "')");
  opt.dt = number_at(o, "dt", "options");
  opt.substeps = static_cast<int>(number_at(o, "substeps", "options"));
  opt.midpoint_iterations = static_cast<int>(number_at(o, "midpointIterations", "options"));
  opt.threads = static_cast<int>(number_at(o, "threads", "options"));
  const V record = o.get("record"); // optional: absent or false leaves it off
  if (!record.is_undefined() && !record.is_boolean()) type_error("options.record must be a boolean");
  opt.record = record.is_boolean() && record.boolean();
  return opt;
}

} // namespace ach::binding
