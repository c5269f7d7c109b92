// Writes every bundled scene (scenes/*.arow), every import fixture (test/fixtures/import: limits,
// frictionloss, tendons, actuators, passive forces), the equality fixtures (test/fixtures/equality)
// and the collision test world in the native text
// form (native-dump.ts) into the directory given, for the sanitizer run:
// `tsx test/helpers/dump-models.ts DIR`.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importFile } from '../../src/model-files/import/index.js';
import { loadScene } from '../../src/model-files/scene/index.js';
import { collisionScene } from './collision-scene.js';
import { root } from './engine.js';
import { modelText } from './native-dump.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: tsx test/helpers/dump-models.ts DIR');
mkdirSync(dir, { recursive: true });
const scenes = readdirSync(join(root, 'scenes'))
  .filter((f) => f.endsWith('.arow'))
  .sort();
for (const f of scenes) writeFileSync(join(dir, f.replace(/\.arow$/, '.txt')), modelText(loadScene(join(root, 'scenes', f))));
const fixtures = join(root, 'test', 'fixtures', 'import');
const imports = readdirSync(fixtures)
  .filter((f) => /\.(xml|urdf)$/.test(f))
  .sort();
for (const f of imports)
  writeFileSync(join(dir, `import-${f.replace(/\.(xml|urdf)$/, '')}.txt`), modelText(importFile(join(fixtures, f)).model));
const equalityDir = join(root, 'test', 'fixtures', 'equality');
const equalities = readdirSync(equalityDir)
  .filter((f) => f.endsWith('.arow'))
  .sort();
for (const f of equalities)
  writeFileSync(join(dir, `equality-${f.replace(/\.arow$/, '.txt')}`), modelText(loadScene(join(equalityDir, f))));
writeFileSync(join(dir, 'collision-scene.txt'), modelText(collisionScene()));
console.log(`${scenes.length + imports.length + equalities.length + 1} models written to ${dir}`);
