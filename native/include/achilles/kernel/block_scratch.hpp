// One worker's scratch: the arena carved once when the batch is made, and the block state, body
// and shape poses and constraint work of one block of W lanes carved from it (nothing is allocated
// while stepping).
#pragma once

#include "../isa_namespace.hpp"

#include "../actuators/forces.hpp"
#include "../arena.hpp"
#include "../collision/broad_phase.hpp"
#include "../contact/work.hpp"
#include "../engine.hpp"
#include "../integrators.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class V>
struct BlockScratch {
  BlockState<V> s;
  const KModel<ScalarOf<V>>* model; // the worker's constants (their per-lane rows follow its block), as s.F its forces
  V* a_sub;                         // accelerations of substeps after the first
  V* tau_prev;                      // the previous step's torque (read only by a planted bug)
  V* target;                        // each servo's rate-limited target (actuators)
  V* rec_force;                     // each actuator's force at the latest evaluation (BatchOptions::record)
  V* qfrc_adhesion;                 // τ of the body-transmission actuators at the latest evaluation (actuators/adhesion.hpp)
  bool adhesion = false;            // the model has body-transmission actuators
  Transform<V>* X_WB;
  Transform<V>* X_WS;   // world pose of every collision shape
  ConstraintWork<V> cw; // rows and solver vectors (constrained models only)
  BroadPhaseWork<V> bp; // the broad phase's boxes and pairs
  ImplicitWork<V> iw{}; // implicitfast's per-lane additions to D (implicit.hpp; carved only with it)

  static std::size_t bytes_needed(const KModel<ScalarOf<V>>& M, std::size_t nshapes, std::size_t nu, const KConstraints<ScalarOf<V>>* K = nullptr,
                                  const KImplicit<ScalarOf<V>>* I = nullptr) {
    const std::size_t n = M.joints.size();
    const std::size_t nq = M.nq, nv = M.nv;
    // Mirrors the constructor's takes; each take may pad up to 64 bytes.
    std::size_t dof = 0;
    for (const auto& J : M.joints) {
      const std::size_t k = J.nv > 0 ? J.nv : 1;
      dof += k * (sizeof(Motion<V>) + sizeof(Force<V>) + (k + 1) * sizeof(V));
    }
    const std::size_t vecs = 2 * (nq + 1) + 9 * (nv + 1);
    return n * (sizeof(JointWork<V>) + sizeof(Transform<V>)) + dof + vecs * sizeof(V) + (4 * n + 16) * 64 + (nv + 1 + 4 * (nu + 1)) * sizeof(V) +
           5 * 64 + 4 * ((nu + 1) * sizeof(V) + 64) /* activations (na <= nu) */ + (nshapes ? nshapes : 1) * sizeof(Transform<V>) + 64 +
           (nv + 1) * sizeof(V) + 64 /* qfrc_adhesion */ + (K ? ConstraintWork<V>::bytes_needed(M, *K) : 0) +
           (I ? ImplicitWork<V>::bytes_needed(M, *I) : 0);
  }

  BlockScratch(Arena& arena, const KModel<ScalarOf<V>>& M, const KForces<ScalarOf<V>>& F, std::size_t nshapes,
               const KConstraints<ScalarOf<V>>* K = nullptr, const KImplicit<ScalarOf<V>>* I = nullptr)
      : model(&M), bp(nshapes) {
    const std::size_t n = M.joints.size();
    s.W = arena.take<JointWork<V>>(n);
    for (std::size_t i = 0; i < n; ++i) {
      const int nv = M.joints[i].nv;
      JointWork<V>& w = s.W[i];
      w.S = arena.take<Motion<V>>(nv > 0 ? nv : 1);
      w.U = arena.take<Force<V>>(nv > 0 ? nv : 1);
      w.Dinv = arena.take<V>(nv > 0 ? nv * nv : 1);
      w.u = arena.take<V>(nv > 0 ? nv : 1);
    }
    const std::size_t nq = M.nq ? M.nq : 1, nv = M.nv ? M.nv : 1;
    s.q = arena.take<V>(nq);
    s.v = arena.take<V>(nv);
    s.tau = arena.take<V>(nv);
    s.qacc = arena.take<V>(nv);
    s.qs = arena.take<V>(nq);
    s.vs = arena.take<V>(nv);
    s.a = arena.take<V>(nv);
    s.qsum = arena.take<V>(nv);
    s.asum = arena.take<V>(nv);
    a_sub = arena.take<V>(nv);
    tau_prev = arena.take<V>(nv);
    const std::size_t nu = F.nu ? F.nu : 1;
    s.F = &F;
    s.tau_eff = arena.take<V>(nv);
    s.u = arena.take<V>(nu);
    s.force = arena.take<V>(nu);
    target = arena.take<V>(nu);
    rec_force = arena.take<V>(nu);
    qfrc_adhesion = arena.take<V>(nv);
    for (const auto& A : F.act) adhesion = adhesion || A.on_body;
    for (std::size_t k = 0; k < nv; ++k) qfrc_adhesion[k] = V(ScalarOf<V>(0));
    const std::size_t na = F.na ? F.na : 1;
    s.act = arena.take<V>(na);
    s.act_dot = arena.take<V>(na);
    s.act_stage = arena.take<V>(na);
    s.act_sum = arena.take<V>(na);
    s.act_now = s.act;
    X_WB = arena.take<Transform<V>>(n);
    X_WS = arena.take<Transform<V>>(nshapes ? nshapes : 1);
    if (K && K->enabled) cw.carve(arena, M, *K);
    if (I && I->on) iw.carve(arena, M, *I);
  }
};

} // namespace ACH_ISA_NS
} // namespace ach
