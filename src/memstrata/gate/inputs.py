"""The arguments of a write through the gate, checked before the gate reads anything.

What the gate decides about (a text too long, a secret, a control character in a name) is its
verdict; what no verdict can be made of is an :class:`~memstrata.errors.InputError` naming the
argument: a text that is no text, entities given as one string, a confidence outside 0–1, a
time that is no time. The time is stored in one form (ISO 8601 UTC, ``Z``) because the gate
orders statements by comparing it as text.
"""

from __future__ import annotations

from collections.abc import Iterable

from memstrata.clock import stated_iso
from memstrata.errors import InputError
from memstrata.gate.admit import Candidate
from memstrata.model import FACT_KINDS, FactKind, is_confidence


def checked_candidate(
    text: object,
    *,
    topic: object = None,
    kind: object = None,
    entities: object = (),
    confidence: object = None,
    source: object = "",
    observed: object = "",
    supersedes: object = None,
    actor: object = "agent",
) -> Candidate:
    """A :class:`Candidate` of these arguments, or an :class:`InputError` naming the first
    one that is not what it must be. A single string as ``entities`` is one name; a blank one
    is dropped."""
    if not isinstance(text, str | bytes):
        raise InputError(f"text must be a str (or UTF-8 bytes), not {type(text).__name__}")
    for name, value in (("topic", topic), ("supersedes", supersedes)):
        if value is not None and not isinstance(value, str):
            raise InputError(f"{name} is a topic id (text) or None, not {type(value).__name__}")
    for name, value in (("source", source), ("actor", actor)):
        if not isinstance(value, str):
            raise InputError(f"{name} is text, not {type(value).__name__}")
    return Candidate(
        text,
        topic,
        checked_kind(kind),
        _names(entities),
        checked_confidence(confidence),
        source,
        _time(observed),
        actor,
        supersedes,
    )


def checked_kind(kind: object) -> FactKind | None:
    """A kind of knowledge (``world``, ``experience``, ``opinion``, ``observation``) or None."""
    if kind is None:
        return None
    known = next((known for known in FACT_KINDS if known == kind), None)
    if known is None:
        raise InputError(f"unknown kind {kind!r}; expected one of {', '.join(FACT_KINDS)}")
    return known


def _names(entities: object) -> tuple[str, ...]:
    if isinstance(entities, str):
        return (entities,)
    if not isinstance(entities, Iterable) or isinstance(entities, bytes | dict):
        raise InputError(f"entities is a list of names, not {type(entities).__name__}")
    names = tuple(entities)
    for name in names:
        if not isinstance(name, str):
            raise InputError(f"an entity is a name (text), not {type(name).__name__} {name!r}")
    # a blank name (``--entity ""``) names nobody: dropped, not stored as an entity
    return tuple(name.strip() for name in names if name.strip())


def checked_confidence(confidence: object) -> float | None:
    """A confidence: a number from 0 to 1, or None."""
    if confidence is None:
        return None
    if not is_confidence(confidence):
        raise InputError(f"confidence is a number from 0 to 1, not {confidence!r}")
    return float(confidence)


def _time(observed: object) -> str:
    """``observed`` as ISO 8601 UTC, or "" for now."""
    stated = stated_iso(observed)
    if stated is None:
        raise InputError(
            f"observed is an ISO 8601 time such as 2025-11-27T10:00:00Z, not {observed!r}"
        )
    return stated
