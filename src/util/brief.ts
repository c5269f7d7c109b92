// A value named in an error, cut to a length a person reads: a hostile input may hold a name or a
// string of 100,000 characters, and an error that echoes it whole buries what went wrong.

/** At most this many characters of a value in a message. */
export const BRIEF_MAX = 80;

/** `s` whole when short, else its first characters, an ellipsis and how long it was. */
export function brief(s: string, max = BRIEF_MAX): string {
  return s.length <= max ? s : `${s.slice(0, max)}… (${s.length} characters)`;
}

/** A JSON value as a message names it: a short scalar as JSON, a long one cut, an array or object by
 *  its size (never serialized whole: a deeply nested one would overflow the call stack). */
export function briefJson(v: unknown): string {
  if (Array.isArray(v)) return `an array of ${v.length} item${v.length === 1 ? '' : 's'}`;
  if (v !== null && typeof v === 'object') return `an object of ${Object.keys(v).length} key${Object.keys(v).length === 1 ? '' : 's'}`;
  return brief(JSON.stringify(v) ?? String(v));
}
