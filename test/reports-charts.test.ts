import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OutputSet } from '../src/reports/atomic.js';
import {
  barChart,
  downsampleMinMax,
  downsampleSeries,
  errorAgainstBarChart,
  fieldRef,
  lineChart,
  scatter,
  type Datum,
  type JsonObject,
} from '../src/reports/charts.js';
import { renderSvg, writeChart } from '../src/reports/render.js';

function series(n: number, f: (i: number) => number, extra: Record<string, string> = {}): Datum[] {
  return Array.from({ length: n }, (_, i) => ({ t: i, y: f(i), ...extra }));
}

/** Text content of all <text> elements (where Vega puts titles, axis titles and tick labels). */
function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
}

describe('downsampling', () => {
  it('returns short series unchanged', () => {
    const rows = series(100, (i) => i * i);
    expect(downsampleMinMax(rows, 'y', 2000)).toEqual(rows);
  });

  it('keeps first, last, and single-sample spikes and dips within the budget', () => {
    const n = 100_000;
    const rows = series(n, (i) => Math.sin(i / 500));
    (rows[31_337] as Record<string, number>).y = 50; // spike
    (rows[77_777] as Record<string, number>).y = -40; // dip
    const out = downsampleMinMax(rows, 'y', 2000);
    expect(out.length).toBeLessThanOrEqual(2000);
    expect(out.length).toBeGreaterThan(1900);
    expect(out[0]).toBe(rows[0]);
    expect(out[out.length - 1]).toBe(rows[n - 1]);
    expect(out).toContain(rows[31_337]);
    expect(out).toContain(rows[77_777]);
    // Order preserved (x strictly increasing), so lines are drawn correctly.
    for (let i = 1; i < out.length; i++) expect(out[i].t as number).toBeGreaterThan(out[i - 1].t as number);
    // The global extremes of the smooth part survive too.
    const ys = out.map((r) => r.y as number);
    expect(Math.max(...ys)).toBe(50);
    expect(Math.min(...ys)).toBe(-40);
  });

  it('does not let NaN samples hide a real extreme in their bucket', () => {
    const rows = series(10_000, (i) => (i % 2 ? NaN : 0));
    (rows[5000] as Record<string, number>).y = 9;
    expect(downsampleMinMax(rows, 'y', 100)).toContain(rows[5000]);
  });

  it('downsamples each series separately', () => {
    const a = series(5000, (i) => i, { s: 'a' });
    const b = series(300, (i) => -i, { s: 'b' });
    const out = downsampleSeries([...a, ...b], 'y', 's', 1000);
    expect(out.filter((r) => r.s === 'a').length).toBeLessThanOrEqual(1000);
    expect(out.filter((r) => r.s === 'b')).toEqual(b);
  });
});

describe('chart specs', () => {
  it('lineChart inlines downsampled long-form data and escapes dotted field names', () => {
    const data = [...series(10_000, (i) => 1 + i, { joint: 'shoulder' }), ...series(10_000, (i) => 2 + i, { joint: 'elbow' })].map((r) => ({
      'q.err': r.y,
      t: r.t,
      joint: r.joint,
    }));
    const spec = lineChart({ title: 'Error', data, x: 't', y: 'q.err', color: 'joint', xTitle: 't', yTitle: 'err', logY: true });
    const values = (spec.data as JsonObject).values as JsonObject[];
    expect(values.length).toBeLessThanOrEqual(4000);
    expect(((spec.encoding as JsonObject).y as JsonObject).field).toBe('q\\.err');
    expect(((spec.encoding as JsonObject).y as JsonObject).scale).toEqual({ type: 'log' });
    expect(spec.$schema).toMatch(/vega-lite\/v6/);
    expect(JSON.stringify(spec).length).toBeLessThan(300_000);
    expect(fieldRef('a[0].b')).toBe('a\\[0\\]\\.b');
  });
});

describe('rendering', () => {
  it('renders a line chart to SVG with the title and axis titles as text', async () => {
    const data = [
      ...series(3000, (i) => Math.exp(-i / 500), { joint: 'shoulder' }),
      ...series(3000, (i) => 2 * Math.exp(-i / 700), { joint: 'elbow' }),
    ];
    const svg = await renderSvg(
      lineChart({
        title: 'Joint error vs time',
        data,
        x: 't',
        y: 'y',
        color: 'joint',
        xTitle: 'Time step',
        yTitle: 'Absolute error',
        logY: true,
      }),
    );
    expect(svg).toContain('<svg');
    const texts = svgTexts(svg);
    expect(texts).toContain('Joint error vs time');
    expect(texts).toContain('Time step');
    expect(texts).toContain('Absolute error');
    expect(texts).toContain('shoulder'); // legend
    expect(svg).toMatch(/class="mark-line/);
  });

  it('renders the error-against-bar layer chart (single bar and per-row bars), bar and scatter charts', async () => {
    const data: Datum[] = [
      { field: 'qpos', err: 3e-9, scene: 'arm', bar: 1e-6 },
      { field: 'qvel', err: 2e-7, scene: 'arm', bar: 1e-5 },
      { field: 'qpos', err: 0, scene: 'hand', bar: 1e-6 }, // 0 cannot sit on a log axis: filtered, not a crash
      { field: 'qacc', err: 4e-4, scene: 'hand', bar: 1e-3 },
    ];
    const one = await renderSvg(
      errorAgainstBarChart({
        title: 'Error against bar',
        data,
        field: 'field',
        error: 'err',
        color: 'scene',
        bar: 1e-5,
        xTitle: 'Quantity',
        yTitle: 'Max abs error',
      }),
    );
    expect(svgTexts(one)).toEqual(expect.arrayContaining(['Error against bar', 'Quantity', 'Max abs error', 'qpos', 'qvel', 'qacc']));
    expect(one).toMatch(/class="mark-rule/);
    expect(one).toMatch(/class="mark-symbol/);

    const perRow = await renderSvg(
      errorAgainstBarChart({
        title: 'Per-field bars',
        data,
        field: 'field',
        error: 'err',
        bar: { field: 'bar' },
        xTitle: 'Quantity',
        yTitle: 'Max abs error',
      }),
    );
    expect(perRow).toMatch(/class="mark-tick|class="mark-rect/);

    const bars = await renderSvg(
      barChart({
        title: 'Throughput',
        data: [
          { k: 'a', v: 3, g: 'x' },
          { k: 'b', v: 5, g: 'y' },
        ],
        x: 'k',
        y: 'v',
        color: 'g',
        xTitle: 'Scene',
        yTitle: 'steps/s',
      }),
    );
    expect(svgTexts(bars)).toEqual(expect.arrayContaining(['Throughput', 'Scene', 'steps/s']));

    const pts = await renderSvg(
      scatter({
        title: 'Speed vs batch',
        data: [
          { n: 1, s: 10 },
          { n: 1024, s: 1e6 },
        ],
        x: 'n',
        y: 's',
        xTitle: 'Batch',
        yTitle: 'Speed',
        logX: true,
        logY: true,
      }),
    );
    expect(svgTexts(pts)).toEqual(expect.arrayContaining(['Speed vs batch', 'Batch', 'Speed']));
  });

  it('writeChart stages NAME.vl.json and NAME.svg in an OutputSet', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'achilles-chart-'));
    try {
      const set = await OutputSet.create(path.join(root, 'out'));
      const spec = scatter({ title: 'S', data: [{ a: 1, b: 2 }], x: 'a', y: 'b', xTitle: 'A', yTitle: 'B' });
      const { specPath, svgPath } = await writeChart(set, 'charts/s', spec);
      expect(fs.existsSync(specPath)).toBe(false); // staged only
      await set.commit();
      expect(JSON.parse(fs.readFileSync(specPath, 'utf8'))).toEqual(spec);
      expect(fs.readFileSync(svgPath, 'utf8')).toContain('<svg');
      expect(path.basename(svgPath)).toBe('s.svg');

      // And straight into a directory.
      const direct = await writeChart(path.join(root, 'plain'), 'x', spec);
      expect(fs.readFileSync(direct.svgPath, 'utf8')).toContain('<svg');
      expect(fs.readdirSync(path.join(root, 'plain')).sort()).toEqual(['x.svg', 'x.vl.json']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('tick labels (issue 23: ticks read "1e+1")', () => {
  /** The numeric texts of a chart: its tick labels (the x axis of these charts has none but "0"…"50"). */
  const yTicks = (svg: string) => {
    const texts = svgTexts(svg);
    return texts.filter((t) => /^[-+0-9.,e\u2212]+$/.test(t));
  };
  const decades = series(51, (i) => 10 ** (-8 + i / 5)); // 1e-8 … 100

  it('log axes: plain numbers from 0.001 to 9999, powers of ten outside, never "e+" (line, scatter, error-against-bar)', async () => {
    const charts = [
      lineChart({ title: 'L', data: decades, x: 't', y: 'y', xTitle: 'T', yTitle: 'Y', logY: true }),
      scatter({ title: 'S', data: [...decades, { t: 1, y: 3e5 }], x: 't', y: 'y', xTitle: 'T', yTitle: 'Y', logY: true }),
      errorAgainstBarChart({
        title: 'E',
        data: decades.map((d) => ({ ...d, field: 'q' })),
        field: 'field',
        error: 'y',
        bar: 1e-3,
        xTitle: 'F',
        yTitle: 'Y',
      }),
    ];
    for (const spec of charts) {
      const ticks = yTicks(await renderSvg(spec));
      expect(
        ticks.some((t) => t.includes('e+')),
        ticks.join(' '),
      ).toBe(false);
      expect(ticks).toEqual(expect.arrayContaining(['1e-8', '1e-6', '0.001', '0.1', '1', '10', '100']));
    }
  });

  it('a linear axis in "~g" writes a large tick as "2e6", not "2e+6"', async () => {
    const big = series(50, (i) => i * 1e5);
    const ticks = yTicks(await renderSvg(lineChart({ title: 'B', data: big, x: 't', y: 'y', xTitle: 'T', yTitle: 'Y', yFormat: '~g' })));
    expect(
      ticks.some((t) => t.includes('e+')),
      ticks.join(' '),
    ).toBe(false);
    expect(ticks).toContain('2e6');
  });
});

describe('renderSvg side effects', () => {
  it('leaves the caller spec untouched, so it can be rendered twice', async () => {
    const spec = lineChart({ title: 'Twice', data: series(10, (i) => i), x: 't', y: 'y', xTitle: 'T', yTitle: 'Y' });
    const before = JSON.stringify(spec);
    const row = ((spec.data as JsonObject).values as JsonObject[])[0];
    const a = await renderSvg(spec);
    expect(Object.getOwnPropertySymbols(row)).toEqual([]);
    expect(JSON.stringify(spec)).toBe(before);
    expect(await renderSvg(spec)).toBe(a);
  });
});
