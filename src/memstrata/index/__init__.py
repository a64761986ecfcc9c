"""The derived index: ``.memstrata/index.db``, deletable and rebuilt from the files."""
