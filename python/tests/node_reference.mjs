// The Node engine's side of test_node_parity.py: loads a scene as `achilles run` does, makes a
// Batch and drives it with the protocol the Python test repeats (protocol.py: the same offsets
// and controls, in the same double arithmetic), then prints the state arrays' bytes (base64), and robot 0's contacts after forward().
// Usage: node node_reference.mjs SCENE PRECISION LANES COPIES STEPS THREADS
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const { loadScene, Batch } = await import(join(root, 'dist', 'index.js'));
const { coordinateLayout } = await import(join(root, 'dist', 'engine', 'model-desc.js'));

const [scene, precision, lanes, copies, steps, threads] = process.argv.slice(2);
const model = loadScene(scene);
const b = new Batch(model, { copies: Number(copies), precision, lanes: Number(lanes), threads: Number(threads) });
const { qOffset } = coordinateLayout(model.bodies);

// Robots that differ: each revolute or prismatic coordinate of robot r moved by 0.001 (r + j + 1).
model.bodies.forEach((body, j) => {
  if (body.joint !== 'revolute' && body.joint !== 'prismatic') return;
  for (let r = 0; r < b.copies; r++) {
    const i = qOffset[j] * b.stride + r;
    b.q[i] = b.q[i] + 0.001 * (r + j + 1);
  }
});
for (let s = 0; s < Number(steps); s++) {
  const ctrl = b.ctrl; // the half the next step reads (it alternates)
  for (let a = 0; a < b.nu; a++) for (let r = 0; r < b.copies; r++) ctrl[a * b.stride + r] = (((s * 7 + a * 3 + r * 5) % 11) - 5) * 0.1;
  b.step(1);
}
const bytes = (x) => Buffer.from(x.buffer, x.byteOffset, x.byteLength).toString('base64');
const state = { q: bytes(b.q), v: bytes(b.v), qacc: bytes(b.qacc), act: bytes(b.act), actuatorForce: bytes(b.actuatorForce) };
// Then robot 0's contacts as forward() leaves them (points and forces).
b.forward();
const c = b.contacts(0);
const contacts = Object.fromEntries(Object.entries(c).map(([k, x]) => [k, bytes(x)]));
process.stdout.write(JSON.stringify({ isa: b.isa, stride: b.stride, ...state, contacts }));
