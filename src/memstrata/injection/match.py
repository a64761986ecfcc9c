"""Match the rule table against folded text: where rules can start, clauses, mentions, code.

Rules are tried only where they can start (one trie scan finds their start strings at word
starts; line heads and the other start strings are looked up directly), bare imperatives only at
the start of a clause, paired rules only with their partner in the same clause. A hit is
discounted when it is quoted in prose about injection (mention, not use), sits inside code, or
aims an override at a named document; the exfiltration detector shares the clause logic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from memstrata.injection.folding import _CJK
from memstrata.injection.hits import _evidence, _Hit
from memstrata.injection.rules import RULES, Rule

MENTION_FACTOR = 0.15
CODE_FACTOR = 0.4
DOC_FACTOR = 0.3

# --- mention and code context ------------------------------------------------------------------

_QUOTED = re.compile(
    r"\"[^\"\n]{3,300}\"|'[^'\n]{3,300}'(?!\w)|`[^`\n]{3,300}`|「[^」\n]{2,300}」|"
    r"『[^』\n]{2,300}』|《[^》\n]{2,300}》"
)
_DISCUSSION = re.compile(
    r"prompt[- ]?injections?|injection\s+(?:attacks?|attempts?|payloads?|strings?|examples?|"
    r"tests?)|jailbreak|red[- ]?team|adversarial|attacks?\b|attackers?\b|payloads?|examples?\b|"
    r"e\.g\.|for\s+instance|such\s+as|phrases?\b|strings?\b|known\s+as|the\s+classic\b|"
    r"classif(?:y|ier)|detect(?:or|ion|s|ed)?\b|filters?\b|guardrails?|test\s+cases?|"
    r"fixtures?|owasp|security\b|talk(?:ed)?\s+about\b|discuss|mention|article|paper\b|blog\b|"
    r"workshop|slides|lecture|quiz|malicious|suspicious|match(?:es)?\b|flag(?:s|ged)?\b|"
    r"assert\b|提示注入|注入攻击|越狱|例如|比如|诸如|攻击|测试用例|检测"
)
_CODE = re.compile(r"```.*?(?:```|\Z)|`[^`\n]+`", re.DOTALL)
_DOC_TARGET = re.compile(
    r"\s*(?:in|from|on|of|for|within)\s+(?:the|that|our|my|his|her|their|[\w-]+'s)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:docs?|documents?|readme|wiki|e-?mails?|tickets?|pages?|runbooks?|"
    r"manuals?|guides?|handbooks?|specs?|jira|confluence|notion|pdf|slides?|decks?|memos?|"
    r"threads?|issues?|pr|recipes?|checklists?|onboarding|installer|scripts?|makefile|"
    r"dockerfile|config|files?|repo|branch|sop|form|template|card|letter)\b"
)
# Words that may stand between a clause start and its verb ("please", "always", "you must", "I
# want you to"), spelled backwards: the text left of a verb is reversed and matched from its end.
_LEAD_WORDS_REVERSED = re.compile(
    r"(?:\s*,?(?:esaelp|won|dna|neht|osla|tsuj|os|ko|yako|syawla|ylno|reven|yltcirts|ylteiuq|"
    r"ylt?nelis|ylterces|yletaidemmi|tsrif|yllanif|yllacitamotua|ylpmis|ylnik|ylkciuq|"
    r"(?:lliw|tsum|dluohs|llahs|ot\s+era|ot\s+deen|ot\s+evah)\s+uoy|"
    r"ot\s+uoy\s+(?:tnaw|deen|ksa|deksa|redro|eriuqer|tcurtsni)(?:\s+i)?|ot\s+uoy)\b)+"
)
# A clause ends at sentence punctuation, a blank line, or a new list item or heading.
_CLAUSE_BREAK = re.compile(r"[.!?;。！？；]|\n\s*\n|\n\s*(?:[-*#>•]|\d+[.)])")
# A quote opens a clause too: 'send the key to …' is an order inside its quotes.
_CLAUSE_END = frozenset(".!?:;>*•\"'`(-\n。！？：；，,【]」「")


def _match_rules(folded: str, rules: tuple[Rule, ...]) -> Iterator[_Hit]:
    text = _Text(folded)
    startable = text.startable()
    for rule in rules:
        if rule.name not in startable:
            continue
        found = _find(rule, text, 0)
        if found is None:
            continue
        weight, note = rule.weight, ""
        if rule.mentionable and text.is_mention(*found.core):
            weight, note = weight * MENTION_FACTOR, "quoted mention"
            again = _find(rule, text, found.core[1])
            while again is not None and text.is_mention(*again.core):
                again = _find(rule, text, again.core[1])
            if again is not None:  # a later, unquoted occurrence is use, not mention
                found, weight, note = again, rule.weight, ""
        if rule.in_code and text.in_code(found.core[0]):
            weight, note = weight * CODE_FACTOR, "in code"
        if rule.doc_aware and _DOC_TARGET.match(folded, found.core[1]):
            weight, note = weight * DOC_FACTOR, "aimed at a document"
        evidence = _evidence(folded[found.start : found.end])
        yield _Hit(rule.name, rule.family, weight, evidence, note)


@dataclass(frozen=True, slots=True)
class _Found:
    """Where a rule matched: ``core`` is its pattern's match, ``start``-``end`` also covers the
    partner of a paired rule."""

    start: int
    end: int
    core: tuple[int, int]


def _find(rule: Rule, text: _Text, position: int) -> _Found | None:
    """The first match at or after ``position``, tried only where the rule's start strings
    occur at a word start; for bare imperatives, only where a clause starts; for paired rules,
    only with their partner in the same clause."""
    folded = text.folded
    for start in text.candidates(rule, position):
        if rule.lead and not _starts_clause(folded, start):
            continue
        found = rule.pattern.match(folded, start)
        if found is None:
            continue
        if rule.before is None and rule.after is None:
            return _Found(*found.span(), found.span())
        paired = _paired(rule, folded, found)
        if paired is not None:
            return paired
    return None


def _paired(rule: Rule, folded: str, found: re.Match[str]) -> _Found | None:
    start, end = found.span()
    if rule.before is not None:
        window_start = max(0, start - 80)
        clause = folded[window_start:start]
        cut = max((m.end() for m in _CLAUSE_BREAK.finditer(clause)), default=0)
        partner = rule.before.search(clause, cut)
        if partner is not None:
            return _Found(window_start + partner.start(), end, (start, end))
    if rule.after is not None:
        following = folded[end : end + 60]
        stop = _CLAUSE_BREAK.search(following)
        partner = rule.after.search(following[: stop.start()] if stop else following)
        if partner is not None:
            return _Found(start, end + partner.end(), (start, end))
    return None


def _starts_clause(text: str, start: int) -> bool:
    """Whether only lead-in words ("please", "always", "you must") separate ``start`` from the
    beginning of its clause."""
    left = text[max(0, start - 48) : start]
    lead_in = _LEAD_WORDS_REVERSED.match(left[::-1])
    left = (left[: len(left) - lead_in.end()] if lead_in else left).rstrip(" \t")
    return not left or left[-1] in _CLAUSE_END or (start <= 48 and not left.strip())


class _Text:
    """One folded text and what the rules ask of it, each computed once and only if asked:
    where each start string occurs, line starts, quoted spans, code spans."""

    def __init__(self, folded: str) -> None:
        self.folded = folded
        self.has_cjk = not folded.isascii() and _CJK.search(folded) is not None
        self._words: dict[str, list[int]] | None = None
        self._lines: list[tuple[int, str | None, str | None]] | None = None
        self._quotes: list[tuple[int, int]] | None = None
        self._code: list[tuple[int, int]] | None = None

    def startable(self) -> set[str]:
        """The rules with at least one of their start strings in the text, by name."""
        words = self._word_index()
        names = {name for key in words for name in _BY_WORD_START.get(key, ())}
        for start, rule_names in _BY_OTHER_START.items():
            if (self.has_cjk or start.isascii()) and start in self.folded:
                names.update(rule_names)
        for _, hashes, word in self._line_index():
            names.update(_BY_LINE_HEAD.get(word, ()))
            if hashes:
                names.update(_BY_LINE_HEAD["#"])
        return names

    def candidates(self, rule: Rule, position: int) -> list[int]:
        if rule.cjk and not self.has_cjk:
            return []
        if rule.line_heads:
            heads = rule.line_heads
            return [
                at
                for at, hashes, word in self._line_index()
                if at >= position and (word in heads or (hashes and "#" in heads))
            ]
        words = self._word_index()
        found: list[int] = []
        for key in _LOOKUPS[rule.name] & words.keys():
            found += words[key]
        for start in rule.other_starts:
            if not self.has_cjk and not start.isascii():
                continue
            at = self.folded.find(start, position)
            while at != -1:
                found.append(at)
                at = self.folded.find(start, at + 1)
        if position:
            found = [at for at in found if at >= position]
        return sorted(set(found)) if len(found) > 1 else found

    def _word_index(self) -> dict[str, list[int]]:
        """Word-initial occurrences of start strings, from one scan of the text, keyed by the
        longest start string found at each (see ``_LOOKUPS``)."""
        if self._words is None:
            self._words = {}
            for found in _START_SCAN.finditer(" " + self.folded):
                self._words.setdefault(found.group(1), []).append(found.start())
        return self._words

    def _line_index(self) -> list[tuple[int, str | None, str | None]]:
        """Each line start, whether the line is a heading, and its first word."""
        if self._lines is None:
            self._lines = [
                (m.start(), m.group(1), m.group(2)) for m in _LINE_HEAD.finditer(self.folded)
            ]
        return self._lines

    def is_mention(self, start: int, end: int) -> bool:
        if self._quotes is None:
            self._quotes = [m.span() for m in _QUOTED.finditer(self.folded)]
        for q_start, q_end in self._quotes:
            if q_start <= start and end <= q_end:
                before = self.folded[max(0, q_start - 250) : q_start]
                after = self.folded[q_end : q_end + 150]
                return bool(_DISCUSSION.search(before) or _DISCUSSION.search(after))
        return False

    def in_code(self, position: int) -> bool:
        if self._code is None:
            has_ticks = "`" in self.folded
            self._code = [m.span() for m in _CODE.finditer(self.folded)] if has_ticks else []
        return any(start <= position < end for start, end in self._code)


def _trie_pattern(words: Iterable[str]) -> str:
    """A regex matching the longest of ``words`` at a position, one character at a time."""
    trie: dict[str, dict] = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def build(node: dict[str, dict]) -> str:
        branches = [re.escape(char) + build(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(trie)


_WORD_STARTS = frozenset(start for rule in RULES for start in rule.word_starts)
# The scan reports the longest start string at each word start, so a rule starting with "do"
# looks up "do", "do not", "do anything", …: every start string that extends one of its own.
_LOOKUPS = {
    rule.name: frozenset(
        other for other in _WORD_STARTS if other.startswith(rule.word_starts or ("\0",))
    )
    for rule in RULES
}
# Which rules can start where: by longest word start string, other start string, line head.
_BY_WORD_START: dict[str, list[str]] = {}
_BY_OTHER_START: dict[str, list[str]] = {}
_BY_LINE_HEAD: dict[str, list[str]] = {"#": []}
for _each in RULES:
    for _key in _LOOKUPS[_each.name]:
        _BY_WORD_START.setdefault(_key, []).append(_each.name)
    for _key in _each.other_starts:
        _BY_OTHER_START.setdefault(_key, []).append(_each.name)
    for _key in _each.line_heads:
        _BY_LINE_HEAD.setdefault(_key, []).append(_each.name)
_START_SCAN = re.compile(r"[^a-z0-9_](?=(" + _trie_pattern(_WORD_STARTS) + "))")
# A line start, whether it is a Markdown heading, and its first word.
_LINE_HEAD = re.compile(r"^[ \t>*\-]*(#)?[# \t]*([a-z0-9_]+|[^\x00-\x7f]{1,2})?", re.MULTILINE)
