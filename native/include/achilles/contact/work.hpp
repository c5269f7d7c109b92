// One block's constraint scratch, carved from the worker's arena when the batch is made. The row
// slots grow with the contact pairs a block meets: they are carved again, from a buffer of their
// own, the first time a block meets more pairs than they hold (so memory follows the contacts, not
// the square of the shapes; no step allocates once the largest block has been met).
//
// Row slots: the equality rows first (3 per connect, 6 per weld, 1 per joint coupling; all on), the dry-friction rows (1 per dof with frictionloss, then 1 per tendon with
// frictionloss), then the limit rows (2 per limited joint: lower, upper; then 2 per limited tendon),
// then the contact rows of this evaluation's pairs (pair p, point i, edge e): MuJoCo's order. A slot
// is `used` in a block when any lane has it on; the solver walks the used list, and masks the lanes
// where it is off.
#pragma once

#include "../isa_namespace.hpp"

#include <memory>

#include "../arena.hpp"
#include "equality.hpp"
#include "lane_constraints.hpp"
#include "point_jacobian.hpp"
#include "tables.hpp"
#include "tree.hpp"
#include "../collision/collide.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// The solver's per-tree scratch, one value (or lane mask) per tree: after island_sum every tree of
/// an island holds the island's value, so each island gets its own step and β (MuJoCo's per-island
/// CG). Carved as one block of kVecs arrays and one of kMasks, in the order listed.
template <class V>
struct SolverTrees {
  // the line search along the search direction d (line_search.hpp line_search, line_eval)
  V *c1, *c2;                                      // island sums of dᵀM(a − a₀) and ½dᵀMd (c1 also: the initial gradient gap, then β)
  V *cost, *d1, *d2;                               // cost change from α = 0, slope and curvature at alpha
  V *alpha, *lo, *hi, *from;                       // the evaluated step, the bracket, the step evaluated before
  V *best, *slope, *best_cost;                     // the step with the smallest |slope| so far, that slope, its cost change
  V* crossed;                                      // rows that changed piece between from and alpha
  V *rows_cost, *rows_d1, *rows_d2, *rows_crossed; // the tree's own row sums (kept while it is settled)
  V *slope_floor, *rows_d1abs;                     // f32 elliptic: the slope's rounding floor at alpha; the tree's Σ|row terms of f'|
  // the Hager–Zhang direction's sums (y = g − g_old): dᵀy, yᵀMy, yᵀMg, dᵀg, dᵀd, gᵀg
  V *dy, *ymy, *ymg, *dg, *dd, *gg;
  V* scale;                                           // the tolerance's 1/Σ diag(M) over the island
  V* gtol;                                            // elliptic cones: MuJoCo's line-search slope tolerance (search_products)
  MaskOf<V>*has_hi, *descent, *settled, *newton_step; // line search state
  MaskOf<V>* done;                                    // the island has converged (or its line search found no improvement)
  MaskOf<V>* in_island;                               // a row touches the tree's island (set by find_islands)
  static constexpr int kVecs = 27, kMasks = 6;

  void carve(V* vecs, MaskOf<V>* masks, std::size_t nt) {
    V** v[] = {&c1,         &c2,    &cost,      &d1,      &d2,        &alpha,   &lo,      &hi,           &from,
               &best,       &slope, &best_cost, &crossed, &rows_cost, &rows_d1, &rows_d2, &rows_crossed, &slope_floor,
               &rows_d1abs, &dy,    &ymy,       &ymg,     &dg,        &dd,      &gg,      &scale,        &gtol};
    static_assert(sizeof(v) / sizeof(v[0]) == kVecs);
    for (int k = 0; k < kVecs; ++k) *v[k] = vecs + static_cast<std::size_t>(k) * nt;
    MaskOf<V>** m[] = {&has_hi, &descent, &settled, &newton_step, &done, &in_island};
    static_assert(sizeof(m) / sizeof(m[0]) == kMasks);
    for (int k = 0; k < kMasks; ++k) *m[k] = masks + static_cast<std::size_t>(k) * nt;
  }
};

template <class V>
struct ConstraintWork {
  int nrows = 0, nfric_rows = 0, nlimit_rows = 0, first_contact = 0; // nrows: the slots in use at this evaluation
  int neq_rows = 0, first_limit = 0; // equality rows [0, neq_rows), friction rows [neq_rows, first_limit), then limits
  EqualityJ<V>* eqj = nullptr;       // per active equality: its Jacobian at this evaluation (equality.hpp)
  // the contact pairs of this evaluation: the broad phase's, in (a, b) order (collision/broad_phase.hpp)
  int npairs = 0, pair_capacity = 0;
  KContactPair<ScalarOf<V>>* pair; // per pair: its constants (KConstraints::contact_pair)
  PairLanes<V>* pair_lanes;        // per pair: its frictions and diagA per lane (the robots' own: lanes)
  // a block of robots that differ: its per-lane frictions and inverse weights (KernelImpl::bind);
  // rows nullptr: every lane at the model's constants
  ConstraintLanes lanes;
  int* pair_row;                   // per pair: its first row slot (its points × rows each: KContactPair::points)
  int *pair_dof_start, *pair_dofs; // Newton: per pair the dofs its rows touch (pair_dofs[pair_dof_start[p] ..])
  // per row slot
  MaskOf<V>* on;
  V *dist, *vel, *aref, *R, *D, *imp;
  V* force;
  int *row_tree_a, *row_tree_b; // the trees a row touches (−1: none)
  int* row_point;               // contact rows (from the first contact row): the point slot, pair·kPairPoints + point
  // the solve's rows, packed in `used` order (equality rows first, neq_used of them, then friction rows up to nfric_used): what the
  // solver's loops read, contiguous; u_force goes back to the row slots' force when it is done
  int neq_used = 0, nfric_used = 0, first_contact_used = 0; // rows [first_contact_used, nused) are contact rows
  int* u_tree;                                              // the tree a row's scalars are summed into (row_tree)
  int npts = 0;                                             // contact points with a used row: their first row and point slot
  int *pt_u, *pt_slot;
  MaskOf<V>* u_on;
  V *u_D, *u_R, *u_aref, *u_floss, *u_force;
  V *jar, *jv; // J·a − aref and J·search, packed
  // elliptic cone points (contact/cone.hpp): per row slot and packed, μ of the normal row (per lane)
  // and μ_j of friction row j; per packed row, the point's dim at its first row (−1 on its others,
  // 0 off the cone) and its zone (bottom: quadratic, middle: the cone) at the last force update
  V *cone_mu, *u_cone_mu;
  int* u_cone;
  MaskOf<V>*u_cone_bottom, *u_cone_middle;
  V *ls_cost0, *ls_djv2;    // line search: a row's cost at α = 0, and D·jv²
  V *ls_cone_a, *ls_cone_b; // line search: with ls_cost0 and ls_djv2, an elliptic point's constants (cone.hpp ConeSlots)
  int *tree_row_start, *tree_neq, *tree_nfric, *tree_rows, *tree_fill; // per tree: its packed rows, in order (equality, friction, others)
  PointJ<V>*pj_a, *pj_b;                                               // per point slot (p·kPairPoints + i): its Jacobian on body a and body b
  ScalarOf<V>* lim_sign;                                               // limit rows: J = ±1 on the joint's dof (a tendon's: ±its moment)
  Vec3<V>* ball_J;                                                     // per limit slot: a ball joint's cone row J on its 3 dofs (unused elsewhere)
  ScalarOf<V>* floss;                                                  // friction rows: the frictionloss (0 on other rows)
  int* used;
  int nused = 0;
  // per pair / point (detection at the evaluated state; the frame is MuJoCo's, signed as our rows)
  Manifold<V>* mf;
  Vec3<V>* frame;      // (p·kPairPoints + i)·3 + {0: n, 1: t1, 2: t2}
  MaskOf<V>* point_on; // force-active point (dist < margin), p·kPairPoints + i
  // solver vectors (nv)
  V *a0, *a, *Mrel, *qfrc, *grad, *Mgrad, *search, *gradold, *Mgradold, *Mv, *tmp, *tmp2;
  V* warm; // the warm start (this robot's previous qacc)
  TreeWork<V> tw;
  Force<V>* F;      // per joint: wrench accumulator for Jᵀ
  ABInertia<V>* Ic; // per joint: composite inertia (diag(M) for the tolerance's scale)
  // islands: per tree and lane the island label (the lowest tree of the island, −1: no row), and
  // per-tree scalars of the solver (equal across the trees of one island after island_sum)
  int* label;                // ntrees × W
  bool lone_islands = false; // every island of every lane is a single tree (island sums are identities)
  int* uf;                   // ntrees (union–find scratch, one lane at a time)
  unsigned char* has_row;    // ntrees × (W + 1): per tree and lane "a row touches it", then per root
  ScalarOf<V>* red;          // ntrees × W
  ScalarOf<V>* acc;          // ntrees
  // island_sum's wide path: per tree, the trees sharing its island in some lane and those lanes
  bool members_listed = false;
  int member_capacity = 0;
  int* member_start;      // ntrees + 1
  int* member_tree;       // member_capacity
  MaskOf<V>* member_mask; // member_capacity
  ScalarOf<V>* acc_lanes; // W
  V* island_tmp;          // kIslandSums × ntrees
  // trees done in every lane of the block (and their joints): the CG loop leaves them alone
  unsigned char *tree_idle, *joint_idle; // ntrees, joints
  SolverTrees<V> per_tree;               // the solver's per-tree scalars and masks
  // the Newton solver's dense matrices (newton.hpp; carved only when KConstraints::dense):
  // M (nv × nv), the used rows' J (row u at u·nv), the Hessian's Cholesky factor L (lower, nv × nv)
  V *newton_M = nullptr, *newton_J = nullptr, *newton_L = nullptr;
  MaskOf<V>* newton_quad = nullptr; // per used row: in its quadratic piece when H was last updated
  MaskOf<V>* newton_dq = nullptr;   // per used row: the lanes where it changed piece at this update
  V* newton_H = nullptr;            // H = M + JᵀDJ (lower triangle), updated by the rows that change piece
  Motion<V>* newton_Jb = nullptr;   // per joint × dof: the body motion a unit velocity of the dof gives (0 off its chain)
  // PGS and noslip (pgs.hpp, noslip.hpp; carved only when KConstraints::dual), over the used rows u, v < nused:
  V* pgs_MinvJ = nullptr;                        // y_u = L⁻ᵀJ_uᵀ, M = LᵀDL along the dof tree (row u at u·nv; pgs_prepare)
  ScalarOf<V>* pgs_AR = nullptr;                 // AR = J M⁻¹ Jᵀ + R per lane: (u·nused + v)·W + lane (reserve_pgs)
  ScalarOf<V>*pgs_b = nullptr, *pgs_f = nullptr; // b = J·a₀ − aref and the force per lane: u·W + lane
  unsigned char* pgs_on = nullptr;               // the row is in the lane's problem (MuJoCo's efc rows): u·W + lane
  ScalarOf<V>* pgs_A = nullptr;                  // one island of one lane: its AR, dense (nused², reserve_pgs)
  ScalarOf<V>* pgs_vec = nullptr;                // one island of one lane: kPgsVecs vectors of its rows
  int* pgs_int = nullptr;                        // one lane: its rows, an island's rows, the shuffled order
  V* mj_corner = nullptr;                        // per point slot of a plane–box pair: the box corner's index in mjc_PlaneBox (its order there)
  static constexpr int kPgsVecs =
      8; // b, f, frictionloss, R, then PGS's 1/diag(AR), its inverse, Nesterov's previous and extrapolated f (noslip: its own four)
  static constexpr int kTreeVecs = SolverTrees<V>::kVecs, kTreeMasks = SolverTrees<V>::kMasks;
  static constexpr int kIslandSums = 6; // island_sums' most arrays at once
  /// The contact pairs the row slots are first carved for (reserve_pairs carves more when a block meets more).
  static constexpr int kFirstPairCapacity = 16;

  /// Island member slots: every pair of trees up to 32 trees, else 32 per tree.
  static std::size_t member_slots(std::size_t nt) { return nt * (nt < 32 ? nt : 32); }

  /// The bytes carve takes from the worker's arena: the same counts (each at least 1, as carve takes
  /// them), plus each take's alignment. The row slots are carved apart (rows_bytes).
  static std::size_t bytes_needed(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& K) {
    if (!K.enabled) return 0;
    const std::size_t lrows = K.limit_rows ? K.limit_rows : 1;
    const std::size_t n = M.joints.size(), nv = M.nv ? M.nv : 1;
    const std::size_t b = lrows * sizeof(Vec3<V>) + 13 * nv * sizeof(V) + n * (sizeof(Motion<V>) + 2 * sizeof(Force<V>) + sizeof(ABInertia<V>));
    const std::size_t nt = K.ntrees ? K.ntrees : 1, W = lanes_of<V>;
    const std::size_t isl = nt * W * (sizeof(int) + sizeof(ScalarOf<V>)) + nt * (W + 1) + nt * (sizeof(int) + sizeof(ScalarOf<V>)) +
                            kTreeVecs * nt * sizeof(V) + kTreeMasks * nt * sizeof(MaskOf<V>) + (nt + 1) * sizeof(int) +
                            member_slots(nt) * (sizeof(int) + sizeof(MaskOf<V>)) + W * sizeof(ScalarOf<V>) + kIslandSums * nt * sizeof(V) +
                            (4 * nt + 1) * sizeof(int) + nt + n + (K.equalities.size() + 1) * sizeof(EqualityJ<V>);
    const std::size_t newton = K.dense ? 3 * nv * nv * sizeof(V) + n * nv * sizeof(Motion<V>) : 0;
    return b + isl + newton + rows_bytes(M, K, kFirstPairCapacity) + 64 * 48; // each take aligns to 64 bytes (fewer than 48 takes)
  }

  /// The bytes of the row slots for `pairs` contact pairs (carve_rows), alignment included.
  static std::size_t rows_bytes(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& K, std::size_t pairs) {
    const std::size_t np = pairs ? pairs : 1, nv = M.nv ? M.nv : 1;
    const std::size_t rows = K.equality_rows + K.friction_rows + K.limit_rows + K.pair_points_max * K.point_rows_max * np;
    const std::size_t newton = K.dense ? rows * nv * sizeof(V) + 2 * rows * sizeof(MaskOf<V>) + (np + 1 + np * nv) * sizeof(int) : 0;
    const std::size_t W = lanes_of<V>;
    const std::size_t pgs = K.dual ? rows * nv * sizeof(V) + rows * (2 * W + kPgsVecs) * sizeof(ScalarOf<V>) + rows * W + 3 * rows * sizeof(int) +
                                         np * kPairPoints * sizeof(V)
                                   : 0;
    return rows * (4 * sizeof(MaskOf<V>) + 20 * sizeof(V) + 7 * sizeof(int) + 2 * sizeof(ScalarOf<V>)) +
           np * (sizeof(KContactPair<ScalarOf<V>>) + sizeof(PairLanes<V>) + sizeof(int) + sizeof(Manifold<V>) + 3 * kPairPoints * sizeof(Vec3<V>) +
                 kPairPoints * sizeof(MaskOf<V>) + kPairPoints * (2 * sizeof(PointJ<V>) + 2 * sizeof(int))) +
           newton + pgs + 64 * 57; // each of carve_rows' takes aligns to 64 bytes (fewer than 57 takes)
  }

  template <class A>
  void carve(A& ar, const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& K) {
    neq_rows = K.equality_rows;
    nfric_rows = K.friction_rows;
    nlimit_rows = K.limit_rows;
    first_limit = neq_rows + nfric_rows;
    first_contact = first_limit + nlimit_rows;
    nrows = first_contact;
    const std::size_t nv = M.nv ? M.nv : 1, n = M.joints.size();
    ball_J = ar.template take<Vec3<V>>(K.limit_rows ? K.limit_rows : 1);
    V** vecs[] = {&a0, &a, &Mrel, &qfrc, &grad, &Mgrad, &search, &gradold, &Mgradold, &Mv, &tmp, &tmp2, &warm};
    for (V** p : vecs) *p = ar.template take<V>(nv);
    tw.m = ar.template take<Motion<V>>(n);
    tw.f = ar.template take<Force<V>>(n);
    F = ar.template take<Force<V>>(n);
    Ic = ar.template take<ABInertia<V>>(n);
    const std::size_t nt = K.ntrees ? K.ntrees : 1, W = lanes_of<V>;
    label = ar.template take<int>(nt * W);
    uf = ar.template take<int>(nt);
    has_row = ar.template take<unsigned char>(nt * (W + 1));
    red = ar.template take<ScalarOf<V>>(nt * W);
    acc = ar.template take<ScalarOf<V>>(nt);
    member_capacity = static_cast<int>(member_slots(nt));
    member_start = ar.template take<int>(nt + 1);
    member_tree = ar.template take<int>(member_capacity);
    member_mask = ar.template take<MaskOf<V>>(member_capacity);
    acc_lanes = ar.template take<ScalarOf<V>>(W);
    island_tmp = ar.template take<V>(kIslandSums * nt);
    tree_row_start = ar.template take<int>(nt + 1);
    tree_neq = ar.template take<int>(nt);
    tree_nfric = ar.template take<int>(nt);
    eqj = ar.template take<EqualityJ<V>>(K.equalities.size() + 1);
    tree_fill = ar.template take<int>(nt);
    tree_idle = ar.template take<unsigned char>(nt);
    joint_idle = ar.template take<unsigned char>(n ? n : 1);
    V* tree_vecs = ar.template take<V>(kTreeVecs * nt);
    MaskOf<V>* tree_masks = ar.template take<MaskOf<V>>(kTreeMasks * nt);
    per_tree.carve(tree_vecs, tree_masks, K.ntrees);
    if (K.dense) {
      newton_M = ar.template take<V>(nv * nv);
      newton_L = ar.template take<V>(nv * nv);
      newton_H = ar.template take<V>(nv * nv);
      newton_Jb = ar.template take<Motion<V>>(n * nv);
      for (std::size_t e = 0; e < n * nv; ++e) newton_Jb[e] = zero_motion<V>(); // the entries off each chain stay 0
    }
    carve_rows(ar, M, K, kFirstPairCapacity);
  }

  /// Row slots for at least `pairs` contact pairs: carved afresh (from a buffer of their own) when
  /// the block meets more pairs than they hold, before any row of the evaluation is written.
  void reserve_pairs(const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& K, int pairs) {
    if (pairs <= pair_capacity) return;
    const int cap = pairs > 2 * pair_capacity ? pairs : 2 * pair_capacity;
    row_arena = std::make_unique<Arena>(rows_bytes(M, K, cap));
    carve_rows(*row_arena, M, K, cap);
  }

  /// PGS's AR for at least `n` used rows (n² per lane, and one island's n²): from a buffer of its
  /// own, grown when a block uses more rows than it holds. Sized by the rows a block uses, not by
  /// the rows its pair slots could hold: those are 16 per pair, and (16·pairs)²·W floats came to
  /// 80 MB per worker on Gymnasium's humanoid, zeroed at its first contacts.
  void reserve_pgs(int n) {
    if (n <= pgs_capacity) return;
    const std::size_t cap = n > 2 * pgs_capacity ? n : 2 * pgs_capacity, W = lanes_of<V>;
    pgs_arena = std::make_unique<Arena>(cap * cap * (W + 1) * sizeof(ScalarOf<V>) + 2 * 64);
    pgs_AR = pgs_arena->template take<ScalarOf<V>>(cap * cap * W);
    pgs_A = pgs_arena->template take<ScalarOf<V>>(cap * cap);
    pgs_capacity = static_cast<int>(cap);
  }

 private:
  std::unique_ptr<Arena> row_arena; // the row slots once they outgrow the worker's arena
  std::unique_ptr<Arena> pgs_arena; // PGS's AR (reserve_pgs)
  int pgs_capacity = 0;

  template <class A>
  void carve_rows(A& ar, const KModel<ScalarOf<V>>& M, const KConstraints<ScalarOf<V>>& K, int pairs) {
    pair_capacity = pairs;
    const std::size_t np = pairs ? pairs : 1, nv = M.nv ? M.nv : 1;
    const std::size_t rows = first_contact + K.pair_points_max * K.point_rows_max * np;
    pair = ar.template take<KContactPair<ScalarOf<V>>>(np);
    pair_lanes = ar.template take<PairLanes<V>>(np);
    pair_row = ar.template take<int>(np);
    on = ar.template take<MaskOf<V>>(rows);
    dist = ar.template take<V>(rows);
    vel = ar.template take<V>(rows);
    aref = ar.template take<V>(rows);
    R = ar.template take<V>(rows);
    D = ar.template take<V>(rows);
    imp = ar.template take<V>(rows);
    jar = ar.template take<V>(rows);
    jv = ar.template take<V>(rows);
    force = ar.template take<V>(rows);
    cone_mu = ar.template take<V>(rows);
    u_cone_mu = ar.template take<V>(rows);
    u_cone = ar.template take<int>(rows);
    u_cone_bottom = ar.template take<MaskOf<V>>(rows);
    u_cone_middle = ar.template take<MaskOf<V>>(rows);
    for (std::size_t r = 0; r < rows; ++r) force[r] = V(ScalarOf<V>(0)); // a row's force is read only in lanes where it is on (solved)
    u_tree = ar.template take<int>(rows);
    u_on = ar.template take<MaskOf<V>>(rows);
    V** packed[] = {&u_D, &u_R, &u_aref, &u_floss, &u_force, &ls_cost0, &ls_djv2, &ls_cone_a, &ls_cone_b};
    for (V** p : packed) *p = ar.template take<V>(rows);
    lim_sign = ar.template take<ScalarOf<V>>(rows);
    floss = ar.template take<ScalarOf<V>>(rows);
    for (std::size_t r = 0; r < rows; ++r) floss[r] = ScalarOf<V>(0);
    for (int r = 0; r < nfric_rows; ++r) floss[neq_rows + r] = K.frictions[r].floss;
    used = ar.template take<int>(rows);
    tree_rows = ar.template take<int>(rows);
    row_tree_a = ar.template take<int>(rows);
    row_tree_b = ar.template take<int>(rows);
    row_point = ar.template take<int>(rows);
    for (int r = 0; r < first_contact; ++r) row_tree_a[r] = K.row_tree_a[r], row_tree_b[r] = K.row_tree_b[r];
    pj_a = ar.template take<PointJ<V>>(np * kPairPoints);
    pj_b = ar.template take<PointJ<V>>(np * kPairPoints);
    pt_u = ar.template take<int>(np * kPairPoints);
    pt_slot = ar.template take<int>(np * kPairPoints);
    mf = ar.template take<Manifold<V>>(np);
    frame = ar.template take<Vec3<V>>(np * 3 * kPairPoints);
    point_on = ar.template take<MaskOf<V>>(np * kPairPoints);
    if (K.dual) {
      pgs_MinvJ = ar.template take<V>(rows * nv);
      pgs_b = ar.template take<ScalarOf<V>>(rows * lanes_of<V>);
      pgs_f = ar.template take<ScalarOf<V>>(rows * lanes_of<V>);
      pgs_on = ar.template take<unsigned char>(rows * lanes_of<V>);
      pgs_vec = ar.template take<ScalarOf<V>>(rows * kPgsVecs);
      pgs_int = ar.template take<int>(3 * rows);
      mj_corner = ar.template take<V>(np * kPairPoints);
    }
    if (K.dense) {
      newton_J = ar.template take<V>(rows * nv);
      newton_quad = ar.template take<MaskOf<V>>(rows);
      newton_dq = ar.template take<MaskOf<V>>(rows);
      pair_dof_start = ar.template take<int>(np + 1);
      pair_dofs = ar.template take<int>(np * nv);
    }
  }
};

} // namespace ACH_ISA_NS
} // namespace ach
