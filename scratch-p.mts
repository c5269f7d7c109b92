import { randomPairs } from './src/validation/collision/pairs.js';
import { exactContact } from './src/validation/collision/exact.js';
import { engineContacts } from './src/validation/collision/stage.js';
import { engineAddon } from './src/engine/native.js';
const ps = randomPairs(2100, 1);
for (const i of [300, 1406, 1155, 415]) {
  const p = ps[i];
  const e = exactContact(p.a, p.poseA, p.b, p.poseB);
  const [g32] = engineContacts(engineAddon(), [p], 'f32');
  const [g64] = engineContacts(engineAddon(), [p], 'f64');
  console.log(i, p.combo, 'size', p.size.toPrecision(4), JSON.stringify({ a: p.a, b: p.b, poseA: p.poseA, poseB: p.poseB, margin: p.margin }));
  console.log('  exact', e.dist / p.size, e.normal.map((x) => x.toFixed(5)).join(' '), 'gap', e.gap);
  console.log('  f64  ', g64.dists.map((d) => d / p.size), g64.normal.map((x) => x.toFixed(5)).join(' '));
  console.log('  f32  ', g32.dists.map((d) => d / p.size), g32.normal.map((x) => x.toFixed(5)).join(' '));
}
