"""Which SIMD widths this CPU runs, per precision: src/engine/lanes.ts line for line (the engine packs
f64 in one register, so 4 f64 lanes need AVX2 where 4 f32 lanes need only SSE2)."""

from __future__ import annotations

LANE_WIDTHS = (1, 4, 8, 16)
PRECISIONS = ("f32", "f64")


def isa_for(precision: str, lanes: int) -> str:
    """The instruction set the engine uses for `lanes` lanes of `precision` (native isa_for)."""
    if lanes == 1:
        return "scalar"
    if lanes == 16:
        return "AVX-512"
    if precision == "f32":
        return "SSE2" if lanes == 4 else "AVX2"
    return "AVX2" if lanes == 4 else "AVX-512"


def cpu_has(cpu: dict, isa: str) -> bool:
    if isa == "scalar":
        return True
    if isa == "SSE2":
        return bool(cpu["sse2"])
    if isa == "AVX2":
        return bool(cpu["avx2"])
    return bool(cpu["avx512"])


def supported_lanes(cpu: dict, precision: str) -> list[int]:
    """The widths this CPU runs at this precision, narrowest first (always includes 1)."""
    return [w for w in LANE_WIDTHS if cpu_has(cpu, isa_for(precision, w))]


def widest_lanes(cpu: dict, precision: str) -> int:
    """The widest width this CPU runs at this precision."""
    return supported_lanes(cpu, precision)[-1]


def register_lanes(cpu: dict, precision: str) -> int:
    """The Batch's default, as the TypeScript Batch's (registerLanes): the widest width whose robots fit
    one register, i.e. the widest except f64 x 16, which takes two AVX-512 registers per value."""
    w = widest_lanes(cpu, precision)
    return 8 if precision == "f64" and w == 16 else w


def lane_problem(cpu: dict, precision: str, lanes: int) -> str | None:
    """Why this CPU cannot run `lanes` lanes of `precision`, or None when it can."""
    isa = isa_for(precision, lanes)
    if cpu_has(cpu, isa):
        return None
    runs = ", ".join(str(w) for w in supported_lanes(cpu, precision))
    return f"{lanes} lanes of {precision} need {isa}, which this CPU lacks (it runs {precision} at lanes {runs})"
