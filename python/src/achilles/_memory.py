"""How much memory is still free, so a batch that does not fit is refused with both numbers (as
src/engine/memory.ts does for the Node engine) instead of failing inside the allocator; and malloc
told to keep the memory a vector env frees on every step (keep_freed_heap)."""

from __future__ import annotations

import ctypes
import os


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


# glibc's mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_GLIBC_MALLOC_VARIABLES = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES")
_heap_kept = False


def keep_freed_heap(trim_threshold: int = 64 << 20, mmap_threshold: int = 32 << 20) -> bool:
    """Ask glibc's malloc to keep freed memory for reuse rather than hand it back to the kernel at
    once, for the rest of the process. A vector env makes and drops arrays of 0.1 to 1 MB on every
    step (observations, recorded fields and their temporaries); with glibc's defaults the heap's top
    is trimmed after each step and every page of the next step's arrays faults back in, which
    measured about 40% of Ant-v5's env step (256 envs). At most `trim_threshold` bytes stay resident
    unused. Left alone where the user tuned malloc through its environment variables, or where
    the C library is not glibc. Returns whether it changed anything."""
    global _heap_kept
    if _heap_kept or any(v in os.environ for v in _GLIBC_MALLOC_VARIABLES):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    _heap_kept = bool(mallopt(_M_MMAP_THRESHOLD, mmap_threshold)) and bool(mallopt(_M_TRIM_THRESHOLD, trim_threshold))
    return _heap_kept
