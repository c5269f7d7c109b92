"""The task files' formula language (achilles/gym/expr.py): per-env semantics over a batch, and
errors that name the file, field and column."""

from __future__ import annotations

import numpy as np
import pytest

from achilles.gym.expr import Context, ExprError, evaluate, parse


def ev(src, values=None, params=None):
    return evaluate(parse(src, "t.json: f"), Context(values or {}, params or {}, "t.json: f"))


def test_indexing_and_reductions_act_per_env():
    qpos = np.arange(12.0).reshape(3, 4)  # 3 envs, nq 4
    assert ev("qpos[2:]", {"qpos": qpos}).tolist() == [[2, 3], [6, 7], [10, 11]]
    assert ev("sum(square(qpos[1:3]))", {"qpos": qpos}).tolist() == [1 + 4, 25 + 36, 81 + 100]
    xpos = np.arange(18.0).reshape(3, 2, 3)  # 3 envs, 2 bodies
    assert ev("xpos[1, :2]", {"xpos": xpos}).tolist() == [[3, 4], [9, 10], [15, 16]]
    assert ev("xpos[:, 0]", {"xpos": xpos}).tolist() == [[0, 3], [6, 9], [12, 15]]
    assert ev("concat(qpos[:1], 7)", {"qpos": qpos}).tolist() == [[0, 7], [4, 7], [8, 7]]
    # a per-env vector against a per-env number (Humanoid-v5's centre of mass: concat(...) / sum(body_mass))
    assert ev("concat(sum(qpos[:2]), sum(qpos[2:])) / sum(qpos[:1])", {"qpos": qpos + 1}).tolist() == [
        [3 / 1, 7 / 1],
        [11 / 5, 15 / 5],
        [19 / 9, 23 / 9],
    ]


def test_parameters_broadcast_and_choose():
    q = np.array([[0.1], [0.5]])
    assert ev("r[0] < q[0] and q[0] < r[1]", {"q": q}, {"r": [0.2, 1.0]}).tolist() == [False, True]
    assert ev("where(flag, q, 2 * q)", {"q": q}, {"flag": False}).tolist() == [[0.2], [1.0]]
    assert ev("q[skip:]", {"q": np.ones((2, 3))}, {"skip": True}).shape == (2, 2)
    assert ev("2 ** 3 - -1") == 9.0


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
def test_errors_name_file_field_and_column(src, message):
    with pytest.raises(ExprError, match=message):
        ev(src, {"qpos": np.zeros((2, 3))})
