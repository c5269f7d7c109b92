// CSV and JSON sidecars for run results.
//
// Numbers are written with JavaScript's shortest round-trip representation
// (Number.prototype.toString is specified to produce the shortest decimal that
// parses back to the same float64), so a validation script reading the CSV sees
// bit-identical values: no toFixed / toPrecision anywhere.
import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | bigint | boolean | null | undefined;
export type CsvRow = Readonly<Record<string, CsvCell>>;
export type MetaValue = string | number | bigint | boolean | null;

export interface CsvOptions {
  /** Column order; defaults to the keys of all rows in first-seen order. */
  columns?: readonly string[];
  /** Written as leading `# key: value` lines (pandas: `read_csv(..., comment='#')`). */
  meta?: Readonly<Record<string, MetaValue>>;
}

/** Shortest float64 round-trip text; keeps the sign of -0 (String(-0) is "0"). */
export function formatNumberExact(x: number): string {
  if (Object.is(x, -0)) return '-0';
  return String(x); // "NaN", "Infinity", "-Infinity" parse back with Number()
}

function metaText(v: MetaValue): string {
  if (typeof v === 'number') return formatNumberExact(v);
  if (typeof v === 'string') {
    // A newline would end the comment line and inject a data row: JSON-quote such values.
    return /[\r\n]/.test(v) ? JSON.stringify(v) : v;
  }
  return String(v);
}

/** `# key: value` lines, one per entry, each ending in "\n". */
export function csvCommentHeader(meta: Readonly<Record<string, MetaValue>>): string {
  let out = '';
  for (const [k, v] of Object.entries(meta)) {
    const key = k.replace(/[\r\n:]/g, '_');
    out += `# ${key}: ${metaText(v)}\n`;
  }
  return out;
}

function collectColumns(rows: readonly CsvRow[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) seen.add(k);
  return [...seen];
}

const STRINGIFY = {
  record_delimiter: 'unix',
  // Quote cells containing '#': readers configured with comment='#' would otherwise cut the line there.
  quoted_match: /#/,
  cast: {
    number: (x: number) => formatNumberExact(x),
    bigint: (x: bigint) => x.toString(),
    // csv-stringify's default writes true as "1" and false as "" (indistinguishable from missing).
    boolean: (x: boolean) => (x ? 'true' : 'false'),
  },
} as const;

/** Render rows as CSV (header row always present, "\n" line ends), optionally preceded by a metadata comment block. */
export function toCsv(rows: readonly CsvRow[], opts: CsvOptions = {}): string {
  const columns = [...(opts.columns ?? collectColumns(rows))];
  const body = stringify(rows as CsvRow[], { ...STRINGIFY, header: true, columns });
  // stringify emits nothing at all for zero rows; keep the header so the file still has a schema.
  const text = rows.length === 0 ? `${columns.map(quoteHeader).join(',')}\n` : body;
  return (opts.meta ? csvCommentHeader(opts.meta) : '') + text;
}

/** The rows alone, as toCsv writes them (no header): a long table can be written in parts, each
 *  turned into text as soon as it is made. */
export function csvRows(rows: readonly CsvRow[], columns: readonly string[]): string {
  return rows.length === 0 ? '' : stringify(rows as CsvRow[], { ...STRINGIFY, header: false, columns: [...columns] });
}

/** The header alone (`# key: value` lines, then the column line), for csvRows' parts. */
export function csvHeader(columns: readonly string[], meta?: Readonly<Record<string, MetaValue>>): string {
  return (meta ? csvCommentHeader(meta) : '') + `${columns.map(quoteHeader).join(',')}\n`;
}

function quoteHeader(name: string): string {
  return /[",\r\n#]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name;
}

/**
 * Pretty JSON text (trailing newline) for a metadata sidecar. Unlike plain
 * JSON.stringify, non-finite numbers become the strings "NaN"/"Infinity"
 * instead of silently turning into null, and bigints become decimal strings
 * instead of throwing.
 */
export function sidecarJson(meta: unknown): string {
  const text = JSON.stringify(
    meta,
    (_key, value: unknown) => {
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
      return value;
    },
    2,
  );
  return `${text ?? 'null'}\n`;
}
