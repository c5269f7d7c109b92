"""A Gymnasium MuJoCo task as its file in tasks/gymnasium/ states it: model, frame skip, parameters
(the keyword arguments Gymnasium's env accepts), observation, per-step terms (reward, termination,
info) and reset distribution, each a formula of expr.py over MuJoCo's quantities.

The quantities a formula may read, per env, in MuJoCo's names and layouts (mjData after
Gymnasium's `do_simulation`: mj_step, then mj_rnePostConstraint):

  qpos (nq) qvel (nv) ctrl (nu, the action as set) action (nu, as given) qfrc_actuator (nv)
  qfrc_constraint (nv) xpos xipos (nbody × 3) cinert (nbody × 10) cvel cfrc_ext (nbody × 6)
  site_xpos (nsite × 3) body_mass (nbody) init_qpos (nq) init_qvel (nv) state_vector (nq + nv)
  dt (timestep × frame_skip) timestep (the model's) nq nv nu, and the constants true, false, inf, empty.

`before` formulas are read before the step; `step` entries are evaluated in file order, each
seeing the ones above it (and `observation`); `reward` and `terminated` are required among them.
`body('name')` is MuJoCo's index of a body (Gymnasium's get_body_com(name) is xpos[body(name)]).

`reset` entries are evaluated in file order too, each seeing the ones above it; `qpos` and `qvel`
(required) are the state the env is reset to. An entry may be rejection-sampled, as Gymnasium's
reset_model draws Reacher's goal and Pusher's cylinder:

  "goal": {"draw": "uniform(-0.2, 0.2, 2)", "until": "sqrt(sum(square(goal))) < 0.2"}

draws `draw`, then, for each env whose `until` (reading the candidate under the entry's name) is
false, draws it again from that env's own stream, until every env's holds (at most MAX_REDRAWS
draws per env). So an env's draws come in Gymnasium's order: the entries' in file order, a rejected
candidate's before its replacement's.
"""

from __future__ import annotations

import json
import math
import os
from collections import ChainMap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .expr import Compiled, Context, ExprError, Node, as_array, compile_formula, evaluate, lift_param, parse

# Keyword arguments of Gymnasium's MujocoEnv that only concern rendering: accepted and ignored, as a
# headless simulator has nothing to render (Gymnasium's own env would also accept them).
RENDER_KWARGS = frozenset(
    {"render_mode", "width", "height", "camera_id", "camera_name", "default_camera_config", "max_geom", "visual_options"}
)

CONSTANTS = {
    "true": np.asarray([True]),
    "false": np.asarray([False]),
    "inf": np.asarray([math.inf]),
    "empty": np.zeros((1, 0)),
}


# A bound on a rejection-sampled reset entry's draws per env: Gymnasium's loops have none, but an
# `until` that (almost) never holds would hang the env; Reacher's and Pusher's accept 79% and 88%.
MAX_REDRAWS = 10_000


def task_dir() -> Path:
    """Where the task files are: ACHILLES_TASK_DIR, else the package's own copy (achilles/tasks/gymnasium,
    copied in from the repository's tasks/gymnasium when the package was built: python/CMakeLists.txt),
    else tasks/gymnasium of the repository the package was built from, else of the source tree this
    file is in (the package run from a checkout). So an installed package reads the files it was
    built with, even where the checkout has changed or is gone; ACHILLES_TASK_DIR reads others."""
    env = os.environ.get("ACHILLES_TASK_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    candidates = [here.parents[1] / "tasks" / "gymnasium"]  # achilles/gym/task.py -> achilles/tasks/gymnasium
    try:
        from .._repo import REPO_ROOT  # written at build time (python/CMakeLists.txt)

        candidates.append(Path(REPO_ROOT) / "tasks" / "gymnasium")
    except ImportError:
        pass
    candidates.append(here.parents[4] / "tasks" / "gymnasium")  # python/src/achilles/gym/task.py in a checkout
    for cand in candidates:
        if cand.is_dir():
            return cand
    raise FileNotFoundError(f"no task files in {', '.join(map(str, candidates))} (set ACHILLES_TASK_DIR)")


def task_ids() -> list[str]:
    return sorted(p.stem for p in task_dir().glob("*.json"))


def _param_value(v: Any) -> Any:
    """JSON has no infinity: the task files write it "inf" / "-inf"."""
    if isinstance(v, list):
        return [_param_value(x) for x in v]
    if v == "inf":
        return math.inf
    if v == "-inf":
        return -math.inf
    return v


@dataclass
class Task:
    id: str
    file: str
    model: str  # the model file, a path (the task's own, or the xml_file keyword argument)
    frame_skip: int
    max_episode_steps: int
    params: dict[str, Any]
    observation: Node
    before: dict[str, Node]
    step: dict[str, Node]
    info: list[str]
    reset: dict[str, Node]  # in file order; a rejection-sampled entry's draw formula
    reset_info: dict[str, Node]
    reset_until: dict[str, Node] = field(default_factory=dict)  # the `until` of rejection-sampled reset entries
    bodies: list[str] | None = None  # the model's body names, MuJoCo's order (body()); set by the env
    compiled: dict[int, Compiled] = field(default_factory=dict, repr=False)  # by id(formula): compile_formulas

    def formulas(self) -> list[Node]:
        return [
            self.observation,
            *self.before.values(),
            *self.step.values(),
            *self.reset.values(),
            *self.reset_until.values(),
            *self.reset_info.values(),
        ]

    def compile_formulas(self, per_env: frozenset[str]) -> None:
        """Every formula as closures (expr.compile_formula), evaluated as before, bit for bit. `per_env`:
        the names the caller's values give per env (its quantities); with this task's own before and
        step terms and `observation`, they shadow a constant or parameter of the same name, as
        Context.lookup reads them first. Any other name of a constant or parameter is fixed now."""
        shadowed = frozenset(per_env) | set(self.before) | set(self.step) | set(self.reset) | {"observation"}

        def fixed(name: str) -> tuple[bool, Any]:
            if name in shadowed:
                return False, None
            if name in CONSTANTS:
                return True, CONSTANTS[name]
            if name in self.params:
                return True, lift_param(self.params[name])
            return False, None

        self.compiled = {id(f): compile_formula(f, fixed) for f in self.formulas()}

    # -- evaluation over N envs at once ------------------------------------------------------
    def _eval(self, node: Node, ctx: Context, n: int) -> np.ndarray:
        """A formula's value for each of the n envs (a value shared by all of them repeated)."""
        run = self.compiled.get(id(node))
        v = as_array(run(ctx) if run else evaluate(node, ctx))
        return np.broadcast_to(v, (n, *v.shape[1:])) if v.shape[0] == 1 and n != 1 else v

    def _ctx(self, values: Mapping[str, np.ndarray], where: str, draw: Callable | None = None) -> Context:
        # a chain, not a merged dict: a recorded quantity is formed only when a formula reads it
        return Context(ChainMap(values, CONSTANTS), self.params, f"{self.file}: {where}", draw, self.bodies)

    def observe(self, values: Mapping[str, np.ndarray]) -> np.ndarray:
        obs = self._eval(self.observation, self._ctx(values, "observation"), len(values["qpos"]))
        return np.asarray(obs, dtype=np.float64).reshape(obs.shape[0], -1)

    def read_before(self, values: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {k: self._eval(n, self._ctx(values, f"before.{k}"), len(values["qpos"])) for k, n in self.before.items()}

    def step_terms(self, values: Mapping[str, np.ndarray], before: dict[str, np.ndarray], observation: np.ndarray) -> dict[str, np.ndarray]:
        """Every `step` entry, in file order, for every env: reward, terminated, the info terms."""
        scope = ChainMap({**before, "observation": observation}, values)
        out: dict[str, np.ndarray] = {}
        for k, n in self.step.items():
            v = self._eval(n, self._ctx(scope, f"step.{k}"), len(values["qpos"]))
            scope[k] = v
            out[k] = v
        return out

    def reset_state(self, values: Mapping[str, np.ndarray], draw: Callable) -> tuple[np.ndarray, np.ndarray]:
        """Every reset entry in file order; the (qpos, qvel) they give. `draw(kind, lo, hi, size, rows)`:
        an (n, size) array whose rows where `rows` (a mask; None: all) holds are drawn, each from its
        env's stream, the others 0 (a rejection-sampled entry's redraw draws for some envs only)."""
        n = len(values["qpos"])
        scope = ChainMap({}, values)
        for k, node in self.reset.items():
            v = self._eval(node, self._ctx(scope, f"reset.{k}", draw), n)
            until = self.reset_until.get(k)
            if until is not None:
                v = self._redraw(k, node, until, np.array(v), scope, draw, n)
            scope[k] = v
        return scope["qpos"], scope["qvel"]

    def _redraw(self, k: str, node: Node, until: Node, v: np.ndarray, scope: ChainMap, draw: Callable, n: int) -> np.ndarray:
        """Entry k drawn again for the envs whose `until` is false, until it holds for all of them."""
        pending = np.ones(n, dtype=bool)
        for draws in range(1, MAX_REDRAWS + 1):
            ok = self._eval(until, self._ctx(ChainMap({k: v}, scope), f"reset.{k}.until"), n)
            pending &= ~np.asarray(ok, dtype=bool).reshape(n)
            if not pending.any():
                return v
            if draws == MAX_REDRAWS:
                break
            rows = pending.copy()
            redrawn = self._eval(node, self._ctx(scope, f"reset.{k}", lambda kind, lo, hi, size: draw(kind, lo, hi, size, rows)), n)
            v[rows] = redrawn[rows]
        raise ExprError(f"{self.file}: reset.{k}.until: still false after {MAX_REDRAWS} draws for envs {np.flatnonzero(pending).tolist()}")

    def read_reset_info(self, values: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {k: self._eval(n, self._ctx(values, f"reset_info.{k}"), len(values["qpos"])) for k, n in self.reset_info.items()}


def _reset_entries(raw: dict[str, Any], file: str) -> tuple[dict[str, Node], dict[str, Node]]:
    """The reset entries in file order (a formula, or {"draw": formula, "until": formula}) and the
    `until` of the rejection-sampled ones."""
    reset, until = {}, {}
    for k, v in raw.items():
        if isinstance(v, dict):
            if set(v) != {"draw", "until"}:
                raise ExprError(f"{file}: reset.{k}: a rejection-sampled entry has exactly the keys 'draw' and 'until', found {sorted(v)}")
            reset[k] = parse(v["draw"], f"{file}: reset.{k}.draw")
            until[k] = parse(v["until"], f"{file}: reset.{k}.until")
        else:
            reset[k] = parse(v, f"{file}: reset.{k}")
    for required in ("qpos", "qvel"):
        if required not in reset:
            raise ExprError(f"{file}: reset has no {required!r} entry")
    return reset, until


def load_task(env_id: str, **kwargs: Any) -> Task:
    """The task `env_id` with Gymnasium's keyword arguments applied (an unknown one is an error, as
    Gymnasium's env raises one): its parameters, `xml_file` and `frame_skip`."""
    # An id is looked up among the task files, never joined into a path: '../../package' would read
    # another JSON file, and a 5,000-character id would raise the OS's ENAMETOOLONG.
    if not isinstance(env_id, str) or env_id not in task_ids():
        shown = repr(env_id) if len(repr(env_id)) <= 80 else f"{repr(env_id)[:77]}..."
        raise ValueError(f"unknown task {shown}: the tasks are {', '.join(task_ids())}")
    path = task_dir() / f"{env_id}.json"
    with open(path) as f:
        raw = json.load(f)
    file = str(path)
    params = {k: _param_value(v) for k, v in raw["params"].items()}
    model = raw["model"]
    frame_skip = int(raw["frame_skip"])
    for k, v in kwargs.items():
        if k == "xml_file":
            model = v
        elif k == "frame_skip":
            if not (isinstance(v, int) and v >= 1):
                raise ValueError(f"{env_id}: frame_skip must be an integer >= 1, got {v!r}")
            frame_skip = v
        elif k in params:
            params[k] = _param_value(list(v) if isinstance(v, tuple) else v)
        elif k in RENDER_KWARGS:
            continue
        else:
            known = sorted([*params, "xml_file", "frame_skip", *RENDER_KWARGS])
            raise TypeError(f"{env_id}: unexpected keyword argument {k!r} (accepted: {', '.join(known)})")
    step = {k: parse(v, f"{file}: step.{k}") for k, v in raw["step"].items()}
    for required in ("reward", "terminated"):
        if required not in step:
            raise ExprError(f"{file}: step has no {required!r} entry")
    for name in raw["info"]:
        if name not in step:
            raise ExprError(f"{file}: info names {name!r}, which no step entry defines")
    reset, reset_until = _reset_entries(raw["reset"], file)
    return Task(
        id=raw["id"],
        file=file,
        model=model,
        frame_skip=frame_skip,
        max_episode_steps=int(raw["max_episode_steps"]),
        params=params,
        observation=parse(raw["observation"], f"{file}: observation"),
        before={k: parse(v, f"{file}: before.{k}") for k, v in raw["before"].items()},
        step=step,
        info=list(raw["info"]),
        reset=reset,
        reset_until=reset_until,
        reset_info={k: parse(v, f"{file}: reset_info.{k}") for k, v in raw["reset_info"].items()},
    )
