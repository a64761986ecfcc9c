"""The public Python API: a curated, sorted ``__all__`` that covers what the verbs return."""

import inspect
import types
import typing

import memstrata
from memstrata import errors
from memstrata.gate import verdicts

VERBS = (
    "recall",
    "search",
    "context",
    "remember",
    "get_topic",
    "list_topics",
    "topic_history",
    "proposals",
    "proposal",
    "resolve_proposal",
    "status",
    "sync",
    "rebuild",
    "log",
)


def test_all_is_sorted_and_every_name_exists():
    assert memstrata.__all__ == sorted(memstrata.__all__)
    assert len(set(memstrata.__all__)) == len(memstrata.__all__)
    for name in memstrata.__all__:
        assert hasattr(memstrata, name), name


def test_every_error_is_exported():
    for name, value in vars(errors).items():
        if inspect.isclass(value) and issubclass(value, errors.MemstrataError):
            assert name in memstrata.__all__, name


def test_every_verdict_is_exported():
    for name in ("Admitted", "Merged", "Superseded", "Conflicted", "Quarantined", "Rejected"):
        assert getattr(memstrata, name) is getattr(verdicts, name)


def _classes(annotation: object) -> set[type]:
    found: set[type] = set()
    if inspect.isclass(annotation) and annotation.__module__.startswith("memstrata."):
        found.add(annotation)
    for arg in typing.get_args(annotation):
        found |= _classes(arg)
    if isinstance(annotation, types.UnionType):
        for arg in annotation.__args__:
            found |= _classes(arg)
    return found


def _namespace() -> dict[str, object]:
    """memory.py's names, plus those it imports only for type checking."""
    from memstrata import memory
    from memstrata.gate.admit import Gate
    from memstrata.gate.rulings import Keep
    from memstrata.raw.ingest import IngestReport
    from memstrata.raw.store import RawStore
    from memstrata.status import Status

    return {
        **vars(memory),
        "Verdict": verdicts.Verdict,
        "Gate": Gate,
        "Keep": Keep,
        "IngestReport": IngestReport,
        "RawStore": RawStore,
        "Status": Status,
    }


def test_what_the_main_verbs_return_is_exported():
    missing = set()
    namespace = _namespace()
    for verb in VERBS:
        hints = typing.get_type_hints(getattr(memstrata.Memory, verb), globalns=namespace)
        for cls in _classes(hints.get("return")):
            if cls.__name__ not in memstrata.__all__ and cls.__module__ != "memstrata.journal.log":
                missing.add(f"{verb} -> {cls.__module__}.{cls.__name__}")
    assert not missing, sorted(missing)
