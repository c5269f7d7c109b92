// Wall and CPU time of Batch.step(1) on one model, round by round, with the process's memory: the
// quick A/B instrument behind bench/RESULTS.md's engine-only entries (achilles bench and the
// Gymnasium bench are the instruments for ratios against MuJoCo).
//
//   node bench/step-time.mjs MODEL [precision=f32] [lanes=16] [copies=256]
//   env: ROUNDS (4), STEPS per round (400), ROOT (a checkout or a copy of dist/ and the addon, to compare two builds)
//
// Each round: reset, then STEPS steps of random controls in [−1, 1] (one seeded LCG), reset again every
// 200 steps. The first rounds pay for growth (row slots, scratch); compare the later ones.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.env.ROOT ?? new URL('..', import.meta.url).pathname);
const { loadScene, Batch } = await import(pathToFileURL(`${root}/dist/index.js`).href);
const [path, precision = 'f32', lanes = '16', copies = '256'] = process.argv.slice(2);
if (!path) {
  console.error('usage: node bench/step-time.mjs MODEL [f32|f64] [lanes] [copies]');
  process.exit(2);
}
const rounds = Number(process.env.ROUNDS ?? 4),
  steps = Number(process.env.STEPS ?? 400);
const rss0 = process.memoryUsage().rss;
const batch = new Batch(loadScene(path), { copies: Number(copies), precision, lanes: Number(lanes) });
let seed = 12345;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296) * 2 - 1;
const wall = [],
  cpu = [];
let first = 0;
for (let round = 0; round < rounds; ++round) {
  batch.reset();
  const t0 = process.hrtime.bigint(),
    c0 = process.cpuUsage();
  for (let t = 0; t < steps; ++t) {
    if (t % 200 === 199) batch.reset();
    const ctrl = batch.ctrl;
    for (let i = 0; i < ctrl.length; ++i) ctrl[i] = rnd();
    batch.step(1);
    if (round === 0 && t === 0) first = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  wall.push(Number(process.hrtime.bigint() - t0) / 1e6 / steps);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1e3 / steps);
}
const ms = (xs) => xs.map((x) => x.toFixed(3)).join(' ');
console.log(
  `${path.split('/').pop()} ${precision} x${lanes}, ${copies} robots: ms/step by round ${ms(wall)} (cpu ${ms(cpu)});` +
    ` first step ${first.toFixed(1)} ms; RSS ${(rss0 / 2 ** 20).toFixed(0)} -> ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
);
