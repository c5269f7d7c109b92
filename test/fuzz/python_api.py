"""Seeded hostile calls of the Python API (issue 56, "bad input"): one case per seed, in this process;
python/tests/test_fuzz_api.py runs it in a child process and starts it again after a crash or a hang,
so a segfault, an abort or an endless call is seen, not suffered.

Each case gets one operation (by seed, every operation in turn) with hostile arguments: Batch options
and models (a compiled dict spoiled at a random key, paths that are no model), step counts, NaN and
±inf written into the state and controls, arrays of other shapes and dtypes written into the views,
robot indices, constrain(robots=...), set_robot_model/set_robot_parameters, views kept past the batch,
and Gymnasium's make_vec, step, set_state and reset. A case passes when every call either returns or
raises one of the documented exceptions (DOCUMENTED, or gymnasium's own error classes for a closed
env) with a message; and a step that returns has left every robot's state finite (a state that went
non-finite must raise NonFiniteError).

    python3 test/fuzz/python_api.py FIRST_SEED COUNT OUT.jsonl

writes {"seed", "begin": true} before a case and {"seed", "op", "outcome", "type", "message"} after it,
outcome "ok" (it returned), "raised" (a documented exception), "skipped" (gymnasium is missing) or
"bad" (anything else).
"""

from __future__ import annotations

import copy
import gc
import json
import math
import os
import random
import sys
import warnings
from pathlib import Path

import numpy as np

import achilles

REPO = Path(__file__).resolve().parents[2]
MODELS = {
    "double-pendulum": str(REPO / "scenes" / "double-pendulum.arow"),
    "quadruped": str(REPO / "scenes" / "quadruped.arow"),
    "servos": str(REPO / "test" / "fixtures" / "import" / "mjcf-general-servos.xml"),
}
CANARY = "FUZZ-CANARY-7f3a"

# What the API documents it raises for bad input (python/src/achilles: _batch.py, _compile.py, _memory.py,
# gym/task.py, gym/vector.py); NonFiniteError is a FloatingPointError, NonFiniteControlError a ValueError.
DOCUMENTED: tuple[type[BaseException], ...] = (
    ValueError,
    TypeError,
    IndexError,
    MemoryError,
    FloatingPointError,
    NotImplementedError,
    achilles.ModelError,
)

# A message longer than this echoes something whole (a 5,000-character path named once is fine).
MESSAGE_CHARS = 10_000

HOSTILE_NUMBERS = [math.nan, math.inf, -math.inf, 1e308, -1e308, 1e200, 5e-324, -0.0, 1e10, 1e11]
HOSTILE_SCALARS = [
    -1,
    0,
    1.5,
    "1",
    None,
    True,
    2**31,
    2**63,
    2**64,
    10**30,
    -(2**63),
    np.int64(1),
    np.uint64(1),
    np.float64(1.0),
    np.int8(-1),
    math.nan,
    [1],
    (),
    {},
    b"1",
    1 + 2j,
]
DTYPES = [np.float32, np.float16, np.int8, np.int64, np.uint8, np.bool_, np.complex128, object, "U3", "datetime64[s]"]


class Bad(Exception):
    """A case's invariant broken (not an exception of the API)."""


class Ctx:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self._docs: dict[str, dict] = {}
        self.secret = tmp / "secret.txt"
        self.secret.write_text(f"{CANARY} this line must never appear in a message\n")

    def doc(self, name: str) -> dict:
        if name not in self._docs:
            self._docs[name] = achilles.compile_model(MODELS[name])
        return copy.deepcopy(self._docs[name])


def check_finite(b: achilles.Batch) -> None:
    """After a step that returned: every active robot's state finite (else NonFiniteError was owed)."""
    for name in ("q", "v"):
        a = getattr(b, name)[:, : b.copies]
        if a.size and not np.all(np.isfinite(a)):
            raise Bad(f"step() returned, yet {name} holds {a[~np.isfinite(a)][:3].tolist()} (a non-finite state owes NonFiniteError)")


def small_batch(r: random.Random, ctx: Ctx, **kw) -> achilles.Batch:
    name = r.choice(list(MODELS))
    return achilles.Batch(ctx.doc(name), r.choice([1, 2, 3, 5]), precision=r.choice(["f32", "f64"]), **kw)


# ---- operations ----------------------------------------------------------------------------------------


def op_batch_options(r: random.Random, ctx: Ctx) -> str:
    kw = {}
    for key, pool in {
        "copies": [0, -1, 1, 2, 2**24 + 1, 2**31, 2**63, 1.5, "2", None, True, np.int64(3), np.uint8(3), np.float64(2)],
        "precision": ["f32", "f64", "f16", None, 1, "F64"],
        "lanes": [None, 1, 4, 8, 16, 3, 0, -1, "8", 8.0, True, 2**63],
        "threads": [1, 2, 256, 257, 0, -1, 1.5, None, 2**63],
        "integrator": [None, "euler", "rk4", "implicitfast", "x", 1, ""],
        "dt": [None, 0.001, 0, -1, math.nan, math.inf, 1e-320, 1e308, "0.1", True, 1e-9],
        "record": [False, True, "yes", None],
    }.items():
        if r.random() < 0.4:
            kw[key] = r.choice(pool)
    copies = kw.pop("copies", 2)
    name = r.choice(list(MODELS))
    b = achilles.Batch(ctx.doc(name), copies, **kw)
    b.step(2)
    check_finite(b)
    return f"Batch({name}, {copies!r}, {kw!r})"


def _spoil(r: random.Random, node, depth: int = 0):
    """A random leaf (or subtree) of `node` replaced by a hostile value; returns the key path."""
    if isinstance(node, dict) and node:
        k = r.choice(list(node))
        if depth > 0 and r.random() < 0.25:
            choice = r.choice(["delete", "replace"])
            if choice == "delete":
                del node[k]
                return [k, "(deleted)"]
        if isinstance(node[k], (dict, list)) and node[k] and r.random() < 0.8:
            return [k] + _spoil(r, node[k], depth + 1)
        node[k] = _hostile_value(r)
        return [k]
    if isinstance(node, list) and node:
        i = r.randrange(len(node))
        if r.random() < 0.15:
            node.append(copy.deepcopy(node[i]) if r.random() < 0.5 else _hostile_value(r))
            return ["(appended)"]
        if r.random() < 0.1:
            del node[i]
            return [i, "(deleted)"]
        if isinstance(node[i], (dict, list)) and node[i] and r.random() < 0.8:
            return [i] + _spoil(r, node[i], depth + 1)
        node[i] = _hostile_value(r)
        return [i]
    return []


def _hostile_value(r: random.Random):
    return r.choice(
        HOSTILE_NUMBERS
        + [-1, 0, 2**31, 2**63, -(2**63), 10**400, "str", None, [], {}, True, [0] * 1000, [math.nan] * 3, {"x": 1}, 1e-320, 65536, -65536]
    )


def op_model_dict(r: random.Random, ctx: Ctx) -> str:
    name = r.choice(list(MODELS))
    doc = ctx.doc(name)
    where = r.choice(["native", "native", "native", "world", "top"])
    paths = []
    for _ in range(r.choice([1, 1, 2, 3])):
        paths.append(_spoil(r, doc if where == "top" else doc[where] if isinstance(doc.get(where), dict) else doc))
    b = achilles.Batch(doc, r.choice([1, 2, 4]), precision=r.choice(["f32", "f64"]))
    b.step(3)
    check_finite(b)
    b.forward()
    b.collide()
    return f"{name} {where} spoiled at {paths}"


def op_model_path(r: random.Random, ctx: Ctx) -> str:
    path = r.choice(
        [
            str(ctx.secret),
            "/etc/passwd",
            "/dev/null",
            "/dev/zero",
            str(ctx.tmp),
            "",
            "no-such.arow",
            "x" * 5000,
            "a\0b",
            b"/etc/passwd",
            Path(MODELS["double-pendulum"]),
            42,
            None,
            ["a"],
            str(REPO / "package.json"),
            str(REPO / "scenes" / "sweeps" / "quadruped-drop.yaml"),
        ]
    )
    b = achilles.Batch(path, 2)
    b.step(1)
    return f"Batch({str(path)[:60]!r})"


def op_step_count(r: random.Random, ctx: Ctx) -> str:
    b = small_batch(r, ctx)
    n = r.choice(HOSTILE_SCALARS + [0, 1, 3, 10**16, 9 * 10**15 + 1])
    if isinstance(n, (int, np.integer)) and not isinstance(n, bool) and 10 < n <= 9 * 10**15:
        n = 3  # a valid count that would run for years is no bad input
    hold = r.choice([False, True, "no", None, 2])
    b.step(n, hold_controls=hold)
    check_finite(b)
    return f"step({n!r}, hold_controls={hold!r})"


def op_state_values(r: random.Random, ctx: Ctx) -> str:
    b = small_batch(r, ctx, record=r.random() < 0.3)
    field = r.choice(["q", "v", "tau", "act", "ctrl_target", "qacc_warm"])
    a = getattr(b, field)
    x = r.choice(HOSTILE_NUMBERS)
    if a.size:
        a[r.randrange(a.shape[0]), r.randrange(b.copies)] = x
    then = r.choice(["step", "forward", "forward_unconstrained", "collide", "constrain", "kinematics", "contacts"])
    if then == "step":
        b.step(r.choice([1, 3]))
        check_finite(b)
    elif then == "contacts":
        b.collide()
        b.contacts(0)
    elif then == "kinematics":
        b.kinematics()
    else:
        getattr(b, then)()
    return f"{field} = {x!r}, then {then}"


def op_state_arrays(r: random.Random, ctx: Ctx) -> str:
    b = small_batch(r, ctx)
    field = r.choice(["q", "v", "tau", "ctrl"])
    a = getattr(b, field)
    shape = r.choice([a.shape, (a.shape[0] + 1, a.shape[1]), (a.shape[1], a.shape[0]), (3, 3, 3), (), (0,), (a.shape[0], 1)])
    dtype = r.choice(DTYPES)
    try:
        value = np.zeros(shape, dtype=dtype) if dtype not in ("U3",) else np.full(shape, "abc", dtype=dtype)
    except (TypeError, ValueError):
        value = np.zeros(shape)
    index = r.choice([slice(None), (slice(None), slice(0, b.copies)), (0, 0), (-1, -1), (10**6, 0), ([0, 0], [0, 0]), ..., (slice(None), b.stride)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a[index] = value
    b.step(1)
    check_finite(b)
    return f"{field}[{index!r}] = {dtype} array of shape {shape}"


def op_controls(r: random.Random, ctx: Ctx) -> str:
    b = achilles.Batch(ctx.doc(r.choice(["quadruped", "servos"])), r.choice([1, 2, 3]), precision=r.choice(["f32", "f64"]))
    x = r.choice(HOSTILE_NUMBERS + [0.5])
    which = r.choice(["ctrl", "halves"])
    if which == "ctrl":
        b.ctrl[r.randrange(b.nu), r.randrange(b.copies)] = x
    else:
        b.control_halves()[r.randrange(2)][r.randrange(b.nu), r.randrange(b.copies)] = x
    b.step(r.choice([1, 2, 4]), hold_controls=r.random() < 0.5)
    check_finite(b)
    return f"{which} = {x!r}"


def op_robot_index(r: random.Random, ctx: Ctx) -> str:
    b = small_batch(r, ctx)
    i = r.choice(HOSTILE_SCALARS + [b.copies, b.copies - 1, -b.copies])
    call = r.choice(["contacts", "set_robot_model"])
    b.collide()
    if call == "contacts":
        b.contacts(i)
    else:
        b.set_robot_model(i, b.model)
    return f"{call}({i!r})"


def op_constrain_robots(r: random.Random, ctx: Ctx) -> str:
    record = r.random() < 0.5
    b = small_batch(r, ctx, record=record)
    robots = r.choice(
        [[-1], [b.copies], [0, 0], [], None, [1.5], ["a"], [2**63], np.array([0]), np.array([[0]]), range(b.copies), 5, [b.stride], [0] * 1000, "0"]
    )
    b.constrain(record=r.choice([record, not record]), robots=robots)
    return f"constrain(robots={robots!r})"


def op_set_robot_model(r: random.Random, ctx: Ctx) -> str:
    b = small_batch(r, ctx)
    other = r.choice(list(MODELS))
    doc = ctx.doc(other) if r.random() < 0.5 else copy.deepcopy(b.model)
    if r.random() < 0.6:
        _spoil(r, doc["native"])
    b.set_robot_model(r.randrange(b.copies), doc)
    b.step(2)
    check_finite(b)
    return f"set_robot_model(robot, {other} or its own, spoiled)"


def op_set_robot_parameters(r: random.Random, ctx: Ctx) -> str:
    b = achilles.Batch(MODELS["quadruped"], 2)
    name = r.choice(["mass_scale:torso", "friction:ground", "gravity.z", "damping:front_left_shin", "nope", "", "x" * 200_000, "x" * 100_000, "__proto__"])
    value = r.choice(HOSTILE_NUMBERS + ["x", None, [], 1.0])
    robot = r.choice([0, 1, 2, -1, "0", 1.5])
    b.set_robot_parameters({robot: {name: value}})
    b.step(2)
    check_finite(b)
    return f"set_robot_parameters({{{robot!r}: {{{name[:40]!r}: {value!r}}}}})"


def op_views_after(r: random.Random, ctx: Ctx) -> str:
    b = small_batch(r, ctx, record=True)
    views = [b.q, b.v, b.ctrl, b.qacc, b.body_pos, b.last_evaluation()["cfrc_ext"]]
    what = r.choice(["del", "reset", "step"])
    if what == "del":
        del b
        gc.collect()
    elif what == "reset":
        b.reset()
    else:
        b.step(2)
    for v in views:
        v[...] = 1.0
        float(v.sum())
    return f"views written after {what}"


# ---- Gymnasium -----------------------------------------------------------------------------------------


def gym():
    try:
        import gymnasium  # noqa: F401
        import gymnasium.envs.mujoco  # noqa: F401

        from achilles.gym import make_vec
    except ImportError:
        return None
    return make_vec


ENV_IDS = ["InvertedPendulum-v5", "InvertedPendulum-v5", "Hopper-v5"]


def op_gym_make(r: random.Random, ctx: Ctx, make_vec) -> str:
    env_id = r.choice(ENV_IDS + ["Nope-v5", "", "../../package", "../../tsconfig", "InvertedPendulum-v4", None, 1, "a\0b", "x" * 5000])
    n = r.choice([1, 2, 0, -1, 1.5, "2", True, np.int64(2)])
    kw = r.choice(
        [
            {},
            {"precision": "f16"},
            {"lanes": 3},
            {"frame_skip": r.choice([-1, 0, 1.5, "2", 10**9, None])},
            {"xml_file": r.choice(["/etc/passwd", str(ctx.secret), "", ".", "/dev/null", "~nobody/x.xml", "no-such.xml"])},
            {"reset_noise_scale": r.choice([math.nan, math.inf, -1, "x", None, 1e308])},
            {"nope": 1},
            {"threads": 0},
        ]
    )
    env = make_vec(env_id, n, **kw)
    env.reset(seed=1)
    env.step(np.zeros((env.num_envs, env.nu)))
    env.close()
    return f"make_vec({str(env_id)[:40]!r}, {n!r}, {kw!r})"


def _env(r: random.Random, make_vec):
    return make_vec(r.choice(ENV_IDS), r.choice([1, 2, 3]))


def op_gym_step(r: random.Random, ctx: Ctx, make_vec) -> str:
    env = _env(r, make_vec)
    env.reset(seed=r.randrange(100))
    n, nu = env.num_envs, env.nu
    shape = r.choice([(n, nu), (n, nu), (n,), (n, nu + 1), (n + 1, nu), (), (nu, n), (n, nu, 1)])
    dtype = r.choice([np.float64, np.float32, np.float16, np.int8, np.bool_, np.complex128, object, "U3"])
    value = r.choice(HOSTILE_NUMBERS + [0.0, 3.0, None, "x"])
    try:
        actions = np.full(shape, value, dtype=dtype)
    except (TypeError, ValueError, OverflowError):
        actions = np.full(shape, 0.0)
    if r.random() < 0.3:
        env.close()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(r.choice([1, 3])):
            env.step(actions)
    check_finite(env.batch)
    return f"step({dtype} array {shape} of {value!r})"


def op_gym_set_state(r: random.Random, ctx: Ctx, make_vec) -> str:
    env = _env(r, make_vec)
    env.reset(seed=1)
    i = r.choice(HOSTILE_SCALARS + [0, env.num_envs, env.num_envs - 1, -1])
    qpos = np.full(r.choice([(env.nq,), (env.nq,), (env.nq + 1,), (1, env.nq), ()]), r.choice(HOSTILE_NUMBERS + [0.1]))
    qvel = r.choice([np.zeros(env.nv), np.full(env.nv, r.choice(HOSTILE_NUMBERS)), np.zeros(env.nv, dtype=object), "x", None])
    env.set_state(i, qpos, qvel)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(np.zeros((env.num_envs, env.nu)))
    check_finite(env.batch)
    return f"set_state({i!r}, qpos {qpos.shape} of {qpos.flat[0] if qpos.size else None!r}, qvel)"


def op_gym_reset(r: random.Random, ctx: Ctx, make_vec) -> str:
    env = _env(r, make_vec)
    seed = r.choice([None, 0, -1, 2**64, "x", [1], [1] * (env.num_envs + 1), 1.5, np.int64(3), [None] * env.num_envs])
    options = r.choice(
        [None, {}, {"reset_mask": np.zeros(env.num_envs, dtype=bool)}, {"reset_mask": [True] * (env.num_envs + 2)}, {"reset_mask": "x"}, {"reset_mask": [2]}, {"nope": 1}]
    )
    env.reset(seed=seed, options=options)
    env.step(np.zeros((env.num_envs, env.nu)))
    check_finite(env.batch)
    return f"reset(seed={seed!r}, options={options!r})"


OPS = [
    op_batch_options,
    op_model_dict,
    op_model_path,
    op_step_count,
    op_state_values,
    op_state_arrays,
    op_controls,
    op_robot_index,
    op_constrain_robots,
    op_set_robot_model,
    op_views_after,
    op_gym_step,
    op_gym_set_state,
    op_gym_reset,
    op_gym_make,
    op_set_robot_parameters,
]
GYM_OPS = {op_gym_make, op_gym_step, op_gym_set_state, op_gym_reset}


def documented(e: BaseException, op) -> bool:
    if isinstance(e, DOCUMENTED) and str(e).strip():
        return True
    if op in GYM_OPS:
        if type(e).__module__ == "gymnasium.error" and str(e).strip():
            return True  # ClosedEnvironmentError after close()
        if isinstance(e, FileNotFoundError) or (isinstance(e, OSError) and str(e).startswith("File ")):
            return True  # make_vec's xml_file (Gymnasium's rule: "File ... does not exist")
    return False


def run_case(seed: int, ctx: Ctx, make_vec) -> dict:
    op = OPS[(seed - 1) % len(OPS)]
    r = random.Random(seed)
    out = {"seed": seed, "op": op.__name__[3:]}
    if op in GYM_OPS and make_vec is None:
        return {**out, "outcome": "skipped", "type": "", "message": "gymnasium is not installed"}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            what = op(r, ctx, make_vec) if op in GYM_OPS else op(r, ctx)
        return {**out, "outcome": "ok", "type": "", "message": what}
    except Bad as e:
        return {**out, "outcome": "bad", "type": "invariant", "message": str(e)}
    except BaseException as e:  # noqa: BLE001 (every exception is classified)
        if isinstance(e, KeyboardInterrupt):
            raise
        message = str(e)
        ok = documented(e, op) and CANARY not in message and "root:x:0:0" not in message and len(message) <= MESSAGE_CHARS
        return {**out, "outcome": "raised" if ok else "bad", "type": type(e).__name__, "message": message[:2000], "length": len(message)}


def main() -> int:
    first, count, out_file = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    tmp = Path(out_file).parent / f"tmp-{first}"
    tmp.mkdir(parents=True, exist_ok=True)
    ctx = Ctx(tmp)
    make_vec = gym()
    with open(out_file, "a", encoding="utf8") as f:
        for seed in range(first, first + count):
            f.write(json.dumps({"seed": seed, "begin": True}) + "\n")
            f.flush()
            f.write(json.dumps(run_case(seed, ctx, make_vec)) + "\n")
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
