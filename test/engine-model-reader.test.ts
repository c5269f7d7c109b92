// The native model reader (native/binding/model_reader.hpp, shared by the Node addon and the Python
// package) refuses a malformed model or options object with a message that names the key's path.
// These are the Node addon's words, pinned: the reader is one template for both bindings, so a
// change here changes the Python package's messages too (python/tests/test_errors.py).
import { describe, expect, it } from 'vitest';
import { toNativeModel } from '../src/engine/batch.js';
import { engineAddon } from '../src/engine/native.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { scene } from './helpers/engine.js';

type Obj = Record<string, unknown>;
const OPTIONS: Obj = {
  precision: 'f64',
  lanes: 1,
  copies: 1,
  integrator: 'euler',
  dt: 0.001,
  substeps: 1,
  midpointIterations: 1,
  threads: 1,
};
const SHAPE: Obj = {
  name: 's',
  body: 0,
  kind: 'sphere',
  halfExtents: [0, 0, 0],
  radius: 0.1,
  pos: [0, 0, 0],
  quat: [1, 0, 0, 0],
  friction: 1,
  contype: 1,
  conaffinity: 1,
  margin: 0,
  gap: 0,
};

const base = (): Obj => structuredClone(toNativeModel(loadScene(scene('double-pendulum')))) as Obj;
const body = (m: Obj, i: number): Obj => (m.bodies as Obj[])[i];

/** [what is spoiled, how, the addon's message] */
const MODEL_CASES: [string, (m: Obj) => void, string][] = [
  ['a body mass', (m) => (body(m, 1).mass = 'heavy'), 'model.bodies[1].mass must be a number'],
  ['a vector length', (m) => (body(m, 0).com = [0, 0]), 'model.bodies[0].com has 2 numbers, expected 3'],
  ['a vector element', (m) => ((body(m, 0).inertia as unknown[])[4] = null), 'model.bodies[0].inertia[4] must be a number'],
  [
    'a joint type',
    (m) => (body(m, 0).joint = 'hinge'),
    "model.bodies[0].joint is 'hinge'; expected revolute, prismatic, ball, free, planar or fixed",
  ],
  ['an initial state', (m) => (body(m, 0).q0 = []), 'model.bodies[0].q0 has 0 numbers, expected 1'],
  ['a body', (m) => ((m.bodies as unknown[])[0] = 5), 'model.bodies[0] must be an object'],
  [
    'a limit',
    (m) => Object.assign(body(m, 0), { range: [-1, 1], limit: 3 }),
    'model.bodies[0].limit must be an object {solref, solimp, margin}',
  ],
  ['gravity', (m) => delete m.gravity, 'model.gravity must be an array of 3 numbers'],
  [
    'a shape kind',
    (m) => (m.shapes = [{ ...SHAPE, kind: 'cone' }]),
    "model.shapes[0].kind is 'cone'; expected sphere, capsule, box, rounded-box, plane, cylinder, ellipsoid or convex",
  ],
  ['filter bits', (m) => (m.shapes = [{ ...SHAPE, contype: 1.5 }]), 'model.shapes[0].contype must be an integer from 0 to 2^32-1'],
  ['an exclude', (m) => (m.excludes = [[0]]), 'model.excludes[0] must be [body, body]'],
  [
    'solver iterations',
    (m) => (m.solver = { iterations: 1.5, impratio: 1 }),
    'model.solver.iterations must be an integer from 0 to 100000 (got 1.500000)',
  ],
  ['a solver method', (m) => (m.solver = { method: 'jacobi' }), "model.solver.method must be 'newton', 'cg' or 'pgs'"],
  [
    'an actuator kind',
    (m) => (m.actuators = [{ name: 'a', body: 0, kind: 'servo', gear: [1] }]),
    "model.actuators[0].kind is 'servo'; expected motor, position, velocity or general",
  ],
  [
    'a general actuator',
    (m) => (m.actuators = [{ name: 'a', body: 0, kind: 'general', gear: [1] }]),
    "model.actuators[0].general must be an object (a general actuator's parameters)",
  ],
  [
    'an actuator joint',
    (m) => (m.actuators = [{ name: 'a', body: 9, kind: 'motor', gear: [1] }]),
    'model.actuators[0].body is out of range',
  ],
  [
    'a tendon',
    (m) => (m.tendons = [{ name: 't', joints: [0], coefs: [] }]),
    'model.tendons[0]: needs one coef per joint, and at least one joint',
  ],
  ['an equality body', (m) => (m.equalities = [{ type: 'connect', body1: 0.5 }]), 'model.equalities[0].body1 must be an index'],
  [
    'an equality type',
    (m) => (m.equalities = [{ type: 'glue' }]),
    "model.equalities[0].type is 'glue'; expected one of connect, weld, joint",
  ],
];

const OPTION_CASES: [string, Obj, string][] = [
  ['a precision', { precision: 'f16' }, "precision must be f32 or f64 (got 'f16')"],
  ['a missing number', { lanes: undefined }, 'options.lanes must be a number'],
  ['an integrator', { integrator: 7 }, 'options.integrator must be a string'],
  ['an integrator name', { integrator: 'leapfrog' }, "integrator must be euler, verlet, midpoint, rk4 or implicitfast (got 'leapfrog')"],
];

function message(model: Obj, options: Obj): string {
  try {
    new (engineAddon().NativeBatch)(model, options);
  } catch (e) {
    return (e as Error).message;
  }
  return '(no error)';
}

describe('the native reader names the key path of a malformed model', () => {
  it('reads the unspoiled model', () => {
    expect(message(base(), OPTIONS)).toBe('(no error)');
  });
  for (const [what, spoil, expected] of MODEL_CASES) {
    it(`refuses ${what}`, () => {
      const m = base();
      spoil(m);
      expect(message(m, OPTIONS)).toBe(expected);
    });
  }
  for (const [what, change, expected] of OPTION_CASES) {
    it(`refuses ${what} in the options`, () => {
      expect(message(base(), { ...OPTIONS, ...change })).toBe(expected);
    });
  }
});
