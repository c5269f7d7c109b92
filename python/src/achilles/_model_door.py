"""The one door from the models a user holds into the engine: a scene file's path (compiled by
compile_model), a compiled document (from compile_model or put_model, taken as it is) or a
``mujoco.MjModel`` (through put_model: no XML, no Node). Batch, set_robot_model, rollout,
derivatives and the Gymnasium vector envs all take a model through it."""

from __future__ import annotations

import os
from typing import Any

from ._compile import compile_model


def is_mjmodel(model: Any) -> bool:
    """Whether `model` is a mujoco.MjModel (told by its type, so mujoco need not be imported here)."""
    t = type(model)
    return t.__name__ == "MjModel" and t.__module__.split(".")[0] == "mujoco"


def compiled_of(model: Any) -> Any:
    """The compiled document of `model`; anything else is handed on as it is, for check_compiled to
    name what it is."""
    if isinstance(model, (str, os.PathLike)):
        return compile_model(model)
    if is_mjmodel(model):
        from ._put_model import put_model

        return put_model(model)
    return model
