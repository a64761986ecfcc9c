"""The raw stratum: ``raw/sessions.db`` and the transcript importers."""
