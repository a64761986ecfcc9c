"""The entity arm's reading of a query: every phrase that could be a known entity's name.

A query names an entity with ``@name`` (``@Ann``, ``@li-na``) or by writing a known entity's name:
one to three words ("Ann", "Li Na", "li-na", "O'Brien", "billing service"), matched by
:func:`~memstrata.journal.parse.entity_key`: in any case, without its accents or apostrophes,
its words joined by spaces, hyphens or dots alike ("jose" names ``@José``, "obrien"
``@O'Brien``). Chinese is written without spaces, so a name sits inside a longer run of
characters ("李娜喜欢什么咖啡"): every two to four characters of such a run are candidates too
(Chinese personal names are two to four characters long). Recall looks the candidates up among
the entity keys and aliases the index holds (:func:`memstrata.recall.mentions.entity_keys`; a
``people/`` page titled "李娜 (Li Na)" makes "li na" name ``@李娜``), so a candidate that names
nobody costs one missed lookup.
"""

from __future__ import annotations

import re

from memstrata.journal.parse import entity_key, find_entities
from memstrata.lazy_pattern import LazyPattern

_WORD = re.compile(r"[^\W_]+")
_CJK_RUN = LazyPattern("[\u3400-\u4dbf\u4e00-\u9fff]+")
#: the longest phrase of words, and the shortest and longest run of CJK characters, tried as a name
MAX_WORDS = 3
CJK_NAME_CHARS = (2, 4)


def query_phrases(query: str) -> set[str]:
    """The casefolded phrases of ``query`` that could be entity keys (module docstring), each
    phrase of words in all its :func:`name_forms`."""
    text = query.casefold()
    words = list(_WORD.finditer(text))
    phrases: set[str] = set()
    for n in range(1, MAX_WORDS + 1):
        for i in range(len(words) - n + 1):
            phrases |= name_forms(text[words[i].start() : words[i + n - 1].end()])
    shortest, longest = CJK_NAME_CHARS
    for run in () if text.isascii() else _CJK_RUN.findall(text):
        for size in range(shortest, min(longest, len(run)) + 1):
            phrases.update(run[i : i + size] for i in range(len(run) - size + 1))
    for name in find_entities(query):
        phrases |= name_forms(name)
    return phrases


def name_forms(name: str) -> set[str]:
    """The entity keys ``name`` may stand for: its :func:`~memstrata.journal.parse.entity_key`
    ("li na" for "Li-Na", "jose" for "José"), and the forms a name is compared in where it is
    only casefolded (the names an item shows, an index keyed so): as written, and its words
    joined by a space and by a hyphen, so "li-na", "Li Na" and "li na" all name ``@li-na``."""
    text = name.casefold().replace("’", "'")
    words = _WORD.findall(text)
    forms = {text, " ".join(words), "-".join(words), entity_key(name)}
    return {form for form in forms if form}
