"""What recall and search keep of a long query: a whole message from an agent or the prompt
hook.

A message says what it is about first and asks last, and may ask in between ("here is the
log … why does the billing job fail? … I already tried a restart"). Its questions are what
a read should answer, so both steps below put them first:

- **The cut** (:func:`cut_query`): a query over :data:`MAX_QUERY_CHARS` is cut to that many
  characters, which bounds every arm's cost (time phrases, entity phrases, the embedding).
  What is kept is its questions (sentences ending in a question mark, the last ones first,
  up to half the length) and as much of its start and end as fits, in the message's order,
  joined by `` … ``. A cut to the first characters lost the question at the end of every
  message longer than that.
- **The meaning** (:func:`semantic_text`): the semantic arm embeds one vector for the whole
  query, and the words around a question drown it: a long query (more than
  :data:`~memstrata.fts.MAX_TERMS` terms, where the lexical arm keeps its questions' words
  first too) that holds a question is embedded as its questions alone.

Measured through ``Memory.recall`` (LoCoMo, each turn a journal entry, every question put at
the start, in the middle or at the end of 1,800 characters of other conversations' turns):
recall@10 0.172 / 0.035 / 0.067 before, 0.403 / 0.394 / 0.405 with both (0.704 for the
question alone); with the whole message embedded, 0.14 wherever the question is
(``docs/benchmarks-retrieval.md``). The filler there shares no topic with the question; in a
real message the context around a question still reaches the lexical arm through its start
and end.
"""

from __future__ import annotations

from memstrata.fts import MAX_TERMS, query_terms, sentence_spans
from memstrata.recall.inputs import MAX_QUERY_CHARS

#: what joins the parts of a cut query
GAP = " … "


def cut_query(query: str, limit: int = MAX_QUERY_CHARS) -> str:
    """``query`` when it has at most ``limit`` characters; else its questions (the last first,
    up to half of ``limit``) and its start and end around them, at most ``limit`` characters
    in all, in the query's order (module docstring). Parts end at spaces where they can."""
    if len(query) <= limit:
        return query
    budget = limit // 2
    spans: list[tuple[int, int]] = []
    for start, end in reversed(_question_spans(query)):
        if end - start > budget:
            continue
        spans.append((start, end))
        budget -= end - start + len(GAP)
    spans.sort()
    rest = limit - sum(end - start + len(GAP) for start, end in spans) - len(GAP)
    head = _word_end(query, max(rest // 2, 0))
    tail = _word_start(query, len(query) - max(rest - head, 0))
    parts = _merged([(0, head), *spans, (tail, len(query))])
    return GAP.join(query[start:end].strip() for start, end in parts)


def semantic_text(query: str) -> str:
    """What the semantic arm embeds for ``query``: its questions when it is long and asks
    something (module docstring), else the query."""
    if len(query_terms(query)) <= MAX_TERMS:
        return query
    asked = [query[start:end].strip() for start, end in _question_spans(query)]
    return " ".join(asked) or query


def _question_spans(text: str) -> list[tuple[int, int]]:
    return [(start, end) for start, end in sentence_spans(text) if _asks(text[start:end])]


def _asks(sentence: str) -> bool:
    return sentence.rstrip().endswith(("?", "？"))


def _word_end(text: str, at: int) -> int:
    """``at``, moved back to the space before a word it would cut (unless none is near)."""
    if at <= 0 or at >= len(text) or text[at].isspace() or text[at - 1].isspace():
        return max(at, 0)
    space = text.rfind(" ", 0, at)
    return space if at - space < 40 and space > 0 else at


def _word_start(text: str, at: int) -> int:
    """``at``, moved on to the start of the next word when it would cut one."""
    if at <= 0 or at >= len(text) or text[at - 1].isspace():
        return min(max(at, 0), len(text))
    space = text.find(" ", at)
    return space + 1 if 0 <= space < at + 40 else at


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The non-empty ``spans``, sorted, those that touch or overlap made one."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(span for span in spans if span[1] > span[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged
