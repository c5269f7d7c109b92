"""Models compiled by the achilles CLI: ``achilles compile FILE`` (TypeScript, src/cli/compile-command.ts)
loads an .arow, MJCF or URDF file exactly as ``achilles run`` does and writes the compiled model as
JSON with exact numbers, so the Python package runs the very model the Node engine runs."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import threading
from typing import Any

from ._repo import REPO_ROOT

FORMAT = "achilles-compiled-model"
VERSION = 1


class ModelError(Exception):
    """A model the CLI could not compile (its message, e.g. FILE:LINE:COL: ...), or no CLI to run."""

    def __init__(self, message: str, path: str | None = None, returncode: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.returncode = returncode


def cli_command() -> list[str]:
    """The command that runs the achilles CLI: ``node <repo>/bin/achilles.js`` (the repository the
    package was built from), or $ACHILLES_NODE_CLI: a .js file run with node, or an executable."""
    cli = os.environ.get("ACHILLES_NODE_CLI") or os.path.join(REPO_ROOT, "bin", "achilles.js")
    if cli.endswith((".js", ".mjs", ".cjs")):
        return ["node", cli]
    return [cli]


def _stamp(files: list[str]) -> tuple | None:
    """What a cached document depends on: each file's mtime and size (None: one is gone)."""
    try:
        return tuple((f, os.stat(f).st_mtime_ns, os.stat(f).st_size) for f in files)
    except OSError:
        return None


# abspath -> (the files it was read from, their stamp, the JSON text)
_cache: dict[str, tuple[list[str], tuple, str]] = {}
_lock = threading.Lock()


def _run_cli(path: str, extra: list[str] | None = None, stdin: str | None = None) -> str:
    cmd = cli_command() + ["compile", path] + (extra or [])
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, check=False, input=stdin)
    except OSError as e:
        # Only a CLI that is not there (or not runnable) is cured by installing it.
        cure = (
            "; install Node.js >= 20 and build the repository (npm ci), or set ACHILLES_NODE_CLI to its bin/achilles.js"
            if e.errno in (errno.ENOENT, errno.EACCES, errno.ENOEXEC)
            else ""
        )
        raise ModelError(f"cannot run the achilles CLI ({' '.join(cmd[:2])}): {e}{cure}", path) from None
    if r.returncode != 0:
        raise ModelError(r.stderr.strip() or f"achilles compile {path} failed (exit {r.returncode})", path, r.returncode)
    return r.stdout


def compile_model(path: str | os.PathLike, parameters: dict | list[dict] | None = None, *, yes: bool = False) -> Any:
    """The compiled model of a scene file (.arow, MJCF or URDF) as a dict: ``format``, ``version``,
    ``source``, ``native`` (what the engine reads), ``world`` (dt, integrator, substeps, gravity,
    duration) and ``names`` (bodies, joints with their q/v offsets, actuators with ctrlrange, shapes).

    Raises ModelError with the CLI's message (FILE:LINE:COL: ...) when the file does not load. Results
    are cached by path and the mtime and size of every file the model was read from (the scene and a
    config; an MJCF <include>d file is not among them). Each call returns a fresh dict.

    parameters: per-robot values written into the model by the names a sweep's randomize.model uses
    ({"mass_scale:torso": 1.2}): a dict gives one model, a list of dicts a list of models (one CLI
    call; not cached).

    yes: read an MJCF model whose <replicate>s make more bodies than the CLI's limit (``--yes``);
    without it such a model raises ModelError with the estimate, at the <replicate>.
    """
    path = os.fspath(path)
    large = ["--yes"] if yes else []
    if parameters is not None:
        if not isinstance(parameters, (dict, list)):
            raise ValueError(f"parameters must be a dict or a list of dicts (got {type(parameters).__name__})")
        # through stdin: a command line holds at most 128 KiB per argument (E2BIG past it)
        return json.loads(_run_cli(path, ["--parameters", "-"] + large, stdin=json.dumps(parameters)))
    if yes:
        return json.loads(_run_cli(path, large))  # not cached: the cache holds models read within the limit
    key = os.path.abspath(path)
    with _lock:
        hit = _cache.get(key)
    if hit is not None and _stamp(hit[0]) == hit[1]:
        return json.loads(hit[2])
    text = _run_cli(path)
    doc = json.loads(text)
    deps = [key] + [os.path.abspath(f) for f in doc.get("files", [])[1:]]
    stamp = _stamp(deps)
    if stamp is not None:
        with _lock:
            _cache[key] = (deps, stamp, text)
    return doc


def check_compiled(doc: Any) -> None:
    """Refuse what is not a compiled model this package reads (a ValueError naming the key)."""
    if not isinstance(doc, dict):
        raise ValueError(f"model must be a path, a dict from compile_model or put_model, or a mujoco.MjModel (got {type(doc).__name__})")
    if doc.get("format") != FORMAT:
        raise ValueError(f"model['format'] must be '{FORMAT}' (got {doc.get('format')!r})")
    if doc.get("version") != VERSION:
        raise ValueError(f"model['version'] must be {VERSION} (got {doc.get('version')!r}): recompile it with this package")
    world = doc.get("world")
    if not isinstance(world, dict):
        raise ValueError("model['world'] must be a dict {dt, integrator, substeps, gravity, duration}")
    for key, kind in (("dt", (int, float)), ("integrator", str), ("substeps", int)):
        v = world.get(key)
        if not isinstance(v, kind) or isinstance(v, bool):
            raise ValueError(f"model['world']['{key}'] must be a {'string' if kind is str else 'number'} (got {v!r})")
    if "native" not in doc:
        raise ValueError("model['native'] is missing (the model the engine reads)")
