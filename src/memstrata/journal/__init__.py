"""The journal stratum: daily logs and their typed ``## Retain`` facts."""
