// Contacts of the recorded robots, at every record of `achilles run`. The batch's constrain() runs
// detection and the constraint solve at the recorded state exactly as the next step starts it, and
// lists each robot's active points pair by pair in (shape a, shape b) order, point slots 0..4 within
// a pair, so the rows come out in the same order at every lane width, batch size and thread count.
//   contacts.csv                  one row per active slot: time, robot, the two shapes, point,
//                                 normal (from the first shape to the second), signed distance, and
//                                 the contact force: normal fn and friction ft1, ft2 along the
//                                 contact frame's tangents (MuJoCo's mj_contactForce convention)
//   contacts.vl.json / .svg       contact count and minimum distance over time, per robot

import type { Batch } from '../engine/batch.js';
import type { ModelDesc } from '../engine/model-desc.js';
import type { OutputSink } from '../reports/atomic.js';
import { lineChart, VL_SCHEMA, type Datum, type VlSpec } from '../reports/charts.js';
import { toCsv, type MetaValue } from '../reports/csv.js';

/** What the recorder needs from a batch: detection at the current state and each robot's points. */
export type ContactSource = Pick<Batch, 'constrain' | 'contacts'>;

export const CONTACT_COLUMNS = [
  'step',
  'time',
  'robot',
  'point',
  'shape_a',
  'shape_b',
  'x',
  'y',
  'z',
  'nx',
  'ny',
  'nz',
  'dist',
  'fn',
  'ft1',
  'ft2',
] as const;
type ContactRow = Record<(typeof CONTACT_COLUMNS)[number], number | string>;

export class ContactRecorder {
  readonly rows: ContactRow[] = [];
  /** Per record and robot: active contacts and the smallest distance among them (NaN if none). */
  readonly series: { time: number; robot: number; count: number; minDist: number }[] = [];
  constructor(
    private readonly source: ContactSource,
    private readonly model: ModelDesc,
    readonly robots: readonly number[],
  ) {}

  /** Detect and solve at the current state and record every recorded robot's active slots.
   *  `solved`: the caller has just run constrain() at this state. */
  record(step: number, time: number, solved = false): void {
    const src = this.source;
    if (!solved) src.constrain();
    const names = (this.model.shapes ?? []).map((x) => x.name);
    for (const r of this.robots) {
      const c = src.contacts(r);
      const count = c.dist.length;
      let minDist = NaN;
      for (let k = 0; k < count; k++) {
        const dist = c.dist[k];
        this.rows.push({
          step,
          time,
          robot: r,
          point: c.point[k],
          shape_a: names[c.shapeA[k]],
          shape_b: names[c.shapeB[k]],
          x: c.pos[3 * k],
          y: c.pos[3 * k + 1],
          z: c.pos[3 * k + 2],
          nx: c.normal[3 * k],
          ny: c.normal[3 * k + 1],
          nz: c.normal[3 * k + 2],
          dist,
          fn: c.force[3 * k],
          ft1: c.force[3 * k + 1],
          ft2: c.force[3 * k + 2],
        });
        if (!(dist >= minDist)) minDist = dist;
      }
      this.series.push({ time, robot: r, count, minDist });
    }
  }
}

/** The contact count and minimum distance over time, one panel each, a line per robot. */
export function contactsChart(rec: ContactRecorder, sceneName: string): VlSpec {
  const many = rec.robots.length > 1;
  const data: Datum[] = rec.series.map((x) => ({
    time: x.time,
    robot: many ? `robot ${x.robot}` : 'contacts',
    count: x.count,
    minDist: Number.isFinite(x.minDist) ? x.minDist : null,
  }));
  const panel = (y: string, yTitle: string) => {
    const { $schema: _, ...spec } = lineChart({ title: yTitle, data, x: 'time', y, color: 'robot', xTitle: 'time (s)', yTitle });
    return spec;
  };
  return {
    $schema: VL_SCHEMA,
    title: `${sceneName}: contacts`,
    vconcat: [panel('count', 'active contacts'), panel('minDist', 'minimum signed distance (m)')],
  };
}

/** contacts.csv and the contacts chart; nothing when the model has no candidate pairs. */
export async function writeContactFiles(
  sink: OutputSink,
  rec: ContactRecorder,
  meta: Record<string, MetaValue>,
  sceneName: string,
): Promise<string[]> {
  const written = [
    await sink.write(
      'contacts.csv',
      toCsv(rec.rows, {
        columns: CONTACT_COLUMNS,
        meta: {
          ...meta,
          contacts:
            "one row per active contact point (point: its slot 0..4 in the pair shape_a, shape_b); normal from shape_a to shape_b; dist < 0: penetration; fn, ft1, ft2: the contact force (N) along the normal and the two tangents of MuJoCo's contact frame (0 while dist >= margin)",
        },
      }),
    ),
  ];
  // vega is loaded when a chart is drawn, not with the recorder (the fuzz child records without charts)
  const { writeChart } = await import('../reports/render.js');
  const c = await writeChart(sink, 'contacts', contactsChart(rec, sceneName));
  written.push(c.specPath, c.svgPath);
  return written;
}
