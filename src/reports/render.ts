// Headless chart rendering: Vega-Lite -> Vega -> SVG string. The 'none'
// renderer plus toSVG() needs no canvas package; without one, Vega estimates
// text widths instead of measuring them, which is fine for report charts.
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { VlSpec } from './charts.js';
import { dirSink, type OutputSink } from './atomic.js';

/** Compile a Vega-Lite spec and render it to an SVG document string. */
export async function renderSvg(vlSpec: VlSpec): Promise<string> {
  // Vega tags inline data rows in place (a Symbol id per datum) and compile may normalize
  // the spec, so work on a copy: the caller may still serialize or re-render its spec.
  // VlSpec is plain JSON by construction; vega-lite checks the structure while compiling.
  const { spec } = compile(structuredClone(vlSpec) as unknown as TopLevelSpec);
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  try {
    await view.runAsync();
    // Clip-path/gradient ids come from a process-wide counter; restart it so the same
    // spec always yields byte-identical SVG (reproducible reports, meaningful diffs).
    vega.resetSVGDefIds();
    return await view.toSVG();
  } finally {
    view.finalize(); // release timers/listeners so the CLI can exit promptly
  }
}

export interface WrittenChart {
  specPath: string;
  svgPath: string;
}

/**
 * Write `<baseName>.vl.json` (the editable spec) and `<baseName>.svg` into an
 * OutputSet (staged until commit) or a directory (each file atomically).
 * The SVG is rendered first so a spec that fails to compile writes nothing.
 */
export async function writeChart(target: OutputSink | string, baseName: string, spec: VlSpec): Promise<WrittenChart> {
  const sink = typeof target === 'string' ? dirSink(target) : target;
  const svg = await renderSvg(spec);
  const specPath = await sink.write(`${baseName}.vl.json`, `${JSON.stringify(spec, null, 2)}\n`);
  const svgPath = await sink.write(`${baseName}.svg`, svg);
  return { specPath, svgPath };
}
