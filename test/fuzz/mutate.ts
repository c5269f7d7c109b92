// Seeded mutations of scene text for the fuzz harness (test/fuzz.test.ts). Each mutation is one
// kind of damage a real file suffers or a hostile one carries: flipped bytes, swapped tokens,
// perturbed or absurd numbers, deleted keys, duplicated or truncated lines.

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
const HUGE = ['1e308', '-1e308', '1e21', '1e-320', '-0', '.nan', '.inf', '-.inf', '4294967297', '9007199254740993', '1e6', '0', '-1', '2.5'];

function bytes(r: Rand, text: string): string {
  const b = Buffer.from(text, 'utf8');
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const k = Math.floor(r() * b.length);
    b[k] = r() < 0.5 ? b[k] ^ (1 << Math.floor(r() * 8)) : pick(r, [0x00, 0x5b, 0x5d, 0x7b, 0x7d, 0x3a, 0x2d, 0x20, 0x0a, 0x09, 0x26, 0x2a, 0x21, 0x22]);
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
  if (op === 0) ls.splice(i, 1); // key deletion
  else if (op === 1) ls.splice(i, 0, ls[i]); // duplicated key
  else if (op === 2) ls[i] = ls[i].replace(/^(\s*)/, (s) => (s.length > 0 ? s.slice(1) : ' ')); // indentation
  else return ls.slice(0, i).join('\n'); // truncated file
  return ls.join('\n');
}

export const MUTATIONS = ['bytes', 'tokens', 'numbers', 'huge-numbers', 'lines'] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** One mutated text, with the kind of mutation, reproducible from (text, seed). */
export function mutate(text: string, seed: number): { text: string; kind: Mutation; latin1: boolean } {
  const r = rng(seed);
  const kind = MUTATIONS[seed % MUTATIONS.length];
  const rounds = 1 + Math.floor(r() * 2);
  let t = text;
  for (let k = 0; k < rounds; k++) {
    if (kind === 'bytes') return { text: bytes(r, t), kind, latin1: true };
    if (kind === 'tokens') t = tokens(r, t);
    else if (kind === 'numbers') t = numbers(r, t, false);
    else if (kind === 'huge-numbers') t = numbers(r, t, true);
    else t = lines(r, t);
  }
  return { text: t, kind, latin1: false };
}
