// Run charts that do not mislead (issue 7): one panel (y-axis) per unit, quaternions as rotation
// angles, at most MAX_SERIES series per panel (the most active, with a note), legends in natural
// order, and a spec whose size does not grow with the number of links.
import { describe, expect, test } from 'vitest';
import type { BodyDesc, JointType, ModelDesc } from '../src/engine/model-desc.js';
import { coordinateNames } from '../src/engine/batch.js';
import { MAX_SERIES, naturalSort, selectSeries, type JsonObject } from '../src/reports/charts.js';
import { renderSvg } from '../src/reports/render.js';
import { positionChart } from '../src/run/position-chart.js';

const ZERO_Q: Record<JointType, number[]> = {
  revolute: [0],
  prismatic: [0],
  ball: [1, 0, 0, 0],
  free: [0, 0, 0, 1, 0, 0, 0],
  planar: [0, 0, 0],
  fixed: [],
};

function model(joints: JointType[]): ModelDesc {
  const bodies = joints.map((joint, i) => ({
    name: `q${i}`,
    parent: i - 1,
    joint,
    axis: [1, 0, 0],
    pos: [0, 0, 0],
    quat: [1, 0, 0, 0],
    mass: 1,
    com: [0, 0, 0],
    inertia: [1, 1, 1, 0, 0, 0],
    q0: ZERO_Q[joint],
    v0: [],
    tau: [],
  }));
  return {
    name: 'm',
    bodies: bodies as unknown as BodyDesc[],
    world: { gravity: [0, 0, -9.81], dt: 0.01, integrator: 'euler', duration: 1, substeps: 1 },
    files: [],
  } as unknown as ModelDesc;
}

/** A recorder look-alike: `records` rows per robot, coordinate k moving with amplitude amp(k). */
function recorder(m: ModelDesc, records: number, robots = [0], amp = (k: number) => k + 1) {
  const q = coordinateNames(m).q.map((n) => `q:${n}`);
  const cols = ['step', 'time', 'robot', ...q];
  const rows: number[][] = [];
  for (let s = 0; s < records; s++) for (const r of robots) rows.push([s, s * 0.01, r, ...q.map((_, k) => amp(k) * Math.sin(s / 50))]);
  return { rows, robots, index: (c: string) => cols.indexOf(c) };
}

const panels = (spec: JsonObject): JsonObject[] => spec.vconcat as JsonObject[];
const yTitle = (p: JsonObject): string => ((p.encoding as JsonObject).y as JsonObject).title as string;
const legend = (p: JsonObject): string[] => (((p.encoding as JsonObject).color as JsonObject).scale as JsonObject).domain as string[];

describe('position chart', () => {
  test('one panel per unit; ball and free orientations as rotation angles, never raw components', () => {
    const m = model(['free', 'revolute', 'prismatic', 'ball', 'planar']);
    const spec = positionChart(m, recorder(m, 20), 'm');
    const ps = panels(spec);
    expect(ps.map(yTitle)).toEqual(['angle (rad)', 'position (m)']);
    expect(legend(ps[0])).toEqual(['q0 (rotation angle)', 'q1', 'q3 (rotation angle)', 'q4.theta']);
    expect(legend(ps[1])).toEqual(['q0.x', 'q0.y', 'q0.z', 'q2', 'q4.x', 'q4.y']);
    expect(JSON.stringify(spec)).not.toMatch(/\.q[wxyz]"/);
  });

  test('many joints: at most MAX_SERIES series, the most active ones, with a note, in natural order', () => {
    const m = model(Array.from({ length: 26 }, () => 'revolute' as JointType));
    const p = panels(positionChart(m, recorder(m, 50), 'm'))[0];
    const shown = legend(p);
    expect(shown).toHaveLength(MAX_SERIES);
    // amplitude grows with the index: the last ten move most
    expect(shown).toEqual(Array.from({ length: 10 }, (_, i) => `q${16 + i}`));
    expect((p.title as JsonObject).subtitle).toBe('the 10 of 26 angles with the largest range; all are in trace.csv');
  });

  test('natural order: q2 before q10, robot 9 before robot 10', () => {
    expect(naturalSort(['q10', 'q2', 'q1'])).toEqual(['q1', 'q2', 'q10']);
    const rows = ['robot 10', 'robot 9', 'robot 2'].map((series) => ({ series, y: 1 }));
    expect(selectSeries(rows, 'series', 'y').shown).toEqual(['robot 2', 'robot 9', 'robot 10']);
  });

  test('the spec stays small with 2,000 links (was 22 MB)', () => {
    const m = model(Array.from({ length: 2000 }, (_, i) => (i % 5 === 0 ? 'prismatic' : 'revolute') as JointType));
    const bytes = JSON.stringify(positionChart(m, recorder(m, 1001), 'm'), null, 2).length;
    expect(bytes).toBeLessThan(2_000_000);
  });

  test('it renders', async () => {
    const m = model(['free', 'revolute', 'ball']);
    const svg = await renderSvg(positionChart(m, recorder(m, 30, [0, 1]), 'm'));
    expect(svg).toContain('angle (rad)');
    expect(svg).toContain('position (m)');
    expect(svg).toContain('robot 1: q2 (rotation angle)');
  });
});
