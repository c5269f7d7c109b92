"""What the parity tests do to a batch, the same in Python and in node_reference.mjs (line for line,
in the same double arithmetic, so both engines see the same inputs bit for bit)."""

from __future__ import annotations

import achilles


def spread(b: achilles.Batch) -> None:
    """Robots that differ: each revolute or prismatic coordinate of robot r moved by 0.001 (r + j + 1)."""
    for j, joint in enumerate(b.model["names"]["joints"]):
        if joint["type"] not in ("revolute", "prismatic"):
            continue
        for r in range(b.copies):
            b.q[joint["qoff"], r] = float(b.q[joint["qoff"], r]) + 0.001 * (r + j + 1)


def drive(b: achilles.Batch, steps: int) -> None:
    """`steps` single steps, each with fresh controls for every actuator of every robot."""
    for s in range(steps):
        ctrl = b.ctrl  # the half the next step reads (it alternates)
        for a in range(b.nu):
            for r in range(b.copies):
                ctrl[a, r] = (((s * 7 + a * 3 + r * 5) % 11) - 5) * 0.1
        b.step(1)


def run(model, precision: str, lanes: int, copies: int, steps: int, threads: int = 1) -> achilles.Batch:
    b = achilles.Batch(model, copies, precision=precision, lanes=lanes, threads=threads)
    spread(b)
    drive(b, steps)
    return b
