// MuJoCo's fluid forces (engine_passive.c mj_fluid, doc/computation/fluid.rst), one body wrench per
// MuJoCo body with mass, computed from the velocity the ABA's first sweep gives each link and fed
// into the ABA as an external force (its bias pA −= f_ext), so that every forward-dynamics
// evaluation (each RK4 stage, the constrained solve's qacc_smooth, Euler's implicit re-solve,
// sense, the constraint report) sees the same qfrc_fluid MuJoCo adds to qfrc_passive. A wrench
// [τ; f] applied at point p of body B (mj_applyFT) is the spatial force [τ + p × f; f] about B's
// origin, here in B's axes.
//
// Both models work in a local frame L (the body's inertial frame, or a geom's) with the local
// velocity [ω; v] of the point at L's origin relative to the wind (mj_objectVelocity flg_local,
// minus R_WLᵀ·wind: mju_transformSpatial of [0; wind] only rotates it).
//
// Inertia box (mj_inertiaBoxFluidModel), box sides b from body_mass and body_inertia:
//   viscosity μ > 0:  d = (b₀ + b₁ + b₂)/3;  τ = −π d³ μ ω;  f = −3π d μ v
//   density ρ > 0:    f_i −= ½ ρ b_j b_k |v_i| v_i;  τ_i −= ρ b_i (b_j⁴ + b_k⁴) |ω_i| ω_i / 64
// Ellipsoid (mj_ellipsoidFluidModel), semi-axes s, fluidcoef (C_blunt, C_slender, C_ang, C_K, C_M),
// added masses m_a and inertias I_a (mjCGeom::SetFluidCoefs):
//   added mass (mj_addedMassForces, without the q̈ terms, as MuJoCo):
//     p = ρ m_a ∘ v,  L = ρ I_a ∘ ω;  τ += p × v + L × ω;  f += p × ω
//   Magnus (mj_viscousForces):  f += C_M ρ V (ω × v),  V = 4/3 π s₀ s₁ s₂
//   Kutta: n = (s₁²s₂² v₀, s₂²s₀² v₁, s₀²s₁² v₂);  A_proj = π sqrt(Σ s_j⁴s_k⁴ v_i² / Σ s_j²s_k² v_i²);
//          cos α = Σ s_j²s_k² v_i² / (|v| Σ s_j⁴s_k⁴ v_i²);  f += ((n × v) C_K ρ cos α A_proj) × v
//          (both 0 below |v| = mjMINVAL, as MuJoCo 3.14; see fluid_ellipsoid_local)
//   drag: f −= (μ 3π D + ρ |v| (A_proj C_blunt + C_slender (A_max − A_proj))) v,   D = 2/3 Σ s
//         τ −= (μ π D³ + ρ |m_v|) ω,  m_v,i = ω_i (C_ang I_i + C_slender (I_max − I_i))
//   with A_max = π d_max d_mid, I_max = 8/15 π d_mid d_max⁴, I_i = 8/15 π s_i max(s_j, s_k)⁴
//   (mji_ellipsoid_max_moment).
#pragma once

#include "../isa_namespace.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "../bugs.hpp"
#include "../lane_values.hpp"
#include "../model.hpp"
#include "../spatial.hpp"
#include "../vmath.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// MuJoCo's mjMINVAL.
constexpr double kFluidMinVal = 1e-15;

/// One ellipsoid-model geom, its constants rounded once to T (products formed in double).
template <class T>
struct KFluidEllipsoid {
  T pos[3], R[9];
  T s[3];
  T a4[3];                           // (s_j s_k)⁴ for i = 0, 1, 2 (j, k the other two)
  T a2[3];                           // (s_j s_k)²
  T magnus;                          // C_M ρ V
  T kutta;                           // C_K ρ
  T visc_force, visc_torque;         // μ 3π D, μ π D³
  T blunt, slender, A_max;           // C_blunt, C_slender, A_max
  T mom[3];                          // C_ang I_i + C_slender (I_max − I_i)
  T density;                         // ρ
  T added_mass[3], added_inertia[3]; // ρ m_a, ρ I_a
};

template <class T>
struct KFluidBody {
  int body;
  bool box;
  T R[9];               // R_BI
  T visc_ang, visc_lin; // −π d³ μ, −3π d μ (0 without viscosity)
  T drag_lin[3];        // ½ ρ b_j b_k (0 without density)
  T drag_ang[3];        // ρ b_i (b_j⁴ + b_k⁴) / 64
  std::vector<KFluidEllipsoid<T>> ellipsoids;
};

template <class T>
struct KFluid {
  bool on = false;
  bool wind = false; // a nonzero wind: the pass needs each body's world rotation
  T wind_W[3] = {0, 0, 0};
  std::vector<KFluidBody<T>> bodies;

  KFluid() = default;
  explicit KFluid(const FluidSpec& f) {
    on = f.on();
    if (!on) return;
    for (int k = 0; k < 3; ++k) wind_W[k] = T(f.wind[k]), wind = wind || f.wind[k] != 0;
    const double rho = f.density, mu = f.viscosity, pi = 3.141592653589793;
    for (const FluidBody& b : f.bodies) {
      KFluidBody<T> k{};
      k.body = b.body;
      k.box = b.box;
      for (int e = 0; e < 9; ++e) k.R[e] = T(b.R[e]);
      if (b.box) {
        const double* s = b.size;
        const double d = (s[0] + s[1] + s[2]) / 3.0;
        k.visc_ang = T(mu > 0 ? -pi * d * d * d * mu : 0);
        k.visc_lin = T(mu > 0 ? -3.0 * pi * d * mu : 0);
        for (int i = 0; i < 3; ++i) {
          const double sj = s[(i + 1) % 3], sk = s[(i + 2) % 3];
          k.drag_lin[i] = T(rho > 0 ? 0.5 * rho * sj * sk : 0);
          k.drag_ang[i] = T(rho > 0 ? rho * s[i] * (sj * sj * sj * sj + sk * sk * sk * sk) / 64.0 : 0);
        }
      }
      for (const FluidEllipsoid& g : b.ellipsoids) {
        KFluidEllipsoid<T> e{};
        const double* s = g.semiaxes;
        for (int i = 0; i < 3; ++i) {
          e.pos[i] = T(g.pos[i]);
          e.s[i] = T(s[i]);
          const double p = s[(i + 1) % 3] * s[(i + 2) % 3];
          e.a2[i] = T(p * p);
          e.a4[i] = T((p * p) * (p * p));
          e.added_mass[i] = T(rho * g.virtual_mass[i]);
          e.added_inertia[i] = T(rho * g.virtual_inertia[i]);
        }
        for (int i = 0; i < 9; ++i) e.R[i] = T(g.R[i]);
        const double volume = 4.0 / 3.0 * pi * s[0] * s[1] * s[2];
        const double d_max = std::max(std::max(s[0], s[1]), s[2]), d_min = std::min(std::min(s[0], s[1]), s[2]);
        const double d_mid = s[0] + s[1] + s[2] - d_max - d_min;
        const double D = 2.0 / 3.0 * (s[0] + s[1] + s[2]);
        const double I_max = 8.0 / 15.0 * pi * d_mid * (d_max * d_max) * (d_max * d_max);
        e.magnus = T(g.magnus_lift * rho * volume);
        e.kutta = T(g.kutta_lift * rho);
        e.visc_force = T(mu * 3.0 * pi * D);
        e.visc_torque = T(mu * pi * D * D * D);
        e.blunt = T(g.blunt_drag);
        e.slender = T(g.slender_drag);
        e.A_max = T(pi * d_max * d_mid);
        for (int i = 0; i < 3; ++i) {
          const double m = std::max(s[(i + 1) % 3], s[(i + 2) % 3]);
          const double I_i = 8.0 / 15.0 * pi * s[i] * (m * m) * (m * m);
          e.mom[i] = T(g.ang_drag * I_i + g.slender_drag * (I_max - I_i));
        }
        e.density = T(rho);
        k.ellipsoids.push_back(e);
      }
      bodies.push_back(std::move(k));
    }
  }
};

template <class V>
ACH_INLINE Vec3<V> fluid_vec(const ScalarOf<V>* a) {
  return {V(a[0]), V(a[1]), V(a[2])};
}
template <class V>
ACH_INLINE Mat3<V> fluid_mat(const ScalarOf<V>* m) {
  Mat3<V> R;
  for (int k = 0; k < 9; ++k) R.m[k] = V(m[k]);
  return R;
}
template <class V>
ACH_INLINE Vec3<V> hadamard(const Vec3<V>& a, const Vec3<V>& b) {
  return {a.x * b.x, a.y * b.y, a.z * b.z};
}

/// The inertia-box model's local wrench [τ; f] from the local velocity [ω; v] (mj_inertiaBoxFluidModel).
template <class V>
ACH_INLINE Force<V> fluid_box_local(const KFluidBody<ScalarOf<V>>& b, const Vec3<V>& w, const Vec3<V>& v) {
  Force<V> f{V(b.visc_ang) * w, V(b.visc_lin) * v};
  f.f.x -= V(b.drag_lin[0]) * vabs(v.x) * v.x;
  f.f.y -= V(b.drag_lin[1]) * vabs(v.y) * v.y;
  f.f.z -= V(b.drag_lin[2]) * vabs(v.z) * v.z;
  f.n.x -= V(b.drag_ang[0]) * vabs(w.x) * w.x;
  f.n.y -= V(b.drag_ang[1]) * vabs(w.y) * w.y;
  f.n.z -= V(b.drag_ang[2]) * vabs(w.z) * w.z;
  return f;
}

/// The ellipsoid model's local wrench [τ; f] of one geom from its local velocity [ω; v]
/// (mj_addedMassForces without q̈, then mj_viscousForces).
template <class V>
ACH_INLINE Force<V> fluid_ellipsoid_local(const KFluidEllipsoid<ScalarOf<V>>& e, const Vec3<V>& w, const Vec3<V>& v) {
  using T = ScalarOf<V>;
  const V zero(T(0));
  Force<V> f{{zero, zero, zero}, {zero, zero, zero}};
  if (!ACH_BUG(FluidAddedMassDropped)) {
    const Vec3<V> p = hadamard(fluid_vec<V>(e.added_mass), v), L = hadamard(fluid_vec<V>(e.added_inertia), w);
    f.n = cross(p, v) + cross(L, w);
    f.f = cross(p, w);
  }
  const Vec3<V> magnus = V(e.magnus) * cross(w, v);
  // The projection terms are scale-free in v, so they are formed from its direction u = v/|v|, and only
  // where |v| > mjMINVAL (MuJoCo 3.14: its Kutta lift and projected area take no mjMINVAL floor on
  // Σ s⁴v² or Σ s²v², which the 3.12 source had, and vanish below that speed; a float32 Σ s⁴v² would
  // underflow long before): A_proj = π sqrt(Σ s⁴u² / Σ s²u²), and the Kutta force
  // (n × v) C_K ρ cos α A_proj × v = C_K ρ A_proj (Σ s²u² / Σ s⁴u²) |v|² ((s²∘u × u) × u).
  const V speed = vsqrt(dot(v, v));
  const V one(T(1)), zero_v(T(0));
  const MaskOf<V> moving = speed > V(T(kFluidMinVal));
  const Vec3<V> u = (one / vselect(moving, speed, one)) * v;
  const Vec3<V> u2 = hadamard(u, u);
  const V proj_denom = V(e.a4[0]) * u2.x + V(e.a4[1]) * u2.y + V(e.a4[2]) * u2.z;
  const V proj_num = V(e.a2[0]) * u2.x + V(e.a2[1]) * u2.y + V(e.a2[2]) * u2.z;
  const MaskOf<V> shaped = vand(moving, vand(proj_num > zero_v, proj_denom > zero_v));
  const V A_proj = vselect(shaped, T(3.141592653589793) * vsqrt(proj_denom / vselect(shaped, proj_num, one)), zero_v);
  const Vec3<V> norm = hadamard(fluid_vec<V>(e.a2), u);
  const V lift = vselect(shaped, V(e.kutta) * A_proj * (proj_num / vselect(shaped, proj_denom, one)) * (speed * speed), zero_v);
  Vec3<V> kutta = lift * cross(cross(norm, u), u);
  if (ACH_BUG(FluidKuttaLiftSign)) kutta = -kutta;
  const Vec3<V> mom_visc = hadamard(w, fluid_vec<V>(e.mom));
  const V drag_lin = V(e.visc_force) + V(e.density) * speed * (A_proj * V(e.blunt) + V(e.slender) * (V(e.A_max) - A_proj));
  const V drag_ang = V(e.visc_torque) + V(e.density) * vsqrt(dot(mom_visc, mom_visc));
  f.n = f.n - drag_ang * w;
  f.f = f.f + (magnus + kutta - drag_lin * v);
  return f;
}

/// [τ; f] applied at point p (B coordinates) of a body, as the spatial force about B's origin.
template <class V>
ACH_INLINE Force<V> fluid_at(const Vec3<V>& p, const Force<V>& f) {
  return {f.n + cross(p, f.f), f.f};
}

/// The fluid wrench of each fluid body, subtracted from its link's ABA bias: pA −= f_fluid (after
/// pass_velocity, before the backward sweep). `M` the kernel's model (KModel), `W` its JointWork.
template <class V, class KM, class Work>
inline void pass_fluid(const KM& M, Work* W) {
  using T = ScalarOf<V>;
  const KFluid<T>& F = M.fluid;
  for (const KFluidBody<T>& b : F.bodies) {
    const int i = b.body;
    const Vec3<V> w_B = W[i].vel.w, v_B = W[i].vel.v;
    // R_WBᵀ·wind: the wind in B's axes (R_WB from the placements, root to this link)
    Vec3<V> wind_B{V(T(0)), V(T(0)), V(T(0))};
    if (F.wind) {
      Mat3<V> R = W[i].X.R;
      for (int p = M.joints[i].parent; p >= 0; p = M.joints[p].parent) R = mul(W[p].X.R, R);
      wind_B = mulT(R, fluid_vec<V>(F.wind_W));
    }
    Force<V> total;
    if (b.box) {
      // the inertial frame I at the link's centre of mass c (per lane), turned by R_BI
      const Vec3<V> c = M.per_lane ? Vec3<V>{M.template lane<V>(LaneSlots::com(i, 0)), M.template lane<V>(LaneSlots::com(i, 1)),
                                             M.template lane<V>(LaneSlots::com(i, 2))}
                                   : fluid_vec<V>(M.joints[i].com);
      const Mat3<V> R_BI = fluid_mat<V>(b.R);
      const Vec3<V> v_c = ACH_BUG(FluidBoxWindIgnored) ? v_B + cross(w_B, c) : (v_B + cross(w_B, c)) - wind_B;
      const Force<V> loc = fluid_box_local<V>(b, mulT(R_BI, w_B), mulT(R_BI, v_c));
      total = fluid_at(c, Force<V>{mul(R_BI, loc.n), mul(R_BI, loc.f)});
    } else {
      const V z(T(0));
      total = {{z, z, z}, {z, z, z}};
      for (const KFluidEllipsoid<T>& e : b.ellipsoids) {
        const Vec3<V> p = fluid_vec<V>(e.pos);
        const Mat3<V> R_BG = fluid_mat<V>(e.R);
        const Vec3<V> v_p = (v_B + cross(w_B, p)) - wind_B;
        const Force<V> loc = fluid_ellipsoid_local<V>(e, mulT(R_BG, w_B), mulT(R_BG, v_p));
        total = total + fluid_at(p, Force<V>{mul(R_BG, loc.n), mul(R_BG, loc.f)});
      }
    }
    W[i].pA = W[i].pA - total;
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
