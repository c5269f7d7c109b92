// The distributions of a sweep's results, as Vega-Lite charts and as a few summary numbers. Drawn
// from the merged results.csv text itself (so they describe exactly what the file holds, and the
// same file gives the same charts, byte for byte).

import { barChart, binLogValues, binValues, histogram, vconcat, type VlSpec } from '../reports/charts.js';

export interface ResultTable {
  columns: string[];
  /** Cell texts, row by row (numbers in shortest round-trip form, true/false, or empty). */
  rows: string[][];
}

/** One CSV line split into cells (quoted cells as csv-stringify writes them). */
function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let cell = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote in CSV line: ${line.slice(0, 80)}`);
        cell += line.slice(i, q);
        if (line[q + 1] === '"') {
          cell += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(cell);
      i++; // the comma
    } else {
      const c = line.indexOf(',', i);
      const end = c < 0 ? line.length : c;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

/** The table of a results.csv text (its `#` header lines skipped). */
export function parseResults(text: string): ResultTable {
  const lines = text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const [head, ...body] = lines;
  return { columns: splitCsvLine(head ?? ''), rows: body.map(splitCsvLine) };
}

const NOT_CHARTED = new Set(['robot', 'fell', 'fell_time', 'diverged_step', 'diverged_joint']);

/** How many rows are of robots whose state turned non-finite (they have no metrics). */
function divergedCount(t: ResultTable): number {
  const j = t.columns.indexOf('diverged_step');
  return j < 0 ? 0 : t.rows.filter((r) => r[j] !== '').length;
}

function column(t: ResultTable, name: string): number[] {
  const j = t.columns.indexOf(name);
  return t.rows.map((r) => (r[j] === '' ? NaN : Number(r[j])));
}

/** The metric columns (not the draws, not the final state). */
function metricColumns(t: ResultTable): string[] {
  return t.columns.filter((c) => !NOT_CHARTED.has(c) && !c.startsWith('init:') && !c.startsWith('q:') && !c.startsWith('v:'));
}

/** `metrics`: a histogram per metric (and how many fell); `draws`: a histogram per drawn value.
 *  `logUniform`: the parameters drawn log-uniformly (the header's `draws` line says which). */
export function sweepCharts(t: ResultTable, name: string, logUniform: ReadonlySet<string> = new Set()): Record<string, VlSpec> {
  const charts: Record<string, VlSpec> = {};
  const panels: VlSpec[] = [];
  const fell = t.columns.indexOf('fell');
  const diverged = divergedCount(t);
  if (fell >= 0) {
    const n = t.rows.filter((r) => r[fell] === 'true').length;
    panels.push(
      barChart({
        title: `fell: ${n} of ${t.rows.length}${diverged ? ` (${diverged} diverged)` : ''}`,
        data: [
          { outcome: 'stood', robots: t.rows.length - n - diverged },
          { outcome: 'fell', robots: n },
          ...(diverged ? [{ outcome: 'diverged', robots: diverged }] : []),
        ],
        x: 'outcome',
        y: 'robots',
        xTitle: '',
        yTitle: 'robots',
        width: 480,
        height: 120,
      }),
    );
  }
  for (const c of metricColumns(t)) panels.push(histogram({ title: c, bins: binValues(column(t, c)), xTitle: c }));
  if (panels.length)
    charts.metrics = vconcat({ title: `${name}: distribution of each metric over ${t.rows.length} robots`, charts: panels });
  const draws = t.columns.filter((c) => c.startsWith('init:'));
  if (draws.length)
    charts.draws = vconcat({
      title: `${name}: the drawn initial values`,
      charts: draws.map((c) => {
        const p = c.slice('init:'.length);
        // A log-uniform draw is shown on a log axis, where it is flat.
        const log = logUniform.has(p);
        return histogram({ title: p, bins: log ? binLogValues(column(t, c)) : binValues(column(t, c)), xTitle: p, logX: log });
      }),
    });
  return charts;
}

/** A few numbers per metric, for the terminal and sweep.json: how many fell; min, median, max of the rest. */
export function summarizeResults(t: ResultTable): Record<string, string | number | Record<string, number>> {
  const out: Record<string, string | number | Record<string, number>> = { robots: t.rows.length };
  const fell = t.columns.indexOf('fell');
  if (fell >= 0) out.fell = t.rows.filter((r) => r[fell] === 'true').length;
  const diverged = divergedCount(t);
  if (diverged) out.diverged = diverged;
  for (const c of metricColumns(t)) {
    const xs = column(t, c)
      .filter((x) => Number.isFinite(x))
      .sort((a, b) => a - b);
    if (xs.length === 0) continue;
    const mid = xs.length >> 1;
    out[c] = { min: xs[0], median: xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2, max: xs[xs.length - 1] };
  }
  return out;
}

/** The summary as lines for the terminal. */
export function summaryLines(s: ReturnType<typeof summarizeResults>): string[] {
  const g = (x: number) => String(Number(x.toPrecision(4)));
  return Object.entries(s).map(([k, v]) => {
    if (k === 'robots') return `robots: ${v as number}`;
    if (k === 'fell') return `fell: ${v as number} of ${s.robots as number}`;
    if (k === 'diverged') return `diverged: ${v as number} of ${s.robots as number} (no metrics for them)`;
    const m = v as Record<string, number>;
    return `${k}: min ${g(m.min)}, median ${g(m.median)}, max ${g(m.max)}`;
  });
}
