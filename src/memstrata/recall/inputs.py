"""The arguments every read takes, checked in one place before any index is touched.

A query is text (a lone UTF-16 surrogate, from a JSON ``\\ud800`` escape or undecodable
command-line bytes, becomes U+FFFD), a ``k`` or ``limit`` a whole number from 1 to
:data:`MAX_RESULTS`, a time bound text such as ``30d`` or a ``datetime``/``date``, an entity
a name. What does not pass is an :class:`~memstrata.errors.InputError` naming the argument,
the same from the library, the CLI and MCP.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from memstrata.clock import to_iso
from memstrata.errors import InputError
from memstrata.recall.temporal import bound
from memstrata.workspace.textfile import mend_utf8

#: a query longer than this is cut (and recall says so)
MAX_QUERY_CHARS = 2_000
#: the most items one recall or search returns
MAX_RESULTS = 1_000


def checked_query(query: object) -> str:
    """A query as text a database and a model can take: a lone surrogate (from a JSON
    ``\\ud800`` escape or undecodable command-line bytes) becomes U+FFFD."""
    if not isinstance(query, str):
        raise InputError(f"a query is text, not {type(query).__name__}")
    return mend_utf8(query)


def checked_count(value: object, name: str) -> int:
    """A ``k`` or ``limit``: a whole number from 1 to :data:`MAX_RESULTS`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_RESULTS:
        raise InputError(f"{name} must be a whole number from 1 to {MAX_RESULTS}, not {value!r}")
    return value


def checked_bound(
    value: str | datetime | date | None, now: datetime, name: str, start: bool
) -> str:
    """``--since``/``--until`` as an ISO time: the start (or end) of the window it names.

    A ``datetime`` is that instant (naive: UTC, as stored times are); a ``date`` is that day.
    """
    if value is None:
        return ""
    if isinstance(value, datetime):
        return to_iso(value if value.tzinfo else value.replace(tzinfo=UTC))
    if isinstance(value, date):
        value = value.isoformat()
    if not isinstance(value, str):
        raise InputError(f"{name} is a time (text such as 30d, or a datetime), not {value!r}")
    if not value.strip():
        raise InputError(f"{name} is empty: give a time such as 30d, or leave it out")
    found = bound(checked_query(value), now, start)
    if found is None:
        raise InputError(
            f"{name} {value!r}: not a time I understand (or past the calendar's end); use 30d, "
            "2w, 2025-11, 2025-11-27, 2025-11-27T10:00:00Z, 'last week' or 'in November 2025'"
        )
    return found


def checked_entity(value: object) -> str | None:
    """An entity filter: a name, with or without its ``@``."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"entity is a name (text), not {value!r}")
    name = checked_query(value)
    if not name.strip().lstrip("@").strip():
        raise InputError("entity is empty: give a name such as Ann or @ann, or leave it out")
    return name


def checked_window(
    since: str | datetime | date | None,
    until: str | datetime | date | None,
    now: datetime,
) -> tuple[str, str]:
    """``since`` and ``until`` as ISO bounds (see :func:`checked_bound`), once some time lies
    between them: ``until`` is not included, so the same instant leaves none."""
    start = checked_bound(since, now, "since", start=True)
    end = checked_bound(until, now, "until", start=False)
    if start and end and start >= end:
        raise InputError(
            f"since {since!r} starts at {start}, where until {until!r} ends (until is not"
            " included): no time lies between"
            if start == end
            else f"since {since!r} starts after until {until!r} ends: no time lies between"
        )
    return start, end
