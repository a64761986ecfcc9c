"""Running the memstrata command as a real process."""

import os
import subprocess
import sys
from pathlib import Path

#: Run a command with one folder made read-only, in a private mount namespace (root can write
#: through permission bits, not through a read-only mount). Nothing leaks out of the namespace.
READ_ONLY_MOUNT = [
    "unshare",
    "-m",
    "--propagation",
    "private",
    "sh",
    "-c",
    'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" "$1" && shift && exec "$@"',
    "sh",
]


#: Run a command as root without root's right to read any file: a file or folder whose mode
#: bars reading is then as unreadable to it as to any user.
WITHOUT_READ_OVERRIDE = [
    "capsh",
    "--drop=cap_dac_override,cap_dac_read_search",
    "--",
    "-c",
    'exec "$0" "$@"',
]


def can_bar_reading() -> bool:
    """Whether a mode of 000 keeps ``run(..., unprivileged=True)`` from reading a file."""
    if os.geteuid() != 0:
        return True
    try:
        probe = subprocess.run(
            [*WITHOUT_READ_OVERRIDE, "true"], capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def can_mount_read_only(folder: Path) -> bool:
    """Whether this machine lets us make ``folder`` read-only in a private namespace."""
    try:
        probe = subprocess.run(
            [*READ_ONLY_MOUNT, str(folder), "true"], capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return probe.returncode == 0


def run(
    *args: str,
    cwd: Path | None = None,
    stdin: str | bytes | None = None,
    env: dict[str, str] | None = None,
    readonly: Path | None = None,
    unprivileged: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run ``memstrata`` as a real process; ``unprivileged``: as root, without its right to read
    what file modes bar (see :func:`can_bar_reading`)."""
    full_env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    full_env.update(env or {})
    data = stdin.encode() if isinstance(stdin, str) else stdin
    command = [sys.executable, "-m", "memstrata", *args]
    if readonly is not None:
        command = [*READ_ONLY_MOUNT, str(readonly), *command]
    if unprivileged and os.geteuid() == 0:
        command = [*WITHOUT_READ_OVERRIDE, *command]
    completed = subprocess.run(
        command,
        cwd=cwd,
        input=data,
        capture_output=True,
        env=full_env,
        timeout=120,
        check=False,
    )
    return subprocess.CompletedProcess(
        completed.args, completed.returncode, completed.stdout.decode(), completed.stderr.decode()
    )


#: Run a shell script with a 2 MB tmpfs mounted at "$1" (private to the namespace): a disk that
#: fills up, for real, without touching the machine's.
SMALL_DISK = ["unshare", "-m", "--propagation", "private", "sh", "-c"]


def run_on_small_disk(folder: Path, script: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (sh, ``$MEMSTRATA`` the command) in ``folder``, a fresh 2 MB disk."""
    folder.mkdir(parents=True, exist_ok=True)
    mount = 'mount -t tmpfs -o size=2m tmpfs "$1" && cd "$1" && '
    memstrata = f"{sys.executable} -m memstrata"
    env = {key: value for key, value in os.environ.items() if key != "MEMSTRATA_WORKSPACE"}
    env["MEMSTRATA"] = memstrata
    return subprocess.run(
        [*SMALL_DISK, mount + script, "sh", str(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
