"""The wiki stratum: topics on disk and their one-line index."""
