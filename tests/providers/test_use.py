"""The default embedder (multilingual USE): its BLAS threads fit the machine and the batch."""

import os

import pytest
from threadpoolctl import threadpool_info

from memstrata.providers.blas import usable_cpus
from memstrata.providers.use import QUERY_BATCH, UniversalSentenceEncoder


def test_usable_cpus_is_between_one_and_the_limit():
    available = len(os.sched_getaffinity(0))
    assert usable_cpus(limit=4) == max(1, min(4, available))
    assert usable_cpus(limit=1) == 1
    assert usable_cpus(limit=0) == 1


def _blas_threads() -> int:
    return max(info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas")


def test_a_query_runs_on_one_blas_thread_and_a_large_batch_on_the_usable_cpus():
    # A second BLAS thread beside a busy agent made query embedding ~5x slower at p95; more
    # threads than cores made it ~100x slower.
    if not any(info["user_api"] == "blas" for info in threadpool_info()):
        pytest.skip("numpy's BLAS is not visible to threadpoolctl here")
    embedder = UniversalSentenceEncoder()
    embedder.embed(["loaded before the model is wrapped"])
    model = embedder._model
    seen: list[int] = []

    class RecordingModel:
        def encode(self, texts: list[str]):
            seen.append(_blas_threads())
            return model.encode(texts)

    embedder._model = RecordingModel()
    query = embedder.embed(["threads fit the machine", "线程数量合适"], query=True)
    batch = embedder.embed([f"passage {i}" for i in range(QUERY_BATCH + 1)])

    assert query.shape == (2, 512) and batch.shape == (QUERY_BATCH + 1, 512)
    assert seen == [1, usable_cpus(limit=4)]
    assert usable_cpus(limit=4) <= len(os.sched_getaffinity(0))
