// node render_chart.mjs SPEC.vl.json: the SVG that the house renderer (src/reports/render.ts, built in
// dist/) makes of a Vega-Lite spec, on stdout. Used by test_python_benches.py: a chart that vega-lite
// cannot compile, or that vega cannot lay out, fails here as it would in a report.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const { renderSvg } = await import(`${repo}dist/reports/render.js`);
process.stdout.write(await renderSvg(JSON.parse(readFileSync(process.argv[2], 'utf8'))));
