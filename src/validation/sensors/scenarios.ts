// The sensor stage's two scenarios, as models built here (not scenes: their numbers are the
// configured statistics the stage measures, so they sit beside the measurements).
//
//   at-rest: a slider with gravity across its axis, so the true coordinate stays exactly q0 and every
//            encoder's error is its own model's output: white noise, Gauss–Markov drift, the low-pass
//            filter driven by white noise.
//   pendulum: a swinging rod (every robot from its own angle) read by a camera at its tip (30 Hz, 50 ms,
//            2 mm), a noise-free scale-factor + quantization encoder, and two IMUs at the tip, one
//            noisy and one noise-free (their difference is the noise alone).

import type { BodyDesc, ModelDesc, SensorDesc } from '../../engine/model-desc.js';

export const AT_REST = {
  q0: 0.3,
  white: { name: 'white', noise: 0.01 },
  drift: { name: 'drift', sigma: 0.05, tau: 0.1 },
  lowPass: { name: 'low-pass', noise: 0.01, cutoff: 5 },
} as const;

export const PENDULUM = {
  camera: { name: 'camera', rate: 30, latency: 0.05, noise: 0.002 },
  scaled: { name: 'scaled', scale: 0.03, quantum: 0.001 },
  imu: { name: 'imu', gyroNoise: 0.01, accelNoise: 0.05 },
} as const;

const world = { gravity: [0, 0, -9.81] as [number, number, number], dt: 0.002, integrator: 'euler' as const, duration: 20, substeps: 1 };

function body(over: Partial<BodyDesc>): BodyDesc {
  return {
    name: 'b',
    parent: -1,
    pos: [0, 0, 0],
    quat: [1, 0, 0, 0],
    joint: 'revolute',
    axis: [1, 0, 0],
    mass: 1,
    com: [0, 0, 0],
    inertia: [0.1, 0.1, 0.1, 0, 0, 0],
    q0: [0],
    v0: [0],
    tau: [0],
    ...over,
  };
}

export function atRestModel(): ModelDesc {
  const sensors: SensorDesc[] = [
    { kind: 'encoder', name: AT_REST.white.name, body: 0, coordinate: 0, noise: AT_REST.white.noise, scale: 0, quantum: 0 },
    {
      kind: 'encoder',
      name: AT_REST.drift.name,
      body: 0,
      coordinate: 0,
      noise: 0,
      drift: { sigma: AT_REST.drift.sigma, tau: AT_REST.drift.tau },
      scale: 0,
      quantum: 0,
    },
    {
      kind: 'encoder',
      name: AT_REST.lowPass.name,
      body: 0,
      coordinate: 0,
      noise: AT_REST.lowPass.noise,
      cutoff: AT_REST.lowPass.cutoff,
      scale: 0,
      quantum: 0,
    },
  ];
  return {
    name: 'sensor-encoders-at-rest',
    bodies: [body({ name: 'slider', joint: 'prismatic', q0: [AT_REST.q0] })],
    world,
    files: [],
    sensors,
  };
}

export function pendulumModel(): ModelDesc {
  const tip: [number, number, number] = [0, 1, 0];
  const sensors: SensorDesc[] = [
    {
      kind: 'camera',
      name: PENDULUM.camera.name,
      body: 0,
      pos: tip,
      rate: PENDULUM.camera.rate,
      latency: PENDULUM.camera.latency,
      noise: PENDULUM.camera.noise,
    },
    {
      kind: 'encoder',
      name: PENDULUM.scaled.name,
      body: 0,
      coordinate: 0,
      noise: 0,
      scale: PENDULUM.scaled.scale,
      quantum: PENDULUM.scaled.quantum,
    },
    { kind: 'imu', name: PENDULUM.imu.name, body: 0, pos: tip, gyroNoise: PENDULUM.imu.gyroNoise, accelNoise: PENDULUM.imu.accelNoise },
    { kind: 'imu', name: 'imu-ideal', body: 0, pos: tip, gyroNoise: 0, accelNoise: 0 },
  ];
  const rod = body({ name: 'rod', mass: 1, com: [0, 0.5, 0], inertia: [1 / 12, 0.001, 1 / 12, 0, 0, 0], q0: [-0.6] });
  return { name: 'sensor-pendulum-camera', bodies: [rod], world, files: [], sensors };
}
