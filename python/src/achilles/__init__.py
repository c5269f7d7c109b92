"""Achilles from Python: the batched SIMD robot simulator's native core (the very sources of the Node
engine), with models compiled by the achilles CLI, or without Node by MuJoCo (MJCF; compile_model).

    import achilles
    b = achilles.Batch("scenes/double-pendulum.arow", copies=8, precision="f64", dt=0.001)
    b.q[0, :] += 0.1          # coordinate 0 of every robot (a view of the engine's memory)
    b.step(1000)              # one simulated second
    print(b.time, b.q[:, 0])  # robot 0's coordinates
"""

from ._batch import Batch, NonFiniteControlError, NonFiniteError
from ._compile import ModelError, compile_model
from ._native import cpu_info

__all__ = [
    "Batch",
    "ModelError",
    "NonFiniteControlError",
    "NonFiniteError",
    "compile_model",
    "cpu_info",
    "mjd_transitionFD",
    "put_model",
]


def put_model(m, keyframe=None, *, name=None):
    """The compiled model of a ``mujoco.MjModel`` (no XML, no Node): the document ``compile_model``
    returns for the same model read from MJCF (see _put_model.py). Imports mujoco on first use."""
    from ._put_model import put_model as _put

    return _put(m, keyframe, name=name)


def __getattr__(name: str):
    """MuJoCo's drop-ins, imported on first use (they need the mujoco package, the engine does not)."""
    if name == "mjd_transitionFD":
        import importlib

        return importlib.import_module(".derivatives", __name__).mjd_transitionFD
    raise AttributeError(f"module 'achilles' has no attribute {name!r}")
