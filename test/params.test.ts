// Per-robot model parameters (src/params/): a robot with drawn parameters runs exactly as the scene with
// its values written in (the params gate, at every lane width and thread count), each planted bug is
// caught by that gate, and a sweep with randomize.model gives the same rows whatever its batch, lanes
// or threads.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { engineAddon } from '../src/engine/native.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { withParameters } from '../src/params/apply.js';
import { PARAMETER_BUGS, setParameterBug } from '../src/params/bugs.js';
import { planSweep } from '../src/sweep/plan.js';
import { runRobots } from '../src/sweep/run-robots.js';
import { readSweepFile } from '../src/sweep/sweep-file.js';
import { paramsRows } from '../src/validation/params/stage.js';
import { SCENES } from './helpers/cli.js';

const quadruped = () => loadScene(join(SCENES, 'quadruped.arow'));

afterEach(() => setParameterBug('none'));

describe('per-robot model parameters', () => {
  it('mass_scale scales the mass and the inertia together; no values: the model itself', () => {
    const m = quadruped();
    expect(withParameters(m, [])).toBe(m);
    const torso = m.bodies.findIndex((b) => b.name === 'torso');
    const s = withParameters(m, [{ target: { kind: 'mass_scale', body: torso }, value: 1.5 }]);
    expect(s.bodies[torso].mass).toBe(m.bodies[torso].mass * 1.5);
    expect(s.bodies[torso].inertia).toEqual(m.bodies[torso].inertia.map((x) => x * 1.5));
    expect(s.bodies[torso].com).toEqual(m.bodies[torso].com);
    expect(m.bodies[torso].mass).toBe(quadruped().bodies[torso].mass); // the scene's model untouched
  });

  it('the params gate: bit-identical to the constants scene at lanes 1/8/16 and threads 1/2', () => {
    const rows = paramsRows('f64', engineAddon(), 1);
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.filter((r) => r.status !== 'pass')).toEqual([]);
  });

  it.each(PARAMETER_BUGS)('the gate catches the planted bug %s', (bug) => {
    setParameterBug(bug);
    const failed = paramsRows('f64', engineAddon(), 1).filter((r) => r.status === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    // the lane-width bug shows only where the width is not 1
    if (bug === 'params-draw-lane-width') expect(failed.every((r) => !r.field.includes('lanes 1 '))).toBe(true);
  });

  it('a sweep with randomize.model: the same rows at any lanes and threads, each robot its own draws', async () => {
    const s = readSweepFile(join(SCENES, 'sweeps', 'quadruped-params.yaml'));
    const plan = planSweep(s, loadScene(s.scene));
    plan.steps = 40;
    const run = (lanes: 1 | 8, threads: number) =>
      runRobots(plan, { first: 0, end: 4, batchSize: 64, lanes, threads, shouldStop: () => false });
    const a = await run(1, 1);
    const b = await run(8, 2);
    expect(b.results).toBe(a.results);
    expect(b.traces).toBe(a.traces);
    // robots differ in their drawn values
    const masses = a.results
      .trim()
      .split('\n')
      .map((row) => row.split(',')[2]);
    expect(new Set(masses).size).toBe(4);
  });
});

describe('withNamedParameters (the TypeScript API)', () => {
  it('writes values by name and refuses a name the model lacks or a value that breaks it', async () => {
    const { withNamedParameters } = await import('../src/index.js');
    const m = quadruped();
    const s = withNamedParameters(m, { 'gravity.z': -9.7, 'friction:ground': 0.4 });
    expect(s.world.gravity[2]).toBe(-9.7);
    expect(s.shapes!.find((x) => x.name === 'ground')!.friction).toBe(0.4);
    expect(() => withNamedParameters(m, { 'mass_scale:nope': 1 })).toThrow(/mass_scale:nope: found no link `nope`/);
    expect(() => withNamedParameters(m, { 'mass_scale:torso': 0 })).toThrow(/expected a scale > 0/);
    expect(() => withNamedParameters(m, { 'ctrl_range:front_left_hip.high': -2 })).toThrow(/above the low end/);
  });
});
