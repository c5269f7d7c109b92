// Fuzz harness (issue 7, "keep it so"; issue 23's classes): mutated bundled scenes and MJCF/URDF
// fixtures, each loaded and stepped briefly in a child process, classified as clean error / clean
// run / crash / hang / memory blow-up / leak (an error printing another file) / long message (a
// value echoed whole). Only the first two are allowed. Each mutation class gets its turn in order,
// so even the small sample has one case of every class.
//
//   npm test                        a seeded sample of FUZZ_SAMPLE cases (a few seconds)
//   npm run fuzz                    2,000 cases (ACHILLES_FUZZ_CASES, ACHILLES_FUZZ_SEED to change);
//                                   each finding is kept in reports/fuzz/ to reproduce it with
//                                   `node test/fuzz/child.mjs reports/fuzz/FILE`
// The newer surfaces (MJCF include/frame/replicate and meshes, sweep files, --parameters, --emit jobs)
// are fuzzed by test/fuzz-surfaces.test.ts, the Python API by python/tests/test_fuzz_api.py.
import { copyFileSync, cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test } from 'vitest';
import { CANARY, MUTATIONS, mutate, rng, type Foreign, type Mutation } from './fuzz/mutate.js';
import { pool, runCase, type CaseResult, type Outcome } from './fuzz/run-case.js';
import { ROOT, SCENES } from './helpers/cli.js';
import { tempDir } from './helpers/scene.js';

const FUZZ_SAMPLE = 16;
const cases = Number(process.env.ACHILLES_FUZZ_CASES ?? FUZZ_SAMPLE);
const seed0 = Number(process.env.ACHILLES_FUZZ_SEED ?? 1);
const big = cases > FUZZ_SAMPLE;

/** A raw scene with an include, so includes, copies and attach are fuzzed too. */
const S_X = '[1,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0, 0,0,0,0,0,0]';
const rawJoint = (name: string, parent: string): string =>
  `  - name: ${name}\n    parent: ${parent}\n    fields:\n      joint_subspace: ${S_X}\n      joint_activation_mask: [1]\n      fixed_joint_transform: {translation: [0, 1, 0], rotation: [1, 0, 0, 0]}\n      rigid_body_inertia: [1.0, 0, 0.3, 0, 0.18083, 0.015, 0.18083, 0, 0, 0]\n`;
const RAW_BASE = `archetype: base\nincludes: [arm.arow]\njoints:\n${rawJoint('j0', 'null')}${rawJoint('j1', 'j0')}`;
const RAW_ARM = `archetype: arm\ncopies: 2\nattach: {archetype: base, joint: j1}\njoints:\n${rawJoint('a0', 'null')}`;

const corpus: { name: string; text: string }[] = [
  ...readdirSync(SCENES)
    .filter((f) => f.endsWith('.arow'))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(SCENES, f), 'utf8') })),
  { name: 'raw-base.arow', text: RAW_BASE },
  { name: 'raw-arm.arow', text: RAW_ARM },
];

/** MJCF and URDF models (the importer's fixtures); the meshes they name are copied beside them. */
const FIXTURES = join(ROOT, 'test', 'fixtures', 'import');
const xmlCorpus = readdirSync(FIXTURES)
  .filter((f) => /\.(xml|urdf)$/.test(f))
  .sort()
  .map((f) => ({ name: f, text: readFileSync(join(FIXTURES, f), 'utf8') }));

/** The sources a mutation applies to. */
function sourcesFor(kind: Mutation): { name: string; text: string }[] {
  if (kind.startsWith('xml-')) return xmlCorpus;
  if (kind === 'foreign-include') return corpus.filter((c) => c.name.startsWith('raw-'));
  return corpus;
}

/** The --config of a `foreign-config` case: another file (never to be printed), or a config with a
 *  100,000-character value or the smallest dt and duration. */
function configFor(seed: number, dir: string, foreign: Foreign): string {
  const pick = Math.floor(rng(seed * 7919)() * 5);
  if (pick === 0) return foreign.text;
  if (pick === 1) return foreign.yaml;
  if (pick === 2) return '/etc/passwd';
  const f = join(dir, `config-${seed}.yaml`);
  writeFileSync(f, pick === 3 ? `integrator: ${'r'.repeat(100_000)}\n` : 'dt: 1e-9\nduration: 1e-9\n');
  return f;
}

test(
  `fuzz: ${cases} mutated scenes (seed ${seed0}) give a clean error or a clean run`,
  { timeout: big ? 24 * 3600_000 : 60_000 },
  async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'arm.arow'), RAW_ARM); // the include the raw base finds when only it is mutated
    for (const mesh of readdirSync(FIXTURES).filter((f) => /\.(obj|stl)$/.test(f))) copyFileSync(join(FIXTURES, mesh), join(dir, mesh));
    // the files mjcf-include.xml includes, so its mutations reach them
    cpSync(join(FIXTURES, 'mjcf-include'), join(dir, 'mjcf-include'), { recursive: true });
    // files no error may print (an include or --config may name them)
    const foreign: Foreign = { text: join(dir, 'secret.txt'), yaml: join(dir, 'secret.yaml'), up: `../${basename(dir)}/secret.txt` };
    writeFileSync(foreign.text, `${CANARY} this line must never appear in a message\nsecond ${CANARY}\n`);
    writeFileSync(foreign.yaml, `${CANARY}: 1\npassword: ${CANARY}\n`);
    const plan = Array.from({ length: cases }, (_, i) => {
      const seed = seed0 + i;
      const kind = MUTATIONS[i % MUTATIONS.length];
      const sources = sourcesFor(kind);
      const src = sources[Math.floor(rng(seed)() * sources.length)];
      const m = mutate(src.text, seed, kind, foreign);
      const file = join(dir, `case-${seed}-${src.name}`);
      writeFileSync(file, Buffer.from(m.text, m.latin1 ? 'latin1' : 'utf8'));
      const config = kind === 'foreign-config' ? configFor(seed, dir, foreign) : undefined;
      return { seed, scene: src.name, kind: m.kind, file, config };
    });
    const results: CaseResult[] = await pool(plan, 2, (p) => runCase(p.file, undefined, undefined, p.config));
    const counts: Record<string, number> = {};
    for (const r of results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    const bad = plan.map((p, i) => ({ ...p, ...results[i] })).filter((r) => r.outcome !== 'clean-error' && r.outcome !== 'clean-run');
    if (big) {
      const keep = join(ROOT, 'reports', 'fuzz');
      mkdirSync(keep, { recursive: true });
      for (const b of bad) {
        copyFileSync(b.file, join(keep, `${b.outcome}-seed${b.seed}-${b.scene}`));
        // a written --config goes with it (an include of the planted secret is named in the report line)
        if (b.config?.startsWith(dir)) copyFileSync(b.config, join(keep, `${b.outcome}-seed${b.seed}-config.yaml`));
      }
      const slowest = Math.max(...results.map((r) => r.ms));
      console.log(
        `fuzz: ${cases} cases from seed ${seed0}: ${JSON.stringify(counts)}; slowest ${Math.round(slowest)} ms${bad.length ? `; findings kept in ${keep}` : ''}`,
      );
    }
    expect(
      bad.map((b) => `${b.outcome} (${b.kind} of ${b.scene}, seed ${b.seed}${b.config ? `, --config ${b.config}` : ''}): ${b.detail}`),
    ).toEqual([]);
    // the sample must exercise both sides, or it proves nothing
    expect(counts['clean-error'] ?? 0).toBeGreaterThan(0);
    expect(counts['clean-run'] ?? 0).toBeGreaterThan(0);
  },
);

// The classifier must see each bad outcome, or the fuzz test above could never fail.
test.each<[Outcome, string]>([
  ['crash', 'process.abort();'],
  ['crash', 'null.x;'],
  ['crash', `console.log(JSON.stringify({ outcome: 'internal-error', message: 'x is undefined', rssMB: 50 }));`],
  ['hang', 'setInterval(() => {}, 1000);'],
  ['memory', 'const keep = []; for (;;) keep.push(new Array(1e6).fill(1.5));'],
  ['memory', `console.log(JSON.stringify({ outcome: 'run', rssMB: 4096 }));`],
  ['leak', `console.log(JSON.stringify({ outcome: 'error', scene: true, message: 'f:1:1: found FUZZ-CANARY-7f3a', rssMB: 50 }));`],
  ['leak', `console.log(JSON.stringify({ outcome: 'error', scene: true, message: 'c:1:1: found root:x:0:0:root', rssMB: 50 }));`],
  [
    'long-message',
    `console.log(JSON.stringify({ outcome: 'error', scene: true, message: 'f:1:1: ' + 'v'.repeat(300), length: 100000, rssMB: 50 }));`,
  ],
  ['clean-error', `console.log(JSON.stringify({ outcome: 'error', scene: true, message: 'f:1:1: x', rssMB: 50 }));`],
  ['clean-run', `console.log(JSON.stringify({ outcome: 'run', rssMB: 50 }));`],
])(
  'the classifier calls it %s: %s',
  async (outcome, code) => {
    const child = join(tempDir(), 'child.mjs');
    writeFileSync(child, code);
    // a short hang limit only where a hang is the point: a loaded machine starts node slowly
    expect((await runCase('unused', child, outcome === 'hang' ? 1500 : 10_000)).outcome).toBe(outcome);
  },
  30_000,
);
