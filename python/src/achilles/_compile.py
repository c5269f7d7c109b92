"""Models compiled into the document the native core reads, by one of two routes:

- the achilles CLI: ``achilles compile FILE`` (TypeScript, src/cli/compile-command.ts) loads an .arow,
  MJCF or URDF file exactly as ``achilles run`` does and writes the compiled model as JSON with exact
  numbers, so the Python package runs the very model the Node engine runs;
- without Node (an installed wheel, no checkout): an MJCF file compiled by MuJoCo and turned into the
  same document by put_model (_mujoco_route.py).

The CLI wins when both are there: our importer refuses what it does not implement at its
FILE:LINE:COL, and reads .arow, URDF and per-robot parameters, which MuJoCo's route cannot."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import threading
from typing import Any

from ._repo import REPO_ROOT

FORMAT = "achilles-compiled-model"
VERSION = 1

# How to get the CLI, said wherever it is missing.
GET_THE_CLI = (
    "install Node.js >= 20 and the achilles CLI (npm install -g achilles-sim, which puts `achilles` on PATH, "
    "or a clone of the repository after npm ci), or set ACHILLES_NODE_CLI to its bin/achilles.js"
)


class ModelError(Exception):
    """A model that could not be compiled (the CLI's message, e.g. FILE:LINE:COL: ..., or MuJoCo's),
    or a file that needs a compiler that is not there."""

    def __init__(self, message: str, path: str | None = None, returncode: int | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.returncode = returncode


def _command(cli: str) -> list[str]:
    """A .js file is run with node; anything else is an executable."""
    return ["node", cli] if cli.endswith((".js", ".mjs", ".cjs")) else [cli]


def find_cli() -> list[str] | None:
    """The command that runs the achilles CLI, or None where none is reachable. In this order:

    1. $ACHILLES_NODE_CLI (a .js file run with node, or an executable), as given: a wrong one is an
       error when it runs, never passed over;
    2. the checkout the package was built from (_repo.py), when its bin/achilles.js and built dist/
       are still there and node is on PATH;
    3. ``achilles`` on PATH (the npm package's command), when node is on PATH too (its script runs
       with ``#!/usr/bin/env node``)."""
    explicit = os.environ.get("ACHILLES_NODE_CLI")
    if explicit:
        return _command(explicit)
    if shutil.which("node") is None:
        return None
    if REPO_ROOT:
        script = os.path.join(REPO_ROOT, "bin", "achilles.js")
        if os.path.isfile(script) and os.path.isfile(os.path.join(REPO_ROOT, "dist", "cli", "main.js")):
            return _command(script)
    on_path = shutil.which("achilles")
    return [on_path] if on_path else None


def _stamp(files: list[str]) -> tuple | None:
    """What a cached document depends on: each file's mtime and size (None: one is gone)."""
    try:
        return tuple((f, os.stat(f).st_mtime_ns, os.stat(f).st_size) for f in files)
    except OSError:
        return None


# (route, abspath) -> (the files it was read from, their stamp, the JSON text)
_cache: dict[tuple[str, str], tuple[list[str], tuple, str]] = {}
_lock = threading.Lock()


def _run_cli(cli: list[str], path: str, extra: list[str] | None = None, stdin: str | None = None) -> str:
    cmd = cli + ["compile", path] + (extra or [])
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, check=False, input=stdin)
    except OSError as e:
        # Only a CLI that is not there (or not runnable) is cured by installing it.
        cure = f"; {GET_THE_CLI}" if e.errno in (errno.ENOENT, errno.EACCES, errno.ENOEXEC) else ""
        raise ModelError(f"cannot run the achilles CLI ({' '.join(cmd[:2])}): {e}{cure}", path) from None
    if r.returncode != 0:
        raise ModelError(r.stderr.strip() or f"achilles compile {path} failed (exit {r.returncode})", path, r.returncode)
    return r.stdout


def _cached(route: str, path: str, compile_text: Any) -> Any:
    """compile_text(path)'s document, from the cache while the files it was read from are unchanged."""
    key = os.path.abspath(path)
    with _lock:
        hit = _cache.get((route, key))
    if hit is not None and _stamp(hit[0]) == hit[1]:
        return json.loads(hit[2])
    text = compile_text(path)
    doc = json.loads(text)
    deps = [key] + [os.path.abspath(f) for f in doc.get("files", [])[1:]]
    stamp = _stamp(deps)
    if stamp is not None:
        with _lock:
            _cache[(route, key)] = (deps, stamp, text)
    return doc


def compile_model(path: str | os.PathLike, parameters: dict | list[dict] | None = None, *, yes: bool = False) -> Any:
    """The compiled model of a scene file (.arow, MJCF or URDF) as a dict: ``format``, ``version``,
    ``source``, ``native`` (what the engine reads), ``world`` (dt, integrator, substeps, gravity,
    duration) and ``names`` (bodies, joints with their q/v offsets, actuators with ctrlrange, shapes).

    Compiled by the achilles CLI when one is reachable (find_cli: $ACHILLES_NODE_CLI, the checkout the
    package was built from, or ``achilles`` on PATH, with Node): it reads every file type, and a file
    that does not load raises ModelError with its message (FILE:LINE:COL: ...). The CLI wins over
    MuJoCo wherever both are there, for those errors at their place and so that a model is the one
    the Node engine runs. Without a CLI (an installed wheel, no Node) an MJCF file is compiled by
    MuJoCo (mujoco.MjModel.from_xml_path, then put_model), and a file MuJoCo refuses raises ModelError
    with MuJoCo's message; an .arow or URDF file, or `parameters`, raise ModelError saying they need
    the CLI and how to get it. (To compile an MJCF file through MuJoCo while the CLI is there, call
    achilles.put_model(mujoco.MjModel.from_xml_path(path)).)

    Results are cached by path and the mtime and size of every file the model was read from (the
    scene and a config; an MJCF <include>d file is not among them). Each call returns a fresh dict.

    parameters: per-robot values written into the model by the names a sweep's randomize.model uses
    ({"mass_scale:torso": 1.2}): a dict gives one model, a list of dicts a list of models (one CLI
    call; not cached).

    yes: read an MJCF model whose <replicate>s make more bodies than the CLI's limit (``--yes``);
    without it such a model raises ModelError with the estimate, at the <replicate>. (MuJoCo's route
    has no such limit.)
    """
    path = os.fspath(path)
    if parameters is not None and not isinstance(parameters, (dict, list)):
        raise ValueError(f"parameters must be a dict or a list of dicts (got {type(parameters).__name__})")
    cli = find_cli()
    if cli is None:
        from ._mujoco_route import compile_with_mujoco  # imports mujoco only when it is the route

        if parameters is not None:
            raise ModelError(f"{path}: per-robot parameters are written into a model by the achilles CLI, which was not found: {GET_THE_CLI}", path)
        return _cached("mujoco", path, compile_with_mujoco)
    large = ["--yes"] if yes else []
    if parameters is not None:
        # through stdin: a command line holds at most 128 KiB per argument (E2BIG past it)
        return json.loads(_run_cli(cli, path, ["--parameters", "-"] + large, stdin=json.dumps(parameters)))
    if yes:
        return json.loads(_run_cli(cli, path, large))  # not cached: the cache holds models read within the limit
    return _cached("cli", path, lambda p: _run_cli(cli, p))


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
