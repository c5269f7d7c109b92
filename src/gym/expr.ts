// The formula language of the task files (tasks/gymnasium/*.json), for one env at a time. The same
// language as python/achilles/gym/expr.py (which evaluates a whole batch in numpy): numbers, names,
// arithmetic, comparisons, and/or/not, indexing with slices, a fixed list of functions. Nothing in a
// task file runs code. Grammar (lowest precedence first):
//
//   or := and ('or' and)*   and := not ('and' not)*   not := 'not' not | cmp
//   cmp := sum (op sum)?    sum := prod (('+'|'-') prod)*   prod := unary (('*'|'/') unary)*
//   unary := '-' unary | power   power := postfix ('**' unary)?
//   postfix := atom ('[' index (',' index)* ']')*   index := expr | expr? ':' expr?
//   atom := NUMBER | NAME | NAME '(' args ')' | '(' expr ')' | STRING

/** A value: a number or boolean, an array of values (one level per axis, as numpy's nesting), or a
 *  Float32Array: float32 data (Gymnasium's actions), whose arithmetic with numbers stays float32 as
 *  numpy's does (NEP 50: a Python number is weak), so `ctrl_cost_weight * sum(square(action))` rounds
 *  as Gymnasium's own env rounds it. */
export type Val = number | boolean | string | Val[] | Float32Array;

export class ExprError extends Error {
  override name = 'ExprError';
}

export type Node =
  | { kind: 'num'; value: number; col: number }
  | { kind: 'str'; value: string; col: number }
  | { kind: 'name'; value: string; col: number }
  | { kind: 'call'; value: string; args: Node[]; col: number }
  | { kind: 'index'; base: Node; idx: (Node | SliceNode)[]; col: number }
  | { kind: 'unary'; op: '-' | 'not'; arg: Node; col: number }
  | { kind: 'binary'; op: string; a: Node; b: Node; col: number };
export type SliceNode = { kind: 'slice'; lo: Node | null; hi: Node | null; col: number };

type Tok = { kind: 'num' | 'name' | 'str' | 'op' | 'end'; text: string; col: number };

const TOKEN =
  /\s*(?:(?<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)|(?<name>[A-Za-z_][A-Za-z_0-9]*)|(?<str>'[^']*')|(?<op>\*\*|<=|>=|==|!=|[-+*/()[\],:<>]))/y;

function tokenize(src: string, where: string): Tok[] {
  const out: Tok[] = [];
  let pos = 0;
  while (pos < src.length && src.slice(pos).trim() !== '') {
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m || m.index !== pos || TOKEN.lastIndex === pos) {
      const at = src.length - src.slice(pos).trimStart().length;
      throw new ExprError(`${where}: column ${at + 1}: unexpected '${src.slice(at, at + 12)}' in '${src}'`);
    }
    const g = m.groups!;
    const kind = (['num', 'name', 'str', 'op'] as const).find((k) => g[k] !== undefined)!;
    const text = g[kind]!;
    out.push({ kind, text, col: TOKEN.lastIndex - text.length + 1 });
    pos = TOKEN.lastIndex;
  }
  out.push({ kind: 'end', text: '', col: src.length + 1 });
  return out;
}

class Parser {
  private i = 0;
  private readonly toks: Tok[];
  constructor(
    private readonly src: string,
    private readonly where: string,
  ) {
    this.toks = tokenize(src, where);
  }
  private fail(expected: string): ExprError {
    const t = this.toks[this.i];
    const found = t.kind === 'end' ? 'the end' : `'${t.text}'`;
    return new ExprError(`${this.where}: column ${t.col}: expected ${expected}, found ${found} in '${this.src}'`);
  }
  private peek(...texts: string[]): boolean {
    const t = this.toks[this.i];
    return (t.kind === 'op' || t.kind === 'name') && texts.includes(t.text);
  }
  private take(text: string): number {
    if (!this.peek(text)) throw this.fail(`'${text}'`);
    return this.toks[this.i++].col;
  }
  parse(): Node {
    const n = this.or();
    if (this.toks[this.i].kind !== 'end') throw this.fail('an operator or the end');
    return n;
  }
  private binaryChain(ops: string[], next: () => Node, once = false): Node {
    let n = next();
    while (this.peek(...ops)) {
      const t = this.toks[this.i++];
      n = { kind: 'binary', op: t.text, a: n, b: next(), col: t.col };
      if (once) break;
    }
    return n;
  }
  private or = (): Node => this.binaryChain(['or'], this.and);
  private and = (): Node => this.binaryChain(['and'], this.not);
  private not = (): Node => {
    if (this.peek('not')) {
      const col = this.take('not');
      return { kind: 'unary', op: 'not', arg: this.not(), col };
    }
    return this.binaryChain(['<', '<=', '>', '>=', '==', '!='], this.sum, true);
  };
  private sum = (): Node => this.binaryChain(['+', '-'], this.prod);
  private prod = (): Node => this.binaryChain(['*', '/'], this.unary);
  private unary = (): Node => {
    if (this.peek('-')) {
      const col = this.take('-');
      return { kind: 'unary', op: '-', arg: this.unary(), col };
    }
    const base = this.postfix();
    if (this.peek('**')) {
      const col = this.take('**');
      return { kind: 'binary', op: '**', a: base, b: this.unary(), col };
    }
    return base;
  };
  private postfix(): Node {
    let n = this.atom();
    while (this.peek('[')) {
      const col = this.take('[');
      const idx = [this.index()];
      while (this.peek(',')) {
        this.take(',');
        idx.push(this.index());
      }
      this.take(']');
      n = { kind: 'index', base: n, idx, col };
    }
    return n;
  }
  private index(): Node | SliceNode {
    const col = this.toks[this.i].col;
    const lo = this.peek(':') ? null : this.or();
    if (!this.peek(':')) {
      if (lo === null) throw this.fail('an index');
      return lo;
    }
    this.take(':');
    const hi = this.peek(']', ',') || this.toks[this.i].kind === 'end' ? null : this.or();
    return { kind: 'slice', lo, hi, col };
  }
  private atom(): Node {
    const t = this.toks[this.i];
    if (t.kind === 'num') {
      this.i++;
      return { kind: 'num', value: Number(t.text), col: t.col };
    }
    if (t.kind === 'str') {
      this.i++;
      return { kind: 'str', value: t.text.slice(1, -1), col: t.col };
    }
    if (t.kind === 'name' && !['and', 'or', 'not'].includes(t.text)) {
      this.i++;
      if (!this.peek('(')) return { kind: 'name', value: t.text, col: t.col };
      this.take('(');
      const args: Node[] = [];
      if (!this.peek(')')) {
        args.push(this.or());
        while (this.peek(',')) {
          this.take(',');
          args.push(this.or());
        }
      }
      this.take(')');
      return { kind: 'call', value: t.text, args, col: t.col };
    }
    if (this.peek('(')) {
      this.take('(');
      const n = this.or();
      this.take(')');
      return n;
    }
    throw this.fail("a number, a name or '('");
  }
}

/** The syntax tree of one formula; `where` names it in errors ("file: field"). */
export function parseExpr(src: unknown, where: string): Node {
  if (typeof src !== 'string') throw new ExprError(`${where}: expected a formula (a string), found ${typeof src}`);
  return new Parser(src, where).parse();
}

/** Every name a formula reads (function names excluded). */
export function namesIn(n: Node | SliceNode | null): Set<string> {
  if (n === null) return new Set();
  switch (n.kind) {
    case 'name':
      return new Set([n.value]);
    case 'call':
      return new Set(n.args.flatMap((a) => [...namesIn(a)]));
    case 'index':
      return new Set([...namesIn(n.base), ...n.idx.flatMap((a) => [...namesIn(a)])]);
    case 'unary':
      return namesIn(n.arg);
    case 'binary':
      return new Set([...namesIn(n.a), ...namesIn(n.b)]);
    case 'slice':
      return new Set([...namesIn(n.lo), ...namesIn(n.hi)]);
    default:
      return new Set();
  }
}

// -- values ------------------------------------------------------------------------------------

const num = (x: Val): number => (typeof x === 'boolean' ? (x ? 1 : 0) : (x as number));
const isF32 = (x: Val): x is Float32Array => x instanceof Float32Array;
const isArr = (x: Val): x is Val[] | Float32Array => Array.isArray(x) || isF32(x);
/** A float32 result stays float32 unless it is a boolean (a comparison). */
function f32Of(xs: Val[]): Val {
  return xs.every((v) => typeof v === 'number') ? Float32Array.from(xs as number[]) : xs;
}

/** Elementwise f over a and b, a scalar broadcasting against an array (numpy's rule for the shapes
 *  the task files use: equal shapes, or one side a scalar, or trailing axes matching). Float32 with
 *  a number, or with float32, stays float32. */
function zip(a: Val, b: Val, f: (x: Val, y: Val) => Val): Val {
  const aa = isArr(a);
  const ba = isArr(b);
  if (!aa && !ba) return f(a, b);
  const single = (isF32(a) && (!ba || isF32(b))) || (isF32(b) && (!aa || isF32(a)));
  const g = single
    ? (x: Val, y: Val) => {
        const r = f(x, y);
        return typeof r === 'number' ? Math.fround(r) : r;
      }
    : f;
  let out: Val[];
  if (aa && ba) {
    const A = Array.from(a as ArrayLike<Val>);
    const B = Array.from(b as ArrayLike<Val>);
    if (A.length === B.length) out = A.map((x, i) => zip(x, B[i], g));
    else if (A.length === 1) out = B.map((y) => zip(A[0], y, g));
    else if (B.length === 1) out = A.map((x) => zip(x, B[0], g));
    else throw new ExprError(`shapes do not broadcast: ${A.length} against ${B.length}`);
  } else out = aa ? Array.from(a as ArrayLike<Val>, (x) => zip(x, b, g)) : Array.from(b as ArrayLike<Val>, (y) => zip(a, y, g));
  return single ? f32Of(out) : out;
}
function map(a: Val, f: (x: Val) => Val): Val {
  if (isF32(a))
    return f32Of(
      Array.from(a, (x) => {
        const r = f(x);
        return typeof r === 'number' ? Math.fround(r) : r;
      }),
    );
  return Array.isArray(a) ? a.map((x) => map(x, f)) : f(a);
}
const flat = (a: Val): Val[] => (isF32(a) ? Array.from(a) : Array.isArray(a) ? a.flatMap(flat) : [a]);

const BINARY: Record<string, (x: Val, y: Val) => Val> = {
  '+': (x, y) => num(x) + num(y),
  '-': (x, y) => num(x) - num(y),
  '*': (x, y) => num(x) * num(y),
  '/': (x, y) => num(x) / num(y),
  '**': (x, y) => num(x) ** num(y),
  '<': (x, y) => num(x) < num(y),
  '<=': (x, y) => num(x) <= num(y),
  '>': (x, y) => num(x) > num(y),
  '>=': (x, y) => num(x) >= num(y),
  '==': (x, y) => num(x) === num(y),
  '!=': (x, y) => num(x) !== num(y),
  and: (x, y) => Boolean(x) && Boolean(y),
  or: (x, y) => Boolean(x) || Boolean(y),
};

/** Summation in numpy's pairwise order for a contiguous run (8 partial sums up to 128 elements,
 *  halves above), so the Python and TypeScript evaluators round a sum alike in the common case. */
export function pairwiseSum(x: ArrayLike<number>, lo = 0, n = x.length): number {
  // float32 data is summed in float32, as numpy sums a float32 array
  const r32 = x instanceof Float32Array ? Math.fround : (v: number) => v;
  const add = (p: number, q: number) => r32(p + q);
  if (n < 8) {
    let s = 0;
    for (let i = 0; i < n; i++) s = add(s, x[lo + i]);
    return s;
  }
  if (n <= 128) {
    const r = Array.from({ length: 8 }, (_, k) => x[lo + k]);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let k = 0; k < 8; k++) r[k] = add(r[k], x[lo + i + k]);
    let s = add(add(add(r[0], r[1]), add(r[2], r[3])), add(add(r[4], r[5]), add(r[6], r[7])));
    for (; i < n; i++) s = add(s, x[lo + i]);
    return s;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return add(pairwiseSum(x, lo, n2), pairwiseSum(x, lo + n2, n - n2));
}

export interface Scope {
  /** Quantities and earlier terms by name. */
  values: Record<string, Val>;
  /** Task parameters (the env's keyword arguments). */
  params: Record<string, Val>;
  /** Random draws, allowed in reset formulas only. */
  draw?: (kind: 'uniform' | 'normal', lo: number, hi: number, size: number) => number[];
  /** The model's body names in MuJoCo's order, the world first (what body() reads). */
  bodies?: readonly string[];
  where: string;
}

type Fn = { min: number; max: number; f: (s: Scope, args: Val[]) => Val };
const FUNCTIONS: Record<string, Fn> = {
  sum: { min: 1, max: 1, f: (_, [x]) => pairwiseSum(isF32(x) ? x : flat(x).map(num)) },
  all: { min: 1, max: 1, f: (_, [x]) => flat(x).every(Boolean) },
  any: { min: 1, max: 1, f: (_, [x]) => flat(x).some(Boolean) },
  square: { min: 1, max: 1, f: (_, [x]) => map(x, (v) => num(v) * num(v)) },
  sin: { min: 1, max: 1, f: (_, [x]) => map(x, (v) => Math.sin(num(v))) },
  cos: { min: 1, max: 1, f: (_, [x]) => map(x, (v) => Math.cos(num(v))) },
  abs: { min: 1, max: 1, f: (_, [x]) => map(x, (v) => Math.abs(num(v))) },
  sqrt: { min: 1, max: 1, f: (_, [x]) => map(x, (v) => Math.sqrt(num(v))) },
  isfinite: { min: 1, max: 1, f: (_, [x]) => map(x, (v) => Number.isFinite(num(v))) },
  clip: {
    min: 3,
    max: 3,
    f: (_, [x, lo, hi]) =>
      zip(
        zip(x, lo, (v, l) => Math.max(num(v), num(l))),
        hi,
        (v, h) => Math.min(num(v), num(h)),
      ),
  },
  where: { min: 3, max: 3, f: (_, [c, a, b]) => choose(c, a, b) },
  concat: { min: 1, max: 64, f: (_, xs) => xs.flatMap(flat) },
  uniform: { min: 3, max: 3, f: (s, [lo, hi, n]) => draw(s, 'uniform', num(lo), num(hi), num(n)) },
  normal: { min: 1, max: 1, f: (s, [n]) => draw(s, 'normal', 0, 1, num(n)) },
  body: { min: 1, max: 1, f: (s, [name]) => bodyIndex(s, name) },
};

/** MuJoCo's index of the body named `name` (0: the world), as Gymnasium's get_body_com(name) finds
 *  it: a task names bodies, so it reads the same body of a model given by xml_file. */
function bodyIndex(s: Scope, name: Val): number {
  if (typeof name !== 'string') throw new ExprError(`${s.where}: body() takes a body's name in quotes, e.g. body('torso')`);
  if (!s.bodies) throw new ExprError(`${s.where}: body('${name}'): no model's body names are known here`);
  const i = s.bodies.indexOf(name);
  if (i < 0) throw new ExprError(`${s.where}: body('${name}'): the model has no such body (bodies: ${s.bodies.join(', ')})`);
  return i;
}

/** numpy's where(c, a, b): elementwise, each argument broadcasting; a scalar c picks a or b whole. */
function choose(c: Val, a: Val, b: Val): Val {
  if (!isArr(c)) return c ? a : b;
  const at = (x: Val, i: number, n: number): Val => {
    if (!isArr(x)) return x;
    const xs = Array.from(x as ArrayLike<Val>);
    if (xs.length === n) return xs[i];
    if (xs.length === 1) return xs[0];
    throw new ExprError(`where(): shapes do not broadcast: ${xs.length} against ${n}`);
  };
  const n = Math.max(...[c, a, b].map((x) => (isArr(x) ? x.length : 1)));
  return Array.from({ length: n }, (_, i) => choose(at(c, i, n), at(a, i, n), at(b, i, n)));
}

function draw(s: Scope, kind: 'uniform' | 'normal', lo: number, hi: number, n: number): number[] {
  if (!s.draw) throw new ExprError(`${s.where}: random draws (${kind}) are allowed only in reset formulas`);
  return s.draw(kind, lo, hi, n);
}

function integer(n: Node, s: Scope): number {
  const v = evaluate(n, s);
  if (Array.isArray(v)) throw new ExprError(`${s.where}: column ${n.col}: an index must be one number`);
  const x = num(v);
  if (!Number.isInteger(x)) throw new ExprError(`${s.where}: column ${n.col}: an index must be an integer, found ${x}`);
  return x;
}

/** numpy's indexing of one axis: an integer (negative from the end) or a slice. */
function indexAxes(v: Val, idx: (number | { lo: number | null; hi: number | null })[], col: number, where: string): Val {
  if (idx.length === 0) return v;
  if (isF32(v)) v = Array.from(v);
  if (!Array.isArray(v)) throw new ExprError(`${where}: column ${col}: too many indices for the value`);
  const [first, ...rest] = idx;
  const n = v.length;
  if (typeof first === 'number') {
    const i = first < 0 ? n + first : first;
    if (i < 0 || i >= n) throw new ExprError(`${where}: column ${col}: index ${first} is out of range for an axis of ${n}`);
    return indexAxes(v[i], rest, col, where);
  }
  const clamp = (x: number | null, d: number) => (x === null ? d : Math.min(n, Math.max(0, x < 0 ? n + x : x)));
  return v.slice(clamp(first.lo, 0), clamp(first.hi, n)).map((e) => indexAxes(e, rest, col, where));
}

export function evaluate(n: Node, s: Scope): Val {
  switch (n.kind) {
    case 'num':
    case 'str':
      return n.value;
    case 'name': {
      if (n.value in s.values) return s.values[n.value];
      if (n.value in s.params) return s.params[n.value];
      const known = [...Object.keys(s.values), ...Object.keys(s.params)].sort();
      throw new ExprError(`${s.where}: column ${n.col}: unknown name '${n.value}' (known here: ${known.join(', ')})`);
    }
    case 'unary': {
      const x = evaluate(n.arg, s);
      return n.op === 'not' ? map(x, (v) => !v) : map(x, (v) => -num(v));
    }
    case 'binary':
      return zip(evaluate(n.a, s), evaluate(n.b, s), BINARY[n.op]);
    case 'index': {
      const base = evaluate(n.base, s);
      const idx = n.idx.map((i) => (i.kind === 'slice' ? { lo: i.lo && integer(i.lo, s), hi: i.hi && integer(i.hi, s) } : integer(i, s)));
      return indexAxes(base, idx, n.col, s.where);
    }
    case 'call': {
      const fn = FUNCTIONS[n.value];
      if (!fn)
        throw new ExprError(
          `${s.where}: column ${n.col}: unknown function '${n.value}' (known: ${Object.keys(FUNCTIONS).sort().join(', ')})`,
        );
      if (n.args.length < fn.min || n.args.length > fn.max) {
        const want = fn.min === fn.max ? String(fn.min) : `${fn.min} to ${fn.max}`;
        throw new ExprError(`${s.where}: column ${n.col}: ${n.value}() takes ${want} arguments, got ${n.args.length}`);
      }
      return fn.f(
        s,
        n.args.map((a) => evaluate(a, s)),
      );
    }
  }
}
