// A one-sided soft limit on a scalar coordinate (a hinge or slide joint's q, a ball joint's rotation
// angle, a fixed tendon's length): MuJoCo's jnt_/tendon_ limited, range, solreflimit, solimplimit and
// margin. Joints and tendons each carry one; the rows it makes are in contact/rows.hpp.
#pragma once

namespace ach {

struct LimitSpec {
  bool limited = false;
  double range[2] = {0, 0};
  double solref[2] = {0.02, 1};
  double solimp[5] = {0.9, 0.95, 0.001, 0.5, 2};
  double margin = 0;
};

} // namespace ach
