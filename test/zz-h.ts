import { convexHull } from '../src/model-files/import/mesh/quickhull.js';
import { writeFileSync } from 'node:fs';
let seed = 1;
const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
const sets: Record<string, number[]> = {};
const grid: number[] = [];
for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) for (let k = 0; k < 5; k++) grid.push(i / 4, j / 4, k / 4);
sets.grid = grid;
const sph: number[] = [];
for (let i = 0; i < 2000; i++) { const u = [rnd() - 0.5, rnd() - 0.5, rnd() - 0.5]; const l = Math.hypot(...u); sph.push(...u.map((c) => Math.fround(c / l))); }
sets.sphere = sph;
const cyl: number[] = [];
for (let i = 0; i < 64; i++) for (const z of [0, 0.3, 1]) cyl.push(Math.fround(Math.cos(i * Math.PI / 32)), Math.fround(Math.sin(i * Math.PI / 32)), z);
sets.cyl = cyl;
const box: number[] = [];
for (let i = 0; i < 3000; i++) { const p = [rnd(), rnd(), rnd()]; p[i % 3] = i % 2 ? 0 : 1; box.push(...p.map(Math.fround)); }
sets.boxsurf = box;
const out: Record<string, number[]> = {};
for (const [k, p] of Object.entries(sets)) {
  const t0 = performance.now();
  const h = convexHull(p);
  out[k] = h.vert;
  console.log(k, p.length / 3, 'hull verts', h.vert.length, 'faces', h.face.length / 3, (performance.now() - t0).toFixed(1), 'ms');
}
writeFileSync('/tmp/mt/sets.json', JSON.stringify({ sets, out }));
