"""Finding things: the retrieval arms and how their lists are fused."""
