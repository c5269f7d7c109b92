// Import as strict as MuJoCo (issue 23): unknown MJCF attributes and elements refused at their line
// with a suggestion, XML nesting as deep as tinyxml2 allows and no deeper, NUL padding after the
// root read as MuJoCo reads it, XML that is no model named at its root, saxes messages without a
// doubled period.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatNote, importFile, sniffFormat } from '../src/model-files/import/index.js';
import { notAModelError } from '../src/model-files/import/xml.js';
import { loadScene, SceneError } from '../src/model-files/scene/index.js';

const dir = mkdtempSync(join(tmpdir(), 'achilles-import-strict-'));
let count = 0;
function write(text: string | Buffer, ext = 'xml'): string {
  const f = join(dir, `m${count++}.${ext}`);
  writeFileSync(f, text);
  return f;
}
function sceneError(f: () => unknown): SceneError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError);
    return e as SceneError;
  }
  throw new Error('expected a SceneError');
}
const body = (inner: string): string => `<mujoco>\n  <worldbody>\n    <body name="a">\n${inner}\n    </body>\n  </worldbody>\n</mujoco>\n`;

describe("MJCF attributes and elements are checked against MuJoCo's schema", () => {
  test('a misspelt attribute is refused at its line and column, with the attribute it resembles', () => {
    const f = write(body('      <joint axsi="1 0 0"/>\n      <geom size="0.1"/>'));
    const e = sceneError(() => importFile(f));
    expect([e.line, e.column]).toEqual([4, 14]);
    expect(e.message).toContain("<joint>: found unrecognized attribute 'axsi'");
    expect(e.message).toContain("did you mean 'axis'?");
    const g = sceneError(() => importFile(write(body('      <joint/>\n      <geom size="0.1" frcition="1"/>'))));
    expect([g.line, g.column]).toEqual([5, 24]);
    expect(g.message).toContain("did you mean 'friction'?");
  });

  test('attributes in default classes, compiler and option are checked too; a long name is cut', () => {
    const d = sceneError(() =>
      importFile(write(`<mujoco>\n  <default>\n    <joint dampnig="1"/>\n  </default>\n  <worldbody/>\n</mujoco>\n`)),
    );
    expect([d.line, d.message.includes("did you mean 'damping'?")]).toEqual([3, true]);
    const c = sceneError(() => importFile(write(`<mujoco>\n  <compiler settotalmas="3"/>\n  <worldbody/>\n</mujoco>\n`)));
    expect(c.message).toContain("did you mean 'settotalmass'?");
    const long = 'x'.repeat(100_000);
    const l = sceneError(() => importFile(write(body(`      <joint ${long}="1"/>`))));
    expect(l.message.length).toBeLessThan(400);
    expect(l.message).toContain('(100000 characters)');
  });

  test('an unknown element, a second <inertial> and an attribute on <worldbody> are refused as MuJoCo refuses them', () => {
    const u = sceneError(() => importFile(write(body('      <jiont/>\n      <geom size="0.1"/>'))));
    expect([u.line, u.column]).toEqual([4, 7]);
    expect(u.message).toMatch(/unrecognized element <jiont>.*did you mean <joint>\?/);
    const two = sceneError(() =>
      importFile(
        write(
          body('      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>\n      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>'),
        ),
      ),
    );
    expect([two.line, two.message.includes('a second <inertial>')]).toEqual([5, true]);
    const w = sceneError(() => importFile(write('<mujoco>\n  <worldbody name="w">\n  </worldbody>\n</mujoco>\n')));
    expect([w.line, w.message.includes('World body cannot have attributes')]).toEqual([2, true]);
  });

  test("every attribute MuJoCo allows on a joint still imports (the schema is MuJoCo's, not a guess)", () => {
    const f = write(
      body(
        '      <joint name="j" type="hinge" group="1" pos="0 0 0" axis="1 0 0" springdamper="0 0" limited="auto" actuatorfrclimited="auto" user="1" actuatorgravcomp="false"/>\n      <geom size="0.1" group="2" priority="0" material="" solmix="1" user="1"/>',
      ),
    );
    expect(importFile(f).model.bodies[0].axis).toEqual([1, 0, 0]);
  });
});

describe('XML as MuJoCo (tinyxml2) reads it', () => {
  test('10,000 nested <body> or <default>: an error at the first level tinyxml2 refuses, not a stack overflow', () => {
    const n = 10_000;
    const bodies = write(`<mujoco><worldbody>\n${'<body><geom size="0.1"/>\n'.repeat(n)}${'</body>'.repeat(n)}</worldbody></mujoco>`);
    const e = sceneError(() => importFile(bodies));
    expect([e.line, e.column]).toEqual([498, 1]);
    expect(e.message).toContain('Element nesting is too deep');
    const defaults = write(
      `<mujoco><default>\n${Array.from({ length: n }, (_, i) => `<default class="c${i}">\n`).join('')}${'</default>'.repeat(n + 1)}<worldbody/></mujoco>`,
    );
    expect(sceneError(() => importFile(defaults)).message).toContain('Element nesting is too deep');
    // 496 bodies, each with a geom, is as deep as MuJoCo goes (497 is refused: XML_ELEMENT_DEPTH_EXCEEDED)
    const ok = (k: number): string =>
      write(`<mujoco><worldbody>${'<body><joint/><geom size="0.1"/>'.repeat(k)}${'</body>'.repeat(k)}</worldbody></mujoco>`);
    expect(importFile(ok(496)).model.bodies.length).toBe(496);
    expect(() => importFile(ok(497))).toThrow(/nesting is too deep/);
  });

  test('NUL bytes after </robot> are not read (MuJoCo loads such a URDF); a NUL inside the document ends it', () => {
    const urdf =
      '<robot name="r">\n<link name="a"/>\n<link name="b"><inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>\n<joint name="j" type="continuous"><parent link="a"/><child link="b"/></joint>\n</robot>\n';
    const f = write(Buffer.concat([Buffer.from(urdf), Buffer.from([0, 0, 0]), Buffer.from('trailing junk')]), 'urdf');
    expect(sniffFormat(f)).toBe('urdf');
    expect(importFile(f).model.bodies.map((b) => b.name)).toEqual(['j']);
    expect(loadScene(f).bodies.length).toBe(1);
    const cut = write(Buffer.concat([Buffer.from(urdf.slice(0, 40)), Buffer.from([0]), Buffer.from(urdf.slice(40))]), 'urdf');
    expect(sceneError(() => importFile(cut)).message).toMatch(/XML: found unclosed tag/);
  });

  test('a DOCTYPE with an internal subset before <mujoco> is MJCF (MuJoCo reads it)', () => {
    const f = write(
      `<?xml version="1.0"?>\n<!DOCTYPE mujoco [\n  <!ENTITY a "b>">\n]>\n${body('      <joint/>\n      <geom size="0.1"/>')}`,
    );
    expect(sniffFormat(f)).toBe('mjcf');
    expect(importFile(f).model.bodies.length).toBe(1);
  });

  test('XML that is neither MJCF nor URDF is named at its root element, by `run` and by `import`', () => {
    const sdf = write('<?xml version="1.0"?>\n<!-- a world -->\n<sdf version="1.6"><model name="x"/></sdf>\n', 'sdf');
    expect(sniffFormat(sdf)).toBeUndefined();
    for (const e of [sceneError(() => loadScene(sdf)), notAModelError(sdf)]) {
      expect([e.line, e.column]).toEqual([3, 1]);
      expect(e.message).toContain('found <sdf> is SDF, which achilles does not read, expected an MJCF <mujoco> or URDF <robot> root');
      expect(e.message).not.toContain('not supported yet');
    }
    const svg = sceneError(() => loadScene(write('\n<svg/>')));
    expect([svg.line, svg.column, svg.message.includes('<svg>, an XML root that is neither MJCF nor URDF')]).toEqual([2, 1, true]);
  });

  test('an XML error reads "found unexpected close tag, expected" (no doubled period)', () => {
    const e = sceneError(() => importFile(write('<mujoco>\n</worldbody>\n</mujoco>\n')));
    expect(e.message).toContain('XML: found unexpected close tag, expected well-formed XML');
    expect(e.message).not.toContain('.,');
  });
});

describe('a huge name is echoed cut, with its length', () => {
  test('in a note line (errors are bounded by SceneError itself)', () => {
    const long = 'x'.repeat(100_000);
    const imp = importFile(
      write(body(`      <joint/>\n      <geom name="${long}" type="sphere" size="0.1" contype="0" conaffinity="0"/>`)),
    );
    const lines = imp.notes.map(formatNote).filter((l) => l.includes(`geom '${'x'.repeat(50)}`));
    expect(lines.length).toBe(1);
    expect(lines[0].length).toBeLessThan(600);
    expect(lines[0]).toMatch(/… \(100\d\d\d characters\)$/);
  });
});

describe("URDF stays as lenient as MuJoCo's URDF reader", () => {
  test("unknown elements (ros2_control, a tool's own) and attributes are ignored with a note, as MuJoCo ignores them", () => {
    const inertial = '<inertial><mass value="1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial>';
    const f = write(
      `<robot name="r">\n  <link name="a"/>\n  <link name="b" colour="red">${inertial}</link>\n  <joint name="j" type="revolute" speed="fast"><parent link="a"/><child link="b"/><limit lower="-1" upper="1" effort="1" velocity="1"/><safety_controller k_velocity="1"/></joint>\n  <ros2_control name="hw" type="system"/>\n  <foo bar="1"/>\n</robot>\n`,
      'urdf',
    );
    const imp = importFile(f);
    expect(imp.model.bodies.map((b) => b.name)).toEqual(['j']);
    expect(imp.notes.filter((n) => /MuJoCo's URDF reader ignores it/.test(n.message)).map((n) => n.source.line)).toEqual([5, 6]);
  });
});
