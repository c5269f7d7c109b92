// Text that lands on one line of something another program reads: a comment or a directive of a
// Slurm script, a comment of a Kubernetes manifest, a `# key: value` line of a CSV header. A
// newline there ends the line, and what follows it is read as the script's commands or the
// manifest's objects; a carriage return ends a YAML line, and other control characters (escape
// sequences) rewrite what a terminal shows. So such values are refused where they are given (the
// sweep file's `sweep:` name at its line, a flag by its name), and what reaches a comment anyway
// is escaped (commentText).

/** C0 and C1 control characters (newline, carriage return, tab, escape, NEL, ...) and the Unicode
 *  line and paragraph separators, which some readers take as line ends too. */
const NOT_ON_ONE_LINE = /[\p{Cc}\u2028\u2029]/u;
const NOT_ON_ONE_LINE_ALL = new RegExp(NOT_ON_ONE_LINE.source, 'gu');

const NAMED: Record<string, string> = { '\n': 'a newline (\\n)', '\r': 'a carriage return (\\r)', '\t': 'a tab (\\t)' };

/** The character as it is escaped in a comment: \n, \r, \t, else \uXXXX. */
function escaped(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`;
}

/** The first character of `s` that cannot stand on one line, in words, and its 1-based position;
 *  undefined when there is none. */
export function controlCharacter(s: string): { what: string; at: number } | undefined {
  const m = NOT_ON_ONE_LINE.exec(s);
  if (!m) return undefined;
  const c = m[0];
  return { what: NAMED[c] ?? `the control character ${escaped(c).replace('\\u', 'U+').toUpperCase()}`, at: m.index + 1 };
}

/** `s` for a comment line: every character that would end or garble the line written as an escape
 *  (\n, \r, \t, \uXXXX), so the comment stays one line whatever it shows. */
export function commentText(s: string): string {
  return s.replace(NOT_ON_ONE_LINE_ALL, escaped);
}
