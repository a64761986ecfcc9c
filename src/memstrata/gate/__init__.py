"""The write gate: one function every write path passes."""
