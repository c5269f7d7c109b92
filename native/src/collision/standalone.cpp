// collide_shape_pairs: narrow_pair at lanes 1 in the chosen precision.
#define ACH_ISA_NS isa_standalone
#include "achilles/collision/standalone.hpp"

#include <stdexcept>

#include "achilles/collision/collide.hpp"
#include "achilles/collision/convex_pair.hpp"

namespace ach {

namespace {

template <class T>
void run(const std::vector<PairQuery>& qs, std::vector<PairContacts>& out) {
  out.assign(qs.size(), PairContacts{});
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const PairQuery& q = qs[i];
    if (q.kind[0] == ShapeKind::Plane && q.kind[1] == ShapeKind::Plane)
      throw std::invalid_argument("pairs[" + std::to_string(i) + "]: two planes never collide");
    // the batch refuses these at load (collide.hpp KCollision); so does this call, which runs MuJoCo's
    // default, multiccd on (ShapeGeom::multiccd's default)
    const char* why = convex_pair_unsupported(q.kind[0], q.kind[1], q.margin > 0, /*multiccd=*/true);
    if (!why) why = convex_pair_missing_polygons(q.kind[0], q.polygons[0].npoly() > 0, q.kind[1], q.polygons[1].npoly() > 0, q.margin > 0, true);
    if (why)
      throw std::invalid_argument("pairs[" + std::to_string(i) + "] (" + shape_kind_name(q.kind[0]) + "–" + shape_kind_name(q.kind[1]) + "): " + why);
    ShapeGeom<T> g[2];
    Transform<T> X[2];
    for (int s = 0; s < 2; ++s) {
      g[s].kind = q.kind[s];
      for (int k = 0; k < 3; ++k) g[s].h[k] = T(q.half[s][k]);
      g[s].r = T(q.radius[s]);
      for (int k = 0; k < 3; ++k) g[s].size[k] = T(q.size[s][k]);
      if (!q.vert[s].empty()) g[s].vert = q.vert[s].data(), g[s].nvert = static_cast<int>(q.vert[s].size() / 3);
      if (!q.graph[s].empty()) g[s].graph = q.graph[s].data();
      if (!q.extrema[s].empty()) g[s].extrema = q.extrema[s].data();
      if (q.polygons[s].npoly() > 0) g[s].polygons = &q.polygons[s];
      // a mesh's rbound as KCollision makes it at load
      if (q.kind[s] == ShapeKind::Convex) g[s].rbound = convex_geom(g[s]).s.rbound;
      for (int e = 0; e < 9; ++e) X[s].R.m[e] = T(q.R[s][e]);
      X[s].p = {T(q.p[s][0]), T(q.p[s][1]), T(q.p[s][2])};
    }
    Manifold<T> m;
    narrow_pair<T>(g[0], X[0], g[1], X[1], T(q.margin), m);
    PairContacts& o = out[i];
    o.normal[0] = m.n[0].x;
    o.normal[1] = m.n[0].y;
    o.normal[2] = m.n[0].z; // the first point's (shared by the swept shapes' points)
    for (int k = 0; k < kPairPoints; ++k)
      if (m.on[k]) {
        o.pos[o.count][0] = m.pos[k].x;
        o.pos[o.count][1] = m.pos[k].y;
        o.pos[o.count][2] = m.pos[k].z;
        o.normals[o.count][0] = m.n[k].x;
        o.normals[o.count][1] = m.n[k].y;
        o.normals[o.count][2] = m.n[k].z;
        o.dist[o.count] = m.dist[k];
        ++o.count;
      }
  }
}

} // namespace

void collide_shape_pairs(const std::vector<PairQuery>& queries, Precision precision, std::vector<PairContacts>& out) {
  if (precision == Precision::F32)
    run<float>(queries, out);
  else
    run<double>(queries, out);
}

} // namespace ach
