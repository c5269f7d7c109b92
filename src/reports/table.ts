// Tables for humans: Markdown (report files) and aligned plain text (stdout),
// plus the number formatting both use.

export type TableCell = string | number | bigint | boolean | null | undefined;
export type Align = 'left' | 'right' | 'center';

export interface TableOptions {
  /** Per-column alignment; defaults to right for columns whose cells are all numbers, else left. */
  align?: readonly Align[];
  /** Formatter for numeric cells; default formatSig(x, 4). */
  formatNumber?: (x: number) => string;
}

const SI_PREFIXES: ReadonlyArray<readonly [number, string]> = [
  [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k'], [1, ''], [1e-3, 'm'], [1e-6, 'µ'], [1e-9, 'n'], [1e-12, 'p'],
];

function nonFinite(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '-∞';
  return undefined;
}

/**
 * `digits` significant digits, trailing zeros kept (so columns line up in
 * precision); exponent notation outside [1e-4, 1e6) where fixed would be unreadable.
 */
export function formatSig(x: number, digits = 4): string {
  const bad = nonFinite(x);
  if (bad) return bad;
  if (x === 0) return '0';
  const ax = Math.abs(x);
  if (ax < 1e-4 || ax >= 1e6) return x.toExponential(digits - 1);
  return x.toPrecision(digits);
}

/** SI-prefixed value, e.g. formatSi(1.234e6, 'steps/s') = "1.23 Msteps/s"; `digits` significant digits. */
export function formatSi(x: number, unit = '', digits = 3): string {
  const bad = nonFinite(x);
  if (bad) return unit ? `${bad} ${unit}` : bad;
  if (x === 0) return unit ? `0 ${unit}` : '0';
  const ax = Math.abs(x);
  let [scale, prefix] = SI_PREFIXES[SI_PREFIXES.length - 1];
  for (const [s, p] of SI_PREFIXES) {
    if (ax >= s) {
      [scale, prefix] = [s, p];
      break;
    }
  }
  let text = (x / scale).toPrecision(digits);
  // Rounding may reach the next prefix (999.6 k -> "1000 k"): move up one.
  const idx = SI_PREFIXES.findIndex(([s]) => s === scale);
  if (Math.abs(Number(text)) >= 1000 && idx > 0) {
    [scale, prefix] = SI_PREFIXES[idx - 1];
    text = (x / scale).toPrecision(digits);
  }
  if (text.includes('e')) text = String(Number(text));
  const suffix = `${prefix}${unit}`;
  return suffix ? `${text} ${suffix}` : text;
}

/** A ratio such as a speed-up: "12.3×", "0.456×"; `digits` significant digits. */
export function formatRatio(x: number, digits = 3): string {
  const bad = nonFinite(x);
  if (bad) return `${bad}×`;
  return `${formatSig(x, digits)}×`;
}

function cellText(c: TableCell, fmt: (x: number) => string): string {
  if (c === null || c === undefined) return '';
  if (typeof c === 'number') return fmt(c);
  return String(c);
}

function defaultAlign(rows: readonly (readonly TableCell[])[], ncol: number): Align[] {
  const out: Align[] = [];
  for (let j = 0; j < ncol; j++) {
    const cells = rows.map((r) => r[j]).filter((c) => c !== null && c !== undefined && c !== '');
    out.push(cells.length > 0 && cells.every((c) => typeof c === 'number' || typeof c === 'bigint') ? 'right' : 'left');
  }
  return out;
}

function prepare(header: readonly string[], rows: readonly (readonly TableCell[])[], opts: TableOptions) {
  const fmt = opts.formatNumber ?? ((x: number) => formatSig(x, 4));
  const ncol = Math.max(header.length, ...rows.map((r) => r.length));
  const align = [...(opts.align ?? []), ...defaultAlign(rows, ncol).slice(opts.align?.length ?? 0)];
  const head = Array.from({ length: ncol }, (_, j) => header[j] ?? '');
  const body = rows.map((r) => Array.from({ length: ncol }, (_, j) => cellText(r[j], fmt)));
  return { ncol, align, head, body };
}

// Code points, not UTF-16 units, so "µ" and "×" count as one column.
function width(s: string): number {
  return [...s].length;
}

function pad(s: string, w: number, a: Align): string {
  const gap = w - width(s);
  if (gap <= 0) return s;
  if (a === 'right') return ' '.repeat(gap) + s;
  if (a === 'center') return ' '.repeat(Math.floor(gap / 2)) + s + ' '.repeat(gap - Math.floor(gap / 2));
  return s + ' '.repeat(gap);
}

function mdEscape(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** GitHub-flavoured Markdown table (pipes escaped, alignment row from `align`). */
export function markdownTable(header: readonly string[], rows: readonly (readonly TableCell[])[], opts: TableOptions = {}): string {
  const { ncol, align, head, body } = prepare(header, rows, opts);
  const h = head.map(mdEscape);
  const b = body.map((r) => r.map(mdEscape));
  const w = Array.from({ length: ncol }, (_, j) => Math.max(3, width(h[j]), ...b.map((r) => width(r[j]))));
  const line = (cells: string[]) => `| ${cells.map((c, j) => pad(c, w[j], align[j])).join(' | ')} |`;
  const rule = w.map((n, j) => {
    const a = align[j];
    if (a === 'right') return `${'-'.repeat(n - 1)}:`;
    if (a === 'center') return `:${'-'.repeat(n - 2)}:`;
    return '-'.repeat(n);
  });
  return [line(h), `| ${rule.join(' | ')} |`, ...b.map(line)].join('\n') + '\n';
}

/** Aligned plain-text table for the terminal: header, a dashed rule, rows; columns two spaces apart. */
export function textTable(header: readonly string[], rows: readonly (readonly TableCell[])[], opts: TableOptions = {}): string {
  const { ncol, align, head, body } = prepare(header, rows, opts);
  const flat = body.map((r) => r.map((c) => c.replace(/\r?\n/g, ' ')));
  const w = Array.from({ length: ncol }, (_, j) => Math.max(width(head[j]), ...flat.map((r) => width(r[j]))));
  const line = (cells: string[]) => cells.map((c, j) => pad(c, w[j], align[j])).join('  ').trimEnd();
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...flat.map(line)].join('\n') + '\n';
}
