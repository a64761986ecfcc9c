"""How a candidate statement relates to one stored statement: duplicate, update, contradiction.

``relate`` decides from the exact lexical features of :mod:`memstrata.gate.statements`
(compared by :mod:`memstrata.gate.compare`) and, when an embedder is in use, the cosine of the
two texts. *Own words* are the content words one side has and the other lacks (Chinese
compared by character, so word order is free):

- **contradiction**: the polarity differs — a negation or an antonym ("is vegetarian" / "is not
  vegetarian", "likes" / "hates", "available" / "unavailable") — in the same statement, with no
  marker of a change over time. With a marker ("no longer", "stopped", "不再") it is an
  **update**. Said of something else, it is neither: each side has words of its own (on the
  side that says no, in the clauses that say it: "Dana no longer leads payments; Luis took
  over") or days or numbers none of which the other holds, and both hold ("Bea no longer
  drinks tea" / "Bea now drinks coffee", "does not work on Fridays" / "works on Mondays").
- **update**: a number, date or name differs in otherwise the same statement about the same
  subject ("meeting at 3pm" / "at 4pm"; words overlapping ≥ 0.5, or ≥ 0.25 when the candidate
  marks a change: "switched from Vim to Helix") in one place: two statements that differ in two
  places with no change marked are the same said of two ("The 2023 revenue was $4M" / "The 2024
  revenue was $6M", "at 9:30 on Mondays" / "at 10:00 on Fridays"); or both sides have own words
  around a shared core that holds the predicate ("prefers cortado" / "prefers flat white"),
  unless the predicate relates one to many values at once ("speaks French" / "speaks Spanish",
  "allergic to nuts" / "to shellfish"; see :func:`memstrata.gate.replacing.holds_many`). Another
  predicate says another thing of the subject ("works in Berlin" / "lives in Berlin"), and so do
  Chinese characters of its own in several places of a statement (a value is one phrase):
  unrelated. The same words with the parts of two swapped ("tea over coffee" / "coffee over
  tea", "switched from Vim to Helix" / "from Helix to Vim"; see :mod:`memstrata.gate.roles`) are
  an update when the candidate marks a change, else a contradiction when one ranks the two
  ("over", "than"), else unrelated ("Bob reports to Carol" / "Carol reports to Bob"). A swap
  that moves the subject is an update only when ranked ("Bob is now taller than Ann"). So is one
  word put after the opposite preposition ("before deploying" / "after deploying"), which is
  else a contradiction, and "use npm, not pnpm" / "use pnpm, not npm" (ranked). Where one could
  merge into the other, another qualifier (:mod:`memstrata.gate.qualifiers`: "all" / "some",
  "up" / "down", "only") is an update with a change marked, else a contradiction when opposite,
  else unrelated. A detail only one side holds ("in March" / "12–14 March") is an addition, not
  a change: the two are then compared on their words, as below.
- **duplicate**: no detail differs (numbers, dates, names, relatives, negation), no two words
  swapped their parts, both texts are in the same script, and at most one side has own words —
  two sides with words of their own say different things. Then either neither side has own
  words (the same words), or, with an embedder, the cosine clears its calibrated threshold
  (see :mod:`memstrata.gate.calibration`) and the words overlap at least 0.5; without one, the
  words overlap at least 0.8.
  Cross-language pairs are never duplicates: there is no lexical check to confirm the cosine.
- **unrelated**: anything else, including another subject ("Ann likes jazz" / "Peter likes
  jazz"), another one named right after the subject by a code or a word ("Release 2.3" /
  "Release 2.4", "Project Apollo deadline is …" / "Project Hermes deadline is …") or a
  relative ("Marco is allergic" / "Marco's son is allergic"). Another person opening the same
  statement is an **update** only when a role one holds at a time changes
  hands: "Alice now leads the payments team" / "Bob leads …", "Dana is the tech lead" / "Marco
  is the tech lead" (see :mod:`memstrata.gate.replacing`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from memstrata.gate import lexicon
from memstrata.gate.compare import (
    added_names,
    changed_detail,
    changes_value,
    detail_difference,
    own_words,
    predicate_of,
    quoted,
    said_negated,
    says_more,
    scattered,
    shown_as_written,
    spelled,
    subject_words,
    word_overlap,
)
from memstrata.gate.qualifiers import requalified
from memstrata.gate.replacing import (
    adds_to,
    denied,
    fixed_for_life,
    for_another,
    han_holder_changed,
    holder_changed,
    holds_many,
    instead,
    moved,
    named_otherwise,
)
from memstrata.gate.roles import opposed, reordered, swapped
from memstrata.gate.statements import Features, features_of, is_code, opening_word

RelationKind = Literal["duplicate", "update", "contradiction", "unrelated"]

#: without an embedder: one side's words nearly all in the other
DUPLICATE_OVERLAP = 0.8
#: with an embedder: cosine above its threshold and at least this much word overlap
SEMANTIC_MIN_OVERLAP = 0.5
#: a detail (number, date, name, polarity) differs in what is otherwise this similar
SAME_STATEMENT_OVERLAP = 0.5
UPDATE_MIN_OVERLAP = 0.25
_NEGATING_PREFIXES = ("un", "in", "im", "il", "ir", "dis", "non")
_CHANGING = lexicon.CHANGE_VERBS | lexicon.CHANGED_VERBS
#: where one clause of a statement ends and another begins: "Dana no longer leads payments*;*
#: Luis took over", "… no longer leads payments *but* still reviews its code" (not a comma or
#: "and", which may close or go on with a condition the rest depends on: "If the build fails
#: and the cache is cold, Slack notifies Marco")
_CLAUSE_BREAK = re.compile(r";|\s[—–-]\s|\bbut\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Relation:
    """The relation found, and the words that explain it."""

    kind: RelationKind
    reason: str
    overlap: float
    cosine: float | None = None


def relate(
    candidate: str,
    stored: str,
    cosine: float | None = None,
    threshold: float | None = None,
    subject: str = "",
) -> Relation:
    """Classify ``candidate`` against ``stored`` (see the module docstring for the rules);
    ``subject`` names what both are about when the caller knows it (a page's heading)."""
    a, b = features_of(candidate), features_of(stored)
    overlap = word_overlap(a, b)
    own_a, own_b = own_words(a, b), own_words(b, a)
    difference = detail_difference(a, b) or _prefix_antonym(own_a, own_b)
    implied = _implied_subject(a, b)
    # "I switched from Vim to Helix" / "I use Vim": the pronoun both open with is the subject
    same_subject = _same_subject(a, b) or bool(implied)
    if implied:
        # "I prefer tabs" / "I prefer spaces", "Use ruff for linting" / "Use flake8 …": the
        # speaker, or the one told, is a subject both share
        union = len(a.words | b.words) + 1
        said_alike = (len(a.words & b.words) + 1) / union
    else:
        said_alike = overlap
    apart = _named_apart(a, b)
    if not apart and difference in ("number", "date", "name"):
        apart = _slotted_apart(a, b)
    if apart:
        # "Release 2.3 shipped …" / "Release 2.4 shipped …": the number names another one
        return Relation("unrelated", f"about another one ({apart})", overlap, cosine)
    # "Ann prefers Slack" / "Ann prefers email": a name put for a word is no addition
    put_for_word = _name_put_for_word(a, b) or _name_put_for_word(b, a)
    if not put_for_word and _only_added(difference, a, b):
        # One side only adds or leaves out a detail ("in March" / "12–14 March"): it says more
        # or less, not something else. A name so added is no word of its own either.
        difference = None
        own_a, own_b = own_a - added_names(a, b), own_b - added_names(b, a)

    def found(kind: RelationKind, reason: str) -> Relation:
        besides = adds_to(a, b) if kind == "update" else ""
        if besides:
            return Relation("unrelated", f"says it besides ({besides})", overlap, cosine)
        if kind == "update" and fixed_for_life(a, b):
            if says_more(a, b) and not says_more(b, a):
                # "Carol's birthday is on June 12, 1990" / "… on June 12": the same fact said
                # more fully, which says the other is not wrong: it replaces it
                return Relation("update", f"said more fully ({reason})", overlap, cosine)
            # "Ben was born in Leeds" / "… in Manchester": one of the two is wrong
            return Relation(
                "contradiction", f"what cannot change differs ({reason})", overlap, cosine
            )
        return Relation(kind, reason, overlap, cosine)

    if difference == "negation":
        if not same_subject or _paired_overlap(a, b, own_a, own_b) < SAME_STATEMENT_OVERLAP:
            return found("unrelated", "different statements")
        denied_a, denied_b = _denied_own(a, b, own_a, own_b)
        if _other_objects(denied_a, denied_b) or _other_details(a, b):
            # "Ann likes biking" / "Ann does not like cortado", "works on Mondays" / "does not
            # work on Fridays": said of different things. A change marked does not make them
            # one: "Bea no longer drinks tea" still holds when "Bea now drinks coffee"
            shown = _said_apart(a, b, denied_a, denied_b)
            return found("unrelated", f"the opposite said of something else ({shown})")
        if a.change_marked or b.change_marked:
            return found("update", "the polarity changed over time")
        return found("contradiction", "one says the opposite of the other")
    if difference == "relative":
        others = ", ".join(sorted(a.relatives ^ b.relatives))
        return found("unrelated", f"about someone else ({others})")
    if difference == "name" or (a.cjk and b.cjk):
        holders = holder_changed(a, b) or han_holder_changed(a, b)
        if holders:
            return found("update", f"another holder of the same role ({holders})")
    scopes = for_another(a, b) if difference in ("name", "number") else ""
    if scopes:
        # "Use 4 spaces for Python" / "Use 2 spaces for YAML": each holds for its own
        return found("unrelated", f"said for another one ({scopes})")
    gone = denied(a, b) if same_subject else ""
    if gone:
        # "Indent with spaces, never tabs" against "Indent with tabs": one says not the other
        if a.change_marked:
            return found("update", f"said instead ({gone} → {spelled(a, own_a)})")
        return found("contradiction", f"one says not what the other says ({gone})")
    replaced = instead(a, b, own_a)
    if replaced:
        # "Ann drinks tea instead of coffee" after "Ann drinks coffee": it names what it replaces
        return found("update", f"said instead ({replaced})")
    if difference is not None or (a.cjk and b.cjk):
        places = moved(a, b)
        if places:
            return found("update", f"lives elsewhere now ({places})")
    if difference is not None:
        # "switched from Vim to Helix": a change marker says which statement is newer
        needed = UPDATE_MIN_OVERLAP if a.change_marked else SAME_STATEMENT_OVERLAP
        if same_subject and said_alike >= needed:
            qualified = requalified(a, b)
            if qualified is not None and qualified.opposite:
                # "up again" / "down since Tuesday": the state changed, not the day
                return found("update", f"same statement, another qualifier ({qualified})")
            # a verb of change put for the other's verb ("switched from Vim to Helix" / "uses
            # Vim") says that the value changed, not what it is
            said = _predicates(a, b, implied, subject)
            verbs = set(said) if said[0] in _CHANGING else set()
            detail = changed_detail(a, b, own_a - verbs, own_b - verbs)
            if put_for_word and detail.startswith(("a name ", "a number ")):
                # "a name left out: Slack" would hide what took its place
                detail = f"another value ({_put(b, a, own_b)} → {_put(a, b, own_a)})"
            many = holds_many(a, b) if detail.startswith(("another name", "another value")) else ""
            if many:
                # "I speak French" / "I speak Spanish": one speaks both
                return found("unrelated", f"both can hold ({many}: {detail})")
            places = _places_apart(a, b)
            if len(places) > 1 and not (a.change_marked or b.change_marked):
                # "The 2023 revenue was $4M" / "The 2024 revenue was $6M": what names which
                # one changed with the value; an update changes the value alone
                return found("unrelated", f"said of another one ({_listed(places)})")
            return found("update", f"same statement, {detail}")
        named = named_otherwise(a, b) if difference == "name" else ""
        if named:
            return found("update", f"the same said to be another ({named})")
        return found("unrelated", f"different {difference}")
    told = _told_apart(a, b, own_a, own_b)
    if told is not None:
        return found(*told)
    if a.cjk != b.cjk:
        return found("unrelated", "different languages: no lexical check for a duplicate")
    if not own_a and not own_b:
        return found("duplicate", f"the same words (overlap {overlap:.2f})")
    if not own_a or not own_b:
        if cosine is not None and threshold is not None:
            if cosine >= threshold and overlap >= SEMANTIC_MIN_OVERLAP:
                return found(
                    "duplicate", f"the same meaning (cosine {cosine:.2f}, overlap {overlap:.2f})"
                )
        elif overlap >= DUPLICATE_OVERLAP:
            return found("duplicate", f"nearly the same words (overlap {overlap:.2f})")
        adding, words = (a, own_a) if own_a else (b, own_b)
        return found("unrelated", f"one side adds {spelled(adding, words)}")
    other = _other_han_subject(a, b)
    if other:
        # "周建军每周三开周会" / "周建华每周三开周会": the same said of another one
        return found("unrelated", f"about another one ({other})")
    shared = len(a.words & b.words) + bool(implied)
    if same_subject and overlap >= UPDATE_MIN_OVERLAP and shared >= 2:
        said_a, said_b = _predicates(a, b, implied, subject)
        if said_a and said_b and said_a not in b.words and said_b not in a.words:
            # "Sara *works* in Berlin" / "Sara *lives* in Berlin": another thing said of the
            # subject, which both can be true; a new value follows a shared predicate
            shown = f"{spelled(b, {said_b})} / {spelled(a, {said_a})}"
            return found("unrelated", f"says something else of it ({shown})")
        if a.cjk and (scattered(a, own_a) or scattered(b, own_b)):
            # a new value replaces one phrase; words of its own in several places say more
            return found("unrelated", "says other things of it")
        changed = f"{spelled(b, own_b)} → {spelled(a, own_a)}"
        many = holds_many(a, b)
        if many:
            # "Ann plays tennis" / "Ann plays chess": one plays both
            return found("unrelated", f"both can hold ({many}: {changed})")
        places = _places_apart(a, b)
        if len(places) > 1 and not (a.change_marked or b.change_marked):
            # "Ann drinks coffee in the morning" / "… tea in the evening": both hold
            return found("unrelated", f"said of another one ({_listed(places)})")
        return found("update", f"same subject and attribute, new value ({changed})")
    return found("unrelated", "different statements")


def _predicates(a: Features, b: Features, implied: str, subject: str) -> tuple[str, str]:
    """What ``a`` and ``b`` say of their subject (see :func:`predicate_of`): with a pronoun
    for the subject ("I prefer tabs"), the first word."""
    about = subject_words(subject)
    if implied and not about:
        return a.sequence[0][0], b.sequence[0][0]
    return predicate_of(a, about), predicate_of(b, about)


def _told_apart(
    a: Features, b: Features, own_a: frozenset[str], own_b: frozenset[str]
) -> tuple[RelationKind, str] | None:
    """What the small words and their order say of two statements that hold the same content
    words (one side at most with words of its own, so they could merge): two parts swapped,
    the opposite preposition, what will be against what is, another qualifier; ``None`` when
    none of these tells them apart. Two sides with words of their own are compared on those."""
    mergeable = not own_a or not own_b
    swap = swapped(a, b) if mergeable else None
    if swap is not None:
        shown = swap.words | swap.counts
        change = f"{_in_order(b, shown)} → {_in_order(a, shown)}"
        if swap.shown[0]:
            change = " → ".join(swap.shown)
        if a.change_marked and (swap.ranking or not swap.subject):
            return "update", f"the same words, two parts swapped ({change})"
        if swap.ranking:
            return "contradiction", f"the same words ranked the other way ({change})"
        return "unrelated", f"the same words, two parts swapped ({change})"
    opposite = opposed(a, b) if not own_a and not own_b else None
    if opposite is not None:
        word, ours, theirs = opposite
        change = f"{theirs} {_in_order(b, {word})} → {ours} {_in_order(a, {word})}"
        return (
            "update" if a.change_marked else "contradiction",
            f"the same words, the opposite said ({change})",
        )
    steps = reordered(a, b) if mergeable and not a.cjk else None
    if steps is not None:
        # "Run migrations before deploying" / "Deploy first, then run migrations"
        change = f"{steps[0]}, then {steps[1]}"
        if a.change_marked:
            return "update", f"the same steps in the other order ({change})"
        return "contradiction", f"the same steps in the other order ({change})"
    if a.future != b.future and not a.cjk and mergeable:
        # "Ann moved to Berlin" after "Ann will move to Berlin": the plan came about
        if b.future:
            return "update", "what was to come has come"
        return "unrelated", "one says what will be, the other what is or was"
    qualified = requalified(a, b)
    if qualified is not None and mergeable:
        # "the service is up" / "… down", "reviews all" / "some pull requests"
        if a.change_marked:
            return "update", f"the same words, another qualifier ({qualified})"
        if qualified.opposite:
            return "contradiction", f"the same words, the opposite qualifier ({qualified})"
        return "unrelated", f"the same words, another qualifier ({qualified})"
    return None


def _in_order(features: Features, words: frozenset[str] | set[str]) -> str:
    """``words`` (or days, numbers) as written and in the order written: "Bob … Carol", "tea
    over coffee", "Monday to Friday", "2 cats … 3 dogs"."""
    kinds = ("word", "date", "number")
    shown = quoted(features, {(kind, word) for word in words for kind in kinds})
    return " … ".join(shown or sorted(words))


def _named_apart(a: Features, b: Features) -> str:
    """How ``b`` and ``a`` name two things, or ``""``: a number or code right after the subject
    names it, and another one in that place names another thing ("Release *2.3*" / "Release
    *2.4*"); so does a word of its own in that place when the statement goes on as the coded
    one does ("Printer *p1* has 300 pages left" / "Printer *hq* has 120 pages left")."""
    if a.naming and b.naming:
        if a.naming == b.naming:
            return ""
        return f"{_naming(b)} / {_naming(a)}"
    for coded, worded in ((b, a), (a, b)):
        if coded.naming and _in_naming_place(worded, coded):
            shown = (_naming(coded), spelled(worded, {worded.slot}))
            return " / ".join(shown if coded is b else shown[::-1])
    return ""


def _slotted_apart(a: Features, b: Features) -> str:
    """How ``b`` and ``a`` name two things by a word, or ``""``: the two say the same words in
    the same order and shape but one, the word right after the subject where a code would
    name it ("Project *Apollo* deadline is …" / "Project *Hermes* deadline is …", "Server
    *alpha* has 16 GB" / "Server *beta* has 64 GB"): the same said of two, whose values
    differ. A verb in that place ("Carlos *switched* from Vim …" / "Carlos *uses* Vim") changes
    more words, or the shape ("Staging *runs* Postgres 14" / "The staging database *is* on …")."""
    if a.cjk or b.cjk or not a.slot or not b.slot or a.subject != b.subject:
        return ""
    if a.slot in b.words or b.slot in a.words or a.copula != b.copula:
        return ""
    ours, theirs = [word for word, _ in a.sequence], [word for word, _ in b.sequence]
    if len(ours) != len(theirs) or a.slot not in ours or ours.index(a.slot) + 1 >= len(ours):
        return ""
    at = ours.index(a.slot)
    if theirs[at] != b.slot or ours[:at] + ours[at + 1 :] != theirs[:at] + theirs[at + 1 :]:
        return ""
    return f"{spelled(b, {b.slot})} / {spelled(a, {a.slot})}"


def _places_apart(a: Features, b: Features) -> list[str]:
    """The places where ``a`` says another thing than ``b``, each as "old → new": the runs of
    content words, numbers and days each has where the other has others (a word only added, as
    a verb of change, is no such place), a run split where a preposition or the copula brings
    another part ("at 9:30 *on* Mondays", "db-1 *is* 500 GB"), counted on the side with fewer."""
    ours, theirs = [value for value, _ in a.placed], [value for value, _ in b.placed]
    places = []
    matcher = SequenceMatcher(a=theirs, b=ours, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        parts = min(_parts(b, i1, i2), _parts(a, j1, j2))
        shown = f"{spelled(b, frozenset(theirs[i1:i2]))} → {spelled(a, frozenset(ours[j1:j2]))}"
        places.extend([shown] * parts)
    return places


def _listed(places: list[str]) -> str:
    """Each place once: a run holding two parts counts twice but reads as one change."""
    return "; ".join(dict.fromkeys(places))


def _parts(features: Features, start: int, stop: int) -> int:
    """How many parts the run ``placed[start:stop]`` holds: one, and one more at each word
    after the first that a preposition brings ("#…" marks a number counting a word, no
    preposition) or that stands first after the copula."""
    return 1 + sum(
        1
        for at in range(start + 1, stop)
        if (features.placed[at][1] and not features.placed[at][1].startswith("#"))
        or at == features.copula
    )


def _naming(features: Features) -> str:
    return shown_as_written(features, "number", features.naming)


def _in_naming_place(worded: Features, coded: Features) -> bool:
    """``worded`` has a word of its own right after the subject both open with, and the word
    after it is the first ``coded`` says after its subject and code."""
    if worded.cjk or coded.cjk or not worded.slot or worded.slot in coded.words:
        return False
    if worded.subject != coded.subject:
        return False
    said = [word for word, _ in worded.sequence]
    at = said.index(worded.slot)
    return at + 1 < len(said) and said[at + 1] == predicate_of(coded)


def _other_han_subject(a: Features, b: Features) -> str:
    """How ``b`` and ``a`` name two subjects, when two Chinese statements differ only in their
    first three characters and go on the same for two or more ("周建华 / 周建军", "前端 /
    后端"): Chinese marks no name by a capital, and a subject opens the statement; else ""."""
    if not (a.cjk and b.cjk):
        return ""
    ours, theirs = "".join(a.han), "".join(b.han)
    same = 0
    while same < min(len(ours), len(theirs)) and ours[-1 - same] == theirs[-1 - same]:
        same += 1
    head_a, head_b = ours[: len(ours) - same], theirs[: len(theirs) - same]
    if same < 2 or not head_a or not head_b or len(head_a) > 3 or len(head_b) > 3:
        return ""
    start = 0
    while ours[start] == theirs[start]:
        start += 1
    return f"{theirs[: len(head_b)]} / {ours[: len(head_a)]}" if start < 3 else ""


def _implied_subject(a: Features, b: Features) -> str:
    """The subject both share without a content word for it, or ``""``: the pronoun both
    open with ("*I* prefer tabs" / "*I* prefer spaces", "*My* manager is Tom"), or the one
    told when both open with the same instruction and share a word besides its verb ("*Use*
    ruff for linting" / "*Use* flake8 for linting"). Rules stand side by side: "Use pnpm" and
    "Use TypeScript" share only the verb, and neither replaces the other."""
    if a.cjk or b.cjk or not a.sequence or not b.sequence:
        return ""
    word = opening_word(a.text)
    if not word or word != opening_word(b.text):
        return ""
    if word in lexicon.IMPERATIVES:
        return word if len(a.words & b.words) >= 2 else ""
    return word if word in lexicon.PRONOUNS else ""


def _same_subject(a: Features, b: Features) -> bool:
    """Both open with the same subject, or each one's subject appears in the other (passive)."""
    if not a.subject or not b.subject:
        return bool(a.words & b.words)
    return a.subject == b.subject or (a.subject in b.words and b.subject in a.words)


def _other_objects(own_a: frozenset[str], own_b: frozenset[str]) -> bool:
    """Each side has words of its own besides the negation itself: an antonym folds into the
    word it negates ("hates jazz" / "likes jazz" has none), and a negating prefix pairs two
    words ("unblocked" / "blocked")."""
    paired = {word for pair in _prefixed_pairs(own_a, own_b) for word in pair}
    return bool(own_a - paired) and bool(own_b - paired)


def _denied_own(
    a: Features, b: Features, own_a: frozenset[str], own_b: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """The own words of ``a`` and ``b`` that a negation is weighed on: on the side that says
    no, only those of the clauses that say it. "Dana no longer leads payments; Luis took over"
    denies what "Dana leads the payments team" says: Luis is said beside the denial, not
    denied. A negating prefix ("unblocked" / "blocked") says no in no clause of its own."""
    if said_negated(a) == said_negated(b):
        return own_a, own_b
    if said_negated(a):
        return own_a & _denied_words(a), own_b
    return own_a, own_b & _denied_words(b)


def _denied_words(features: Features) -> frozenset[str]:
    """The content words of the clauses of ``features`` that say no on their own, or all its
    words when none does (or it is Chinese, whose clauses run on with commas)."""
    if features.cjk:
        return features.words
    clauses = [features_of(part) for part in _CLAUSE_BREAK.split(features.text) if part.strip()]
    denied = [clause.words for clause in clauses if clause.negated]
    return frozenset().union(*denied) if denied else features.words


def _said_apart(a: Features, b: Features, own_a: frozenset[str], own_b: frozenset[str]) -> str:
    """What ``b`` and ``a`` each say of their own where one says the opposite, as written:
    "tea / coffee", or the days or numbers when those are what differs ("Fridays /
    Mondays")."""
    if _other_objects(own_a, own_b):
        return f"{spelled(b, own_b)} / {spelled(a, own_a)}"
    kind = "date" if a.dates and b.dates and a.dates.isdisjoint(b.dates) else "number"
    ours, theirs = (a.dates, b.dates) if kind == "date" else (a.numbers, b.numbers)
    return f"{shown_as_written(b, kind, theirs)} / {shown_as_written(a, kind, ours)}"


def _other_details(a: Features, b: Features) -> bool:
    """Both sides name a day or a number, and none of one side's is the other's: a negation
    of one ("not on March 3") says nothing against the other ("on April 9")."""
    return any(
        ours and theirs and ours.isdisjoint(theirs)
        for ours, theirs in ((a.dates, b.dates), (a.numbers, b.numbers))
    )


def _only_added(difference: str | None, a: Features, b: Features) -> bool:
    """The details differ only by what one side adds, with no change marked. Chinese marks no
    name by a capital, so there a name on one side ("用 Jira") may stand against a word
    ("用飞书")."""
    if difference not in ("number", "date", "name") or a.change_marked or not _same_subject(a, b):
        return False
    if difference == "name" and (a.cjk or b.cjk):
        return False
    if a.numbers != b.numbers and b.numbers and not a.numbers <= b.numbers:
        # Numbers are compared as sets, which keep no place: "fact 2 … rack 2" against "fact 1
        # … rack 1" (and "one" = 1) would read as adding 2. Only leaving some out, or adding
        # numbers to a statement that had none, is safely an addition.
        return False
    return not changes_value(a, b)


def _put(a: Features, b: Features, own: frozenset[str]) -> str:
    """What ``a`` puts where ``b`` has something else, as written: its own words, else its
    own codes ("flake8")."""
    if own:
        return spelled(a, own)
    return shown_as_written(a, "number", a.numbers - b.numbers)


def _name_put_for_word(a: Features, b: Features) -> bool:
    """A name (or code) only ``a`` holds stands where words only ``b`` holds stand, the rest
    the same and in the same parts: "prefers *Slack*" / "prefers *email*", "at *Blue Bottle*"
    / "at *home*", "Use *flake8* for linting" / "Use *ruff* for linting"."""
    names = added_names(a, b) | {code for code in a.numbers - b.numbers if is_code(code)}
    ours, theirs = a.placed, b.placed
    start = 0
    while start < min(len(ours), len(theirs)) and ours[start] == theirs[start]:
        start += 1
    end = 0
    while end < min(len(ours), len(theirs)) - start and ours[-1 - end] == theirs[-1 - end]:
        end += 1
    put, taken = ours[start : len(ours) - end], theirs[start : len(theirs) - end]
    if not put or not taken or put[0][1] != taken[0][1]:
        return False
    return all(value in names for value, _ in put) and not {v for v, _ in taken} & a.words


def _paired_overlap(
    a: Features, b: Features, own_a: frozenset[str], own_b: frozenset[str]
) -> float:
    """The overlap of the words, a word and its prefixed negation counted as one shared word:
    "The release is blocked" / "… unblocked" share both."""
    pairs = len(_prefixed_pairs(own_a, own_b))
    union = len(a.words | b.words) - pairs
    return (len(a.words & b.words) + pairs) / union if union else 1.0


def _prefix_antonym(own_a: frozenset[str], own_b: frozenset[str]) -> str | None:
    """``unstable`` / ``stable``, ``nondeterministic`` / ``deterministic``: a negation."""
    return "negation" if _prefixed_pairs(own_a, own_b) else None


def _prefixed_pairs(own_a: frozenset[str], own_b: frozenset[str]) -> set[tuple[str, str]]:
    """``(unstable, stable)``: a word of one side that is a word of the other with a negating
    prefix (the rest at least four letters, so "inform" / "form" is no pair)."""
    return {
        (word, word[len(prefix) :])
        for mine, theirs in ((own_a, own_b), (own_b, own_a))
        for word in mine
        for prefix in _NEGATING_PREFIXES
        if word.startswith(prefix)
        and len(word) - len(prefix) >= 4
        and word[len(prefix) :] in theirs
    }
