// mj_fwdConstraint's solve for one block of lanes: the one place the solver is picked, from
// KConstraints::method (solver_method in tables.hpp says which one a model runs).
//
//   CG      primal.hpp solve_primal<ConjugateGradient> (cg.hpp)
//   Newton  primal.hpp solve_primal<Newton>            (newton.hpp)
//   PGS     pgs.hpp    solve_pgs, on the dual problem
#pragma once

#include "../../isa_namespace.hpp"

#include "cg.hpp"
#include "newton.hpp"
#include "pgs.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// The constrained accelerations of one block by the model's solver: cw.a0 holds qacc_smooth, rows
/// are built; with `use_warm`, cw.warm is the warm start (MuJoCo's warmstart()). Writes cw.a,
/// cw.force (by row slot), cw.qfrc.
template <class V>
inline void solve_constraints(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& KC, const JointWork<V>* W, ConstraintWork<V>& cw,
                              int iterations, bool use_warm) {
  switch (KC.method) {
    case SolverMethod::pgs:
      solve_pgs(M, KC, W, cw, iterations, use_warm);
      return;
    case SolverMethod::newton:
      solve_primal<Newton>(M, KC, W, cw, iterations, use_warm);
      return;
    case SolverMethod::cg:
      solve_primal<ConjugateGradient>(M, KC, W, cw, iterations, use_warm);
      return;
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
