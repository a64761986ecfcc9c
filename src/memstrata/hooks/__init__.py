"""Agent harness hooks: the commands a harness runs, and the config files that register them.

run.py          what ``memstrata hook <name>`` does: session-start, user-prompt, stop,
                codex-notify (the prompt's path: kept light, this package imports nothing)
settings.py     the hooks document (``settings.json`` / ``hooks.json``) and what install
                owns in it
claude_code.py  install and uninstall for Claude Code      codex.py   the same for Codex
"""
