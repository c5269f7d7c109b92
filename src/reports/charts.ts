// Vega-Lite spec builders. Specs are plain JSON (data inline in `data.values`)
// so a `.vl.json` file is self-contained: open it in the Vega editor and it
// renders. Long series are downsampled to keep those files small.

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A Vega-Lite spec as plain JSON. */
export type VlSpec = JsonObject;
/** One data row (long form: one row per point, series named by a field). */
export type Datum = Readonly<Record<string, JsonPrimitive>>;

export const VL_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
export const DEFAULT_MAX_POINTS = 2000;

/**
 * Vega-Lite reads "a.b" as nested field access and "[" as indexing; our column
 * names are flat (e.g. "qdd.err"), so escape those characters.
 */
export function fieldRef(name: string): string {
  return name.replace(/([.[\]\\])/g, '\\$1');
}

function num(v: JsonPrimitive | undefined): number {
  return typeof v === 'number' ? v : Number.NaN;
}

/**
 * Reduce one series (rows in plotting order) to at most `maxPoints` rows.
 * Keeps the first and last rows and, per equal-size bucket of the rest, the
 * rows with the minimum and maximum `yField` (in their original order), so
 * spikes and dips survive where plain striding would drop them.
 */
export function downsampleMinMax<T extends Datum>(rows: readonly T[], yField: string, maxPoints = DEFAULT_MAX_POINTS): T[] {
  if (maxPoints < 4) throw new Error(`maxPoints must be at least 4, got ${maxPoints}`);
  if (rows.length <= maxPoints) return [...rows];
  const out: T[] = [rows[0]];
  const interiorStart = 1;
  const interiorEnd = rows.length - 1; // exclusive
  const n = interiorEnd - interiorStart;
  const buckets = Math.floor((maxPoints - 2) / 2);
  for (let b = 0; b < buckets; b++) {
    const lo = interiorStart + Math.floor((b * n) / buckets);
    const hi = interiorStart + Math.floor(((b + 1) * n) / buckets);
    if (hi <= lo) continue;
    let iMin = -1;
    let iMax = -1;
    for (let i = lo; i < hi; i++) {
      const y = num(rows[i][yField]);
      if (Number.isNaN(y)) continue; // NaN compares false; never let it hide a real extreme
      if (iMin < 0 || y < num(rows[iMin][yField])) iMin = i;
      if (iMax < 0 || y > num(rows[iMax][yField])) iMax = i;
    }
    if (iMin < 0) {
      out.push(rows[lo]); // all-NaN bucket: keep one row so the gap stays visible
    } else if (iMin === iMax) {
      out.push(rows[iMin]);
    } else {
      out.push(rows[Math.min(iMin, iMax)], rows[Math.max(iMin, iMax)]);
    }
  }
  out.push(rows[rows.length - 1]);
  return out;
}

/** Downsample each series (grouped by `seriesField`, or all rows as one series) independently, preserving series order. */
export function downsampleSeries<T extends Datum>(
  rows: readonly T[],
  yField: string,
  seriesField?: string,
  maxPoints = DEFAULT_MAX_POINTS,
): T[] {
  if (seriesField === undefined) return downsampleMinMax(rows, yField, maxPoints);
  const groups = new Map<JsonPrimitive | undefined, T[]>();
  for (const row of rows) {
    const key = row[seriesField];
    let g = groups.get(key);
    if (!g) groups.set(key, (g = []));
    g.push(row);
  }
  const out: T[] = [];
  for (const g of groups.values()) out.push(...downsampleMinMax(g, yField, maxPoints));
  return out;
}

function values(rows: readonly Datum[]): JsonObject[] {
  return rows.map((r) => ({ ...r }));
}

function axisScale(log: boolean | undefined): JsonObject {
  return log ? { type: 'log' } : { zero: false };
}

/**
 * Tick labels of a log axis. d3's formats either switch style mid-axis (Vega's default writes
 * "1e-7" next to "0.000001") or write every decade as "1e+1" ('~e'). These read as people write
 * them: plain numbers from 0.001 to 9999 ("0.01", "1", "10", "2000"), powers of ten outside it
 * ("1e-6", "1e5"), never a "+" in an exponent.
 */
export const LOG_AXIS: JsonObject = {
  labelExpr: "datum.value >= 0.001 && datum.value < 10000 ? format(datum.value, '~g') : replace(format(datum.value, '~e'), 'e+', 'e')",
};

/** Tick labels of a linear axis in the d3 `format` (e.g. '~g'), without the "+" d3 writes in a large
 *  exponent ("1e+6" reads "1e6"); the default format needs no fix (it writes "1,000,000"). */
function linearAxis(format: string | undefined): JsonObject {
  return format ? { format, labelExpr: "replace(datum.label, 'e+', 'e')" } : {};
}

/** The axis of a quantitative scale: LOG_AXIS on a log scale, else linearAxis(format). */
function axisLabels(log: boolean | undefined, format?: string): JsonObject {
  const axis = log ? LOG_AXIS : linearAxis(format);
  return Object.keys(axis).length ? { axis } : {};
}

// Log scales cannot show y <= 0 (or NaN); drop them explicitly rather than rely on renderer behaviour.
function positiveFilter(field: string): JsonObject {
  return { filter: { field: fieldRef(field), gt: 0 } };
}

interface Frame {
  title: string;
  width?: number;
  height?: number;
}

function frame(o: Frame): JsonObject {
  return { $schema: VL_SCHEMA, title: o.title, width: o.width ?? 640, height: o.height ?? 360 };
}

function colorEnc(color: string | undefined, title?: string, order?: readonly string[]): JsonObject {
  if (color === undefined) return {};
  // labelLimit: series names like `robot 12: left_thigh (rotation angle)` must not be cut
  return { color: { field: fieldRef(color), type: 'nominal', title: title ?? color, legend: { labelLimit: 320 }, ...(order ? { sort: [...order], scale: { domain: [...order] } } : {}) } };
}

const collator = new Intl.Collator('en', { numeric: true });

/** Natural order: "q2" before "q10", "robot 9" before "robot 10". */
export function naturalSort(names: Iterable<string>): string[] {
  return [...names].sort(collator.compare);
}

/** How many series one chart shows at most: the size of the categorical palette, so no two share a colour. */
export const MAX_SERIES = 10;

export interface SeriesSelection<T extends Datum> {
  rows: T[];
  /** The series kept, in natural order. */
  shown: string[];
  /** How many series there were. */
  total: number;
  /** A note for the chart when series were left out, else undefined. */
  note?: string;
}

/**
 * Keeps at most `max` series: the most active ones (largest range of `yField` over the rows), so a
 * chart of 2,000 links stays readable and small. Ties keep the natural order.
 */
export function selectSeries<T extends Datum>(rows: readonly T[], seriesField: string, yField: string, max = MAX_SERIES, what = 'series'): SeriesSelection<T> {
  const range = new Map<string, { lo: number; hi: number }>();
  for (const r of rows) {
    const k = String(r[seriesField]);
    const y = num(r[yField]);
    let e = range.get(k);
    if (!e) range.set(k, (e = { lo: Infinity, hi: -Infinity }));
    if (Number.isNaN(y)) continue;
    if (y < e.lo) e.lo = y;
    if (y > e.hi) e.hi = y;
  }
  const all = naturalSort(range.keys());
  if (all.length <= max) return { rows: [...rows], shown: all, total: all.length };
  const spread = (k: string): number => {
    const e = range.get(k) as { lo: number; hi: number };
    return e.hi >= e.lo ? e.hi - e.lo : -1;
  };
  const keep = new Set([...all].sort((a, b) => spread(b) - spread(a) || collator.compare(a, b)).slice(0, max));
  const shown = all.filter((k) => keep.has(k));
  return {
    rows: rows.filter((r) => keep.has(String(r[seriesField]))),
    shown,
    total: all.length,
    note: `the ${max} of ${all.length} ${what} with the largest range; all are in trace.csv`,
  };
}

export interface LineChartOptions extends Frame {
  data: readonly Datum[];
  x: string;
  y: string;
  /** Series field (long form); one line per distinct value. */
  color?: string;
  xTitle: string;
  yTitle: string;
  logY?: boolean;
  /** Per-series point budget for downsampling. */
  maxPoints?: number;
  /** Legend (and colour) order of the series; default Vega-Lite's (alphabetical). */
  colorOrder?: readonly string[];
  /** A line under the title (e.g. which series are shown). */
  subtitle?: string;
  /** d3 format of the y tick labels (e.g. '~g', so 2e-16 is not written out in 18 decimals). */
  yFormat?: string;
}

/** Multi-series line chart; each series is min/max downsampled to `maxPoints`. */
export function lineChart(o: LineChartOptions): VlSpec {
  const rows = downsampleSeries(o.data, o.y, o.color, o.maxPoints ?? DEFAULT_MAX_POINTS);
  return {
    ...frame(o),
    ...(o.subtitle ? { title: { text: o.title, subtitle: o.subtitle } } : {}),
    data: { values: values(rows) },
    ...(o.logY ? { transform: [positiveFilter(o.y)] } : {}),
    mark: { type: 'line', clip: true },
    encoding: {
      x: { field: fieldRef(o.x), type: 'quantitative', title: o.xTitle, scale: { zero: false } },
      y: { field: fieldRef(o.y), type: 'quantitative', title: o.yTitle, scale: axisScale(o.logY), ...axisLabels(o.logY, o.yFormat) },
      ...colorEnc(o.color, undefined, o.colorOrder),
    },
  };
}

export interface BarChartOptions extends Frame {
  data: readonly Datum[];
  /** Category field. */
  x: string;
  /** Value field. */
  y: string;
  /** Optional grouping field: bars of one category are placed side by side. */
  color?: string;
  xTitle: string;
  yTitle: string;
  logY?: boolean;
}

/** Bar chart of `y` per category `x`, grouped side by side by `color` when given. */
export function barChart(o: BarChartOptions): VlSpec {
  return {
    ...frame(o),
    data: { values: values(o.data) },
    ...(o.logY ? { transform: [positiveFilter(o.y)] } : {}),
    mark: 'bar',
    encoding: {
      x: { field: fieldRef(o.x), type: 'nominal', title: o.xTitle, sort: null },
      y: { field: fieldRef(o.y), type: 'quantitative', title: o.yTitle, scale: o.logY ? { type: 'log' } : {}, ...axisLabels(o.logY) },
      ...(o.color === undefined ? {} : { xOffset: { field: fieldRef(o.color), type: 'nominal' } }),
      ...colorEnc(o.color),
    },
  };
}

export interface ScatterOptions extends Frame {
  data: readonly Datum[];
  x: string;
  y: string;
  color?: string;
  xTitle: string;
  yTitle: string;
  logX?: boolean;
  logY?: boolean;
  /** Extra fields shown in the tooltip (the .vl.json is interactive in the Vega editor). */
  tooltip?: readonly string[];
}

/** Point chart of `y` against `x`, optionally log on either axis. */
export function scatter(o: ScatterOptions): VlSpec {
  const filters: JsonObject[] = [];
  if (o.logX) filters.push(positiveFilter(o.x));
  if (o.logY) filters.push(positiveFilter(o.y));
  return {
    ...frame(o),
    data: { values: values(o.data) },
    ...(filters.length ? { transform: filters } : {}),
    mark: { type: 'point', filled: true },
    encoding: {
      x: { field: fieldRef(o.x), type: 'quantitative', title: o.xTitle, scale: axisScale(o.logX), ...axisLabels(o.logX) },
      y: { field: fieldRef(o.y), type: 'quantitative', title: o.yTitle, scale: axisScale(o.logY), ...axisLabels(o.logY) },
      ...colorEnc(o.color),
      ...(o.tooltip ? { tooltip: o.tooltip.map((f) => ({ field: fieldRef(f) })) } : {}),
    },
  };
}

/** Charts one above the other, each with its own data, axes and legend (e.g. one per unit). */
export function vconcat(o: { title: string; charts: readonly VlSpec[] }): VlSpec {
  return {
    $schema: VL_SCHEMA,
    title: o.title,
    vconcat: o.charts.map(({ $schema: _s, ...c }) => c),
    resolve: { scale: { color: 'independent', y: 'independent' }, legend: { color: 'independent' } },
  };
}

/** Stack layer specs (each without $schema/data of its own, or with their own data) over shared inline data. */
export function layer(o: Frame & { data?: readonly Datum[]; layers: readonly JsonObject[] }): VlSpec {
  return {
    ...frame(o),
    ...(o.data ? { data: { values: values(o.data) } } : {}),
    layer: [...o.layers],
  };
}

export interface ErrorAgainstBarOptions extends Frame {
  /** One row per (category, series) measurement. */
  data: readonly Datum[];
  /** Category field on x (e.g. the compared quantity: "qpos", "qvel"). */
  field: string;
  /** Error value field on y (plotted on a log scale by default). */
  error: string;
  /** Series field (e.g. the scene), drawn as coloured points. */
  color?: string;
  /** The pass bar: one number for all categories, or a field holding each row's bar. */
  bar: number | { field: string };
  xTitle: string;
  yTitle: string;
  /** Defaults to true: errors span many decades. On a log axis, errors ≤ 0 (exact agreement) cannot be drawn and are left out. */
  logY?: boolean;
}

/**
 * Validation chart: errors as points per category, with the pass bar drawn as
 * a red rule (a horizontal line for a single bar, a tick per category for per-row bars).
 */
export function errorAgainstBarChart(o: ErrorAgainstBarOptions): VlSpec {
  const logY = o.logY ?? true;
  const yScale: JsonObject = logY ? { type: 'log' } : {};
  const x: JsonObject = { field: fieldRef(o.field), type: 'nominal', title: o.xTitle, sort: null };
  const points: JsonObject = {
    ...(logY ? { transform: [positiveFilter(o.error)] } : {}),
    mark: { type: 'point', filled: true, size: 60 },
    encoding: {
      x,
      // Errors span many decades: "1e-6" reads better than "0.000001" (LOG_AXIS).
      y: { field: fieldRef(o.error), type: 'quantitative', title: o.yTitle, scale: yScale, ...axisLabels(logY) },
      ...colorEnc(o.color),
    },
  };
  const rule: JsonObject =
    typeof o.bar === 'number'
      ? {
          data: { values: [{ bar: o.bar }] },
          mark: { type: 'rule', color: '#d62728', strokeDash: [6, 4], strokeWidth: 2 },
          encoding: { y: { field: 'bar', type: 'quantitative', title: o.yTitle, scale: yScale } },
        }
      : {
          mark: { type: 'tick', color: '#d62728', thickness: 2 },
          encoding: {
            x,
            y: { field: fieldRef(o.bar.field), type: 'quantitative', title: o.yTitle, scale: yScale },
          },
        };
  return layer({ ...o, layers: [points, rule] });
}

/** Equal-width bins over [min, max] of the finite values (one narrow bin when they are all equal). */
export function binValues(values: readonly number[], bins = 30): { start: number; end: number; count: number }[] {
  const xs = values.filter((x) => Number.isFinite(x));
  if (xs.length === 0) return [];
  let lo = Infinity;
  let hi = -Infinity;
  for (const x of xs) {
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  // All equal: one bar of visible width around the value.
  if (lo === hi) {
    const d = Math.max(Math.abs(lo) * 0.01, 1e-9);
    return [{ start: lo - d, end: hi + d, count: xs.length }];
  }
  const width = (hi - lo) / bins;
  const out = Array.from({ length: bins }, (_, i) => ({ start: lo + i * width, end: i === bins - 1 ? hi : lo + (i + 1) * width, count: 0 }));
  for (const x of xs) out[Math.min(bins - 1, Math.floor((x - lo) / width))].count++;
  return out;
}

/** A histogram of values binned beforehand (binValues): the chart's data stays a few dozen rows
 *  however many values there were. `logX`: the bins are equal on a log scale (bin the logarithms,
 *  then give the bins' ends back in the values' units). */
export function histogram(
  o: Frame & { bins: readonly { start: number; end: number; count: number }[]; xTitle: string; yTitle?: string; logX?: boolean },
): VlSpec {
  return {
    ...frame({ width: 480, height: 200, ...o }),
    data: { values: o.bins.map((b) => ({ start: b.start, end: b.end, count: b.count })) },
    mark: 'bar',
    encoding: {
      x: {
        field: 'start',
        type: 'quantitative',
        bin: { binned: true },
        title: o.xTitle,
        ...(o.logX ? { scale: { type: 'log' }, axis: LOG_AXIS } : {}),
      },
      x2: { field: 'end' },
      y: { field: 'count', type: 'quantitative', title: o.yTitle ?? 'robots' },
    },
  };
}

/** binValues on a log scale: equal-width bins of log10 of the positive values, ends in the values' units. */
export function binLogValues(values: readonly number[], bins = 30): { start: number; end: number; count: number }[] {
  return binValues(values.filter((x) => x > 0).map(Math.log10), bins).map((b) => ({ start: 10 ** b.start, end: 10 ** b.end, count: b.count }));
}
