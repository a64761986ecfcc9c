"""The entity arm: people, projects and things named in a query, and the items that mention them.

A query names an entity with ``@name`` (``@li-na``, ``@"Li Na"``) or by writing a known entity's
name as whole words (case-insensitive; CJK names as substrings). Items score by the share of the
query's entities they mention.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_AT_NAME = re.compile(r'@(?:"([^"]+)"|([^\s,;:!?()]+))')
_CJK = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]")


def find_query_entities(query: str, known: Iterable[str]) -> list[str]:
    """Entity keys (casefolded) named in ``query``: ``@name`` first, then known names found."""
    found: dict[str, None] = {}
    for match in _AT_NAME.finditer(query):
        name = (match.group(1) or match.group(2)).strip().rstrip(".")
        if name:
            found[name.casefold()] = None
    text = query.casefold()
    for name in sorted({name.casefold() for name in known if name.strip()}, key=len, reverse=True):
        if name in found:
            continue
        if _CJK.search(name):
            if name in text:
                found[name] = None
        elif re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            found[name] = None
    return list(found)


def score_entities(
    entities: Iterable[str], mentions: Mapping[str, Iterable[str]]
) -> dict[str, float]:
    """``{item: share of the query's entities it mentions}`` for items mentioning any of them.

    ``mentions`` maps an entity key (casefolded) to the items that mention it.
    """
    wanted = list(dict.fromkeys(entity.casefold() for entity in entities))
    if not wanted:
        return {}
    counts: dict[str, int] = {}
    for entity in wanted:
        for item in dict.fromkeys(mentions.get(entity, ())):
            counts[item] = counts.get(item, 0) + 1
    return {item: count / len(wanted) for item, count in counts.items()}
