// Attributes MuJoCo allows that the importer does not follow (issue 23): at MuJoCo's default they
// change nothing and import; at any other value they are refused at their line, instead of the
// model running without them (a geom's adhesion, an actuator's delay, ...).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importFile } from '../src/model-files/import/index.js';
import { SceneError } from '../src/model-files/scene/index.js';

const dir = mkdtempSync(join(tmpdir(), 'achilles-import-unread-'));
let n = 0;
const model = (joint: string, geom: string, act = '', free = false): string => {
  const f = join(dir, `m${n++}.xml`);
  writeFileSync(
    f,
    `<mujoco>\n  <worldbody>\n    <body name="a">\n      ${free ? `<freejoint ${joint}/>` : `<joint name="j" ${joint}/>`}\n      <geom size="0.1" ${geom}/>\n    </body>\n  </worldbody>\n  <actuator>\n    ${free ? '' : `<position joint="j" ${act}/>`}\n  </actuator>\n</mujoco>\n`,
  );
  return f;
};

describe('attributes the importer does not follow', () => {
  test("at MuJoCo's default they import", () => {
    const f = model(
      'springdamper="0 0" solreffriction="0.02 1" solimpfriction="0.9 0.95 0.001" actuatorfrclimited="auto" actuatorgravcomp="false"',
      'priority="0" solmix="1" shellinertia="false" adhesion="0"',
      'damping="0" armature="0" delay="0" inheritrange="0" dampratio="0" timeconst="0"',
    );
    expect(importFile(f).model.bodies.length).toBe(1);
    expect(importFile(model('align="false"', '', '', true)).model.bodies[0].joint).toBe('free');
  });

  test.each([
    ['joint solreffriction', model('solreffriction="0.05 1" frictionloss="1"', ''), 4, /solreffriction/],
    ['joint actuatorfrclimited', model('actuatorfrclimited="true" actuatorfrcrange="-1 1"', ''), 4, /actuatorfrclimited/],
    ['joint actuatorgravcomp', model('actuatorgravcomp="true"', ''), 4, /actuatorgravcomp/],
    ['freejoint align', model('align="true"', '', '', true), 4, /align/],
    ['geom adhesion', model('', 'adhesion="1"'), 5, /adhesion/],
    ['geom shellinertia', model('', 'shellinertia="true"'), 5, /shellinertia/],
    ['actuator damping', model('', '', 'damping="2"'), 9, /damping/],
    ['actuator armature', model('', '', 'armature="0.1"'), 9, /armature/],
    ['actuator delay', model('', '', 'delay="0.01"'), 9, /delay/],
    // dampratio and timeconst are read (the general form, test/scene-general-actuators.test.ts)
    ['actuator inheritrange', model('range="-1 1"', '', 'inheritrange="1"'), 9, /inheritrange/],
  ])("%s other than MuJoCo's default is refused at its line", (_, f, line, what) => {
    let e: unknown;
    try {
      importFile(f);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(SceneError);
    expect((e as SceneError).line).toBe(line);
    expect((e as SceneError).message).toMatch(what);
    expect((e as SceneError).message).toContain("MuJoCo's default (not supported");
  });
});
