// MuJoCo's sensordata of an imported MJCF model (engine_sensor.c: mj_sensorPos, mj_sensorVel, and
// actuatorfrc and accelerometer of mj_sensorAcc) for every lane of a block at once, from sense()'s
// evaluation of the current state: each link's pose X_WB, velocity [ω; v] and acceleration [α; a]
// in its own axes (gravity entered as −g at the base, MuJoCo's cacc convention), q, v and the
// actuator forces. Each object a sensor reads is a frame (p, Q) fixed in a link L, so
//
//   xpos = x_L + R_L·p          xmat = R_L·R(Q)          xquat = Q_L ⊗ Q
//   ω_W = R_L·ω                 v_W = R_L·(v + ω × p)    (mj_objectVelocity at the object's origin)
//   gyro = R(Q)ᵀ·ω              velocimeter = R(Q)ᵀ·(v + ω × p)
//   accelerometer = R(Q)ᵀ·(a + α × p + ω × (v + ω × p))   (mj_objectAcceleration; 0 on a welded body)
//
// With a reference frame r: framepos R_rᵀ(x − x_r), an axis R_rᵀ·e, framequat Q_r⁻¹ ⊗ Q, frameangvel
// R_rᵀ(ω − ω_r), framelinvel R_rᵀ(v − v_r + (x − x_r) × ω_r). Q_L is composed along the tree as
// mj_kinematics composes xquat (parent ⊗ the link's fixed quat ⊗ the joint's rotation, normalised),
// so its sign is MuJoCo's. subtreecom = Σ m·xipos / Σ m (each lane's masses). A Real sensor with
// cutoff c > 0 is clamped to [−c, c]. Force, torque and touch read the contact solve's per-contact
// data: the host evaluates them (src/engine/mjcf-sensors.ts) and this pass leaves their rows 0.
// Every lane runs the same operations in the same order: bit-identical across lane widths.
#pragma once

#include "../isa_namespace.hpp"

#include <vector>

#include "../aba.hpp"
#include "../joints.hpp"
#include "../model.hpp"
#include "../vmath.hpp"
#include "mjcf_sensor_spec.hpp"

namespace ach {
inline namespace ACH_ISA_NS {

/// The model's constants the pass reads, in the kernel's scalar T.
template <class T>
struct KMjcfSensors {
  struct Link {
    JointType type;
    int parent, qoff;
    T quat[4], axis[3];
    bool welded; // no degree of freedom between it and the world
  };
  std::vector<Link> links;
  std::vector<MjcfSensor> sensors;
  int nsensordata = 0;
  bool disabled = false;

  explicit KMjcfSensors(const Model& m) : sensors(m.mjcf_sensors), nsensordata(m.nsensordata), disabled(m.mjcf_sensors_disabled) {
    for (const Joint& j : m.joints) {
      Link l{j.type, j.parent, j.qoff, {}, {}, false};
      for (int k = 0; k < 4; ++k) l.quat[k] = static_cast<T>(j.quat_PJ[k]);
      for (int k = 0; k < 3; ++k) l.axis[k] = static_cast<T>(j.axis[k]);
      l.welded = j.type == JointType::Fixed && (j.parent < 0 || links[j.parent].welded);
      links.push_back(l);
    }
  }
  bool empty() const { return sensors.empty(); }
};

/// What the pass works in (one per worker, made with the kernel: nothing is allocated per block).
template <class V>
struct MjcfSensorWork {
  std::vector<V> out;        // nsensordata rows
  std::vector<Quat<V>> quat; // each link's xquat
  explicit MjcfSensorWork(int nsensordata = 0, int nlinks = 0) : out(nsensordata), quat(nlinks) {}
};

namespace mjcf_sensor_detail {
template <class V>
struct Frame {
  Vec3<V> x;
  Mat3<V> R;
  Quat<V> Q;
  Vec3<V> w, v;   // world axes, at the frame's origin
  Vec3<V> wL, vL; // the link's axes
};
template <class V>
Quat<V> const_quat(const double* q) {
  using T = ScalarOf<V>;
  return {V(T(q[0])), V(T(q[1])), V(T(q[2])), V(T(q[3]))};
}
template <class V>
Vec3<V> dvec(const double* a) {
  using T = ScalarOf<V>;
  return {V(T(a[0])), V(T(a[1])), V(T(a[2]))};
}
template <class V>
Mat3<V> dquat_mat(const double* q) {
  return quat_to_matrix(const_quat<V>(q));
}
} // namespace mjcf_sensor_detail

/// sensordata of a block's lanes into w.out (nsensordata rows), from sense()'s evaluation.
template <class V>
inline void pass_mjcf_sensors(const KMjcfSensors<ScalarOf<V>>& S, const KModel<ScalarOf<V>>& M, const JointWork<V>* W, const Transform<V>* X_WB,
                              const V* q, const V* v, const V* force, MjcfSensorWork<V>& w) {
  using T = ScalarOf<V>;
  using namespace mjcf_sensor_detail;
  const V zero(T(0));
  for (V& x : w.out) x = zero;
  if (S.disabled) return;
  // xquat of every link, as mj_kinematics composes it
  for (std::size_t i = 0; i < S.links.size(); ++i) {
    const auto& L = S.links[i];
    const Quat<V> fixed{V(L.quat[0]), V(L.quat[1]), V(L.quat[2]), V(L.quat[3])};
    Quat<V> Q = L.parent < 0 ? fixed : quat_mul(w.quat[L.parent], fixed);
    const V* qi = q + L.qoff;
    if (L.type == JointType::Revolute) {
      V s, c;
      sincos(T(0.5) * qi[0], s, c);
      Q = quat_mul(Q, Quat<V>{c, s * V(L.axis[0]), s * V(L.axis[1]), s * V(L.axis[2])});
    } else if (L.type == JointType::Ball || L.type == JointType::Free) {
      const Quat<V> j = load_quat(L.type == JointType::Free ? qi + 3 : qi);
      // the planted bug: the joint's quaternion used as stored, not normalised
      Q = quat_mul(Q, ACH_BUG(MjcfFramequatUnnormalised) ? j : normalized(j));
    }
    w.quat[i] = ACH_BUG(MjcfFramequatUnnormalised) ? Q : normalized(Q);
  }
  auto frame = [&](const MjcfSensorFrame& f) {
    Frame<V> r;
    const Mat3<V> local = dquat_mat<V>(f.quat);
    const Vec3<V> p = dvec<V>(f.pos);
    const Vec3<V> z{zero, zero, zero};
    if (f.link < 0) {
      r.x = p, r.R = local, r.Q = const_quat<V>(f.quat), r.w = z, r.v = z, r.wL = z, r.vL = z;
      return r;
    }
    const Transform<V>& X = X_WB[f.link];
    r.wL = W[f.link].vel.w;
    r.vL = W[f.link].vel.v + cross(r.wL, p);
    r.x = X.p + mul(X.R, p);
    r.R = mul(X.R, local);
    r.Q = quat_mul(w.quat[f.link], const_quat<V>(f.quat));
    r.w = mul(X.R, r.wL);
    r.v = mul(X.R, r.vL);
    return r;
  };
  for (const MjcfSensor& s : S.sensors) {
    V* o = w.out.data() + s.adr;
    auto put3 = [&](const Vec3<V>& a) { o[0] = a.x, o[1] = a.y, o[2] = a.z; };
    switch (s.type) {
      case MjcfSensorType::JointPos:
      case MjcfSensorType::ActuatorPos:
      case MjcfSensorType::JointVel:
      case MjcfSensorType::ActuatorVel: {
        const V* x = s.type == MjcfSensorType::JointPos || s.type == MjcfSensorType::ActuatorPos ? q : v;
        V sum = zero;
        for (std::size_t k = 0; k < s.term_index.size(); ++k) sum = sum + V(T(s.term_coef[k])) * x[s.term_index[k]];
        o[0] = sum;
        break;
      }
      case MjcfSensorType::ActuatorFrc:
        o[0] = force[s.actuator];
        break;
      case MjcfSensorType::SubtreeCom: {
        V m = zero;
        Vec3<V> c{zero, zero, zero};
        // the planted bug: the body's own centre of mass, its descendants left out
        for (std::size_t k = 0; k < (ACH_BUG(MjcfSubtreecomOwnBody) ? std::size_t(1) : s.links.size()); ++k) {
          const int l = s.links[k];
          const V ml = M.template lane<V>(LaneSlots::mass(l));
          const Vec3<V> com{M.template lane<V>(LaneSlots::com(l, 0)), M.template lane<V>(LaneSlots::com(l, 1)),
                            M.template lane<V>(LaneSlots::com(l, 2))};
          const Vec3<V> xi = X_WB[l].p + mul(X_WB[l].R, com);
          m = m + ml;
          c = c + ml * xi;
        }
        put3((V(T(1)) / m) * c);
        break;
      }
      case MjcfSensorType::Gyro:
      case MjcfSensorType::Velocimeter: {
        const Frame<V> f = frame(s.obj);
        const Mat3<V> local = dquat_mat<V>(s.obj.quat);
        // the planted bug: the gyro's ω in the world frame
        put3(s.type == MjcfSensorType::Gyro && ACH_BUG(MjcfGyroWorldFrame) ? f.w : mulT(local, s.type == MjcfSensorType::Gyro ? f.wL : f.vL));
        break;
      }
      case MjcfSensorType::Accelerometer: {
        if (s.obj.link < 0 || S.links[s.obj.link].welded) break; // a body welded to the world reads 0
        const Frame<V> f = frame(s.obj);
        const Motion<V>& a = W[s.obj.link].acc;
        const Vec3<V> spatial = a.v + cross(a.w, dvec<V>(s.obj.pos));
        // the planted bug: the spatial acceleration read as the classical one (ω × v left out)
        put3(mulT(dquat_mat<V>(s.obj.quat), ACH_BUG(MjcfAccelerometerNoCoriolis) ? spatial : spatial + cross(f.wL, f.vL)));
        break;
      }
      case MjcfSensorType::Force:
      case MjcfSensorType::Torque:
      case MjcfSensorType::Touch:
        break; // the host's (the contact solve's data)
      default: {
        const Frame<V> f = frame(s.obj);
        Frame<V> r;
        if (s.has_ref) r = frame(s.ref);
        switch (s.type) {
          case MjcfSensorType::FramePos:
            put3(s.has_ref ? mulT(r.R, f.x - r.x) : f.x);
            break;
          case MjcfSensorType::FrameQuat: {
            const Quat<V> Q = s.has_ref ? quat_mul(Quat<V>{r.Q.w, -r.Q.x, -r.Q.y, -r.Q.z}, f.Q) : f.Q;
            o[0] = Q.w, o[1] = Q.x, o[2] = Q.y, o[3] = Q.z;
            break;
          }
          case MjcfSensorType::FrameXAxis:
          case MjcfSensorType::FrameYAxis:
          case MjcfSensorType::FrameZAxis: {
            const int c = s.type == MjcfSensorType::FrameXAxis ? 0 : s.type == MjcfSensorType::FrameYAxis ? 1 : 2;
            const Vec3<V> e{f.R.m[c], f.R.m[3 + c], f.R.m[6 + c]};
            put3(s.has_ref ? mulT(r.R, e) : e);
            break;
          }
          case MjcfSensorType::FrameAngVel:
            put3(s.has_ref ? mulT(r.R, f.w - r.w) : f.w);
            break;
          case MjcfSensorType::FrameLinVel:
            put3(s.has_ref ? mulT(r.R, f.v - r.v + cross(f.x - r.x, r.w)) : f.v);
            break;
          default:
            break;
        }
      }
    }
    if (s.cutoff > 0 && s.datatype == MjcfSensorData::Real && !ACH_BUG(MjcfCutoffIgnored))
      for (int k = 0; k < s.dim; ++k) o[k] = vclamp(o[k], V(T(-s.cutoff)), V(T(s.cutoff)));
  }
}

} // namespace ACH_ISA_NS
} // namespace ach
