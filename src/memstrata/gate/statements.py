"""What a statement says, lexically: its content words, and the details that must never blur.

The gate compares a candidate with what is stored. Embeddings say two texts are *about* the same
thing; they are poor at telling "prefers cortado" from "prefers flat white" or "likes X" from
"no longer likes X" (measured: cosine ranks a paraphrase above an opposite on only 35–65 % of
triples). So every comparison also looks at these lexical features, which are exact:

- **content words**, lightly stemmed (``deployed`` / ``deploys`` → ``deploy``, a table of
  irregular verbs) and folded into synonym groups for common predicates (likes / loves / prefers
  …), after common abbreviations are spelled one way (``k8s`` → Kubernetes, ``PR`` → pull
  request, ``prod`` → production) and filler is dropped ("by the way", "FYI", "I believe");
- **numbers** with their unit (``10 min`` = ``ten minutes``; ``3pm`` = ``15:00`` = ``下午3点``;
  ``10k`` = ``10,000``; versions like ``v2``), **dates** (weekdays, months, ISO dates, parts of
  the day, ``周五`` = Friday), **names** (capitalised words, ``@mentions``; a word capitalised on
  one side only, as at the start of a sentence, matches the same word in lower case) and
  **relatives** (son, sister, 女儿 …: they change whom a statement is about);
- **negation** (``not``, ``never``, ``no longer``, ``不``, ``没有`` …), where an antonym counts
  as the negated word (``hates`` = not ``likes``, ``disabled`` = not ``enabled``, ``讨厌`` =
  ``不喜欢``) and ``stopped`` / ``quit`` / ``戒`` negate and mark a change;
- **change markers** (``now``, ``anymore``, ``switched``, ``不再``, ``现在`` …).

Any difference in numbers, dates, names, relatives or negation means the statements say
different things, whatever the embedding says. Chinese is compared by characters and character
bigrams, after numerals, times, weekdays, antonyms and a few synonyms are normalised and
particles dropped. Pure functions only.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from memstrata.fts import STOP_WORDS, without_clitic
from memstrata.gate import lexicon, lexicon_zh
from memstrata.journal.parse import MENTION, mention_name

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# "4B", "3D", "2FA": digits glued to capitals are one code, as "v2" and "db1" are (a unit is
# written small: "3pm", "30s", "5k")
_TOKEN = re.compile(
    r"(?P<code>\d+[A-Z]+(?![^\W\d_]))|"
    rf"(?P<num>\d+(?:[.,:]\d+)*%?)|(?P<cjk>[{_CJK}]+)|(?P<word>[^\W_]+(?:'[^\W_]+)*)"
)
#: a code is read as a word is ("v2", "db1"), which tells letters-and-digits from quantities
_READ_AS = {"code": "word"}
#: "start", "begin", "kick off" as folded: the verb of change that also says when (_scheduled)
_START = "start"
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b")
# An address is one value as well as the words in it: "ann@example.com" /
# "ann.weber@example.com" are two addresses, not one with a word added (emails, URLs, hosts).
_ADDRESS = re.compile(
    r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\bhttps?://[^\s<>\"']+[^\s<>\"'.,;:!?)]"
    r"|\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:com|org|net|io|dev|ai|app|co|cloud|de|uk|cn"
    r"|fr|jp|eu|us|me|sh|xyz|info|tech|site|local|internal)\b(?:/[\w.~-]*[\w~-])*/?"
    # a path or branch: "feature/login-v2", "~/.ssh/id_rsa", "config/prod.yaml" (not "and/or",
    # "24/7" or "req/s")
    r"|(?<![\w/])(?!(?:and/or|or/and)\b)(?=\S*[a-z])(?:~/|\.{1,2}/|/)?(?:[\w.-]{2,}/)+[\w.-]+[\w-]/?",
    re.IGNORECASE,
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
    relatives: frozenset[str] = frozenset()
    subject: str = ""
    cjk: bool = False
    #: the English content words in order, each with whether it was written as a name
    sequence: tuple[tuple[str, bool], ...] = ()
    #: the English content words, numbers, days and parts of the day in order, each with the
    #: preposition written before it since the one before ("tea *over* coffee": ``("tea",
    #: "")``, ``("coffe", "over")``), which says what part it plays; a "not" set against what
    #: came before ("npm, *not* pnpm") counts as one, and so does a number for the word it
    #: counts ("*2* cats": ``("cat", "#2")``)
    placed: tuple[tuple[str, str], ...] = ()
    #: how many of ``placed`` stand before the statement's first "is" ("are", "was" …), or -1:
    #: "Ann is the PM" = "The PM is Ann", the two sides of a copula being one thing
    copula: int = -1
    #: the statement says what will be ("will", "shall", "won't"), not what is or was
    future: bool = False
    #: the English words that say how much or which way (``lexicon.QUALIFIERS``): "all",
    #: "up", "fewer"
    qualifiers: frozenset[str] = frozenset()
    #: the Chinese runs in order, as compared (particles and negations out)
    han: tuple[str, ...] = ()
    #: numbers and codes written right after the subject, which name it: "Release *2.3*",
    #: "Server *alpha1*", "Ticket PROJ-*101*" (not "the meeting is at 3pm"), and codes written
    #: before it, which are or name it: "*Node1* has …", "The *db1* server …"
    naming: frozenset[str] = frozenset()
    #: the English content word written right after the subject's first word, where a code
    #: would name it: "Printer *hq* has …" (the place of p1 in "Printer p1 has …")
    slot: str = ""
    #: the text as read (NFKC), and where each feature was written in it, in order:
    #: ``(kind, value, start, end)`` with kind word, number, date or name, so that a reason
    #: can quote "flat white" or "March 3" rather than the folded "flat, whit" or "3"
    text: str = ""
    marks: tuple[tuple[str, str, int, int], ...] = ()


@lru_cache(maxsize=4096)
def features_of(text: str) -> Features:
    """Extract the features of ``text`` (cached: the gate compares one text many times)."""
    read = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    written = _Traced(read)
    state = _State()
    opening = lexicon.OPENING_WHEN.match(read)
    state.subject_from = opening.end() if opening else 0
    for match in _ISO_DATE.finditer(read):
        state.where = match.span()
        state.add_date(match.group(0))
    written.sub(_ISO_DATE, " ")
    for match in _ADDRESS.finditer(written.text):
        # a name as a whole; its words are still read, so that two hosts of one domain share
        # them ("pre.shop.internal" / "staging.shop.internal")
        state.where = written.origin(*match.span())
        state.add_name(match.group(0).rstrip("/").casefold())  # "db/migrations/" = "db/migrations"
    for match in MENTION.finditer(written.text):
        state.where = written.origin(*match.span())
        state.add_name(mention_name(match.group(1)).casefold())
    cjk = bool(re.search(f"[{_CJK}]", read))
    state.where = None
    _normalise_english(written)
    if cjk:
        _normalise_chinese(written, state)
    text = written.text
    matches = list(_TOKEN.finditer(text))
    tokens = [(_READ_AS.get(m.lastgroup or "", m.lastgroup or ""), m.group(0)) for m in matches]
    naming: set[str] = set()  # numbers that name the subject: "Release 2.3", "Server alpha1"
    slot = ""
    subject_end = subject_start = -2
    for position, (kind, token) in enumerate(tokens):
        following = tokens[position + 1][1] if position + 1 < len(tokens) else ""
        numbers, words = set(state.numbers), len(state.sequence)
        had_subject = bool(state.subject)
        span = matches[position].span()
        state.where = written.origin(*span)
        if kind == "num":
            if _day_of_month(tokens, position):
                state.add_number(token, "")  # "June 12th" is June 12: the day, not a rank
                state.skip_unit = following
            else:
                state.add_number(token, following)
        elif kind == "cjk":
            _read_chinese(token, state)
        else:
            previous = tokens[position - 1][1].casefold() if position else ""
            state.contrasting = _after_comma(text, span[0]) or previous in ("but", "and")
            _read_word(token, following, state, _in_compound(text, *span), position == 0)
        if not had_subject and kind == "word":
            # a code before the subject is, or names, the subject: "*Node1* has 16 GB", "The
            # *db1* server", "*S3* storage" (letters and digits in one token: no quantity)
            naming |= {code for code in state.numbers - numbers if is_code(code)}
            if state.subject:
                subject_end = subject_start = position  # English: a Chinese run holds numbers
        elif position == subject_start + 1 and len(state.sequence) > words:
            slot = state.sequence[-1][0]
        if position == subject_end + 1:
            added = state.numbers - numbers
            if added:
                naming |= added
                subject_end = position
            elif len(state.sequence) > words and state.sequence[-1][1]:
                subject_end = position  # a name continues it: "Ticket PROJ-101"
    if tokens and tokens[0][1].casefold() in lexicon.UNNAMED_OPENINGS:
        # "Use node20", "I run 5k": the verb is no subject a code could name
        naming, slot = set(), ""
    return Features(
        frozenset(state.words),
        frozenset(state.numbers),
        frozenset(state.dates),
        frozenset(state.names),
        state.negated,
        state.change_marked,
        frozenset(state.relatives),
        state.subject,
        cjk,
        tuple(state.sequence),
        tuple((value, role) for _, value, role in sorted(state.placed)),
        sum(at < state.copula_at for at, _, _ in state.placed) if state.copula_at >= 0 else -1,
        state.future,
        frozenset(state.qualifiers),
        tuple(state.han),
        frozenset(naming),
        slot,
        read,
        tuple(state.marks),
    )


class _State:
    """What one pass over the tokens of a statement has found so far."""

    def __init__(self) -> None:
        self.words: set[str] = set()
        self.numbers: set[str] = set()
        self.dates: set[str] = set()
        self.names: set[str] = set()
        self.relatives: set[str] = set()
        self.negated = False
        self.change_marked = False
        self.future = False
        self.subject = ""
        #: where in the text as read the subject may start: after a clause of when
        self.subject_from = 0
        #: a verb of ``lexicon.CHANGED_VERBS`` was read, and no value since
        self.changed_to = False
        self.sequence: list[tuple[str, bool]] = []
        self.placed: list[tuple[int, str, str]] = []
        self.qualifiers: set[str] = set()
        #: where in the text as read the first copula stands, or -1
        self.copula_at = -1
        #: the preposition read since the last content word, which the next one takes
        self.role = ""
        #: the token being read follows a comma, "and" or "but"
        self.contrasting = False
        #: "and", "or" or a comma was read since the last value placed
        self.listing = False
        self.han: list[str] = []
        self.skip_unit = ""
        #: where in the text as read the token being read was written
        self.where: tuple[int, int] | None = None
        self.marks: list[tuple[str, str, int, int]] = []

    def mark(self, kind: str, value: str) -> None:
        if self.where is not None:
            self.marks.append((kind, value, *self.where))

    def add_word(self, word: str) -> None:
        self.words.add(word)
        self.take_subject(word)
        self.mark("word", word)

    def take_subject(self, word: str) -> None:
        """``word`` is the subject when it is the first one read where a subject may start."""
        if not self.subject and (self.where is None or self.where[0] >= self.subject_from):
            self.subject = word

    def add_in_order(self, word: str, name: bool) -> None:
        self.sequence.append((word, name))
        self.place(word)

    def place(self, value: str) -> None:
        """``value`` takes the preposition read since the last one placed, or in a list the
        part of what it is listed with ("on Mondays *and* Fridays")."""
        at = self.where[0] if self.where is not None else len(self.placed)
        role = self.role
        if self.changed_to and role in lexicon.CHANGE_TO:
            self.change_marked = True
        self.changed_to = False
        if not role and self.listing and self.placed:
            role = max(self.placed)[2]
        self.placed.append((at, value, role))
        self.role = ""
        self.listing = False

    def add_date(self, date: str) -> None:
        self.place(date)  # "*from* Monday *to* Friday", "mornings *over* afternoons"
        self.dates.add(date)
        self.mark("date", date)

    def add_name(self, name: str) -> None:
        self.names.add(name)
        self.mark("name", name)

    def add_code(self, code: str) -> None:
        self.place(code)  # "*from* 3pm *to* 4pm"
        self.role = f"#{code}"  # and what it counts: "*2* cats and *3* dogs"
        self.numbers.add(code)
        self.mark("number", code)

    def take_unit(self) -> None:
        """The token being read is the unit of the number before it ("8 *min*"): quoted with it."""
        self.skip_unit = ""
        if self.where is not None and self.marks and self.marks[-1][0] == "number":
            kind, value, start, _ = self.marks[-1]
            self.marks[-1] = (kind, value, start, self.where[1])

    def add_number(self, token: str, following: str) -> None:
        value = lexicon.THOUSANDS.sub("", token)
        unit = ""
        if value.endswith("%"):
            value, unit = value[:-1], "%"
        elif following.casefold() in lexicon.UNITS:
            unit = lexicon.UNITS[following.casefold()]
            self.skip_unit = following
        elif is_cjk(following):
            prefix = next((p for p in (following[:2], following[:1]) if p in lexicon.UNITS), "")
            if prefix:
                unit, self.skip_unit = lexicon.UNITS[prefix], prefix
        if unit == "k":
            value, unit = _times(value, 1000), ""
        if ":" in value:
            hours, _, minutes = value.partition(":")
            value = f"{int(hours):02d}:{minutes}" if hours.isdigit() else value
        self.add_code(value + unit)


_OPENING_WORD = re.compile(r"^\W*([^\W\d_]+)")


def opening_word(text: str) -> str:
    """The word ``text`` opens with, folded ("use" in "Use pnpm", "i" in "I prefer tabs")."""
    match = _OPENING_WORD.match(text)
    return match.group(1).casefold() if match else ""


def is_code(value: str) -> bool:
    """Letters and digits in one token (node1, s3, ec2, db1): a name, not a quantity."""
    return any(ch.isdigit() for ch in value) and any(ch.isalpha() for ch in value)


def _times(value: str, factor: int) -> str:
    try:
        number = float(value) * factor
    except ValueError:
        return value
    return str(int(number)) if number.is_integer() else str(number)


class _Traced:
    """A text being normalised, each character traced to the span of the text as read that it
    stands for: "3pm" → " 15:00 ", each of its characters from "3pm"."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans = [(i, i + 1) for i in range(len(text))]

    def sub(
        self, pattern: re.Pattern[str], replacement: str | Callable[[re.Match[str]], str]
    ) -> None:
        """``pattern.sub(replacement, text)``, tracing each replacement to what it replaced."""
        pieces: list[str] = []
        spans: list[tuple[int, int]] = []
        last = 0
        for match in pattern.finditer(self.text):
            start, end = match.span()
            new = replacement(match) if callable(replacement) else match.expand(replacement)
            pieces.append(self.text[last:start])
            spans.extend(self.spans[last:start])
            pieces.append(new)
            spans.extend([self.origin(start, end)] * len(new))
            last = end
        if pieces:
            pieces.append(self.text[last:])
            spans.extend(self.spans[last:])
            self.text, self.spans = "".join(pieces), spans

    def replace(self, old: str, new: str) -> None:
        if old in self.text:
            self.sub(re.compile(re.escape(old)), lambda _match: new)

    def origin(self, start: int, end: int) -> tuple[int, int]:
        """The span of the text as read that ``text[start:end]`` stands for."""
        if end > start:
            return self.spans[start][0], self.spans[end - 1][1]
        if start < len(self.spans):
            return self.spans[start][0], self.spans[start][0]
        edge = self.spans[-1][1] if self.spans else 0
        return edge, edge


def _normalise_english(text: _Traced) -> None:
    text.sub(lexicon.FILLER, " ")
    text.sub(lexicon.SPOKEN_NUMBER, _spoken_number)
    for pattern, replacement in lexicon.ALIAS_PATTERNS:
        text.sub(pattern, replacement)
    text.sub(lexicon.TIME_12H, _clock_12h)
    text.sub(lexicon.TIME_24H, lambda m: f"{int(m.group(1)):02d}:{m.group(2)}")


def _spoken_number(match: re.Match[str]) -> str:
    """ "five hundred" → 500, "twenty-five" → 25, "two thousand and twenty" → 2020; words that
    make no one number ("one two", "ten and five") are left as they are."""
    words = re.split(r"[\s-]+", match.group(0).casefold())
    total = current = 0
    previous = ""
    for word in words:
        if word == "and":
            if previous not in lexicon.SCALES:
                return match.group(0)
        elif word in lexicon.SCALES:
            scale = lexicon.SCALES[word]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total, current = total + (current or 1) * scale, 0
        else:
            value = int(lexicon.NUMBER_WORDS[word])
            if current % 100 and (value >= 10 or current % 10):
                return match.group(0)  # "one two", "twenty thirty": no one number
            current += value
        previous = word
    return f" {total + current} "


def _clock_12h(match: re.Match[str]) -> str:
    hour = int(match.group(1)) % 12 + (12 if match.group(3).casefold() == "p" else 0)
    return f" {hour:02d}:{match.group(2) or '00'} "


def _normalise_chinese(text: _Traced, state: _State) -> None:
    for pattern, replacement in lexicon_zh.ZH_PROTECTED_PATTERNS:
        text.sub(pattern, replacement)
    text.sub(lexicon_zh.ZH_TIME, _zh_clock)
    text.sub(lexicon_zh.ZH_WEEKDAY, lambda m: f" {lexicon_zh.ZH_WEEKDAYS[m.group(1)]} ")
    text.sub(lexicon_zh.ZH_MONTH_DAY, _zh_month_day)
    for marker in lexicon_zh.ZH_CHANGE:
        if marker in text.text:
            state.change_marked = True
            text.replace(marker, "不" if marker == "不再" else "")
    if re.search(r"不[^，。,.;；]*了[。.!！]?\s*$", text.text):
        state.change_marked = True  # "我不喝咖啡了": no longer
    for verb in lexicon_zh.ZH_STOP_VERBS:
        if verb in text.text:
            state.change_marked = True
            state.negated = not state.negated
            text.replace(verb, " ")
    for phrase, replacement in lexicon_zh.ZH_PHRASES:
        text.replace(phrase, replacement)
    text.sub(lexicon_zh.ZH_LOVE, "喜欢")
    for relative in lexicon_zh.ZH_RELATIVES:
        if relative in text.text:
            state.relatives.add(relative)
            state.names.add(relative)
    text.sub(lexicon_zh.ZH_NUMBER, lambda m: f" {_zh_number(m.group(0))} ")


def _zh_clock(match: re.Match[str]) -> str:
    period, hour_text, minute_text = match.groups()
    hour = int(_zh_number(hour_text)) if hour_text else 0
    if lexicon_zh.ZH_PERIODS.get(period or "") == "pm" and hour < 12:
        hour += 12
    minute = 0
    if minute_text == "半":
        minute = 30
    elif minute_text:
        minute = int(_zh_number(minute_text.rstrip("分")))
    return f" {hour:02d}:{minute:02d} "


def _zh_month_day(match: re.Match[str]) -> str:
    month = int(_zh_number(match.group(1)))
    day = f" {_zh_number(match.group(2))} " if match.group(2) else " "
    name = lexicon.MONTHS[month - 1] if 1 <= month <= 12 else str(month)
    return f" {name}{day}"


def _zh_number(run: str) -> str:
    """``十五`` → 15, ``两`` → 2, ``三百`` → 300, ``2025`` → 2025, ``一二`` → 12."""
    if run.isdigit():
        return str(int(run))
    if all(ch in lexicon_zh.ZH_DIGITS for ch in run):
        return "".join(str(lexicon_zh.ZH_DIGITS[ch]) for ch in run)
    total, section, digit = 0, 0, 0
    for ch in run:
        if ch in lexicon_zh.ZH_DIGITS:
            digit = lexicon_zh.ZH_DIGITS[ch]
        elif ch == "万":
            total += (section + digit) * 10000
            section, digit = 0, 0
        else:
            unit = {"十": 10, "百": 100, "千": 1000}[ch]
            section += (digit or 1) * unit
            digit = 0
    return str(total + section + digit)


def _read_chinese(run: str, state: _State) -> None:
    negations = sum(run.count(mark) for mark in lexicon_zh.ZH_NEGATIONS)
    if negations % 2:
        state.negated = not state.negated
    for mark in lexicon_zh.ZH_NEGATIONS:
        run = run.replace(mark, "")
    if state.skip_unit and run.startswith(state.skip_unit):
        run = run[len(state.skip_unit) :]
    state.skip_unit = ""
    kept = "".join(ch for ch in run if ch not in lexicon_zh.ZH_PARTICLES)
    state.han.append(kept)
    # bigrams for order, single characters so that an inserted word does not hide the rest;
    # quoted by their run (``han``), not by a mark
    where, state.where = state.where, None
    for gram in sorted(_bigrams(kept) | set(kept), key=lambda g: (kept.find(g), -len(g))):
        state.add_word(gram)
    state.where = where


_ORDINAL_SUFFIXES = frozenset(("st", "nd", "rd", "th"))
_MONTHS = frozenset(month[:3] for month in lexicon.MONTHS)


def _is_month(token: str) -> bool:
    return (lexicon.DATES.get(token.casefold()) or lexicon.CAPITAL_DATES.get(token)) in _MONTHS


def _day_of_month(tokens: list[tuple[str, str]], position: int) -> bool:
    """The number at ``position`` is an ordinal that names a day of a month: "June *12*th",
    "the *3*rd of March". Its suffix says no rank there, so it is read as "June 12" is."""
    if position + 1 >= len(tokens) or tokens[position + 1][1].casefold() not in _ORDINAL_SUFFIXES:
        return False
    if position and _is_month(tokens[position - 1][1]):
        return True
    after = [token for _, token in tokens[position + 2 : position + 4]]
    return len(after) == 2 and after[0].casefold() == "of" and _is_month(after[1])


def _after_comma(text: str, start: int) -> bool:
    """A comma or semicolon is the last thing before ``text[start]`` but white space."""
    at = start - 1
    while at >= 0 and text[at].isspace():
        at -= 1
    return at >= 0 and text[at] in ",;"


def _in_compound(text: str, start: int, end: int) -> bool:
    """The word is hyphenated to another ("agenda-first", "one-off"): not a number on its own."""
    before = text[start - 2 : start] if start >= 2 else ""
    after = text[end : end + 2]
    return (before[-1:] == "-" and before[:1].isalpha()) or (
        after[:1] == "-" and after[1:].isalpha()
    )


def _read_word(
    token: str, following: str, state: _State, compound: bool = False, opening: bool = False
) -> None:
    if state.skip_unit:
        state.take_unit()
        return
    folded = token.casefold()
    if (
        folded.endswith("n't")
        or folded in lexicon.NEGATIONS
        or folded in ("cant", "dont", "doesnt", "didnt", "isnt", "wont")
    ):
        state.negated = not state.negated
        state.future = state.future or folded in lexicon.FUTURE_MARKERS
        if state.contrasting:
            state.role = "not"  # "use npm, *not* pnpm": what is set against the rest
        return
    if folded.endswith("'ll"):
        state.future = True  # "we'll", "Ann'll"
    if "'" in folded:
        token = without_clitic(token)  # "Ann's" is Ann; "O'Brien" is no "O"
        folded = token.casefold()
    if folded in lexicon.CHANGE_MARKERS:
        state.change_marked = True
        return
    if token in lexicon.CAPITAL_DATES and (
        token != "May" or following[:1].isdigit() or not following
    ):
        state.add_date(lexicon.CAPITAL_DATES[token])
        return
    if folded in lexicon.NUMBER_WORDS and not compound:
        state.add_number(lexicon.NUMBER_WORDS[folded], following)
        return
    if any(ch.isdigit() for ch in folded):
        state.add_code(folded)  # versions and codes: v2, p99, s3, ec2
        if is_code(folded) and (token[:1].isupper() or opening):
            # a capitalised code names a host, a model, a robot ("Server2 runs …", "R2D2
            # drinks …"), and so does one opening the statement ("db1 runs …"): a name, the
            # subject when it comes first, and a word in order as "Ann" is, so that what is
            # said of it is read after it ("drinks", not the "tea" after that)
            state.add_name(folded)
            state.add_word(folded)
            state.sequence.append((folded, True))  # placed already, as a code
            state.role = ""  # a name counts nothing: "R2D2 drinks" is no "2 cats"
        elif is_code(folded):
            state.take_subject(folded)  # "The db1 server runs …"
        return
    date = lexicon.DATES.get(folded) or (
        lexicon.DATES.get(folded[:-1]) if folded.endswith("s") else None
    )
    if date:
        state.add_date(date)
        return
    if len(folded) == 1 and folded.isalpha():
        # one letter names a value: "models in R" / "in C", "Plan A" / "Plan B" (not "I", and
        # not the article "a" or a capital A opening the statement)
        if token == "I" or (folded in STOP_WORDS and (token.islower() or opening)):
            return
        state.add_name(folded)
        state.add_word(folded)
        state.add_in_order(folded, True)
        return
    if folded in ("and", "or") or state.contrasting:
        state.listing = True
    if folded in lexicon.ROLE_MARKERS:
        state.role = folded
    if folded in lexicon.QUALIFIERS or folded in lexicon.FREQUENCY_WORDS:
        state.qualifiers.add(lexicon.FREQUENCY_WORDS.get(folded, folded))
    if folded in lexicon.FUTURE_MARKERS:
        state.future = True
    if folded in lexicon.COPULAS and state.copula_at < 0 and state.where is not None:
        state.copula_at = state.where[0]
    if folded in STOP_WORDS or folded in lexicon.EXTRA_STOP or len(folded) < 2:
        return
    name = False
    if folded in lexicon.RELATIVES:
        relative = _fold(folded)[0]  # "kids" = "children"
        state.relatives.add(relative)
        state.add_name(relative)
    elif token[:1].isupper() and folded not in lexicon.OPENERS:
        state.add_name(folded)
        name = True
    word, negates = _fold(folded)
    if negates:
        state.negated = not state.negated
    if word in lexicon.STOP_VERBS:
        state.negated = not state.negated
        state.change_marked = True
        return
    if word in lexicon.CHANGE_VERBS and not _scheduled(word, folded, following):
        state.change_marked = True
    if word not in lexicon.LIGHT_STEMS:
        state.add_word(word)
        state.add_in_order(word, name)
    rewritten = folded in ("rewritten", "rewrote")
    if rewritten or (word in lexicon.CHANGED_VERBS and folded.endswith("ed")):
        state.changed_to = True  # a change, once a value follows: "raised *to* 45 seconds"


def _scheduled(word: str, written: str, following: str) -> bool:
    """ "The rotation *starts* Monday", "the sprint *begins* at 10": a start on the calendar,
    not a change. One is marked by the past ("*started* drinking coffee", "began") or by what
    one starts doing ("*starts* using Vim", "starts to")."""
    if word != _START:
        return False
    after = following.casefold()
    return not (
        written.endswith("ed")
        or written in ("began", "begun")
        or after.endswith("ing")
        or after == "to"
    )


def fold_word(word: str) -> str:
    """Light stemming plus synonym folding: ``prefers`` → ``lik``, ``offices`` → ``offic``."""
    return _fold(word.casefold())[0]


def _fold(word: str) -> tuple[str, bool]:
    """The folded form of ``word`` and whether it is an antonym (``hates`` → ``lik``, True)."""
    stem = _stem(lexicon.IRREGULAR.get(word, word))
    if stem in _ANTONYMS:
        return _ANTONYMS[stem], True
    return _SYNONYMS.get(stem, stem), False


def _stem(word: str) -> str:
    if len(word) <= 3:
        return word
    if word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("ches", "shes", "xes", "zzes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ied") and len(word) > 4:
        word = word[:-3] + "y"
    else:
        for suffix in ("ingly", "edly", "ing", "ed", "ion", "ment", "ness", "ly"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                if suffix == "ed" and word.endswith("eed"):
                    break
                word = word[: -len(suffix)]
                break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouy":
        word = word[:-1]
    return word


def _fold_tables() -> tuple[dict[str, str], dict[str, str]]:
    """Stemmed synonym → group head, and stemmed antonym → the head it negates."""
    synonyms: dict[str, str] = {}
    for group in lexicon.SYNONYM_GROUPS:
        words = group.split()
        for word in words:
            synonyms.setdefault(_stem(word), _stem(words[0]))
    antonyms: dict[str, str] = {}
    for head, words in lexicon.ANTONYM_GROUPS.items():
        for word in words.split():
            antonyms.setdefault(_stem(word), synonyms.get(_stem(head), _stem(head)))
    return synonyms, antonyms


_SYNONYMS, _ANTONYMS = _fold_tables()


def _bigrams(run: str) -> set[str]:
    if len(run) == 1:
        return {run}
    return {run[i : i + 2] for i in range(len(run) - 1)}


def is_cjk(token: str) -> bool:
    return bool(re.match(rf"^[{_CJK}]", token))
