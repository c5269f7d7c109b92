"""MjModels as the engine's compiled documents, converted once per model version.

A planner calls rollout many times with the same MjModel objects, and may change their values in
between (domain randomisation writes body_mass in place). A model's version is a fingerprint of all
of it: its binary MJB image (mj_saveModel into memory, about 10 us for the ant) checked by two
independent 32-bit sums (CRC-32 and Adler-32, about 0.2 ms for the ant's 0.5 MB): a changed value
gives a new version and a fresh conversion; an unchanged model costs the fingerprint only.
"""

from __future__ import annotations

import itertools
import zlib
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

MODELS_KEPT = 1024  # conversions kept (the oldest goes first)


def fingerprint(model: Any) -> tuple[int, int, int]:
    import mujoco

    image = np.empty(mujoco.mj_sizeModel(model), dtype=np.uint8)
    mujoco.mj_saveModel(model, None, image)
    return image.size, zlib.crc32(image), zlib.adler32(image)


class ModelVersions:
    """fingerprint -> (version number, compiled document)."""

    def __init__(self):
        self._kept: OrderedDict[tuple, tuple[int, dict]] = OrderedDict()
        self._numbers = itertools.count()

    def versions(self, models: list, convert: Callable[[Any], dict]) -> tuple[list[int], list[dict]]:
        """Each model's version number and document (one fingerprint per distinct object)."""
        by_object: dict[int, tuple[int, dict]] = {}
        numbers, docs = [], []
        for m in models:
            hit = by_object.get(id(m))
            if hit is None:
                key = fingerprint(m)
                hit = self._kept.get(key)
                if hit is None:
                    hit = (next(self._numbers), convert(m))
                    self._kept[key] = hit
                    while len(self._kept) > MODELS_KEPT:
                        self._kept.popitem(last=False)
                else:
                    self._kept.move_to_end(key)
                by_object[id(m)] = hit
            numbers.append(hit[0])
            docs.append(hit[1])
        return numbers, docs

    def clear(self) -> None:
        self._kept.clear()
