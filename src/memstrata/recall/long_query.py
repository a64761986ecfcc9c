"""What recall and search keep of a long query: a whole message from an agent or the prompt
hook.

A message says what it is about first and asks last, and may ask in between ("here is the
log … why does the billing job fail? … I already tried a restart"). Its questions are what
a read should answer, so both steps below put them first:

- **The cut** (:func:`cut_query`): a query over :data:`MAX_QUERY_CHARS` is cut to that many
  characters, which bounds every arm's cost (time phrases, entity phrases, the embedding).
  What is kept is its questions (sentences ending in a question mark, the last ones first,
  up to half the length; of a long question, its end) and as much of its start
  and end as fits, in the message's order, joined by `` … ``. A cut to the first characters
  lost the question at the end of every message longer than that. A ``?`` counts where it
  closes a sentence, not in a URL's query or SQL's ``id = ?``; a question is at most its last
  400 characters (:func:`~memstrata.fts.question_spans`).
- **The meaning** (:func:`semantic_text`): the semantic arm embeds one vector for the whole
  query, and the words around a question drown it: a long query (over 1,000 characters, or
  more than :data:`~memstrata.fts.MAX_TERMS` terms, where the lexical arm keeps its
  questions' words first too) that holds a question is embedded as its questions alone.

Measured through ``Memory.recall`` (LoCoMo, each turn a journal entry, every question put at
the start, in the middle or at the end of 1,800 characters of other conversations' turns):
recall@10 0.172 / 0.035 / 0.067 before, 0.403 / 0.403 / 0.405 with both (0.704 for the
question alone); with the whole message embedded, 0.14 wherever the question is
(``docs/benchmarks-retrieval.md``). The filler there shares no topic with the question; in a
real message the context around a question still reaches the lexical arm through its start
and end.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from memstrata.fts import (
    MAX_TERMS,
    WORD_REACH,
    dropped_terms,
    query_terms,
    question_spans,
    word_end,
    word_start,
)
from memstrata.recall.inputs import MAX_QUERY_CHARS

#: what joins the parts of a cut query (a mark that ends a sentence, so a question after it
#: is not read as the end of the part before)
GAP = " … "


@dataclass(frozen=True, slots=True)
class CutQuery:
    """A query as a read searches it, and how many of its questions the cut kept."""

    text: str
    questions: int = 0

    def note(self, query: str) -> str:
        """What a read says of the cut of ``query`` ("" when it was not cut)."""
        if self.text == query:
            return ""
        kept = "its questions, start and end" if self.questions else "its start and end"
        return f"query of {len(query)} characters cut to {len(self.text)}: {kept} searched"


@functools.lru_cache(maxsize=8)  # a search cuts its query for hits, notes and the echo
def cut_query(query: str, limit: int = MAX_QUERY_CHARS) -> CutQuery:
    """``query`` when it has at most ``limit`` characters; else its questions (the last first,
    up to half of ``limit``; of a longer one, its end) and its start and end around them, at
    most ``limit`` characters in all, in the query's order (module docstring). Parts end at
    spaces where one is near."""
    if len(query) <= limit:
        return CutQuery(query)
    budget = limit // 2
    spans: list[tuple[int, int]] = []
    for start, end in reversed(question_spans(query)):
        room = budget - len(GAP)
        if room < WORD_REACH:
            break
        if end - start > room:
            start = word_start(query, end - room, limit=end)
        spans.append((start, end))
        budget -= end - start + len(GAP)
    rest = limit - sum(end - start + len(GAP) for start, end in spans) - len(GAP)
    head = word_end(query, max(rest // 2, 0))
    tail = word_start(query, len(query) - max(rest - head, 0))
    parts = [query[a:b].strip() for a, b in _merged([(0, head), *spans, (tail, len(query))])]
    return CutQuery(GAP.join(part for part in parts if part), len(spans))


def searched_with_notes(query: str) -> tuple[str, list[str]]:
    """``query`` as a read searches it (:func:`cut_query`), and what the read says of that:
    that the query was cut, that its least informative terms past :data:`MAX_TERMS` were not
    searched."""
    notes = []
    cut = cut_query(query)
    if cut.text != query:
        notes.append(cut.note(query))
    if dropped := dropped_terms(cut.text):
        notes.append(
            f"query has over {MAX_TERMS} terms: {len(dropped)} of the least informative not"
            f" searched ({', '.join(dropped[:3])} …)"
        )
    return cut.text, notes


def semantic_text(query: str) -> str:
    """What the semantic arm embeds for ``query``: its questions when it is long (over half
    :data:`MAX_QUERY_CHARS` characters, or more terms than the lexical arm searches) and asks
    something (module docstring), else the query."""
    if len(query) <= MAX_QUERY_CHARS // 2 and len(query_terms(query)) <= MAX_TERMS:
        return query
    asked = [query[start:end].strip() for start, end in question_spans(query)]
    return " ".join(asked) or query


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The non-empty ``spans``, sorted, those that touch or overlap made one."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(span for span in spans if span[1] > span[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
