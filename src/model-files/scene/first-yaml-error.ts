// One YAML document from scene text, stopping at the FIRST error.
//
// yaml's parseDocument collects every error and, with prettyErrors, copies the offending line into
// each message: a 96 KB one-line file of `]` has 96,000 errors × a 96,000-character line, which
// took 40 s. Here the CST tokens are composed one at a time, composition throws on its first
// error, and only that one is located (one pass over the text). Also in our own words: a second
// document, `!!float 1` (the YAML 1.2 core schema's float, which yaml leaves unresolved), unknown
// tags, and aliases, which scene files refuse.

import { Composer, Parser, isAlias, visit, type Document, type LineCounter, type ScalarTag, type Tags } from 'yaml';
import { quote } from '../common/errors.js';

export interface FirstYamlError {
  /** Character offset of the problem in the text. */
  offset: number;
  found: string;
  /** `found` in words that quote nothing from the text (no token, tag or yaml message, which may
   *  quote it), where `found` does: an include or a --config is reported with this one, so an
   *  error never prints another file's content. */
  plain?: string;
  expected: string;
  hint?: string;
}

class Stop {
  constructor(readonly error: FirstYamlError) {}
}

/** YAML 1.2 core schema (§10.3.2): what an explicit `!!float` / `!!int` accepts. */
const CORE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const CORE_INF = /^[-+]?\.(inf|Inf|INF)$/;
const CORE_NAN = /^\.(nan|NaN|NAN)$/;
const CORE_INT = /^([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;

const explicitFloat: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  resolve(s, onError) {
    if (CORE_FLOAT.test(s)) return Number(s);
    if (CORE_INF.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
    if (CORE_NAN.test(s)) return NaN;
    onError(`${quote(s, 40, '`')} tagged \`!!float\`, which is not a number`);
    return s;
  },
};

const explicitInt: ScalarTag = {
  tag: 'tag:yaml.org,2002:int',
  resolve(s, onError) {
    if (CORE_INT.test(s)) return s.startsWith('0o') ? parseInt(s.slice(2), 8) : Number(s);
    onError(`${quote(s, 40, '`')} tagged \`!!int\`, which is not an integer`);
    return s;
  },
};

/** Options shared by every scene-file parse. */
export const YAML_OPTIONS = { uniqueKeys: true, customTags: (tags: Tags): Tags => [...tags, explicitFloat, explicitInt] };

type OnError = (source: unknown, code: string, message: string, warning?: boolean) => void;

/** Offset of an error source as yaml's Composer reports it (offset, range, or token). */
function offsetOf(source: unknown): number {
  if (typeof source === 'number') return Math.max(0, source);
  if (Array.isArray(source)) return Math.max(0, source[0] as number);
  const off = (source as { offset?: number } | undefined)?.offset;
  return typeof off === 'number' ? off : 0;
}

/** yaml's message for an error code, in our words where theirs would mislead. */
function inOurWords(code: string, message: string): Omit<FirstYamlError, 'offset'> {
  switch (code) {
    case 'RESOURCE_EXHAUSTION':
      return { found: 'collections nested too deeply to read', expected: 'a scene nested a few levels deep' };
    case 'TAG_RESOLVE_FAILED': {
      const unknown = /^Unresolved tag: (.*)$/.exec(message);
      if (unknown)
        return {
          found: `the unknown tag ${quote(unknown[1], 40, '`')}`,
          plain: 'an unknown tag',
          expected: 'no tag (or one of `!!str`, `!!int`, `!!float`, `!!bool`, `!!null`)',
        };
      return { found: message, plain: 'a value its tag does not allow', expected: 'a value its tag allows' };
    }
    case 'BAD_ALIAS':
      return { found: `an alias: ${message}`, plain: 'an alias', expected: 'no aliases', hint: ALIAS_HINT };
    default:
      return { found: quote(message, 200, ''), plain: 'text that is not valid YAML', expected: 'valid YAML', hint: code };
  }
}

const ALIAS_HINT =
  'scene files do not support YAML anchors and aliases: every value has one place an error can point at, and reuse cannot multiply work; write the value out, or in a raw scene repeat an archetype with `copies`/`includes`';

/** Composes `text` as exactly one document, or returns its first error. */
export function composeSingleDocument(text: string, lc: LineCounter): { doc: Document } | { error: FirstYamlError } {
  const composer = new Composer(YAML_OPTIONS);
  // Every composition error and warning arrives here: stop at the first error. Unresolved tags
  // are warnings to yaml (the value silently becomes a string), errors to us.
  // yaml catches what a collection's composition throws and reports it again (as a stack
  // overflow): the first Stop is kept and rethrown, so the first error stays the one reported.
  let first: Stop | undefined;
  (composer as unknown as { onError: OnError }).onError = (source, code, message, warning) => {
    if (first) throw first;
    if (warning && code !== 'TAG_RESOLVE_FAILED') return;
    first = new Stop({ offset: offsetOf(source), ...inOurWords(code, message) });
    throw first;
  };
  let doc: Document | undefined;
  const take = (d: Document): void => {
    if (doc)
      throw new Stop({
        offset: d.range?.[0] ?? 0,
        found: 'a second YAML document',
        expected: 'one document per file',
        hint: 'a scene file holds one scene; remove the `---` line or split the file',
      });
    if (d.errors.length > 0) {
      const e = d.errors[0];
      throw new Stop({ offset: e.pos[0], ...inOurWords(e.code, e.message) });
    }
    doc = d;
  };
  try {
    for (const token of new Parser(lc.addNewLine).parse(text)) {
      if (token.type === 'error') {
        const src = token.source ? `: ${quote(token.source, 40)}` : '';
        throw new Stop({
          offset: token.offset,
          found: `${token.message}${src}`,
          plain: 'text that is not valid YAML',
          expected: 'valid YAML',
          hint: 'UNEXPECTED_TOKEN',
        });
      }
      for (const d of composer.next(token)) take(d as Document);
    }
    for (const d of composer.end(true, text.length)) take(d as Document);
  } catch (e) {
    if (e instanceof Stop) return { error: e.error };
    if (e instanceof RangeError) return { error: { offset: 0, ...inOurWords('RESOURCE_EXHAUSTION', e.message) } };
    throw e;
  }
  const d = doc as unknown as Document;
  const alias = firstAlias(d);
  if (alias)
    return {
      error: {
        offset: alias.offset,
        found: `the alias \`*${alias.source}\``,
        plain: 'an alias',
        expected: 'the value written out',
        hint: ALIAS_HINT,
      },
    };
  return { doc: d };
}

function firstAlias(doc: Document): { offset: number; source: string } | undefined {
  let found: { offset: number; source: string } | undefined;
  visit(doc, {
    Alias(_, node) {
      if (isAlias(node)) found = { offset: node.range?.[0] ?? 0, source: node.source };
      return visit.BREAK;
    },
  });
  return found;
}
