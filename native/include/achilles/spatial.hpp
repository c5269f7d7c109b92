// Spatial algebra on lane packs (Featherstone's 6-D vectors, angular part first).
//
// Names follow the frames they relate: R_PB rotates B-coordinates into P-coordinates, p_PB is
// B's origin in P. A Motion m = [ω; v] (v at the frame's origin), a Force f = [n; f] (n about
// the frame's origin). An articulated inertia is the symmetric 6×6 [[A, B], [Bᵀ, C]].
#pragma once

#include "isa_namespace.hpp"

#include "simd.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

template <class V>
struct Vec3 {
  V x, y, z;
};
template <class V>
ACH_INLINE Vec3<V> operator+(const Vec3<V>& a, const Vec3<V>& b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class V>
ACH_INLINE Vec3<V> operator-(const Vec3<V>& a, const Vec3<V>& b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class V>
ACH_INLINE Vec3<V> operator-(const Vec3<V>& a) {
  return {-a.x, -a.y, -a.z};
}
template <class V>
ACH_INLINE Vec3<V> operator*(const V& s, const Vec3<V>& a) {
  return {s * a.x, s * a.y, s * a.z};
}
template <class V>
ACH_INLINE V dot(const Vec3<V>& a, const Vec3<V>& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
template <class V>
ACH_INLINE Vec3<V> cross(const Vec3<V>& a, const Vec3<V>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/// Row-major 3×3: m[r*3+c].
template <class V>
struct Mat3 {
  V m[9];
};
template <class V>
ACH_INLINE Vec3<V> mul(const Mat3<V>& R, const Vec3<V>& a) {
  return {R.m[0] * a.x + R.m[1] * a.y + R.m[2] * a.z, R.m[3] * a.x + R.m[4] * a.y + R.m[5] * a.z, R.m[6] * a.x + R.m[7] * a.y + R.m[8] * a.z};
}
/// Rᵀ a.
template <class V>
ACH_INLINE Vec3<V> mulT(const Mat3<V>& R, const Vec3<V>& a) {
  return {R.m[0] * a.x + R.m[3] * a.y + R.m[6] * a.z, R.m[1] * a.x + R.m[4] * a.y + R.m[7] * a.z, R.m[2] * a.x + R.m[5] * a.y + R.m[8] * a.z};
}
template <class V>
ACH_INLINE Mat3<V> mul(const Mat3<V>& A, const Mat3<V>& B) {
  Mat3<V> C;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) C.m[r * 3 + c] = A.m[r * 3] * B.m[c] + A.m[r * 3 + 1] * B.m[3 + c] + A.m[r * 3 + 2] * B.m[6 + c];
  return C;
}

/// Rigid transform X_PB = (R_PB, p_PB).
template <class V>
struct Transform {
  Mat3<V> R;
  Vec3<V> p;
};
/// X_AC = X_AB · X_BC.
template <class V>
ACH_INLINE Transform<V> compose(const Transform<V>& AB, const Transform<V>& BC) {
  return {mul(AB.R, BC.R), AB.p + mul(AB.R, BC.p)};
}

template <class V>
struct Motion {
  Vec3<V> w, v;
};
template <class V>
struct Force {
  Vec3<V> n, f;
};
template <class V>
ACH_INLINE Motion<V> operator+(const Motion<V>& a, const Motion<V>& b) {
  return {a.w + b.w, a.v + b.v};
}
template <class V>
ACH_INLINE Force<V> operator+(const Force<V>& a, const Force<V>& b) {
  return {a.n + b.n, a.f + b.f};
}
template <class V>
ACH_INLINE Force<V> operator-(const Force<V>& a, const Force<V>& b) {
  return {a.n - b.n, a.f - b.f};
}

/// A rotation by θ about coordinate axis K (0, 1, 2), kept as (c, s) = (cos θ, sin θ): the matrix
/// R[K][K] = 1, R[I][I] = R[J][J] = c, R[J][I] = −R[I][J] = s (I = K+1, J = K+2 mod 3) without its
/// zeros and ones. Its products equal Mat3's value for value (a term times an exact 0 or 1 adds
/// nothing, and a sum of two terms commutes), save the sign of an exact zero.
template <int K, class V>
struct AxisRotation {
  static constexpr int I = (K + 1) % 3, J = (K + 2) % 3;
  V c, s;
};
template <class V>
ACH_INLINE V& at(Vec3<V>& a, int k) {
  return k == 0 ? a.x : (k == 1 ? a.y : a.z);
}
template <class V>
ACH_INLINE const V& at(const Vec3<V>& a, int k) {
  return k == 0 ? a.x : (k == 1 ? a.y : a.z);
}
/// R a.
template <int K, class V>
ACH_INLINE Vec3<V> mul(const AxisRotation<K, V>& R, const Vec3<V>& a) {
  constexpr int I = AxisRotation<K, V>::I, J = AxisRotation<K, V>::J;
  Vec3<V> o;
  at(o, K) = at(a, K);
  at(o, I) = R.c * at(a, I) - R.s * at(a, J);
  at(o, J) = R.s * at(a, I) + R.c * at(a, J);
  return o;
}
/// Rᵀ a.
template <int K, class V>
ACH_INLINE Vec3<V> mulT(const AxisRotation<K, V>& R, const Vec3<V>& a) {
  constexpr int I = AxisRotation<K, V>::I, J = AxisRotation<K, V>::J;
  Vec3<V> o;
  at(o, K) = at(a, K);
  at(o, I) = R.c * at(a, I) + R.s * at(a, J);
  at(o, J) = R.c * at(a, J) - R.s * at(a, I);
  return o;
}

/// The point d·e_K on coordinate axis K (0, 1, 2): a joint's origin offset along one axis of its
/// parent, without its two zeros. Its products equal Vec3's value for value, as AxisRotation's do.
template <int K, class V>
struct AxisOffset {
  static constexpr int I = (K + 1) % 3, J = (K + 2) % 3;
  V d;
};
/// v + a × b.
template <class V>
ACH_INLINE Vec3<V> plus_cross(const Vec3<V>& v, const Vec3<V>& a, const Vec3<V>& b) {
  return v + cross(a, b);
}
/// v + a × p: (a × d·e_K)[I] = d·a[J], [J] = −d·a[I], [K] = 0.
template <int K, class V>
ACH_INLINE Vec3<V> plus_cross(const Vec3<V>& v, const Vec3<V>& a, const AxisOffset<K, V>& p) {
  constexpr int I = AxisOffset<K, V>::I, J = AxisOffset<K, V>::J;
  Vec3<V> o = v;
  at(o, I) = at(v, I) + p.d * at(a, J);
  at(o, J) = at(v, J) - p.d * at(a, I);
  return o;
}
/// v + p × a: (d·e_K × a)[I] = −d·a[J], [J] = d·a[I], [K] = 0.
template <int K, class V>
ACH_INLINE Vec3<V> plus_cross(const Vec3<V>& v, const AxisOffset<K, V>& p, const Vec3<V>& a) {
  constexpr int I = AxisOffset<K, V>::I, J = AxisOffset<K, V>::J;
  Vec3<V> o = v;
  at(o, I) = at(v, I) - p.d * at(a, J);
  at(o, J) = at(v, J) + p.d * at(a, I);
  return o;
}

/// Motion in B given the same motion in P (X_PB⁻¹ · m): ω_B = Rᵀω, v_B = Rᵀ(v + ω × p).
template <class V, class Rot, class Pos>
ACH_INLINE Motion<V> motion_to_child(const Rot& R_PB, const Pos& p_PB, const Motion<V>& m_P) {
  return {mulT(R_PB, m_P.w), mulT(R_PB, plus_cross(m_P.v, m_P.w, p_PB))};
}
template <class V>
ACH_INLINE Motion<V> motion_to_child(const Transform<V>& X_PB, const Motion<V>& m_P) {
  return motion_to_child(X_PB.R, X_PB.p, m_P);
}
/// Force in P given the same force in B (X_PB* · f): f_P = R f, n_P = R n + p × R f.
template <class V, class Rot, class Pos>
ACH_INLINE Force<V> force_to_parent(const Rot& R_PB, const Pos& p_PB, const Force<V>& f_B) {
  const Vec3<V> f = mul(R_PB, f_B.f);
  return {plus_cross(mul(R_PB, f_B.n), p_PB, f), f};
}
template <class V>
ACH_INLINE Force<V> force_to_parent(const Transform<V>& X_PB, const Force<V>& f_B) {
  return force_to_parent(X_PB.R, X_PB.p, f_B);
}
/// Motion cross product m × m2 = [ω × ω2; ω × v2 + v × ω2].
template <class V>
ACH_INLINE Motion<V> cross_motion(const Motion<V>& m, const Motion<V>& m2) {
  return {cross(m.w, m2.w), cross(m.w, m2.v) + cross(m.v, m2.w)};
}
/// Force cross product m ×* f = [ω × n + v × f; ω × f].
template <class V>
ACH_INLINE Force<V> cross_force(const Motion<V>& m, const Force<V>& f) {
  return {cross(m.w, f.n) + cross(m.v, f.f), cross(m.w, f.f)};
}
template <class V>
ACH_INLINE V dot(const Motion<V>& m, const Force<V>& f) {
  return dot(m.w, f.n) + dot(m.v, f.f);
}

/// Symmetric 3×3 stored (xx, yy, zz, xy, xz, yz).
template <class V>
struct Sym3 {
  V xx, yy, zz, xy, xz, yz;
};
template <class V>
ACH_INLINE Vec3<V> mul(const Sym3<V>& S, const Vec3<V>& a) {
  return {S.xx * a.x + S.xy * a.y + S.xz * a.z, S.xy * a.x + S.yy * a.y + S.yz * a.z, S.xz * a.x + S.yz * a.y + S.zz * a.z};
}

/// Rigid-body spatial inertia about the body origin: mass m, first moment h = m·c, rotational
/// inertia Io about the origin. I·[ω; v] = [Io ω + h × v; m v − h × ω].
template <class V>
struct RigidInertia {
  V m;
  Vec3<V> h;
  Sym3<V> Io;
};
template <class V>
ACH_INLINE Force<V> mul(const RigidInertia<V>& I, const Motion<V>& m) {
  return {mul(I.Io, m.w) + cross(I.h, m.v), I.m * m.v - cross(I.h, m.w)};
}

/// Articulated-body inertia [[A, B], [Bᵀ, C]] with A, C symmetric, B full (row-major).
template <class V>
struct ABInertia {
  Sym3<V> A;
  Mat3<V> B;
  Sym3<V> C;
};
template <class V>
ACH_INLINE Force<V> mul(const ABInertia<V>& I, const Motion<V>& m) {
  return {mul(I.A, m.w) + mul(I.B, m.v), mulT(I.B, m.w) + mul(I.C, m.v)};
}
template <class V>
ACH_INLINE ABInertia<V> to_articulated(const RigidInertia<V>& I) {
  // B = [h]×, so B v = h × v; Bᵀ ω = −h × ω; C = m·1.
  const V z = V(ScalarOf<V>(0));
  ABInertia<V> o;
  o.A = I.Io;
  o.B = Mat3<V>{{z, -I.h.z, I.h.y, I.h.z, z, -I.h.x, -I.h.y, I.h.x, z}};
  o.C = Sym3<V>{I.m, I.m, I.m, z, z, z};
  return o;
}
template <class V>
ACH_INLINE void add_to(ABInertia<V>& a, const ABInertia<V>& b) {
  a.A.xx += b.A.xx;
  a.A.yy += b.A.yy;
  a.A.zz += b.A.zz;
  a.A.xy += b.A.xy;
  a.A.xz += b.A.xz;
  a.A.yz += b.A.yz;
  for (int k = 0; k < 9; ++k) a.B.m[k] += b.B.m[k];
  a.C.xx += b.C.xx;
  a.C.yy += b.C.yy;
  a.C.zz += b.C.zz;
  a.C.xy += b.C.xy;
  a.C.xz += b.C.xz;
  a.C.yz += b.C.yz;
}

/// R S Rᵀ for symmetric S.
template <class V>
ACH_INLINE Sym3<V> rotate(const Mat3<V>& R, const Sym3<V>& S) {
  // T = R S (full), then (T Rᵀ) keeping the upper triangle.
  const V s[9] = {S.xx, S.xy, S.xz, S.xy, S.yy, S.yz, S.xz, S.yz, S.zz};
  V t[9];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) t[r * 3 + c] = R.m[r * 3] * s[c] + R.m[r * 3 + 1] * s[3 + c] + R.m[r * 3 + 2] * s[6 + c];
  auto e = [&](int r, int c) { return t[r * 3] * R.m[c * 3] + t[r * 3 + 1] * R.m[c * 3 + 1] + t[r * 3 + 2] * R.m[c * 3 + 2]; };
  return {e(0, 0), e(1, 1), e(2, 2), e(0, 1), e(0, 2), e(1, 2)};
}
/// R B Rᵀ for full B.
template <class V>
ACH_INLINE Mat3<V> rotate(const Mat3<V>& R, const Mat3<V>& B) {
  Mat3<V> t = mul(R, B);
  Mat3<V> o;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) o.m[r * 3 + c] = t.m[r * 3] * R.m[c * 3] + t.m[r * 3 + 1] * R.m[c * 3 + 1] + t.m[r * 3 + 2] * R.m[c * 3 + 2];
  return o;
}

/// T = R·M about a coordinate axis: rows I and J of M turn, row K stays.
template <int K, class V>
ACH_INLINE Mat3<V> mul(const AxisRotation<K, V>& R, const Mat3<V>& M) {
  constexpr int I = AxisRotation<K, V>::I, J = AxisRotation<K, V>::J;
  Mat3<V> t;
  for (int col = 0; col < 3; ++col) {
    t.m[K * 3 + col] = M.m[K * 3 + col];
    t.m[I * 3 + col] = R.c * M.m[I * 3 + col] - R.s * M.m[J * 3 + col];
    t.m[J * 3 + col] = R.s * M.m[I * 3 + col] + R.c * M.m[J * 3 + col];
  }
  return t;
}
/// Entry (r, col) of T·Rᵀ about a coordinate axis: columns I and J of T turn, column K stays.
template <int K, class V>
ACH_INLINE V mul_transposed(const Mat3<V>& T, const AxisRotation<K, V>& R, int r, int col) {
  constexpr int I = AxisRotation<K, V>::I, J = AxisRotation<K, V>::J;
  if (col == K) return T.m[r * 3 + K];
  if (col == I) return R.c * T.m[r * 3 + I] - R.s * T.m[r * 3 + J];
  return R.s * T.m[r * 3 + I] + R.c * T.m[r * 3 + J];
}
/// R B Rᵀ for full B, about a coordinate axis.
template <int K, class V>
ACH_INLINE Mat3<V> rotate(const AxisRotation<K, V>& R, const Mat3<V>& B) {
  const Mat3<V> t = mul(R, B);
  Mat3<V> o;
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 3; ++col) o.m[r * 3 + col] = mul_transposed(t, R, r, col);
  return o;
}
/// R S Rᵀ for symmetric S, about a coordinate axis (the upper triangle of R S Rᵀ).
template <int K, class V>
ACH_INLINE Sym3<V> rotate(const AxisRotation<K, V>& R, const Sym3<V>& S) {
  const Mat3<V> t = mul(R, Mat3<V>{{S.xx, S.xy, S.xz, S.xy, S.yy, S.yz, S.xz, S.yz, S.zz}});
  auto e = [&](int r, int col) ACH_ALWAYS_INLINE { return mul_transposed(t, R, r, col); };
  return {e(0, 0), e(1, 1), e(2, 2), e(0, 1), e(0, 2), e(1, 2)};
}

/// The articulated inertia of child B expressed in parent P: X* I X⁻¹ for X = X_PB = (R_PB, p_PB).
/// Rotate every block (A' = R A Rᵀ, …), then shift the reference point by p (P = [p]×):
///   A_P = A' + P B'ᵀ + (P B'ᵀ)ᵀ − P C' P,   B_P = B' + P C',   C_P = C'.
template <class V, class Rot>
ACH_INLINE ABInertia<V> inertia_to_parent(const Rot& R_PB, const Vec3<V>& p_PB, const ABInertia<V>& I) {
  const Sym3<V> A = rotate(R_PB, I.A);
  const Mat3<V> B = rotate(R_PB, I.B);
  const Sym3<V> C = rotate(R_PB, I.C);
  const V px = p_PB.x, py = p_PB.y, pz = p_PB.z;
  // PC = P · C (P = [[0,-pz,py],[pz,0,-px],[-py,px,0]])
  const V c[9] = {C.xx, C.xy, C.xz, C.xy, C.yy, C.yz, C.xz, C.yz, C.zz};
  V PC[9];
  for (int k = 0; k < 3; ++k) {
    PC[0 * 3 + k] = -pz * c[3 + k] + py * c[6 + k];
    PC[1 * 3 + k] = pz * c[0 + k] - px * c[6 + k];
    PC[2 * 3 + k] = -py * c[0 + k] + px * c[3 + k];
  }
  // PBt = P · Bᵀ
  V PBt[9];
  for (int k = 0; k < 3; ++k) {
    // (Bᵀ)[r][k] = B[k][r]
    const V b0 = B.m[k * 3 + 0], b1 = B.m[k * 3 + 1], b2 = B.m[k * 3 + 2];
    PBt[0 * 3 + k] = -pz * b1 + py * b2;
    PBt[1 * 3 + k] = pz * b0 - px * b2;
    PBt[2 * 3 + k] = -py * b0 + px * b1;
  }
  // PCP = PC · P: (PC·P)[r][c] = Σ_k PC[r][k] P[k][c]
  auto pcp = [&](int r, int col) {
    const V* row = PC + r * 3;
    switch (col) {
      case 0:
        return row[1] * pz - row[2] * py;
      case 1:
        return -row[0] * pz + row[2] * px;
      default:
        return row[0] * py - row[1] * px;
    }
  };
  ABInertia<V> o;
  o.A.xx = A.xx + PBt[0] + PBt[0] - pcp(0, 0);
  o.A.yy = A.yy + PBt[4] + PBt[4] - pcp(1, 1);
  o.A.zz = A.zz + PBt[8] + PBt[8] - pcp(2, 2);
  o.A.xy = A.xy + PBt[1] + PBt[3] - pcp(0, 1);
  o.A.xz = A.xz + PBt[2] + PBt[6] - pcp(0, 2);
  o.A.yz = A.yz + PBt[5] + PBt[7] - pcp(1, 2);
  for (int k = 0; k < 9; ++k) o.B.m[k] = B.m[k] + PC[k];
  o.C = C;
  return o;
}
/// The same for an origin on coordinate axis K (p = d·e_K), with the shift's exact zeros left out:
/// row K of P C' and of P B'ᵀ, and row and column K of P C' P, are zero.
template <int K, class V, class Rot>
ACH_INLINE ABInertia<V> inertia_to_parent(const Rot& R_PB, const AxisOffset<K, V>& p_PB, const ABInertia<V>& I) {
  constexpr int Ia = AxisOffset<K, V>::I, Ja = AxisOffset<K, V>::J;
  const Sym3<V> A = rotate(R_PB, I.A);
  const Mat3<V> B = rotate(R_PB, I.B);
  const Sym3<V> C = rotate(R_PB, I.C);
  const V d = p_PB.d;
  const V c[9] = {C.xx, C.xy, C.xz, C.xy, C.yy, C.yz, C.xz, C.yz, C.zz};
  // P C (column k: p × C's column k) on rows Ia, Ja; P Bᵀ (column k: p × B's row k) likewise
  V PC[9], PBt[9];
  for (int k = 0; k < 3; ++k) {
    PC[Ia * 3 + k] = -(d * c[Ja * 3 + k]);
    PC[Ja * 3 + k] = d * c[Ia * 3 + k];
    PBt[Ia * 3 + k] = -(d * B.m[k * 3 + Ja]);
    PBt[Ja * 3 + k] = d * B.m[k * 3 + Ia];
  }
  // (P C P)[r][col] = (row r of P C) × p, for r, col ≠ K
  auto pcp = [&](int r, int col) { return col == Ia ? d * PC[r * 3 + Ja] : -(d * PC[r * 3 + Ia]); };
  // A_P(r, col) = A' + (P Bᵀ)(r, col) + (P Bᵀ)(col, r) − (P C P)(r, col), zero terms left out
  auto a = [&](V x, int r, int col) {
    if (r != K) x = x + PBt[r * 3 + col];
    if (col != K) x = x + PBt[col * 3 + r];
    if (r != K && col != K) x = x - pcp(r, col);
    return x;
  };
  ABInertia<V> o;
  o.A = {a(A.xx, 0, 0), a(A.yy, 1, 1), a(A.zz, 2, 2), a(A.xy, 0, 1), a(A.xz, 0, 2), a(A.yz, 1, 2)};
  for (int k = 0; k < 9; ++k) o.B.m[k] = k / 3 == K ? B.m[k] : B.m[k] + PC[k];
  o.C = C;
  return o;
}
template <class V>
ACH_INLINE ABInertia<V> inertia_to_parent(const Transform<V>& X, const ABInertia<V>& I) {
  return inertia_to_parent(X.R, X.p, I);
}

} // namespace ACH_ISA_NS
} // namespace ach
