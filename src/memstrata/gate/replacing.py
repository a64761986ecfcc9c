"""What says a statement replaces another in other words, or holds beside it.

:func:`memstrata.gate.relation.relate` compares the words two statements share; these read
what the words do: a role handed to another person ("Alice now leads the payments team" /
"Bob leads …"), a move ("Ann moved to Lisbon" / "Ann lives in Berlin"), what a statement
says it replaces ("tea instead of coffee"), what it says holds besides ("also", 也), a verb
that holds many values at once ("speaks French" / "speaks Spanish"), and
names put for names on the other side of the same "is" ("My car is a Honda Civic" / "… a
Toyota Corolla"). Each returns how the change is quoted in a reason, or ``""``. Pure
functions only.
"""

from __future__ import annotations

import re

from memstrata.gate import lexicon, lexicon_zh
from memstrata.gate.compare import quoted, spelled
from memstrata.gate.statements import Features, features_of, fold_word, opening_word

# what follows the marker up to a clause's end or the next part ("Vitest instead of *Jest* for
# tests"), which is said of the new one as much
_INSTEAD = re.compile(
    r"(?:\b(?:instead of|rather than|in place of|replacing)\s|代替|取代|替代|替换)"
    r"\s*([^,.;:!?()，。；：！？]+?)"
    r"(?=\s+(?:for|in|on|at|to|from|with|when|because|since|until)\b|[,.;:!?()，。；：！？]|$)",
    re.IGNORECASE,
)


def instead(a: Features, b: Features, own_a: frozenset[str]) -> str:
    """How ``a`` puts its own words in place of what it says ``b`` holds ("tea *instead of*
    coffee" against "drinks coffee"), or ``""``: all that follows the marker is said in
    ``b``, which says it without the marker, and ``a`` says something ``b`` does not."""
    ours = _INSTEAD.search(a.text)
    if ours is None or _INSTEAD.search(b.text) or lexicon.SET_AGAINST.search(b.text):
        return ""
    gone = features_of(ours.group(1))
    said = gone.words | gone.numbers
    marker = features_of(ours.group(0)[: ours.start(1) - ours.start()])
    new = own_a - said - marker.words
    if not said or not said <= b.words | b.numbers or not new:
        return ""
    return f"{ours.group(1).strip()} → {spelled(a, new)}"


def denied(a: Features, b: Features) -> str:
    """What one statement sets against the rest ("Indent with spaces*, never tabs*") when it
    is what the other says ("Indent with tabs"), as that one wrote it; else ``""``. The
    other sets nothing against it, and the first says something besides."""
    for one, other in ((a, b), (b, a)):
        tail = lexicon.SET_AGAINST.search(one.text)
        if tail is None or lexicon.SET_AGAINST.search(other.text) or _INSTEAD.search(other.text):
            continue
        gone = features_of(tail.group(1))
        said = gone.words | gone.numbers
        if said and said <= other.words | other.numbers and one.words - said - other.words:
            return spelled(other, said)
    return ""


def for_another(a: Features, b: Features) -> str:
    """What each statement says it holds *for*, when both name something of their own there
    ("Use 4 spaces *for Python*" / "Use 2 spaces *for YAML*"), as ``b`` / ``a`` write it; else
    ``""`` (and when ``a`` marks a change). A rule for one thing says nothing of a rule for
    another. Numbers are no such thing: "retained *for 30 days*" is how long."""
    if a.change_marked:
        return ""  # "… are *now* retained for 30 days": what it holds for changed
    ours = {word for word, part in a.placed if part in lexicon.SCOPES and word in a.words - b.words}
    theirs = {
        word for word, part in b.placed if part in lexicon.SCOPES and word in b.words - a.words
    }
    if not ours or not theirs:
        return ""
    return f"{spelled(b, theirs)} / {spelled(a, ours)}"


def fixed_for_life(a: Features, b: Features) -> bool:
    """Both statements say what is fixed once it happened (``lexicon.FIXED_FOR_LIFE``: born,
    a birthday, built in …), and ``a`` says neither that it corrects ``b`` ("actually") nor
    that something changed: another value is then no update."""
    fixed = lexicon.FIXED_FOR_LIFE
    if a.change_marked or lexicon.CORRECTION.search(a.text):
        return False
    return bool(fixed.search(a.text) and fixed.search(b.text))


def adds_to(a: Features, b: Features) -> str:
    """The word by which ``a`` says it holds besides what ``b`` says ("*also*", "*too*"),
    when ``b`` has none; else ``""``: "Ann also drinks coffee" replaces no "Ann drinks tea"."""
    pattern = lexicon_zh.ZH_ADDING if a.cjk and b.cjk else lexicon.ADDING
    ours = pattern.search(a.text)
    if ours is None or pattern.search(b.text):
        return ""
    return ours.group(0)


def holds_many(a: Features, b: Features) -> str:
    """The verb, as ``a`` writes it, by which both statements relate their subject to one of
    many values at once ("I *speak* French" / "I speak Spanish", "Ann is *allergic* to nuts" /
    "… to shellfish"), so that a new value says more rather than something else; ``""`` when
    ``a`` marks a change ("Ann now plays tennis") or the verb is not of ``lexicon.MANY_VALUED``
    nor one in the simple past (what happened stays happened: "Bob *bought* a bike" / "a
    laptop").

    The verb is what puts the value: one of the two words before the first word a statement
    has of its own ("The billing service *depends* on Postgres", "Sara *likes* Thai boxing"),
    not a word further off ("Ann, who studies law, lives in Munich"). Values that exclude each
    other ("likes the *dark* theme" / "the *light* theme") are one choice changed."""
    if a.change_marked or a.cjk != b.cjk or _exclusive(a, b) or adds_to(a, b):
        return ""  # "also" is the reason then: "says it besides"
    if a.cjk:
        return _han_holds_many(_han_plain(a.text), _han_plain(b.text))
    ours, theirs = _before_value(a, b), _before_value(b, a)
    for word, written in ours.items():
        if written in lexicon.MANY_VALUED and theirs.get(word, "") in lexicon.MANY_VALUED:
            return written
        if _happened(written, a.text) and _happened(theirs.get(word, ""), b.text):
            return written  # "Bob bought a bike" / "Bob bought a laptop": both happened
    alongside = _alongside(a, b)
    if alongside and alongside == _alongside(b, a):
        return alongside
    return ""


def _happened(written: str, text: str) -> bool:
    """``written`` is a verb in the simple past, active ("Ann *painted* a lake"), not a
    passive's participle ("was *scheduled* for Monday") nor one describing a thing ("the
    *preferred* language"), which say how a thing stands."""
    if not written or written in lexicon.NOT_PAST:
        return False
    if written not in lexicon.PAST_VERBS and not (written.endswith("ed") and len(written) > 3):
        return False
    passive = rf"\b(?:is|are|was|were|be|been|being|get|gets|got)\s+(?:\w+\s+)?{written}\b"
    # after a determiner it describes a thing: "the user's *preferred* language"
    described = rf"(?:'s|\b(?:the|an?|my|our|your|his|her|their|its))\s+{written}\b"
    return not any(re.search(form, text, re.IGNORECASE) for form in (passive, described))


def _alongside(a: Features, b: Features) -> str:
    """The part (``lexicon.ALONGSIDE``) in which ``a`` names one of its own, or ``""``:
    "works *with* Carol" against "works with Bob"."""
    names = {word for word, named in a.sequence if named}
    for word, part in a.placed:
        if part in lexicon.ALONGSIDE and word in names and word not in b.words:
            return part
    return ""


_EXCLUSIVE = frozenset(
    frozenset(fold_word(word) for word in pair) for pair in lexicon.EXCLUSIVE_VALUES
)


def _exclusive(a: Features, b: Features) -> bool:
    """One side's own word and the other's are values that exclude each other."""
    if a.cjk:
        pairs = lexicon_zh.ZH_EXCLUSIVE_VALUES
        own_a, own_b = set(a.text) - set(b.text), set(b.text) - set(a.text)
    else:
        pairs, own_a, own_b = _EXCLUSIVE, a.words - b.words, b.words - a.words
    return any(frozenset((x, y)) in pairs for x in own_a for y in own_b)


def _han_holds_many(a: str, b: str) -> str:
    """The verb of ``lexicon_zh.ZH_MANY_VALUED`` both statements open alike with, the values
    after it ("小李会说法语" / "小李会说西班牙语"), or a verb of a thing done, with 了 ("小明买了
    一辆自行车" / "…一台笔记本"), or 过敏 of "对…过敏" after the same words."""
    same = a[: next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(b))]
    verb = lexicon_zh.ZH_MANY_VALUED.search(same)
    if verb is not None:
        return verb.group(0)
    done = re.search(r"[^\s，。,]了", same)
    if done is not None:
        return done.group(0)  # "我去了巴黎" / "我去了罗马": a thing done, as in English
    if (
        same.endswith("对")
        and lexicon_zh.ZH_ALLERGIC.search(a)
        and lexicon_zh.ZH_ALLERGIC.search(b)
    ):
        return "过敏"
    return ""


def _before_value(features: Features, other: Features) -> dict[str, str]:
    """The words of ``features`` that may put its first word ``other`` lacks, each with how it
    is written: the two before it ("*likes* Thai boxing"), or the one right before it when a
    preposition puts it ("allergic *to* nuts", not "writes its models *in* C"), and the one
    right after it ("a peanut *allergy*")."""
    words = [word for word, _ in features.sequence]
    first = next((at for at, word in enumerate(words) if word not in other.words), len(words))
    parts = dict(features.placed)
    reach = 1 if first < len(words) and parts.get(words[first], "") else 2
    near = words[max(0, first - reach) : first] + words[first + 1 : first + 2]
    return {word: _as_written(features, word) for word in near}


def _as_written(features: Features, word: str) -> str:
    """The first place ``word`` (folded) was written, lower-cased: "Speaks" for ``talk``."""
    return next(iter(quoted(features, {("word", word)})), "").lower()


def holder_changed(a: Features, b: Features) -> str:
    """How ``b`` and ``a`` name the one who holds a role, when ``a`` hands it to another: the
    same statement opening with another name, of a role one holds at a time ("Bob leads the
    payments team" / "Alice now leads the payments team", "Marco is the tech lead for Orion" /
    "Dana is the tech lead for Orion"); else ``""``.

    A role is a copula before "the", or, with a change marked in ``a``, before "our" ("Priya
    is now our CTO") or a verb of ``lexicon.ONE_HOLDER_VERBS``: "Alice now likes the team"
    says nothing of Bob. ``a`` may go on to say what became of the old holder ("…, Bob moved
    to infra"); "also" or "too" keeps both."""
    if a.cjk or b.cjk or a.relatives or lexicon.ADDING.search(a.text):
        return ""
    named_a, named_b = _opening_names(a), _opening_names(b)
    if not named_a or not named_b or named_a == named_b:
        return ""
    rest_a, rest_b = a.placed[len(named_a) :], b.placed[len(named_b) :]
    if not rest_b or rest_a[: len(rest_b)] != rest_b:
        return ""
    said_after = {value for value, _ in rest_a[len(rest_b) :]}
    if said_after and not set(named_b) <= said_after:
        return ""  # a says more, and not of the old holder: another statement
    if a.copula == len(named_a) and b.copula == len(named_b):
        article = _after_copula(a.text)
        held = article in lexicon.DEFINITE or (a.change_marked and article in lexicon.POSSESSIVES)
    else:
        held = a.change_marked and rest_b[0][0] in lexicon.ONE_HOLDER_VERBS
    if not held:
        return ""
    return f"{spelled(b, set(named_b))} → {spelled(a, set(named_a))}"


def moved(a: Features, b: Features) -> str:
    """Where ``b`` and ``a`` say one lives, when ``a`` moved there or lives there and the two
    places differ ("Ann lives in Berlin" / "Ann moved to Lisbon", "We relocated to Porto" /
    "We are based in Lisbon"); else ``""``. Both open alike before the verb, each place is
    a name (not one of something else: "the Lisbon office"), ``b`` does not name ``a``'s
    (it may be where ``a`` moved from); a date or number either side adds changes nothing."""
    if a.cjk and b.cjk:
        return _han_moved(a, b)
    if a.cjk or b.cjk:
        return ""
    ours, theirs = _place_lived(a), _place_lived(b)
    if ours is None or theirs is None:
        return ""
    (opening_a, verb_a, place_a), (opening_b, verb_b, place_b) = ours, theirs
    if opening_a != opening_b or verb_a == verb_b:
        return ""  # the same verb: one value put for another, read as such
    if not opening_a and _speaker(a.text) != _speaker(b.text):
        return ""  # "They moved to Porto" / "I live in Lisbon": a pronoun is no content word
    if set(place_a) & b.words:
        return ""  # "lives in Lisbon" / "moved to Lisbon": no other place
    return f"{spelled(b, set(place_b))} → {spelled(a, set(place_a))}"


def _speaker(text: str) -> str:
    """Who opens ``text``, "we" counting as "I" ("We moved to Denver" moves the speaker)."""
    word = opening_word(text)
    return "i" if word == "we" else word


def _han_moved(a: Features, b: Features) -> str:
    """``moved`` for Chinese: "我住在北京" / "我搬到上海了" (both open alike before the verb)."""
    ours = lexicon_zh.ZH_MOVED.search(a.text) or lexicon_zh.ZH_LIVES.search(a.text)
    theirs = lexicon_zh.ZH_MOVED.search(b.text) or lexicon_zh.ZH_LIVES.search(b.text)
    if ours is None or theirs is None or ours.re is theirs.re:
        return ""
    if _han_who(a.text[: ours.start()]) != _han_who(b.text[: theirs.start()]):
        return ""
    place_a, place_b = ours.group(1), theirs.group(1)
    if place_a in b.text or place_b.startswith(place_a) or place_a.startswith(place_b):
        return ""
    return f"{place_b} → {place_a}"


def _han_who(opening: str) -> str:
    """Who a Chinese statement opens with, without when ("我去年" → 我) and 我们 as 我 (the
    speaker is one of us, as "we" holds "I")."""
    who = lexicon_zh.ZH_WHEN.sub("", opening).strip(" ，,")
    return "我" if who == "我们" else who


_HAN_HOLDER = "|".join(lexicon_zh.ZH_ONE_HOLDER)
_HAN_PASSIVE = re.compile(rf"^(?P<what>.+?)由(?P<who>.+?)(?:{_HAN_HOLDER})(?P<rest>.*)$")
_HAN_ACTIVE = re.compile(rf"^(?P<who>.+?)(?:{_HAN_HOLDER})(?P<what>.+)$")
_HAN_IN_CHARGE = re.compile(r"^(?P<who>.+?)是(?P<what>.*负责人)$")


def han_holder_changed(a: Features, b: Features) -> str:
    """How ``b`` and ``a`` name who holds a role, when ``a`` hands it to another: with a
    change marked, in active or passive form ("小李现在负责支付服务" / "支付服务由小王负责",
    "张伟现在负责支付团队" / "李娜负责支付团队"), or as *the* one in charge, "是…负责人" in both
    ("王芳是项目负责人" / "陈明是项目负责人"); else ``""``."""
    if not (a.cjk and b.cjk) or lexicon_zh.ZH_ADDING.search(a.text):
        return ""
    ours, theirs = _han_role_of(a.text), _han_role_of(b.text)
    if ours is None or theirs is None or ours[1] != theirs[1] or ours[0] == theirs[0]:
        return ""
    in_charge = all(_HAN_IN_CHARGE.match(_han_plain(side.text)) for side in (a, b))
    if not (a.change_marked or in_charge):
        return ""
    return f"{theirs[0]} → {ours[0]}"


def _han_plain(text: str) -> str:
    """The statement without when, a closing 了 and stops: "我去年搬到了深圳。" → 我搬到了深圳."""
    plain = lexicon_zh.ZH_WHEN.sub("", text).strip().rstrip("。.!！")
    return re.sub(r"了$", "", plain).strip()


def _han_role_of(text: str) -> tuple[str, str] | None:
    """``(who, what)`` of "X是Y负责人", "X负责Y" or "Y由X负责", without when and stops."""
    plain = _han_plain(text)
    match = _HAN_IN_CHARGE.match(plain)
    if match:
        return match["who"].strip(), match["what"]
    match = _HAN_PASSIVE.match(plain)
    if match:
        what = (match["what"] + match["rest"]).strip(" ，,")
        return match["who"].strip(), what
    match = _HAN_ACTIVE.match(plain)
    if match:
        return match["who"].strip(), match["what"].strip(" ，,")
    return None


def _place_lived(features: Features) -> tuple[tuple[str, ...], str, tuple[str, ...]] | None:
    """What opens the statement before a verb of where one lives, the verb, and the name of
    the place after its preposition ("Ann Weber | lives | in New York"); ``None`` if none."""
    names = {fold_word(name) for name in features.names}
    placed = features.placed
    for at, (value, _) in enumerate(placed):
        preposition = lexicon.WHERE_ONE_LIVES.get(value)
        if preposition is None:
            continue
        after = placed[at + 1 :]
        if after and after[0][1] == "from":  # "moved *from Berlin* to Lisbon"
            after = after[1:]
            while after and not after[0][1] and after[0][0] in names:
                after = after[1:]
        if not after or after[0][1] != preposition or after[0][0] not in names:
            return None
        place = [after[0][0]]
        for word, part in after[1:]:
            if part or word not in names:
                if not part and word in features.words and word not in lexicon.TIME_WORDS:
                    return None  # "moved to the Lisbon *office*": a name of something else
                break
            place.append(word)
        return tuple(word for word, _ in placed[:at]), value, tuple(place)
    return None


def named_otherwise(a: Features, b: Features) -> str:
    """How ``b`` and ``a`` name what the same thing is, or ``""``: the same side of "is" in
    both, and on the other side names only, none shared ("My car is a Honda Civic" / "My car
    is a Toyota Corolla"). Long names would else outweigh the one word the two share. Not of
    a relative: "My sister is Ann" / "My sister is Eve" may be two sisters."""
    if a.cjk or b.cjk or a.copula < 1 or b.copula < 1 or a.relatives or b.relatives:
        return ""
    if a.placed[: a.copula] != b.placed[: b.copula]:
        return ""
    ours = {value for value, _ in a.placed[a.copula :]}
    theirs = {value for value, _ in b.placed[b.copula :]}
    names = {fold_word(name) for name in a.names | b.names}
    if not ours or not theirs or ours & theirs or not (ours | theirs) <= names:
        return ""
    return f"{spelled(b, theirs)} → {spelled(a, ours)}"


def _opening_names(features: Features) -> tuple[str, ...]:
    """The names a statement opens with ("*Ann Weber* leads …", "*Dana* is the CTO"), folded."""
    names: list[str] = []
    opening = features.sequence[: features.copula] if features.copula >= 0 else features.sequence
    for word, name in opening:
        if not name:
            break
        names.append(word)
    placed = tuple(value for value, _ in features.placed[: len(names)])
    return tuple(names) if placed == tuple(names) else ()


_AFTER_COPULA = re.compile(
    r"\b(?:is|are|was|were)\s+(?:(?:now|currently|still)\s+)?([^\W\d_]+)", re.IGNORECASE
)


def _after_copula(text: str) -> str:
    """The word after the first "is" (and "now"), folded: "the" in "Dana is now the lead"."""
    match = _AFTER_COPULA.search(text)
    return match.group(1).casefold() if match else ""
