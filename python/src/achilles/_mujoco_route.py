"""compile_model without the Node CLI: an MJCF file compiled by MuJoCo (mujoco.MjModel.from_xml_path)
and turned into the document the CLI writes by put_model (_put_model.py). Only MJCF goes this way:
an .arow scene and a URDF file are read by our own importers, which live in the CLI, so without it
they raise ModelError saying so (MuJoCo reads URDF too, but by its own rules, not ours)."""

from __future__ import annotations

import json
import re
from typing import Any

from ._compile import GET_THE_CLI, ModelError

# What may stand before an XML file's root element: blanks, processing instructions, comments and a
# DOCTYPE whose internal subset [...] may hold '>' (the CLI's rule, src/model-files/common/xml-root.ts).
_PROLOG_ITEM = re.compile(r"""(?:\s+|<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^>\[]|\[(?:[^\]"']|"[^"]*"|'[^']*')*\])*>)""", re.S | re.I)
_ROOT = re.compile(r"<([A-Za-z_][\w:.-]*)")


def xml_root(path: str) -> str | None:
    """The name of the root element of the XML file `path` (read from its first 64 KiB), '' when it is
    XML whose root cannot be read, None when it is not XML. OSError when it cannot be read."""
    with open(path, "rb") as f:
        text = f.read(65536).decode("utf-8", errors="replace").lstrip("\ufeff")
    if not text.lstrip().startswith("<"):
        return None
    i = 0
    while m := _PROLOG_ITEM.match(text, i):
        if m.end() == i:
            break
        i = m.end()
    m = _ROOT.match(text, i)
    return m.group(1) if m else ""


def _what_needs_the_cli(path: str, root: str | None) -> str:
    if root == "robot":
        return "a URDF file is read by the achilles CLI's URDF importer"
    if path.lower().endswith(".arow") or root is None:
        return "an .arow scene is read by the achilles CLI"
    return f"<{root}> is not an MJCF <mujoco> root, and other files are read by the achilles CLI"


def compile_with_mujoco(path: str) -> str:
    """The compiled document (JSON text) of the MJCF file `path`, through MuJoCo and put_model; its
    `source` and `files` name the file, as the CLI's do."""
    try:
        root = xml_root(path)
    except OSError as e:
        raise ModelError(f"{path}: cannot read the file: {e.strerror or e}", path) from None
    if root != "mujoco":
        raise ModelError(
            f"{path}: {_what_needs_the_cli(path, root)}, which was not found: {GET_THE_CLI}. "
            "Without it, compile_model reads MJCF files (root <mujoco>), compiled by MuJoCo.",
            path,
        )
    try:
        import mujoco
    except ImportError:
        raise ModelError(f"{path}: an MJCF file is compiled by the achilles CLI or, without Node, by MuJoCo: pip install mujoco, or {GET_THE_CLI}", path) from None
    try:
        model = mujoco.MjModel.from_xml_path(path)
    except ValueError as e:  # MuJoCo's compiler error: its message names the element and line
        raise ModelError(f"{path}: MuJoCo: {' '.join(str(e).split())}", path) from None  # one line, as the CLI's
    try:
        from ._put_model import put_model  # lazily: the MjModel -> document translation
    except ImportError as e:
        if e.name != f"{__package__}._put_model":
            raise
        raise ModelError(f"{path}: this achilles package has no put_model to compile MJCF through MuJoCo; {GET_THE_CLI}", path) from None

    try:
        doc = dict(put_model(model))
    except ValueError as e:  # what the engine does not follow, named by MuJoCo's field and value
        raise ModelError(f"{path}: {e}", path) from None
    doc["source"] = path  # an MjModel does not know its file; the CLI's document names it
    doc["files"] = [path]
    return json.dumps(doc, default=_plain)


def _plain(value: Any) -> Any:
    """numpy values in put_model's document as JSON numbers and lists."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"put_model's document holds a {type(value).__name__}, which is not JSON")
