// The run's sensor chart (the seed's "one joint read by each sensor model"): for the first recorded
// robot, one panel per joint that encoders read, its true coordinate beside every encoder reading
// it; then the IMU's gyro and accelerometer channels and the camera's reported positions.

import type { ModelDesc, SensorDesc } from '../engine/model-desc.js';
import { coordinateNames } from '../engine/batch.js';
import { lineChart, vconcat, type Datum, type VlSpec } from '../reports/charts.js';
import { sensorChannels } from './bank.js';

/** What the chart needs of the recorder. */
export interface SensorTrace {
  rows: readonly (readonly number[])[];
  robots: readonly number[];
  index(column: string): number;
}

const POINTS = 1500;

/** A short description of an encoder's models, for its legend entry. */
export function encoderLabel(s: Extract<SensorDesc, { kind: 'encoder' }>): string {
  const parts: string[] = [];
  if (s.noise > 0) parts.push(`noise σ ${s.noise}`);
  if (s.drift) parts.push(`drift σ ${s.drift.sigma}, τ ${s.drift.tau} s`);
  if (s.cutoff !== undefined) parts.push(`low-pass ${s.cutoff} Hz`);
  if (s.scale !== 0) parts.push(`scale ${s.scale > 0 ? '+' : ''}${+(s.scale * 100).toPrecision(6)}%`);
  if (s.quantum > 0) parts.push(`quantum ${s.quantum}`);
  return `${s.name} (${parts.join(', ') || 'ideal'})`;
}

export function sensorChart(model: ModelDesc, rec: SensorTrace, sceneName: string): VlSpec | null {
  const sensors = model.sensors ?? [];
  if (!sensors.length) return null;
  const robot = rec.robots[0];
  const iT = rec.index('time');
  const iR = rec.index('robot');
  const mine = rec.rows.filter((row) => row[iR] === robot);
  const qNames = coordinateNames(model).q;
  const qOffsets: number[] = [];
  let off = 0;
  for (const b of model.bodies) {
    qOffsets.push(off);
    off += { revolute: 1, prismatic: 1, ball: 4, free: 7, planar: 3, fixed: 0 }[b.joint];
  }
  const charts: VlSpec[] = [];
  const series = (pairs: { label: string; column: number }[]): Datum[] =>
    pairs.flatMap(({ label, column }) => mine.map((row) => ({ time: row[iT], series: label, value: row[column] })));
  // One panel per encoded coordinate: the truth first, then each encoder in scene order.
  const byCoordinate = new Map<number, Extract<SensorDesc, { kind: 'encoder' }>[]>();
  for (const s of sensors)
    if (s.kind === 'encoder')
      byCoordinate.set(qOffsets[s.body] + s.coordinate, [...(byCoordinate.get(qOffsets[s.body] + s.coordinate) ?? []), s]);
  for (const [k, encs] of byCoordinate) {
    const pairs = [
      { label: `true ${qNames[k]}`, column: rec.index(`q:${qNames[k]}`) },
      ...encs.map((s) => ({ label: encoderLabel(s), column: rec.index(`sensor:${s.name}`) })),
    ];
    charts.push(
      lineChart({
        title: `${qNames[k]}: the true coordinate and each encoder reading it (robot ${robot})`,
        data: series(pairs),
        x: 'time',
        y: 'value',
        color: 'series',
        colorOrder: pairs.map((p) => p.label),
        xTitle: 'time (s)',
        yTitle: 'reading',
        height: 280,
        yFormat: '~g',
        maxPoints: POINTS,
      }),
    );
  }
  for (const s of sensors) {
    if (s.kind === 'encoder') continue;
    const names = sensorChannels(s);
    const groups =
      s.kind === 'imu'
        ? [
            { what: 'gyro (rad/s)', ch: names.slice(0, 3) },
            { what: 'accelerometer (m/s²)', ch: names.slice(3, 6) },
          ]
        : [{ what: `reported position (m), ${s.rate} Hz, ${s.latency * 1000} ms late`, ch: names.slice(0, 3) }];
    for (const g of groups) {
      const pairs = g.ch.map((c) => ({ label: c, column: rec.index(`sensor:${c}`) }));
      const data =
        s.kind === 'camera'
          ? series(pairs).filter((_, i) => mine[i % mine.length][rec.index(`sensor:${s.name}.stamp`)] >= 0)
          : series(pairs);
      charts.push(
        lineChart({
          title: `${s.name}: ${g.what} (robot ${robot})`,
          data,
          x: 'time',
          y: 'value',
          color: 'series',
          colorOrder: g.ch,
          xTitle: 'time (s)',
          yTitle: g.what,
          height: 200,
          yFormat: '~g',
          maxPoints: POINTS,
        }),
      );
    }
  }
  return vconcat({ title: `${sceneName}: sensor readings`, charts });
}
