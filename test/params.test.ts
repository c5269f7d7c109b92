// Per-robot model parameters (src/params/): a robot with drawn parameters runs exactly as the scene with
// its values written in (the params gate, at every lane width and thread count), each planted bug is
// caught by that gate, and a sweep with randomize.model gives the same rows whatever its batch, lanes
// or threads.
import { readFileSync, writeFileSync } from 'node:fs';
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
import { cli, SCENES, tempDir } from './helpers/cli.js';
import type { SceneRandomization } from '../src/model-files/scene/randomize-read.js';
import { draw, parameterKey } from '../src/params/draws.js';

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

describe("a scene's randomize: block", () => {
  const dir = tempDir('achilles-params-');
  const block = (model: string) => `randomize:\n  seed: 9\n  initial:\n    q:torso.z: { uniform: [0.4, 0.5] }\n${model}links:`;
  const scene = (name: string, model: string): string => {
    const file = join(dir, name);
    writeFileSync(file, readFileSync(join(SCENES, 'quadruped.arow'), 'utf8').replace(/^links:/m, block(model)));
    return file;
  };
  const withModel = scene('model.arow', '  model:\n    mass_scale:torso: { uniform: [0.8, 1.2] }\n');

  it('is read with its own seed by the commands that honour it, and refused by the others at its line', () => {
    let r: SceneRandomization | undefined;
    loadScene(withModel, { randomize: (x) => (r = x) });
    expect(r!.seed).toBe(9);
    expect(r!.initial.map((d) => d.name)).toEqual(['q:torso.z']);
    expect(r!.model.map((d) => d.name)).toEqual(['mass_scale:torso']);
    expect(() => loadScene(withModel)).toThrow(
      /model\.arow:27:1: randomize: found a `randomize:` block .*honoured by `achilles run` and `achilles sweep` only/,
    );
    const bad = scene('bad.arow', '  model:\n    mass_scale:tail: { uniform: [0.8, 1.2] }\n');
    expect(() => loadScene(bad, { randomize: () => undefined })).toThrow(
      /bad\.arow:32:5: randomize\.model\.mass_scale:tail: found no link `tail`/,
    );
  });

  it('achilles run: each robot its initial draw; drawn masses of a model with contacts share the batch, one robot per lane', async () => {
    const initialOnly = scene('initial.arow', '');
    const out = join(dir, 'out');
    const ok = await cli('run', initialOnly, '--duration', '0.004', '--copies', '3', '--robots', '0,2', '--out', out);
    expect(ok.code).toBe(0);
    const trace = readFileSync(join(out, 'trace.csv'), 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    const head = trace[0].split(',');
    const col = head.indexOf('q:torso.z');
    const first = (robot: number) => Number(trace.find((l) => l.split(',')[head.indexOf('robot')] === String(robot))!.split(',')[col]);
    for (const robot of [0, 2])
      expect(first(robot)).toBe(draw({ kind: 'uniform', low: 0.4, high: 0.5 }, 9, robot, parameterKey('q:torso.z')));
    const many = await cli('run', withModel, '--duration', '0.004', '--copies', '2', '--out', join(dir, 'out2'));
    expect(many.code, many.stderr).toBe(0);
  });

  it("achilles sweep adds the scene's draws with the scene's seed; one drawn by both is refused at the sweep's entry", () => {
    const sweepFile = (body: string) => {
      const f = join(dir, 'sweep.yaml');
      writeFileSync(f, `sweep: t\nscene: ${withModel}\nrobots: 2\nseed: 4\n${body}`);
      return f;
    };
    const plan = (f: string) => {
      let r: SceneRandomization | undefined;
      const m = loadScene(withModel, { randomize: (x) => (r = x) });
      return planSweep(readSweepFile(f), m, r);
    };
    const p = plan(sweepFile('randomize:\n  model:\n    gravity.z: { uniform: [-10, -9] }\n'));
    expect(p.modelDraws.map((d) => [d.name, d.seed])).toEqual([
      ['mass_scale:torso', 9],
      ['gravity.z', undefined],
    ]);
    expect(p.draws.map((d) => [d.name, d.seed])).toEqual([['q:torso.z', 9]]);
    expect(() => plan(sweepFile('randomize:\n  initial:\n    q:torso.z: { uniform: [0.3, 0.4] }\n'))).toThrow(
      /sweep\.yaml:7:5: randomize\.initial\.q:torso\.z: found `q:torso\.z`, which the scene's randomize block draws too/,
    );
  });
});

// Issue 56: a value that overflows is refused where it is given, naming the parameter (and the
// --parameters flag, or the sweep entry's FILE:LINE:COL), never written out as 1e999 or left to the
// engine to refuse as "singular model" with no place.
describe('parameters whose derived model overflows', () => {
  const dir = tempDir('achilles-params-overflow-');
  const quadrupedFile = join(SCENES, 'quadruped.arow');
  const compile = (parameters: string) =>
    cli('compile', quadrupedFile, '--parameters', parameters, '--out', join(dir, 'm.json'), '--force');

  it('compile --parameters: a mass scale or centre of mass whose mass properties overflow names the parameter and the flag', async () => {
    const huge = await compile('{"mass_scale:torso": 1e308}');
    expect(huge.code).not.toBe(0);
    expect(huge.stderr).toMatch(/--parameters mass_scale:torso: found 1e\+308, expected .*link torso gets a mass of Infinity/);
    const far = await compile('{"com_offset:torso.x": 1e200}');
    expect(far.stderr).toMatch(/--parameters com_offset:torso\.x: found 1e\+200, .*parallel-axis inertia m·\|c\|² = .* of Infinity/);
    // finite, but beyond what the engine's load check can judge: its refusal, named by the parameter
    const large = await compile('[{"mass_scale:torso": 2}, {"mass_scale:torso": 1e300}]');
    expect(large.stderr).toMatch(
      /--parameters\[1\] mass_scale:torso: found 1e\+300, expected a value the engine can run: with it, the engine refuses the model \(joint 'torso': singular model/,
    );
    expect((await compile('{"mass_scale:torso": 2}')).code).toBe(0);
  });

  it("a sweep's draw that can overflow is refused at its entry, by the distribution and its reach", () => {
    const sweep = (model: string) => {
      const f = join(dir, 'sweep.yaml');
      writeFileSync(f, `sweep: t\nscene: ${quadrupedFile}\nrobots: 2\nseed: 4\nrandomize:\n  model:\n${model}`);
      return () => planSweep(readSweepFile(f), loadScene(quadrupedFile));
    };
    expect(sweep('    com_offset:torso.x: { uniform: [1e307, 1e308] }\n')).toThrow(
      /sweep\.yaml:7:5: randomize\.model\.com_offset:torso\.x: found uniform\(1e\+307, 1e\+308\), which can draw 1e\+308, expected .*parallel-axis inertia/,
    );
    // a normal draw lies within mean ± 8.57 std: its farthest value is what is checked
    expect(sweep('    mass_scale:torso: { uniform: [1, 2] }\n    com_offset:torso.y: { normal: [0, 1e99] }\n')).toThrow(
      /sweep\.yaml:8:5: randomize\.model\.com_offset:torso\.y: found normal\(0, 1e\+99\), which can draw -?8\.57\d*e\+99, expected a value the engine can run/,
    );
    expect(sweep('    com_offset:torso.y: { normal: [0, 1e308] }\n')).toThrow(
      /sweep\.yaml:7:39: randomize\.model\.com_offset:torso\.y\.normal std: found 1e\+308, expected a standard deviation whose draws stay finite/,
    );
    expect(sweep('    com_offset:torso.x: { normal: [0, 0.02] }\n')().modelDraws).toHaveLength(1);
  });

  it('withParameters itself refuses a value whose mass properties overflow, naming it', () => {
    const m = quadruped();
    const torso = m.bodies.findIndex((b) => b.name === 'torso');
    expect(() => withParameters(m, [{ target: { kind: 'mass_scale', body: torso }, value: 1e308, name: 'mass_scale:torso' }])).toThrow(
      /^mass_scale:torso: found 1e\+308, which gives link torso a mass of Infinity/,
    );
  });
});
