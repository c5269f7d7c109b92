// finalize_constraints: the constraint settings' checks and MuJoCo's inverse weights at qpos0
// (engine_setconst.c): body_invweight0 = the mean diagonal of A = J M⁻¹ Jᵀ for the body's
// Jacobian at its centre of mass (translation rows, then rotation rows), dof_invweight0 = the
// diagonal of M⁻¹ (averaged over a ball's 3 dofs and a free joint's translations and rotations).
// qpos0 is MuJoCo's: hinges and slides at their ref (Joint::ref, 0 unless given; the MJCF export
// writes it as the joint's ref), balls at the identity (our exporter puts the initial state in a
// keyframe), free joints anywhere (their weights do not depend on the pose).
#define ACH_ISA_NS isa_invweight
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "achilles/contact/tree.hpp"
#include "achilles/kernel_impl.hpp"

namespace ach {

bool Model::constrained() const {
  if (has_pairs) return true;
  for (const Joint& j : joints)
    if (j.limit.limited || j.frictionloss > 0) return true;
  for (const Tendon& t : tendons)
    if (t.limit.limited || t.frictionloss > 0) return true;
  for (const Equality& e : equalities)
    if (e.active) return true;
  return false;
}

namespace {

void check_solref(const double* s, const std::string& who) {
  if (!std::isfinite(s[0]) || !std::isfinite(s[1])) throw std::invalid_argument(who + ": solref must be finite");
  if ((s[0] > 0) != (s[1] > 0))
    throw std::invalid_argument(who + ": solref [" + std::to_string(s[0]) + ", " + std::to_string(s[1]) +
                                "] mixes the standard (timeconst, dampratio > 0) and direct (−stiffness, −damping) forms");
}
void check_solimp(const double* s, const std::string& who) {
  for (int e = 0; e < 5; ++e)
    if (!std::isfinite(s[e])) throw std::invalid_argument(who + ": solimp must be finite");
  const double p = std::fmax(1.0, s[4]);
  if (p != std::floor(p) || p > 16)
    throw std::invalid_argument(who + ": solimp power must be a whole number from 1 to 16 (got " + std::to_string(s[4]) + ")");
}

/// A joint's or tendon's limit: a finite range [lower, upper], margin >= 0, valid solref and solimp.
void check_limit(const LimitSpec& l, const std::string& who) {
  if (!std::isfinite(l.range[0]) || !std::isfinite(l.range[1]) || !(l.range[0] <= l.range[1]))
    throw std::invalid_argument(who + ": range must be two finite numbers [lower, upper] with lower <= upper");
  if (!(l.margin >= 0) || !std::isfinite(l.margin)) throw std::invalid_argument(who + ": limit margin must be finite and >= 0");
  check_solref(l.solref, who + " limit");
  check_solimp(l.solimp, who + " limit");
}

/// Fixed tendons: scalar joints, finite settings, and at most two kinematic trees per tendon (a
/// constraint row joins at most two trees into one island, see islands.hpp).
void check_tendons(const Model& m) {
  std::vector<int> root(m.joints.size());
  for (std::size_t i = 0; i < m.joints.size(); ++i) root[i] = m.joints[i].parent < 0 ? static_cast<int>(i) : root[m.joints[i].parent];
  for (const Tendon& t : m.tendons) {
    const std::string who = "tendon '" + t.name + "'";
    if (t.joints.empty() || t.joints.size() != t.coefs.size())
      throw std::invalid_argument(who + ": needs one coefficient per joint, and at least one joint");
    std::vector<int> trees;
    for (std::size_t k = 0; k < t.joints.size(); ++k) {
      const int j = t.joints[k];
      if (j < 0 || j >= static_cast<int>(m.joints.size()))
        throw std::invalid_argument(who + ": joint index " + std::to_string(j) + " is out of range");
      const Joint& J = m.joints[j];
      if (J.type != JointType::Revolute && J.type != JointType::Prismatic)
        throw std::invalid_argument(who + ": joint '" + J.name + "' is not revolute or prismatic (a fixed tendon couples scalar joint coordinates)");
      if (!std::isfinite(t.coefs[k])) throw std::invalid_argument(who + ": coef of joint '" + J.name + "' must be finite");
      bool seen = false;
      for (int r : trees) seen = seen || r == root[j];
      if (!seen) trees.push_back(root[j]);
    }
    if (trees.size() > 2)
      throw std::invalid_argument(who + ": couples joints of " + std::to_string(trees.size()) + " separate kinematic trees (at most 2 supported)");
    if (!(t.frictionloss >= 0) || !std::isfinite(t.frictionloss)) throw std::invalid_argument(who + ": frictionloss must be finite and >= 0");
    if (!(t.stiffness >= 0) || !std::isfinite(t.stiffness)) throw std::invalid_argument(who + ": stiffness must be finite and >= 0");
    if (!(t.damping >= 0) || !std::isfinite(t.damping)) throw std::invalid_argument(who + ": damping must be finite and >= 0");
    if (!std::isfinite(t.springlength[0]) || !std::isfinite(t.springlength[1]) || !(t.springlength[0] <= t.springlength[1]))
      throw std::invalid_argument(who + ": springlength must be two finite numbers [lower, upper] with lower <= upper");
    if (t.limit.limited) check_limit(t.limit, who);
  }
}

/// Equality constraints: valid bodies or scalar joints, finite settings, at most two trees per constraint.
void check_equalities(const Model& m) {
  const int n = static_cast<int>(m.joints.size());
  std::vector<int> root(n), dofs(n, 0);
  for (int i = 0; i < n; ++i) {
    root[i] = m.joints[i].parent < 0 ? i : root[m.joints[i].parent];
    dofs[root[i]] += m.joints[i].nv;
  }
  for (const Equality& e : m.equalities) {
    const std::string who = "equality '" + e.name + "'";
    check_solref(e.solref, who);
    check_solimp(e.solimp, who);
    auto finite = [&](const double* a, int k, const char* what) {
      for (int i = 0; i < k; ++i)
        if (!std::isfinite(a[i])) throw std::invalid_argument(who + ": " + what + " must be finite");
    };
    if (e.type == EqualityType::Joint) {
      for (int j : {e.joint1, e.joint2}) {
        if (j == e.joint2 && j < 0) continue;
        if (j < 0 || j >= n) throw std::invalid_argument(who + ": joint index " + std::to_string(j) + " is out of range");
        const JointType t = m.joints[j].type;
        if (t != JointType::Revolute && t != JointType::Prismatic)
          throw std::invalid_argument(who + ": joint '" + m.joints[j].name +
                                      "' is not revolute or prismatic (a joint equality couples scalar joints)");
      }
      finite(e.polycoef, 5, "polycoef");
      if (!std::isfinite(e.ref1) || !std::isfinite(e.ref2)) throw std::invalid_argument(who + ": joint references must be finite");
      continue;
    }
    for (int b : {e.body1, e.body2})
      if (b < -1 || b >= n) throw std::invalid_argument(who + ": body index " + std::to_string(b) + " is out of range");
    if (e.body1 == e.body2) throw std::invalid_argument(who + ": body1 and body2 are the same body");
    const bool moves1 = e.body1 >= 0 && dofs[root[e.body1]] > 0, moves2 = e.body2 >= 0 && dofs[root[e.body2]] > 0;
    if (!moves1 && !moves2) throw std::invalid_argument(who + ": neither body can move (the constraint has nothing to act on)");
    finite(e.p1, 3, "anchor");
    finite(e.p2, 3, "anchor");
    finite(e.Q1, 9, "relpose");
    finite(e.Q2, 9, "relpose");
    if (!std::isfinite(e.torquescale)) throw std::invalid_argument(who + ": torquescale must be finite");
  }
}

/// The model-wide constraint settings: the solver's, each shape's contact parameters, each joint's
/// friction, reference and limit, and what the dense per-lane solvers cannot take.
void check_settings(const Model& m) {
  if (m.solver_iterations < 0 || m.solver_iterations > 100000)
    throw std::invalid_argument("solver iterations must be an integer from 0 to 100000 (got " + std::to_string(m.solver_iterations) + ")");
  if (!(m.impratio > 0) || !std::isfinite(m.impratio)) throw std::invalid_argument("solver impratio must be a positive number");
  if (!(m.solver_tolerance >= 0) || !std::isfinite(m.solver_tolerance)) throw std::invalid_argument("solver tolerance must be a finite number >= 0");
  for (const Shape& s : m.shapes) {
    const std::string who = "shape '" + s.name + "'";
    if (s.condim != 1 && s.condim != 3 && s.condim != 4 && s.condim != 6)
      throw std::invalid_argument(who + ": condim must be 1, 3, 4 or 6 (got " + std::to_string(s.condim) + ")");
    check_solref(s.solref, who);
    check_solimp(s.solimp, who);
    if (!(s.friction >= 0) || !std::isfinite(s.friction)) throw std::invalid_argument(who + ": friction must be finite and >= 0");
    if (!(s.torsion >= 0) || !std::isfinite(s.torsion)) throw std::invalid_argument(who + ": torsional friction must be finite and >= 0");
    if (!(s.rolling >= 0) || !std::isfinite(s.rolling)) throw std::invalid_argument(who + ": rolling friction must be finite and >= 0");
    if (!(s.solmix >= 0) || !std::isfinite(s.solmix)) throw std::invalid_argument(who + ": solmix must be finite and >= 0");
  }
  for (const Joint& j : m.joints)
    if (!(j.frictionloss >= 0) || !std::isfinite(j.frictionloss))
      throw std::invalid_argument("joint '" + j.name + "': frictionloss must be finite and >= 0");
  for (const Joint& j : m.joints)
    if (!std::isfinite(j.ref)) throw std::invalid_argument("joint '" + j.name + "': ref must be finite");
  for (const Joint& j : m.joints) {
    if (!j.limit.limited) continue;
    const std::string who = "joint '" + j.name + "'";
    if (j.type != JointType::Revolute && j.type != JointType::Prismatic && j.type != JointType::Ball)
      throw std::invalid_argument(who + ": only revolute, prismatic and ball joints take a range");
    if (j.type == JointType::Ball && j.limit.range[0] != 0) // MuJoCo's compiler: "range[0] should be 0 in ball joint"
      throw std::invalid_argument(who + ": range[0] should be 0 in ball joint (the cone limit is max(range) on the rotation angle)");
    check_limit(j.limit, who);
  }
  if (m.solver_pgs && m.nv > isa_invweight::kNewtonMaxDofs)
    throw std::invalid_argument("solver PGS: the model has " + std::to_string(m.nv) +
                                " dofs; PGS forms the rows' dense J and AR = J M⁻¹ Jᵀ per lane, up to " +
                                std::to_string(isa_invweight::kNewtonMaxDofs) + " dofs (use CG or Newton)");
  if (m.noslip_iterations > 0 && m.nv > isa_invweight::kNewtonMaxDofs)
    throw std::invalid_argument("option noslip_iterations: the model has " + std::to_string(m.nv) +
                                " dofs; the noslip post-solve forms the rows' dense J and AR = J M⁻¹ Jᵀ per lane, up to " +
                                std::to_string(isa_invweight::kNewtonMaxDofs) + " dofs (use noslip_iterations 0)");
  if (m.solver_pgs && m.cone_elliptic) // constraint/solver/pgs.hpp projects onto the pyramid's edges only
    throw std::invalid_argument("solver PGS: the elliptic cone is not implemented for PGS (use the pyramidal cone, or CG or Newton)");
}

using namespace isa_invweight;

/// M⁻¹ at qpos0, by kinematic tree (each root's subtree): M, and so M⁻¹, is block-diagonal over
/// them, and a body's Jacobian is 0 off its own tree. One pass serves column s of every tree at once
/// (a unit force on each tree's s-th dof: trees do not touch in the ABA), so the work is the largest
/// tree's dofs × the bodies, and the memory Σ (tree dofs)², not nv².
struct TreeInverse {
  std::vector<int> tree_of_joint, tree_of_dof, slot_of_dof;
  std::vector<std::vector<int>> tree_dofs; // each tree's dofs, ascending
  std::vector<std::vector<double>> Minv;   // per tree its block of M⁻¹ (row-major over the tree's dofs)
  std::size_t widest = 0;

  /// (M⁻¹)_ab: 0 across trees
  double operator()(int a, int b) const {
    const int t = tree_of_dof[a];
    if (t != tree_of_dof[b]) return 0.0;
    return Minv[t][static_cast<std::size_t>(slot_of_dof[a]) * tree_dofs[t].size() + slot_of_dof[b]];
  }
  /// e = 1 on the s-th dof of every tree that has one
  void unit_forces(std::size_t s, std::vector<double>& e) const {
    e.assign(e.size(), 0.0);
    for (const auto& d : tree_dofs)
      if (s < d.size()) e[d[s]] = 1;
  }
};

TreeInverse inverse_mass_by_tree(const Model& m, KModel<double>& K, BlockScratch<double>& sc, const std::vector<double>& q,
                                 const std::vector<double>& zero, std::vector<double>& e) {
  const int nv = m.nv, n = static_cast<int>(m.joints.size());
  TreeInverse minv;
  minv.tree_of_joint.assign(n, -1), minv.tree_of_dof.assign(nv, -1), minv.slot_of_dof.assign(nv, -1);
  std::vector<int> root(n), dofs_of_root(n, 0), tree_of_root(n, -1);
  for (int i = 0; i < n; ++i) {
    root[i] = m.joints[i].parent < 0 ? i : root[m.joints[i].parent];
    dofs_of_root[root[i]] += m.joints[i].nv;
  }
  for (int i = 0; i < n; ++i) {
    const int r = root[i];
    if (dofs_of_root[r] == 0) continue; // a static subtree
    if (tree_of_root[r] < 0) tree_of_root[r] = static_cast<int>(minv.tree_dofs.size()), minv.tree_dofs.emplace_back();
    minv.tree_of_joint[i] = tree_of_root[r];
    for (int k = 0; k < m.joints[i].nv; ++k) minv.tree_of_dof[m.joints[i].voff + k] = minv.tree_of_joint[i];
  }
  for (int k = 0; k < nv; ++k) {
    std::vector<int>& d = minv.tree_dofs[minv.tree_of_dof[k]];
    minv.slot_of_dof[k] = static_cast<int>(d.size());
    d.push_back(k);
  }
  for (const auto& d : minv.tree_dofs) minv.widest = std::max(minv.widest, d.size());
  minv.Minv.resize(minv.tree_dofs.size());
  for (std::size_t t = 0; t < minv.tree_dofs.size(); ++t) minv.Minv[t].assign(minv.tree_dofs[t].size() * minv.tree_dofs[t].size(), 0.0);
  // columns of M⁻¹: the accelerations of unit forces, at rest and without gravity
  for (std::size_t s = 0; s < minv.widest; ++s) {
    minv.unit_forces(s, e);
    forward_dynamics(K, sc.s.W, q.data(), zero.data(), e.data(), sc.s.qacc);
    for (std::size_t t = 0; t < minv.tree_dofs.size(); ++t) {
      const std::vector<int>& d = minv.tree_dofs[t];
      if (s >= d.size()) continue;
      for (std::size_t r = 0; r < d.size(); ++r) minv.Minv[t][r * d.size() + s] = sc.s.qacc[d[r]];
    }
  }
  return minv;
}

/// MuJoCo's stat.meaninertia (mj_setConst): the mean of diag(M) at qpos0, armature included (PGS's scale)
double mean_inertia(const Model& m, KModel<double>& K, BlockScratch<double>& sc) {
  const int nv = m.nv, n = static_cast<int>(m.joints.size());
  std::vector<ABInertia<double>> Ic(n);
  std::vector<double> diag(nv, 0.0);
  mass_diagonal(K, sc.s.W, Ic.data(), diag.data());
  double sum = 0;
  for (const Joint& j : m.joints)
    for (int k = 0; k < j.nv; ++k) sum += diag[j.voff + k] + j.armature;
  return sum / nv;
}

/// body_invweight0: the mean diagonal of J M⁻¹ Jᵀ for the body's Jacobian at its centre of mass
/// (translation rows, then rotation rows)
void body_invweights(Model& m, KModel<double>& K, BlockScratch<double>& sc, const TreeInverse& minv, std::vector<double>& e) {
  const int n = static_cast<int>(m.joints.size());
  pass_pose(K, sc.s.W, sc.X_WB);
  // J of every body's centre of mass (world frame) on its tree's dofs: row-major 6 × (tree dofs)
  std::vector<Motion<double>> mot(n);
  std::vector<std::vector<double>> J(n);
  for (int i = 0; i < n; ++i)
    if (minv.tree_of_joint[i] >= 0) J[i].assign(6 * minv.tree_dofs[minv.tree_of_joint[i]].size(), 0.0);
  for (std::size_t s = 0; s < minv.widest; ++s) {
    minv.unit_forces(s, e);
    pass_body_motion(K, sc.s.W, e.data(), mot.data());
    for (int i = 0; i < n; ++i) {
      if (minv.tree_of_joint[i] < 0) continue;
      const std::size_t d = minv.tree_dofs[minv.tree_of_joint[i]].size();
      if (s >= d) continue;
      const Mat3<double>& R = sc.X_WB[i].R;
      const Vec3<double> c_B{m.joints[i].com[0], m.joints[i].com[1], m.joints[i].com[2]};
      const Vec3<double> w = mul(R, mot[i].w);
      const Vec3<double> v = mul(R, mot[i].v + cross(mot[i].w, c_B));
      const double col[6] = {v.x, v.y, v.z, w.x, w.y, w.z};
      for (int r = 0; r < 6; ++r) J[i][r * d + s] = col[r];
    }
  }
  for (int i = 0; i < n; ++i) {
    if (minv.tree_of_joint[i] < 0) continue; // a static body: J = 0
    const std::vector<int>& dofs = minv.tree_dofs[minv.tree_of_joint[i]];
    const std::size_t d = dofs.size();
    double diag[6];
    for (int r = 0; r < 6; ++r) {
      const double* Jr = &J[i][r * d];
      double s = 0;
      for (std::size_t a = 0; a < d; ++a) {
        if (Jr[a] == 0) continue;
        double t = 0;
        for (std::size_t b = 0; b < d; ++b) t += minv(dofs[a], dofs[b]) * Jr[b];
        s += Jr[a] * t;
      }
      diag[r] = s;
    }
    m.body_invweight0[2 * i] = (diag[0] + diag[1] + diag[2]) / 3;
    m.body_invweight0[2 * i + 1] = (diag[3] + diag[4] + diag[5]) / 3;
  }
}

void tendon_invweights(Model& m, const TreeInverse& minv) {
  const int nv = m.nv;
  // tendon_invweight0 = J M⁻¹ Jᵀ (mj_setConst), J the tendon's (constant) moment
  for (std::size_t t = 0; t < m.tendons.size(); ++t) {
    const Tendon& T = m.tendons[t];
    std::vector<double> Jt(nv, 0.0);
    for (std::size_t k = 0; k < T.joints.size(); ++k) Jt[m.joints[T.joints[k]].voff] += T.coefs[k];
    std::vector<int> nz; // the dofs the moment touches, ascending
    for (int a = 0; a < nv; ++a)
      if (Jt[a] != 0) nz.push_back(a);
    double s = 0;
    for (int a : nz) {
      double u = 0;
      for (int b : nz) u += minv(a, b) * Jt[b];
      s += Jt[a] * u;
    }
    m.tendon_invweight0[t] = s;
  }
}

/// dof_invweight0: the diagonal of M⁻¹, averaged over a ball's 3 dofs and a free joint's translations and rotations
void dof_invweights(Model& m, const TreeInverse& minv) {
  auto Md = [&](int k) { return minv(k, k); };
  for (const Joint& j : m.joints) {
    const int o = j.voff;
    if (j.type == JointType::Free) {
      const double t = (Md(o) + Md(o + 1) + Md(o + 2)) / 3, r = (Md(o + 3) + Md(o + 4) + Md(o + 5)) / 3;
      for (int k = 0; k < 3; ++k) m.dof_invweight0[o + k] = t, m.dof_invweight0[o + 3 + k] = r;
    } else if (j.type == JointType::Ball) {
      const double r = (Md(o) + Md(o + 1) + Md(o + 2)) / 3;
      for (int k = 0; k < 3; ++k) m.dof_invweight0[o + k] = r;
    } else {
      for (int k = 0; k < j.nv; ++k) m.dof_invweight0[o + k] = Md(o + k);
    }
  }
}

/// The anchors MuJoCo's mj_setConst makes at qpos0 (body semantic): connect p2 = X2⁻¹·X1·p1; weld
/// p1 = X1⁻¹·X2·p2 and Q1 = R1ᵀR2, so that each constraint holds exactly at qpos0. qpos0 is the
/// exported model's: hinges and slides at their ref, free joints at the identity pose too (MJCF
/// export writes them so); a pass of its own, so the inverse weights keep their bits.
void equality_anchors_at_qpos0(Model& m, KModel<double>& K, BlockScratch<double>& sc, std::vector<double>& q, std::vector<double>& zero) {
  bool need = false;
  for (const Equality& e : m.equalities) need = need || (e.at_qpos0 && e.type != EqualityType::Joint);
  if (!need) return;
  for (const Joint& j : m.joints)
    if (j.type == JointType::Free) {
      for (int k = 0; k < 7; ++k) q[j.qoff + k] = k == 3 ? 1 : 0;
    }
  std::fill(zero.begin(), zero.end(), 0.0);
  forward_dynamics(K, sc.s.W, q.data(), zero.data(), zero.data(), sc.s.qacc);
  pass_pose(K, sc.s.W, sc.X_WB);
  for (Equality& e : m.equalities) {
    if (!e.at_qpos0 || e.type == EqualityType::Joint) continue;
    const Transform<double> I{{{1, 0, 0, 0, 1, 0, 0, 0, 1}}, {0, 0, 0}};
    const Transform<double>& X1 = e.body1 >= 0 ? sc.X_WB[e.body1] : I;
    const Transform<double>& X2 = e.body2 >= 0 ? sc.X_WB[e.body2] : I;
    if (e.type == EqualityType::Connect) {
      const Vec3<double> w = mul(X1.R, Vec3<double>{e.p1[0], e.p1[1], e.p1[2]}) + X1.p;
      const Vec3<double> l = mulT(X2.R, w - X2.p);
      e.p2[0] = l.x, e.p2[1] = l.y, e.p2[2] = l.z;
    } else {
      const Vec3<double> w = mul(X2.R, Vec3<double>{e.p2[0], e.p2[1], e.p2[2]}) + X2.p;
      const Vec3<double> l = mulT(X1.R, w - X1.p);
      e.p1[0] = l.x, e.p1[1] = l.y, e.p1[2] = l.z;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) e.Q1[r * 3 + c] = X1.R.m[r] * X2.R.m[c] + X1.R.m[3 + r] * X2.R.m[3 + c] + X1.R.m[6 + r] * X2.R.m[6 + c];
    }
    e.at_qpos0 = false;
  }
}

} // namespace

void finalize_constraints(Model& m) {
  check_settings(m);
  check_tendons(m);
  check_equalities(m);
  m.body_invweight0.assign(2 * m.joints.size(), 0.0);
  m.tendon_invweight0.assign(m.tendons.size(), 0.0);
  m.dof_invweight0.assign(m.nv, 0.0);
  if (!m.constrained() || m.nv == 0) return;

  KModel<double> K(m);
  K.without_gravity();
  const int nv = m.nv;
  const KForces<double> F(m, 0.0); // (merge: the scratch now carries the actuators' arrays; unused here)
  Arena arena(BlockScratch<double>::bytes_needed(K, 0, F.nu));
  BlockScratch<double> sc(arena, K, F, 0);
  std::vector<double> q(m.q0), zero(nv, 0.0), e(nv, 0.0);
  for (const Joint& j : m.joints) {
    if (j.type == JointType::Revolute || j.type == JointType::Prismatic) q[j.qoff] = j.ref;
    if (j.type == JointType::Planar)
      for (int k = 0; k < j.nq; ++k) q[j.qoff + k] = 0;
    if (j.type == JointType::Ball) q[j.qoff] = 1, q[j.qoff + 1] = q[j.qoff + 2] = q[j.qoff + 3] = 0;
  }
  const TreeInverse minv = inverse_mass_by_tree(m, K, sc, q, zero, e);
  m.meaninertia = mean_inertia(m, K, sc);
  body_invweights(m, K, sc, minv, e);
  tendon_invweights(m, minv);
  dof_invweights(m, minv);
  equality_anchors_at_qpos0(m, K, sc, q, zero);
}

} // namespace ach
