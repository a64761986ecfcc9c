"""Embedders (and later LLMs) behind small Protocols; offline ones included.

``embedder`` holds the :class:`~memstrata.providers.embedder.Embedder` Protocol and
:func:`~memstrata.providers.embedder.load_embedder`; one module per implementation.
"""
