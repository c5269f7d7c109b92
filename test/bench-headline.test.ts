// The bench headline "vs MuJoCo" compares like with like: for a scene with contacts, MuJoCo with
// contacts on, never the contacts-off step (which skips detection and the solve). Fake results
// with chosen rates: only the arithmetic and the labelling are under test here.
import { describe, expect, it } from 'vitest';
import { compare, type BenchResult, type BenchReport, type EngineName } from '../src/bench/run.js';
import { benchTable, machineLines } from '../src/bench/report.js';
import type { CollisionMeasure } from '../src/bench/achilles-runner.js';

function cell(engine: EngineName, scene: string, rate: number, measure?: CollisionMeasure): BenchResult {
  return {
    engine,
    scene,
    integrator: 'euler',
    precision: engine === 'achilles' ? 'f32' : 'f64',
    lanes: engine === 'achilles' ? 8 : 1,
    isa: 'x',
    copies: 64,
    threads: 1,
    ...(measure ? { measure } : {}),
    robotStepsPerSec: rate,
    usPerStep: 1,
    usPerRobotStep: 1,
    spread: 0,
    minRobotStepsPerSec: rate,
    maxRobotStepsPerSec: rate,
    noisy: false,
    reps: 1,
    stepsPerRep: 1,
    nonFiniteRobotSteps: 0,
  };
}

const find = (rs: BenchResult[], engine: EngineName, scene: string, measure?: CollisionMeasure) =>
  rs.find((r) => r.engine === engine && r.scene === scene && r.measure === measure)!;

describe('bench headline: the same physics', () => {
  it('a contact scene is compared with MuJoCo contacts on (the faster solver), contacts-off only apart', () => {
    const rs = [
      cell('achilles', 'legs', 1000),
      cell('achilles', 'legs', 1200, 'step+detect'),
      cell('achilles', 'legs', 9000, 'detect'),
      cell('mujoco-per-robot', 'legs', 2000), // contacts disabled: fast, other physics
      cell('mujoco-merged', 'legs', 2500),
      cell('mujoco-newton', 'legs', 400),
      cell('mujoco-cg20', 'legs', 500),
      cell('mujoco-per-robot', 'legs', 3000, 'detect'),
    ];
    compare(rs);
    const step = find(rs, 'achilles', 'legs');
    expect(step.vsMujoco).toBeCloseTo(1000 / 500, 12); // CG≤20 is the faster contact-on cell
    expect(step.mujocoBest).toBe('mujoco-cg20');
    expect(step.vsMujocoNewton).toBeCloseTo(1000 / 400, 12);
    expect(step.vsMujocoContactsOff).toBeCloseTo(1000 / 2500, 12);
    const stepDetect = find(rs, 'achilles', 'legs', 'step+detect');
    expect(stepDetect.vsMujoco).toBeCloseTo(1200 / 500, 12);
    expect(stepDetect.vsMujocoContactsOff).toBeCloseTo(1200 / 2500, 12);
    const detect = find(rs, 'achilles', 'legs', 'detect');
    expect(detect.vsMujoco).toBeCloseTo(9000 / 3000, 12); // detection against mj_collision, unchanged
    expect(detect.vsMujocoContactsOff).toBeUndefined();
  });

  it('a contact scene with contacts-off MuJoCo cells only has no headline, and the table says contacts off', () => {
    const rs = [
      cell('achilles', 'legs', 1000),
      cell('achilles', 'legs', 1200, 'step+detect'),
      cell('mujoco-per-robot', 'legs', 2000),
      cell('mujoco-merged', 'legs', 2500),
    ];
    compare(rs, new Set(['legs']));
    for (const r of rs.filter((x) => x.engine === 'achilles')) {
      expect(r.vsMujoco).toBeUndefined();
      expect(r.mujocoBest).toBeUndefined();
      expect(r.vsMujocoContactsOff).toBeGreaterThan(0);
    }
    const rep: BenchReport = {
      machine: {
        cpuModel: 'cpu',
        cpuMHz: 1,
        logicalCpus: 1,
        isaAvailable: [],
        compiler: 'c',
        node: 'n',
        platform: 'p',
        mujoco: '3',
      } as unknown as BenchReport['machine'],
      config: { restartEvery: 500, repSeconds: 0.5, reps: 1, dtByScene: {} },
      results: rs,
      notes: [],
    };
    const table = benchTable(rep);
    expect(table).toContain('vs MuJoCo (contacts off)');
    expect(table).toMatch(/0\.4(00)?×/); // 1000 / 2500, in its own column
    // one repetition is singular
    expect(machineLines(rep).join('\n')).toContain('then 1 repetition of');
    expect(machineLines({ ...rep, config: { ...rep.config, reps: 5 } }).join('\n')).toContain('then 5 repetitions of');
  });

  it('a scene without shapes keeps the faster of per-robot and merged as its headline', () => {
    const rs = [cell('achilles', 'arm', 1000), cell('mujoco-per-robot', 'arm', 200), cell('mujoco-merged', 'arm', 250)];
    compare(rs);
    const a = find(rs, 'achilles', 'arm');
    expect(a.vsMujoco).toBeCloseTo(4, 12);
    expect(a.mujocoBest).toBe('mujoco-merged');
    expect(a.vsMujocoContactsOff).toBeUndefined();
  });
});
