"""What a statement says, lexically: its content words, and the details that must never blur.

The gate compares a candidate with what is stored. Embeddings say two texts are *about* the same
thing; they are poor at telling "prefers cortado" from "prefers flat white" or "likes X" from
"no longer likes X" (measured: cosine ranks a paraphrase above an opposite on only 35–65 % of
triples). So every comparison also looks at these lexical features, which are exact:

- **content words**, lightly stemmed and folded into synonym groups for common predicates
  (likes / loves / enjoys / is fond of …), so paraphrases of the verb still match;
- **numbers and times** (``3pm``, ``400``, ``12.5``, ``three``), **dates** (month and day names,
  ISO dates), **names** (capitalised words and ``@mentions``), and **negation** (``not``,
  ``never``, ``no longer``, ``不``, ``没有`` …): any difference in these means the statements say
  different things, whatever the embedding says.

Chinese is compared by character bigrams. Pure functions only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memstrata.fts import STOP_WORDS

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WORD = re.compile(rf"[{_CJK}]+|[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_NUMBER = re.compile(
    r"(?<![\w.])(\d+(?:[.,:]\d+)*)\s*(am|pm|%|k|m|h|hrs?|min|mins|s|kg|km|mb|gb|ms)?(?![\w])",
    re.IGNORECASE,
)
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b")

NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "twenty": "20",
    "thirty": "30",
    "hundred": "100",
    "thousand": "1000",
    "once": "1x",
    "twice": "2x",
    "half": "0.5",
    "dozen": "12",
    "一": "1",
    "二": "2",
    "两": "2",
    "三": "3",
    "四": "4",
    "五": "5",
    "六": "6",
    "七": "7",
    "八": "8",
    "九": "9",
    "十": "10",
    "百": "100",
    "千": "1000",
    "万": "10000",
}
DATE_WORDS = frozenset(
    """january february march april may june july august september october november december
    jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday friday
    saturday sunday mon tue tues wed thu thur thurs fri sat sun today tomorrow yesterday tonight
    morning afternoon evening night weekend weekday weekly daily monthly yearly annually""".split()
)
NEGATIONS = frozenset(
    """not no never none nothing nobody neither nor without cannot can't don't doesn't didn't
    isn't aren't wasn't weren't won't wouldn't shouldn't couldn't hasn't haven't hadn't
    dont doesnt didnt isnt arent wasnt werent wont cant""".split()
)
# Words that mark a change over time: a newer statement replaces an older one.
CHANGE_MARKERS = frozenset(
    """now anymore longer stopped quit switched moved became changed started instead nowadays
    currently recently since""".split()
)
_CJK_NEGATIONS = ("不", "没", "無", "无", "别", "未", "非")
_CJK_CHANGE = ("不再", "现在", "已经", "改为", "换成", "开始", "搬到")

# Predicate synonyms: each group folds to its first word.
_SYNONYM_GROUPS = (
    "like love enjoy fond adore prefer favorite favourite fan into keen",
    "dislike hate detest loathe",
    "live reside stay based home",
    "work employ job employed employer",
    "move relocate",
    "drink sip",
    "eat",
    "buy purchase bought",
    "start begin began started",
    "finish complete completed end done",
    "big large huge",
    "small little tiny",
    "quick fast rapid",
    "use using utilize",
    "want wish desire",
    "need require",
    "help assist",
    "meet meeting",
    "call phone ring",
    "say said tell told mention mentioned",
    "own have has",
    "go going went visit visited travel",
    "always usually",
)
_SYNONYMS: dict[str, str] = {
    word: group.split()[0] for group in _SYNONYM_GROUPS for word in group.split()
}
# Capitalised only because they open a sentence: never taken for names.
_OPENERS = frozenset(
    """sure yes yeah ok okay well so then also today tomorrow yesterday please note remember
    meeting meetings user agent team everyone everybody someone""".split()
)
_EXTRA_STOP = frozenset(
    "really very quite just also still much lot lots bit kind sort thing things get got".split()
)


@dataclass(frozen=True, slots=True)
class Features:
    """The exact, comparable parts of a statement."""

    words: frozenset[str]
    numbers: frozenset[str]
    dates: frozenset[str]
    names: frozenset[str]
    negated: bool
    change_marked: bool


@lru_cache(maxsize=4096)
def features_of(text: str) -> Features:
    """Extract the features of ``text`` (cached: the gate compares one text many times)."""
    numbers = {_normal_number(m.group(1), m.group(2)) for m in _NUMBER.finditer(text)}
    dates = {m.group(0) for m in _ISO_DATE.finditer(text)}
    names = {m.casefold() for m in re.findall(r"@([^\W\d_][\w.\-]*)", text)}
    words: set[str] = set()
    negated = False
    change_marked = False
    tokens = _WORD.findall(text)
    for token in tokens:
        if _is_cjk(token):
            negated ^= sum(token.count(mark) for mark in _CJK_NEGATIONS) % 2 == 1
            change_marked |= any(mark in token for mark in _CJK_CHANGE)
            for ch in token:
                if ch in NUMBER_WORDS:
                    numbers.add(NUMBER_WORDS[ch])
            words.update(_bigrams(token))
            continue
        folded = token.casefold().replace("’", "'")
        if folded in NEGATIONS or folded.endswith("n't"):
            negated = not negated
            continue
        if folded in CHANGE_MARKERS:
            change_marked = True
            continue
        if folded in NUMBER_WORDS:
            numbers.add(NUMBER_WORDS[folded])
            continue
        if folded in DATE_WORDS:
            dates.add(folded[:3])
            continue
        if folded in STOP_WORDS or folded in _EXTRA_STOP or any(ch.isdigit() for ch in folded):
            continue
        if token[:1].isupper() and len(token) > 1 and folded not in _OPENERS:
            names.add(folded)
        words.add(fold_word(folded))
    if "no longer" in text.casefold():
        change_marked = True
    return Features(
        frozenset(words),
        frozenset(numbers),
        frozenset(dates),
        frozenset(names),
        negated,
        change_marked,
    )


def fold_word(word: str) -> str:
    """Light stemming plus synonym folding: ``prefers`` → ``like``, ``offices`` → ``office``."""
    stem = _stem(word)
    return _SYNONYMS.get(stem, _SYNONYMS.get(word, stem))


def _stem(word: str) -> str:
    if len(word) <= 3:
        return word
    for suffix, replacement in (
        ("ies", "y"),
        ("ied", "y"),
        ("sses", "ss"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("xes", "x"),
        ("ing", ""),
        ("ed", ""),
        ("ss", "ss"),
        ("us", "us"),
        ("s", ""),
        ("ly", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: len(word) - len(suffix)] + replacement
            if suffix in ("ing", "ed") and len(stem) > 2 and stem[-1] == stem[-2]:
                stem = stem[:-1]  # running → run, stopped → stop
            elif suffix in ("ing", "ed") and stem.endswith(("at", "iv", "ov", "ik", "ak", "us")):
                stem += "e"  # liked → like, moved → move, used → use
            return stem
    return word


def _normal_number(digits: str, unit: str | None) -> str:
    value = digits.replace(",", "")
    return value + (unit or "").casefold()


def _bigrams(run: str) -> set[str]:
    if len(run) == 1:
        return {run}
    return {run[i : i + 2] for i in range(len(run) - 1)}


def _is_cjk(token: str) -> bool:
    return bool(re.match(rf"^[{_CJK}]", token))


def word_overlap(a: Features, b: Features) -> float:
    """Jaccard overlap of content words (1.0 when both are empty)."""
    union = a.words | b.words
    return len(a.words & b.words) / len(union) if union else 1.0


def detail_difference(a: Features, b: Features) -> str | None:
    """Name the exact detail the two statements disagree on, or ``None`` if none.

    A difference in numbers, dates, names or negation means the statements are not duplicates.
    """
    if a.negated != b.negated:
        return "negation"
    if a.numbers != b.numbers:
        return "number"
    if a.dates != b.dates:
        return "date"
    if a.names != b.names:
        return "name"
    return None
