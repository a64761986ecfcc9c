"""Candidate pairs of topics, and the budgeted judge that compares them.

Finding candidates is cheap and exact: an inverted index over each live topic's content words
(the gate's lexical features) gives, for a topic, the others that share words with it, with

    jaccard(a, b)     = |A ∩ B| / |A ∪ B|
    containment(a, b) = |A ∩ B| / min(|A|, |B|)

Judging a pair is a *comparison* — the gate's ``relate`` today, a model tomorrow — and each run
has a hard budget of them (DESIGN.md §4: 50). Judgements are cached per pair of fingerprints, so
dedup and invalidate never pay twice for the same pair.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from memstrata.fts import STOP_WORDS
from memstrata.gate.page import statements_of
from memstrata.gate.relation import Relation, relate
from memstrata.gate.statements import features_of
from memstrata.maintain.steps import fingerprint_of
from memstrata.model import Topic

#: a word held by more topics than this share of them says nothing about a pair
COMMON_WORD_SHARE = 0.05
COMMON_WORD_MIN = 50
#: a topic whose every word is common finds its candidates by this many of its rarest
RAREST = 2
#: or they share this share of the shorter one's raw tokens, common ones included
ALIKE_CONTAINMENT = 0.6
#: candidates share at least this share of the shorter one's raw tokens
RAW_CONTAINMENT = 0.2
_RAW_TOKEN = re.compile(r"[^\W_]+")
_CJK_RUN = re.compile(r"^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


class ComparisonsSpent(Exception):
    """The run's comparison budget is used up."""


@dataclass(frozen=True, slots=True)
class Pair:
    """Two live topics that share content words; ``a`` is the one being looked at."""

    a: str
    b: str
    jaccard: float
    containment: float


def body_of(topic: Topic) -> str:
    """A topic's statements as one text (headings and list markers dropped)."""
    return " ".join(statements_of(topic.summary))


def stated(topic: Topic) -> str:
    """When a topic's knowledge was stated: what orders supersession."""
    return topic.meta.observed or topic.meta.created


def newer_first(a: Topic, b: Topic) -> tuple[Topic, Topic]:
    return (a, b) if (stated(a), a.id) >= (stated(b), b.id) else (b, a)


def single_statement(topic: Topic) -> bool:
    return len(statements_of(topic.summary)) == 1


class WordIndex:
    """Which live topics share words: raw tokens to find candidates, exact words to score them.

    Raw tokens (lower-cased runs of letters and digits, CJK as character pairs) are cheap, so
    every live topic is indexed by them; the gate's lexical features, which stem and fold
    synonyms, are computed only for topics that turn up as candidates.
    """

    def __init__(self, topics: Iterable[Topic]) -> None:
        self.topics: dict[str, Topic] = {}
        self.tokens: dict[str, frozenset[str]] = {}
        self.postings: dict[str, set[str]] = defaultdict(set)
        self._words: dict[str, frozenset[str]] = {}
        for topic in topics:
            self.add(topic)

    def add(self, topic: Topic) -> None:
        tokens = raw_tokens(body_of(topic))
        self.topics[topic.id] = topic
        self.tokens[topic.id] = tokens
        self._words.pop(topic.id, None)
        for token in tokens:
            self.postings[token].add(topic.id)

    def remove(self, topic_id: str) -> None:
        self.topics.pop(topic_id, None)
        self._words.pop(topic_id, None)
        for token in self.tokens.pop(topic_id, frozenset()):
            self.postings[token].discard(topic_id)

    def words(self, topic_id: str) -> frozenset[str]:
        if topic_id not in self._words:
            self._words[topic_id] = features_of(body_of(self.topics[topic_id])).words
        return self._words[topic_id]

    def pairs_of(self, topic_id: str, min_jaccard: float) -> list[Pair]:
        """Topics sharing words with ``topic_id``, most alike first."""
        tokens = self.tokens.get(topic_id)
        if not tokens:
            return []
        common = max(COMMON_WORD_MIN, int(COMMON_WORD_SHARE * len(self.tokens)))
        rare = [token for token in tokens if len(self.postings.get(token, ())) <= common]
        if not rare:
            # Every word of it is common: its rarest still find the topics worded like it
            # (many topics phrased alike must not hide the duplicates among them).
            rare = sorted(tokens, key=lambda token: (len(self.postings[token]), token))[:RAREST]
        shared: Counter[str] = Counter()
        for token in rare:
            shared.update(self.postings.get(token, ()))
        mine = self.words(topic_id)
        found: list[Pair] = []
        for other, count in shared.items():
            smaller = min(len(tokens), len(self.tokens[other]))
            if other == topic_id:
                continue
            # Shared rare words make a candidate; so do common ones when nearly all are shared
            # (a duplicate among topics phrased alike shares its one rare word, the name, and
            # every common one), counted only then: they are many, and most pairs fail here.
            if count < RAW_CONTAINMENT * smaller and (
                len(tokens & self.tokens[other]) < ALIKE_CONTAINMENT * smaller
            ):
                continue
            theirs = self.words(other)
            if not mine or not theirs:
                continue
            both = len(mine & theirs)
            jaccard = both / len(mine | theirs)
            if jaccard < min_jaccard:
                continue
            found.append(Pair(topic_id, other, jaccard, both / min(len(mine), len(theirs))))
        found.sort(key=lambda pair: (-pair.containment, -pair.jaccard, pair.b))
        return found


def raw_tokens(text: str) -> frozenset[str]:
    """Lower-cased words of three or more characters, and CJK character pairs."""
    found: set[str] = set()
    for token in _RAW_TOKEN.findall(text.casefold()):
        if _CJK_RUN.match(token):
            found.update(token[i : i + 2] for i in range(max(1, len(token) - 1)))
        elif len(token) >= 3 and token not in STOP_WORDS:
            found.add(token)
    return frozenset(found)


class Judge:
    """Compares pairs within a hard budget; a pair already judged costs nothing."""

    def __init__(self, max_comparisons: int) -> None:
        self.max_comparisons = max_comparisons
        self.used = 0
        self._cache: dict[tuple[str, str], Relation] = {}

    def relation(self, a: Topic, b: Topic) -> Relation:
        """How the newer of ``a`` and ``b`` relates to the older; raises ComparisonsSpent."""
        newer, older = newer_first(a, b)
        key = (fingerprint_of(newer), fingerprint_of(older))
        if key in self._cache:
            return self._cache[key]
        if self.used >= self.max_comparisons:
            raise ComparisonsSpent
        self.used += 1
        found = relate(body_of(newer), body_of(older))
        self._cache[key] = found
        return found
