// One robot's constraint state at one state, in double, for validation against MuJoCo (the
// per-state diagnostic `batch.constraints(robot)` hands to JavaScript).
#pragma once

#include <vector>

namespace ach {

struct ConstraintRowReport {
  int kind = 0;  // 0 joint limit, 1 contact, 2 dry friction (frictionloss), 3 tendon limit, 4 tendon dry friction, 5 equality
  int id = 0;    // joint index (limit, friction), the contact pair's number (ContactPointReport::pair), tendon index (3, 4) or equality index (5)
  int point = 0; // contact point slot 0..3 (limit: 0 lower, 1 upper side; friction: the joint's dof; equality: its row 0..5)
  int edge = 0; // pyramid edge 0..2(condim − 1) − 1 (J_n + μJ_t1, J_n − μJ_t1, J_n + μJ_t2, J_n − μJ_t2, then spin and roll pairs), 0 for condim 1;
                // elliptic cone: the row 0..condim − 1 (J_n, J_t1, J_t2, J_spin, J_roll1, J_roll2)
  double dist = 0, vel = 0, aref = 0, R = 0, D = 0, imp = 0, force = 0;
  std::vector<double> J; // nv
};

struct ContactPointReport {
  int pair = 0, point = 0;      // the pair's number among this evaluation's pairs (in (a, b) order), the point slot
  int shape_a = 0, shape_b = 0; // the pair's shapes, a < b
  double dist = 0;
  double pos[3] = {0, 0, 0};
  double frame[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}; // rows n (a → b), t1, t2 (MuJoCo's, signed as our rows)
  double force[6] = {0, 0, 0, 0, 0, 0};          // normal, t1, t2, then the torque about n, t1, t2 (MuJoCo's mj_contactForce; 0 below condim 4, 6)
};

struct ConstraintReport {
  std::vector<double> qacc_smooth, qacc, qfrc_constraint;
  std::vector<double> tendon_length, tendon_velocity; // every tendon's L and L̇ at the state (constrained models)
  std::vector<ConstraintRowReport> rows;
  std::vector<ContactPointReport> contacts;
};

} // namespace ach
