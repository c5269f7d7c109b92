// MJCF <include> (issue 26), against MuJoCo loading the same files: test/fixtures/import/
// mjcf-include.xml assembles settings, a mesh and bodies from mjcf-include/ (a nested include by
// a path relative to the including file, a mesh found beside the included file), and passes the
// import stage's gates and the element-by-element comparison. Where MuJoCo looks for an included
// file, what it accepts as one, and every problem, named at the file and line it is in.

import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import { importFile } from '../src/model-files/import/index.js';
import { SceneError } from '../src/model-files/scene/index.js';
import { FIXTURE_DIR, importReference, importRows } from '../src/validation/import/stage.js';
import { expectSameElements, mujocoElements, readIr } from './helpers/mujoco-elements.js';

/** A fresh folder with `files` (path → content) written in it. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'achilles-include-'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

function sceneError(path: string): SceneError {
  try {
    importFile(path);
  } catch (e) {
    expect(e).toBeInstanceOf(SceneError);
    return e as SceneError;
  }
  throw new Error('expected a SceneError');
}

const BODY = '<mujoco>\n  <body name="b"><joint/><geom size="0.1"/></body>\n</mujoco>\n';
const main = (inWorld: string): string => `<mujoco>\n  <worldbody>\n    ${inWorld}\n  </worldbody>\n</mujoco>\n`;

describe('include against MuJoCo', () => {
  test("the assembled fixture's masses, centres of mass, inertias, poses and accelerations match MuJoCo's", async () => {
    const name = 'import:mjcf-include.xml';
    const ref = await importReference(process.env.ACHILLES_PYTHON || 'python3', 1, 3, new Set([name]));
    expect(ref.fixtures.map((f) => f.name)).toEqual([name]);
    expect(ref.fixtures[0].mj.bodies).toEqual(['base', 'upper', 'fore', 'wheel']);
    const rows = importRows(ref, engineAddon()).filter((r) => r.model === name);
    expect(rows.some((r) => r.field === 'qacc')).toBe(true);
    expect(rows.filter((r) => r.status !== 'pass').map((r) => `${r.field}[${r.state}] ${r.error} ${r.note}`)).toEqual([]);
  }, 60_000);

  test('every body, joint and geom of the assembled fixture with its name, in its place', () => {
    expectSameElements(join(FIXTURE_DIR, 'mjcf-include.xml'));
  });

  test('settings from an included file apply to the whole model (compiler angle radian, eulerseq zyx)', () => {
    const ir = readIr(join(FIXTURE_DIR, 'mjcf-include.xml'));
    expect(ir.bodies.find((b) => b.name === 'fore')!.quat[2]).toBeCloseTo(Math.sin(0.25), 15);
  });

  test("an included file's top-level element may have any name, as MuJoCo drops it unread", () => {
    const dir = folder({ 'm.xml': main('<include file="parts.xml"/>'), 'parts.xml': BODY.replace(/mujoco>/g, 'parts>') });
    expect(mujocoElements(join(dir, 'm.xml')).bodies.map((b) => b.name)).toEqual(['b']);
    expect(readIr(join(dir, 'm.xml')).bodies.map((b) => b.name)).toEqual(['b']);
  });

  test("a nested include is looked for in the main model's folder first, then beside the including file", () => {
    const files = {
      'm.xml': main('<include file="sub/a.xml"/>'),
      'sub/a.xml': '<mujoco>\n  <include file="b.xml"/>\n</mujoco>\n',
      'sub/b.xml': BODY,
    };
    const beside = folder(files);
    expect(mujocoElements(join(beside, 'm.xml')).bodies.map((b) => b.name)).toEqual(['b']);
    expect(readIr(join(beside, 'm.xml')).bodies.map((b) => b.name)).toEqual(['b']);
    const top = folder({ ...files, 'b.xml': BODY.replace('name="b"', 'name="top"') });
    expect(mujocoElements(join(top, 'm.xml')).bodies.map((b) => b.name)).toEqual(['top']);
    expect(readIr(join(top, 'm.xml')).bodies.map((b) => b.name)).toEqual(['top']);
  });

  test('includes inside <default>, <actuator> and a <body> land where the <include> stood', () => {
    const dir = folder({
      'm.xml':
        '<mujoco>\n  <default><include file="d.xml"/></default>\n  <worldbody>\n    <body name="p"><include file="inner.xml"/><geom class="big"/></body>\n  </worldbody>\n  <actuator><include file="a.xml"/></actuator>\n</mujoco>\n',
      'd.xml': '<mujoco><default class="big"><geom size="0.5"/></default></mujoco>',
      'inner.xml': '<mujoco><joint name="j"/><geom size="0.1" pos="1 0 0"/></mujoco>',
      'a.xml': '<mujoco><motor name="m" joint="j"/></mujoco>',
    });
    expectSameElements(join(dir, 'm.xml'));
    expect(importFile(join(dir, 'm.xml')).model.actuators?.map((a) => a.name)).toEqual(['m']);
  });

  test('a note about an element of an included file names that file and line', () => {
    const dir = folder({
      'm.xml': main('<include file="sub/s.xml"/>'),
      'sub/s.xml': '<mujoco>\n  <body><joint/><geom size="0.1"/>\n    <site/>\n  </body>\n</mujoco>\n',
    });
    const note = importFile(join(dir, 'm.xml')).notes.find((n) => /<site>/.test(n.message))!;
    expect(note.source).toEqual({ file: join(dir, 'sub', 's.xml'), line: 3, column: 5 });
  });
});

describe('include problems are refused with the file and line they are at', () => {
  test.each([
    ['a missing file', { 'm.xml': main('<include file="nope.xml"/>') }, 'm.xml', 3, /no file "nope.xml"/],
    [
      "a file outside the model's folder",
      { 'm/m.xml': main('<include file="../other.xml"/>'), 'other.xml': BODY },
      'm/m.xml',
      3,
      /outside the model's folder/,
    ],
    [
      'a file included twice',
      { 'm.xml': main('<include file="b.xml"/>\n    <include file="b.xml"/>'), 'b.xml': BODY },
      'm.xml',
      4,
      /already included as "b.xml"/,
    ],
    [
      'the model including itself',
      { 'm.xml': '<mujoco>\n  <include file="m.xml"/>\n  <worldbody/>\n</mujoco>\n' },
      'm.xml',
      2,
      /closes a cycle of includes \("m.xml" → "m.xml"\)/,
    ],
    [
      'a cycle of includes',
      {
        'm.xml': main('<include file="sub/a.xml"/>'),
        'sub/a.xml': '<mujoco>\n  <include file="b.xml"/>\n</mujoco>',
        'sub/b.xml': '<mujoco>\n\n  <include file="a.xml"/>\n</mujoco>',
      },
      'sub/b.xml',
      3,
      /closes a cycle of includes \("m.xml" → "sub\/a.xml" → "sub\/b.xml" → "sub\/a.xml"\)/,
    ],
    [
      'an <include> with content',
      { 'm.xml': main('<include file="b.xml">\n      <geom size="1"/>\n    </include>'), 'b.xml': BODY },
      'm.xml',
      4,
      /Include element cannot have children/,
    ],
    ['an <include> without file', { 'm.xml': main('<include/>') }, 'm.xml', 3, /no file attribute/],
    [
      'an <include> with another attribute',
      { 'm.xml': main('<include file="b.xml" dir="x"/>'), 'b.xml': BODY },
      'm.xml',
      3,
      /only file="PATH"/,
    ],
    [
      'an included file with nothing to include',
      { 'm.xml': main('<include file="e.xml"/>'), 'e.xml': '<mujoco>\n</mujoco>\n' },
      'e.xml',
      1,
      /Empty include file/,
    ],
    [
      'a malformed included file',
      { 'm.xml': main('<include file="sub/bad.xml"/>'), 'sub/bad.xml': '<mujoco>\n  <geom size="1">\n</mujoco>\n' },
      'sub/bad.xml',
      3,
      /well-formed XML/,
    ],
    [
      'an element MuJoCo does not know, in an included file',
      { 'm.xml': main('<include file="sub/g.xml"/>'), 'sub/g.xml': '<mujoco>\n  <geom sizee="1"/>\n</mujoco>\n' },
      'sub/g.xml',
      2,
      /unrecognized attribute 'sizee'/,
    ],
    [
      'a bad value in an included file',
      { 'm.xml': main('<include file="g.xml"/>'), 'g.xml': '<mujoco>\n\n  <geom size="x"/>\n</mujoco>\n' },
      'g.xml',
      3,
      /"x"/,
    ],
  ])('%s', (_what, files, file, line, message) => {
    const dir = folder(files as Record<string, string>);
    const main = Object.keys(files)[0];
    const e = sceneError(join(dir, main));
    expect(e.message).toMatch(message);
    expect([e.file, e.line]).toEqual([join(dir, file), line]);
  });

  test("a link to a file outside the model's folder is refused as the file would be", () => {
    const dir = folder({ 'm/m.xml': main('<include file="link.xml"/>'), 'other.xml': BODY });
    symlinkSync(join(dir, 'other.xml'), join(dir, 'm', 'link.xml'));
    expect(sceneError(join(dir, 'm', 'm.xml')).message).toMatch(/outside the model's folder/);
  });
});
