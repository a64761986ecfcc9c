"""Does a turn narrate something its speaker did or went through?

Questions put to a memory are mostly about experiences: "who did I go to the concert with?",
"when did Melanie paint the sunrise?", "how many rare items do I have?". The turn that answers
one tells what happened ("I went with Sarah", "I painted it last year", "I've got 12 rare
figurines"), while the turns around it that share its words plan, ask or advise ("I'm thinking
of going to a concert", "can you recommend a playlist?"). The raw turn ranking gives a turn that
narrates its speaker's own past a boost (``TurnWeights.experience``), the raw-turn
counterpart of the journal's ``experience`` kind.

A surface test, no parser: a first-person subject, at most one word between (an adverb: "I
finally went", "we also had"), then a past verb, regular or one of the common irregular ones,
or a present perfect ("I've been", "we have seen"). Polite frames and intentions ("I was
wondering if…", "I've been thinking of getting…") are requests and plans, not narration.
Chinese: 我 (我们) followed in the same clause by the aspect markers 了 or 过. Other languages
are never boosted.
"""

from __future__ import annotations

import re

_IRREGULAR_PAST = (
    "was were had did went got made took saw came gave found told left felt thought knew became "
    "began brought bought built caught chose drew drank drove ate fell fought flew forgot froze "
    "grew heard held hid hit hurt kept laid led lent let lit lost meant met paid put quit read "
    "rode rang rose ran said sold sent set shook shot showed shut sang sank sat slept spoke spent "
    "split spread stood stole stuck struck swam swore taught tore threw understood woke wore won "
    "wrote dug fed hung sought slid spun sprang wept withdrew overcame undertook"
).split()
_IRREGULAR_PARTICIPLE = (
    "been gone done had seen got gotten made taken come given found told left felt thought known "
    "become begun brought bought built caught chosen drawn drunk driven eaten fallen fought flown "
    "forgotten grown heard held kept led lost met paid put read ridden run said sold sent set "
    "shown sung sat slept spoken spent stood taught thrown understood won written worn"
).split()
# Words ending in "ed" that are not past tenses ("I need", "we proceed").
_NOT_PAST = "need|feed|seed|speed|bleed|breed|proceed|succeed|exceed|indeed|embed"
_REGULAR = rf"(?!(?:{_NOT_PAST})\b)[a-z]+ed"
_ADVERB = r"(?:[a-z]+\s+)?"
_SIMPLE_PAST = rf"\b(?:i|we)\s+{_ADVERB}(?:{_REGULAR}|{'|'.join(_IRREGULAR_PAST)})\b"
_PERFECT = (
    rf"\b(?:i['’]ve|i\s+have|we['’]ve|we\s+have)\s+{_ADVERB}"
    rf"(?:{_REGULAR}|{'|'.join(_IRREGULAR_PARTICIPLE)})\b"
)
_ENGLISH = re.compile(f"{_SIMPLE_PAST}|{_PERFECT}")
# "I was wondering", "we've really been hoping", "I have been considering": a request or a plan.
_REQUEST_FRAME = re.compile(
    r"\b(?:i|we)(?:['’]ve|\s+have)?\s+(?:[a-z]+\s+)?(?:was|were|been)\s+(?:[a-z]+\s+)?"
    r"(?:wondering|hoping|thinking|considering|meaning|planning)\b"
)
# 了解 "understand" is not the aspect marker; a clause ends at Chinese punctuation.
_CHINESE = re.compile(r"我们?[^，。！？；\n]{0,12}?(?:了(?!解)|过)")


def narrates_experience(text: str) -> bool:
    """True when ``text`` tells, in the first person, something that already happened."""
    if _CHINESE.search(text):
        return True
    lowered = text.lower()
    return any(
        not _REQUEST_FRAME.match(lowered, match.start()) for match in _ENGLISH.finditer(lowered)
    )
