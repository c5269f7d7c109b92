// The constraint tables: every per-pair and per-limit constant of MuJoCo's soft constraints,
// derived once at load in double (engine_core_constraint.c getsolparam, mj_makeImpedance,
// mj_diagApprox; engine_collision_driver.c mj_contactParam) and rounded to the kernel's scalar.
//
//   solref (tc, dr) standard:  K = 1/(dmax²·tc²·dr²),  B = 2/(dmax·tc),  tc ← max(tc, 2·h)
//   solref (−k, −b) direct:    K = k/dmax²,            B = b/dmax
//   imp(r) = dmin + y(|r|/width)·(dmax − dmin),  y(x) = x^p/mid^(p−1) (x ≤ mid), 1 − (1−x)^p/(1−mid)^(p−1)
//   R = max(1e-15, (1 − imp)/imp · diagA),  D = 1/R,  a_ref = −B·(J v) − K·imp·(dist − margin)
//   pyramid: diagA = tran·(1 + μ²); R_py = 2·μ'²·R with μ' = μ·√(1/impratio) (as MuJoCo: μ·√(R1/R0))
//   elliptic: diagA = tran; R_0 from it, R_1 = R_0/impratio, R_j+1 = R_1·μ²/μ_j² (contact/cone.hpp)
//   joint limit / dry friction: diagA = dof_invweight0;  tendon limit / friction: diagA = tendon_invweight0
#pragma once

#include "../isa_namespace.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "../bugs.hpp"
#include "../collision/pair_filter.hpp"
#include "../collision/pair_points.hpp"
#include "../model.hpp"
#include "contact_param.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

constexpr double kMinVal = 1e-15; // mjMINVAL
/// The most dofs the Newton solver takes: its Hessian is dense (nv² per lane, factored in O(nv³));
/// a model with more runs CG, which reaches the same optimum (the TS layer says so to the user).
constexpr int kNewtonMaxDofs = 64;
/// The constraint solvers (MuJoCo's mjtSolver): constraint/solver/solve.hpp runs the one a model's
/// KConstraints::method names.
enum class SolverMethod { cg, newton, pgs };

/// The solver a model runs, chosen here only: the one its option asks for, except that Newton on a
/// model of more than kNewtonMaxDofs dofs runs CG (src/engine/model-desc.ts solverRun tells the user
/// so). PGS past kNewtonMaxDofs is refused at load (finalize_constraints).
inline SolverMethod solver_method(const Model& m) {
  if (m.solver_pgs) return SolverMethod::pgs;
  if (m.solver_newton && m.nv <= kNewtonMaxDofs) return SolverMethod::newton;
  return SolverMethod::cg;
}

constexpr double kMinMu = 1e-5; // mjMINMU: the smallest friction coefficient a contact gets
constexpr double kMinImp = 1e-4, kMaxImp = 0.9999;

/// A contact's friction coefficient from its two geoms' (mj_contactParam's: the higher-priority geom's,
/// or the max at equal priorities, `side` as contact_param.hpp priority_side), raised to mjMINMU by
/// mj_assignFriction so a friction-0 pair keeps a finite pyramid. One definition for the model's
/// constants and each lane's (contact/lane_constraints.hpp).
inline double pair_friction(int side, double a, double b) { return std::fmax(kMinMu, side_friction(side, a, b)); }

/// A contact's diagA (mj_diagApprox) from its bodies' translational weight: the pyramid's first edge
/// pair tran·(1 + μ²), or tran for condim 1 and the elliptic cone.
inline double pair_diagA(double tran, double mu, bool frictionless_or_elliptic) { return frictionless_or_elliptic ? tran : tran + mu * mu * tran; }

/// A soft row's R = max(mjMINVAL, (1 − imp)/imp · diagA) at a constant impedance (dry friction's).
inline double constant_imp_R(double imp, double diagA) { return std::fmax(kMinVal, (1 - imp) * diagA / imp); }

/// MuJoCo's solimp after getsolparam's clamps, with the sigmoid's two coefficients.
template <class T>
struct KImpedance {
  bool flat; // dmin == dmax or width <= mjMINVAL: imp = (dmin + dmax)/2 everywhere
  T flat_value;
  T dmin, dmax, span, width, mid;
  int power; // a whole number >= 1 (checked at load)
  T a, b;    // 1/mid^(p−1), 1/(1−mid)^(p−1)
};

/// K and B of one solref (MuJoCo's KBIP[0], KBIP[1]).
struct SoftRef {
  double K, B;
};

inline double mj_power(double a, int p) { return p == 1 ? a : p == 2 ? a * a : std::pow(a, p); }

template <class T>
inline KImpedance<T> make_impedance(const double* solimp_in) {
  double s[5] = {solimp_in[0], solimp_in[1], solimp_in[2], solimp_in[3], solimp_in[4]};
  s[0] = std::fmin(kMaxImp, std::fmax(kMinImp, s[0]));
  s[1] = std::fmin(kMaxImp, std::fmax(kMinImp, s[1]));
  s[2] = std::fmax(0.0, s[2]);
  s[3] = std::fmin(kMaxImp, std::fmax(kMinImp, s[3]));
  s[4] = std::fmax(1.0, s[4]);
  KImpedance<T> k{};
  k.flat = s[0] == s[1] || s[2] <= kMinVal;
  k.flat_value = T(0.5 * (s[0] + s[1]));
  k.dmin = T(s[0]);
  k.dmax = T(s[1]);
  k.span = T(s[1] - s[0]);
  k.width = T(s[2]);
  k.mid = T(s[3]);
  k.power = static_cast<int>(s[4]);
  k.a = T(1 / mj_power(s[3], k.power - 1));
  k.b = T(1 / mj_power(1 - s[3], k.power - 1));
  return k;
}

/// K, B from solref (getsolparam's refsafe clamp with step h, then mj_makeImpedance) and solimp's dmax.
inline SoftRef make_softref(const double* solref_in, const double* solimp, double h) {
  double ref[2] = {solref_in[0], solref_in[1]};
  if (ref[0] > 0) ref[0] = std::fmax(ref[0], 2 * h);
  const double dmax = std::fmin(kMaxImp, std::fmax(kMinImp, solimp[1]));
  SoftRef r{};
  r.K = ref[0] > 0 ? 1 / std::fmax(kMinVal, dmax * dmax * ref[0] * ref[0] * ref[1] * ref[1]) : -ref[0] / std::fmax(kMinVal, dmax * dmax);
  r.B = ref[1] > 0 ? 2 / std::fmax(kMinVal, dmax * ref[0]) : -ref[1] / std::fmax(kMinVal, dmax);
  return r;
}

/// One candidate pair's contact constants (MuJoCo's mj_contactParam, contact_param.hpp).
template <class T>
struct KContactPair {
  int body_a, body_b; // joint (= body) indices, −1 for the world
  int shape_a, shape_b;
  int tree_a, tree_b;   // the kinematic trees of the two bodies (−1: static)
  int condim;           // 1, 3, 4 or 6
  int side;             // whose frictions: +1 shape a's, −1 shape b's (higher priority), 0 the max of both
  int points;           // point slots (collision/pair_points.hpp pair_point_slots): 4, or kPairPoints with multiccd
  int rows;             // constraint rows per contact point: 1 (condim 1), the pyramid's 2(condim − 1) or the cone's condim
  bool elliptic;        // condim > 1 under the elliptic cone (rows J_n, J_t1, J_t2, J_spin, J_roll1, J_roll2)
  bool mj_swap;         // MuJoCo orders this pair's geoms b, a (normal and frame flip)
  int capsule_on_plane; // −1, or the capsule shape whose axis MuJoCo takes as the first tangent
  int box_on_plane;     // −1, or the box shape of a plane–box pair (mjc_PlaneBox lists its corners in index order)
  T mu;                 // the pair's sliding friction (MuJoCo's contact friction[0] = friction[1])
  T mu_spin, mu_roll;   // its torsional and rolling frictions (friction[2], friction[3] = friction[4])
  T margin;             // includemargin = margin_a + margin_b
  T K, B;
  KImpedance<T> imp;
  T diagA; // tran·(1 + μ²) (pyramid: its first edge pair's, from which every edge's R is made) or tran (frictionless, elliptic)
  T impratio;
};

/// One fixed tendon's terms (contact/tendon.hpp): L = Σ coef_k·q[qadr_k], J·x = Σ coef_k·x[dof_k].
template <class T>
struct KTendon {
  std::vector<int> qadr, dof;
  std::vector<T> coef;
};

/// J·x of a tendon (its length when x = q read at qadr, its velocity when x = q̇).
template <class V>
inline V tendon_dot(const KTendon<ScalarOf<V>>& t, const V* x) {
  V s = V(t.coef[0]) * x[t.dof[0]];
  for (std::size_t k = 1; k < t.dof.size(); ++k) s += V(t.coef[k]) * x[t.dof[k]];
  return s;
}
template <class V>
inline V tendon_length(const KTendon<ScalarOf<V>>& t, const V* q) {
  V s = V(t.coef[0]) * q[t.qadr[0]];
  for (std::size_t k = 1; k < t.qadr.size(); ++k) s += V(t.coef[k]) * q[t.qadr[k]];
  return s;
}
/// qfrc += Jᵀ·f of a tendon.
template <class V>
inline void tendon_add(const KTendon<ScalarOf<V>>& t, const V& f, V* qfrc) {
  for (std::size_t k = 0; k < t.dof.size(); ++k) qfrc[t.dof[k]] += V(t.coef[k]) * f;
}

template <class T>
inline KTendon<T> make_ktendon(const Model& m, const Tendon& t) {
  KTendon<T> k;
  for (std::size_t i = 0; i < t.joints.size(); ++i) {
    const Joint& j = m.joints[t.joints[i]];
    k.qadr.push_back(j.qoff);
    k.dof.push_back(j.voff);
    k.coef.push_back(T(t.coefs[i]));
  }
  return k;
}

/// One limited joint's (tendon < 0) or tendon's constants (both sides share them).
template <class T>
struct KLimit {
  int tendon; // −1: a joint limit (joint, dof, qadr); else the tendon's index (J = its moment)
  int joint, dof, qadr;
  bool ball; // a ball joint's cone: one row (side 0), dist = hi − angle, J = −u on its 3 dofs (contact/ball_limit.hpp)
  T lo, hi, margin, K, B;
  KImpedance<T> imp;
  T diagA; // dof_invweight0 (a tendon's: tendon_invweight0)
};

/// A KLimit's constants from its spec at timestep h: range, margin, K and B (solref), impedance (solimp), diagA.
template <class T>
inline void set_limit_constants(KLimit<T>& l, const LimitSpec& s, double h, double diagA) {
  l.lo = T(s.range[0]);
  l.hi = T(s.range[1]);
  l.margin = T(s.margin);
  const SoftRef r = make_softref(s.solref, s.solimp, h);
  l.K = T(r.K);
  l.B = T(r.B);
  l.imp = make_impedance<T>(s.solimp);
  l.diagA = T(diagA);
}

inline int mj_geom_rank(ShapeKind k) {
  switch (k) {
    case ShapeKind::Plane:
      return 0;
    case ShapeKind::Sphere:
      return 2;
    case ShapeKind::Capsule:
      return 3;
    case ShapeKind::Ellipsoid:
      return 4;
    case ShapeKind::Cylinder:
      return 5;
    case ShapeKind::Box:
    case ShapeKind::RoundedBox:
      return 6;
    case ShapeKind::Convex:
      return 7; // mjGEOM_MESH
  }
  return 6;
}

/// One dof's dry friction row (MuJoCo's mjCNSTR_FRICTION_DOF): J = e_dof, dist = margin = 0, K = 0,
/// so aref = −B·v; imp = getimpedance at 0 (dmin); R from dof_invweight0; force clamped to ±frictionloss.
template <class T>
struct KFriction {
  int tendon; // −1: a dof's friction; else the tendon's index (J = its moment, R from tendon_invweight0)
  int joint, dof;
  T floss, B, imp, R;
  double imp0; // imp before rounding: R is made from it (per lane too: contact/lane_constraints.hpp)
};

/// One active equality constraint's constants (contact/equality_spec.hpp; rows in equality.hpp).
template <class T>
struct KEquality {
  EqualityType type;
  int index;        // in Model::equalities (MuJoCo's efc_id)
  int row;          // its first row slot
  int rows;         // 3, 6 or 1
  int body1, body2; // connect, weld: −1 for the world
  int tree1, tree2; // the trees of its bodies or joints (−1: static)
  T p1[3], p2[3], Q1[9], Q2[9], torquescale;
  int dof1, dof2, qadr1, qadr2; // joint: dof2 = qadr2 = −1 without joint 2
  T poly[5], ref1, ref2;
  T K, B;
  KImpedance<T> imp;
  T diagA_tran, diagA_rot; // joint: diagA_tran = dof_invweight0 of joint 1 (+ joint 2)
};

/// Constraint rows per contact point of condim 1, 3, 4 or 6: the frictionless row, the pyramid's
/// pair of edges J_n ± μ_k·J_k per friction direction k, or the elliptic cone's J_n then one row per
/// friction direction (MuJoCo's mj_instantiateContact).
inline int contact_point_rows(int condim, bool elliptic = false) { return condim == 1 ? 1 : elliptic ? condim : 2 * (condim - 1); }
constexpr int kMaxPointRows = 10; // condim 6

template <class T>
struct KConstraints {
  std::vector<ContactShape> shapes; // per shape: what its contact pairs' constants are made of
  std::vector<KLimit<T>> limits;
  std::vector<KFriction<T>> frictions;
  std::vector<KTendon<T>> tendons;      // every tendon of the model (limit and friction rows refer to them)
  std::vector<KEquality<T>> equalities; // the active equality constraints, in model order (their rows come first)
  int equality_rows = 0;                // 3 per connect, 6 per weld, 1 per joint coupling
  bool equality_bodies = false;         // a connect or weld: rows build J̇·v from the bodies' bias accelerations
  int friction_rows = 0; // 1 per dof with frictionloss > 0, then 1 per tendon with frictionloss > 0 (first in the row order, as MuJoCo)
  int iterations = 20;
  double tolerance = 0;
  SolverMethod method = SolverMethod::cg; // the solver that runs (solver_method)
  int noslip_iterations = 0;              // MuJoCo's noslip post-solve (noslip.hpp): its most sweeps, 0 for none
  double noslip_tolerance = 0;            // and its tolerance on the scaled improvement
  bool dual = false;                      // PGS or noslip: the dual problem's AR = J M⁻¹ Jᵀ + R is formed per lane (pgs.hpp dual_prepare)
  bool dense = false;                     // Newton or a dual solve: the used rows' dense J is formed (newton_prepare), so rows list their dofs
  double meaninertia = 1;                 // PGS's improvement scale 1/(meaninertia·nv)
  int limit_rows = 0;                     // 2 per limited joint, then 2 per limited tendon
  // Islands (MuJoCo's default since 3.3.6): kinematic trees with dofs, joined per lane by the rows
  // that are on; the solver's scalars (line search, β) are per island.
  int ntrees = 0;
  std::vector<int> tree_of_dof;               // nv
  std::vector<int> tree_dof_start, tree_dofs; // per tree its dofs, ascending (tree_dofs[tree_dof_start[t] ..])
  std::vector<int> tree_of_joint;             // per joint (−1: a static subtree)
  std::vector<int> row_tree_a, row_tree_b;    // per friction and limit row slot: the trees it touches (−1: none)
  double h = 0, impratio = 1;
  bool elliptic = false;   // MuJoCo's cone="elliptic" (Model::cone_elliptic)
  int point_rows_max = 4;  // the most rows a contact point can have (row slots are carved for it; at least condim 3's 4)
  int pair_points_max = 4; // the most point slots a contact pair can have (pair_point_slots over the model's shape kinds)
  std::vector<double> body_invweight0;
  bool enabled = false;

  KConstraints(const Model& m, double h)
      : iterations(m.solver_iterations),
        tolerance(m.solver_tolerance),
        method(solver_method(m)),
        noslip_iterations(m.noslip_iterations),
        noslip_tolerance(m.noslip_tolerance),
        dual(method == SolverMethod::pgs || noslip_iterations > 0),
        dense(method == SolverMethod::newton || dual),
        meaninertia(m.meaninertia),
        h(h),
        impratio(m.impratio),
        elliptic(m.cone_elliptic),
        body_invweight0(m.body_invweight0) {
    enabled = m.constrained();
    if (!enabled) return;
    // trees: each root's subtree, numbered in root order; a tree without dofs is static (−1)
    std::vector<int> root(m.joints.size()), tree_of_root(m.joints.size(), -1), dofs_of_root(m.joints.size(), 0);
    for (std::size_t i = 0; i < m.joints.size(); ++i) {
      root[i] = m.joints[i].parent < 0 ? static_cast<int>(i) : root[m.joints[i].parent];
      dofs_of_root[root[i]] += m.joints[i].nv;
    }
    tree_of_joint.assign(m.joints.size(), -1);
    for (std::size_t i = 0; i < m.joints.size(); ++i) {
      const int r = root[i];
      if (dofs_of_root[r] == 0) continue;
      if (tree_of_root[r] < 0) tree_of_root[r] = ntrees++;
      tree_of_joint[i] = tree_of_root[r];
    }
    tree_of_dof.assign(m.nv, -1);
    for (std::size_t i = 0; i < m.joints.size(); ++i)
      for (int k = 0; k < m.joints[i].nv; ++k) tree_of_dof[m.joints[i].voff + k] = tree_of_joint[i];
    tree_dof_start.assign(ntrees + 1, 0);
    for (int k = 0; k < m.nv; ++k)
      if (tree_of_dof[k] >= 0) ++tree_dof_start[tree_of_dof[k] + 1];
    for (int t = 0; t < ntrees; ++t) tree_dof_start[t + 1] += tree_dof_start[t];
    tree_dofs.assign(tree_dof_start[ntrees], 0);
    std::vector<int> fill(tree_dof_start.begin(), tree_dof_start.end() - 1);
    for (int k = 0; k < m.nv; ++k)
      if (tree_of_dof[k] >= 0) tree_dofs[fill[tree_of_dof[k]]++] = k;
    list_equalities(m);
    for (std::size_t i = 0; i < m.joints.size(); ++i) {
      const Joint& j = m.joints[i];
      if (!(j.frictionloss > 0)) continue;
      // MuJoCo's solreffriction/solimpfriction defaults
      const double solref[2] = {0.02, 1}, solimp[5] = {0.9, 0.95, 0.001, 0.5, 2};
      const SoftRef r = make_softref(solref, solimp, h);
      const KImpedance<double> imp = make_impedance<double>(solimp);
      const double im = imp.flat ? imp.flat_value : imp.dmin; // getimpedance at pos − margin = 0
      for (int k = 0; k < j.nv; ++k) {
        KFriction<T> f{};
        f.tendon = -1;
        f.joint = static_cast<int>(i);
        f.dof = j.voff + k;
        f.floss = T(j.frictionloss);
        f.B = T(r.B);
        f.imp = T(im);
        f.imp0 = im;
        f.R = T(constant_imp_R(im, m.dof_invweight0[j.voff + k]));
        frictions.push_back(f);
        row_tree_a.push_back(tree_of_joint[i]), row_tree_b.push_back(-1);
        ++friction_rows;
      }
    }
    for (const Tendon& t : m.tendons) tendons.push_back(make_ktendon<T>(m, t));
    // a tendon's rows touch the trees of its joints (at most two, checked at load)
    auto tendon_trees = [&](const Tendon& t) {
      int ta = -1, tb = -1;
      for (int j : t.joints) {
        const int tr = tree_of_joint[j];
        if (tr < 0 || tr == ta || tr == tb) continue;
        if (ta < 0)
          ta = tr;
        else
          tb = tr;
      }
      return std::pair<int, int>{ta, tb};
    };
    for (std::size_t i = 0; i < m.tendons.size(); ++i) {
      const Tendon& t = m.tendons[i];
      if (!(t.frictionloss > 0)) continue;
      // MuJoCo's solreffriction/solimpfriction defaults, as the dofs' rows
      const double solref[2] = {0.02, 1}, solimp[5] = {0.9, 0.95, 0.001, 0.5, 2};
      const SoftRef r = make_softref(solref, solimp, h);
      const KImpedance<double> imp = make_impedance<double>(solimp);
      const double im = imp.flat ? imp.flat_value : imp.dmin;
      KFriction<T> f{};
      f.tendon = static_cast<int>(i);
      f.joint = -1;
      f.dof = -1;
      f.floss = T(t.frictionloss);
      f.B = T(r.B);
      f.imp = T(im);
      f.imp0 = im;
      f.R = T(constant_imp_R(im, m.tendon_invweight0[i]));
      frictions.push_back(f);
      const auto [ta, tb] = tendon_trees(t);
      row_tree_a.push_back(ta), row_tree_b.push_back(tb);
      ++friction_rows;
    }
    for (const Joint& j : m.joints) {
      if (!j.limit.limited) continue;
      const int t = tree_of_joint[&j - m.joints.data()];
      for (int side = 0; side < 2; ++side) row_tree_a.push_back(t), row_tree_b.push_back(-1);
    }
    for (const Tendon& t : m.tendons) {
      if (!t.limit.limited) continue;
      const auto [ta, tb] = tendon_trees(t);
      for (int side = 0; side < 2; ++side) row_tree_a.push_back(ta), row_tree_b.push_back(tb);
    }
    for (const Shape& sh : m.shapes) {
      ContactShape c{};
      c.body = sh.body;
      c.kind = sh.kind;
      c.condim = sh.condim;
      c.priority = sh.priority;
      c.solmix = sh.solmix;
      c.friction = sh.friction;
      c.torsion = sh.torsion;
      c.rolling = sh.rolling;
      point_rows_max = std::max(point_rows_max, contact_point_rows(sh.condim, elliptic));
      if (sh.kind == ShapeKind::Cylinder || sh.kind == ShapeKind::Convex) pair_points_max = kPairPoints;
      c.margin = sh.margin;
      for (int e = 0; e < 2; ++e) c.solref[e] = sh.solref[e];
      for (int e = 0; e < 5; ++e) c.solimp[e] = sh.solimp[e];
      shapes.push_back(c);
    }
    for (std::size_t i = 0; i < m.joints.size(); ++i) {
      const Joint& j = m.joints[i];
      if (!j.limit.limited) continue;
      KLimit<T> l{};
      l.tendon = -1;
      l.joint = static_cast<int>(i);
      l.dof = j.voff;
      l.qadr = j.qoff;
      l.ball = j.type == JointType::Ball;
      set_limit_constants(l, j.limit, h, m.dof_invweight0[j.voff]);
      if (l.ball) l.hi = T(std::fmax(j.limit.range[0], j.limit.range[1])); // the cone: max(range) on the angle
      limits.push_back(l);
      limit_rows += 2;
    }
    for (std::size_t i = 0; i < m.tendons.size(); ++i) {
      const Tendon& t = m.tendons[i];
      if (!t.limit.limited) continue;
      KLimit<T> l{};
      l.tendon = static_cast<int>(i);
      l.joint = l.dof = l.qadr = -1;
      set_limit_constants(l, t.limit, h, m.tendon_invweight0[i]); // mj_diagApprox: tendon_invweight0
      limits.push_back(l);
      limit_rows += 2;
    }
    if (dense) list_row_dofs(m);
    list_pair_constants(m);
  }

  /// The active equality constraints' constants (mj_makeImpedance's K, B and impedance; mj_diagApprox's
  /// diagA), with their row slots and trees; their rows come first (MuJoCo's mj_instantiateEquality).
  void list_equalities(const Model& m) {
    for (std::size_t i = 0; i < m.equalities.size(); ++i) {
      const Equality& e = m.equalities[i];
      if (!e.active) continue;
      KEquality<T> k{};
      k.type = e.type;
      k.index = static_cast<int>(i);
      k.row = equality_rows;
      k.rows = equality_rows_of(e.type);
      k.body1 = e.body1;
      k.body2 = e.body2;
      k.dof1 = k.dof2 = k.qadr1 = k.qadr2 = -1;
      for (int a = 0; a < 3; ++a) k.p1[a] = T(e.p1[a]), k.p2[a] = T(e.p2[a]);
      for (int a = 0; a < 9; ++a) k.Q1[a] = T(e.Q1[a]), k.Q2[a] = T(e.Q2[a]);
      k.torquescale = T(e.torquescale);
      for (int a = 0; a < 5; ++a) k.poly[a] = T(e.polycoef[a]);
      k.ref1 = T(e.ref1);
      k.ref2 = T(e.ref2);
      const SoftRef r = make_softref(e.solref, e.solimp, h);
      k.K = T(r.K);
      k.B = T(r.B);
      k.imp = make_impedance<T>(e.solimp);
      if (e.type == EqualityType::Joint) {
        const Joint& j1 = m.joints[e.joint1];
        k.dof1 = j1.voff, k.qadr1 = j1.qoff;
        double dA = m.dof_invweight0[j1.voff];
        k.tree1 = tree_of_joint[e.joint1];
        k.tree2 = -1;
        if (e.joint2 >= 0) {
          const Joint& j2 = m.joints[e.joint2];
          k.dof2 = j2.voff, k.qadr2 = j2.qoff;
          dA += m.dof_invweight0[j2.voff];
          k.tree2 = tree_of_joint[e.joint2];
        }
        k.diagA_tran = k.diagA_rot = T(dA);
      } else {
        equality_bodies = true;
        k.tree1 = e.body1 >= 0 ? tree_of_joint[e.body1] : -1;
        k.tree2 = e.body2 >= 0 ? tree_of_joint[e.body2] : -1;
        auto iw = [&](int b, int part) { return b >= 0 ? m.body_invweight0[2 * b + part] : 0.0; };
        k.diagA_tran = T(iw(e.body1, 0) + iw(e.body2, 0));
        k.diagA_rot = T(iw(e.body1, 1) + iw(e.body2, 1));
      }
      if (k.tree1 == k.tree2) k.tree2 = -1;
      if (k.tree1 < 0) std::swap(k.tree1, k.tree2);
      for (int e2 = 0; e2 < k.rows; ++e2) row_tree_a.push_back(k.tree1), row_tree_b.push_back(k.tree2);
      equality_rows += k.rows;
      equalities.push_back(k);
    }
  }
  static int equality_rows_of(EqualityType t) { return ::ach::equality_rows(t); }

  // A model that lists its pairs (KCollision::listed) has each listed pair's constants made once
  // (and for Newton the dofs its rows touch), in the list's order.
  std::vector<KContactPair<T>> listed_pairs;
  std::vector<int> listed_dof_start, listed_dofs;

  void list_pair_constants(const Model& m) {
    std::vector<ShapePair> pairs;
    if (!ach::listed_pairs(m, pairs)) return;
    listed_dof_start.assign(1, 0);
    std::vector<int> d(m.nv > 0 ? m.nv : 1);
    for (const ShapePair& p : pairs) {
      listed_pairs.push_back(contact_pair(p.a, p.b));
      if (!dense) continue;
      const int n = contact_dofs(listed_pairs.back().body_a, listed_pairs.back().body_b, d.data());
      listed_dofs.insert(listed_dofs.end(), d.begin(), d.begin() + n);
      listed_dof_start.push_back(static_cast<int>(listed_dofs.size()));
    }
  }

  /// Shapes a < b's contact constants (MuJoCo's mj_contactParam: contact_param.hpp; the pair's
  /// mj_makeImpedance and mj_diagApprox terms), made when the broad phase finds the pair.
  KContactPair<T> contact_pair(int sa, int sb) const {
    const ContactShape& a = shapes[sa];
    const ContactShape& b = shapes[sb];
    // in MuJoCo's geom order (its pair swapped so type1 <= type2): the solmix weights' rounding follows it
    const bool mj_swap = mj_geom_rank(a.kind) > mj_geom_rank(b.kind);
    MixedSoft soft = mj_swap ? mix_contact_param(b, a) : mix_contact_param(a, b);
    if (mj_swap) soft.side = -soft.side;
    KContactPair<T> k{};
    k.body_a = a.body;
    k.body_b = b.body;
    k.shape_a = sa;
    k.shape_b = sb;
    k.tree_a = a.body < 0 ? -1 : tree_of_joint[a.body];
    k.tree_b = b.body < 0 ? -1 : tree_of_joint[b.body];
    k.condim = soft.condim;
    k.side = soft.side;
    k.elliptic = elliptic && k.condim > 1;
    k.rows = contact_point_rows(k.condim, elliptic);
    k.points = pair_point_slots(a.kind, b.kind);
    k.mj_swap = mj_swap;
    k.capsule_on_plane = a.kind == ShapeKind::Plane && b.kind == ShapeKind::Capsule   ? sb
                         : b.kind == ShapeKind::Plane && a.kind == ShapeKind::Capsule ? sa
                                                                                      : -1;
    k.box_on_plane = a.kind == ShapeKind::Plane && b.kind == ShapeKind::Box ? sb : b.kind == ShapeKind::Plane && a.kind == ShapeKind::Box ? sa : -1;
    // MuJoCo's mj_assignFriction (engine_core_constraint.c) raises each contact's friction to at least mjMINMU, so a
    // friction-0 pair keeps a finite pyramid (its edges' R = 2μ²R0/impratio would be 0)
    const double mu = pair_friction(k.side, a.friction, b.friction);
    k.mu = T(mu);
    k.mu_spin = T(pair_friction(k.side, a.torsion, b.torsion));
    k.mu_roll = T(pair_friction(k.side, a.rolling, b.rolling));
    k.margin = T(a.margin + b.margin); // getMargin: summed, whatever the priorities
    const double* solref = soft.solref;
    const double* solimp = soft.solimp;
    const SoftRef r = make_softref(solref, solimp, h);
    k.K = T(r.K);
    k.B = T(r.B);
    k.imp = make_impedance<T>(solimp);
    double tran = 0;
    if (a.body >= 0) tran += body_invweight0[2 * a.body];
    if (b.body >= 0) tran += body_invweight0[2 * b.body];
    k.diagA = T(pair_diagA(tran, mu, k.condim == 1 || k.elliptic));
    k.impratio = T(std::fmax(kMinVal, impratio));
    return k;
  }

  /// The dofs a contact between bodies a and b can move (their chains' union, ascending) into out;
  /// returns how many (the Newton Hessian's rows of that contact touch these only).
  int contact_dofs(int body_a, int body_b, int* out) const {
    const int* pa = body_a >= 0 ? chain_dofs.data() + chain_dof_start[body_a] : nullptr;
    const int* pb = body_b >= 0 ? chain_dofs.data() + chain_dof_start[body_b] : nullptr;
    const int na = body_a >= 0 ? chain_dof_start[body_a + 1] - chain_dof_start[body_a] : 0;
    const int nb = body_b >= 0 ? chain_dof_start[body_b + 1] - chain_dof_start[body_b] : 0;
    int i = 0, j = 0, n = 0;
    while (i < na || j < nb) {
      const int x = j >= nb || (i < na && pa[i] <= pb[j]) ? pa[i] : pb[j];
      if (i < na && pa[i] == x) ++i;
      if (j < nb && pb[j] == x) ++j;
      out[n++] = x;
    }
    return n;
  }

  // Per row slot, the dofs its J can touch, ascending (row_dofs[row_dof_start[r] ..]): the Newton
  // Hessian adds D·J_rᵀJ_r over these only (J is exactly 0 elsewhere). Per joint, the dofs that move
  // its body: its own and its ancestors', ascending (chain_dofs[chain_dof_start[i] ..]).
  std::vector<int> row_dof_start, row_dofs, chain_dof_start, chain_dofs;
  // MuJoCo's dof_parentid (the dof before each dof on its chain, −1 at a root), and whether every
  // row's dofs lie on one chain: then H = M + JᵀDJ has M's tree sparsity, and Newton factors it as
  // MuJoCo's mj_factorM does (LᵀDL along the chains, no fill-in) instead of densely
  std::vector<int> dof_parent;
  bool newton_tree = false;

 private:
  void list_row_dofs(const Model& m) {
    std::vector<int> d;
    auto chain = [&](int body) {
      for (int b = body; b >= 0; b = m.joints[b].parent)
        for (int k = 0; k < m.joints[b].nv; ++k) d.push_back(m.joints[b].voff + k);
    };
    auto add = [&](int times) {
      std::sort(d.begin(), d.end());
      d.erase(std::unique(d.begin(), d.end()), d.end());
      for (int e = 0; e < times; ++e) {
        row_dofs.insert(row_dofs.end(), d.begin(), d.end());
        row_dof_start.push_back(static_cast<int>(row_dofs.size()));
      }
      d.clear();
    };
    chain_dof_start.assign(1, 0);
    for (std::size_t i = 0; i < m.joints.size(); ++i) {
      chain(static_cast<int>(i));
      std::sort(d.begin(), d.end());
      chain_dofs.insert(chain_dofs.end(), d.begin(), d.end());
      chain_dof_start.push_back(static_cast<int>(chain_dofs.size()));
      d.clear();
    }
    dof_parent.assign(m.nv, -1);
    for (std::size_t i = 0; i < m.joints.size(); ++i) {
      const Joint& j = m.joints[i];
      int up = -1; // the last dof of the nearest ancestor with dofs
      for (int b = j.parent; b >= 0 && up < 0; b = m.joints[b].parent)
        if (m.joints[b].nv > 0) up = m.joints[b].voff + m.joints[b].nv - 1;
      for (int k = 0; k < j.nv; ++k) dof_parent[j.voff + k] = k == 0 ? up : j.voff + k - 1;
    }
    auto on_one_chain = [&](const int* d, int n) { // ascending: each dof an ancestor of the next
      for (int e = 1; e < n; ++e) {
        int a = dof_parent[d[e]];
        while (a > d[e - 1]) a = dof_parent[a];
        if (a != d[e - 1]) return false;
      }
      return true;
    };
    row_dof_start.assign(1, 0);
    for (const KEquality<T>& e : equalities) {
      if (e.type == EqualityType::Joint) {
        d.push_back(e.dof1);
        if (e.dof2 >= 0) d.push_back(e.dof2);
      } else {
        if (e.body1 >= 0) chain(e.body1);
        if (e.body2 >= 0) chain(e.body2);
      }
      add(e.rows);
    }
    for (const KFriction<T>& f : frictions) {
      if (f.tendon < 0)
        d.push_back(f.dof);
      else
        d = tendons[f.tendon].dof;
      add(1);
    }
    for (const KLimit<T>& l : limits) {
      if (l.tendon >= 0)
        d = tendons[l.tendon].dof;
      else
        for (int k = 0; k < (l.ball ? 3 : 1); ++k) d.push_back(l.dof + k);
      add(2);
    }
    newton_tree = true;
    for (std::size_t r = 0; r + 1 < row_dof_start.size() && newton_tree; ++r)
      newton_tree = on_one_chain(row_dofs.data() + row_dof_start[r], row_dof_start[r + 1] - row_dof_start[r]);
    // every pair of bodies whose shapes the filter lets touch (a contact's rows move both chains):
    // per pair of bodies, its shapes are scanned only until one pair is admitted
    const PairFilter filter(m);
    const int nb = static_cast<int>(m.joints.size());
    std::vector<std::vector<int>> shapes_of(nb + 1); // per body + 1 (0: the world)
    for (std::size_t k = 0; k < m.shapes.size(); ++k) shapes_of[m.shapes[k].body + 1].push_back(static_cast<int>(k));
    std::vector<int> dofs(m.nv > 0 ? m.nv : 1);
    for (int ba = -1; ba < nb && newton_tree; ++ba)
      for (int bb = ba + 1; bb < nb && newton_tree; ++bb) {
        bool touch = false;
        for (std::size_t x = 0; x < shapes_of[ba + 1].size() && !touch; ++x)
          for (std::size_t y = 0; y < shapes_of[bb + 1].size() && !touch; ++y) {
            const int a = shapes_of[ba + 1][x], b = shapes_of[bb + 1][y];
            touch = filter.admits(std::min(a, b), std::max(a, b));
          }
        if (touch) newton_tree = on_one_chain(dofs.data(), contact_dofs(ba, bb, dofs.data()));
      }
  }
};

/// imp(pos − margin) of MuJoCo's getimpedance, lane-wise.
template <class V>
inline V impedance(const KImpedance<ScalarOf<V>>& k, const V& pos, const V& margin) {
  using T = ScalarOf<V>;
  if (k.flat) return V(k.flat_value);
  const V x = vabs((pos - margin) / V(k.width));
  V y;
  if (k.power == 1) {
    y = x;
  } else {
    V xp = x, ux = V(T(1)) - x, up = ux;
    for (int e = 1; e < k.power; ++e) {
      xp = xp * x;
      up = up * ux;
    }
    y = vselect(x <= V(k.mid), V(k.a) * xp, V(T(1)) - V(k.b) * up);
  }
  V imp = V(k.dmin) + y * V(k.span);
  imp = vselect(x >= V(T(1)), V(k.dmax), imp);
  imp = vselect(x <= V(T(0)), V(k.dmin), imp);
  return imp;
}

} // namespace ACH_ISA_NS
} // namespace ach
