"""A child process that writes a topic and is killed (SIGKILL) the moment it is about to rename
a temp file over a file whose name ends in a given suffix: what a kill mid-write leaves."""


def killed_writer(suffix: str) -> str:
    """The ``python -c`` program (its argument: the workspace) killed before replacing a file
    ending in ``suffix``."""
    return f"""
import os, signal, sys
from memstrata import Memory

real_replace = os.replace

def replace(source, target, *args, **kwargs):
    if str(target).endswith({suffix!r}):
        os.kill(os.getpid(), signal.SIGKILL)
    return real_replace(source, target, *args, **kwargs)

os.replace = replace
with Memory(sys.argv[1], embeddings=False) as memory:
    memory.write_topic("people/ann", "# Ann\\nDesign director.")
"""
