// The `.arow` equality section: read with MuJoCo's names, written back by the .arow writer and the
// MJCF export (which MuJoCo compiles to the same constraints), and its mistakes reported at their line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScene } from '../src/model-files/scene/index.js';
import { writeArow } from '../src/model-files/scene/arow-writer.js';
import { exportMjcf } from '../src/model-files/scene/mjcf-writer.js';

const fixture = (n: string) => loadScene(join(__dirname, 'fixtures', 'equality', `${n}.arow`));

describe('.arow equality constraints', () => {
  it('reads the fixtures and writes them back unchanged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eq-'));
    for (const n of ['four-bar', 'gripper', 'weld']) {
      const m = fixture(n);
      expect(m.equalities?.length).toBeGreaterThan(0);
      const f = join(dir, `${n}.arow`);
      writeFileSync(f, writeArow(m, []));
      expect(loadScene(f).equalities).toEqual(m.equalities?.map(({ source: _s, ...e }) => e));
    }
  });
  it('exports <equality> for MuJoCo', () => {
    const xml = exportMjcf(fixture('weld'));
    expect(xml).toContain('<weld name="bridge" active="true"');
    expect(xml).toContain('relpose="1 0.05 1 0.9950041652780258 0.09983341664682815 0 0"');
    expect(exportMjcf(fixture('gripper'))).toContain(
      '<joint name="coupling" active="true" solref="0.01 1" solimp="0.9 0.95 0.001 0.5 2" joint1="finger_right" joint2="finger_left" polycoef="0.002 -1 0.8 -3 20"/>',
    );
  });
  it('reports an unknown link at its line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'eq-'));
    const f = join(dir, 'bad.arow');
    writeFileSync(
      f,
      [
        'scene: bad',
        'links:',
        '  - { name: a, parent: world, joint: { type: revolute, axis: [0, 1, 0] }, mass: 1, com: [0, 0, 0], inertia: [0.1, 0.1, 0.1] }',
        'equality:',
        '  - { type: connect, name: c, body1: aa, anchor: [0, 0, 0] }',
        '',
      ].join('\n'),
    );
    expect(() => loadScene(f)).toThrow(/bad\.arow:5:.*`aa`, which is not a link/);
  });
});
