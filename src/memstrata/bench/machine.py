"""What the benchmarks say about the machine they ran on: the CPU's name and how busy it was."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def cpu_name() -> str:
    """The CPU model from ``/proc/cpuinfo`` (Linux), else what :mod:`platform` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load_average(separator: str = ", ", digits: int = 2) -> str:
    """The 1/5/15-minute load average: how busy the machine was besides the benchmark."""
    if not hasattr(os, "getloadavg"):
        return "unknown"
    return separator.join(f"{load:.{digits}f}" for load in os.getloadavg())
