"""``python -m memstrata``: the same as the ``memstrata`` command."""

from memstrata.cli import main

main()
