"""Detect instructions disguised as leetspeak, hyphen-split words or letter-spaced words.

"1gn0r3 4ll pr3v10us", "instruc-tions", "i g n o r e": the lexical rules miss them on the folded
view. Where such words come in runs (a lone "10am" or "k8s" is ordinary writing, and a split
word counts only if joined it is a word worth hiding, never "follow-up"), the stretch around them
is rewritten and the lexical and exfiltration rules run again on it; a hit found only there
counts, and so does the obfuscation itself.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator

from memstrata.injection.exfiltration import _exfiltration
from memstrata.injection.hits import THRESHOLD, _Hit
from memstrata.injection.match import _match_rules
from memstrata.injection.rules import RULES

# Lexical families re-run on the un-obfuscated view (spaced letters, leetspeak, split words).
_DEOBFUSCATED_FAMILIES = frozenset(
    "override reveal persona unrestricted directive future new-instructions covert "
    "rules-file".split()
)
_DEOBFUSCATED_RULES = tuple(rule for rule in RULES if rule.family in _DEOBFUSCATED_FAMILIES)
_LEET = str.maketrans("0134579@$|!", "oieastgasii")
# Stems of the words an attacker hides from a filter; rewriting anything else is not worth a pass.
_WORTH_HIDING = tuple(
    "ignor disregard forget previous prior instruction prompt system rule guideline reveal secret "
    "password passw jailbr unrestrict unfilter uncensor restrict assistant overrid bypass exfiltr "
    "credential token developer pretend obey comply always never respond answer send email "
    "upload forward user tell print output mode evil attacker delete approve your above earlier "
    "safety filter polic".split()
)
_WORTH_HIDING_SHORT = frozenset(
    "all the and not you new now from act as an ai no dan key api do to".split()
)
_SPLIT_HINT = re.compile(r"[a-z]-[a-z]")
_SPLIT_WORD = re.compile(r"[a-z]+(?:-[a-z]+)+")
# Leetspeak: a digit or symbol next to letters ("1gn0r3"); the word around it is rewritten.
_LEET_HINT = re.compile(r"[0-9@$|!][a-z]")
_LEET_WORD = re.compile(r"[a-z0-9@$|!]*[a-z][a-z0-9@$|!]*")
_SPACED_HINT = re.compile(r"[ .\-_*|/+][a-z][ .\-_*|/+][a-z][ .\-_*|/+][a-z][ .\-_*|/+]")
_SPACED = re.compile(r"(?:[a-z](?:[ .\-_*|/+]|\s{2,4})){3,}[a-z](?![a-z])")
_SPACED_GAP = re.compile(r"\s{2,}")
_SPACED_SEP = re.compile(r"[ .\-_*|/+]")


def _deobfuscated(folded: str, found_families: set[str]) -> Iterator[_Hit]:
    """Re-run the lexical rules around words written in leetspeak, split by hyphens, or with
    spaced letters."""
    changes = [
        *_clustered_words(
            folded, _LEET_HINT, _LEET_WORD, lambda word: word.translate(_LEET), vocabulary=False
        ),
        *_clustered_words(
            folded, _SPLIT_HINT, _SPLIT_WORD, lambda word: word.replace("-", ""), vocabulary=True
        ),
    ]
    if _SPACED_HINT.search(folded):
        changes += [(m.span(), _join_spaced(m)) for m in _SPACED.finditer(folded)]
    if not changes:
        return
    view = _windows_with_changes(folded, sorted(changes))
    for hit in (*_match_rules(view, _DEOBFUSCATED_RULES), *_exfiltration(view)):
        if hit.family not in found_families and hit.weight >= THRESHOLD:
            yield hit
            yield _Hit("obfuscated-text", "obfuscated", 0.5, hit.evidence)


def _clustered_words(
    folded: str,
    hint: re.Pattern[str],
    word: re.Pattern[str],
    undo: Callable[[str], str],
    *,
    vocabulary: bool,
) -> list[tuple[tuple[int, int], str]]:
    """Words to rewrite, when at least two of them sit within a few words of each other: one
    "10am" or "k8s" is ordinary writing. With ``vocabulary``, only words that, undone, become a
    word worth hiding count ("instruc-tions" → "instructions", never "follow-up")."""
    changes: dict[tuple[int, int], str] = {}
    hints = [m.start() for m in hint.finditer(folded)]
    clustered = [at for i, at in enumerate(hints) if _has_neighbour(hints, i, 40)]
    for low, high in _merged_regions(folded, clustered, 24):
        for found in word.finditer(folded, low, high):
            undone = undo(found.group())
            if undone == found.group():
                continue
            if vocabulary and not (
                undone in _WORTH_HIDING_SHORT or undone.startswith(_WORTH_HIDING)
            ):
                continue
            changes[found.span()] = undone
    spans = sorted(changes)
    close = {
        span
        for before, after in itertools.pairwise(spans)
        if after[0] - before[1] <= 40
        for span in (before, after)
    }
    return [(span, changes[span]) for span in spans if span in close]


def _has_neighbour(positions: list[int], i: int, distance: int) -> bool:
    """Whether another of the sorted ``positions`` lies within ``distance`` of the ``i``-th."""
    return (i > 0 and positions[i] - positions[i - 1] <= distance) or (
        i + 1 < len(positions) and positions[i + 1] - positions[i] <= distance
    )


def _merged_regions(text: str, positions: list[int], reach: int) -> list[tuple[int, int]]:
    """The stretches within ``reach`` of the sorted ``positions``, merged, widened to whole
    words: each stretch of text is scanned once, however many hints it holds."""
    regions: list[tuple[int, int]] = []
    for at in positions:
        low, high = max(0, at - reach), at + reach
        if regions and low <= regions[-1][1]:
            regions[-1] = (regions[-1][0], high)
        else:
            regions.append((low, high))
    return [_word_bounds(text, low, high) for low, high in regions]


def _word_bounds(text: str, low: int, high: int) -> tuple[int, int]:
    """``low`` and ``high`` widened to whitespace, so no word is cut."""
    before = max(text.rfind(space, 0, low) for space in " \n\t") + 1 if low else 0
    after = [at for space in " \n\t" if (at := text.find(space, high)) != -1]
    return before, min(after, default=len(text))


def _windows_with_changes(
    folded: str, changes: list[tuple[tuple[int, int], str]], reach: int = 120
) -> str:
    """The text around each change, with the change applied; windows are joined by newlines."""
    pieces, cursor, window_end = [], 0, -1
    for (start, end), replacement in changes:
        if start < cursor:
            continue
        if start - reach > window_end:
            if window_end >= 0:
                pieces.append(folded[cursor:window_end] + "\n")
            cursor = max(cursor, start - reach)
        pieces.append(folded[cursor:start] + replacement)
        cursor, window_end = end, end + reach
    pieces.append(folded[cursor : max(cursor, window_end)])
    return "".join(pieces)


def _join_spaced(found: re.Match[str]) -> str:
    """``i g n o r e  a l l`` → ``ignore all``; ``i.g.n.o.r.e a.l.l`` → ``ignore all``: a wide
    gap, or a space where letters are joined by something else, separates words."""
    run = found.group()
    if run.count(" ") * 2 < len(_SPACED_SEP.findall(run)):
        return " ".join(_SPACED_SEP.sub("", word) for word in run.split(" "))
    return " ".join(_SPACED_SEP.sub("", word) for word in _SPACED_GAP.split(run))
