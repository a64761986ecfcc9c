"""The parts words play in a statement: the same words with two parts swapped say another thing.

"Ann prefers tea over coffee" and "Ann now prefers coffee over tea" hold the same content
words, and so do "Bob reports to Carol" and "Carol reports to Bob": on words alone each pair is
one statement said twice. What tells them apart is the part each word plays, read from the
preposition written before it ("*over* coffee", "*to* Carol") or, for the first word, from
opening the statement (its subject). A passive's "by" names the doer, who opens the active
form, so the two voices give their words the same parts ("The report was written by Ann" =
"Ann wrote the report").

Two words are *swapped* when each plays in one statement the part the other plays in the
other, and one of those parts is a preposition's, or both words are names ("Ann likes Bob" /
"Bob likes Ann"). A thing moved to the front with no preposition ("Coffee is what Ann drinks"
/ "Ann drinks coffee") is no swap: that is how English fronts a thing, not a new statement.
Days, parts of the day and numbers have parts too ("mornings *over* afternoons", "*from*
Monday *to* Friday", "*2* cats"), swapped only with their own kind. What follows "and", "or"
or a comma in a list plays the part of what it is listed with ("on Mondays and Fridays").

A word is *opposed* when one statement puts it after a preposition and the other after the
opposite one: "run migrations *before* deploying" / "*after* deploying", "moved *to* Berlin"
/ "*from* Berlin". Pure functions only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memstrata.gate import lexicon
from memstrata.gate.statements import Features, features_of

#: the part of a statement's first word when no preposition comes before it
SUBJECT = "subject"


@dataclass(frozen=True, slots=True)
class Swap:
    """Two words (folded, as compared) that play each other's parts in two statements."""

    words: frozenset[str]
    #: one of the parts ranks against the other ("over", "than"): both cannot hold at once
    ranking: bool
    #: one of the parts is the subject's: the statement is said of another one
    subject: bool
    #: the numbers that count the two words, if those are their parts ("2 cats", "3 dogs")
    counts: frozenset[str] = frozenset()
    #: how ``b`` and ``a`` put the two, where the features cannot quote them (Chinese)
    shown: tuple[str, str] = ("", "")


def swapped(a: Features, b: Features) -> Swap | None:
    """The first pair of words, in the order ``a`` says them, that ``a`` and ``b`` give each
    other's parts (see the module docstring), or ``None``. Chinese, compared by character, is
    read by :func:`_han_swap`."""
    if a.cjk and b.cjk:
        return _han_swap(a, b)
    if a.cjk or b.cjk or _sides_turned(a, b):
        return None
    ours, theirs = _parts(a), _parts(b)
    names = {word for word, name in a.sequence if name} & {w for w, name in b.sequence if name}
    shared = [word for word in ours if word in theirs]
    for at, first in enumerate(shared):
        for second in shared[at + 1 :]:
            if _kind(a, first) != _kind(a, second):
                continue  # "14 March" / "March 14": a date's day and month play no parts
            one, other = ours[first], ours[second]
            if one == other or theirs[first] != other or theirs[second] != one:
                continue
            prepositional = bool({one, other} - {"", SUBJECT})
            if prepositional or (first in names and second in names):
                return Swap(
                    frozenset((first, second)),
                    ranking=bool({one, other} & lexicon.RANKING_MARKERS),
                    subject=SUBJECT in (one, other),
                    counts=frozenset(part[1:] for part in (one, other) if part[:1] == "#"),
                )
    return None


def _sides_turned(a: Features, b: Features) -> bool:
    """``b`` says ``a``'s two sides of "is" the other way round: "The PM is Ann" / "Ann is the
    PM", "Bob's manager is Ann" / "Ann is Bob's manager" (not "Bob is Ann's manager")."""
    if a.copula < 0 or b.copula < 0:
        return False
    ours = [value for value, _ in a.placed]
    theirs = [value for value, _ in b.placed]
    left, right = ours[: a.copula], ours[a.copula :]
    return bool(left and right) and theirs == right + left


def _han_swap(a: Features, b: Features) -> Swap | None:
    """Two pieces of Chinese that changed places around what stays between them: "刘洋喜欢陈静"
    / "陈静喜欢刘洋", "从北京搬到上海" / "从上海搬到北京", "用 Go 而不是 Python". Characters are
    compared with no order (so that "前端代码由吴静维护" = "吴静维护前端代码"), which made these
    the same characters.
    A swap needs something between the pieces that is not a conjunction ("周一和周五" /
    "周五和周一" is one list); "比" or "而" (而不是) between them ranks the two."""
    readings = (
        ("".join(a.han), "".join(b.han)),
        ("|".join(a.han), "|".join(b.han)),
        (_as_written(a), _as_written(b)),  # with the Latin words: "用 Go 而不是 Python"
    )
    for ours, theirs in readings:
        if len(ours) > HAN_SWAP_MAX_CHARS or ours == theirs or sorted(ours) != sorted(theirs):
            continue
        start = 0
        while ours[start] == theirs[start]:
            start += 1
        end = 0
        while ours[-1 - end] == theirs[-1 - end]:
            end += 1
        mine, other = ours[start : len(ours) - end], theirs[start : len(theirs) - end]
        for first in range(1, len(mine) - 1):
            for last in range(1, len(mine) - first):
                between = mine[first : len(mine) - last]
                moved = (mine[len(mine) - last :], mine[:first])  # as ``b`` says them
                if other != moved[0] + between + moved[1]:
                    continue
                if between.strip("|") in _HAN_CONJUNCTIONS:
                    return None
                if between == "是" and start == 0 and end == 0:
                    # the two sides of 是 are one thing: "何芳是产品经理" / "产品经理是何芳"
                    return None
                return Swap(
                    frozenset(moved),
                    ranking="比" in between or "而" in between,
                    subject=start == 0,
                    shown=(f"{moved[0]}…{moved[1]}", f"{moved[1]}…{moved[0]}"),
                )
    return None


def _as_written(features: Features) -> str:
    """The text as read, folded, without spaces or punctuation."""
    return re.sub(r"[\W_]+", "", features.text.casefold())


#: a swap is looked for in a statement (a sentence), not a page: the search is quadratic in the
#: characters, and a page-long rearrangement took half a second
HAN_SWAP_MAX_CHARS = 200

#: what joins the items of a list: "周一*和*周五"
_HAN_CONJUNCTIONS = frozenset({"和", "与", "及", "、", "或", "跟", "同", "或者", "以及"})


def opposed(a: Features, b: Features) -> tuple[str, str, str] | None:
    """The first word, in the order ``a`` says it, that ``a`` and ``b`` put after opposite
    prepositions, as ``(word, a's preposition, b's)``, or ``None``."""
    if a.cjk or b.cjk:
        return None
    ours, theirs = _parts(a), _parts(b)
    for word, part in ours.items():
        if word in theirs and lexicon.OPPOSITE_MARKERS.get(part) == theirs[word]:
            return word, part, theirs[word]
    return None


# Two steps in order: "A *before* B", "B *after* A", "A first, *then* B", "first A, then B".
_IN_ORDER = (
    re.compile(r"^(?P<first>.+?)\s+before\s+(?P<then>.+)$", re.IGNORECASE),
    re.compile(r"^(?P<then>.+?)\s+after\s+(?P<first>.+)$", re.IGNORECASE),
    re.compile(
        r"^(?:first,?\s+)?(?P<first>.+?)(?:\s+first)?\s*[,;]?\s*(?:and\s+)?then\s+(?P<then>.+)$",
        re.IGNORECASE,
    ),
)


def reordered(a: Features, b: Features) -> tuple[str, str] | None:
    """The two steps ``a`` puts in the other order from ``b`` ("Run migrations before
    deploying" / "Deploy first, then run migrations"), as ``a`` writes them (first, then), or
    ``None``. Only steps both name, each in the other's place, count."""
    ours, theirs = _steps(a.text), _steps(b.text)
    if ours is None or theirs is None:
        return None
    (a_first, a_then, shown), (b_first, b_then, _) = ours, theirs
    if a_first & b_then and a_then & b_first and not a_first & b_first:
        return shown
    return None


def _steps(text: str) -> tuple[frozenset[str], frozenset[str], tuple[str, str]] | None:
    body = text.strip().rstrip(".!")
    for pattern in _IN_ORDER:
        found = pattern.match(body)
        if found:
            first, then = found.group("first").strip(" ,"), found.group("then").strip(" ,")
            return features_of(first).words, features_of(then).words, (first, then)
    return None


def _kind(features: Features, value: str) -> str:
    if value in features.dates:
        return "date"
    return "number" if value in features.numbers else "word"


def _parts(features: Features) -> dict[str, str]:
    """Each content word's (and day's) part, from its first place in the statement."""
    parts: dict[str, str] = {}
    for place, (value, role) in enumerate(features.placed):
        parts.setdefault(value, role or (SUBJECT if place == 0 else ""))
    if "by" in parts.values():
        # passive: the doer after "by" opens the active form, and what opened it is done to
        return {
            word: SUBJECT if part == "by" else "" if part == SUBJECT else part
            for word, part in parts.items()
        }
    return parts
