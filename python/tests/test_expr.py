"""The task files' formula language (achilles/gym/expr.py): per-env semantics over a batch, and
errors that name the file, field and column."""

from __future__ import annotations

import numpy as np
import pytest

from achilles.gym.expr import Context, ExprError, compile_formula, evaluate, lift_param, parse


@pytest.fixture(params=["evaluated", "compiled"], autouse=True)
def how(request):
    """Every test runs the formula both ways: walked by evaluate, and as compile_formula's closures
    with the parameters fixed (so its early work on them must change no value and no error)."""
    return request.param


def compiled(src, values, params):
    def fixed(name):
        if name in values or name not in params:
            return False, None
        return True, lift_param(params[name])

    return compile_formula(parse(src, "t.json: f"), fixed)


def ev(src, values=None, params=None, *, how="evaluated"):
    values, params = values or {}, params or {}
    ctx = Context(values, params, "t.json: f")
    return evaluate(parse(src, "t.json: f"), ctx) if how == "evaluated" else compiled(src, values, params)(ctx)


def test_indexing_and_reductions_act_per_env(how):
    qpos = np.arange(12.0).reshape(3, 4)  # 3 envs, nq 4
    assert ev("qpos[2:]", {"qpos": qpos}, how=how).tolist() == [[2, 3], [6, 7], [10, 11]]
    assert ev("sum(square(qpos[1:3]))", {"qpos": qpos}, how=how).tolist() == [1 + 4, 25 + 36, 81 + 100]
    xpos = np.arange(18.0).reshape(3, 2, 3)  # 3 envs, 2 bodies
    assert ev("xpos[1, :2]", {"xpos": xpos}, how=how).tolist() == [[3, 4], [9, 10], [15, 16]]
    assert ev("xpos[:, 0]", {"xpos": xpos}, how=how).tolist() == [[0, 3], [6, 9], [12, 15]]
    assert ev("concat(qpos[:1], 7)", {"qpos": qpos}, how=how).tolist() == [[0, 7], [4, 7], [8, 7]]
    # a per-env vector against a per-env number (Humanoid-v5's centre of mass: concat(...) / sum(body_mass))
    assert ev("concat(sum(qpos[:2]), sum(qpos[2:])) / sum(qpos[:1])", {"qpos": qpos + 1}, how=how).tolist() == [
        [3 / 1, 7 / 1],
        [11 / 5, 15 / 5],
        [19 / 9, 23 / 9],
    ]


def test_parameters_broadcast_and_choose(how):
    q = np.array([[0.1], [0.5]])
    assert ev("r[0] < q[0] and q[0] < r[1]", {"q": q}, {"r": [0.2, 1.0]}, how=how).tolist() == [False, True]
    assert ev("where(flag, q, 2 * q)", {"q": q}, {"flag": False}, how=how).tolist() == [[0.2], [1.0]]
    assert ev("q[skip:]", {"q": np.ones((2, 3))}, {"skip": True}, how=how).shape == (2, 2)
    assert ev("2 ** 3 - -1", how=how) == 9.0


@pytest.mark.parametrize(
    "src, message",
    [
        ("qpos[1:", r"t\.json: f: column 8: expected '\]', found the end"),
        ("qpos + ", r"column 8: expected a number, a name or '\('"),
        ("qpos $ 1", r"column 6: unexpected '\$ 1'"),
        ("qpoz[0]", r"column 1: unknown name 'qpoz' \(known here: qpos\)"),
        ("clamp(qpos, 0, 1)", r"column 1: unknown function 'clamp'"),
        ("clip(qpos, 0)", r"clip\(\) takes 3 arguments, got 2"),
        ("qpos[0.5]", r"an index must be an integer, found 0.5"),
        ("qpos[0, 1]", r"2 indices into a value with 1 axes per env"),
        ("uniform(0, 1, 3)", r"random draws \(uniform\) are allowed only in reset formulas"),
    ],
)
def test_errors_name_file_field_and_column(src, message, how):
    with pytest.raises(ExprError, match=message):
        ev(src, {"qpos": np.zeros((2, 3))}, how=how)


def test_compiled_draws_happen_at_each_evaluation_and_bad_parts_raise_there():
    """Nothing random is worked out at compile time, and a part of parameters that fails (a fractional
    index) fails when evaluated, naming its place."""
    calls = []

    def draw(kind, lo, hi, size):
        calls.append(kind)
        return np.full((2, size), float(len(calls)))

    f = compiled("init + uniform(-s, s, 3)", {"init": np.zeros((2, 3))}, {"s": 0.1})
    assert calls == []
    ctx = Context({"init": np.zeros((2, 3))}, {"s": 0.1}, "t.json: f", draw)
    assert f(ctx).tolist() == [[1, 1, 1]] * 2 and f(ctx).tolist() == [[2, 2, 2]] * 2
    bad = compiled("qpos[half]", {"qpos": np.zeros((2, 3))}, {"half": 0.5})
    with pytest.raises(ExprError, match=r"t\.json: f: column 6: an index must be an integer, found 0.5"):
        bad(Context({"qpos": np.zeros((2, 3))}, {"half": 0.5}, "t.json: f"))


def _corpus():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "test" / "fixtures" / "gym" / "formula-corpus.json"
    return json.loads(path.read_text())["cases"]


@pytest.mark.parametrize("case", _corpus(), ids=lambda c: c["src"])
def test_shared_corpus_as_typescript_evaluates_it(case, how):
    """The formulas of test/fixtures/gym/formula-corpus.json, which test/gym-task.test.ts evaluates in
    TypeScript: the same value exactly, or the same error."""
    values = {k: np.asarray(v, dtype=np.float64)[None] for k, v in case.get("values", {}).items()}
    params = case.get("params", {})
    ctx = Context(values, params, "t.json: f", bodies=case.get("bodies"))
    run = (lambda: evaluate(parse(case["src"], "t.json: f"), ctx)) if how == "evaluated" else (lambda: compiled(case["src"], values, params)(ctx))
    if "error" in case:
        with pytest.raises(ExprError) as e:
            run()
        assert case["error"] in str(e.value)
        return
    got = np.asarray(run())
    got = got[0] if got.ndim >= 1 and got.shape[0] == 1 else got
    assert got.tolist() == case["value"]
