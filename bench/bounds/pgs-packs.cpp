// What packing PGS islands into SIMD lanes across a whole batch could give (issue 28): MuJoCo's
// solPGS sweeps on the islands one f32 Humanoid-v5 run met, solved
//   (1) one island at a time by the engine's own pgs_island (as pgs_lane does today), and
//   (2) in packs of up to 16 islands of one shape (rows, equality rows, friction rows) taken from one
//       evaluation of every block of the batch (the stage-major stepping a pack needs), one island per
//       AVX-512 lane, each lane with its own Nesterov counter, restart and stop, every operation the
//       scalar sweep's in its order: the packed forces must equal (1)'s bit for bit.
// With `oracle`, each shape's islands are sorted by their own sweep count before they are packed: no
// grouping can do better, since a pack sweeps until its slowest island is done.
//
//   git apply bench/bounds/pgs-dump.diff && ninja -C build/native achilles.node    (the island dump)
//   ACH_PGS_DUMP=/tmp/hum.dump STATES=/tmp/hum200 ROUNDS=1 STEPS=20 \
//     node bench/step-time.mjs .../gymnasium/envs/mujoco/assets/humanoid.xml f32 16 256
//   git apply -R bench/bounds/pgs-dump.diff && ninja -C build/native achilles.node
//   g++ -std=c++20 -O3 -ffp-contract=off -mavx512f -mavx512dq -mavx512bw -mavx512vl -Inative/include \
//     bench/bounds/pgs-packs.cpp -o /tmp/pgs-packs && /tmp/pgs-packs /tmp/hum.dump [oracle]
//
// The dump (f32 runs: every value is written as a float) holds per island the evaluation number,
// lane, rows, equality and friction rows, sweeps allowed, scale, tolerance, AR, b, the start force,
// frictionloss and the force the engine's sweeps gave. step-time's Batch.step(1) runs the blocks one
// after the other, each through one step of RK4 (4 evaluations), so evaluation e belongs to step
// e / (4 · blocks) and RK4 stage e mod 4: the islands one stage-major evaluation would see together.
#include "achilles/constraint/solver/pgs.hpp"
#include <chrono>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>
long g_ach_eval = 0;
using namespace ach;
typedef float vf __attribute__((vector_size(64)));
typedef int vi __attribute__((vector_size(64)));
struct Isl { int id, lane, m, ne, nf, maxiter; float scale; double tol; std::vector<float> A, b, f0, floss, fout; };
struct Pack { int m, ne, nf, maxiter, count; double tol; vf scale; std::vector<vf> A, b, f, floss; std::vector<int> members; };

static inline vf sel(vi m, vf a, vf b) { return m ? a : b; }
static inline vf vdot(const vf* a, const vf* b, int n) {
  vf s0 = {}, s1 = {}, s2 = {}, s3 = {};
  int i = 0;
  for (; i <= n - 4; i += 4) { s0 += a[i] * b[i]; s1 += a[i + 1] * b[i + 1]; s2 += a[i + 2] * b[i + 2]; s3 += a[i + 3] * b[i + 3]; }
  vf res = (s0 + s2) + (s1 + s3);
  switch (n - i) {
  case 3: res += a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2]; break;
  case 2: res += a[i] * b[i] + a[i + 1] * b[i + 1]; break;
  case 1: res += a[i] * b[i]; break;
  }
  return res;
}
static inline vf project(const Pack& P, int c, vf f) {
  if (c < P.ne) return f;
  if (c < P.ne + P.nf) { vf lo = -P.floss[c], hi = P.floss[c]; return sel(f < lo, lo, sel(f > hi, hi, f)); }
  vf z = {}; return sel(f < z, z, f);
}
static int pgs_pack(Pack& P) {
  const int n = P.m;
  vf ARinv[64], Acc[64], prev[64], mom[64];
  vf* f = P.f.data(); const vf* A = P.A.data();
  for (int c = 0; c < n; ++c) { ARinv[c] = 1.0f / A[c * n + c]; Acc[c] = 1.0f / ARinv[c]; prev[c] = f[c]; }
  int scratch[64];
  PgsSweepOrder order(n, scratch, true);
  vi k = {}; vi active;
  for (int l = 0; l < 16; ++l) active[l] = l < P.count ? -1 : 0;
  const vf zero = {}, half = zero + 0.5f, eps = zero + 1e-10f;
  for (int it = 0; it < P.maxiter; ++it) {
    vf beta = it > 0 ? __builtin_convertvector(k - 1, vf) / __builtin_convertvector(k + 2, vf) : zero;
    vi bpos = (beta > zero) & active;
    for (int c = 0; c < n; ++c) { const vf saved = f[c]; f[c] = sel(bpos, f[c] + beta * (f[c] - prev[c]), f[c]); prev[c] = sel(active, saved, prev[c]); }
    for (int c = P.ne; c < n; ++c) f[c] = sel(bpos, project(P, c, f[c]), f[c]);
    for (int c = 0; c < n; ++c) mom[c] = f[c];
    order.sweep(it);
    vf improvement = zero;
    for (int s = 0; s < n; ++s) {
      const int c = order[s];
      const vf res = P.b[c] + vdot(A + c * n, f, n);
      const vf old = f[c];
      const vf fc = project(P, c, old - res * ARinv[c]);
      const vf delta = fc - old;
      const vf change = half * delta * delta * Acc[c] + delta * res;
      const vi rises = change > eps;
      f[c] = sel(active & ~rises, fc, old);
      improvement -= sel(rises, zero, change);
    }
    improvement *= P.scale;
    vi restart = {};
    if (it > 0) { vf dot = zero; for (int c = 0; c < n; ++c) dot += (f[c] - mom[c]) * (mom[c] - prev[c]); restart = dot < zero; }
    k = restart ? vi{} : k + 1;
    for (int l = 0; l < 16; ++l) if (active[l] && improvement[l] < P.tol) active[l] = 0;
    bool any = false; for (int l = 0; l < 16; ++l) any |= active[l] != 0;
    if (!any) return it + 1;
  }
  return P.maxiter;
}
int main(int argc, char** argv) {
  std::FILE* in = argc > 1 ? std::fopen(argv[1], "rb") : nullptr;
  if (!in) {
    std::fprintf(stderr, "usage: pgs-packs DUMP [oracle]  (DUMP: the ACH_PGS_DUMP file of an f32 run; see this file's header)\n");
    return 2;
  }
  const int blocks = 16, evals_per_step = 4; // 256 robots in 16 lanes; RK4
  std::vector<Isl> all;
  for (;;) {
    int h[6]; if (std::fread(h, sizeof h, 1, in) != 1) break;
    Isl I; I.id = h[0]; I.lane = h[1]; I.m = h[2]; I.ne = h[3]; I.nf = h[4]; I.maxiter = h[5];
    std::fread(&I.scale, 4, 1, in); std::fread(&I.tol, 8, 1, in);
    I.A.resize(I.m * I.m); I.b.resize(I.m); I.f0.resize(I.m); I.floss.resize(I.m); I.fout.resize(I.m);
    std::fread(I.A.data(), 4, I.m * I.m, in); std::fread(I.b.data(), 4, I.m, in); std::fread(I.f0.data(), 4, I.m, in);
    std::fread(I.floss.data(), 4, I.m, in); std::fread(I.fout.data(), 4, I.m, in);
    all.push_back(std::move(I));
  }
  std::printf("%zu islands\n", all.size());
  // scalar, as the engine
  std::vector<float> f(64), ARinv(64), Acc(64), prev(64), mom(64); int ord[64];
  double best_s = 1e9; long mism_s = 0;
  for (int rep = 0; rep < 5; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    for (auto& I : all) {
      std::memcpy(f.data(), I.f0.data(), 4 * I.m);
      PgsIsland<float> P{I.m, I.ne, I.nf, I.A.data(), I.b.data(), I.floss.data(), f.data(), ARinv.data(), Acc.data(), prev.data(), mom.data(), ord};
      pgs_island(P, I.maxiter, I.tol, I.scale);
      if (rep == 0) mism_s += std::memcmp(f.data(), I.fout.data(), 4 * I.m) != 0;
    }
    best_s = std::min(best_s, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  // packs: one evaluation of all blocks (step = id / (blocks·evals), substep = id % evals), by shape
  std::map<std::tuple<int, int, int, int, int>, std::vector<int>> groups;
  for (int i = 0; i < (int)all.size(); ++i) { auto& I = all[i]; groups[{I.id / (blocks * evals_per_step), I.id % evals_per_step, I.m, I.ne, I.nf}].push_back(i); }
  const bool oracle = argc > 2;
  std::vector<int> iters(all.size());
  for (int i = 0; i < (int)all.size(); ++i) {
    const Isl& I = all[i]; Pack P; P.m = I.m; P.ne = I.ne; P.nf = I.nf; P.maxiter = I.maxiter; P.tol = I.tol; P.count = 1; int n = I.m;
    P.A.assign(n * n, vf{}); P.b.assign(n, vf{}); P.f.assign(n, vf{}); P.floss.assign(n, vf{}); P.scale = vf{} + 1.0f;
    for (int e = 0; e < n * n; ++e) P.A[e] = vf{} + I.A[e];
    for (int e = 0; e < n; ++e) { P.b[e] = vf{} + I.b[e]; P.f[e] = vf{} + I.f0[e]; P.floss[e] = vf{} + I.floss[e]; }
    P.scale[0] = I.scale; iters[i] = pgs_pack(P);
  }
  { double s = 0; for (int x : iters) s += x; std::printf("sweeps per island: mean %.2f\n", s / iters.size()); }
  if (oracle) for (auto& [key, v] : groups) std::stable_sort(v.begin(), v.end(), [&](int a, int b) { return iters[a] < iters[b]; });
  std::vector<Pack> packs;
  long full = 0;
  for (auto& [key, v] : groups)
    for (size_t s = 0; s < v.size(); s += 16) {
      Pack P; const Isl& I0 = all[v[s]]; P.m = I0.m; P.ne = I0.ne; P.nf = I0.nf; P.maxiter = I0.maxiter; P.tol = I0.tol;
      P.count = std::min<int>(16, v.size() - s); full += P.count;
      int n = P.m; P.A.assign(n * n, vf{}); P.b.assign(n, vf{}); P.f.assign(n, vf{}); P.floss.assign(n, vf{}); P.scale = vf{};
      for (int l = 0; l < P.count; ++l) {
        const Isl& I = all[v[s + l]]; P.members.push_back(v[s + l]);
        for (int e = 0; e < n * n; ++e) P.A[e][l] = I.A[e];
        for (int e = 0; e < n; ++e) { P.b[e][l] = I.b[e]; P.f[e][l] = I.f0[e]; P.floss[e][l] = I.floss[e]; }
        P.scale[l] = I.scale;
      }
      for (int l = P.count; l < 16; ++l) { for (int e = 0; e < n; ++e) P.A[e * n + e][l] = 1.0f; P.scale[l] = 1.0f; }
      packs.push_back(std::move(P));
    }
  std::vector<std::vector<vf>> f0(packs.size());
  for (size_t p = 0; p < packs.size(); ++p) f0[p] = packs[p].f;
  double best_p = 1e9; long mism_p = 0;
  for (int rep = 0; rep < 5; ++rep) {
    for (size_t p = 0; p < packs.size(); ++p) packs[p].f = f0[p];
    auto t0 = std::chrono::steady_clock::now();
    for (auto& P : packs) pgs_pack(P);
    best_p = std::min(best_p, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  for (auto& P : packs)
    for (int l = 0; l < P.count; ++l) { const Isl& I = all[P.members[l]]; for (int e = 0; e < P.m; ++e) if (std::memcmp(&P.f[e][l], &I.fout[e], 4)) { ++mism_p; break; } }
  std::printf("scalar (the engine's pgs_island): %.3f ms, %ld islands differ from the engine's\n", best_s * 1e3, mism_s);
  std::printf("packs of one shape across the batch: %zu packs, %.2f islands per pack: %.3f ms (%.2fx), %ld islands differ\n", packs.size(),
              double(full) / packs.size(), best_p * 1e3, best_s / best_p, mism_p);
}
