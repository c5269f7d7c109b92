// Scene errors: every problem in a scene file is reported as FILE:LINE:COL plus what was found and
// what was expected, so a user can jump straight to the offending node. Every reader of a model
// file (.arow, MJCF, URDF) and of a file a scene points at reports through it, hence files/.

export interface SceneErrorInit {
  file: string;
  line: number;
  column: number;
  /** Where in the document, e.g. `links[1] (elbow).joint.axis`. */
  subject: string;
  found: string;
  expected: string;
  hint?: string;
}

export class SceneError extends Error {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly subject: string;
  readonly found: string;
  readonly expected: string;
  readonly hint?: string;

  constructor(init: SceneErrorInit) {
    // Every part is bounded, whoever built it: a 100,000-character name or value (or a list of
    // 18,000 link names) must not become a 100,000-character line.
    const subject = boundedText(init.subject);
    const found = boundedText(init.found);
    const expected = boundedText(init.expected);
    const hintText = init.hint === undefined ? undefined : boundedText(init.hint);
    const hint = hintText ? ` (${hintText})` : '';
    super(`${printable(init.file)}:${init.line}:${init.column}: ${subject}: found ${found}, expected ${expected}${hint}`);
    this.name = 'SceneError';
    this.file = init.file;
    this.line = init.line;
    this.column = init.column;
    this.subject = subject;
    this.found = found;
    this.expected = expected;
    if (hintText !== undefined) this.hint = hintText;
  }
}

/** Longest run of non-blank characters a message part shows whole, and longest part. */
export const MAX_WORD = 80;
export const MAX_PART = 400;
const LONG_WORD = new RegExp(`\\S{${MAX_WORD + 1},}`, 'gu');

/** `s` with every run of more than MAX_WORD non-blank characters (a long name or value) cut to
 *  MAX_WORD + "… (N characters)", and the whole cut to MAX_PART the same way. */
export function boundedText(s: string): string {
  if (s.length <= MAX_WORD) return s;
  const words = s.replace(LONG_WORD, (w) => cut(w, MAX_WORD));
  return [...words].length > MAX_PART ? cut(words, MAX_PART) : words;
}

/** The first `max` characters (code points, so no half surrogate pair) + "… (N characters)". */
function cut(s: string, max: number): string {
  const chars = [...s];
  return chars.length > max ? `${chars.slice(0, max).join('')}… (${chars.length} characters)` : s;
}

/** Levenshtein distance (small strings only: key names). */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The closest candidate if it is plausibly a typo (distance <= max(2, len/3)), for "did you mean". */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const c = closest(word, candidates);
  return c === undefined ? undefined : `did you mean \`${c}\`?`;
}

/** `t` with its control characters escaped (\\n, \\t, \\x1b): a path or value with a newline or a
 *  terminal escape in it must not break the message's one line or drive the user's terminal. */
export function printable(t: string): string {
  // eslint-disable-next-line no-control-regex
  return t.replace(/[\x00-\x1f\x7f]/g, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

/** A user's text inside a message: control characters escaped, long text cut to `max` characters
 *  (a 90 KB string or key must not become a 90 KB message). */
export function quote(s: string, max = 60, mark = '"'): string {
  const esc = printable;
  const chars = [...s];
  const cut = chars.length > max ? `${esc(chars.slice(0, max).join(''))}…` : esc(s);
  const more = chars.length > max ? ` (${chars.length} characters)` : '';
  return `${mark}${cut}${mark}${more}`;
}
