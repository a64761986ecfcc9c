"""``search``: every stratum at once, for a person reading the list.

Wiki topics and journal entries by their words (FTS5 BM25), raw turns by the hybrid raw search
(:mod:`memstrata.recall.raw_search`), the three lists fused by reciprocal rank
(:func:`~memstrata.recall.fusion.reciprocal_rank_fusion`). What holds a word of the query comes
before what was found by nearness of meaning alone, so a turn that only lies near (a tool's
output) never pushes a real match down. ``search --sessions`` ranks whole raw sessions.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from memstrata.fts import content_terms
from memstrata.model import RecallItem, SearchHit
from memstrata.recall.fusion import reciprocal_rank_fusion
from memstrata.recall.inputs import checked_count
from memstrata.recall.lexical import search_journal, search_topics

if TYPE_CHECKING:
    from memstrata.memory import Memory

#: turns ranked before sessions are: a session's found arm sums its turns among these
SESSION_TURN_POOL = 300
#: words a raw turn needs for ``search`` to show it when only its meaning is near the query
NEAR_MIN_WORDS = 3


def search_strata(
    memory: Memory, query: str, limit: int, include_raw: bool, include_archived: bool
) -> list[SearchHit]:
    """The ``limit`` best hits for ``query`` over wiki, journal and (with ``include_raw``) raw
    turns; see :meth:`Memory.search`."""
    query, limit = memory.searched_query(query), checked_count(limit, "limit")
    if not content_terms(query):
        return []
    memory.refresh()
    pool = max(limit * 3, 30)
    lists = _wiki_and_journal(memory, query, pool, include_archived)
    if include_raw and memory.usable_raw() is not None:
        lists.append(memory.search_raw(query, pool))
    fused = reciprocal_rank_fusion(lists, len(lists) * pool)
    shown = [
        hit
        for hit in fused
        if hit.holds_a_word or len(content_terms(hit.text[:200])) >= NEAR_MIN_WORDS
    ]
    return sorted(shown, key=lambda hit: not hit.holds_a_word)[:limit]  # stable: rank kept


def _wiki_and_journal(
    memory: Memory, query: str, pool: int, include_archived: bool
) -> list[list[SearchHit]]:
    """The wiki's and the journal's lists for ``query``, by their words; and, when the query
    names a time, a list of those hits that lie in it, so that they rise. A query that names
    a time and nothing else ("2025-11-26", "what happened last week?") lists what lies in it,
    newest first: a day's entries do not hold their date, and "week" is no word to match."""
    from memstrata.recall.listing import items_in_time
    from memstrata.recall.temporal import asks_only_about_time, find_time_windows

    db = memory.index.db
    windows = find_time_windows(query, memory.clock())
    timed = items_in_time(db, windows, include_archived) if windows else []
    lists = [search_topics(db, query, pool, include_archived), search_journal(db, query, pool)]
    inside = {item.source for item in timed}
    matched_inside = [hit for hits in lists for hit in hits if hit.source in inside]
    if asks_only_about_time(query, windows):
        # what lies in the time, what says it ("2025-11") first; nothing outside it
        return [[_timed_hit(item) for item in timed[:pool]], matched_inside]
    if inside:
        lists.append(matched_inside)
    return lists


def _timed_hit(item: RecallItem) -> SearchHit:
    """An item the temporal arm found, as search shows it."""
    if item.stratum == "wiki":
        extra = {"state": item.state}
    else:
        extra = {"day": item.time[:10]} | ({"kind": item.kind} if item.kind != "note" else {})
    return SearchHit(
        stratum=item.stratum,
        source=item.source,
        text=item.content,
        score=0.0,
        time=item.time,
        title=item.title,
        extra=extra,
    )


def session_hits(memory: Memory, query: str, limit: int) -> list[SearchHit]:
    """The ``limit`` best raw sessions for ``query``, those holding a word of it first; see
    :meth:`Memory.search_sessions`."""
    limit = checked_count(limit, "limit")
    if not memory.workspace.raw_db.exists():
        return []
    turns, sessions = memory.rank_raw(query, SESSION_TURN_POOL)
    best: dict[str, str] = {}
    worded: set[str] = set()
    for turn in turns:
        session = turn.source.rpartition("#")[0]
        best.setdefault(session, turn.source)
        if "lexical" in turn.arms:
            worded.add(session)
    shown = sorted(sessions, key=lambda pair: pair[0] not in worded)[:limit]  # stable
    hits = []
    for session, score in shown:
        hit = memory.raw.session_hit(session, round(score, 6), best.get(session))
        if hit is not None:
            arm = "lexical" if session in worded else "semantic"
            hits.append(replace(hit, extra={**hit.extra, "arms": arm}))
    return hits
