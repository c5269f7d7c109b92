// Seeded mutations of scene text for the fuzz harness (test/fuzz.test.ts). Each mutation is one
// kind of damage a real file suffers or a hostile one carries: flipped bytes, swapped tokens,
// perturbed or absurd numbers, deleted keys, duplicated or truncated lines; includes of files that
// must not be printed, 100,000-character values, numbers whose energies or readings overflow
// (issue 23); and for MJCF/URDF models flipped bytes, absurd numbers, unknown attributes and
// elements nested thousands deep.

/** mulberry32: a small seeded PRNG, so a case is reproduced from its seed alone. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const NUMBER = /-?\d+(\.\d+)?([eE][-+]?\d+)?/g;
const HUGE = [
  '1e308',
  '-1e308',
  '1e21',
  '1e-320',
  '-0',
  '.nan',
  '.inf',
  '-.inf',
  '4294967297',
  '9007199254740993',
  '1e6',
  '0',
  '-1',
  '2.5',
];

function bytes(r: Rand, text: string): string {
  const b = Buffer.from(text, 'utf8');
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const k = Math.floor(r() * b.length);
    b[k] =
      r() < 0.5
        ? b[k] ^ (1 << Math.floor(r() * 8))
        : pick(r, [0x00, 0x5b, 0x5d, 0x7b, 0x7d, 0x3a, 0x2d, 0x20, 0x0a, 0x09, 0x26, 0x2a, 0x21, 0x22]);
  }
  return b.toString('latin1'); // written back byte for byte
}

function tokens(r: Rand, text: string): string {
  const t = text.split(/(\s+)/);
  const words = t.map((w, i) => (/\S/.test(w) ? i : -1)).filter((i) => i >= 0);
  const i = pick(r, words);
  const j = pick(r, words);
  [t[i], t[j]] = [t[j], t[i]];
  return t.join('');
}

function numbers(r: Rand, text: string, absurd: boolean): string {
  const all = [...text.matchAll(NUMBER)];
  if (all.length === 0) return text;
  const m = pick(r, all);
  const x = Number(m[0]);
  const repl = absurd ? pick(r, HUGE) : String(pick(r, [x * -1, x * 1000, x / 1000, x + 1, 0, x * (1 + 1e-9)]));
  const at = m.index ?? 0;
  return text.slice(0, at) + repl + text.slice(at + m[0].length);
}

function lines(r: Rand, text: string): string {
  const ls = text.split('\n');
  const keyLines = ls.map((l, i) => (/^\s*-?\s*[A-Za-z_]+:/.test(l) ? i : -1)).filter((i) => i >= 0);
  const i = pick(r, keyLines.length ? keyLines : [0]);
  const op = Math.floor(r() * 4);
  if (op === 0)
    ls.splice(i, 1); // key deletion
  else if (op === 1)
    ls.splice(i, 0, ls[i]); // duplicated key
  else if (op === 2)
    ls[i] = ls[i].replace(/^(\s*)/, (s) => (s.length > 0 ? s.slice(1) : ' ')); // indentation
  else return ls.slice(0, i).join('\n'); // truncated file
  return ls.join('\n');
}

/** Files a case may point at that it must never print (issue 23): every one holds CANARY, or is
 *  /etc/passwd (whose `root:x:0:0` is the tell). Written by the harness (fuzz.test.ts). */
export const CANARY = 'FUZZ-CANARY-7f3a';
export const LEAK = /FUZZ-CANARY-7f3a|root:x:0:0/;
export interface Foreign {
  /** A text file and a YAML mapping holding CANARY, absolute paths. */
  text: string;
  yaml: string;
  /** The same text file reached through `..` from the case's directory. */
  up: string;
}

/** An `includes:` (raw scenes) naming a file that is no archetype: another file's text, a device,
 *  a directory, /etc/passwd, by absolute or `../` path. */
function foreignInclude(r: Rand, text: string, f: Foreign): string {
  const target = pick(r, [f.text, f.yaml, f.up, '/etc/passwd', '/dev/zero', '/proc/self/status', '.', '..', `${f.text}/x`]);
  const line = `includes: [${JSON.stringify(target)}]`;
  return /^includes:.*$/m.test(text) ? text.replace(/^includes:.*$/m, line) : `${line}\n${text}`;
}

/** A value 100,000 characters long (a name, a kind, a number's place), as one word or spaced. */
function longValue(r: Rand, text: string): string {
  const values = [...text.matchAll(/: ([^\s,{}[\]#][^,{}[\]#\n]*)/g)];
  if (values.length === 0) return text;
  const m = pick(r, values);
  const long = r() < 0.5 ? 'v'.repeat(100_000) : 'w '.repeat(50_000).trim();
  const at = (m.index ?? 0) + 2;
  return text.slice(0, at) + long + text.slice(at + m[1].length);
}

/** Numbers that stay finite but overflow what is computed from them: energies (z = 1e308),
 *  sensor readings (noise 1e308), forces, inertias. Several at once. */
function overflow(r: Rand, text: string): string {
  let t = text;
  const n = 1 + Math.floor(r() * 3);
  for (let k = 0; k < n; k++) {
    const all = [...t.matchAll(NUMBER)];
    if (all.length === 0) break;
    const m = pick(r, all);
    const at = m.index ?? 0;
    t = t.slice(0, at) + pick(r, ['1e308', '-1e308', '1.7976931348623157e308', '1e300', '3e154', '1e200']) + t.slice(at + m[0].length);
  }
  return t;
}

/** MJCF/URDF: an attribute no schema has, with a plausible or absurd value, in a random element. */
function xmlAttribute(r: Rand, text: string): string {
  const tags = [...text.matchAll(/<([A-Za-z_][\w.-]*)/g)];
  if (tags.length === 0) return text;
  const m = pick(r, tags);
  const at = (m.index ?? 0) + m[0].length;
  const attr = ` ${pick(r, ['fuzz', 'frobnicate', 'pos2', 'mass_', 'xmlns:x', 'class'])}="${pick(r, ['1', 'abc', '1e308', 'nan', '', '0 0 0 0 0 0 0 0'])}"`;
  return text.slice(0, at) + attr + text.slice(at);
}

/** MJCF/URDF: elements nested thousands deep right inside the root (a recursive reader must not
 *  overflow its stack), as the model's own element kind or an unknown one. */
function xmlNesting(r: Rand, text: string): string {
  const root = /<(mujoco|robot)\b[^>]*>/.exec(text);
  if (!root) return text;
  const depth = pick(r, [200, 5_000, 50_000]);
  const tag = root[1] === 'mujoco' ? pick(r, ['body', 'default', 'fuzz']) : pick(r, ['link', 'fuzz']);
  const open = tag === 'link' ? '<link name="n">' : `<${tag}>`;
  const at = root.index + root[0].length;
  return text.slice(0, at) + open.repeat(depth) + `</${tag}>`.repeat(depth) + text.slice(at);
}

/** Mutations of `.arow` scenes; `foreign-include` needs a raw scene (includes); `foreign-config`
 *  leaves the scene as it is: the harness gives the case a --config (another file, a long value). */
export const SCENE_MUTATIONS = [
  'bytes',
  'tokens',
  'numbers',
  'huge-numbers',
  'lines',
  'foreign-include',
  'long-value',
  'overflow',
  'foreign-config',
] as const;
/** Mutations of MJCF/URDF files (test/fixtures/import/). */
export const XML_MUTATIONS = ['xml-bytes', 'xml-numbers', 'xml-attribute', 'xml-nesting'] as const;
export const MUTATIONS = [...SCENE_MUTATIONS, ...XML_MUTATIONS] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** One mutated text, with the kind of mutation, reproducible from (text, seed, kind). Without a
 *  kind, one of the scene mutations by seed (the original harness's choice). */
export function mutate(
  text: string,
  seed: number,
  kind: Mutation = SCENE_MUTATIONS[seed % 5],
  foreign?: Foreign,
): { text: string; kind: Mutation; latin1: boolean } {
  const r = rng(seed);
  const rounds = 1 + Math.floor(r() * 2);
  let t = text;
  if (kind === 'foreign-include') {
    if (!foreign) throw new Error('foreign-include needs the foreign files');
    return { text: foreignInclude(r, t, foreign), kind, latin1: false };
  }
  if (kind === 'foreign-config') return { text: t, kind, latin1: false };
  if (kind === 'long-value') return { text: longValue(r, t), kind, latin1: false };
  if (kind === 'overflow') return { text: overflow(r, t), kind, latin1: false };
  if (kind === 'xml-attribute') return { text: xmlAttribute(r, t), kind, latin1: false };
  if (kind === 'xml-nesting') return { text: xmlNesting(r, t), kind, latin1: false };
  for (let k = 0; k < rounds; k++) {
    if (kind === 'bytes' || kind === 'xml-bytes') return { text: bytes(r, t), kind, latin1: true };
    if (kind === 'tokens') t = tokens(r, t);
    else if (kind === 'numbers') t = numbers(r, t, false);
    else if (kind === 'huge-numbers' || kind === 'xml-numbers') t = numbers(r, t, true);
    else t = lines(r, t);
  }
  return { text: t, kind, latin1: false };
}
