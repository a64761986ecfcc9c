"""Two statements' features side by side: what one says that the other does not, and how a
reason quotes it as written.

:mod:`memstrata.gate.statements` reads one statement into its :class:`Features`; this module
compares two (own words, overlap, the detail that differs, the predicate) and quotes what
:mod:`memstrata.gate.relation` names in a verdict's reason. Pure functions only.
"""

from __future__ import annotations

import re

from memstrata.gate import lexicon
from memstrata.gate.statements import Features, fold_word, is_cjk


def own_words(a: Features, b: Features) -> frozenset[str]:
    """The content words of ``a`` that ``b`` lacks; Chinese by character, so order is free."""
    return frozenset(w for w in a.words - b.words if not (len(w) == 2 and is_cjk(w)))


def word_overlap(a: Features, b: Features) -> float:
    """Jaccard overlap of content words (1.0 when both are empty)."""
    union = a.words | b.words
    return len(a.words & b.words) / len(union) if union else 1.0


def detail_difference(a: Features, b: Features) -> str | None:
    """Name the exact detail the two statements disagree on, or ``None`` if none.

    A difference in negation, numbers, dates, relatives or names means the statements are not
    duplicates. A name on one side only is no difference when the other side has the same word
    in lower case ("Coffee is what Ann drinks" / "Ann drinks coffee").
    """
    if a.negated != b.negated and said_negated(a) != said_negated(b):
        return "negation"
    if a.numbers != b.numbers:
        return "number"
    if a.dates != b.dates:
        return "date"
    if a.relatives != b.relatives:
        return "relative"
    if _unmatched_names(a, b) or _unmatched_names(b, a):
        return "name"
    return None


def said_negated(features: Features) -> bool:
    """Whether the statement, without the parts it sets against it ("uses pnpm, *not npm*"),
    says the opposite: "Use pnpm, not npm" says "use pnpm", as "Use pnpm rather than npm"."""
    if features.cjk:
        return features.negated
    return features.negated != bool(len(lexicon.SET_AGAINST.findall(features.text)) % 2)


def predicate_of(features: Features, subject: frozenset[str] = frozenset()) -> str:
    """What is said of the subject: the first content word after it ("Ann Weber *plans* the
    offsite"), or ``""`` for Chinese, which is compared by character with no word order to read.

    The subject is ``subject`` (the folded words of a page's heading, "billing service") when
    given, else the statement's first word and the names right after it ("Ann Weber", "Li Na").
    """
    if features.cjk:
        return ""
    if subject:
        return next((word for word, _ in features.sequence if word not in subject), "")
    rest = list(features.sequence[1:])
    while rest and rest[0][1]:
        rest.pop(0)
    return rest[0][0] if rest else ""


def scattered(features: Features, own: frozenset[str]) -> bool:
    """The Chinese characters in ``own`` stand in more than one place of the statement: not
    one phrase that another could replace. Against "上海办公室的后端工程师", the statement
    "在上海办公室工作，喜欢手冲咖啡" holds 工作 and 喜欢手冲咖啡 of its own."""
    places = 0
    for run in features.han:
        inside = False
        for ch in run:
            if ch in own and not inside:
                places += 1
            inside = ch in own
    return places > 1


def spelled(
    features: Features,
    words: frozenset[str] | set[str],
    most: int = 3,
    details: frozenset[tuple[str, str]] | set[tuple[str, str]] = frozenset(),
) -> str:
    """``words`` of ``features`` as a person wrote them, in the order written, for a reason:
    "flat white" rather than the folded "flat, whit"; Chinese characters joined into the
    phrases they stand in ("后端, 程师" rather than "后, 端, 师, 程"). ``details`` (``("date",
    "morning")`` …) are quoted with them, in one phrase where written so: "flat white with
    oat milk every morning"."""
    shown = quoted(features, {("word", word) for word in words} | set(details))
    for run in features.han:
        piece = ""
        for ch in run + "\0":
            if ch in words:
                piece += ch
            elif piece:
                shown.append(piece)
                piece = ""
    return _joined(shown or sorted(words | {value for _, value in details}), most)


def _joined(shown: list[str], most: int = 3) -> str:
    shown = list(dict.fromkeys(shown))
    return ", ".join(shown[:most]) + (", …" if len(shown) > most else "")


#: what may stand between two quoted words for them to be one phrase: spaces, dashes, slashes
#: and words that carry no feature ("jazz *and* blues", "Monday *at* 3pm", "12*–*14 March")
_JOINER = re.compile(r"[\s\-–—/+&']*")
_JOINED_WORDS = 3


def quoted(features: Features, wanted: set[tuple[str, str]]) -> list[str]:
    """The places where the ``(kind, value)`` features in ``wanted`` were written, as written,
    neighbours joined into one phrase: ``[("word", "flat"), ("word", "whit")]`` → "flat white",
    a date and its day → "March 3", a time → "3pm" (not the "15:00" it is compared as)."""
    marked = sorted({(start, end) for _, _, start, end in features.marks})
    spans = sorted(
        {(start, end) for kind, value, start, end in features.marks if (kind, value) in wanted}
    )
    phrases: list[tuple[int, int]] = []
    for start, end in spans:
        if phrases and _one_phrase(features.text, phrases[-1][1], start, marked):
            phrases[-1] = (phrases[-1][0], max(end, phrases[-1][1]))
        else:
            phrases.append((start, end))
    return [features.text[start:end].strip() for start, end in phrases]


def _one_phrase(text: str, end: int, start: int, marked: list[tuple[int, int]]) -> bool:
    """Nothing but joiners between ``text[:end]`` and ``text[start:]``: no other feature, no
    punctuation that ends a clause or lists."""
    if start <= end:
        return True
    if any(end <= left and right <= start for left, right in marked):
        return False
    gap = text[end:start]
    words = re.findall(r"[^\W_]+", gap)
    return (
        len(words) <= _JOINED_WORDS and _JOINER.fullmatch(re.sub(r"[^\W_]+", " ", gap)) is not None
    )


def subject_words(text: str) -> frozenset[str]:
    """The folded content words of a subject such as a page heading ("Billing service")."""
    return frozenset(fold_word(word) for word in re.findall(r"[^\W\d_]+", text) if word.isascii())


def changes_value(a: Features, b: Features) -> bool:
    """The details differ by more than one side adding some: a number, date or name both
    hold differs ("at 3pm" / "at 4pm"), or each side holds one the other lacks ("at 3pm" /
    "on Monday"). "Plans the offsite for March" / "12–14 March" only adds."""
    return bool(_extra_details(a, b)) and bool(_extra_details(b, a))


def _extra_details(a: Features, b: Features) -> bool:
    return bool(a.numbers - b.numbers or a.dates - b.dates or _unmatched_names(a, b))


def added_names(a: Features, b: Features) -> frozenset[str]:
    """The words of the names ``a`` holds and ``b`` does not, folded like content words."""
    return frozenset(fold_word(name) for name in _unmatched_names(a, b))


def says_more(a: Features, b: Features) -> bool:
    """``a`` holds a word or a detail (number, date, name) that ``b`` lacks."""
    return bool(own_words(a, b)) or _extra_details(a, b)


def changed_detail(
    new: Features,
    old: Features,
    own_new: frozenset[str] = frozenset(),
    own_old: frozenset[str] = frozenset(),
) -> str:
    """Say which detail changed from ``old`` to ``new``, for a verdict's reason.

    A detail both sides hold with different values is the change ("another name: shanghai →
    beijing"); one held by a single side is only an addition or an omission, so it is named
    after any real change: "moved to Beijing in October 2026" against "works in Shanghai"
    changed a name, not "a number". Words of their own on both sides (``own_new``,
    ``own_old``) are such a change too, and a detail one side alone holds is part of what it
    says there: "Ann drinks espresso now" against "Ann drinks a flat white with oat milk every
    morning" puts "espresso" for "flat white with oat milk every morning"; it does not only
    leave out a "morning".
    """
    sides = (
        ("date", new.dates - old.dates, old.dates - new.dates),
        ("number", new.numbers - old.numbers, old.numbers - new.numbers),
        ("name", _unmatched_names(new, old), _unmatched_names(old, new)),
    )
    changed = [(kind, added, dropped) for kind, added, dropped in sides if added and dropped]
    if changed:
        # A date named first: the day and year written with it change with it ("March 3 →
        # April 9"), all quoted together.
        before = {(kind, value) for kind, _, dropped in changed for value in dropped}
        after = {(kind, value) for kind, added, _ in changed for value in added}
        return f"another {changed[0][0]}: {_shown(old, before)} → {_shown(new, after)}"
    if own_new and own_old:
        before = {(kind, value) for kind, _, dropped in sides for value in dropped}
        after = {(kind, value) for kind, added, _ in sides for value in added}
        shown_old = spelled(old, own_old, details=before)
        return f"another value ({shown_old} → {spelled(new, own_new, details=after)})"
    for kind, added, dropped in sides:
        if added:
            return f"a {kind} added: {_shown(new, {(kind, value) for value in added})}"
        if dropped:
            return f"a {kind} left out: {_shown(old, {(kind, value) for value in dropped})}"
    return "another detail"


def shown_as_written(features: Features, kind: str, values: frozenset[str] | set[str]) -> str:
    """Values of one kind of detail ("number": {"2.3"}) as ``features`` wrote them."""
    return _shown(features, {(kind, value) for value in values})


def _shown(features: Features, wanted: set[tuple[str, str]]) -> str:
    return _joined(quoted(features, wanted) or sorted(value for _, value in wanted))


def _unmatched_names(a: Features, b: Features) -> set[str]:
    return {name for name in a.names - b.names if fold_word(name) not in b.words}
