import { describe, expect, it } from 'vitest';
import { csvCommentHeader, formatNumberExact, sidecarJson, toCsv } from '../src/reports/csv.js';

/** Minimal RFC 4180 parser (quotes, doubled quotes, embedded newlines) that skips leading '#' comment lines. */
function parseCsv(text: string): { comments: string[]; rows: string[][] } {
  const lines = text.split('\n');
  const comments: string[] = [];
  while (lines.length && lines[0].startsWith('#')) comments.push(lines.shift() as string);
  const body = lines.join('\n');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return { comments, rows };
}

function bits(x: number): bigint {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  return dv.getBigUint64(0);
}

describe('toCsv', () => {
  it('numbers round-trip bit-exactly, including awkward values', () => {
    const awkward = [
      0.1,
      1 / 3,
      Math.PI,
      -0,
      0,
      5e-324,
      Number.MAX_VALUE,
      Number.MIN_VALUE,
      2 ** 53 + 2,
      1e21,
      1.7976931348623157e308,
      123456789.12345679,
      -2.2250738585072014e-308,
      NaN,
      Infinity,
      -Infinity,
      14.125899871186028,
    ];
    // Plus random doubles drawn from all exponents, built from random bit patterns.
    const dv = new DataView(new ArrayBuffer(8));
    let seed = 42;
    for (let i = 0; i < 500; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      dv.setUint32(0, seed);
      seed = (seed * 1103515245 + 12345) >>> 0;
      dv.setUint32(4, seed);
      awkward.push(dv.getFloat64(0));
    }
    const rows = awkward.map((v, i) => ({ i, v }));
    const { rows: parsed } = parseCsv(toCsv(rows));
    expect(parsed[0]).toEqual(['i', 'v']);
    expect(parsed.length).toBe(rows.length + 1);
    for (let i = 0; i < rows.length; i++) {
      const back = Number(parsed[i + 1][1]);
      if (Number.isNaN(rows[i].v)) expect(Number.isNaN(back)).toBe(true);
      else expect(bits(back)).toBe(bits(rows[i].v));
    }
  });

  it('writes the metadata comment block first, then header and rows', () => {
    const text = toCsv([{ t: 0.5, scene: 'arm, "two"', ok: true, n: 3n }], {
      meta: { scene: 'two_joint_arm', dt: 0.001, float32: false, note: 'line1\nline2' },
    });
    const { comments, rows } = parseCsv(text);
    expect(comments).toEqual(['# scene: two_joint_arm', '# dt: 0.001', '# float32: false', '# note: "line1\\nline2"']);
    expect(rows).toEqual([
      ['t', 'scene', 'ok', 'n'],
      ['0.5', 'arm, "two"', 'true', '3'],
    ]);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('honours a column order, leaves missing cells empty and quotes cells containing #', () => {
    const text = toCsv([{ a: 1, b: 'x#1' }, { b: 'y' }], { columns: ['b', 'a', 'c'] });
    expect(text).toBe('b,a,c\n"x#1",1,\ny,,\n');
  });

  it('keeps the header for zero rows', () => {
    expect(toCsv([], { columns: ['step', 'err'] })).toBe('step,err\n');
    expect(toCsv([], { columns: ['a'], meta: { k: 1 } })).toBe('# k: 1\na\n');
  });

  it('formatNumberExact keeps the sign of zero and csvCommentHeader escapes keys', () => {
    expect(formatNumberExact(-0)).toBe('-0');
    expect(formatNumberExact(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvCommentHeader({ 'a:b\nc': 'v' })).toBe('# a_b_c: v\n');
  });
});

describe('sidecarJson', () => {
  it('keeps non-finite numbers and bigints visible instead of null/throwing', () => {
    const text = sidecarJson({ a: NaN, b: Infinity, c: -Infinity, d: 10n, e: [1.5, 'x'], f: null });
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({ a: 'NaN', b: 'Infinity', c: '-Infinity', d: '10', e: [1.5, 'x'], f: null });
  });

  it('round-trips float64 metadata exactly', () => {
    const x = 1380134000 / 97702377;
    expect(JSON.parse(sidecarJson({ x })).x).toBe(x);
  });
});
