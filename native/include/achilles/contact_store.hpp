// The contacts of the last collide() or constrain(), kept per block of lanes as the block found
// them: its contact pairs (the broad phase's, in (a, b) order) and, per pair, each lane's points (up
// to kPairPoints, each with its normal). Memory follows the pairs that overlap, not the pairs that could. contacts_of(robot)
// lists one robot's active points (MuJoCo's d->contact, in the same order at every lane width,
// batch size and thread count).
#pragma once

#include <vector>

#include "collision/pair_points.hpp"

namespace ach {

/// Per pair and lane, per point slot i: active, dist, pos (3), normal (3), force (3).
constexpr int kContactPointValues = 11, kContactPairValues = kPairPoints * kContactPointValues;

struct BlockContacts {
  std::vector<int> shape_a, shape_b; // per pair
  std::vector<double> values;        // (pair · kContactPairValues + value) · W + lane
};

/// One robot's active contact points.
struct ContactList {
  std::vector<int> shape_a, shape_b, point;     // the pair's shapes (a < b) and the point slot 0 .. kPairPoints − 1
  std::vector<double> dist, pos, normal, force; // per point: 1, 3, 3 (from shape a to b), 3 (normal, t1, t2)
};

class ContactStore {
 public:
  void resize(int blocks, int lanes) {
    blocks_.assign(blocks, BlockContacts{});
    lanes_ = lanes;
  }
  int lanes() const { return lanes_; }
  BlockContacts& block(int b) { return blocks_[b]; }

  ContactList contacts_of(int robot) const {
    ContactList out;
    const BlockContacts& bc = blocks_[robot / lanes_];
    const int lane = robot % lanes_, W = lanes_;
    auto at = [&](std::size_t p, int k) { return bc.values[(p * kContactPairValues + k) * W + lane]; };
    for (std::size_t p = 0; p < bc.shape_a.size(); ++p)
      for (int i = 0; i < kPairPoints; ++i) {
        const int o = i * kContactPointValues;
        if (at(p, o) == 0) continue;
        out.shape_a.push_back(bc.shape_a[p]);
        out.shape_b.push_back(bc.shape_b[p]);
        out.point.push_back(i);
        out.dist.push_back(at(p, o + 1));
        for (int c = 0; c < 3; ++c) out.pos.push_back(at(p, o + 2 + c));
        for (int c = 0; c < 3; ++c) out.normal.push_back(at(p, o + 5 + c));
        for (int c = 0; c < 3; ++c) out.force.push_back(at(p, o + 8 + c));
      }
    return out;
  }

 private:
  std::vector<BlockContacts> blocks_;
  int lanes_ = 1;
};

} // namespace ach
