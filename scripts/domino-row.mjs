#!/usr/bin/env node
// Writes a scene of N equal dominoes standing in a row on a ground plane (MuJoCo's domino:
// 16 x 88 x 178 mm, 359 kg/m^3, model/sleep/dominos.xml), the first tipped toward the others so the
// row topples. The workload of the many-body scaling measurements in bench/RESULTS.md:
//   node scripts/domino-row.mjs 1000 > /tmp/dominoes-1000.arow
//   node bin/achilles.js run /tmp/dominoes-1000.arow --duration 0.05
const n = Number(process.argv[2] ?? 100);
if (!Number.isInteger(n) || n < 1 || n > 100000) {
  console.error('usage: node scripts/domino-row.mjs N   (N an integer 1 to 100000: the number of dominoes)');
  process.exit(2);
}
const size = [0.016, 0.088, 0.178]; // thickness, width, height (m)
const half = size.map((x) => x / 2);
const pitch = half[2]; // centre to centre: half the height apart, so each one falls onto the next
const shape = `{ type: box, size: [${size.join(', ')}], friction: 1, solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 }`;
const lines = [
  `# ${n} dominoes in a row (scripts/domino-row.mjs ${n})`,
  `scene: dominoes-${n}`,
  'world: { gravity: [0, 0, -9.81], dt: 0.002, integrator: euler, duration: 1, substeps: 1 }',
  'shapes:',
  '  - { link: world, type: plane, name: ground, friction: 1, solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], margin: 0 }',
  'links:',
];
for (let i = 0; i < n; i++) {
  const tip = i === 0 ? 0.2 : 0; // radians about y, toward +x
  const x = i * pitch + (i === 0 ? half[2] * Math.sin(tip) : 0);
  const z = i === 0 ? half[2] * Math.cos(tip) + half[0] * Math.sin(tip) : half[2];
  lines.push(
    `  - name: domino${i}`,
    '    parent: world',
    '    joint: { type: free }',
    '    mass_from_shapes: { density: 359 }',
    `    shapes: ${shape}`,
    `    initial: { position: [${x.toFixed(6)}, 0, ${z.toFixed(6)}, 0, ${tip}, 0] }`,
  );
}
process.stdout.write(lines.join('\n') + '\n');
