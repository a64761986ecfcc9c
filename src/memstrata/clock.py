"""Time in one format: ISO-8601 UTC strings, and an injectable ``now``.

Nothing in memstrata reads the wall clock except :func:`system_now`; everything else takes a
``Clock`` so that decay, scheduling and tests need no clock mocking.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from memstrata.errors import InputError

Clock = Callable[[], datetime]


def system_now() -> datetime:
    """Return the current time in UTC (the default clock)."""
    return datetime.now(UTC)


def checked_clock(clock: object) -> Clock:
    """``clock`` when it can be called (an :class:`InputError` otherwise), for a
    ``Memory(clock=...)`` given something that is no clock."""
    if not callable(clock):
        raise InputError(
            f"clock is a function returning the time (a datetime), not {type(clock).__name__}"
        )
    return clock  # type: ignore[return-value]  # what it returns is checked by read_clock


def read_clock(clock: Clock) -> datetime:
    """What ``clock`` says it is, as an aware time: a naive one is UTC (as :func:`to_iso` and
    stored times read it), so that times computed from it compare with stored ones. What is no
    ``datetime`` is an :class:`InputError` naming it, before anything is written with it."""
    moment = clock()
    if not isinstance(moment, datetime):
        raise InputError(f"the clock returned {moment!r}, not a datetime")
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def to_iso(moment: datetime) -> str:
    """Render ``moment`` as ``YYYY-MM-DDTHH:MM:SSZ`` in UTC; naive times are taken as UTC."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(text: str | float | int | None) -> datetime | None:
    """Parse an ISO-8601 string or epoch seconds/milliseconds; ``None`` when it is neither."""
    if text is None or isinstance(text, bool):
        return None
    if isinstance(text, int | float):
        seconds = text / 1000 if text > 1e11 else text
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    value = text.strip()
    if not value:
        return None
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def stated_iso(value: object) -> str | None:
    """A stated time (ISO 8601 text, or a ``datetime``; naive is UTC) in the one form stored,
    ``2025-11-27T10:00:00Z``; "" for ""; ``None`` for anything else, epoch numbers included
    (a number where a person or a caller gives a time is a mistake, not a time)."""
    if value == "":
        return ""
    if isinstance(value, datetime):
        return to_iso(value)
    moment = parse_time(value) if isinstance(value, str) else None
    return to_iso(moment) if moment is not None else None


def iso_or_empty(text: str | float | int | None) -> str:
    """Normalise any time we can parse to ISO UTC; ``""`` when we cannot."""
    moment = parse_time(text)
    return to_iso(moment) if moment else ""
