// Functions that do one thing (issue 55): no function body in src/ (TypeScript) or native/ and
// python/native/ (C++) runs past MAX_LINES lines, except the ones named in LONG_ALLOWED with the
// reason. A long function is split by step or by element (as the MJCF reader is), not exempted.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const MAX_LINES = 150;

/** file:function → why it stays long. */
const LONG_ALLOWED: Record<string, string> = {
  'native/include/achilles/collision/narrow.hpp:box_box':
    "MuJoCo's box-box collider (engine_collision_box.c), kept as one routine to be read beside it",
};

interface LongFunction {
  name: string;
  line: number; // 1-based line of its start
  lines: number; // lines from its start to its closing brace, both included
}

function filesUnder(dir: string, ext: readonly string[]): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'build' ? [] : filesUnder(p, ext);
    return ext.some((x) => e.name.endsWith(x)) ? [p] : [];
  });
}

/** Every function-like node with a body (declarations, methods, arrows, function expressions). */
export function longTsFunctions(text: string, max = MAX_LINES): LongFunction[] {
  const src = ts.createSourceFile('f.ts', text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const a = src.getLineAndCharacterOfPosition(n.getStart(src)).line;
      const b = src.getLineAndCharacterOfPosition(n.end).line;
      const name = 'name' in n && n.name ? (n.name as ts.Node).getText(src) : '(anonymous)';
      if (b - a + 1 > max) out.push({ name, line: a + 1, lines: b - a + 1 });
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

/** C++ with comments and string/char literals blanked (newlines kept, so lines still count). */
function blankCpp(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/\/\/[^\n]*/g, '')
    .replace(/"(?:\\.|[^"\\\n])*"/g, '""')
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''");
}

const NOT_FUNCTIONS = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'sizeof', 'decltype', 'static_assert']);

/** A function body is a `{` after a parameter list `)` (with const/noexcept/override/a trailing
 *  return type between), named by the word before the `(`: not a control statement and not a lambda
 *  (`](...)`). Each body counts from its `{` to its matching `}`. */
export function longCppFunctions(text: string, max = MAX_LINES): LongFunction[] {
  const s = blankCpp(text);
  const out: LongFunction[] = [];
  const lineAt = (i: number): number => s.slice(0, i).split('\n').length;
  const header = /\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:->\s*[\w:<>,\s*&]+)?\{/g;
  for (let m = header.exec(s); m; m = header.exec(s)) {
    const open = m.index + m[0].length - 1;
    let depth = 0;
    let j = m.index;
    for (; j >= 0; j--) {
      if (s[j] === ')') depth++;
      else if (s[j] === '(' && --depth === 0) break;
    }
    const before = s.slice(Math.max(0, j - 80), j).trimEnd();
    const word = /([A-Za-z_]\w*)$/.exec(before)?.[1];
    if (!word || NOT_FUNCTIONS.has(word) || before.endsWith(']')) continue;
    depth = 0;
    let k = open;
    for (; k < s.length; k++) {
      if (s[k] === '{') depth++;
      else if (s[k] === '}' && --depth === 0) break;
    }
    const a = lineAt(open);
    const lines = lineAt(k) - a + 1;
    if (lines > max) out.push({ name: word, line: a, lines });
  }
  return out;
}

const body = (n: number): string => Array.from({ length: n - 2 }, (_, i) => `  x += ${i};`).join('\n');

describe('functions that do one thing', () => {
  it('the scanners find a function one line past the bar, and not one at it', () => {
    const tsFn = (n: number): string => `export function f(): number {\n  let x = 0;\n${body(n - 2)}\n  return x;\n}\n`;
    expect(longTsFunctions(tsFn(151)).map((f) => [f.name, f.lines])).toEqual([['f', 151]]);
    expect(longTsFunctions(tsFn(150))).toEqual([]);
    expect(longTsFunctions(`const g = () => {\n${body(151)}\n};\n`).map((f) => f.lines)).toEqual([151]);
    const cppFn = (n: number): string => `// f() {\ninline int f(int a) const noexcept {\n${body(n)}\n}\n`;
    expect(longCppFunctions(cppFn(151)).map((f) => [f.name, f.lines, f.line])).toEqual([['f', 151, 2]]);
    expect(longCppFunctions(cppFn(150))).toEqual([]);
    // a long if or lambda inside a short-enough function is not a function of its own
    expect(longCppFunctions(`if (x) {\n${body(151)}\n}\nauto l = [&](int i) {\n${body(151)}\n};\n`)).toEqual([]);
    // braces in comments and strings do not count
    expect(longCppFunctions(`void g() {\n  const char* s = "{";\n  // {\n}\n${body(3)}`)).toEqual([]);
  });

  it(`no TypeScript function in src/ runs past ${MAX_LINES} lines`, () => {
    const long = filesUnder(join(ROOT, 'src'), ['.ts']).flatMap((f) =>
      longTsFunctions(readFileSync(f, 'utf8')).map(
        (l) => `${relative(ROOT, f).split(sep).join('/')}:${l.line} ${l.name} (${l.lines} lines)`,
      ),
    );
    expect(long).toEqual([]);
  });

  it(`no C++ function in native/ or python/native/ runs past ${MAX_LINES} lines (box_box aside)`, () => {
    const files = [...filesUnder(join(ROOT, 'native'), ['.cpp', '.hpp']), ...filesUnder(join(ROOT, 'python', 'native'), ['.cpp', '.hpp'])];
    const seen = new Set<string>();
    const long: string[] = [];
    for (const f of files) {
      const rel = relative(ROOT, f).split(sep).join('/');
      for (const l of longCppFunctions(readFileSync(f, 'utf8'))) {
        const key = `${rel}:${l.name}`;
        seen.add(key);
        if (!(key in LONG_ALLOWED)) long.push(`${rel}:${l.line} ${l.name} (${l.lines} lines)`);
      }
    }
    expect(long).toEqual([]);
    // an exemption that no longer applies goes
    expect(Object.keys(LONG_ALLOWED).filter((k) => !seen.has(k))).toEqual([]);
  });
});
