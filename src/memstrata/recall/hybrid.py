"""Recall over what may be injected (wiki topics and journal entries): arms, fusion, re-ranking.

Arms, each a ranked list of item sources:

- **lexical**: FTS5 BM25 (porter-stemmed English, CJK as character phrases);
- **semantic**: cosine of the query embedding with stored item vectors (when an embedder is on);
- **entity**: items mentioning an ``@name`` of the query or a known entity named in it;
- **temporal**: items inside a time expression of the query ("last week", "in November 2025");
  when the time is all the query names ("what happened last week?"), the only arm;
- **neighbour**: journal entries next to an entry that matches (:mod:`memstrata.recall.neighbours`).

Topics and journal entries are in two FTS5 tables, whose BM25 scores do not compare: each
has its own IDF, and FTS5's, ``log((N − n + 0.5) / (n + 0.5))``, is clamped to 1e-6 for a word
in more than half of a table's rows, so in a wiki of a few topics a topic titled with the
query scored ~0 against journal lines sharing one of its words. When both tables find
something, each score is put on one scale first
(:func:`~memstrata.recall.lexical.table_scales`)::

    lex(d) = −bm25_s(d) / ((k1 + 1) · Σ_{q ∈ Q_s} idf_s(q)) · C_s
    C_s    = Σ_{q ∈ Q_s} g(q) / Σ_{q ∈ Q} g(q),    g(q) = ln(1 + (N − n_q + 0.5) / (n_q + 0.5))

where ``s`` is the table of ``d``, ``Q`` the query's words (phrases), ``Q_s`` those found in
``s`` at all, ``idf_s`` FTS5's IDF in ``s`` and k1 = 1.2 its BM25 constant: a word adds less
than ``(k1 + 1) · idf`` to a row, so the first factor is the share a row holds of what a row of
its table could score, and a weak match is not lifted because it is the best of its table.
``C_s`` is how much of the query the table holds at all, its words weighed by ``g``, an IDF
over both tables together (``N`` rows, ``n_q`` of them holding ``q``) that never reaches 0: a
word the wiki lacks lowers every topic, and one it holds counts however many topics hold it.
Within a table the order stays FTS5's, so a memory of journal entries alone ranks as it did.

Fusion is by score, as in the raw-turn ranking: lex and cosine each as a share of the best
among the candidates (x̂; 0 for an item the arm did not find), the entity and temporal arms as
membership, the neighbour arm as a share of the best content score next to it::

    c(d)     = lex̂(d) + 0.5·coŝ(d)
    fused(d) = c(d) + 0.3·[entity arm found d] + 0.3·[temporal arm found d]
               + 0.4·max(c(d−1), c(d+1))

then re-ranked by recency and use, gently, so that relevance still decides::

    score(d) = fused(d) · (1 + 0.05·e^(−age_days/30)) · (1 + 0.02·ln(1 + recalls))
                        · (0.95 if unaccessed for 90 days) · (1.5 if inside a query time window)
                        · (0.8 if superseded: asked for with ``--include-superseded``, the fact
                           that replaced it goes first when the two match about as well)

An item is inside a window as ``--since``/``--until`` take it
(:func:`~memstrata.recall.filters.within`): a journal line that opens with its time of day at
that time, another across its day. A question that names a time and nothing else is not
re-ranked: what lies in the time, strictly newest first.

Measured through ``benchmarks/retrieval.py --through recall`` (the turns of LoCoMo and
LongMemEval as journal entries): reciprocal rank fusion with an equal-weight semantic arm,
and re-ranking factors of 1.25 (recency), 0.5 (unaccessed) and 0.1 per use, let a month's age
outweigh any relevance: LoCoMo recall@10 0.41 against FTS5's 0.60 on the same entries.

``--since`` (from the start of the window it names), ``--until`` (to the end of its window),
``--kind`` and ``--entity`` are hard filters: with a query, on ten times the arms' usual pool
(so a narrow filter still finds matches ranked below it); without a word to match, recall
lists the k newest items they select, and :func:`listing_note` says how many more there are.
Archived and superseded topics appear only when asked for; a journal fact promoted into a topic
is left to that topic. Pure apart from reading the index connection it is given.
"""

from __future__ import annotations

import heapq
import json
import math
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from memstrata.clock import parse_time
from memstrata.fts import content_terms, match_expression
from memstrata.journal.parse import UPKEEP, find_entities
from memstrata.model import RecallItem
from memstrata.recall.access import Access
from memstrata.recall.entity import name_forms, query_phrases
from memstrata.recall.filters import (
    RecallFilters,
    day_after_start,
    day_start,
    line_time,
    narrows,
    newest_first,
    next_day,
    passes,
    recency,
    within,
)
from memstrata.recall.lexical import best_journal, best_topics, table_scales
from memstrata.recall.long_query import semantic_text
from memstrata.recall.neighbours import neighbour_scores
from memstrata.recall.temporal import TimeWindow, asks_only_about_time, find_time_windows

#: fusion weights (module docstring; the neighbour arm's is its module's)
ARM_WEIGHTS: dict[str, float] = {"lexical": 1.0, "semantic": 0.5, "entity": 0.3, "temporal": 0.3}
#: the order arms are reported in
ARMS = (*ARM_WEIGHTS, "neighbour")
#: re-ranking (module docstring): the most recency can add, a query window, each use's weight,
#: the factor for an item unaccessed for ``STALE_DAYS``
_RECENT_MAX = 1.05
_WINDOW_FACTOR = 1.5
_USE_WEIGHT = 0.02
_STALE_FACTOR = 0.95
_SUPERSEDED_FACTOR = 0.8
POOL = 50
#: with filters and no word to match, recall counts this many items at most for its note on
#: how many more pass (:func:`listing_note`)
LISTING_MAX = 1000
STALE_DAYS = 90
#: the columns recall reads from ``topics`` (never ``detail``: long, and never recalled)
_TOPIC_COLUMNS = "t.id, t.namespace, t.title, t.summary, t.state, t.kind, t.observed, t.updated"
#: ids per ``IN (...)`` list, under SQLite's default limit of bound parameters
_CHUNK = 400
#: the entity arm walks topics newest first once mentions² ≥ this · topics (_mentioning_topics)
_WALK_FACTOR = 25

KIND_OF_NAMESPACE = {
    "world": "world", "experiences": "experience", "opinions": "opinion",
    "observations": "observation", "entities": "world", "lessons": "observation",
}  # fmt: skip

#: query text → {source: cosine}; ``None`` when there is no embedder
SemanticArm = Callable[[str, int], Mapping[str, float]]


@dataclass(slots=True)
class _Candidate:
    item: RecallItem
    ranks: dict[str, int] = field(default_factory=dict)
    #: the scored arms' raw scores: lexical (negated BM25) and semantic (cosine)
    scores: dict[str, float] = field(default_factory=dict)


def recall_items(
    db: sqlite3.Connection,
    query: str,
    filters: RecallFilters,
    now: datetime,
    access: Callable[[Sequence[RecallItem]], Mapping[str, Access]],
    semantic: SemanticArm | None = None,
    stale_days: int = STALE_DAYS,
    semantic_floor: float = 0.0,
) -> list[RecallItem]:
    """Rank wiki and journal items for ``query`` and return the best ``filters.k``.

    An item that only the semantic arm found is left out when its cosine is under
    ``semantic_floor`` (``[recall] min_similarity``; 0, no floor, by default).
    """
    if lists_filtered(query, filters):
        # Nothing to match, a filter to meet: the items it lets through, newest first.
        items = filtered_items(db, filters, filters.k)
        if not filters.entity:
            candidates = [_Candidate(item) for item in items]
            _fill_entities(db, candidates)
            items = [candidate.item for candidate in candidates]
        return [_with(item, 0.0, ()) for item in items]
    states = _states(filters)
    pool: dict[str, _Candidate] = {}
    # A filter is applied to what the arms found: let them find more, or a narrow filter
    # (one kind, one person, a month) would keep only the few of their usual pool it fits.
    depth = POOL * 10 if narrows(filters) else POOL
    windows = find_time_windows(query, now)
    only_time = asks_only_about_time(query, windows)
    if only_time:
        # "what happened last week?": what lies in the window is the answer, newest first;
        # its words would match any text saying "week", its meaning whatever is near "happened"
        query, semantic = "", None
    arms: dict[str, list[str]] = {
        "lexical": _lexical(db, query, states, pool, depth),
        "entity": _entity(db, query, states, pool),
        "temporal": _temporal(db, windows, states, pool),
    }
    if semantic is not None:
        arms["semantic"] = _semantic(db, semantic(semantic_text(query), depth), states, pool)
    for arm, sources in arms.items():
        for rank, source in enumerate(sources, start=1):
            pool[source].ranks.setdefault(arm, rank)
    candidates = list(pool.values())
    if filters.entity:  # the filter reads them; otherwise only the items returned need them
        _fill_entities(db, candidates)
    aliases = entity_aliases(db, filters.entity)
    left_out = _left_out(db, [c.item.source for c in candidates if c.item.stratum == "journal"])
    kept = [
        candidate
        for candidate in candidates
        if passes(candidate.item, filters, aliases)
        and candidate.item.source not in left_out
        and not _too_far(candidate, semantic_floor)
    ]
    content = _content(kept)
    # Context raises what an arm found and the filters let through; it never brings in what
    # nothing found (a match's neighbours would then be injected whatever they say).
    lent = neighbour_scores(db, content)
    for source in lent:
        pool[source].ranks.setdefault("neighbour", 1)
    fused = _fused(kept, content, lent)
    if only_time:
        # strictly newest first: neither use nor age may reorder (or pick) what lies in the time
        scored = [(round(value, 6), candidate) for value, candidate in fused]
        scored.sort(key=lambda pair: recency(pair[1].item), reverse=True)
    else:
        uses = access([candidate.item for candidate in kept])
        scored = _reranked(fused, uses, windows, now, stale_days, filters.k)
    best = scored[: filters.k]
    if not filters.entity:
        _fill_entities(db, [candidate for _, candidate in best])
    return [
        _with(candidate.item, score, tuple(arm for arm in ARMS if arm in candidate.ranks))
        for score, candidate in best
    ]


def lists_filtered(query: str, filters: RecallFilters) -> bool:
    """Whether a recall lists what its filters let through: they narrow, and the query has no
    word to match."""
    return narrows(filters) and not content_terms(query)


def filtered_items(db: sqlite3.Connection, filters: RecallFilters, limit: int) -> list[RecallItem]:
    """The ``limit`` newest items that ``filters`` let through and recall may show (no
    promoted fact or upkeep note), whatever they say: what a recall with no word to match
    lists. Items come with their entities only under an entity filter."""
    items = _filtered(db, filters, _states(filters), max(POOL, limit))
    left_out = _left_out(db, [item.source for item in items if item.stratum == "journal"])
    return [item for item in items if item.source not in left_out][:limit]


def listing_note(db: sqlite3.Connection, query: str, filters: RecallFilters, shown: int) -> str:
    """What a recall that listed ``shown`` items its filters let through (no word to match)
    left out: "N more items pass the filters; raise k to list them", or "" when it listed all.

    Counted up to :data:`LISTING_MAX` items ("over N more" beyond).
    """
    if shown < filters.k or not lists_filtered(query, filters):
        return ""
    passing = len(filtered_items(db, filters, LISTING_MAX + 1))
    if passing <= shown:
        return ""
    if passing > LISTING_MAX:
        return f"over {LISTING_MAX - shown} more items pass the filters; raise k to list them"
    if passing - shown == 1:
        return "1 more item passes the filters; raise k to list it"
    return f"{passing - shown} more items pass the filters; raise k to list them"


def _reranked(
    fused: Sequence[tuple[float, _Candidate]],
    uses: Mapping[str, Access],
    windows: Sequence[TimeWindow],
    now: datetime,
    stale_days: int,
    k: int,
) -> list[tuple[float, _Candidate]]:
    """``(score, candidate)`` re-ranked by recency and use (module docstring), best first;
    among equal scores (items only a filter let in score 0) newest first. Those that cannot
    reach the ``k`` best are left out."""
    # No re-ranking factor exceeds this, so once a candidate's fused score times it falls
    # below the k-th score so far, neither it nor any after it can enter: most are never read.
    most = _RECENT_MAX * (_WINDOW_FACTOR if windows else 1.0)
    most *= 1 + _USE_WEIGHT * math.log1p(max((use.count for use in uses.values()), default=0))
    scored: list[tuple[float, _Candidate]] = []
    top: list[float] = []  # the k best scores so far, smallest first (a heap)
    for value, candidate in fused:
        if len(top) == k and round(value * most, 6) < top[0]:
            break
        use = uses.get(candidate.item.source)
        score = round(value * _rerank(candidate.item, use, windows, now, stale_days), 6)
        scored.append((score, candidate))
        if len(top) < k:
            heapq.heappush(top, score)
        elif score > top[0]:
            heapq.heapreplace(top, score)
    scored.sort(key=lambda pair: recency(pair[1].item), reverse=True)
    scored.sort(key=lambda pair: -pair[0])  # stable: equal scores stay newest first
    return scored


def _too_far(candidate: _Candidate, floor: float) -> bool:
    """Found by nearness alone, and not near enough."""
    return candidate.ranks.keys() == {"semantic"} and candidate.scores["semantic"] < floor


def _content(candidates: Sequence[_Candidate]) -> dict[str, float]:
    """c(d) of the module docstring for each candidate: what its own words and meaning score."""
    scaled = {
        arm: _share_of_best({c.item.source: c.scores[arm] for c in candidates if arm in c.scores})
        for arm in ("lexical", "semantic")
    }
    return {
        candidate.item.source: sum(
            ARM_WEIGHTS[arm] * scores.get(candidate.item.source, 0.0)
            for arm, scores in scaled.items()
        )
        for candidate in candidates
    }


def _fused(
    candidates: Sequence[_Candidate], content: Mapping[str, float], lent: Mapping[str, float]
) -> list[tuple[float, _Candidate]]:
    """``(fused score, candidate)`` for each candidate (module docstring), best first."""
    fused = []
    for candidate in candidates:
        source = candidate.item.source
        value = content.get(source, 0.0) + lent.get(source, 0.0)
        value += sum(ARM_WEIGHTS[arm] for arm in ("entity", "temporal") if arm in candidate.ranks)
        fused.append((value, candidate))
    fused.sort(key=lambda pair: -pair[0])
    return fused


def _share_of_best(scores: Mapping[str, float]) -> dict[str, float]:
    """Each score as a share of the best (negative ones as 0): two items nearly as relevant
    stay near each other, where min-max scaling over a handful of candidates would put one
    at 1 and the other at 0."""
    best = max(scores.values(), default=0.0)
    if best <= 0.0:
        return dict.fromkeys(scores, 1.0) if scores else {}
    return {item: max(0.0, value) / best for item, value in scores.items()}


def _left_out(db: sqlite3.Connection, sources: Sequence[str]) -> set[str]:
    """The journal entries among ``sources`` that recall leaves out.

    - **Promoted facts:** a fact that a topic has taken in. It counts when ``memory/.promoted``
      records this very text from this file (at any line: lines move when notes are logged
      above ``## Retain``) and a topic's lineage names that record. That topic speaks for the
      fact in whatever state the wiki now holds it (merged, superseded, in conflict): the
      journal line would be the same knowledge twice, or stale.
    - **Upkeep notes:** entries in a day's ``## Upkeep`` section, memstrata's own notes on its
      upkeep (the gardener's summary and health line): about the memory, not knowledge.
    """
    lines = _journal_lines(sources)
    if not lines:
        return set()
    rows = db.execute(
        "SELECT j.source || '#L' || j.line FROM json_each(?) AS v"
        " JOIN journal j ON j.source = json_extract(v.value, '$[0]')"
        " AND j.line = json_extract(v.value, '$[1]')"
        " WHERE j.section = ? COLLATE NOCASE"
        # the records of this file (a range of the primary key: <file>#L…) with this text
        " OR (j.digest != '' AND EXISTS (SELECT 1 FROM promoted p"
        " JOIN lineage l ON l.ref = p.source WHERE p.source > j.source || '#L'"
        " AND p.source < j.source || '#M' AND p.digest = j.digest))",
        (json.dumps(lines), UPKEEP),
    )
    return {source for (source,) in rows}


def _states(filters: RecallFilters) -> tuple[str, ...]:
    states = ["active", "conflict"]
    if filters.include_archived:
        states.append("archived")
    if filters.include_superseded or filters.include_archived:
        states.append("superseded")
    return tuple(states)


#: a topic's kind in SQL, as :func:`_topic_item` reads it: its own, else its namespace's
_TOPIC_KIND = (
    "CASE WHEN t.kind != '' THEN t.kind "
    + " ".join(f"WHEN t.namespace = '{ns}' THEN '{kind}'" for ns, kind in KIND_OF_NAMESPACE.items())
    + " ELSE 'world' END"
)


def _filtered(
    db: sqlite3.Connection, filters: RecallFilters, states: tuple[str, ...], limit: int
) -> list[RecallItem]:
    """The ``limit`` newest items that pass ``filters``, whatever they say.

    Time and kind are asked of SQL; an entity is found where recall finds it otherwise (its
    mentions by any of its names, and its name's words, which find a page titled for it), then
    every item is checked by :func:`passes`, the one definition of passing.
    """
    aliases = entity_aliases(db, filters.entity)
    if filters.entity:
        name = filters.entity.lstrip("@")
        items = _mentioning(db, sorted({*name_forms(name), *aliases}), states, limit)
        expression = match_expression(name)
        if expression is not None:
            items += [_topic_item(row) for _, row in best_topics(
                db, expression, states, limit, _TOPIC_COLUMNS)]  # fmt: skip
            items += [_journal_item(row) for _, row in best_journal(db, expression, limit)]
    else:
        items = _topics_within(db, filters, states, limit) + _entries_within(db, filters, limit)
    candidates = [_Candidate(item) for item in dict((i.source, i) for i in items).values()]
    if filters.entity:
        _fill_entities(db, candidates)  # what passes reads for the entity
    items = [candidate.item for candidate in candidates if passes(candidate.item, filters, aliases)]
    newest_first(items)
    return items[:limit]


def _topics_within(
    db: sqlite3.Connection, filters: RecallFilters, states: tuple[str, ...], limit: int
) -> list[RecallItem]:
    clauses, values = [f"t.state IN ({', '.join('?' * len(states))})"], list(states)
    if filters.since:
        clauses.append("t.observed >= ?")
        values.append(filters.since)
    if filters.until:
        clauses.append("t.observed < ?")
        values.append(filters.until)
    if filters.kind:
        clauses.append(f"{_TOPIC_KIND} = ?")
        values.append(filters.kind)
    rows = db.execute(
        f"SELECT {_TOPIC_COLUMNS} FROM topics t INDEXED BY topics_by_observed"
        f" WHERE {' AND '.join(clauses)} ORDER BY t.observed DESC, t.id LIMIT ?",
        (*values, limit),
    )
    return [_topic_item(row) for row in rows]


def _entries_within(db: sqlite3.Connection, filters: RecallFilters, limit: int) -> list[RecallItem]:
    clauses, values = ["1"], []
    if filters.since:
        clauses.append("day >= ?")
        values.append(filters.since[:10])
    if filters.until:
        clauses.append("day < ?")
        values.append(day_after_start(filters.until))
    if filters.kind == "note":
        clauses.append("fact_kind IS NULL")
    elif filters.kind:
        clauses.append("fact_kind = ?")
        values.append(filters.kind)
    rows = db.execute(
        f"SELECT * FROM journal WHERE {' AND '.join(clauses)} ORDER BY day DESC, source, line",
        values,
    )
    return _newest_entries(rows, filters.since, filters.until, limit)


def _lexical(
    db: sqlite3.Connection,
    query: str,
    states: tuple[str, ...],
    pool: dict[str, _Candidate],
    depth: int = POOL,
) -> list[str]:
    expression = match_expression(query)
    if expression is None:
        return []
    topics = best_topics(db, expression, states, depth, _TOPIC_COLUMNS)
    journal = best_journal(db, expression, depth)
    # One table alone needs no scale: lex̂ is a share of the best, the same for any factor.
    scales = table_scales(db, expression) if topics and journal else {}
    topic_scale, entry_scale = scales.get("topics_fts", 1.0), scales.get("journal_fts", 1.0)
    ranked = [(rank * topic_scale, _topic_item(row)) for rank, row in topics]
    ranked += [(rank * entry_scale, _journal_item(row)) for rank, row in journal]
    ranked.sort(key=lambda pair: (pair[0], pair[1].source))
    found = _add(pool, [item for _, item in ranked])
    for rank, item in ranked:
        pool[item.source].scores.setdefault("lexical", -float(rank))
    return found


def _entity(
    db: sqlite3.Connection, query: str, states: tuple[str, ...], pool: dict[str, _Candidate]
) -> list[str]:
    keys = entity_keys(db, query)
    if not keys:
        return []
    return _add(pool, _mentioning(db, keys, states))


def entity_keys(db: sqlite3.Connection, query: str) -> list[str]:
    """Entities the query names: the candidate phrases of :func:`query_phrases` that are keys,
    and their aliases (:func:`entity_aliases`)."""
    phrases = query_phrases(query)
    found = _lookup(db, "SELECT key FROM entities WHERE key IN ({marks})", phrases)
    return sorted(found | _lookup(db, _ALIASES, phrases))


def entity_aliases(db: sqlite3.Connection, entity: str | None) -> list[str]:
    """The names of ``entity`` (``--entity``, in any of its :func:`name_forms`) that a topic in
    ``people/`` or ``entities/`` gives it: ``李娜`` and ``li na`` for "Li Na", "li-na" or "李娜"
    when ``people/li-na`` is titled "李娜 (Li Na)" (:func:`memstrata.index.db.topic_aliases`)."""
    return sorted(_lookup(db, _ALIASES, name_forms(entity.lstrip("@")))) if entity else []


#: every key of a topic that holds one of the keys asked (aliases go both ways)
_ALIASES = (
    "SELECT b.key FROM aliases a JOIN aliases b ON b.topic = a.topic WHERE a.key IN ({marks})"
)


def _lookup(db: sqlite3.Connection, sql: str, keys: Iterable[str]) -> set[str]:
    """The first column of ``sql`` asked with ``keys`` in place of ``{marks}``, in chunks."""
    asked, found = sorted(set(keys)), set[str]()
    for start in range(0, len(asked), _CHUNK):
        chunk = asked[start : start + _CHUNK]
        found.update(
            row[0] for row in db.execute(sql.format(marks=", ".join("?" * len(chunk))), chunk)
        )
    return found


def _mentioning(
    db: sqlite3.Connection, keys: Sequence[str], states: tuple[str, ...], limit: int = POOL
) -> list[RecallItem]:
    topics = _mentioning_topics(db, keys, states, limit)
    entries = _mentioning_entries(db, keys, limit)
    items = [_topic_item(row) for row in topics] + [_journal_item(row) for row in entries]
    items.sort(key=lambda item: (item.time, item.source), reverse=True)
    return items


def _mentioning_topics(
    db: sqlite3.Connection, keys: Sequence[str], states: tuple[str, ...], limit: int = POOL
) -> list[sqlite3.Row]:
    """The ``POOL`` newest topics in ``states`` that mention any of ``keys`` (ties by id).

    Two plans for the same rows. From the mentions: every topic naming the entity is read and
    sorted, cost ∝ mentions. Walking ``topics_by_observed`` newest first until ``POOL`` of them
    mention it: cost ∝ POOL · topics / mentions. The walk wins once mentions² ≥ 25 · topics
    (measured: a mention costs about twice a walked topic); below that a rare name would make
    the walk read every topic. Counting stops at that threshold, so it stays cheap.
    """
    marks = ", ".join("?" * len(keys))
    state_marks = ", ".join("?" * len(states))
    # rowids only grow, so this over-counts topics after deletions; it only picks a plan
    topics = db.execute("SELECT COALESCE(MAX(rowid), 0) FROM topics").fetchone()[0]
    enough = math.isqrt(_WALK_FACTOR * topics) + 1
    mentions = db.execute(
        f"SELECT COUNT(*) FROM (SELECT 1 FROM mentions WHERE entity IN ({marks})"
        " AND ref_kind = 'topic' LIMIT ?)",
        (*keys, enough),
    ).fetchone()[0]
    if mentions >= enough:
        return db.execute(
            f"SELECT {_TOPIC_COLUMNS} FROM topics t INDEXED BY topics_by_observed"
            f" WHERE t.state IN ({state_marks}) AND EXISTS (SELECT 1 FROM mentions m"
            f" WHERE m.entity IN ({marks}) AND m.ref_kind = 'topic' AND m.ref = t.id)"
            " ORDER BY t.observed DESC, t.id LIMIT ?",
            (*states, *keys, limit),
        ).fetchall()
    # CROSS JOIN keeps the mentions as the outer loop (the planner could pick the walk here)
    return db.execute(
        f"SELECT DISTINCT {_TOPIC_COLUMNS} FROM mentions m CROSS JOIN topics t ON t.id = m.ref"
        f" WHERE m.ref_kind = 'topic' AND m.entity IN ({marks}) AND t.state IN ({state_marks})"
        " ORDER BY t.observed DESC, t.id LIMIT ?",
        (*keys, *states, limit),
    ).fetchall()


def _mentioning_entries(
    db: sqlite3.Connection, keys: Sequence[str], limit: int = POOL
) -> list[sqlite3.Row]:
    """The ``POOL`` newest journal entries that mention any of ``keys`` (ties by source, line).

    Read from the entity's mentions, then looked up by (source, line): joining the journal to
    the mentions on ``source || '#L' || line`` walked every entry of the journal.
    """
    marks = ", ".join("?" * len(keys))
    refs = db.execute(
        f"SELECT ref FROM mentions WHERE entity IN ({marks}) AND ref_kind = 'journal'", keys
    )
    wanted = list(dict.fromkeys(ref for (ref,) in refs))
    rows = {f"{row['source']}#L{row['line']}": row for row in _journal_rows(db, wanted)}
    entries = [rows[ref] for ref in wanted if ref in rows]
    # ORDER BY day DESC, source, line (sorts are stable; str order is SQLite's BINARY order)
    entries.sort(key=lambda row: (row["source"], row["line"]))
    entries.sort(key=lambda row: row["day"], reverse=True)
    return entries[:limit]


def _temporal(
    db: sqlite3.Connection,
    windows: Sequence[TimeWindow],
    states: tuple[str, ...],
    pool: dict[str, _Candidate],
) -> list[str]:
    if not windows:
        return []
    items: list[RecallItem] = []
    marks = ", ".join("?" * len(states))
    for window in windows:
        start, end = window.start_iso, window.end_iso
        items += [
            _topic_item(row)
            for row in db.execute(
                f"SELECT {_TOPIC_COLUMNS} FROM topics t INDEXED BY topics_by_observed"
                f" WHERE observed >= ? AND observed < ? AND state IN ({marks})"
                " ORDER BY observed DESC, id LIMIT ?",
                (start, end, *states, POOL),
            )
        ]
        items += _entries_in(db, window)
    items.sort(key=lambda item: (item.time, item.source), reverse=True)
    return _add(pool, items)


def items_in_time(
    db: sqlite3.Connection, windows: Sequence[TimeWindow], include_archived: bool = False
) -> list[RecallItem]:
    """What the temporal arm finds for ``windows``: topics observed and journal entries
    written inside them, newest first, a later line of a day after an earlier one (archived
    and superseded topics only on request)."""
    states = _states(RecallFilters(include_archived=include_archived))
    pool: dict[str, _Candidate] = {}
    items = [pool[source].item for source in _temporal(db, windows, states, pool)]
    return sorted(items, key=recency, reverse=True)


def _entries_in(db: sqlite3.Connection, window: TimeWindow) -> list[RecallItem]:
    """The journal entries inside ``window`` (:func:`_newest_entries`), ``POOL`` or more."""
    start, end = window.start_iso, window.end_iso
    rows = db.execute(
        "SELECT * FROM journal WHERE day >= ? AND day < ? ORDER BY day DESC, source, line",
        (start[:10], end[:10] if end[11:] == "00:00:00Z" else next_day(end)),
    )
    return _newest_entries(rows, start, end, POOL)


def _newest_entries(
    rows: Iterable[sqlite3.Row], since: str, until: str, limit: int
) -> list[RecallItem]:
    """The entries of ``rows`` (journal rows, newest day first) from ``since`` up to
    ``until``, whole days until there are ``limit``. Each is at its own time, so a line that
    opens with its time of day ("02:00 …") is inside "last night" (18:00 to 06:00) only when
    that time is; and a day is not cut, as its lines need not be in the order of their times
    (the newest of a long day may be its last line, or any)."""
    found: list[RecallItem] = []
    day = ""
    for row in rows:
        if len(found) >= limit and row["day"] != day:
            break
        day = row["day"]
        item = _journal_item(row)
        if within(item, since, until):
            found.append(item)
    return found


def _semantic(
    db: sqlite3.Connection,
    scores: Mapping[str, float],
    states: tuple[str, ...],
    pool: dict[str, _Candidate],
) -> list[str]:
    ordered = sorted(scores, key=lambda source: (-scores[source], source))
    loaded = items_for_sources(db, [source for source in ordered if source not in pool])
    items: list[RecallItem] = []
    for source in ordered:
        item = pool[source].item if source in pool else loaded.get(source)
        if item is not None and (item.stratum == "journal" or item.state in states):
            items.append(item)
    found = _add(pool, items)
    for source in found:
        pool[source].scores["semantic"] = float(scores[source])
    return found


def item_for_source(db: sqlite3.Connection, source: str) -> RecallItem | None:
    """Load one item by its source (``ns/slug`` or ``memory/<day>.md#L<n>``)."""
    item = items_for_sources(db, [source]).get(source)
    if item is None:
        return None
    candidate = _Candidate(item)
    _fill_entities(db, [candidate])
    return candidate.item


def items_for_sources(db: sqlite3.Connection, sources: Sequence[str]) -> dict[str, RecallItem]:
    """Load items by source, two queries in all (one per stratum); unknown sources are left out.

    Topic items come without their entities (see ``_fill_entities``).
    """
    found: dict[str, RecallItem] = {}
    topic_ids = [source for source in sources if "#L" not in source]
    for start in range(0, len(topic_ids), _CHUNK):
        chunk = topic_ids[start : start + _CHUNK]
        rows = db.execute(
            f"SELECT {_TOPIC_COLUMNS} FROM topics t WHERE id IN ({', '.join('?' * len(chunk))})",
            chunk,
        )
        found.update((row["id"], _topic_item(row)) for row in rows)
    for row in _journal_rows(db, sources):
        item = _journal_item(row)
        found[item.source] = item
    return found


def _journal_rows(db: sqlite3.Connection, sources: Sequence[str]) -> list[sqlite3.Row]:
    """The journal rows of sources ``<file>#L<line>``, one index lookup each (unparsable
    sources are skipped)."""
    lines = _journal_lines(sources)
    found: list[sqlite3.Row] = []
    for start in range(0, len(lines), _CHUNK):
        chunk = lines[start : start + _CHUNK]
        pairs = ", ".join("(?, ?)" for _ in chunk)
        # joined, not ``(source, line) IN (VALUES …)``, which SQLite answers by a full scan
        found += db.execute(
            f"SELECT j.* FROM (VALUES {pairs}) v CROSS JOIN journal j"
            " ON j.source = v.column1 AND j.line = v.column2",
            [value for pair in chunk for value in pair],
        ).fetchall()
    return found


def _journal_lines(sources: Sequence[str]) -> list[tuple[str, int]]:
    """``(file, line)`` of each journal source ``<file>#L<line>``; others are skipped."""
    lines = []
    for source in sources:
        path, mark, line = source.rpartition("#L")
        if mark and line.isdecimal():
            lines.append((path, int(line)))
    return lines


def _add(pool: dict[str, _Candidate], items: Sequence[RecallItem]) -> list[str]:
    for item in items:
        pool.setdefault(item.source, _Candidate(item))
    return list(dict.fromkeys(item.source for item in items))


def _topic_item(row: sqlite3.Row) -> RecallItem:
    """A topic row as an item; its entities are filled in later, for all candidates at once."""
    kind = row["kind"] or KIND_OF_NAMESPACE.get(row["namespace"], "world")
    return RecallItem(
        stratum="wiki",
        kind=kind,
        time=row["observed"] or row["updated"],
        entities=(),
        content=_body(row["summary"]),
        source=row["id"],
        score=0.0,
        arms=(),
        state=row["state"],
        title=row["title"],
    )


def _fill_entities(db: sqlite3.Connection, candidates: Sequence[_Candidate]) -> None:
    """Give each candidate its entities: a topic's (sorted by key) read in one query per
    chunk, a journal entry's found in its text."""
    ids = list(dict.fromkeys(c.item.source for c in candidates if c.item.stratum == "wiki"))
    names: dict[str, list[str]] = {}
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start : start + _CHUNK]
        rows = db.execute(
            "SELECT m.ref, e.name FROM mentions m JOIN entities e ON e.key = m.entity"
            f" WHERE m.ref_kind = 'topic' AND m.ref IN ({', '.join('?' * len(chunk))})"
            " ORDER BY m.ref, e.key",
            chunk,
        )
        for ref, name in rows:
            names.setdefault(ref, []).append(name)
    for candidate in candidates:
        if candidate.item.stratum == "wiki":
            entities = tuple(names.get(candidate.item.source, ()))
        else:
            entities = find_entities(candidate.item.content)
        candidate.item = replace(candidate.item, entities=entities)


def _body(summary: str) -> str:
    """The summary without its leading ``# title`` line (the title travels separately)."""
    lines = summary.strip().splitlines()
    if lines and lines[0].startswith("#"):
        lines = lines[1:]
    return "\n".join(lines).strip() or summary.strip()


def _journal_item(row: sqlite3.Row) -> RecallItem:
    """A journal row as an item, at its time of day when it opens with one; its entities are
    filled in later, like a topic's."""
    return RecallItem(
        stratum="journal",
        kind=row["fact_kind"] or "note",
        time=line_time(row["day"], row["text"]),
        entities=(),
        content=row["text"],
        source=f"{row['source']}#L{row['line']}",
        score=0.0,
        arms=(),
    )


def _rerank(
    item: RecallItem,
    use: Access | None,
    windows: Sequence[TimeWindow],
    now: datetime,
    stale_days: int,
) -> float:
    moment = parse_time(day_start(item.time)) if item.time else None
    factor = 1.0
    if moment is not None:
        age_days = max(0.0, (now - moment).total_seconds() / 86400)
        factor *= 1 + (_RECENT_MAX - 1) * math.exp(-age_days / 30)
        # in the window as the temporal arm and --since/--until take it (an untimed journal
        # line spans its day)
        if any(within(item, window.start_iso, window.end_iso) for window in windows):
            factor *= _WINDOW_FACTOR
    last_used = parse_time(use.last) if use else moment
    if use:
        factor *= 1 + _USE_WEIGHT * math.log1p(use.count)
    if last_used is not None and now - last_used > timedelta(days=stale_days):
        factor *= _STALE_FACTOR
    if item.state == "superseded":
        factor *= _SUPERSEDED_FACTOR
    return factor


def _with(item: RecallItem, score: float, arms: tuple[str, ...]) -> RecallItem:
    return RecallItem(
        item.stratum,
        item.kind,
        item.time,
        item.entities,
        item.content,
        item.source,
        score,
        arms,
        item.state,
        item.title,
    )
