// MJCF <frame> and <replicate> (issue 26), against MuJoCo compiling the same files: the import
// stage's gates (masses, centres of mass, inertias, body poses and accelerations, f64 to 1e-12)
// on test/fixtures/import/mjcf-frame.xml and mjcf-replicate.xml, and element by element: every
// body, joint and geom with MuJoCo's name, in MuJoCo's order, where MuJoCo puts it. What MuJoCo's
// replicate does beyond copying the tree is refused at its line.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { SceneError } from '../src/model-files/scene/index.js';
import { FIXTURE_DIR, importReference, importRows } from '../src/validation/import/stage.js';
import { expectSameElements, readIr } from './helpers/mujoco-elements.js';

const FIXTURES = ['mjcf-frame.xml', 'mjcf-replicate.xml'];

describe('frame and replicate against MuJoCo', () => {
  test("masses, centres of mass, inertias, poses and accelerations match MuJoCo's compiled model", async () => {
    const names = FIXTURES.map((f) => `import:${f}`);
    const ref = await importReference(process.env.ACHILLES_PYTHON || 'python3', 1, 3, new Set(names));
    expect(ref.fixtures.map((f) => f.name)).toEqual(names);
    const rows = importRows(ref, engineAddon()).filter((r) => names.includes(r.model));
    for (const n of names)
      expect(
        rows.some((r) => r.model === n && r.field === 'qacc'),
        n,
      ).toBe(true);
    expect(rows.filter((r) => r.status !== 'pass').map((r) => `${r.model} ${r.field}[${r.state}] ${r.error} ${r.note}`)).toEqual([]);
  }, 60_000);

  test.each(FIXTURES)('%s: every body, joint and geom with its name, in its place', (f) => {
    expectSameElements(join(FIXTURE_DIR, f));
  });

  test("replicas are named as MuJoCo names them: sep + index with count's digits, innermost suffix first", () => {
    const ir = readIr(join(FIXTURE_DIR, 'mjcf-replicate.xml'));
    expect(ir.bodies.map((b) => b.name).filter((n) => n.startsWith('block'))).toEqual(['block-00', 'block-10', 'block-01', 'block-11']);
    const comb = ir.bodies.find((b) => b.name === 'comb')!;
    expect(comb.geoms.filter((g) => g.name.startsWith('tooth')).map((g) => g.name)).toEqual(
      Array.from({ length: 11 }, (_, i) => `tooth${String(i).padStart(2, '0')}`),
    );
    expect(comb.joints.map((j) => j.name)).toEqual(['comb_hinge', 'twist0', 'twist1']);
    expect(importFile(join(FIXTURE_DIR, 'mjcf-replicate.xml')).model.actuators?.map((a) => a.name)).toEqual(['swing_motor']);
  });
});

describe('what MuJoCo does beyond the tree is refused at its line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'achilles-frame-replicate-'));
  const scene = (world: string, after = ''): string => `<mujoco>\n  <worldbody>\n    ${world}\n  </worldbody>\n  ${after}\n</mujoco>\n`;
  const pendulums =
    '<replicate count="2" offset="1 0 0">\n      <body name="b"><joint name="j"/><geom size="0.1"/></body>\n    </replicate>';
  test.each([
    [
      'a keyframe with a replicate (MuJoCo copies each key per replica)',
      scene(pendulums, '<keyframe><key qpos="0 0"/></keyframe>'),
      7,
      /keyframe in a model with a <replicate>/,
    ],
    [
      'an actuator naming a replicated joint by its name before the suffix',
      scene(pendulums, '<actuator><motor joint="j"/></actuator>'),
      7,
      /joint "j", which is inside the <replicate>/,
    ],
    [
      'a tendon naming a replicated joint',
      scene(pendulums, '<tendon><fixed><joint joint="j" coef="1"/></fixed></tendon>'),
      7,
      /joint "j", which is inside the <replicate>/,
    ],
    [
      'a contact exclude naming a replicated body',
      scene(pendulums, '<contact><exclude body1="b" body2="world"/></contact>'),
      7,
      /body "b", which is inside the <replicate>/,
    ],
    [
      'an <inertial> of the enclosing body inside a replicate (MuJoCo drops it)',
      scene(
        '<body><geom size="0.1"/><joint/>\n    <replicate count="2"><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></replicate></body>',
      ),
      4,
      /<inertial> inside a <replicate>/,
    ],
    [
      'a <freejoint> inside a replicate',
      scene('<body><geom size="0.1"/>\n    <replicate count="1"><freejoint/></replicate></body>'),
      4,
      /<freejoint> inside a <replicate>/,
    ],
    ['a replicate without count', scene('<replicate><geom size="1"/></replicate>'), 3, /no count/],
    ['a count that is not a whole number', scene('<replicate count="1.5"><geom size="1"/></replicate>'), 3, /a whole number/],
    ['a count below 1', scene('<replicate count="0"><geom size="1"/></replicate>'), 3, /a positive number of copies/],
    [
      'more copies than the importer builds',
      scene('<replicate count="1000"><replicate count="1000"><geom size="1"/></replicate></replicate>'),
      3,
      /at most 100000 copies/,
    ],
    [
      'a second inertial for one body, through a frame',
      scene(
        '<body><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/><joint/>\n    <frame><inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/></frame></body>',
      ),
      4,
      /a second <inertial>/,
    ],
    ['an attribute <frame> does not have', scene('<frame count="2"><geom size="1"/></frame>'), 3, /unrecognized attribute 'count'/],
    [
      'an attribute <replicate> does not have',
      scene('<replicate count="2" pos="1 0 0"><geom size="1"/></replicate>'),
      3,
      /unrecognized attribute 'pos'/,
    ],
    [
      'a typo inside a frame (MuJoCo 3.14 checks nothing inside frames)',
      scene('<frame><body><joint axsi="1 0 0"/><geom size="1"/></body></frame>'),
      3,
      /unrecognized attribute 'axsi'.*did you mean 'axis'/,
    ],
    ['two orientations on a frame', scene('<frame quat="1 0 0 0" euler="0 0 1"><geom size="1"/></frame>'), 3, /at most one orientation/],
    ['an unknown childclass', scene('<frame childclass="nope"><geom size="1"/></frame>'), 3, /which no <default> defines/],
  ])('%s', (_what, xml, line, message) => {
    const f = join(dir, 'm.xml');
    writeFileSync(f, xml);
    let err: unknown;
    try {
      importFile(f);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SceneError);
    expect((err as SceneError).message).toMatch(message);
    expect((err as SceneError).line).toBe(line);
  });

  test('a note inside a replica is said once, not once per copy', () => {
    const f = join(dir, 'sites.xml');
    writeFileSync(f, scene('<replicate count="5" offset="1 0 0"><body><joint/><geom size="0.1"/><site/></body></replicate>'));
    expect(importFile(f).notes.filter((n) => /<site>/.test(n.message))).toHaveLength(1);
  });
});
