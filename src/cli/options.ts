// Turns the raw strings commander collected into typed values, checked against each option's
// kind. All checking happens here (not in commander argParsers) so every bad value gets the same
// shape of message: `--flag: 'value' <what is wrong> (<what is allowed>)`.

import { closest } from '../model-files/common/errors.js';
import type { OptionKind, OptionSpec, ParsedOptions } from '../util/command-spec.js';
import { UsageError } from '../util/usage-error.js';

/** Raw values: a string per valued flag, string[] for repeatable flags, true for booleans. */
export type RawOptions = Record<string, string | string[] | boolean | undefined>;

// Plain decimal or exponent notation only: Number() would also accept '', '0x10', 'Infinity', ' 1 '.
const NUMBER_RE = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** What values a numeric kind allows, in words: "an integer from 1 to 64", "a number >= 0". */
export function rangeText(kind: { min?: number; max?: number; integer?: boolean }): string {
  const what = kind.integer ? 'an integer' : 'a number';
  if (kind.min !== undefined && kind.max !== undefined) return `${what} from ${kind.min} to ${kind.max}`;
  if (kind.min !== undefined) return `${what} >= ${kind.min}`;
  if (kind.max !== undefined) return `${what} <= ${kind.max}`;
  return what;
}

function parseNumber(flag: string, text: string, kind: { min?: number; max?: number; integer?: boolean }): number {
  const t = text.trim();
  if (!NUMBER_RE.test(t)) throw new UsageError(`${flag}: '${text}' is not a number (expected ${rangeText(kind)})`);
  const x = Number(t);
  if (!Number.isFinite(x)) throw new UsageError(`${flag}: '${text}' is too large (expected ${rangeText(kind)})`);
  if (kind.integer && !Number.isInteger(x)) throw new UsageError(`${flag}: '${text}' is not an integer (expected ${rangeText(kind)})`);
  if ((kind.min !== undefined && x < kind.min) || (kind.max !== undefined && x > kind.max)) {
    throw new UsageError(`${flag}: ${text} is out of range (expected ${rangeText(kind)})`);
  }
  return x;
}

function parseChoice(flag: string, text: string, choices: readonly string[]): string {
  if (choices.includes(text)) return text;
  // A near miss among words ('rk5' → rk4); among numbers the list itself is the answer ('2' is not "1").
  const numeric = (x: string) => NUMBER_RE.test(x);
  const guess = numeric(text) && choices.every(numeric) ? undefined : closest(text, choices);
  const hint = guess === undefined ? '' : ` (did you mean ${guess}?)`;
  throw new UsageError(`${flag}: '${text}' is not one of ${choices.join(', ')}${hint}`);
}

function splitList(flag: string, text: string): string[] {
  const items = text.split(',').map((s) => s.trim());
  if (items.some((s) => s === ''))
    throw new UsageError(`${flag}: '${text}' has an empty item (expected a comma-separated list, e.g. 1,2,3)`);
  return items;
}

function parseOne(flag: string, kind: OptionKind, raw: string | string[] | boolean): ParsedOptions[string] {
  switch (kind.type) {
    case 'boolean':
      return raw === true;
    case 'string':
      return String(raw);
    case 'list-string':
      return Array.isArray(raw) ? raw : [String(raw)];
    case 'number':
      return parseNumber(flag, String(raw), kind);
    case 'choice':
      return parseChoice(flag, String(raw), kind.choices);
    case 'list-number':
      return splitList(flag, String(raw)).map((s) => parseNumber(flag, s, kind));
    case 'list-choice':
      return splitList(flag, String(raw)).map((s) => parseChoice(flag, s, kind.choices));
  }
}

/** Check and convert every option that was given; options not given stay undefined (the command applies defaults). */
export function parseOptionValues(options: readonly OptionSpec[], raw: RawOptions): ParsedOptions {
  const out: ParsedOptions = {};
  for (const o of options) {
    const v = raw[o.name];
    if (v === undefined) continue;
    out[o.name] = parseOne(`--${o.name}`, o.kind, v);
  }
  return out;
}

/** The allowed values of an option, for help and docs ('' when free-form). */
export function allowedText(kind: OptionKind): string {
  switch (kind.type) {
    case 'choice':
      return kind.choices.join(' | ');
    case 'list-choice':
      return `comma-separated: ${kind.choices.join(', ')}`;
    case 'number':
      return rangeText(kind);
    case 'list-number':
      return `comma-separated, each ${rangeText(kind)}`;
    case 'list-string':
      return 'repeatable';
    default:
      return '';
  }
}

/** The default as shown in help and docs ('' when none). */
export function defaultText(o: OptionSpec): string {
  if (o.defaultText !== undefined) return o.defaultText;
  if (o.default === undefined) return '';
  return Array.isArray(o.default) ? o.default.join(',') : String(o.default);
}
