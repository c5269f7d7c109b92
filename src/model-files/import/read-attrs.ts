// Reading attributes of an XML element as numbers, with FILE:LINE:COL errors that say what was expected.

import { SceneError, quote } from '../common/errors.js';
import type { SourceSpan } from '../../engine/model-desc.js';
import type { Pos, XmlAttr, XmlElement } from './xml.js';

export class Reader {
  /** `file`: the model file; a position read from another file (an MJCF <include>) names its own. */
  constructor(readonly file: string) {}

  span(p: Pos): SourceSpan {
    return { file: p.file ?? this.file, line: p.line, column: p.column };
  }

  fail(at: Pos, subject: string, found: string, expected: string, hint?: string): never {
    throw new SceneError({ ...this.span(at), subject, found, expected, ...(hint ? { hint } : {}) });
  }

  /** Whitespace-separated numbers; `count` exact, or a range [min, max]. */
  nums(a: XmlAttr, subject: string, count: number | [number, number]): number[] {
    const parts = a.value
      .trim()
      .split(/\s+/)
      .filter((s) => s.length > 0);
    const [lo, hi] = typeof count === 'number' ? [count, count] : count;
    if (parts.length < lo || parts.length > hi) {
      this.fail(
        a,
        subject,
        `${parts.length} number${parts.length === 1 ? '' : 's'} (${quote(a.value, 40)})`,
        lo === hi ? `${lo} number${lo === 1 ? '' : 's'}` : `${lo} to ${hi} numbers`,
      );
    }
    return parts.map((p) => {
      const x = Number(p);
      if (!Number.isFinite(x) || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(p)) this.fail(a, subject, quote(p, 30), 'a finite number');
      return x;
    });
  }

  num(a: XmlAttr, subject: string): number {
    return this.nums(a, subject, 1)[0];
  }

  choice<T extends string>(a: XmlAttr, subject: string, choices: readonly T[]): T {
    if (!(choices as readonly string[]).includes(a.value)) this.fail(a, subject, quote(a.value, 40), `one of ${choices.join(', ')}`);
    return a.value as T;
  }

  bool(a: XmlAttr, subject: string): boolean {
    return this.choice(a, subject, ['true', 'false']) === 'true';
  }
}

export const describeEl = (el: XmlElement): string => {
  const n = el.attrs.get('name')?.value;
  return n ? `<${el.name} name=${quote(n)}>` : `<${el.name}>`;
};
