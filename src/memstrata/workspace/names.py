"""Topic ids (``namespace/slug``): validated before any path is built from them.

A topic id becomes two path components under ``memory/topics/``. Anything that could escape that
folder or collide with our own files is refused: ``..``, absolute paths, separators (after NFKC,
so fullwidth ``．．／`` is caught as ``../``), control characters, hidden or reserved names.
Ids that only look like another id are refused too: a word mixing Latin, Greek and Cyrillic
letters (``аnn`` with a Cyrillic ``а`` reads as ``ann`` in every listing and citation), and a
part ending in ``.``, which Windows and SMB shares drop from a file name.
"""

from __future__ import annotations

import re
import unicodedata

from memstrata.errors import InvalidTopicId

MAX_PART_CHARS = 64

_PART = re.compile(r"^[^\W_][\w.-]*$", re.UNICODE)
_WORDS = re.compile(r"[^\W\d_]+", re.UNICODE)
# Scripts whose letters are drawn alike (Latin a, Cyrillic а, Greek α): one word may use one.
_LOOK_ALIKE_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")
# Our own files beside topic folders, and names Windows cannot create.
_RESERVED = frozenset(
    {"_index", "index.json", "con", "prn", "aux", "nul"}
    | {f"com{n}" for n in range(10)}
    | {f"lpt{n}" for n in range(10)}
)


def normalize_part(raw: str, what: str = "slug") -> str:
    """Return the NFKC, case-folded form of one id part, or raise :class:`InvalidTopicId`."""
    part = unicodedata.normalize("NFKC", raw).strip().casefold()
    if not part:
        raise InvalidTopicId(f"empty {what} in topic id")
    if part in {".", ".."} or ".." in part:
        raise InvalidTopicId(f"{what} {raw!r} contains '..'")
    if "/" in part or "\\" in part or "\x00" in part:
        raise InvalidTopicId(f"{what} {raw!r} contains a path separator")
    if any(unicodedata.category(ch).startswith("C") for ch in part):
        raise InvalidTopicId(f"{what} {raw!r} contains control characters")
    if len(part) > MAX_PART_CHARS:
        raise InvalidTopicId(f"{what} {raw!r} is longer than {MAX_PART_CHARS} characters")
    if part.split(".")[0] in _RESERVED or part in _RESERVED:
        raise InvalidTopicId(f"{what} {raw!r} is a reserved name")
    if part.endswith("."):
        raise InvalidTopicId(f"{what} {raw!r} ends with '.', which Windows drops from a file name")
    mixed = next((word for word in _WORDS.findall(part) if len(_scripts(word)) > 1), None)
    if mixed is not None:
        raise InvalidTopicId(
            f"{what} {raw!r} mixes {' and '.join(sorted(_scripts(mixed)))} letters in "
            f"{mixed!r}, so it would read like another id; write it in one script"
        )
    if not _PART.match(part):
        raise InvalidTopicId(
            f"{what} {raw!r} must start with a letter or digit and hold only letters, digits, "
            "'-', '_' and '.' (e.g. 'people/ann-lee')"
        )
    return part


def _scripts(word: str) -> set[str]:
    """The look-alike scripts whose letters ``word`` uses (``Latin``, ``Greek``, ``Cyrillic``)."""
    found = set()
    for ch in word:
        script = unicodedata.name(ch, "").split(" ")[0]
        if script in _LOOK_ALIKE_SCRIPTS:
            found.add(script.title())
    return found


def parse_topic_id(raw: str) -> str:
    """Validate ``namespace/slug`` and return its normal form (``People/Ann`` → ``people/ann``)."""
    if not isinstance(raw, str):
        raise InvalidTopicId(f"a topic id is text (namespace/slug), not {type(raw).__name__}")
    text = unicodedata.normalize("NFKC", raw).strip()
    if text.startswith(("/", "\\")) or re.match(r"^[a-zA-Z]:", text):
        raise InvalidTopicId(f"topic id {raw!r} is an absolute path; expected namespace/slug")
    pieces = text.split("/")
    if len(pieces) != 2:
        raise InvalidTopicId(f"topic id {raw!r} must be namespace/slug (exactly one '/')")
    namespace = normalize_part(pieces[0], "namespace")
    slug = normalize_part(pieces[1], "slug")
    return f"{namespace}/{slug}"


def slugify(text: str, fallback: str = "note") -> str:
    """Make a valid slug from free text (``"Ann Lee's cat"`` → ``ann-lee-s-cat``)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    slug = re.sub(r"[^\w]+", "-", folded, flags=re.UNICODE).strip("-_")[:MAX_PART_CHARS].strip("-_")
    try:
        return normalize_part(slug) if slug else fallback
    except InvalidTopicId:
        return fallback
