// Contacts of the recorded robots, at every record of `achilles run`. The batch's constrain() runs
// detection and the constraint solve at the recorded state exactly as the next step starts it, and
// fills fixed slots, (pair, point) in that order, so the rows come out in the same order at every
// lane width, batch size and thread count.
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

/** What the recorder needs from a batch: detection at the current state and its output slots
 *  (component k of robot r at k·stride + r; P candidate pairs, 4 point slots each). */
export type ContactSource = Pick<
  Batch,
  'stride' | 'constrain' | 'pairs' | 'contactActive' | 'contactDist' | 'contactPos' | 'contactNormal' | 'contactForce'
>;

export const CONTACT_COLUMNS = [
  'step',
  'time',
  'robot',
  'pair',
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

export const POINTS_PER_PAIR = 4;

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
    const f = { active: src.contactActive, dist: src.contactDist, pos: src.contactPos, normal: src.contactNormal, force: src.contactForce };
    const s = src.stride;
    const names = (this.model.shapes ?? []).map((x) => x.name);
    for (const r of this.robots) {
      let count = 0;
      let minDist = NaN;
      src.pairs.forEach(({ a, b }, p) => {
        for (let i = 0; i < POINTS_PER_PAIR; i++) {
          const slot = p * POINTS_PER_PAIR + i;
          if (!f.active[slot * s + r]) continue;
          const dist = f.dist[slot * s + r];
          const at = (k: number) => f.pos[(slot * 3 + k) * s + r];
          const n = (k: number) => f.normal[(p * 3 + k) * s + r];
          const force = (k: number) => f.force[(slot * 3 + k) * s + r];
          this.rows.push({
            step,
            time,
            robot: r,
            pair: p,
            point: i,
            shape_a: names[a],
            shape_b: names[b],
            x: at(0),
            y: at(1),
            z: at(2),
            nx: n(0),
            ny: n(1),
            nz: n(2),
            dist,
            fn: force(0),
            ft1: force(1),
            ft2: force(2),
          });
          count++;
          if (!(dist >= minDist)) minDist = dist;
        }
      });
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
            "one row per active contact slot (pair, point); normal from shape_a to shape_b; dist < 0: penetration; fn, ft1, ft2: the contact force (N) along the normal and the two tangents of MuJoCo's contact frame (0 while dist >= margin)",
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
