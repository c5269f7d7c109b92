// The broad phase and the contact rows that follow it (collision/broad_phase.hpp, contact/work.hpp):
// a block's rows are those of the pairs whose boxes overlap in some lane, in (a, b) order, so a
// robot's contacts and trajectory do not depend on which robots share its block, and the row slots
// carved again when a block meets more pairs hold the same rows as slots that were large enough.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LaneWidth, Precision } from '../src/engine/api.js';
import { Batch } from '../src/engine/batch.js';
import type { ModelDesc } from '../src/engine/model-desc.js';
import { loadScene } from '../src/model-files/scene/index.js';
import { rng } from './helpers/engine.js';
import { cpu } from './helpers/lanes.js';
import { tempDir } from './helpers/cli.js';

/** scripts/domino-row.mjs's row of n dominoes (the many-body workload of bench/RESULTS.md); with
 *  `inert` static spheres that touch nothing (contype 0) besides, so that the model has more shapes
 *  than a model that lists its pairs (kListedShapes = 128) and the broad phase sweeps and prunes. */
function dominoRow(n: number, inert = 0): ModelDesc {
  const file = join(tempDir('achilles-broad-phase-'), `dominoes-${n}-${inert}.arow`);
  const text = execFileSync(process.execPath, ['scripts/domino-row.mjs', String(n)], { encoding: 'utf8' });
  const spheres = Array.from(
    { length: inert },
    (_, k) => `  - { link: world, type: sphere, name: inert${k}, radius: 0.01, pos: [${k * 0.05}, 1, 0.5], contype: 0, conaffinity: 0 }`,
  );
  writeFileSync(file, text.replace(/^links:$/m, [...spheres, 'links:'].join('\n')));
  return loadScene(file);
}

const N = 40;
const models = { listed: dominoRow(N), swept: dominoRow(N, 100) };
const widest = (p: Precision): LaneWidth =>
  (p === 'f64' && cpu.widestLanes < 16 ? Math.min(cpu.widestLanes, 4) : cpu.widestLanes) as LaneWidth;

/** Robot r in the batch's slot `slot`: each domino's velocity drawn from r's stream, so the robots of a
 *  block topple differently. */
function start(b: Batch, slot: number, r: number): void {
  const g = rng(500 + r);
  b.setRobot(slot, { v: Array.from({ length: b.nv }, (_, k) => (k % 6 < 3 ? 0.3 : 3) * (g() - 0.5)) });
}

function run(model: ModelDesc, precision: Precision, lanes: LaneWidth, threads: number, robots: number[]) {
  const b = new Batch(model, { copies: robots.length, precision, lanes, threads });
  robots.forEach((r, slot) => start(b, slot, r));
  b.step(120);
  b.constrain();
  return robots.map((_, slot) => {
    const c = b.contacts(slot);
    const name = (s: number) => model.shapes![s].name;
    return {
      q: b.getRobot(slot).q,
      pairs: [...c.shapeA].map((a, k) => `${name(a)}-${name(c.shapeB[k])}:${c.point[k]}`),
      dist: [...c.dist],
      force: [...c.force],
    };
  });
}

describe('broad phase: a robot does not depend on its block, nor on how its pairs were found', () => {
  for (const precision of ['f32', 'f64'] as const)
    it(`${precision}: ${N} dominoes, robots 0..5 alone (lanes 1) equal the same robots among others at the widest width, 2 threads, pairs listed or swept`, () => {
      const alone = run(models.listed, precision, 1, 1, [0, 1, 2, 3, 4, 5]);
      // the same six robots spread over blocks of other robots, in another order
      const robots = [9, 3, 7, 0, 11, 5, 8, 1, 12, 4, 10, 2, 13, 6, 14, 15, 16, 17, 18, 19, 20];
      for (const [how, model] of Object.entries(models)) {
        const mixed = run(model, precision, widest(precision), 2, robots);
        for (let r = 0; r < 6; r++) expect(mixed[robots.indexOf(r)], `${how}: robot ${r}`).toEqual(alone[r]);
      }
      expect(run(models.swept, precision, 1, 1, [0, 1, 2, 3, 4, 5])).toEqual(alone);
      // the robots touch: each domino on the ground, and some on each other after 120 steps
      expect(alone[0].pairs.length).toBeGreaterThan(N);
      expect(alone.some((x) => x.pairs.some((p) => !p.startsWith('ground-')))).toBe(true);
    });
});

describe('row slots carved again', () => {
  it('a block that meets more pairs than before holds the same rows as a fresh one (contacts, forces, qacc)', () => {
    // packed: upright dominoes 0.1 mm into each other (16 mm thick, 15.9 mm apart), so neighbours touch
    const packed = (b: Batch) => {
      const q = b.getRobot(0).q;
      for (let i = 0; i < N; i++) q.splice(7 * i, 7, 0.0159 * i, 0, 0.089, 1, 0, 0, 0);
      return q;
    };
    const model = models.swept;
    const fresh = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    fresh.setRobot(0, { q: packed(fresh) });
    fresh.constrain();
    const grown = new Batch(model, { copies: 1, precision: 'f64', lanes: 1 });
    grown.constrain(); // the row: N ground pairs
    const before = grown.contacts(0).dist.length;
    grown.setRobot(0, { q: packed(grown) });
    grown.constrain();
    const [f, g] = [fresh.contacts(0), grown.contacts(0)];
    expect(g.dist.length).toBeGreaterThan(before);
    expect([...g.shapeA, ...g.shapeB, ...g.dist, ...g.force]).toEqual([...f.shapeA, ...f.shapeB, ...f.dist, ...f.force]);
    expect(grown.getRobot(0).qacc).toEqual(fresh.getRobot(0).qacc);
  });
});
