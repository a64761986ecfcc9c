"""How many threads numpy's BLAS may use for a piece of work.

A query's vector work (embedding it, a matrix-vector product over the stored vectors) is small:
a second OpenBLAS thread saves well under a millisecond on an idle machine, and when the cores
are busy, as they are beside an agent, it waits for a core and multiplies the latency (query
embedding p95 1.7 → 33.5 ms at load 2 on 2 cores; see docs/benchmarks-scale.md). Bulk embedding
gains from every usable CPU. threadpoolctl finds the BLAS numpy loaded; without it, or without
a BLAS it knows, the limits are no-ops.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable
from typing import Any

import numpy  # noqa: F401  (loads the BLAS that the limiter below must find when it scans)


def blas_threads(count: int) -> contextlib.AbstractContextManager[Any]:
    """A context in which numpy's BLAS uses at most ``count`` threads."""
    limit = _limiter()
    return contextlib.nullcontext() if limit is None else limit(limits=count, user_api="blas")


def usable_cpus(limit: int) -> int:
    """CPUs this process may run on (its affinity where the OS says), at most ``limit``."""
    try:
        count = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        count = os.cpu_count() or 1
    return max(1, min(limit, count))


@functools.cache
def _limiter() -> Callable[..., contextlib.AbstractContextManager[Any]] | None:
    # Found once: it scans the libraries the process has loaded (numpy's BLAS among them).
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:
        return None
    return ThreadpoolController().limit
