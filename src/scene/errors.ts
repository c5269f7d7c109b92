// Scene errors: every problem in a scene file is reported as FILE:LINE:COL plus what was found and
// what was expected, so a user can jump straight to the offending node.

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
    const hint = init.hint ? ` (${init.hint})` : '';
    super(`${init.file}:${init.line}:${init.column}: ${init.subject}: found ${init.found}, expected ${init.expected}${hint}`);
    this.name = 'SceneError';
    this.file = init.file;
    this.line = init.line;
    this.column = init.column;
    this.subject = init.subject;
    this.found = init.found;
    this.expected = init.expected;
    if (init.hint !== undefined) this.hint = init.hint;
  }
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

/** A user's text inside a message: control characters escaped, long text cut to `max` characters
 *  (a 90 KB string or key must not become a 90 KB message). */
export function quote(s: string, max = 60, mark = '"'): string {
  // eslint-disable-next-line no-control-regex
  const esc = (t: string): string => t.replace(/[\x00-\x1f\x7f]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`));
  const chars = [...s];
  const cut = chars.length > max ? `${esc(chars.slice(0, max).join(''))}…` : esc(s);
  const more = chars.length > max ? ` (${chars.length} characters)` : '';
  return `${mark}${cut}${mark}${more}`;
}
