"""FTS5 text preparation shared by the derived index and the raw store.

SQLite's ``unicode61`` tokenizer treats a run of Chinese characters as one token, so a Chinese
query would only match whole runs (measured recall 0.02). We store CJK text with every character
spaced out (unigrams) and query CJK runs as OR-ed two-character phrases: a phrase of adjacent
unigrams is a bigram match, so ``咖啡`` finds ``我喜欢咖啡`` with no segmenter dependency, and a
one-character query still works. English goes through ``porter`` stemming. Hangul goes the same
way (a Korean word carries its particles: ``커피`` must find ``커피를``), and so do Thai, Lao,
Myanmar and Khmer, written without spaces, each letter with the vowel and tone marks on it
(``งบประมาณ`` finds ``ประชุมเรื่องงบประมาณ``).

Text and queries are NFKC-normalised first, so compatibility forms match their plain forms:
full-width Latin and digits from CJK input methods (``ｆｌａｔ ｗｈｉｔｅ``, ``ＡＮＮ``) are
``flat white`` and ``ANN``, half-width katakana (``ｺｰﾋｰ``) is ``コーヒー``, ligatures and
circled numbers are their letters and digits. NFKC keeps CJK characters CJK (compatibility
ideographs become unified ones; only the two spacing kana voicing marks become a space and a
combining mark), so the spacing-out below sees the CJK characters it saw before, and Kangxi
radicals and half-width katakana besides. Changing this changes what is indexed: the derived
index's schema version and the raw store's ``turns_fts`` (indexed anew by a schema step) follow.

A word with an apostrophe is queried as the tokenizer indexes it, which splits ``Ann's`` into
``ann`` and ``s``: a possessive or a contraction (``Ann's``, ``we've``, ``they'll``) is its
first part, so "Ann's coffee" finds "Ann prefers cortado", and a negated auxiliary
(``don't``, ``won't``) is a stop word. Other such words (``O'Brien``) stay one phrase.

Words joined by ``-``, ``.``, ``/`` or ``:`` with a digit among them (``2025-11``, ``GPT-4``,
``v2.11``, ``10:30``) are queried as one phrase, as the tokenizer indexes them in a row: alone,
the ``11`` of "2025-11" would find "OpenSearch 2.11". Letters alone joined (``follow-up``,
``e.g.``) stay separate words. No benchmark figure moved (LoCoMo, LongMemEval).

User queries never reach FTS5 as syntax: :func:`match_expression` keeps only word tokens and
quotes each one, so quotes, ``*``, ``AND``, ``NEAR(`` and parentheses cannot raise.

A search matches on at most :data:`MAX_TERMS` terms. A longer query (a whole message from an
agent or the prompt hook, a Chinese text, whose every pair of characters is a term) keeps its
most informative ones (:func:`searched_terms`): the words of its questions (sentences ending
in a question mark) first, wherever they are; a pair of characters holding a particle or a
pronoun (``的``, ``了``, ``我``, ``の`` …) last, as it mostly straddles two words ("司的" of
"公司的数据"); and of the rest, both ends before the middle: a message says what it is about
first and asks last. Searching every term instead is no better: the words around a question
outweigh it in BM25. Measured on LoCoMo questions put after 1,800 characters of unrelated
messages, lexical recall@10 is 0.02 for the first 64 terms, 0.32 for 64 from both ends and
0.21 for all of them (at over twice the cost); with the question first, 0.33, 0.35 and 0.21.
Measured again with another filler (turns of the other LoCoMo conversations, 900 characters
on each side of the question, all 1,155 questions), both ends alone lost a question in the
middle: recall@10 0.015 there, 0.224 at the end, 0.252 at the start. With its words first:
0.257, 0.258 and 0.258, wherever it is. The caller's note says what was left out
(:func:`dropped_terms`).
"""

from __future__ import annotations

import re
import unicodedata

from memstrata.lazy_pattern import LazyPattern

TOKENIZE = "porter unicode61 remove_diacritics 2"

# Han ideographs, CJK punctuation-free ranges, Hiragana and Katakana: written without spaces.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ebef"
_CJK_CHAR = LazyPattern(f"([{_CJK}])")  # compiled for text that is not ASCII alone
# Hangul: spaced between phrases, but a word carries its particles (커피를 holds 커피).
_HANGUL = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
# Thai, Lao, Myanmar and Khmer: written without spaces between words; each letter keeps the
# vowel and tone marks written on it (:data:`_MARKS`), which the tokenizer drops as diacritics.
_SPACELESS = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
_MARKS = (
    "\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u0eb1\u0eb4-\u0ebc\u0ec8-\u0ecd"
    "\u102b-\u103e\u1056-\u1059\u105e-\u1060\u1062-\u1064\u1067-\u106d\u1071-\u1074"
    "\u1082-\u108d\u108f\u109a-\u109d\u17b4-\u17d3\u17dd"
)
#: the scripts searched by their characters, as Chinese is (module docstring)
_BY_CHARACTER = _CJK + _HANGUL + _SPACELESS
#: one character of them, with its marks
_UNIT = LazyPattern(f"([{_CJK}{_HANGUL}]|[{_SPACELESS}][{_MARKS}]*)")
_WORD_OF_LETTERS = "[^\\W_]+(?:['’][^\\W_]+)?"
_WORD = f"[{_BY_CHARACTER}]+|{_WORD_OF_LETTERS}"
# Each pattern twice: for ASCII text, the one without the character classes of the scripts
# searched by character (the same words, as those can match no ASCII), compiled at import in
# half a millisecond; the full one, ~6 ms to compile, when a text holds more than ASCII.
_TOKEN_ASCII = re.compile(_WORD_OF_LETTERS)
_TOKEN = LazyPattern(_WORD)
# Words joined by - . / or : with no space: "2025-11", "GPT-4", "v2.11", "feature/login".
_COMPOUND_ASCII = re.compile(f"[^\\W_]+(?:[-./:][^\\W_]+)+|{_WORD_OF_LETTERS}")
_COMPOUND = LazyPattern(f"[^\\W_]+(?:[-./:][^\\W_]+)+|{_WORD}")
_DIGIT = re.compile(r"\d")
_SPACE = re.compile(r"\s")
_IS_BY_CHARACTER = LazyPattern(f"^[{_BY_CHARACTER}]+$")
# Where a sentence ends: after a ? or ! that closes a word and is followed by a space, a
# closing quote or bracket, or a capital ("drink?The": a space forgotten), not by the rest of
# a word ("invoices?page=3"), nor after a space ("id = ?", "a ? b : c"); after a full stop
# before a space (not inside "v2.11"); after a mark that ends a sentence wherever it stands
# (。！？ … ؟ ፧); at a line break.
_SENTENCE_END = re.compile(r"(?<=\S[?!])(?=[\s\"'”’»)\]A-Z]|$)|(?<=\.)(?=\s)|(?<=[。！？…؟፧])|\n")
#: marks that end a question: ASCII and full-width, Arabic, Ethiopic
QUESTION_MARKS = ("?", "？", "؟", "፧")
#: the most of one question that counts, its end: a question runs back to the sentence end
#: before it, and in a log or code with none that is everything since
QUESTION_MAX_CHARS = 400
#: how far an edge cut into a text moves to fall at a space rather than inside a word
WORD_REACH = 40

STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    s t don did didn ever also
    don't doesn't didn't isn't aren't wasn't weren't haven't hasn't hadn't won't wouldn't
    can't cannot couldn't shouldn't mustn't needn't shan't ain't
    """.split()
)

#: what follows the apostrophe of a possessive or a contraction: the word before it is the term
_CLITICS = frozenset({"s", "m", "re", "ve", "ll", "d"})

#: the most terms one search matches on (module docstring); each costs a read of its postings
MAX_TERMS = 64
#: the commonest Chinese function characters (particles, pronouns, copula, negation) and
#: Japanese particles: a pair of characters holding one is seldom a word of its own
_FUNCTION_CHARS = frozenset(
    "的了是在和有我你他她它们这那个不也就都而与及或把被对吗呢吧啊之着过のはがをにでとも"
)


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a character of a script written without spaces (Han, kana)."""
    return not text.isascii() and _CJK_CHAR.search(text) is not None


def _by_character(text: str) -> bool:
    return not text.isascii() and _UNIT.search(text) is not None


def normalise(text: str) -> str:
    """Fold compatibility forms into their plain forms (NFKC): ``ｆｌａｔ`` is ``flat``."""
    return unicodedata.normalize("NFKC", text)


def segment(text: str) -> str:
    """Prepare text for an FTS5 column: normalise it, space out the characters of the scripts
    searched by character (CJK, Hangul, Thai …; each with its marks)."""
    normal = normalise(text)
    return normal if normal.isascii() else _UNIT.sub(r" \1 ", normal)


def query_terms(query: str, drop_stop_words: bool = True) -> list[str]:
    """Split a user query into search terms: words, and runs of a script searched by character
    (CJK, Hangul, Thai …) as pairs of characters (or one).

    The query is normalised as indexed text is (:func:`normalise`); stop words are dropped
    unless the query holds nothing else.
    """
    words: list[str] = []
    for token in _tokens(normalise(query)):
        if not token.isascii() and _IS_BY_CHARACTER.match(token):
            units = _UNIT.findall(token)
            if len(units) == 1:
                words.append(token)
            else:
                words.extend(units[i] + units[i + 1] for i in range(len(units) - 1))
        else:
            words.append(without_clitic(token.replace("’", "'").casefold()))
    if drop_stop_words:
        content = [word for word in words if word not in STOP_WORDS]
        if content:
            words = content
    return list(dict.fromkeys(words))


def _tokens(text: str) -> list[str]:
    """The words of ``text``, a compound that holds a digit kept whole: its parts alone
    ("11" of "2025-11", "4" of "GPT-4") would match any text with that number."""
    tokens: list[str] = []
    ascii_only = text.isascii()
    word = _TOKEN_ASCII if ascii_only else _TOKEN.compiled
    for token in (_COMPOUND_ASCII if ascii_only else _COMPOUND.compiled).findall(text):
        if _DIGIT.search(token) and not _by_character(token) and not word.fullmatch(token):
            tokens.append(token)
        else:
            tokens.extend(word.findall(token))
    return tokens


def without_clitic(word: str) -> str:
    """``ann's`` → ``ann``, ``we've`` → ``we``, ``O'Brien's`` → ``O'Brien``; other words as
    they are (``O'Brien``): only what follows the last apostrophe can be a clitic."""
    base, apostrophe, rest = word.rpartition("'")
    return base if apostrophe and rest.casefold() in _CLITICS else word


def content_terms(query: str) -> list[str]:
    """The terms of ``query`` that are no stop words: what a search can match on. A query of
    common words alone ("what is it?", "the") matches everything a little, so nothing."""
    return [term for term in query_terms(query, drop_stop_words=False) if term not in STOP_WORDS]


def searched_terms(query: str) -> list[str]:
    """The terms of ``query`` a search matches on, in query order: all of its
    :func:`query_terms`, or, past :data:`MAX_TERMS`, the most informative ones (module
    docstring): the terms of its questions, then the others, then pairs of characters holding
    a function character; within each group, when not all fit, half of what is kept comes from
    each end (the odd one from the end), so the middle goes first."""
    terms = query_terms(query)
    if len(terms) <= MAX_TERMS:
        return terms
    asked = _asked_terms(query)
    weak = [not _FUNCTION_CHARS.isdisjoint(term) for term in terms]  # only CJK terms hold one
    kept: list[int] = []
    for group in (
        [p for p, term in enumerate(terms) if term in asked and not weak[p]],
        [p for p, term in enumerate(terms) if term not in asked and not weak[p]],
        [p for p, is_weak in enumerate(weak) if is_weak],
    ):
        kept += _ends(group, MAX_TERMS - len(kept))
    return [terms[position] for position in sorted(kept)]


def _asked_terms(query: str) -> set[str]:
    """The terms of the questions in ``query`` (:func:`question_spans`)."""
    asked: set[str] = set()
    for start, end in question_spans(query):
        asked.update(query_terms(query[start:end]))
    return asked


def question_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each question of ``text``: a sentence (:func:`sentence_spans`)
    ending in a question mark (:data:`QUESTION_MARKS`), before any closing quote or bracket;
    of a longer one, its last :data:`QUESTION_MAX_CHARS` characters from a word's start."""
    spans = []
    for start, end in sentence_spans(text):
        if not text[start:end].rstrip().rstrip("\"'”’»)]").endswith(QUESTION_MARKS):
            continue
        if end - start > QUESTION_MAX_CHARS:
            start = word_start(text, end - QUESTION_MAX_CHARS, limit=end)
        spans.append((start, end))
    return spans


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence of ``text`` that holds more than spaces: up to and
    with a ``?`` or ``!`` that closes a word (not the ``?`` of a URL's query or of SQL's
    ``id = ?``), a ``。``, ``！``, ``？``, ``…``, ``؟`` or ``፧``, up to a full stop followed
    by a space (not the one inside "v2.11"), or up to a line break."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        if match.end() > start and text[start : match.end()].strip():
            spans.append((start, match.end()))
        start = max(start, match.end())
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def word_end(text: str, at: int) -> int:
    """``at``, moved back to the space before a word it would cut, when one is near."""
    if at <= 0 or at >= len(text) or text[at].isspace() or text[at - 1].isspace():
        return max(at, 0)
    before = text[max(at - WORD_REACH, 0) : at]
    spaces = [match.start() for match in _SPACE.finditer(before)]
    return at - len(before) + spaces[-1] if spaces else at


def word_start(text: str, at: int, limit: int | None = None) -> int:
    """``at``, moved on to the start of the next word when it would cut one and a space is
    near (before ``limit``)."""
    end = len(text) if limit is None else limit
    if at <= 0 or at >= end or text[at - 1].isspace():
        return min(max(at, 0), end)
    space = _SPACE.search(text, at, min(at + WORD_REACH, end))
    return space.end() if space else at


def _ends(positions: list[int], count: int) -> list[int]:
    """Up to ``count`` of ``positions``: all of them, or as many from their start as from their
    end (one more from the end on an odd count)."""
    if count >= len(positions):
        return positions
    if count <= 0:
        return []
    head = count // 2
    return positions[:head] + positions[len(positions) - (count - head) :]


def dropped_terms(query: str) -> list[str]:
    """The terms of ``query`` a search leaves out (past :data:`MAX_TERMS`, see
    :func:`searched_terms`), in query order; empty for all but the longest queries."""
    kept = set(searched_terms(query))
    return [term for term in query_terms(query) if term not in kept]


def match_expression(query: str, operator: str = "OR") -> str | None:
    """Turn a user query into a safe FTS5 MATCH expression of its :func:`searched_terms`;
    ``None`` when it has no terms."""
    terms = searched_terms(query)
    if not terms:
        return None
    return f" {operator} ".join(_phrase(term) for term in terms)


def _phrase(term: str) -> str:
    body = segment(term).strip() if not term.isascii() and _IS_BY_CHARACTER.match(term) else term
    return '"' + " ".join(body.split()).replace('"', '""') + '"'
