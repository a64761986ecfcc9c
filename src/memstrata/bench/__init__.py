"""Retrieval benchmarks as library code: LoCoMo and LongMemEval, memstrata beside plain FTS5.

``benchmarks/retrieval.py`` is the command line; the data is read from a path the user gives
(by default ``../shared/data``) and never shipped.
"""
