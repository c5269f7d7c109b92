// One fuzz case in its own process (so a native crash, a hang or a memory blow-up is seen, not
// suffered): load the scene, build a 2-copy batch, step it briefly and run collision detection
// (so mutated shape fields reach the native narrow phase), print one JSON line.
// Runs the built package (dist/, which `npm ci` builds) so a case starts in a fraction of a second.
import { Batch } from '../../dist/engine/batch.js';
import { loadScene, SceneError } from '../../dist/scene/index.js';

const [file] = process.argv.slice(2);
const out = (o) => process.stdout.write(`${JSON.stringify({ ...o, rssMB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
try {
  const model = loadScene(file);
  // substeps are capped: the harness probes robustness, not long runs (step counts are the run's check)
  const batch = new Batch(model, { copies: 2, lanes: 1, precision: 'f64', substeps: Math.min(model.world.substeps, 100) });
  const r = batch.stepRaw(5);
  batch.forward();
  batch.energy();
  batch.collide();
  out({ outcome: 'run', bodies: model.bodies.length, nonFinite: r.nonFinite !== null });
} catch (e) {
  const internal = e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError;
  const memory = /bad_alloc|out of memory|Array buffer allocation failed/i.test(String(e?.message));
  out({ outcome: memory ? 'memory' : internal ? 'internal-error' : 'error', scene: e instanceof SceneError, message: String(e?.message ?? e).slice(0, 300) });
}
