// Every check the native core makes on a model value is made first by the readers, at the attribute
// the value came from (issue 56). The native reader (native/binding/model_reader.hpp) and the native
// model validation (Model::finalize and its finalize_* steps in native/src) report without a file
// position; an input that reached them used to print a bare "quaternion must be non-zero and finite"
// or "kp and kv must be finite and >= 0". Here each native message is walked:
//
//   refused   an MJCF model (or .arow scene) that would reach it, refused by `achilles compile` at the
//             FILE:LINE:COL of the offending attribute (or element, where the element is the value);
//   accepted  a value MuJoCo takes and the import now takes as MuJoCo does, so the native check is
//             never reached (e.g. euler="1e308 0 0" is a finite rotation, kp="-1" MuJoCo's general form);
//   flag      a batch option, which comes from a command-line flag, refused by the flag's name;
//   structural  the shape of the object toNativeModel builds (an array's length, a key's type, an
//             index), which no value in a file decides.
//
// The first test reads the native sources and fails when a native check is not listed here, so a new
// check needs its reader-side refusal (or a reason) before it can land. The native checks stay: they
// are the defence in depth for every other caller of the engine.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../src/model-files/import/index.js';
import { checkEffectiveInertia } from '../src/model-files/scene/singular.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { cli, ROOT, tempDir } from './helpers/cli.js';

/** The native files whose checks are walked: the reader and the model validation. */
const NATIVE_FILES = [
  'native/binding/model_reader.hpp',
  'native/src/model.cpp',
  'native/src/collision/filter.cpp',
  'native/src/contact/invweight.cpp',
  'native/src/actuators/actuators.cpp',
  'native/src/actuators/dampratio.cpp',
] as const;
type NativeFile = (typeof NATIVE_FILES)[number];

type Case =
  /** `achilles compile` refuses the model at the first occurrence of `at` in its text. */
  | { mjcf: string; at: string; says?: RegExp; args?: string[] }
  | { scene: string; at: string; says?: RegExp }
  /** The import takes it (as MuJoCo does) and the engine runs it; `then` checks what it became. */
  | { accepted: string; then?: (m: ModelDesc, notes: string[]) => void }
  /** A batch option: the command refuses the flag by its name. */
  | { flag: string[]; says: RegExp }
  | { structural: string };

interface NativeCheck {
  file: NativeFile;
  /** The longest string literal of the native check's statement, as the source spells it. */
  native: string;
  cases: Case[];
}

// ---- models ----------------------------------------------------------------------------------------

interface Parts {
  head?: string;
  body?: string;
  /** The joint's type (default hinge) and its other attributes. */
  jointType?: string;
  joint?: string;
  /** The geom's type and size (default a sphere of radius 0.1) and its other attributes. */
  shape?: string;
  geom?: string;
  inner?: string;
  world?: string;
  tail?: string;
}

/** A one-hinge model (body b, joint j, a sphere), each part replaceable, one element per line. */
const mjcf = (p: Parts = {}): string =>
  [
    '<mujoco>',
    p.head ?? '',
    '  <worldbody>',
    p.world ??
      [
        `    <body name="b"${p.body ?? ''}>`,
        p.inner ??
          [
            `      <joint name="j" type="${p.jointType ?? 'hinge'}"${p.joint ?? ''}/>`,
            `      <geom ${p.shape ?? 'type="sphere" size="0.1"'}${p.geom ?? ''}/>`,
          ].join('\n'),
        '    </body>',
      ].join('\n'),
    '  </worldbody>',
    p.tail ?? '',
    '</mujoco>',
    '',
  ].join('\n');

/** A body with a hinge and a sphere, for models with several bodies. */
const hingeBody = (name: string, attrs = '', joint = `${name}j`): string =>
  `    <body name="${name}"${attrs}>\n      <joint name="${joint}" type="hinge"/>\n      <geom type="sphere" size="0.1"/>\n    </body>`;

const actuator = (el: string): string => mjcf({ tail: `  <actuator>\n    ${el}\n  </actuator>` });
const ballActuator = (el: string): string =>
  mjcf({
    joint: '',
    inner: '      <joint name="j" type="ball"/>\n      <geom type="sphere" size="0.1"/>',
    tail: `  <actuator>\n    ${el}\n  </actuator>`,
  });
const tendon = (el: string): string => mjcf({ tail: `  <tendon>\n    ${el}\n  </tendon>` });
const equality = (el: string, world?: string): string =>
  mjcf({ ...(world ? { world } : {}), tail: `  <equality>\n    ${el}\n  </equality>` });
const option = (attrs: string): string => mjcf({ head: `  <option ${attrs}/>` });

/** A prism whose two caps are n-gons (a hull polygon of n vertices). */
function prism(n: number): string {
  const v: string[] = [];
  for (const z of [0, 0.1])
    for (let k = 0; k < n; k++)
      v.push(`${(0.1 * Math.cos((2 * Math.PI * k) / n)).toFixed(9)} ${(0.1 * Math.sin((2 * Math.PI * k) / n)).toFixed(9)} ${z}`);
  return v.join('  ');
}

/** A scene with one link on a revolute joint, its joint mapping's extra keys given. */
const scene = (jointExtra: string): string =>
  [
    'scene: s',
    'world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: euler, duration: 1, substeps: 1 }',
    'links:',
    '  - name: arm',
    '    parent: world',
    `    joint: { type: revolute, axis: [1, 0, 0]${jointExtra} }`,
    '    pos: [0, 0, 0]',
    '    mass: 1.0',
    '    com: [0, 0.5, 0]',
    '    inertia: [0.1, 0.01, 0.1]',
    '',
  ].join('\n');

const STRUCTURAL =
  'toNativeModel (src/engine/batch.ts) writes every key with its type and length from the ModelDesc, whatever a file holds';
const INDEX = 'an index the compiler resolves from a name (an unknown name is refused at its attribute by the reader)';

// ---- the native checks, as the native sources list them ----------------------------------------------

const CHECKS: NativeCheck[] = [
  // model_reader.hpp: the object's shape
  { file: 'native/binding/model_reader.hpp', native: ' must be a number', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: ' must be an array of ', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: ' numbers, expected ', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: '] must be a number', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: ' must be empty', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: "'; expected revolute, prismatic, ball, free, planar or fixed",
    cases: [
      { mjcf: mjcf({ jointType: 'screw' }), at: 'type="screw"', says: /type: found "screw", expected one of hinge, slide, ball, free/ },
    ],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: 'quaternion must be non-zero and finite',
    cases: [
      {
        mjcf: mjcf({ world: `    <frame xyaxes="1 0 0 2 0 0">\n${hingeBody('b')}\n    </frame>` }),
        at: 'xyaxes="1 0 0 2 0 0"',
        says: /yaxis too small/,
      },
      { mjcf: mjcf({ body: ' xyaxes="1 0 0 -3 0 0"' }), at: 'xyaxes="1 0 0 -3 0 0"', says: /a y axis parallel to the x axis/ },
      {
        mjcf: mjcf({
          head: '  <compiler angle="radian"/>',
          world: `    <replicate count="3" euler="1e308 0 0">\n${hingeBody('b')}\n    </replicate>`,
        }),
        at: 'euler="1e308 0 0"',
        says: /copy 2's rotation euler·2 = \[Infinity, 0, 0\]/,
      },
      {
        mjcf: mjcf({
          inner: '      <joint name="j" type="hinge"/>\n      <geom type="capsule" size="0.1" fromto="-1e308 0 0 1e308 0 0"/>',
        }),
        at: 'fromto="-1e308 0 0 1e308 0 0"',
      },
      // MuJoCo turns 1e308 degrees into a finite angle (x / 180 · π): so does the import
      {
        accepted: mjcf({ world: `    <frame euler="1e308 0 0">\n${hingeBody('b')}\n    </frame>` }),
        then: (m) => {
          expect(m.bodies[0].quat[0]).toBeCloseTo(-0.6167605727834911, 12); // MuJoCo 3.14's body_quat
          expect(m.bodies[0].quat[1]).toBeCloseTo(-0.7871508088414697, 12);
        },
      },
      { accepted: mjcf({ world: `    <replicate count="2" euler="1e308 0 0">\n${hingeBody('b')}\n    </replicate>` }) },
    ],
  },
  { file: 'native/binding/model_reader.hpp', native: '.kind must be a string', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: "'; expected sphere, capsule, box, rounded-box, plane, cylinder, ellipsoid or convex",
    cases: [{ mjcf: mjcf({ shape: 'type="hfield"' }), at: 'type="hfield"' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ' must be an integer from 0 to 2^32-1',
    cases: [
      { mjcf: mjcf({ geom: ' contype="1.5"' }), at: 'contype="1.5"', says: /a 32-bit int/ },
      { mjcf: mjcf({ geom: ' conaffinity="4294967296"' }), at: 'conaffinity="4294967296"' },
      // MuJoCo's int -1 is every bit: the engine's unsigned 32 bits, all set
      { accepted: mjcf({ geom: ' contype="-1"' }), then: (m) => expect(m.shapes![0].contype).toBe(4294967295) },
    ],
  },
  { file: 'native/binding/model_reader.hpp', native: ' must be an object', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.vertices must be an array of x y z numbers, at least 4 points',
    cases: [
      {
        mjcf: mjcf({ head: '  <asset>\n    <mesh name="m" vertex="0 0 0  1 0 0  0 1 0"/>\n  </asset>', shape: 'type="mesh" mesh="m"' }),
        at: 'vertex="0 0 0  1 0 0  0 1 0"',
        says: /at least 4 vertices/,
      },
    ],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '] must be a finite number',
    cases: [
      {
        mjcf: mjcf({
          head: '  <asset>\n    <mesh name="m" vertex="0 0 0  1 0 0  0 1 0  0 0 1" scale="1e100 1 1"/>\n  </asset>',
          inner: '      <joint name="j" type="hinge"/>\n      <geom type="mesh" mesh="m"/>',
        }),
        at: 'scale="1e100 1 1"',
        says: /within float32/,
      },
    ],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.faces must be an array of vertex indices, three per triangle, at least 4 triangles',
    cases: [{ structural: "the hull's faces, made by the importer's quickhull from at least 4 points in 3 dimensions" }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '] must be a vertex index from 0 to ',
    cases: [{ structural: "the hull's faces index its own vertices" }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ' polygons, is more than the face clipping holds',
    cases: [
      // MuJoCo takes any hull; the engine's face clipping holds polygons of 256 vertices: placed at the geom
      {
        mjcf: mjcf({
          head: `  <asset>\n    <mesh name="prism" vertex="${prism(300)}"/>\n  </asset>`,
          inner: '      <joint name="j" type="hinge"/>\n      <geom type="mesh" mesh="prism"/>',
        }),
        at: '<geom type="mesh" mesh="prism"/>',
        says: /shape b\/geom0: found a hull polygon of more than 256 vertices/,
      },
    ],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '] must be > 0',
    cases: [
      { mjcf: mjcf({ shape: 'type="cylinder" size="0 1"' }), at: 'size="0 1"' },
      { mjcf: mjcf({ shape: 'type="ellipsoid" size="0.1 -1 0.1"' }), at: 'size="0.1 -1 0.1"' },
    ],
  },
  { file: 'native/binding/model_reader.hpp', native: '.shapes must be an array', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.condim must be 1, 3, 4 or 6 (got ',
    cases: [{ mjcf: mjcf({ geom: ' condim="2"' }), at: 'condim="2"' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.excludes must be an array of [body, body] pairs',
    cases: [{ structural: STRUCTURAL }],
  },
  { file: 'native/binding/model_reader.hpp', native: ' must be [body, body]', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: ' must hold two body indices',
    cases: [
      {
        mjcf: mjcf({ tail: '  <contact>\n    <exclude body1="b" body2="nobody"/>\n  </contact>' }),
        at: '<exclude body1="b" body2="nobody"/>',
      },
    ],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: "'; expected one of ",
    cases: [{ mjcf: actuator('<general joint="j" dyntype="muscle"/>'), at: 'dyntype="muscle"' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ".general must be an object (a general actuator's parameters)",
    cases: [{ structural: STRUCTURAL }],
  },
  { file: 'native/binding/model_reader.hpp', native: '.actuators must be an array', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.body is out of range',
    cases: [{ mjcf: actuator('<motor joint="nojoint"/>'), at: '<motor joint="nojoint"/>' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: "'; expected motor, position, velocity or general",
    cases: [{ mjcf: actuator('<muscle joint="j"/>'), at: '<muscle joint="j"/>' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.limit must be an object {solref, solimp, margin}',
    cases: [{ structural: STRUCTURAL }],
  },
  { file: 'native/binding/model_reader.hpp', native: '.tendons must be an array', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: '.joints and .coefs must be arrays', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: ': needs one coef per joint, and at least one joint',
    cases: [{ mjcf: tendon('<fixed name="t"/>'), at: '<fixed name="t"/>', says: /a fixed tendon without joints/ }],
  },
  { file: 'native/binding/model_reader.hpp', native: '.joints must hold body indices', cases: [{ structural: INDEX }] },
  { file: 'native/binding/model_reader.hpp', native: '.equalities must be an array', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: ' must be an index', cases: [{ structural: INDEX }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: ' must be an object {iterations, impratio, tolerance?, method?, cone?}',
    cases: [{ structural: STRUCTURAL }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.iterations must be an integer from 0 to 100000 (got ',
    cases: [
      { mjcf: option('iterations="1000000"'), at: 'iterations="1000000"', says: /from 0 to 100000/ },
      { mjcf: option('iterations="2.5"'), at: 'iterations="2.5"' },
    ],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ".method must be 'newton', 'cg' or 'pgs'",
    cases: [{ mjcf: option('solver="Jacobi"'), at: 'solver="Jacobi"' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ".cone must be 'pyramidal' or 'elliptic'",
    cases: [{ mjcf: option('cone="round"'), at: 'cone="round"' }],
  },
  { file: 'native/binding/model_reader.hpp', native: '.bodies must be an array', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: '.joint must be a string', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.multiccd must be a boolean',
    cases: [{ mjcf: mjcf({ head: '  <option>\n    <flag multiccd="maybe"/>\n  </option>' }), at: 'multiccd="maybe"' }],
  },
  // model_reader.hpp: the batch options, from the commands' flags
  {
    file: 'native/binding/model_reader.hpp',
    native: ' must be a string',
    cases: [{ structural: 'the batch options object (src/engine/batch.ts), built from checked flags' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: "precision must be f32 or f64 (got '",
    cases: [{ flag: ['run', join(ROOT, 'scenes', 'double-pendulum.arow'), '--precision', 'f16'], says: /--precision/ }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: "integrator must be euler, verlet, midpoint, rk4 or implicitfast (got '",
    cases: [
      { flag: ['run', join(ROOT, 'scenes', 'double-pendulum.arow'), '--integrator', 'leapfrog'], says: /--integrator/ },
      { mjcf: option('integrator="leapfrog"'), at: 'integrator="leapfrog"' },
    ],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: 'options.record must be a boolean',
    cases: [{ structural: 'set by the policy controller (src/gym/policy.ts) as true' }],
  },

  // model.cpp: Model::finalize
  {
    file: 'native/src/model.cpp',
    native: 'it and every link below it are massless, so its joint has no inertia to move (give it or a link below it a mass)',
    cases: [{ mjcf: mjcf({ inner: '      <joint name="j" type="hinge"/>' }), at: '<body name="b">', says: /joints but no mass/ }],
  },
  {
    file: 'native/src/model.cpp',
    native: 'its joint has no inertia along one of its directions (singular model)',
    cases: [
      // a point mass on a hinge's axis: its inertia is refused as non-physical first
      {
        mjcf: mjcf({ inner: '      <joint name="j" type="hinge"/>\n      <inertial pos="0 0 0" mass="1" diaginertia="0 0 0"/>' }),
        at: 'diaginertia="0 0 0"',
        says: /not positive definite/,
      },
    ],
  },
  {
    file: 'native/src/model.cpp',
    native: ' must name an earlier joint (topological order)',
    cases: [{ structural: 'the compiler orders links parent first, as MuJoCo orders bodies' }],
  },
  {
    file: 'native/src/model.cpp',
    native: 'non-finite number in its placement or inertia',
    cases: [
      {
        mjcf: mjcf({ world: `    <frame pos="1e308 0 0">\n${hingeBody('b', ' pos="1e308 0 0"')}\n    </frame>` }),
        at: 'pos="1e308 0 0">\n      <joint',
        says: /overflows/,
      },
      {
        mjcf: mjcf({ world: `    <frame pos="1e308 0 0">\n    <frame pos="1e308 0 0">\n${hingeBody('b')}\n    </frame>\n    </frame>` }),
        at: 'pos="1e308 0 0">\n    <body',
      },
      { mjcf: mjcf({ shape: 'type="sphere" size="1e200"' }), at: 'size="1e200"', says: /mass Infinity/ },
      { mjcf: mjcf({ shape: 'type="sphere" size="10"', geom: ' density="1e308"' }), at: 'density="1e308"' },
      {
        mjcf: mjcf({ inner: '      <joint name="j" type="hinge"/>\n      <inertial pos="1e200 0 0" mass="1" diaginertia="1 1 1"/>' }),
        at: 'pos="1e200 0 0"',
        says: /parallel-axis/,
      },
      { mjcf: mjcf({ head: '  <compiler settotalmass="1e308"/>', shape: 'type="sphere" size="1e-3"' }), at: 'settotalmass="1e308"' },
      {
        mjcf: mjcf({
          head: '  <asset>\n    <mesh name="m" vertex="0 0 0  1 0 0  0 1 0  0 0 1" scale="1e308 1 1"/>\n  </asset>',
          inner: '      <joint name="j" type="hinge"/>\n      <geom type="mesh" mesh="m"/>',
        }),
        at: 'scale="1e308 1 1"',
        says: /mesh "m" scale: found vertex 1 at 1e\+308 once scaled/,
      },
    ],
  },
  {
    file: 'native/src/model.cpp',
    native: 'mass must be >= 0 (0: a massless link, checked below)',
    cases: [
      {
        mjcf: mjcf({ inner: '      <joint name="j" type="hinge"/>\n      <inertial pos="0 0 0" mass="-1" diaginertia="1 1 1"/>' }),
        at: 'mass="-1"',
      },
    ],
  },
  {
    file: 'native/src/model.cpp',
    native: 'axis must be a unit vector (norm ',
    cases: [
      { accepted: mjcf({ joint: ' axis="0 0 2"' }), then: (m) => expect(m.bodies[0].axis).toEqual([0, 0, 1]) },
      { mjcf: mjcf({ joint: ' axis="0 0 0"' }), at: 'axis="0 0 0"' },
    ],
  },
  {
    file: 'native/src/model.cpp',
    native: 'a free joint must be a root with an identity placement',
    cases: [
      {
        mjcf: mjcf({
          world: `${hingeBody('a').replace('    </body>', '      <body name="c">\n        <freejoint name="f"/>\n        <geom size="0.1"/>\n      </body>\n    </body>')}`,
        }),
        at: '<freejoint name="f"/>',
        says: /a free joint in a body that is not a child of the world/,
      },
    ],
  },
  {
    file: 'native/src/model.cpp',
    native: 'initial state has a non-finite number',
    cases: [
      { mjcf: mjcf({ tail: '  <keyframe>\n    <key qpos="1e999"/>\n  </keyframe>' }), at: 'qpos="1e999"', says: /a finite number/ },
      { mjcf: mjcf({ joint: ' ref="1e999"' }), at: 'ref="1e999"' },
      // 1e308 degrees: MuJoCo's x·(π/180) is finite, so is the import's
      { accepted: mjcf({ joint: ' ref="1e308"' }), then: (m) => expect(m.bodies[0].q0[0]).toBe(1e308 * (Math.PI / 180)) },
    ],
  },
  {
    file: 'native/src/model.cpp',
    native: 'a model needs at least one joint',
    cases: [{ mjcf: mjcf({ world: '    <geom type="plane" size="1 1 1"/>' }), at: '<mujoco>', says: /no bodies/ }],
  },

  // filter.cpp: finalize_collision
  { file: 'native/src/collision/filter.cpp', native: ' does not name a link (-1 = world, 0..', cases: [{ structural: INDEX }] },
  {
    file: 'native/src/collision/filter.cpp',
    native: 'half-extents must be finite and >= 0',
    cases: [{ mjcf: mjcf({ shape: 'type="box" size="0.1 -1 0.1"' }), at: 'size="0.1 -1 0.1"' }],
  },
  {
    file: 'native/src/collision/filter.cpp',
    native: 'radius must be finite and >= 0',
    cases: [{ mjcf: mjcf({ shape: 'type="sphere" size="-0.1"' }), at: 'size="-0.1"' }],
  },
  {
    file: 'native/src/collision/filter.cpp',
    native: 'margin and gap must be finite and >= 0',
    cases: [
      { mjcf: mjcf({ geom: ' margin="-1"' }), at: 'margin="-1"' },
      { mjcf: mjcf({ geom: ' gap="-0.5"' }), at: 'gap="-0.5"' },
    ],
  },
  {
    file: 'native/src/collision/filter.cpp',
    native: 'friction must be finite and >= 0',
    cases: [{ mjcf: mjcf({ geom: ' friction="-1"' }), at: 'friction="-1"' }],
  },
  {
    file: 'native/src/collision/filter.cpp',
    native: 'non-finite orientation',
    cases: [{ mjcf: mjcf({ geom: ' xyaxes="0 1 0 0 2 0"' }), at: 'xyaxes="0 1 0 0 2 0"' }],
  },
  {
    file: 'native/src/collision/filter.cpp',
    native: 'non-finite position',
    cases: [
      {
        mjcf: mjcf({
          inner:
            '      <joint name="j" type="hinge"/>\n      <geom size="0.1"/>\n      <frame pos="1e308 0 0">\n        <geom size="0.1" pos="1e308 0 0"/>\n      </frame>',
        }),
        at: 'pos="1e308 0 0"/>',
      },
    ],
  },
  {
    file: 'native/src/collision/filter.cpp',
    native: "a plane must be static (on the world or welded to it), not on moving link '",
    cases: [
      {
        mjcf: mjcf({ shape: 'type="plane" size="1 1 1"' }),
        at: '<geom type="plane"',
        says: /a plane in a body/,
      },
    ],
  },
  {
    file: 'native/src/collision/filter.cpp',
    native: ') names a link that does not exist',
    cases: [
      {
        mjcf: mjcf({ tail: '  <contact>\n    <exclude body1="b" body2="ghost"/>\n  </contact>' }),
        at: '<exclude body1="b" body2="ghost"/>',
      },
    ],
  },

  // invweight.cpp: finalize_constraints
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': solref must be finite',
    cases: [{ mjcf: mjcf({ geom: ' solref="1e999 1"' }), at: 'solref="1e999 1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: '] mixes the standard (timeconst, dampratio > 0) and direct (−stiffness, −damping) forms',
    cases: [
      // MuJoCo replaces a mixed solref by its default ("mixed solref format"): so does the import
      {
        accepted: mjcf({ geom: ' solref="0.02 -1"' }),
        then: (m, notes) => {
          expect(m.shapes![0].solref).toEqual([0.02, 1]);
          expect(notes.some((n) => /mixed solref format/.test(n))).toBe(true);
        },
      },
      { mjcf: mjcf({ geom: ' solref="0 0"' }), at: 'solref="0 0"' },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': solimp must be finite',
    cases: [{ mjcf: mjcf({ geom: ' solimp="0.9 0.95 1e999"' }), at: 'solimp="0.9 0.95 1e999"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': solimp power must be a whole number from 1 to 16 (got ',
    cases: [{ mjcf: mjcf({ geom: ' solimp="0.9 0.95 0.001 0.5 2.5"' }), at: 'solimp="0.9 0.95 0.001 0.5 2.5"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': range must be two finite numbers [lower, upper] with lower <= upper',
    cases: [
      { mjcf: mjcf({ joint: ' range="1 -1"' }), at: 'range="1 -1"' },
      {
        accepted: mjcf({ joint: ' range="-1e308 1e308"' }),
        then: (m) => expect(m.bodies[0].range).toEqual([-1e308 * (Math.PI / 180), 1e308 * (Math.PI / 180)]),
      },
      { mjcf: tendon('<fixed range="2 1"><joint joint="j"/></fixed>'), at: 'range="2 1"' },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': limit margin must be finite and >= 0',
    cases: [
      { mjcf: mjcf({ joint: ' range="-1 1" margin="-1"' }), at: 'margin="-1"' },
      { mjcf: tendon('<fixed range="-1 1" margin="-0.1"><joint joint="j"/></fixed>'), at: 'margin="-0.1"' },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': needs one coefficient per joint, and at least one joint',
    cases: [{ mjcf: tendon('<fixed name="t"></fixed>'), at: '<fixed name="t">' }],
  },
  { file: 'native/src/contact/invweight.cpp', native: ' is out of range', cases: [{ structural: INDEX }] },
  {
    file: 'native/src/contact/invweight.cpp',
    native: "' is not revolute or prismatic (a fixed tendon couples scalar joint coordinates)",
    cases: [
      {
        mjcf: mjcf({
          inner: '      <joint name="j" type="ball"/>\n      <geom size="0.1"/>',
          tail: '  <tendon>\n    <fixed><joint joint="j"/></fixed>\n  </tendon>',
        }),
        at: 'joint="j"/></fixed>',
      },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ": coef of joint '",
    cases: [{ mjcf: tendon('<fixed><joint joint="j" coef="1e999"/></fixed>'), at: 'coef="1e999"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ' separate kinematic trees (at most 2 supported)',
    cases: [
      {
        mjcf: mjcf({
          world: [hingeBody('a'), hingeBody('c'), hingeBody('d')].join('\n'),
          tail: '  <tendon>\n    <fixed name="t3"><joint joint="aj"/><joint joint="cj"/><joint joint="dj"/></fixed>\n  </tendon>',
        }),
        at: '<fixed name="t3">',
      },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': frictionloss must be finite and >= 0',
    cases: [{ mjcf: tendon('<fixed frictionloss="-1"><joint joint="j"/></fixed>'), at: 'frictionloss="-1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': stiffness must be finite and >= 0',
    cases: [{ mjcf: tendon('<fixed stiffness="-1"><joint joint="j"/></fixed>'), at: 'stiffness="-1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': damping must be finite and >= 0',
    cases: [{ mjcf: tendon('<fixed damping="-1"><joint joint="j"/></fixed>'), at: 'damping="-1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': springlength must be two finite numbers [lower, upper] with lower <= upper',
    cases: [{ mjcf: tendon('<fixed springlength="1 0"><joint joint="j"/></fixed>'), at: 'springlength="1 0"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ' must be finite',
    cases: [
      { mjcf: equality('<joint joint1="j" polycoef="0 1e999 0 0 0"/>'), at: 'polycoef="0 1e999 0 0 0"' },
      { mjcf: equality('<connect body1="b" anchor="1e999 0 0"/>'), at: 'anchor="1e999 0 0"' },
      { mjcf: equality('<weld body1="b" relpose="0 0 0 1e999 0 0 0"/>'), at: 'relpose="0 0 0 1e999 0 0 0"' },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: "' is not revolute or prismatic (a joint equality couples scalar joints)",
    cases: [
      {
        mjcf: mjcf({
          inner: '      <joint name="j" type="ball"/>\n      <geom size="0.1"/>',
          tail: '  <equality>\n    <joint joint1="j"/>\n  </equality>',
        }),
        at: 'joint1="j"',
      },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': joint references must be finite',
    cases: [
      { mjcf: mjcf({ joint: ' ref="1e999"', tail: '  <equality>\n    <joint joint1="j"/>\n  </equality>' }), at: 'ref="1e999"' },
      {
        accepted: mjcf({ joint: ' ref="1e308"', tail: '  <equality>\n    <joint joint1="j"/>\n  </equality>' }),
        then: (m) => expect(m.equalities![0].ref![0]).toBe(1e308 * (Math.PI / 180)),
      },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': body1 and body2 are the same body',
    cases: [{ mjcf: equality('<connect body1="b" body2="b" anchor="0 0 0"/>'), at: 'body2="b"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': neither body can move (the constraint has nothing to act on)',
    cases: [
      {
        mjcf: equality(
          '<connect name="still" body1="s1" body2="s2" anchor="0 0 0"/>',
          `${hingeBody('b')}\n    <body name="s1"><geom size="0.1"/></body>\n    <body name="s2"><geom size="0.1"/></body>`,
        ),
        at: '<connect name="still"',
      },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': torquescale must be finite',
    cases: [{ mjcf: equality('<weld body1="b" torquescale="1e999"/>'), at: 'torquescale="1e999"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: 'solver iterations must be an integer from 0 to 100000 (got ',
    cases: [{ mjcf: option('iterations="-1"'), at: 'iterations="-1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: 'solver impratio must be a positive number',
    cases: [
      { mjcf: option('impratio="0"'), at: 'impratio="0"', says: /an impratio > 0/ },
      { mjcf: option('impratio="-1"'), at: 'impratio="-1"' },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: 'solver tolerance must be a finite number >= 0',
    cases: [{ mjcf: option('tolerance="-1"'), at: 'tolerance="-1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': condim must be 1, 3, 4 or 6 (got ',
    cases: [{ mjcf: mjcf({ geom: ' condim="5"' }), at: 'condim="5"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': friction must be finite and >= 0',
    cases: [{ mjcf: mjcf({ geom: ' friction="-0.5 0.005"' }), at: 'friction="-0.5 0.005"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': torsional friction must be finite and >= 0',
    cases: [{ mjcf: mjcf({ geom: ' friction="1 -1"' }), at: 'friction="1 -1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': rolling friction must be finite and >= 0',
    cases: [{ mjcf: mjcf({ geom: ' friction="1 0 -1"' }), at: 'friction="1 0 -1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: "': frictionloss must be finite and >= 0",
    cases: [{ mjcf: mjcf({ joint: ' frictionloss="-1"' }), at: 'frictionloss="-1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: "': ref must be finite",
    cases: [{ mjcf: mjcf({ jointType: 'slide', joint: ' ref="1e999"' }), at: 'ref="1e999"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': only revolute, prismatic and ball joints take a range',
    cases: [
      // MuJoCo ignores a free joint's range; the import drops it with a note
      {
        accepted: mjcf({
          world:
            '    <body name="f">\n      <joint name="fj" type="free" range="-1 1" limited="true"/>\n      <geom size="0.1"/>\n    </body>',
        }),
        then: (m, notes) => {
          expect(m.bodies[0].range).toBeUndefined();
          expect(notes.some((n) => /the range of a free joint is not supported/.test(n))).toBe(true);
        },
      },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': range[0] should be 0 in ball joint (the cone limit is max(range) on the rotation angle)',
    cases: [{ mjcf: mjcf({ jointType: 'ball', joint: ' range="10 20"' }), at: 'range="10 20"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: " dofs; PGS forms the rows' dense J and AR = J M⁻¹ Jᵀ per lane, up to ",
    cases: [
      {
        mjcf: mjcf({
          head: '  <option solver="PGS"/>',
          world: Array.from({ length: 11 }, (_, i) => `    <body name="f${i}"><freejoint/><geom size="0.1"/></body>`).join('\n'),
        }),
        at: 'solver="PGS"',
        says: /a model of 66 dofs/,
      },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: 'solver PGS: the elliptic cone is not implemented for PGS (use the pyramidal cone, or CG or Newton)',
    cases: [{ mjcf: option('solver="PGS" cone="elliptic"'), at: 'cone="elliptic"' }],
  },

  // actuators.cpp: finalize_actuators
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'general actuators drive revolute and prismatic joints only (the length g·q needs one coordinate)',
    cases: [{ mjcf: ballActuator('<general name="g" joint="j"/>'), at: '<general name="g"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'dynprm, gainprm and biasprm must be finite',
    cases: [{ mjcf: actuator('<general joint="j" gainprm="1e999"/>'), at: 'gainprm="1e999"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'a general actuator takes gainprm and biasprm, not kp and kv',
    cases: [{ structural: "the compiler writes a general actuator's gains as gainprm and biasprm, its kp and kv 0" }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'actrange must be [lo, hi] with lo <= hi',
    cases: [{ mjcf: actuator('<general joint="j" dyntype="integrator" actlimited="true" actrange="1 -1"/>'), at: 'actrange="1 -1"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'damping must be finite and >= 0',
    cases: [{ mjcf: mjcf({ joint: ' damping="-1"' }), at: 'damping="-1"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'stiffness must be finite and >= 0',
    cases: [{ mjcf: mjcf({ joint: ' stiffness="-2"' }), at: 'stiffness="-2"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'armature must be finite and >= 0',
    cases: [{ mjcf: mjcf({ joint: ' armature="-0.1"' }), at: 'armature="-0.1"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'springref must be finite',
    cases: [
      { mjcf: mjcf({ joint: ' stiffness="1" springref="1e999"' }), at: 'springref="1e999"' },
      {
        accepted: mjcf({ joint: ' stiffness="1" springref="1e308"' }),
        then: (m) => expect(m.bodies[0].springref).toBe(1e308 * (Math.PI / 180)),
      },
    ],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'stiffness and springref apply to revolute and prismatic joints only',
    cases: [
      {
        accepted: mjcf({ jointType: 'ball', joint: ' stiffness="1"' }),
        then: (m, notes) => {
          expect(m.bodies[0].stiffness).toBeUndefined();
          expect(notes.some((n) => /stiffness on a ball joint is not supported/.test(n))).toBe(true);
        },
      },
    ],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'a fixed joint takes no damping or armature',
    cases: [{ structural: "a body without joints becomes a fixed link; the compiler gives damping and armature only to a joint's link" }],
  },
  { file: 'native/src/actuators/actuators.cpp', native: ' is out of range', cases: [{ structural: INDEX }] },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: "' is fixed: nothing to drive",
    cases: [{ structural: 'an MJCF actuator names a joint, and a fixed link has none (an unknown joint name is refused at the actuator)' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: "gear must be finite with joint '",
    cases: [{ mjcf: actuator('<motor joint="j" gear="1e999"/>'), at: 'gear="1e999"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: "servos drive revolute and prismatic joints only (a servo's length g·q needs one coordinate)",
    cases: [{ mjcf: ballActuator('<position name="p" joint="j"/>'), at: '<position name="p"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'kp and kv must be finite and >= 0',
    cases: [
      // MuJoCo takes a position servo's negative kp (gainprm -1, biasprm 0 1 0): its general form runs it
      {
        accepted: actuator('<position joint="j" kp="-1"/>'),
        then: (m) => {
          expect(m.actuators![0].kind).toBe('general');
          expect([m.actuators![0].general!.gainprm[0], m.actuators![0].general!.biasprm[1]]).toEqual([-1, 1]);
        },
      },
      { accepted: actuator('<velocity joint="j" kv="-1"/>'), then: (m) => expect(m.actuators![0].kind).toBe('general') },
      // MuJoCo refuses a negative kv on a position servo ("kv cannot be negative"): so does the import
      { mjcf: actuator('<position joint="j" kp="1" kv="-1"/>'), at: 'kv="-1"' },
      { scene: scene(', actuators: [{ name: p, kind: position, kp: -3 }]'), at: '-3 }', says: /kp/ },
    ],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'ctrlrange must be [lo, hi] with lo <= hi',
    cases: [{ mjcf: actuator('<motor joint="j" ctrlrange="1 -1"/>'), at: 'ctrlrange="1 -1"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'forcerange must be [lo, hi] with lo <= hi',
    cases: [{ mjcf: actuator('<motor joint="j" forcerange="1 -1"/>'), at: 'forcerange="1 -1"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'the rate limit must be finite and >= 0 (0: none)',
    cases: [{ scene: scene(', actuators: [{ name: p, kind: position, kp: 3, rate_limit: -1 }]'), at: '-1 }', says: /rate_limit/ }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'a rate limit applies to servos (position, velocity) only',
    cases: [
      { scene: scene(', actuators: [{ name: m, kind: motor, rate_limit: 2 }]'), at: 'rate_limit: 2', says: /a rate limit on a motor/ },
    ],
  },

  // dampratio.cpp: resolve_dampratios, after check_effective_inertia
  {
    file: 'native/src/actuators/dampratio.cpp',
    native: 'dampratio: the mass matrix at qpos0 is singular',
    cases: [
      {
        structural: 'Model::check_effective_inertia refuses a singular mass matrix first (placed at the link: see "singular model" below)',
      },
    ],
  },
  // issue 52's additions: noslip, fluid, priority/solmix, tendon transmissions
  {
    file: 'native/binding/model_reader.hpp',
    native: '.priority must be a whole number (got ',
    cases: [{ mjcf: mjcf({ geom: ' priority="1.5"' }), at: 'priority="1.5"' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.tendon must be >= 0',
    cases: [{ mjcf: actuator('<motor tendon="nope"/>'), at: '<motor' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.bodyTransmission is out of range',
    cases: [
      { mjcf: actuator('<adhesion body="nope" gain="1" ctrlrange="0 1"/>'), at: '<adhesion' },
      { mjcf: actuator('<adhesion body="world" gain="1" ctrlrange="0 1"/>'), at: '<adhesion' },
    ],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.noslipIterations must be an integer from 0 to 100000 (got ',
    cases: [{ mjcf: option('noslip_iterations="-1"'), at: 'noslip_iterations="-1"' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.noslipTolerance must be a finite number >= 0',
    cases: [{ mjcf: option('noslip_tolerance="-1"'), at: 'noslip_tolerance="-1"' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ' must be an object {density, viscosity, wind, bodies}',
    cases: [{ structural: "ModelDesc.fluid is written whole by the importer's fluid.ts from the option it read" }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: '.body must be a body index',
    cases: [{ structural: "the fluid's bodies are the importer's own body indices (fluid.ts, from the body map)" }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ' must be an object {quat, size}',
    cases: [{ structural: "each fluid body's inertia box is written whole by fluid.ts from the body's inertia" }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ' needs box or ellipsoids (an array)',
    cases: [{ structural: 'fluid.ts writes each body with its inertia box or the ellipsoids of its fluidshape geoms' }],
  },
  {
    file: 'native/src/model.cpp',
    native: 'fluid: ',
    cases: [
      { mjcf: option('density="-1"'), at: 'density="-1"' },
      { mjcf: option('viscosity="-1"'), at: 'viscosity="-1"' },
    ],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: ': solmix must be finite and >= 0',
    cases: [{ mjcf: mjcf({ geom: ' solmix="-1"' }), at: 'solmix="-1"' }],
  },
  {
    file: 'native/src/contact/invweight.cpp',
    native: " dofs; the noslip post-solve forms the rows' dense J and AR = J M⁻¹ Jᵀ per lane, up to ",
    cases: [
      {
        mjcf: mjcf({
          head: '  <option noslip_iterations="2"/>',
          world: Array.from({ length: 11 }, (_, i) => `    <body name="f${i}"><freejoint/><geom size="0.1"/></body>`).join('\n'),
        }),
        at: 'noslip_iterations="2"',
        says: /a model of 66 dofs/,
      },
    ],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'a transmission through a joint or a tendon, not both',
    cases: [
      {
        mjcf: mjcf({
          tail: '  <tendon>\n    <fixed name="t">\n      <joint joint="j" coef="1"/>\n    </fixed>\n  </tendon>\n  <actuator>\n    <motor joint="j" tendon="t"/>\n  </actuator>',
        }),
        at: 'tendon="t"/>',
      },
    ],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'a transmission through a body alone (not with a joint or a tendon)',
    cases: [{ mjcf: actuator('<general joint="j" body="b"/>'), at: 'body="b"' }],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'a body transmission (adhesion) takes a general actuator with dyntype none, gaintype fixed and biastype none',
    cases: [
      { mjcf: actuator('<general body="b" dyntype="filter"/>'), at: 'body="b"' },
      { mjcf: actuator('<position body="b" kp="1"/>'), at: 'body="b"' },
    ],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: "' has no joints: nothing to pull",
    cases: [
      {
        mjcf: mjcf({ tail: '  <tendon>\n    <fixed name="t"/>\n  </tendon>\n  <actuator>\n    <motor tendon="t"/>\n  </actuator>' }),
        at: '<fixed',
      },
    ],
  },
  {
    file: 'native/src/actuators/actuators.cpp',
    native: 'a tendon transmission takes one finite gear (gear[0])',
    cases: [
      {
        mjcf: mjcf({
          tail: '  <tendon>\n    <fixed name="t">\n      <joint joint="j" coef="1"/>\n    </fixed>\n  </tendon>\n  <actuator>\n    <motor tendon="t" gear="nan"/>\n  </actuator>',
        }),
        at: 'gear="nan"',
      },
    ],
  },
  // model_reader.hpp: an MJCF model's sensors (mjcfSensors), compiled by import/sensors.ts from the <sensor>
  // block the reader checked at its lines (an unknown type, object or attribute is refused there)
  { file: 'native/binding/model_reader.hpp', native: '.mjcfSensors must be an array', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: '.type must be a string', cases: [{ structural: STRUCTURAL }] },
  {
    file: 'native/binding/model_reader.hpp',
    native: ".type: an MJCF sensor type the engine does not evaluate ('",
    cases: [{ structural: 'the compiler writes only the sensor types the MJCF reader reads (any other is refused at its element)' }],
  },
  {
    file: 'native/binding/model_reader.hpp',
    native: ": adr and dim must follow the previous sensor's (dim 1 to 4)",
    cases: [{ structural: "the compiler lays the sensors out in MuJoCo's order, each at the previous one's adr + dim" }],
  },
  { file: 'native/binding/model_reader.hpp', native: ' must be an object {link, pos, quat}', cases: [{ structural: STRUCTURAL }] },
  { file: 'native/binding/model_reader.hpp', native: '.links must be link indices', cases: [{ structural: INDEX }] },
  { file: 'native/binding/model_reader.hpp', native: ": a frame's link out of range", cases: [{ structural: INDEX }] },
  { file: 'native/binding/model_reader.hpp', native: '].terms: an index out of range', cases: [{ structural: INDEX }] },
  { file: 'native/binding/model_reader.hpp', native: '].actuator out of range', cases: [{ structural: INDEX }] },
];

/** Checks whose text is built by a stream (no literal on the throwing line), walked by hand. */
const STREAM_CHECKS: { file: NativeFile; native: string; cases: Case[] }[] = [
  {
    file: 'native/src/model.cpp',
    native: 'singular model: the effective inertia of its joint',
    cases: [
      {
        mjcf: mjcf({ inner: '      <joint name="j1" axis="1 0 0"/>\n      <joint name="j2" axis="1 0 0"/>\n      <geom size="0.1"/>' }),
        at: '<joint name="j1"',
        says: /singular model/,
      },
      // numbers so large that the load check's arithmetic overflows: said so
      {
        mjcf: mjcf({
          inner: '      <joint name="j" type="hinge"/>\n      <inertial pos="0 0 0" mass="1e308" diaginertia="1e308 1e308 1e308"/>',
        }),
        at: '<joint name="j"',
        says: /the load check's products of them overflow a double/,
      },
    ],
  },
  {
    file: 'native/src/model.cpp',
    native: 'initial state has ',
    cases: [{ structural: 'q0, v0 and tau are written per joint from its type (JOINT_NQ, JOINT_NV)' }],
  },
];

/** Prefixes of the helpers that name the element ("joint '" + name + "': " + what): not checks. */
const HELPERS = ["joint '", "shape '", "actuator '"];

// ---- the walk ----------------------------------------------------------------------------------------

/** Each native check of `file`: the longest string literal of each statement that throws (the
 *  call and the lines it continues on, as clang-format wraps it, up to its closing parenthesis). */
function nativeChecks(file: NativeFile): string[] {
  const CALL = /\b(type_error|fail_actuator|fail|invalid_argument)\(/;
  const out = new Set<string>();
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const depth = (t: string): number => {
    const code = t.replace(/"((?:[^"\\]|\\.)*)"/g, '""').replace(/'(?:[^'\\]|\\.)'/g, "''");
    return (code.match(/\(/g)?.length ?? 0) - (code.match(/\)/g)?.length ?? 0);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!CALL.test(line) || /void (type_error|fail|fail_actuator)\(/.test(line)) continue;
    let statement = line.slice(line.search(CALL));
    for (let j = i + 1; depth(statement) > 0 && j < lines.length; j++) statement += ` ${lines[j].trim()}`;
    const literals = [...statement.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).sort((a, b) => b.length - a.length);
    if (literals.length && !HELPERS.includes(literals[0])) out.add(literals[0]);
  }
  return [...out];
}

const dir = tempDir('achilles-native-placed-');
let files = 0;
function write(text: string, ext: string): string {
  const f = join(dir, `m${files++}.${ext}`);
  writeFileSync(f, text);
  return f;
}

/** 1-based line and column of the first occurrence of `at` in `text`. */
function placeOf(text: string, at: string): { line: number; column: number } {
  const k = text.indexOf(at);
  if (k < 0) throw new Error(`the case's text has no ${JSON.stringify(at)}`);
  const before = text.slice(0, k);
  return { line: before.split('\n').length, column: k - before.lastIndexOf('\n') };
}

const label = (c: Case): string =>
  'mjcf' in c ? 'mjcf' : 'scene' in c ? 'scene' : 'accepted' in c ? 'accepted' : 'flag' in c ? 'flag' : 'structural';
const ALL = [...CHECKS, ...STREAM_CHECKS];

describe('every native check on a model value is made first by the readers, at its place', () => {
  it('every check of the native reader and the native model validation is listed here', () => {
    const listed = new Set(CHECKS.map((c) => `${c.file}\0${c.native}`));
    const missing = NATIVE_FILES.flatMap((f) =>
      nativeChecks(f)
        .filter((n) => !listed.has(`${f}\0${n}`))
        .map((n) => `${f}: "${n}"`),
    );
    expect(missing).toEqual([]);
    // and nothing listed that the sources no longer have
    const present = new Set(NATIVE_FILES.flatMap((f) => nativeChecks(f).map((n) => `${f}\0${n}`)));
    expect(CHECKS.filter((c) => !present.has(`${c.file}\0${c.native}`)).map((c) => c.native)).toEqual([]);
  });

  const rows = ALL.flatMap((check) => check.cases.map((c, i): [string, Case] => [`${check.native.trim()} [${label(c)} ${i + 1}]`, c]));
  it.each(rows)('%s', async (_, c) => {
    if ('structural' in c) return; // listed with its reason
    if ('flag' in c) {
      const r = await cli(...c.flag);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(c.says);
      return;
    }
    if ('accepted' in c) {
      const f = write(c.accepted, 'xml');
      const imp = importFile(f);
      checkEffectiveInertia(imp.model); // the engine takes it, as loading does
      c.then?.(
        imp.model,
        imp.notes.map((n) => n.message),
      );
      return;
    }
    const text = 'mjcf' in c ? c.mjcf : c.scene;
    const f = write(text, 'mjcf' in c ? 'xml' : 'arow');
    const { line, column } = placeOf(text, c.at);
    const r = await cli('compile', f, ...('args' in c && c.args ? c.args : []));
    expect(r.code, r.stdout.slice(0, 200)).not.toBe(0);
    expect(r.stderr).toContain(`${f}:${line}:${column}: `);
    if (c.says) expect(r.stderr).toMatch(c.says);
  });
});
