"""How much memory is still free, so a batch that does not fit is refused with both numbers (as
src/engine/memory.ts does for the Node engine) instead of failing inside the allocator."""

from __future__ import annotations


def free_memory_bytes() -> int | None:
    """The machine's available memory (MemAvailable), or None where it cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def format_bytes(n: float) -> str:
    units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB"]
    k = 0
    while n >= 1024 and k < len(units) - 1:
        n /= 1024
        k += 1
    return f"{n:.0f} {units[k]}" if k == 0 else f"{n:.3g} {units[k]}"


def ensure_memory(need: int, what: str, advice: str) -> None:
    free = free_memory_bytes()
    if free is not None and need > free:
        raise MemoryError(f"{what} needs about {format_bytes(need)}, but only {format_bytes(free)} of memory is free; {advice}")
