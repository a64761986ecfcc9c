"""Recall over what may be injected (wiki topics and journal entries): arms, fusion, re-ranking.

Arms, each a ranked list of item sources:

- **lexical**: FTS5 BM25 (porter-stemmed English, CJK as character phrases);
- **semantic**: cosine of the query embedding with stored item vectors (when an embedder is on);
- **entity**: items mentioning an ``@name`` of the query or a known entity named in it
  (:mod:`memstrata.recall.mentions`);
- **temporal**: items inside a time expression of the query ("last week", "in November 2025";
  :func:`memstrata.recall.listing.items_in_windows`); when the time is all the query names
  ("what happened last week?"), the only arm;
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
lists the k newest items they select (:mod:`memstrata.recall.listing`), and its
:func:`~memstrata.recall.listing.listing_note` says how many more there are.
Archived and superseded topics appear only when asked for; a journal fact promoted into a topic
is left to that topic. Pure apart from reading the index connection it is given.
"""

from __future__ import annotations

import heapq
import math
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from memstrata.clock import parse_time
from memstrata.fts import match_expression
from memstrata.model import RecallItem
from memstrata.recall.access import Access
from memstrata.recall.filters import (
    RecallFilters,
    day_start,
    narrows,
    passes,
    recency,
    topic_states,
    within,
)
from memstrata.recall.items import (
    POOL,
    TOPIC_COLUMNS,
    items_for_sources,
    journal_item,
    left_out,
    topic_item,
    with_entities,
)
from memstrata.recall.lexical import best_journal, best_topics, table_scales
from memstrata.recall.listing import filtered_items, items_in_windows, lists_filtered
from memstrata.recall.long_query import semantic_text
from memstrata.recall.mentions import entity_aliases, entity_keys, mentioning
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
STALE_DAYS = 90

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
            items = with_entities(db, items)
        return [_with(item, 0.0, ()) for item in items]
    states = topic_states(filters)
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
    hidden = left_out(db, [c.item.source for c in candidates if c.item.stratum == "journal"])
    kept = [
        candidate
        for candidate in candidates
        if passes(candidate.item, filters, aliases)
        and candidate.item.source not in hidden
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
    topics = best_topics(db, expression, states, depth, TOPIC_COLUMNS)
    journal = best_journal(db, expression, depth)
    # One table alone needs no scale: lex̂ is a share of the best, the same for any factor.
    scales = table_scales(db, expression) if topics and journal else {}
    topic_scale, entry_scale = scales.get("topics_fts", 1.0), scales.get("journal_fts", 1.0)
    ranked = [(rank * topic_scale, topic_item(row)) for rank, row in topics]
    ranked += [(rank * entry_scale, journal_item(row)) for rank, row in journal]
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
    return _add(pool, mentioning(db, keys, states))


def _temporal(
    db: sqlite3.Connection,
    windows: Sequence[TimeWindow],
    states: tuple[str, ...],
    pool: dict[str, _Candidate],
) -> list[str]:
    return _add(pool, items_in_windows(db, windows, states)) if windows else []


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


def _add(pool: dict[str, _Candidate], items: Sequence[RecallItem]) -> list[str]:
    for item in items:
        pool.setdefault(item.source, _Candidate(item))
    return list(dict.fromkeys(item.source for item in items))


def _fill_entities(db: sqlite3.Connection, candidates: Sequence[_Candidate]) -> None:
    """Give each candidate its entities (:func:`~memstrata.recall.items.with_entities`)."""
    for candidate, item in zip(
        candidates, with_entities(db, [c.item for c in candidates]), strict=True
    ):
        candidate.item = item


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
