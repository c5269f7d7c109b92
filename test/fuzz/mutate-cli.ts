// Seeded hostile input for the CLI's newer surfaces (test/fuzz-surfaces.test.ts):
// - sweep files (`achilles sweep FILE`): the bundled sweeps with damaged text, hostile values per key
//   (robots 1e308, dt 1e-320, reversed or infinite distributions, unknown parameter names), YAML's
//   own hazards (aliases, recursive anchors, tags, deep nesting, several documents) and scenes that
//   are other files;
// - parameters (`achilles compile MODEL --parameters JSON`): absurd values (1e308, 1e999, -0, 5e-324),
//   wrong types, unknown and prototype names, JSON that is not an object, deep nesting;
// - emitted jobs (`achilles sweep FILE --emit slurm|k8s`): names, paths, the current directory,
//   --out, --image and --pvc built from every character bash, sbatch or YAML reads specially.

import { mutate, rng, SCENE_MUTATIONS, type Foreign } from './mutate.js';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

// ---- sweep files ---------------------------------------------------------------------------------

export const SWEEP_MUTATIONS = ['sweep-text', 'sweep-values', 'sweep-yaml', 'sweep-scene'] as const;
export type SweepMutation = (typeof SWEEP_MUTATIONS)[number];

/** A YAML flow value for a JS value (numbers YAML's way: .nan, .inf; strings JSON-quoted). */
function y(v: unknown): string {
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return '.nan';
    if (!Number.isFinite(v)) return v > 0 ? '.inf' : '-.inf';
    return String(v);
  }
  if (Array.isArray(v)) return `[${v.map(y).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${y(x)}`)
      .join(', ')}}`;
  return JSON.stringify(v) ?? 'null';
}

const DISTRIBUTIONS: unknown[] = [
  { uniform: [1, 0] },
  { uniform: [NaN, 1] },
  { uniform: [-1e308, 1e308] },
  { uniform: [1e308, 1e308] },
  { uniform: [-Infinity, 0] },
  { uniform: [0, 0] },
  { log_uniform: [0, 1] },
  { log_uniform: [-1, 1] },
  { log_uniform: [1e-320, 1e308] },
  { normal: [0, -1] },
  { normal: [0, 1e308] },
  { normal: [1e308, 1e308] },
  { normal: [0, 1e200] },
  { poisson: [1] },
  { uniform: [0, 1, 2] },
  { uniform: [] },
  { uniform: 'x' },
  {},
  null,
  { uniform: [0, 1], normal: [0, 1] },
  { uniform: ['0', 1] },
];

const TOP_VALUES: Record<string, unknown[]> = {
  robots: [0, -1, 1e9, 1e308, 2.5, '24', null, [], {}, 4294967296, 2 ** 53 + 2, NaN, Infinity, true, 100_000, 16_777_217],
  seed: [-1, 4294967296, 1.5, 1e308, 'x', NaN, null, 4294967295],
  duration: [0, -1, 1e-9, 1e308, NaN, Infinity, 'long', 5e-324, 1e5],
  dt: [0, 1e-320, -1, NaN, 1e308, 1e-7, 10, 5e-324],
  shards: [0, 100_000, 100_001, 25, 24, -1, 1.5],
  batch: [0, 1, 16_777_217, 1e308, -5, 3],
  precision: ['f16', 1, 'F64', ''],
  integrator: ['leapfrog', '', 'RK4', 'implicit', 'implicitfast'],
  sweep: ['', 'x'.repeat(100_000), '../../etc', '/abs/path', 'a/b', '..', '.', 'x\ny', 'é', '$(touch PWNED)', null, 1, [], 'x\u2028y'],
};
const INITIAL_NAMES = [
  'q:torso.qw',
  'q:nope',
  'v:torso.vy',
  'q:',
  'q:torso.z.z',
  'x'.repeat(10_000),
  'q:torso.z ',
  '__proto__',
  'constructor',
  'v:torso.wx',
];
const MODEL_NAMES = [
  'mass_scale:torso',
  'friction:ground',
  'gravity.z',
  'damping:front_left_shin',
  'armature:back_right_shin',
  'gain:front_left_hip',
  'ctrl_range:front_left_hip.low',
  'ctrl_range:front_left_hip.high',
  'com_offset:torso.x',
  'mass_scale:nope',
  'gravity.w',
  '__proto__',
  'toString',
];
const KEEP_VALUES: Record<string, unknown[]> = {
  metrics: [['nope'], [], 'fell', ['fell', 'fell'], [1]],
  traces: [
    { robots: [1e9] },
    { robots: [-1] },
    { robots: [0.5] },
    { robots: 1e308 },
    { robots: [0], every: 0 },
    { robots: [0], every: 1e308 },
    {},
  ],
  every: [0, -1, 1e308, 1e9, 0.5],
  fall_height: [NaN, 1e308, -1e308, 'low'],
  body: ['nope', '', 1, 'x'.repeat(10_000)],
  final: ['yes', 1, null],
};

/** `text` with the top-level key `key` set to `value` (YAML flow text), added when absent. */
function setTop(text: string, key: string, value: string): string {
  const re = new RegExp(`^${key}:.*$`, 'm');
  return re.test(text) ? text.replace(re, `${key}: ${value}`) : `${text.trimEnd()}\n${key}: ${value}\n`;
}

/** `text` with an entry added to (or replacing the first of) the block `randomize.SECTION`. */
function setDraw(text: string, section: 'initial' | 'model', name: string, value: string): string {
  const entry = `    ${JSON.stringify(name)}: ${value}`;
  const head = new RegExp(`^  ${section}:\\n`, 'm');
  if (head.test(text)) return text.replace(head, (h) => `${h}${entry}\n`);
  if (/^randomize:\n/m.test(text)) return text.replace(/^randomize:\n/m, `randomize:\n  ${section}:\n${entry}\n`);
  return `${text.trimEnd()}\nrandomize:\n  ${section}:\n${entry}\n`;
}

function setKeep(text: string, key: string, value: string): string {
  const re = new RegExp(`^  ${key}:.*$`, 'm');
  if (re.test(text)) return text.replace(re, `  ${key}: ${value}`);
  return /^keep:\n/m.test(text)
    ? text.replace(/^keep:\n/m, `keep:\n  ${key}: ${value}\n`)
    : `${text.trimEnd()}\nkeep:\n  ${key}: ${value}\n`;
}

function sweepValues(r: Rand, text: string): { text: string; what: string } {
  const where = pick(r, ['top', 'top', 'initial', 'model', 'model', 'keep'] as const);
  if (where === 'top') {
    const key = pick(r, Object.keys(TOP_VALUES));
    const v = pick(r, TOP_VALUES[key]);
    return { text: setTop(text, key, y(v)), what: `${key}: ${y(v).slice(0, 60)}` };
  }
  if (where === 'keep') {
    const key = pick(r, Object.keys(KEEP_VALUES));
    const v = pick(r, KEEP_VALUES[key]);
    return { text: setKeep(text, key, y(v)), what: `keep.${key}: ${y(v).slice(0, 60)}` };
  }
  const name = where === 'initial' ? (r() < 0.5 ? 'q:torso.z' : pick(r, INITIAL_NAMES)) : pick(r, MODEL_NAMES);
  const dist = r() < 0.3 ? { uniform: [0.5, 1.5] } : pick(r, DISTRIBUTIONS);
  return { text: setDraw(text, where, name, y(dist)), what: `randomize.${where}.${name.slice(0, 40)}: ${y(dist)}` };
}

function sweepYaml(r: Rand, text: string): { text: string; what: string } {
  const form = pick(r, ['alias', 'recursive', 'laughs', 'merge', 'tag', 'documents', 'deep', 'root', 'encoding']);
  if (form === 'alias')
    return { text: text.replace(/^robots: (\d+)/m, 'robots: &r $1').replace(/^seed: \d+/m, 'seed: *r'), what: 'seed an alias of robots' };
  if (form === 'recursive')
    return { text: setKeep(text.replace(/^keep:/m, 'keep: &k'), 'body', '*k'), what: 'keep.body an alias of keep itself' };
  if (form === 'laughs') {
    const defs = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++)
      defs.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const at = pick(r, ['keep.metrics', 'sweep']);
    const laughs = `x-laughs:\n${defs.map((d) => `  ${d}`).join('\n')}\n`;
    const t = at === 'sweep' ? setTop(`${laughs}${text}`, 'sweep', '*a8') : setKeep(`${laughs}${text}`, 'metrics', '*a8');
    return { text: t, what: `billion laughs at ${at}` };
  }
  if (form === 'merge')
    return { text: text.replace(/^keep:\n/m, 'x-base: &base {final: true, every: 0}\nkeep:\n  <<: *base\n'), what: 'merge key in keep' };
  if (form === 'tag') {
    const tag = pick(r, [
      'robots: !!str 24',
      'robots: !!float 24',
      'seed: !!binary aGVsbG8=',
      'scene: !!js/function "function(){}"',
      'robots: !custom 24',
      'robots: !!timestamp 2001-12-14',
    ]);
    return { text: setTop(text, tag.split(':')[0], tag.slice(tag.indexOf(':') + 2)), what: tag };
  }
  if (form === 'documents')
    return {
      text: pick(r, [`${text}\n---\nrobots: 1\n`, `---\n${text}...\n---\n`, `%YAML 1.1\n---\n${text}`, `%YAML 9.9\n---\n${text}`]),
      what: 'several documents or a directive',
    };
  if (form === 'deep') {
    const n = pick(r, [100, 10_000, 100_000]);
    return { text: setKeep(text, 'metrics', `${'['.repeat(n)}${']'.repeat(n)}`), what: `keep.metrics nested ${n} deep` };
  }
  if (form === 'root')
    return {
      text: pick(r, ['- 1\n- 2\n', 'just text\n', '""\n', '', 'null\n', '~\n', '[sweep, scene]\n']),
      what: 'a root that is no mapping',
    };
  const enc = pick(r, ['bom', 'crlf', 'tabs', 'nul', 'latin1']);
  const t =
    enc === 'bom'
      ? `\ufeff${text}`
      : enc === 'crlf'
        ? text.replace(/\n/g, '\r\n')
        : enc === 'tabs'
          ? text.replace(/^ {2}/gm, '\t')
          : enc === 'nul'
            ? text.replace('robots', 'rob\0ots')
            : text.replace('drop', 'dr\u00f6p');
  return { text: t, what: `encoding: ${enc}` };
}

/** The first line `after` changed (or dropped), cut to 80 characters: what a text mutation did. */
export function firstChange(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const i = b.findIndex((l, k) => l !== a[k]);
  if (i < 0) return b.length < a.length ? `cut after line ${b.length}` : 'unchanged';
  const l = b[i].length > 80 ? `${b[i].slice(0, 80)}… (${b[i].length} characters)` : b[i];
  return `line ${i + 1} ${JSON.stringify(l)}`;
}

/** One hostile sweep file from `text` (a bundled sweep whose scene is written as an absolute path). */
export function mutateSweep(
  seed: number,
  kind: SweepMutation,
  text: string,
  self: string,
  foreign: Foreign,
): { text: string; what: string; latin1: boolean; scene?: string } {
  const r = rng(seed);
  if (kind === 'sweep-text') {
    // the scene harness's damage: bytes, tokens, numbers, lines, long values, overflowing numbers
    const k = pick(
      r,
      SCENE_MUTATIONS.filter((m) => !m.startsWith('foreign')),
    );
    const m = mutate(text, seed, k, foreign);
    return { text: m.text, what: `${k}: ${firstChange(text, m.text)}`, latin1: m.latin1 };
  }
  if (kind === 'sweep-values') return { ...sweepValues(r, text), latin1: false };
  if (kind === 'sweep-yaml') {
    const m = sweepYaml(r, text);
    return { ...m, latin1: m.what === 'encoding: latin1' };
  }
  const scene = pick(r, [
    foreign.text,
    foreign.yaml,
    foreign.up,
    '/etc/passwd',
    '/dev/zero',
    '/dev/null',
    '/proc/self/status',
    '.',
    '',
    'no-such.arow',
    self,
    'x'.repeat(5000),
    '../../../../../../etc/shadow',
    `${foreign.text}/x.arow`,
  ]);
  const shown = scene.length > 60 ? `${scene.slice(0, 60)}… (${scene.length} characters)` : scene;
  return { text: setTop(text, 'scene', JSON.stringify(scene)), what: `scene: ${shown}`, scene, latin1: false };
}

// ---- --parameters ---------------------------------------------------------------------------------

/** Parameter names each model has (the bundled quadruped; the MJCF servos fixture has gains). */
export const PARAMETER_MODELS: { model: string; names: string[] }[] = [
  {
    model: 'scenes/quadruped.arow',
    names: [
      'mass_scale:torso',
      'com_offset:torso.y',
      'friction:ground',
      'damping:front_left_shin',
      'armature:back_right_shin',
      'ctrl_range:front_left_hip.high',
      'ctrl_range:front_left_hip.low',
      'gravity.z',
      'gravity.x',
    ],
  },
  {
    model: 'test/fixtures/import/mjcf-general-servos.xml',
    names: [
      'gain:shoulder_servo',
      'gain:elbow_servo',
      'gain:shoulder_damper',
      'mass_scale:elbow',
      'damping:wrist',
      'armature:slide',
      'ctrl_range:wrist_trim.low',
      'gravity.y',
    ],
  },
];

const VALUE_TEXT = [
  '1e308',
  '-1e308',
  '0',
  '-0',
  '-1',
  '5e-324',
  '1e-320',
  '1e21',
  '9007199254740993',
  '1e-300',
  '1e999',
  '-1e999',
  '"1"',
  'null',
  'true',
  '[]',
  '{}',
  '[1]',
  '{"x": 1}',
  '1.7976931348623157e308',
  '2',
  '0.5',
];
const NAME_TEXT = [
  'mass_scale:nope',
  '',
  '__proto__',
  'constructor',
  'toString',
  'mass_scale:',
  'mass_scale:torso.x',
  'gravity',
  'gravity.w',
  'mass_scale:torso\n',
  'friction:ground ',
  'FRICTION:ground',
  'x'.repeat(100_000),
  'q:torso.z',
  'gain:nope',
  'ctrl_range:front_left_hip',
  'ctrl_range:front_left_hip.mid',
];

/** One --parameters argument (raw JSON text, hostile or not) for a model's names. */
export function mutateParameters(seed: number, names: readonly string[]): { json: string; names: string[]; what: string } {
  const r = rng(seed);
  const form = pick(r, ['values', 'values', 'names', 'sets', 'shape']);
  const entry = (name: string, value: string): string => `${JSON.stringify(name)}: ${value}`;
  const valid = (): string[] =>
    Array.from({ length: 1 + Math.floor(r() * 3) }, () => entry(pick(r, names), pick(r, ['1', '0.9', '1.1', '0.5'])));
  if (form === 'values') {
    const es = valid();
    const name = pick(r, names);
    const v = pick(r, VALUE_TEXT);
    es.splice(Math.floor(r() * (es.length + 1)), 0, entry(name, v));
    return { json: `{${es.join(', ')}}`, names: [name], what: `${name}: ${v}` };
  }
  if (form === 'names') {
    const name = pick(r, NAME_TEXT);
    const shown = name.length > 40 ? `${JSON.stringify(name.slice(0, 40))}… (${name.length} characters)` : JSON.stringify(name);
    return { json: `{${[...valid(), entry(name, '1')].join(', ')}}`, names: [name], what: `name ${shown}` };
  }
  if (form === 'sets') {
    // an array of sets, one of them hostile; or the same name twice in one set
    const n = pick(r, [1, 2, 30]);
    const sets = Array.from({ length: n }, () => `{${valid().join(', ')}}`);
    const bad = Math.floor(r() * n);
    const name = pick(r, names);
    const v = pick(r, VALUE_TEXT);
    sets[bad] = r() < 0.5 ? `{${entry(name, v)}}` : `{${entry(name, '1')}, ${entry(name, v)}}`;
    return { json: `[${sets.join(', ')}]`, names: [name], what: `${n} sets, set ${bad}: ${name}: ${v}` };
  }
  const text = pick(r, [
    '[]',
    '[[]]',
    '[{}]',
    '[1]',
    'null',
    '"str"',
    '1',
    '{',
    '',
    ' ',
    '\ufeff{}',
    '[{"gravity.z": 1}',
    '{"a": 1,}',
    `${'['.repeat(60_000)}${']'.repeat(60_000)}`,
    `[[${'1,'.repeat(50_000)}1]]`,
    `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
    '{"__proto__": {"gravity.z": 1}}',
    'NaN',
    '{"gravity.z": NaN}',
    '{"gravity.z": 0x10}',
  ]);
  return {
    json: text,
    names: [],
    what: `JSON ${JSON.stringify(text.slice(0, 40))}${text.length > 40 ? ` (${text.length} characters)` : ''}`,
  };
}

// ---- emitted jobs ----------------------------------------------------------------------------------

/** Every character bash, sbatch or a YAML reader takes specially, the words sbatch blanks, control
 *  characters, long runs. None holds `/` or NUL (they make file names too). */
export const NASTY = [
  '$(touch PWNED)',
  '`touch PWNED`',
  "'",
  '"',
  '\\',
  ';touch PWNED;',
  '#',
  '&',
  '|',
  '>',
  '<',
  '*',
  '?',
  '~',
  '!',
  '{a,b}',
  '[x]',
  '$HOME',
  '${IFS}',
  '%j',
  '%%',
  ' ',
  '-rf',
  '--yes',
  '\n',
  '\r',
  '\t',
  '\u2028',
  '\u0085',
  '\x1b[2J',
  'packjob',
  'HetJob',
  ': ',
  '- ',
  '---',
  '...',
  '&a',
  '*a',
  '!!str',
  '%YAML',
  '{',
  '}',
  ',',
  '@',
  '=',
  'é',
  '☃',
  '\u200b',
  'x'.repeat(200),
];

function nasty(r: Rand, parts = 1 + Math.floor(r() * 3)): string {
  let s = '';
  for (let i = 0; i < parts; i++) s += (r() < 0.4 ? 'a' : '') + pick(r, NASTY);
  return s;
}

export interface EmitCase {
  kind: 'slurm' | 'k8s';
  /** The sweep's name (written into the YAML, quoted). */
  name: string;
  /** Directory components under the case folder for the sweep file, its file name, and the
   *  directory the command runs in (relative to the case folder; '' is the folder itself). */
  fileDir: string;
  fileName: string;
  cwdDir: string;
  /** The sweep file as given on the command line: relative to the cwd, or absolute. */
  absolute: boolean;
  /** --out (undefined: the default reports/sweep/NAME), --shards (undefined: the file's), --threads. */
  out?: string;
  shards?: string;
  fileShards?: number;
  threads?: string;
  image?: string;
  pvc?: string;
  yes: boolean;
  what: string;
}

const IMAGES = [
  'registry.example/achilles:0.1.0',
  'img',
  `localhost:5000/a/b_c@sha256:${'0'.repeat(64)}`,
  'Bad Image',
  'img:1\nkind: Pod',
  "img'$(touch PWNED)",
  '',
  'a'.repeat(300),
  'img:tag#x',
  '-img',
];
const CLAIMS = ['sweeps', 'a.b-c', 'Claim', 'c\nkind: Pod', '', 'a'.repeat(254), "c'; touch PWNED", 'c #x'];

/** One hostile `achilles sweep FILE --emit KIND ...`. */
export function mutateEmit(seed: number, kind: 'slurm' | 'k8s'): EmitCase {
  const r = rng(seed);
  // each hostile part only sometimes, so a case often gets through to the job
  const maybe = (p: number, f: () => string, otherwise: string): string => (r() < p ? f() : otherwise);
  const component = (prefix: string): string => `${prefix}${nasty(r)}`.slice(0, 200).replace(/\//g, '_');
  const name = maybe(0.6, () => nasty(r), 'drop');
  const fileDir = maybe(0.4, () => component('d'), 'sweeps');
  const fileName = `${maybe(0.6, () => component('s'), 'sweep')}.yaml`;
  const cwdDir = maybe(0.4, () => component('cwd'), '');
  const absolute = kind === 'slurm' && r() < 0.5;
  const out = r() < 0.2 ? undefined : maybe(0.6, () => `${nasty(r)}${r() < 0.3 ? `/${nasty(r)}` : ''}`, 'results');
  const fileShards = pick(r, [3, 3, 1, 24]);
  const shards = r() < 0.6 ? undefined : pick(r, ['1', '2', '24', '25', '100000', '0', '-1', '1e3', '0x10', ' 2', '2abc']);
  const threads = r() < 0.7 ? undefined : pick(r, ['1', '2', '256', '257', '0', 'x']);
  const image = kind === 'k8s' ? (r() < 0.6 ? IMAGES[0] : pick(r, IMAGES)) : undefined;
  const pvc = kind === 'k8s' ? (r() < 0.6 ? CLAIMS[0] : pick(r, CLAIMS)) : undefined;
  const yes = r() < 0.2;
  const c: EmitCase = { kind, name, fileDir, fileName, cwdDir, absolute, out, shards, fileShards, threads, image, pvc, yes, what: '' };
  c.what = JSON.stringify({ name, fileDir, fileName, cwdDir, out, shards, threads, image, pvc }).slice(0, 300);
  return c;
}
