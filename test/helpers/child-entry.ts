// The child process of in-child.ts: receives one call (module, export name, arguments), runs it, sends
// back its value or the error it threw, and exits.
process.once('message', async (call: { module: string; name: string; args: unknown[] }) => {
  let reply: { value?: unknown; error?: Record<string, unknown> };
  try {
    const mod = (await import(call.module)) as Record<string, (...a: unknown[]) => unknown>;
    if (typeof mod[call.name] !== 'function') throw new Error(`${call.module} exports no function ${call.name}`);
    reply = { value: await mod[call.name](...call.args) };
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    // Own enumerable fields too (a NonFiniteStateError's step, robot, joint), as plain data.
    reply = { error: { ...structuredCloneable(err), name: err.name, message: err.message, stack: err.stack } };
  }
  try {
    process.send!(reply, () => process.exit(0));
  } catch (e) {
    // A value structured clone cannot carry (a function, a native handle): say so instead.
    process.send!(
      { error: { name: 'Error', message: `${call.name} returned a value that cannot be sent back: ${(e as Error).message}` } },
      () => process.exit(0),
    );
  }
});

/** The error's own fields that survive structured cloning (a field that does not is left out). */
function structuredCloneable(err: Error): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) {
    try {
      structuredClone(v);
      out[k] = v;
    } catch {
      // a function or a native handle: not data the test can read
    }
  }
  return out;
}
