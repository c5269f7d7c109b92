// One fuzz case in its own process (so a native crash, a hang or a memory blow-up is seen, not
// suffered): load the scene (with a --config when one is given), build a 2-copy batch, run 5 steps
// through the run's own loop (simulate: sensors read, every record checked as `achilles run` checks
// it), run collision detection (so mutated shape fields reach the native narrow phase), print one
// JSON line. A recorded value that is not finite is an internal error: `achilles run` would have
// written it into trace.csv.
// Runs the built package (dist/, which `npm ci` builds) so a case starts in a fraction of a second.
import { Batch } from '../../dist/engine/batch.js';
import { simulate } from '../../dist/run/simulate.js';
import { loadScene, SceneError } from '../../dist/model-files/scene/index.js';
import { SensorBank } from '../../dist/sensors/bank.js';

const [file, config] = process.argv.slice(2);
const out = (o) => process.stdout.write(`${JSON.stringify({ ...o, rssMB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
try {
  const model = loadScene(file, config ? { config } : {});
  // substeps are capped: the harness probes robustness, not long runs (step counts are the run's check)
  const batch = new Batch(model, { copies: 2, lanes: 1, precision: 'f64', substeps: Math.min(model.world.substeps, 100) });
  const sensors = model.sensors?.length ? new SensorBank(batch, model.sensors, { seed: 1 }) : null;
  const r = await simulate(batch, { steps: 5, recordEvery: 1, robots: [0, 1], shouldStop: () => false, sensors });
  const cols = r.recorder.columns.all;
  for (const row of r.recorder.rows) {
    const i = row.findIndex((x) => !Number.isFinite(x));
    if (i >= 0) throw new RangeError(`the trace would hold ${row[i]} in column ${cols[i]} at step ${row[0]}`);
  }
  batch.collide();
  out({ outcome: 'run', bodies: model.bodies.length });
} catch (e) {
  const internal = e instanceof TypeError || e instanceof RangeError || e instanceof ReferenceError || e instanceof SyntaxError;
  const memory = /bad_alloc|out of memory|Array buffer allocation failed/i.test(String(e?.message));
  const message = String(e?.message ?? e);
  // the whole message's length, and enough of it to see a leak anywhere a reader would
  out({
    outcome: memory ? 'memory' : internal ? 'internal-error' : 'error',
    scene: e instanceof SceneError,
    message: message.slice(0, 20_000),
    length: message.length,
  });
}
