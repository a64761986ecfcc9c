"""BLAS threads per piece of work: limited inside the context, restored after it."""

import pytest
from threadpoolctl import threadpool_info

from memstrata.providers.blas import blas_threads


def _blas_threads() -> list[int]:
    return [info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"]


def test_a_limit_holds_inside_its_context_and_is_undone_after_it():
    before = _blas_threads()
    if not before:
        pytest.skip("numpy's BLAS is not visible to threadpoolctl here")

    with blas_threads(1):
        inside = _blas_threads()

    assert inside == [1] * len(before)
    assert _blas_threads() == before
