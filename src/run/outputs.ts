// The files of one run, staged into an OutputSet (they appear together on commit, or not at all):
//   trace.csv                      the records, `# key: value` provenance header
//   run.json                       the same provenance + the summary + the column list
//   joint-angles.vl.json / .svg    the coordinates over time, one panel per unit (position-chart.ts)
//   energy-drift.vl.json / .svg    total energy minus its initial value, over time
//   contacts.csv, contacts.vl.json / .svg   when the scene has shape pairs (see contacts.ts)
//   actuator-forces.vl.json / .svg          when the scene has actuators: each one's force over time

import type { OutputSink } from '../reports/atomic.js';
import { lineChart, MAX_SERIES, selectSeries } from '../reports/charts.js';
import { sidecarJson, toCsv, type MetaValue } from '../reports/csv.js';
import { writeChart } from '../reports/render.js';
import { positionChart } from './position-chart.js';
import { writeContactFiles } from './contacts.js';
import type { Recorder } from './recorder.js';
import { sensorChart } from '../sensors/chart.js';
import type { RunSummary } from './summary.js';

export const RUN_FILES = [
  'trace.csv',
  'run.json',
  'joint-angles.vl.json',
  'joint-angles.svg',
  'energy-drift.vl.json',
  'energy-drift.svg',
] as const;

export async function writeRunFiles(
  sink: OutputSink,
  rec: Recorder,
  meta: Record<string, MetaValue>,
  summary: RunSummary,
  sceneName: string,
): Promise<string[]> {
  const written: string[] = [];
  written.push(await sink.write('trace.csv', toCsv(rec.objects(), { columns: rec.columns.all, meta })));
  written.push(
    await sink.write(
      'run.json',
      sidecarJson({
        metadata: meta,
        summary,
        columns: rec.columns.all,
        notes: {
          time: 'every value in a row belongs to the time in that row: q, v and the energies are the state after `step` steps, qacc is the acceleration at that state',
          drift: 'total - total at t = 0 (J), per robot',
          relative_drift: 'drift / max(|E(0)|, peak kinetic energy over the run)',
        },
      }),
    ),
  );
  const angles = positionChart(rec.model, rec, sceneName);
  const a = await writeChart(sink, 'joint-angles', angles);
  written.push(a.specPath, a.svgPath);
  const driftRows = rec.rows.map((row) => ({
    time: row[rec.index('time')],
    series: `robot ${row[rec.index('robot')]}`,
    drift: row[rec.index('drift')],
  }));
  const sel = selectSeries(driftRows, 'series', 'drift', MAX_SERIES, 'robots');
  const drift = lineChart({
    title: `${sceneName}: total energy minus initial`,
    ...(sel.note ? { subtitle: sel.note } : {}),
    data: sel.rows,
    x: 'time',
    y: 'drift',
    color: 'series',
    colorOrder: sel.shown,
    xTitle: 'time (s)',
    yTitle: 'energy drift (J)',
  });
  const d = await writeChart(sink, 'energy-drift', drift);
  written.push(d.specPath, d.svgPath);
  if (rec.contacts) written.push(...(await writeContactFiles(sink, rec.contacts, meta, sceneName)));
  const sensors = rec.readings ? sensorChart(rec.model, rec, sceneName) : null; // sensors.vl.json / .svg
  if (sensors) {
    const s = await writeChart(sink, 'sensors', sensors);
    written.push(s.specPath, s.svgPath);
  }
  if (rec.columns.force.length) {
    const forceRows = rec.rows.flatMap((row) =>
      rec.columns.force.map((c) => ({
        time: row[rec.index('time')],
        series: `${c.slice('force:'.length)}${rec.robots.length > 1 ? ` (robot ${row[rec.index('robot')]})` : ''}`,
        force: row[rec.index(c)],
      })),
    );
    const fsel = selectSeries(forceRows, 'series', 'force', MAX_SERIES, 'actuators');
    const chart = lineChart({
      title: `${sceneName}: actuator forces`,
      subtitle: fsel.note ?? 'each force over the step that ends at the time shown (effort on the joint = gear × force)',
      data: fsel.rows,
      x: 'time',
      y: 'force',
      color: 'series',
      colorOrder: fsel.shown,
      xTitle: 'time (s)',
      yTitle: 'actuator force (N·m or N)',
    });
    const f = await writeChart(sink, 'actuator-forces', chart);
    written.push(f.specPath, f.svgPath);
  }
  return written;
}
