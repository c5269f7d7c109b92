// Work for test/heavy-work-helpers.test.ts: checks of in-child.ts itself.

/** Holds this process's thread for `ms` without using the CPU, then reports who ran it. */
export function holdThread(ms: number, values: Float64Array): { pid: number; sum: number; values: Float64Array } {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  return { pid: process.pid, sum: values.reduce((a, b) => a + b, 0), values };
}

export class ProbeError extends Error {
  constructor(
    readonly step: number,
    readonly robot: number,
  ) {
    super(`probe failed at step ${step}, robot ${robot}`);
    this.name = 'ProbeError';
  }
}

export function throwProbe(step: number, robot: number): never {
  throw new ProbeError(step, robot);
}

export function exitWithout(code: number): never {
  process.stderr.write('the probe leaves without answering\n');
  process.exit(code);
}

export function returnFunction(): () => void {
  return () => {};
}
