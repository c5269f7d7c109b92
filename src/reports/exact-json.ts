// JSON in which every number reads back as the very same double, in JavaScript (JSON.parse) and in
// Python (json.loads): what another program needs to run the same model bit for bit.
//
// JSON.stringify's digits already round-trip (the shortest decimal that reads back to the double),
// but it writes -0 as 0 and ±Infinity as null. Here -0 is `-0.0` (JSON.parse and json.loads both give
// -0; a bare `-0` is the integer 0 in Python) and ±Infinity is `±1e999` (a number too large for a
// double, which both read as ±Infinity). NaN has no such spelling and is refused, naming where it is.

/** A NaN where a number was to be written. */
export class NotJsonNumberError extends Error {
  constructor(readonly path: string) {
    super(`${path} is NaN, which JSON cannot carry`);
    this.name = 'NotJsonNumberError';
  }
}

/** The number's JSON text (see above). */
export function exactNumber(x: number, path: string): string {
  if (Number.isNaN(x)) throw new NotJsonNumberError(path);
  if (x === Infinity) return '1e999';
  if (x === -Infinity) return '-1e999';
  if (Object.is(x, -0)) return '-0.0';
  return JSON.stringify(x);
}

const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';

/**
 * `value` as JSON text with exact numbers. Objects are indented two spaces a level, arrays of
 * scalars stay on one line (a model's vectors read as vectors). As JSON.stringify: object keys whose
 * value is undefined or a function are left out, such array elements written as null. `path` names
 * the value in errors (a NaN at `model.bodies[0].mass`).
 */
export function exactJson(value: unknown, path = '$', indent = ''): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'number':
      return exactNumber(value, path);
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      return 'null'; // undefined, functions, symbols inside arrays (objects leave them out)
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((v, i) => exactJson(v, `${path}[${i}]`, inner));
    if (value.every(isScalar)) return `[${items.join(', ')}]`;
    return `[\n${items.map((s) => inner + s).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined && typeof v !== 'function');
  if (entries.length === 0) return '{}';
  const body = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${exactJson(v, `${path}.${k}`, inner)}`);
  return `{\n${body.join(',\n')}\n${indent}}`;
}
