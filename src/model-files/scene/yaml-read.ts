// Positioned, strict reading of YAML nodes. Every reader takes the node and a human path
// (`links[0] (upper).mass`) and throws a SceneError pointing at that node on any mismatch.

import { limitText, withinLimit, type NumberLimit } from '../../engine/world-limits.js';
import { LineCounter, isMap, isScalar, isSeq, type Document, type Node } from 'yaml';
import { SceneError, closest, didYouMean, quote } from '../common/errors.js';
import { composeSingleDocument } from './first-yaml-error.js';
import { lineCol, readBoundedText } from '../common/text-file.js';

export type YNode = Node | null | undefined;

export class Ctx {
  constructor(
    readonly file: string,
    readonly lc: LineCounter,
  ) {}

  /** 1-based line/column of a node (its start), or 1:1 when the node has no position. */
  pos(node: YNode): { line: number; column: number } {
    const off = node?.range?.[0];
    if (off === undefined) return { line: 1, column: 1 };
    const p = this.lc.linePos(off);
    return { line: p.line, column: p.col };
  }

  /** The error at a node; `throw ctx.error(...)` where TypeScript must see the narrowing. */
  error(node: YNode, subject: string, found: string, expected: string, hint?: string): SceneError {
    const { line, column } = this.pos(node);
    return new SceneError({ file: this.file, line, column, subject, found, expected, hint });
  }

  fail(node: YNode, subject: string, found: string, expected: string, hint?: string): never {
    throw this.error(node, subject, found, expected, hint);
  }
}

export interface ParsedFile {
  ctx: Ctx;
  doc: Document;
  root: YNode;
  /** Called as links are read (done of total), for a progress bar on large scenes. */
  onLink?: (done: number, total: number) => void;
}

/** Where an error in an included file is reported: at the `includes` entry naming it. */
export interface IncludedFrom {
  ctx: Ctx;
  node: YNode;
  subject: string;
}

/** How a file is read: the scene itself (errors may quote its text), or a file it only names (an
 *  include, a --config: `foreign`), whose errors never quote its text, since it may be any file. */
export interface ReadAs {
  foreign?: boolean;
}

/** Reads a scene, include or config file (bounded, text: see src/model-files/common/text-file.ts) and parses it as one
 *  YAML document. The first problem becomes a SceneError at its line and column. An include is
 *  read as a foreign file. */
export function parseYamlFile(file: string, from?: IncludedFrom, as: ReadAs = {}): ParsedFile {
  const r = readBoundedText(file);
  if ('problem' in r) {
    const p = r.problem;
    if (from) from.ctx.fail(from.node, from.subject, `\`${file}\`: ${p.found}`, p.expected, p.hint);
    const { line, column } = p.at ?? { line: 1, column: 1 };
    throw new SceneError({ file, line, column, subject: 'file', found: p.found, expected: p.expected, hint: p.hint });
  }
  return parseYamlText(file, r.text, { foreign: as.foreign || from !== undefined });
}

/** Parses text as one YAML document, stopping at the first error (see first-yaml-error.ts). */
export function parseYamlText(file: string, text: string, as: ReadAs = {}): ParsedFile {
  const lc = new LineCounter();
  const r = composeSingleDocument(text, lc);
  if ('error' in r) {
    const e = r.error;
    const { line, column } = lineCol(text, e.offset);
    const found = as.foreign ? (e.plain ?? e.found) : e.found;
    throw new SceneError({ file, line, column, subject: 'YAML syntax', found, expected: e.expected, hint: e.hint });
  }
  const ctx = new Ctx(file, lc);
  return { ctx, doc: r.doc, root: r.doc.contents as YNode };
}

/** A file that is not the YAML mapping `kind` describes, said without quoting any of it: `keys` are
 *  the top-level keys that make it one (any of them will do). Returns the error, or nothing when
 *  the root is such a mapping (or an empty one, when `emptyIsFine`). */
export function notAYamlFile(
  pf: ParsedFile,
  kind: string,
  keys: readonly string[],
  expected: string,
  emptyIsFine = false,
): SceneError | undefined {
  const { ctx, root } = pf;
  if (isMap(root)) {
    // One of the keys, or a key that is a typo of one (checkKeys then says "did you mean"): a
    // mapping of nothing but other keys is another kind of file, and its keys are not echoed.
    const typo = (k: unknown): boolean => typeof k === 'string' && closest(k, keys) !== undefined;
    if (root.items.some((p) => isScalar(p.key) && (keys.includes(p.key.value as string) || typo(p.key.value)))) return undefined;
    if (emptyIsFine && root.items.length === 0) return undefined;
  }
  const found = isMap(root)
    ? `a YAML mapping that is not a ${kind} (none of the keys ${keys.map((k) => `\`${k}\``).join(', ')})`
    : root == null
      ? `an empty file, not a YAML ${kind}`
      : isSeq(root)
        ? `a YAML list, not a YAML ${kind}`
        : `text that is not a YAML ${kind} (no \`key: value\` mapping)`;
  return new SceneError({ file: ctx.file, line: 1, column: 1, subject: 'file', found, expected });
}

/** Short description of what a node holds, for "found ..." messages. */
export function describe(node: YNode): string {
  if (node == null) return 'nothing';
  if (isScalar(node)) {
    const v = node.value;
    if (v === null) return 'nothing (null)';
    if (typeof v === 'string') return `the string ${quote(v)}`;
    if (typeof v === 'number') return Number.isFinite(v) ? `the number ${v}` : `the non-finite number ${v}`;
    if (typeof v === 'boolean') return `the boolean ${v}`;
    return node.tag ? `a value tagged \`${quote(node.tag, 40, '')}\`` : `a ${typeof v} value`;
  }
  if (isSeq(node)) return `a list of ${node.items.length} item${node.items.length === 1 ? '' : 's'}`;
  if (isMap(node)) return 'a mapping';
  return 'an alias or unsupported node';
}

export interface Entry {
  key: string;
  keyNode: YNode;
  value: YNode;
}

/** Entries of a mapping node, keyed by string. */
export function entries(ctx: Ctx, node: YNode, subject: string): Map<string, Entry> {
  if (!isMap(node)) ctx.fail(node, subject, describe(node), 'a mapping (key: value lines)');
  const out = new Map<string, Entry>();
  for (const pair of node.items) {
    const k = pair.key as YNode;
    if (!isScalar(k) || typeof k.value !== 'string') ctx.fail(k, subject, `the key ${describe(k)}`, 'a plain string key');
    out.set(k.value as string, { key: k.value as string, keyNode: k, value: pair.value as YNode });
  }
  return out;
}

/** Rejects unknown keys (with did-you-mean) and missing required ones. */
export function checkKeys(
  ctx: Ctx,
  node: YNode,
  map: Map<string, Entry>,
  subject: string,
  allowed: readonly string[],
  required: readonly string[] = [],
): void {
  for (const e of map.values()) {
    if (!allowed.includes(e.key)) {
      ctx.fail(
        e.keyNode,
        subject,
        `unknown key ${quote(e.key, 60, '`')}`,
        `one of ${allowed.map((a) => `\`${a}\``).join(', ')}`,
        didYouMean(e.key, allowed),
      );
    }
  }
  for (const r of required) {
    if (!map.has(r)) ctx.fail(node, subject, `no \`${r}\` key`, `a required \`${r}\` key`);
  }
}

export function readNumber(ctx: Ctx, node: YNode, subject: string): number {
  if (!isScalar(node) || typeof node.value !== 'number') ctx.fail(node, subject, describe(node), 'a number');
  const v = node.value as number;
  if (!Number.isFinite(v)) ctx.fail(node, subject, describe(node), 'a finite number');
  return v;
}

export function readPositive(ctx: Ctx, node: YNode, subject: string): number {
  const v = readNumber(ctx, node, subject);
  if (!(v > 0)) ctx.fail(node, subject, `${v}`, 'a number > 0');
  return v;
}

export function readInt(ctx: Ctx, node: YNode, subject: string, min: number): number {
  const v = readNumber(ctx, node, subject);
  if (!Number.isInteger(v) || v < min) ctx.fail(node, subject, `${v}`, `an integer >= ${min}`);
  // 1e308 is an integer to JavaScript, but a count, index or step that large is no count: it prints
  // as 1e+308 and no loop reaches it
  if (!Number.isSafeInteger(v)) ctx.fail(node, subject, `${v}`, `an integer from ${min} to 2^53 - 1 (9007199254740991)`);
  return v;
}

/** A number within one of the shared limits (src/engine/world-limits.ts). */
export function readLimited(ctx: Ctx, node: YNode, subject: string, limit: NumberLimit): number {
  const v = readNumber(ctx, node, subject);
  if (!withinLimit(v, limit)) ctx.fail(node, subject, `${v}`, limitText(limit));
  return v;
}

export function readString(ctx: Ctx, node: YNode, subject: string): string {
  if (!isScalar(node) || typeof node.value !== 'string' || node.value === '') ctx.fail(node, subject, describe(node), 'a non-empty string');
  return node.value as string;
}

export function readEnum<T extends string>(ctx: Ctx, node: YNode, subject: string, options: readonly T[]): T {
  const s = readString(ctx, node, subject);
  if (!(options as readonly string[]).includes(s)) {
    ctx.fail(node, subject, `\`${s}\``, `one of ${options.map((o) => `\`${o}\``).join(', ')}`, didYouMean(s, options));
  }
  return s as T;
}

/** A flat list of exactly `n` finite numbers (or one of the counts in `n`). */
export function readVec(ctx: Ctx, node: YNode, subject: string, n: number | readonly number[]): number[] {
  const counts = typeof n === 'number' ? [n] : n;
  const want = counts.length === 1 ? `a list of ${counts[0]} numbers` : `a list of ${counts.join(' or ')} numbers`;
  if (!isSeq(node)) ctx.fail(node, subject, describe(node), want);
  if (!counts.includes(node.items.length))
    ctx.fail(node, subject, `${node.items.length} number${node.items.length === 1 ? '' : 's'}`, want);
  return node.items.map((it, i) => readNumber(ctx, it as YNode, `${subject}[${i}]`));
}

/** A number or a list of numbers (for `initial`/`torque` of 1-DOF joints, which may be given bare). */
export function readNumbers(ctx: Ctx, node: YNode, subject: string, n: number): number[] {
  if (n === 1 && isScalar(node)) return [readNumber(ctx, node, subject)];
  return readVec(ctx, node, subject, n);
}
