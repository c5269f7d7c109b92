"""The expression language of the task files (tasks/gymnasium/*.json), evaluated over many envs at once.

A task file states each observation, reward term and termination as a formula over the simulator's
quantities in MuJoCo's names and layouts (qpos, qvel, xpos, cfrc_ext, ...), for ONE env; this module
evaluates it for every env of a batch in one pass of numpy operations. The same files are read by
the TypeScript side (src/gym/expr.ts), so a task is defined once. Nothing in a task file runs code:
the language has numbers, names, arithmetic, comparisons, indexing and a fixed list of functions.

  expr    := or
  or      := and ('or' and)*            and := not ('and' not)*          not := 'not' not | cmp
  cmp     := sum (('<'|'<='|'>'|'>='|'=='|'!=') sum)?
  sum     := prod (('+'|'-') prod)*     prod := unary (('*'|'/') unary)*
  unary   := '-' unary | power          power := postfix ('**' unary)?
  postfix := atom ('[' index (',' index)* ']')*       index := expr | expr? ':' expr?
  atom    := NUMBER | NAME | NAME '(' args ')' | '(' expr ')' | STRING

Values carry the env axis first: a quantity of shape S per env is an array (N, *S); a task parameter
or a literal is (1, *S) and broadcasts. Indexing and reductions act on the per-env axes only, so
`qpos[2:]` is numpy's `qpos[:, 2:]` and `sum(square(action))` sums each env's own actions.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


class ExprError(ValueError):
    """A malformed formula, named with its task file, field and column."""


_TOKEN = re.compile(
    r"\s*(?:(?P<num>(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
    r"|(?P<str>'[^']*')|(?P<op>\*\*|<=|>=|==|!=|[-+*/()\[\],:<>]))"
)


@dataclass(frozen=True)
class Node:
    kind: str  # num, name, str, call, index, unary, binary, slice
    value: Any = None
    args: tuple = ()
    col: int = 0


def _tokenize(src: str, where: str) -> list[tuple[str, str, int]]:
    out, pos = [], 0
    while pos < len(src):
        if src[pos:].strip() == "":
            break
        m = _TOKEN.match(src, pos)
        if not m or m.end() == pos:
            at = len(src) - len(src[pos:].lstrip())
            raise ExprError(f"{where}: column {at + 1}: unexpected {src[at:][:12]!r} in {src!r}")
        kind = m.lastgroup
        text = m.group(kind)
        out.append((kind, text, m.start(kind) + 1))
        pos = m.end()
    out.append(("end", "", len(src) + 1))
    return out


class _Parser:
    def __init__(self, src: str, where: str):
        self.src, self.where = src, where
        self.toks = _tokenize(src, where)
        self.i = 0

    def fail(self, expected: str) -> ExprError:
        kind, text, col = self.toks[self.i]
        found = "the end" if kind == "end" else repr(text)
        return ExprError(f"{self.where}: column {col}: expected {expected}, found {found} in {self.src!r}")

    def peek(self, *texts: str) -> bool:
        kind, text, _ = self.toks[self.i]
        return kind in ("op", "name") and text in texts

    def take(self, text: str) -> int:
        if not self.peek(text):
            raise self.fail(repr(text))
        col = self.toks[self.i][2]
        self.i += 1
        return col

    def parse(self) -> Node:
        node = self.expr()
        if self.toks[self.i][0] != "end":
            raise self.fail("an operator or the end")
        return node

    def expr(self) -> Node:
        node = self.conj()
        while self.peek("or"):
            col = self.take("or")
            node = Node("binary", "or", (node, self.conj()), col)
        return node

    def conj(self) -> Node:
        node = self.neg()
        while self.peek("and"):
            col = self.take("and")
            node = Node("binary", "and", (node, self.neg()), col)
        return node

    def neg(self) -> Node:
        if self.peek("not"):
            col = self.take("not")
            return Node("unary", "not", (self.neg(),), col)
        return self.cmp()

    def cmp(self) -> Node:
        node = self.sum()
        if self.peek("<", "<=", ">", ">=", "==", "!="):
            op, col = self.toks[self.i][1], self.toks[self.i][2]
            self.i += 1
            node = Node("binary", op, (node, self.sum()), col)
        return node

    def sum(self) -> Node:
        node = self.prod()
        while self.peek("+", "-"):
            op, col = self.toks[self.i][1], self.toks[self.i][2]
            self.i += 1
            node = Node("binary", op, (node, self.prod()), col)
        return node

    def prod(self) -> Node:
        node = self.unary()
        while self.peek("*", "/"):
            op, col = self.toks[self.i][1], self.toks[self.i][2]
            self.i += 1
            node = Node("binary", op, (node, self.unary()), col)
        return node

    def unary(self) -> Node:
        if self.peek("-"):
            col = self.take("-")
            return Node("unary", "-", (self.unary(),), col)
        return self.power()

    def power(self) -> Node:
        node = self.postfix()
        if self.peek("**"):
            col = self.take("**")
            node = Node("binary", "**", (node, self.unary()), col)
        return node

    def postfix(self) -> Node:
        node = self.atom()
        while self.peek("["):
            col = self.take("[")
            idx = [self.index()]
            while self.peek(","):
                self.take(",")
                idx.append(self.index())
            self.take("]")
            node = Node("index", None, (node, *idx), col)
        return node

    def index(self) -> Node:
        col = self.toks[self.i][2]
        lo = None if self.peek(":") else self.expr()
        if not self.peek(":"):
            if lo is None:
                raise self.fail("an index")
            return lo
        self.take(":")
        hi = None if self.peek("]", ",") or self.toks[self.i][0] == "end" else self.expr()
        return Node("slice", None, (lo, hi), col)

    def atom(self) -> Node:
        kind, text, col = self.toks[self.i]
        if kind == "num":
            self.i += 1
            return Node("num", float(text), (), col)
        if kind == "str":
            self.i += 1
            return Node("str", text[1:-1], (), col)
        if kind == "name" and text not in ("and", "or", "not"):
            self.i += 1
            if self.peek("("):
                self.take("(")
                args = []
                if not self.peek(")"):
                    args.append(self.expr())
                    while self.peek(","):
                        self.take(",")
                        args.append(self.expr())
                self.take(")")
                return Node("call", text, tuple(args), col)
            return Node("name", text, (), col)
        if self.peek("("):
            self.take("(")
            node = self.expr()
            self.take(")")
            return node
        raise self.fail("a number, a name or '('")


def parse(src: str, where: str) -> Node:
    """The syntax tree of one formula; `where` names it in errors (file: field)."""
    if not isinstance(src, str):
        raise ExprError(f"{where}: expected a formula (a string), found {type(src).__name__}")
    return _Parser(src, where).parse()


def names_in(node: Node) -> set[str]:
    """Every name a formula reads (functions excluded)."""
    out = {node.value} if node.kind == "name" else set()
    for a in node.args:
        if isinstance(a, Node):
            out |= names_in(a)
    return out


def _per_env_axes(x: np.ndarray) -> tuple[int, ...]:
    return tuple(range(1, x.ndim))


def _reduce(fn: Callable) -> Callable:
    def reduce(ctx, x):
        x = as_array(x)
        return fn(x, axis=_per_env_axes(x)) if x.ndim > 1 else x

    return reduce


def _concat(ctx: "Context", *xs: np.ndarray) -> np.ndarray:
    xs = tuple(as_array(x) for x in xs)
    n = max(x.shape[0] for x in xs)
    flat = [np.broadcast_to(x, (n, *x.shape[1:])).reshape(n, -1) for x in xs]
    return np.concatenate(flat, axis=1)


def _where(ctx: "Context", c: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # a choice per env between values of one shape, or (a task parameter as c) between whole values
    if not isinstance(c, np.ndarray):
        return a if bool(c) else b
    if c.shape[0] == 1 and c.ndim == 1:
        return a if bool(c[0]) else b
    nd = max(np.ndim(a), np.ndim(b))
    return np.where(c.reshape(c.shape + (1,) * (nd - c.ndim)), a, b)


def _uniform(ctx: "Context", lo: np.ndarray, hi: np.ndarray, size: np.ndarray) -> np.ndarray:
    return ctx.draw("uniform", lo, hi, int(as_array(size)[0]))


def _normal(ctx: "Context", size: np.ndarray) -> np.ndarray:
    return ctx.draw("normal", None, None, int(as_array(size)[0]))


def _body(ctx: "Context", name: Any) -> int:
    """MuJoCo's index of the body named `name` (0: the world), as Gymnasium's get_body_com(name) finds
    it: a task names bodies, so it reads the same body of a model given by xml_file."""
    return ctx.body(name)


FUNCTIONS: dict[str, tuple[int, int, Callable]] = {
    # name: (fewest arguments, most arguments, implementation(ctx, *values))
    "sum": (1, 1, _reduce(np.sum)),
    "all": (1, 1, _reduce(np.all)),
    "any": (1, 1, _reduce(np.any)),
    "square": (1, 1, lambda ctx, x: np.square(x)),
    "sin": (1, 1, lambda ctx, x: np.sin(x)),
    "cos": (1, 1, lambda ctx, x: np.cos(x)),
    "abs": (1, 1, lambda ctx, x: np.abs(x)),
    "sqrt": (1, 1, lambda ctx, x: np.sqrt(x)),
    "isfinite": (1, 1, lambda ctx, x: np.isfinite(x)),
    "clip": (3, 3, lambda ctx, x, lo, hi: np.clip(x, lo, hi)),
    "where": (3, 3, _where),
    "concat": (1, 64, _concat),
    "uniform": (3, 3, _uniform),
    "normal": (1, 1, _normal),
    "body": (1, 1, _body),
}

_BINARY = {
    "+": np.add,
    "-": np.subtract,
    "*": np.multiply,
    "/": np.divide,
    "**": np.power,
    "<": np.less,
    "<=": np.less_equal,
    ">": np.greater,
    ">=": np.greater_equal,
    "==": np.equal,
    "!=": np.not_equal,
    "and": np.logical_and,
    "or": np.logical_or,
}


def lift_param(x: Any) -> Any:
    """A task parameter as a value. A number stays a Python scalar: numpy treats it as weak (NEP 50), so
    `ctrl_cost_weight * sum(square(action))` over float32 actions is float32 arithmetic, as it is in
    Gymnasium's own env; a list becomes a (1, n) array that broadcasts over the envs."""
    if isinstance(x, (bool, int, float, np.bool_)):
        return x
    a = np.asarray(x, dtype=np.float64)
    return a.reshape((1, *a.shape))


def _env_aligned(a: Any, b: Any) -> tuple[Any, Any]:
    """Two operands with their env axes lined up: the one of lower rank gets trailing axes, so a per-env
    number meets every entry of the other's per-env value (Humanoid's concat(x, y) / sum(body_mass):
    (n, 2) by (n,)), as the formula means it for one env."""
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.ndim >= 1 and b.ndim >= 1 and a.ndim != b.ndim:
        if a.ndim < b.ndim:
            a = a.reshape(a.shape + (1,) * (b.ndim - a.ndim))
        else:
            b = b.reshape(b.shape + (1,) * (a.ndim - b.ndim))
    return a, b


def as_array(x: Any) -> np.ndarray:
    """A value with its env axis: a scalar is one value shared by every env."""
    return x if isinstance(x, np.ndarray) and x.ndim >= 1 else np.asarray([x])


class Context:
    """The values a formula may read: per-env quantities (leading axis = env) and task parameters."""

    def __init__(
        self,
        values: Mapping[str, np.ndarray],
        params: dict[str, Any],
        where: str,
        draw: Callable | None = None,
        bodies: list[str] | None = None,
    ):
        self.values = values
        self.params = params
        self.where = where
        self._draw = draw
        self.bodies = bodies  # the model's body names in MuJoCo's order, the world first (body())

    def lookup(self, name: str, col: int) -> np.ndarray:
        try:
            return self.values[name]
        except KeyError:
            pass
        if name in self.params:
            return lift_param(self.params[name])
        known = sorted([*self.values, *self.params])
        raise ExprError(f"{self.where}: column {col}: unknown name {name!r} (known here: {', '.join(known)})")

    def body(self, name: Any) -> int:
        if not isinstance(name, str):
            raise ExprError(f"{self.where}: body() takes a body's name in quotes, e.g. body('torso')")
        if self.bodies is None:
            raise ExprError(f"{self.where}: body({name!r}): no model's body names are known here")
        if name not in self.bodies:
            raise ExprError(f"{self.where}: body({name!r}): the model has no such body (bodies: {', '.join(self.bodies)})")
        return self.bodies.index(name)

    def draw(self, kind: str, lo, hi, size: int) -> np.ndarray:
        if self._draw is None:
            raise ExprError(f"{self.where}: random draws ({kind}) are allowed only in reset formulas")
        return self._draw(kind, lo, hi, size)


def _index_of(node: Node, integer: Callable[[Node], int]) -> int | slice:
    """One index: integer(node), or a slice of integer(bound) (None where a bound is left out)."""
    if node.kind == "slice":
        return slice(*(None if a is None else integer(a) for a in node.args))
    return integer(node)


def _integer(ctx: Context, node: Node) -> int:
    return _as_index(evaluate(node, ctx), ctx.where, node.col)


def _as_index(value: Any, where: str, col: int) -> int:
    v = as_array(value)
    if v.shape[0] != 1 or v.size != 1:
        raise ExprError(f"{where}: column {col}: an index must be one number for every env")
    x = v.reshape(-1)[0]
    if isinstance(x, (np.bool_, bool)):
        return int(x)
    if float(x) != math.floor(float(x)):
        raise ExprError(f"{where}: column {col}: an index must be an integer, found {float(x)}")
    return int(x)


def _indexed(base: Any, idx: tuple, where: str, col: int) -> np.ndarray:
    """base[idx] on the per-env axes."""
    x = as_array(base)
    if len(idx) > x.ndim - 1:
        raise ExprError(f"{where}: column {col}: {len(idx)} indices into a value with {x.ndim - 1} axes per env")
    return x[(slice(None), *idx)]


def _call_error(node: Node) -> str | None:
    """What is wrong with a call's function name or argument count (None: nothing)."""
    if node.value not in FUNCTIONS:
        return f"unknown function {node.value!r} (known: {', '.join(sorted(FUNCTIONS))})"
    lo, hi, _ = FUNCTIONS[node.value]
    if not lo <= len(node.args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        return f"{node.value}() takes {want} arguments, got {len(node.args)}"
    return None


def evaluate(node: Node, ctx: Context) -> np.ndarray:
    k = node.kind
    if k == "num":
        return node.value  # a weak scalar (see lift_param)
    if k == "str":
        return node.value
    if k == "name":
        return ctx.lookup(node.value, node.col)
    if k == "unary":
        x = evaluate(node.args[0], ctx)
        return np.logical_not(x) if node.value == "not" else np.negative(x)
    if k == "binary":
        a, b = _env_aligned(evaluate(node.args[0], ctx), evaluate(node.args[1], ctx))
        return _BINARY[node.value](a, b)
    if k == "index":
        return _indexed(evaluate(node.args[0], ctx), tuple(_index_of(a, lambda n: _integer(ctx, n)) for a in node.args[1:]), ctx.where, node.col)
    if k == "call":
        wrong = _call_error(node)
        if wrong:
            raise ExprError(f"{ctx.where}: column {node.col}: {wrong}")
        return FUNCTIONS[node.value][2](ctx, *(evaluate(a, ctx) for a in node.args))
    raise ExprError(f"{ctx.where}: column {node.col}: a slice is allowed only inside [ ]")


# ---- compiled formulas ------------------------------------------------------------------------------
# A formula is evaluated every step for every env; walking its tree costs more than its numpy work on
# small models. compile_formula turns the tree into closures once, and works out when it is compiled
# every part that reads only numbers, task parameters and constants (`where(include_cinert_in_observation,
# cinert[1:], empty)` picks its branch then): the same numpy calls on the same inputs as `evaluate`, so
# the same values, bit for bit. A part that raises is left to raise when evaluated, with the formula's
# place (ctx.where); so is every random draw, as the context parts are worked out in has no draws.

Compiled = Callable[[Context], Any]
_NO_CONTEXT = Context({}, {}, "")  # constant parts read nothing from it; a draw from it raises


def compile_formula(node: Node, fixed: Callable[[str], tuple[bool, Any]]) -> Compiled:
    """`node` as a function of the context. `fixed(name)` is (True, value) for a name whose value the
    context is known to give whatever it holds (a parameter or constant no per-env quantity shadows),
    else (False, None)."""
    return _compile(node, fixed)[0]


def _folded(fn: Compiled, parts: list[tuple[Compiled, bool]]) -> tuple[Compiled, bool]:
    """fn, or its value as a constant when every part is constant (and evaluating it raises nothing)."""
    if not all(c for _, c in parts):
        return fn, False
    try:
        v = fn(_NO_CONTEXT)
    except Exception:  # left to raise at evaluation, where the error can name its formula
        return fn, False
    return (lambda ctx: v), True


def _compile(node: Node, fixed: Callable[[str], tuple[bool, Any]]) -> tuple[Compiled, bool]:
    k = node.kind
    if k in ("num", "str"):
        v = node.value
        return (lambda ctx: v), True
    if k == "name":
        name, col = node.value, node.col
        known, v = fixed(name)
        if known:
            return (lambda ctx: v), True
        return (lambda ctx: ctx.lookup(name, col)), False
    if k == "unary":
        x = _compile(node.args[0], fixed)
        f = x[0]
        fn = (lambda ctx: np.logical_not(f(ctx))) if node.value == "not" else (lambda ctx: np.negative(f(ctx)))
        return _folded(fn, [x])
    if k == "binary":
        a, b = _compile(node.args[0], fixed), _compile(node.args[1], fixed)
        op, fa, fb = _BINARY[node.value], a[0], b[0]
        return _folded(lambda ctx: op(*_env_aligned(fa(ctx), fb(ctx))), [a, b])
    if k == "index":
        base = _compile(node.args[0], fixed)
        idx = [_compile_index(a, fixed) for a in node.args[1:]]
        fbase, fidx, col = base[0], [f for f, _ in idx], node.col
        return _folded(lambda ctx: _indexed(fbase(ctx), tuple(f(ctx) for f in fidx), ctx.where, col), [base, *idx])
    if k == "call":
        wrong = _call_error(node)
        if wrong:
            return _raising(wrong, node.col), False
        fn = FUNCTIONS[node.value][2]
        args = [_compile(a, fixed) for a in node.args]
        fargs = [f for f, _ in args]
        return _folded(lambda ctx: fn(ctx, *(f(ctx) for f in fargs)), args)
    return _raising("a slice is allowed only inside [ ]", node.col), False


def _compile_index(node: Node, fixed: Callable[[str], tuple[bool, Any]]) -> tuple[Compiled, bool]:
    """One index, as evaluate's (_index_of), each integer in it compiled."""
    integers = {id(a): _compile_integer(a, fixed) for a in (node.args if node.kind == "slice" else [node]) if a is not None}
    return _folded(lambda ctx: _index_of(node, lambda a: integers[id(a)][0](ctx)), list(integers.values()))


def _compile_integer(node: Node, fixed: Callable[[str], tuple[bool, Any]]) -> tuple[Compiled, bool]:
    x = _compile(node, fixed)
    f, col = x[0], node.col
    return _folded(lambda ctx: _as_index(f(ctx), ctx.where, col), [x])


def _raising(message: str, col: int) -> Compiled:
    def fail(ctx: Context) -> Any:
        raise ExprError(f"{ctx.where}: column {col}: {message}")

    return fail
