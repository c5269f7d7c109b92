// `achilles compile FILE`: the compiled model as one JSON document whose numbers read back exactly,
// so another program (the Python package) runs the very model the Node engine runs.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toNativeModel } from '../src/engine/batch.js';
import { compiledModel } from '../src/engine/compiled-model.js';
import { engineAddon } from '../src/engine/native.js';
import { exactJson, NotJsonNumberError } from '../src/reports/exact-json.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { withNamedParameters } from '../src/params/named.js';
import { cli, ROOT, SCENES, tempDir } from './helpers/cli.js';

const DP = join(SCENES, 'double-pendulum.arow');
const IMPORTS = join(ROOT, 'test', 'fixtures', 'import');

/** Equal, with numbers compared as Object.is (so -0 is not 0); keys whose value is undefined count as absent. */
function sameExactly(a: unknown, b: unknown, path = '$'): string | null {
  if (typeof a === 'number' || typeof b === 'number') return Object.is(a, b) ? null : `${path}: ${String(a)} vs ${String(b)}`;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return a === b ? null : `${path}: ${String(a)} vs ${String(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const x = (a as Record<string, unknown>)[k];
    const y = (b as Record<string, unknown>)[k];
    if (x === undefined && y === undefined) continue;
    const d = sameExactly(x, y, `${path}.${k}`);
    if (d) return d;
  }
  return null;
}

describe('exact JSON', () => {
  it('reads back every double exactly, -0 and infinities included', () => {
    const xs = [0.1, 1 / 3, -0, 0, 5e-324, 1.7976931348623157e308, -2.5e-308, Infinity, -Infinity, 2 ** 53 + 2, Math.PI];
    const text = exactJson({ xs, nested: [{ x: -0 }] });
    expect(sameExactly(JSON.parse(text), { xs, nested: [{ x: -0 }] })).toBeNull();
    expect(text).toContain('-0.0');
    expect(text).toContain('1e999');
    // JSON.stringify would not: -0 becomes 0, Infinity null.
    expect(sameExactly(JSON.parse(JSON.stringify(xs)), xs)).not.toBeNull();
  });
  it('refuses NaN, naming where it is', () => {
    expect(() => exactJson({ a: [1, { b: NaN }] }, 'model')).toThrow(NotJsonNumberError);
    expect(() => exactJson({ a: [1, { b: NaN }] }, 'model')).toThrow('model.a[1].b is NaN, which JSON cannot carry');
  });
  it('leaves out undefined keys as JSON.stringify does', () => {
    const v = { a: undefined, b: [undefined, 1], c: 'x"y' };
    expect(JSON.parse(exactJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
  });
});

describe('achilles compile', () => {
  it('prints the model the engine reads, its world and its names', async () => {
    const r = await cli('compile', DP);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const model = loadScene(DP);
    expect(doc.format).toBe('achilles-compiled-model');
    expect(doc.version).toBe(1);
    expect(doc.source).toBe(DP);
    expect(sameExactly(doc.native, toNativeModel(model))).toBeNull();
    expect(doc.world).toEqual({ ...model.world });
    expect(doc.names.joints).toEqual([
      { name: model.bodies[0].name, type: 'revolute', qoff: 0, voff: 0, nq: 1, nv: 1 },
      { name: model.bodies[1].name, type: 'revolute', qoff: 1, voff: 1, nq: 1, nv: 1 },
    ]);
  });

  it('round-trips every bundled scene and import fixture exactly', () => {
    const files = [
      ...readdirSync(SCENES)
        .filter((f) => f.endsWith('.arow'))
        .map((f) => join(SCENES, f)),
      ...readdirSync(IMPORTS)
        .filter((f) => /\.(xml|urdf)$/.test(f))
        .map((f) => join(IMPORTS, f)),
    ];
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const doc = compiledModel(loadScene(f), f);
      expect(sameExactly(JSON.parse(exactJson(doc)), doc), f).toBeNull();
    }
  });

  it('gives the engine the same model: the same numbers after steps', () => {
    const model = loadScene(join(SCENES, 'quadruped.arow'));
    const opts = { precision: 'f64', lanes: 4, copies: 4, integrator: 'euler', dt: 0.002, substeps: 1, midpointIterations: 4, threads: 1 };
    const native = JSON.parse(exactJson(compiledModel(model, 'q').native));
    const [a, b] = [toNativeModel(model), native].map((m) => new (engineAddon().NativeBatch)(m, opts));
    a.step(40);
    b.step(40);
    expect(Buffer.from(b.field('q').buffer).equals(Buffer.from(a.field('q').buffer))).toBe(true);
  });

  it('writes --out atomically and refuses a file it did not write', async () => {
    const dir = tempDir();
    const out = join(dir, 'dp.json');
    expect((await cli('compile', DP, '--out', out)).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).format).toBe('achilles-compiled-model');
    expect((await cli('compile', DP, '--out', out)).code).toBe(0); // its own file: replaced
    const other = join(dir, 'notes.json');
    writeFileSync(other, '{"mine": true}\n');
    const r = await cli('compile', DP, '--out', other);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('exists and is not a file achilles writes');
    expect(readFileSync(other, 'utf8')).toBe('{"mine": true}\n');
    expect((await cli('compile', DP, '--out', other, '--force')).code).toBe(0);
  });

  it('compiles MJCF and URDF, and reports a bad scene at its line', async () => {
    for (const f of ['mjcf-general-servos.xml', 'urdf-arm.urdf']) {
      const r = await cli('compile', join(IMPORTS, f));
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).names.bodies.length).toBeGreaterThan(0);
    }
    const bad = join(tempDir(), 'bad.arow');
    writeFileSync(bad, readFileSync(DP, 'utf8').replace('mass:', 'mas:'));
    const r = await cli('compile', bad);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: `));
  });
});

describe('achilles compile --parameters: robots with their own parameters written in', () => {
  it('an object gives one document, an array one per robot, each the model withNamedParameters makes', async () => {
    const one = await cli('compile', DP, '--parameters', '{"mass_scale:upper": 1.5, "gravity.z": -9.7}');
    expect(one.code, one.stderr).toBe(0);
    const want = compiledModel(withNamedParameters(loadScene(DP), { 'mass_scale:upper': 1.5, 'gravity.z': -9.7 }), DP);
    expect(sameExactly(JSON.parse(one.stdout), JSON.parse(exactJson(want)))).toBeNull();
    const two = await cli('compile', DP, '--parameters', '[{"gravity.z": -9}, {"gravity.z": -10}]');
    expect(two.code, two.stderr).toBe(0);
    const docs = JSON.parse(two.stdout) as { world: { gravity: number[] } }[];
    expect(docs.map((d) => d.world.gravity[2])).toEqual([-9, -10]);
  });
  it('refuses what is not an object of numbers, and a name the model lacks, saying which set', async () => {
    const bad = async (json: string) => (await cli('compile', DP, '--parameters', json)).stderr;
    expect(await bad('{mass')).toMatch(/--parameters: found text that is not JSON .*expected \{"NAME": number, \.\.\.\}/);
    expect(await bad('[{"gravity.z": "x"}]')).toMatch(/--parameters\[0\] gravity\.z: found "x", expected a number/);
    expect(await bad('[{"gravity.z": -9}, {"mass_scale:tail": 2}]')).toMatch(/--parameters\[1\] mass_scale:tail: found no link `tail`/);
  });
  it('names a hostile value briefly: a 100,000-character name or string cut, a deep or long array by its size (fuzz findings)', async () => {
    const bad = async (json: string) => (await cli('compile', DP, '--parameters', json)).stderr;
    const x = 'x'.repeat(100_000);
    for (const json of [`{"${x}": 1}`, `{"mass_scale:${x}": 1}`, `{"friction:${x}": 1}`, `{"a": "${x}"}`]) {
      const err = await bad(json);
      expect(err).toMatch(/x… \(1000\d\d characters\)/);
      expect(err.length).toBeLessThan(1000);
    }
    expect(await bad(`${'['.repeat(60_000)}${']'.repeat(60_000)}`)).toMatch(
      /^achilles: --parameters\[0\]: found an array of 1 item, expected an object/,
    );
    expect(await bad(`[[${'1,'.repeat(50_000)}1]]`)).toMatch(/--parameters\[0\]: found an array of 50001 items, expected an object/);
  });
});
