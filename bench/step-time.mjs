// Wall and CPU time of Batch.step(1) on one model, round by round, with the process's memory: the
// quick A/B instrument behind bench/RESULTS.md's engine-only entries (achilles bench and the
// Gymnasium bench are the instruments for ratios against MuJoCo).
//
//   node bench/step-time.mjs MODEL [precision=f32] [lanes=16] [copies=256]
//   env: ROUNDS (4), STEPS per round (400), ROOT (a checkout or a copy of dist/ and the addon, to compare two builds),
//        STATES (a prefix: PREFIX.q and PREFIX.v, float64 [k·copies + r], each round's start; bench/gym-states.py
//        writes those a Gymnasium task's run reaches), COHERENT=1 (the lanes of each block copy one robot:
//        its state and controls, block b's lanes all robot b·lanes + round mod lanes; every lane does the
//        same work, a bound for any grouping of differing robots into lanes)
//
// Each round: reset (or STATES), then STEPS steps of random controls in [−1, 1] (one seeded LCG), reset
// again every 200 steps (without STATES). The first rounds pay for growth (row slots, scratch); compare
// the later ones.
import { readFileSync } from 'node:fs';
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
const coherent = process.env.COHERENT === '1';
const rss0 = process.memoryUsage().rss;
const n = Number(copies),
  width = Number(lanes);
const batch = new Batch(loadScene(path), { copies: n, precision, lanes: width });
const states = process.env.STATES ? readStates(process.env.STATES) : null;
// Which robot lane r copies in a round (itself, unless COHERENT).
const source = (r, round) => (coherent ? r - (r % width) + (round % width) : r);

function readStates(prefix) {
  const read = (ext) => {
    const bytes = readFileSync(`${prefix}.${ext}`);
    return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
  };
  const q = read('q'),
    v = read('v');
  if (q.length !== batch.nq * n || v.length !== batch.nv * n)
    throw new Error(
      `${prefix}.q/.v hold ${q.length / n} and ${v.length / n} values per robot for ${n} robots; the model has nq ${batch.nq}, nv ${batch.nv}`,
    );
  return { q, v };
}

function start(round) {
  batch.reset();
  if (!states && !coherent) return;
  for (let r = 0; r < n; ++r) {
    const s = source(r, round);
    const pick = (x, count) => Array.from({ length: count }, (_, k) => x[k * n + s]);
    if (states) batch.setRobot(r, { q: pick(states.q, batch.nq), v: pick(states.v, batch.nv) });
    else batch.setRobot(r, batch.getRobot(s));
  }
}

let seed = 12345;
const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296) * 2 - 1;
const wall = [],
  cpu = [];
let first = 0;
for (let round = 0; round < rounds; ++round) {
  start(round);
  const t0 = process.hrtime.bigint(),
    c0 = process.cpuUsage();
  for (let t = 0; t < steps; ++t) {
    if (!states && t % 200 === 199) start(round);
    const ctrl = batch.ctrl,
      stride = batch.stride;
    for (let i = 0; i < ctrl.length; ++i) ctrl[i] = rnd();
    if (coherent)
      for (let a = 0; a < ctrl.length / stride; ++a) for (let r = 0; r < n; ++r) ctrl[a * stride + r] = ctrl[a * stride + source(r, round)];
    batch.step(1);
    if (round === 0 && t === 0) first = Number(process.hrtime.bigint() - t0) / 1e6;
  }
  wall.push(Number(process.hrtime.bigint() - t0) / 1e6 / steps);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1e3 / steps);
}
const ms = (xs) => xs.map((x) => x.toFixed(3)).join(' ');
const later = wall.slice(rounds > 1 ? 1 : 0).sort((a, b) => a - b);
const median = later.length % 2 ? later[(later.length - 1) / 2] : (later[later.length / 2 - 1] + later[later.length / 2]) / 2;
console.log(
  `${path.split('/').pop()} ${precision} x${lanes}, ${copies} robots${states ? `, from ${process.env.STATES}` : ''}${coherent ? ', coherent lanes' : ''}:` +
    ` median ${median.toFixed(3)} ms/step (rounds after the first); by round ${ms(wall)} (cpu ${ms(cpu)}); first step ${first.toFixed(1)} ms; RSS ${(rss0 / 2 ** 20).toFixed(0)} -> ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
);
