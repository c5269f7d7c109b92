// The run's position chart: one panel per unit, so no axis mixes radians and metres.
//   angles (rad):     revolute and planar θ coordinates, and each ball/free joint's rotation
//                     angle 2·atan2(|q_xyz|, |q_w|) (its quaternion's four components share no unit
//                     with anything and are in trace.csv)
//   positions (m):    prismatic, free x/y/z and planar x/y coordinates
// Each panel shows at most MAX_SERIES series (the ones that move most, with a note saying so),
// legends in natural order, each series downsampled: the spec stays small with thousands of links.

import { JOINT_NQ, type ModelDesc } from '../engine/model-desc.js';
import { coordinateNames } from '../engine/batch.js';
import { lineChart, MAX_SERIES, selectSeries, vconcat, type Datum, type VlSpec } from '../reports/charts.js';
import type { Recorder } from './recorder.js';

/** Points per series in the chart (the trace has every record). */
const CHART_POINTS = 600;

type Unit = 'rad' | 'm';

interface Coordinate {
  name: string;
  unit: Unit;
  /** Columns of the trace row it is computed from: one, or a quaternion's four (w, x, y, z). */
  columns: number[];
}

/** What the chart draws for a model: each coordinate with its unit and trace columns. */
export function chartedCoordinates(model: ModelDesc, rec: Pick<Recorder, 'index'>): Coordinate[] {
  const names = coordinateNames(model).q;
  const col = (k: number): number => rec.index(`q:${names[k]}`);
  const out: Coordinate[] = [];
  let k = 0;
  for (const b of model.bodies) {
    const unitsByJoint: Record<string, Unit[]> = {
      revolute: ['rad'],
      prismatic: ['m'],
      planar: ['m', 'm', 'rad'],
      free: ['m', 'm', 'm'],
      ball: [],
      fixed: [],
    };
    unitsByJoint[b.joint].forEach((unit, i) => out.push({ name: names[k + i], unit, columns: [col(k + i)] }));
    if (b.joint === 'ball' || b.joint === 'free') {
      const q0 = k + (b.joint === 'free' ? 3 : 0);
      out.push({ name: `${b.name} (rotation angle)`, unit: 'rad', columns: [0, 1, 2, 3].map((i) => col(q0 + i)) });
    }
    k += JOINT_NQ[b.joint];
  }
  return out;
}

function value(row: readonly number[], c: Coordinate): number {
  if (c.columns.length === 1) return row[c.columns[0]];
  const [w, x, y, z] = c.columns.map((i) => row[i]);
  return 2 * Math.atan2(Math.hypot(x, y, z), Math.abs(w));
}

const PANELS: { unit: Unit; title: string; yTitle: string; what: string }[] = [
  { unit: 'rad', title: 'angles', yTitle: 'angle (rad)', what: 'angles' },
  { unit: 'm', title: 'positions', yTitle: 'position (m)', what: 'positions' },
];

export function positionChart(model: ModelDesc, rec: Pick<Recorder, 'index' | 'rows' | 'robots'>, sceneName: string): VlSpec {
  const coords = chartedCoordinates(model, rec);
  const iT = rec.index('time');
  const iR = rec.index('robot');
  const many = rec.robots.length > 1;
  const charts: VlSpec[] = [];
  for (const p of PANELS) {
    const mine = coords.filter((c) => c.unit === p.unit);
    if (mine.length === 0) continue;
    const data: Datum[] = [];
    for (const row of rec.rows) {
      for (const c of mine) data.push({ time: row[iT], series: many ? `robot ${row[iR]}: ${c.name}` : c.name, value: value(row, c) });
    }
    const sel = selectSeries(data, 'series', 'value', MAX_SERIES, p.what);
    charts.push(
      lineChart({
        title: `${p.title} (${p.unit})`,
        ...(sel.note ? { subtitle: sel.note } : {}),
        data: sel.rows,
        x: 'time',
        y: 'value',
        color: 'series',
        colorOrder: sel.shown,
        xTitle: 'time (s)',
        yTitle: p.yTitle,
        height: 260,
        yFormat: '~g',
        maxPoints: CHART_POINTS,
      }),
    );
  }
  return vconcat({ title: `${sceneName}: joint positions`, charts });
}
