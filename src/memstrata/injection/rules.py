"""The rule table of the injection detector: vocabulary, and one rule per pattern.

Rules are data: :mod:`memstrata.injection` holds the engine that folds text, finds where
rules can start, matches them and scores the hits (the scoring is described there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memstrata.lazy_pattern import LazyPattern

WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")


@dataclass(frozen=True, slots=True)
class Rule:
    """One detection rule: a regex, where its matches may start, and how a hit counts."""

    name: str
    family: str
    weight: float
    pattern: LazyPattern
    word_starts: tuple[str, ...]  # a match starts with one of these at a word start ...
    other_starts: tuple[str, ...]  # ... or with one of these anywhere ...
    line_heads: frozenset[str]  # ... or at a line whose first word ("#" for a heading) is one
    cjk: bool  # starts only in Chinese: skipped for text without CJK characters
    lead: bool  # a bare imperative: must start a clause
    mentionable: bool  # discounted when quoted in prose about injection
    in_code: bool  # discounted inside code fences and inline code
    doc_aware: bool  # discounted when aimed at a named document
    before: LazyPattern | None  # must also occur earlier in the clause ...
    after: LazyPattern | None  # ... or later in it


def _rule(
    name: str,
    family: str,
    weight: float,
    starts: str,
    pattern: str,
    *,
    lead: bool = False,
    mentionable: bool = True,
    in_code: bool = False,
    doc_aware: bool = False,
    before: str = "",
    after: str = "",
) -> Rule:
    """A rule whose matches begin with one of ``starts``: ``"a|b"``, or ``"^a|b"`` for a line
    whose first word is ``a`` or ``b`` (``"^#"``: a Markdown heading).

    With ``before`` or ``after``, a match counts only when one of them also matches in the same
    clause: ``before`` anywhere in the preceding 80 characters, ``after`` in the following 60.
    """
    first = tuple(starts.removeprefix("^").split("|"))
    line_heads = frozenset(first) if starts.startswith("^") else frozenset()
    word_starts = (
        () if line_heads else tuple(s for s in first if s.isascii() and s[0] in WORD_CHARS)
    )
    other_starts = () if line_heads else tuple(s for s in first if s not in word_starts)
    branches = (branch.removeprefix(r"\b") for branch in _top_level_branches(pattern))
    compiled = LazyPattern("|".join(branches), re.MULTILINE)
    cjk = not any(start.isascii() for start in first)
    return Rule(
        name,
        family,
        weight,
        compiled,
        word_starts,
        other_starts,
        line_heads,
        cjk,
        lead,
        mentionable,
        in_code,
        doc_aware,
        LazyPattern(before) if before else None,
        LazyPattern(after) if after else None,
    )


def _top_level_branches(pattern: str) -> list[str]:
    """Split a regex at its top-level ``|`` (outside groups and character classes)."""
    branches, depth, start, in_class, i = [], 0, 0, False, 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "|" and depth == 0:
            branches.append(pattern[start:i])
            start = i + 1
        i += 1
    branches.append(pattern[start:])
    return branches


# --- vocabulary ---------------------------------------------------------------------------------

_OVERRIDE_VERB = (
    r"(?:ignore|disregard|forget(?:\s+about)?|skip|bypass|override|overrule|discard|abandon|"
    r"drop|dismiss|neglect|scrap|erase|cancel|set\s+aside|throw\s+out|"
    r"(?:do\s+not|don't|never|no\s+longer)\s+(?:follow|obey|heed|listen\s+to)|"
    r"stop\s+(?:following|obeying|listening\s+to)|pay\s+no\s+(?:attention|heed)\s+to)"
)
_PRIOR = (
    r"(?:previous(?:ly\s+\w+)?|prior|above|preceding|earlier|former|foregoing|past|original|"
    r"initial|old(?:er)?|existing|current|default|given|provided|system|developer|safety|"
    r"pre-?set|programmed|hidden|built-?in|core|standing|baseline|ethical)"
)
_NOUN = (
    r"(?:instructions?|prompts?|directions|directives?|rules|guidelines|commands|guardrails?|"
    r"constraints|restrictions|orders|programming|policies|system\s+prompt|training|"
    r"configuration|limitations|guidance|filters|safeguards|safety\s+(?:features|measures|"
    r"settings|checks)|content\s+polic(?:y|ies)|moderation)"
)
_WEAK_NOUN = r"(?:context|messages?|conversation|text|content|input|settings)"
# What a model is told, as opposed to constraints any system has ("the old guardrails").
_ORDER_NOUN = (
    r"(?:instructions?|prompts?|directives?|directions|rules|guidelines|programming|"
    r"system\s+prompt|guidance)"
)
# A reference to the reader's own instructions ("your rules", "the previous instructions",
# "the rules you were given", "what the system told you").
_INSTRUCTIONS = (
    rf"(?:your|its|the\s+(?:ai|assistant|model)'s)\s+(?:[\w-]+\s+){{0,2}}?{_NOUN}\b|"
    rf"(?:the\s+)?(?:developer's|system's|{_PRIOR})\s+(?:[\w-]+\s+){{0,1}}?"
    rf"(?:{_ORDER_NOUN}|system\s+messages?|messages\s+from\s+the\s+system)\b|"
    rf"{_NOUN}\s+(?:(?:that\s+)?you\s+(?:were|have\s+been|'ve\s+been)\s+(?:given|told|taught|"
    r"trained\s+(?:on|with)|configured\s+with|set\s+up\s+with|programmed\s+with|built\s+with)|"
    r"you\s+(?:received|got|follow|operate\s+under)|above|before\s+this|so\s+far)\b|"
    r"what(?:ever)?\s+(?:the\s+system|the\s+developers?|your\s+(?:developers?|creators?|"
    r"operators?)|you\s+(?:were|have\s+been|'ve\s+been))\s+(?:told|instructed|taught|given|"
    r"said)(?:\s+you)?\b|"
    r"everything\s+(?:that\s+)?you\s+(?:were|have\s+been|'ve\s+been)\s+(?:told|instructed|"
    r"taught|given)\b|(?:the\s+)?system\s+(?:prompt|messages?|instructions)\b"
)
_S_INSTRUCTIONS = (
    "your|its|the ai|the assistant|the model|developer's|system's|previous|prior|above|preceding|"
    "earlier|former|foregoing|past|original|initial|old|existing|current|default|given|provided|"
    "system|developer|safety|preset|pre-set|programmed|hidden|built|core|standing|baseline|"
    "ethical|instruction|prompt|direction|directive|rule|guideline|command|guardrail|constraint|"
    "restriction|order|programming|polic|training|configuration|limitation|guidance|filter|"
    "safeguard|content|moderation|what|everything"
)
# Before the reference, in the same clause: a verb that sets it aside.
_OVERRIDE_BEFORE = (
    r"\b(?:ignor|disregard|forget|forgot|skip|bypass|overrid|overrul|overlook|omit|discard|"
    r"abandon|drop|dismiss|neglect|scrap|erase|wip|reset|cancel|revok|nullif|void|replac|rewrit|"
    r"overwrit|swap\s+out|substitut|disabl|turn\s+off|switch\s+off|"
    r"throw\s+out|look\s+past|pay\s+no\s+(?:attention|heed|mind)\s+to|"
    r"(?:do\s+not|don't|never|stop|no\s+longer|quit)\s+(?:follow|obey|heed|listen(?:ing)?\s+to|"
    r"apply|appl|us))"
)
# After it: set aside, put on hold, declared void, "no longer applies", "were a test".
_OVERRIDE_AFTER = (
    r"^[^.!?\n;]{0,30}?\b(?:aside|on\s+hold|as\s+(?:void|null|invalid|obsolete|outdated|"
    r"irrelevant|optional|suggestions|non-?binding)|(?:is|are|were|was|have\s+been|has\s+been)\s+"
    r"(?:now\s+|hereby\s+|officially\s+)?(?:void|null|revoked|cancell?ed|invalid|obsolete|"
    r"outdated|superseded|overridden|suspended|lifted|(?:just\s+)?a\s+test|fake|wrong|not\s+real|"
    r"no\s+longer\s+(?:valid|in\s+effect|applicable|active)|optional|(?:mere\s+|just\s+)?"
    r"suggestions|not\s+binding|non-?binding)|no\s+longer\s+appl(?:y|ies)|cancell?ed|revoked|"
    r"null\s+and\s+void|"
    r"(?:don't|do\s+not|doesn't|does\s+not)\s+(?:apply|matter|count)\s+any\s?more|"
    r"(?:don't|do\s+not|doesn't|does\s+not|no\s+longer)\s+(?:apply|matter|count)\s+(?:here|now|"
    r"to\s+you|in\s+this\s+(?:chat|conversation|session|document))|(?:have|has)\s+(?:now\s+)?"
    r"(?:been\s+)?(?:changed|updated|replaced|rewritten|modified|revised|reset))\b"
)
# The reader's own prompt, rules files or context, as something to be shown.
_OWN_PROMPT = (
    r"your\s+(?:[\w-]+\s+){0,2}?(?:instructions|rules|guidelines|directives|prompt|preamble|"
    r"configuration|programming|context(?:\s+window)?|soul\.md|memory\.md|identity\.md|user\.md|"
    r"rules\s+files?|developer\s+message)\b|"
    r"(?:the\s+)?(?:system\s+(?:prompt|message|instructions)|(?:hidden|secret|initial|original|"
    r"internal)\s+(?:preamble|prompt|instructions|rules|guidelines)|pre-?prompt|developer\s+"
    r"(?:message|prompt|instructions)|context\s+window|soul\.md|identity\.md)\b|"
    r"(?:rules|guidelines|instructions|directives|policies|constraints|prompt|preamble)\s+"
    r"(?:that\s+)?you\s+(?:are\s+following|follow|were\s+given|have\s+been\s+given|received|"
    r"operate\s+under|must\s+follow|obey)\b"
)
_S_OWN_PROMPT = (
    "your|system|hidden|secret|initial|original|internal|pre|developer|context|soul.md|"
    "identity.md|rules|guidelines|instructions|directives|policies|constraints|prompt|preamble"
)
_REVEAL_BEFORE = (
    r"\b(?:reveal|print|show|display|output|repeat|recite|leak|dump|expose|disclose|echo|"
    r"tell\s+me|give\s+me|share|paste|write\s+out|spell\s+out|copy|list|summari[sz]e|translate|"
    r"quote|type\s+out|send\s+me|read\s+(?:me|out|back)|what\s+(?:is|are|was|were|does|do|did))\b"
)
_QUANT = r"(?:(?:all|any|each|every|the|of|these|those|such|that|this)\s+){0,3}"
_FUTURE = (
    r"(?:from\s+now\s+on|from\s+this\s+(?:point|moment)\s+(?:on|onwards?|forward)|"
    r"henceforth|hereafter|going\s+forward|starting\s+(?:now|immediately|today|with\s+this)|"
    r"from\s+here\s+on(?:wards?)?|as\s+of\s+now|"
    r"for\s+the\s+rest\s+of\s+(?:this|the)\s+(?:conversation|session|chat))"
)
AI = (
    r"(?:ai|a\.i\.|assistant|llm|language\s+model|chatbot|bot|gpt|chatgpt|claude|gemini|"
    r"copilot|model|agent)"
)
_ZH_OVERRIDE = (
    r"(?:忽略|忽视|无视|忘记|忘掉|忘了|不要理会|不用理会|不要管|别管|抛开|抛弃|丢弃|放弃|跳过|"
    r"绕过|覆盖|推翻|不再遵守|不要遵守|停止遵守|不必遵守|不要遵循|不再遵循)"
)
_ZH_PRIOR = (
    r"(?:之前|以前|上面|上述|前面|先前|此前|原有|原来|原先|所有|全部|一切|你的|您的|系统|默认|"
    r"初始|最初|早先|既定|预设)"
)
_ZH_NOUN = (
    r"(?:指令|指示|提示词|提示|规则|设定|要求|命令|约束|限制|规定|守则|准则|安全策略|系统提示|编程)"
)
_ZH_FUTURE = (
    r"(?:从现在开始|从现在起|从今以后|从今天起|从此以后|从这条消息开始|从这一刻起|从此刻起|现在起|"
    r"即日起|自此|今后|以后|接下来|此后)"
)

# Start strings shared by several rules.
_S_OVERRIDE = (
    "ignor|disregard|forget|skip|bypass|overrid|overrul|discard|abandon|drop|dismiss|neglect|"
    "scrap|erase|cancel|set aside|throw out|do not|don't|never|no longer|stop|pay no"
)
_S_ZH_OVERRIDE = "忽略|忽视|无视|忘|不要|不用|别管|抛|丢弃|放弃|跳过|绕过|覆盖|推翻|不再|停止|不必"
_S_REVEAL = (
    "reveal|print|show|display|output|repeat|recite|leak|dump|expose|disclose|echo|tell|give|"
    "share|paste|write|spell|copy|list|summari|translate|send"
)
_S_FUTURE = "from|henceforth|hereafter|going|starting|for the rest|as of now"
_S_ZH_FUTURE = "从现在|从今|从此|从这|现在起|即日起|自此|今后|以后|接下来|此后"
_S_RESPOND = "respond|reply|answer|talk|speak|write|communicat"
_S_EVERY = (
    "in every|in each|in all|in any|in the rest|for every|for each|for all|for any|"
    "for the rest|with every|with each|with all|with any|to every|to each|to all|to any"
)
_S_DESTROY = "delete|remove|wipe|erase|encrypt|corrupt|overwrite|destroy|删除|清空|销毁"
_S_AI = "ai|a.i.|assistant|llm|language|chatbot|bot|gpt|chatgpt|claude|gemini|copilot|model|agent"
# A word that can open an order (not an article, pronoun, auxiliary or pleasantry).
_IMPERATIVE = (
    r"(?!(?:the|a|an|this|that|these|those|it|its|we|i|they|he|she|there|our|my|their|his|her|"
    r"is|are|was|were|has|have|had|will|can|could|should|would|may|might|and|or|but|so|if|see|"
    r"for|re|fyi|not|no|yes|nice|great|thanks|thank|ok|okay|good|\d)\b)[a-z]{2,}"
)
# Verbs that open an order to the reader, after "Assistant, …" or "AI agent: …".
_ORDER_VERB = (
    r"(?:ignore|disregard|forget|reveal|print|show|tell|send|forward|email|delete|remove|approve|"
    r"add|append|write|include|say|respond|reply|answer|stop|do|don't|never|always|remember|make|"
    r"give|list|output|summari[sz]e|open|visit|run|execute|buy|order|transfer|pretend|act|switch|"
    r"enter|enable|disable|grant|rate|rank|mark|follow|obey|translate|insert|update|change|set|"
    r"use|recommend|praise|from\s+now\s+on|you\s+(?:must|will|should|are)|(?:when|whenever|if|"
    r"before|after|once)\s+you)\b"
)
# Who an instruction to the reader is addressed to.
_ADDRESSEE = (
    r"(?:ai|a\.i\.|llm|language\s+model|gpt|chatgpt|claude|gemini|copilot|chatbot|bot|model|"
    r"agent|assistant)s?(?:\s+(?:assistant|agent|model|bot)s?)?|automated\s+(?:\w+\s+)?(?:tools?|"
    r"systems?|screeners?|reviewers?|readers?|agents?|assistants?|bots?|parsers?)|"
    r"@(?:copilot|claude|codex|devin|cursor|gemini|chatgpt)"
)

# One rule a line or three, in a table; the formatter would give each argument its own line.
# fmt: off
RULES: tuple[Rule, ...] = (
    # -- override: set aside what the reader was told --------------------------------------------
    _rule("override-instructions", "override", 0.9, _S_INSTRUCTIONS,
        _INSTRUCTIONS,
        before=_OVERRIDE_BEFORE, after=_OVERRIDE_AFTER, doc_aware=True),
    _rule("override-constraints", "override", 0.45, _S_INSTRUCTIONS,
        rf"(?:the\s+)?(?:{_PRIOR})\s+(?:[\w-]+\s+){{0,1}}?(?:guardrails?|constraints|restrictions|"
        r"orders|policies|training|configuration|limitations|commands)\b",
        before=_OVERRIDE_BEFORE, after=_OVERRIDE_AFTER, doc_aware=True),
    _rule("override-nothing-matters", "override", 0.8, "nothing|none",
        r"(?:nothing|none\s+of\s+what)\s+(?:that\s+)?you\s+(?:were|have\s+been|'ve\s+been)\s+"
        r"(?:told|instructed|taught|given)[^.\n]{0,30}?\b(?:matters|applies|counts|is\s+binding)\b"),
    _rule("override-sloppy", "override", 0.8, "ign|ingor|disreg|forg",
        r"(?:ign?or\w*|ingor\w*|disreg\w*|forg[eo]t\w*)\s+(?:(?:all|any|the|of|da|teh|those|"
        r"these)\s+){0,3}(?:(?:ur|yr|ya|your)\s+(?:(?:prev\w*|prior\w*|old|earlier|orig\w*)\s+)?|"
        r"(?:prev\w*|prior\w*|earlier|orig\w*)\s+)(?:instr\w*|inst\w*ions?|rules?|prompt\w*|"
        r"guidel\w*|programm?ing)\b",
        doc_aware=True),
    _rule("override-all-instructions", "override", 0.7, _S_OVERRIDE,
        rf"{_OVERRIDE_VERB}\s+(?:all|any|every)\s+(?:(?:of\s+)?(?:the|your|these)\s+)?"
        r"(?:other\s+)?(?:instructions?|prompts?|directives?|guidelines|guardrails|restrictions|"
        r"constraints)\b",
        doc_aware=True),
    _rule("override-context", "override", 0.5, _S_OVERRIDE,
        rf"{_OVERRIDE_VERB}\s+{_QUANT}{_PRIOR}\s+{_WEAK_NOUN}\b",
        doc_aware=True),
    _rule("override-everything", "override", 0.85, "ignor|disregard|forget",
        r"(?:ignore|disregard|forget)\s+(?:everything|anything|all(?:\s+that)?|what(?:ever)?)\s+"
        r"(?:(?:written|said|stated|mentioned|i\s+said)\s+)?(?:above|before\s+this|previously|"
        r"earlier|prior\s+to\s+this|so\s+far|up\s+to\s+(?:now|this\s+point))"),
    _rule("override-the-above", "override", 0.75, "ignor|disregard|forget",
        r"(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:above|preceding|foregoing)"
        r"(?=\s*(?:[.,;:!\n]|and\b|instead\b|then\b|$))"),
    _rule("override-zh-pair", "override", 0.85,
        "系统|开发者|你的|您的|你被|之前|以前|先前|此前|上面|前面|原来|原有|最初|初始|你之前|给你的",
        r"(?:(?:系统|开发者)(?:给你的|给您的|设定的|的)?|你的|您的|你被设置的|给你的|"
        r"你之前(?:学到的|收到的)?|(?:之前|以前|先前|此前|上面|前面|原来|原有|最初|初始)"
        r"(?:收到的|给你的|给出的|学到的|的)?)(?:一切|所有|全部)?(?:的)?(?:原始|原来|初始|最初|原有|"
        r"之前的|以前的)?(?:设定|指令|指示|提示词?|规则|限制|要求|规矩|约束|规定|命令|"
        r"安全规则|安全限制|准则)",
        before=r"(?:忽略|忽视|无视|忘记|忘掉|忘了|不用管|不要管|别管|不要理会|不用理会|抛开|抛弃|丢弃|"
        r"放弃|跳过|绕过|覆盖|推翻|不再遵守|不要遵守|停止遵守|不必遵守|不要遵循|不再遵循)",
        after=r"^.{0,8}?(?:全部|都|统统|一律)?(?:作废|无效|失效|不算数|不再适用|取消|作罢|不用管了|"
        r"可以忽略|不重要|变了|改变了|更新了|更改了|换了|被替换)"),
    _rule("override-zh", "override", 0.9, _S_ZH_OVERRIDE,
        rf"{_ZH_OVERRIDE}.{{0,6}}?{_ZH_PRIOR}.{{0,8}}?{_ZH_NOUN}"),
    # -- reveal: the reader's own prompt and rules -----------------------------------------------
    _rule("reveal-instructions", "reveal", 0.7, _S_OWN_PROMPT,
        _OWN_PROMPT,
        before=_REVEAL_BEFORE),
    _rule("reveal-words-above", "reveal", 0.7, "repeat|above|previous",
        r"repeat\s+(?:the\s+|all\s+)?(?:words|text|everything|lines|sentences|content)\s+"
        r"(?:above|before)|(?:above|previous)\s+(?:text|prompt|instructions)\s+verbatim\b"),
    _rule("reveal-zh-pair", "reveal", 0.7, "你的|您的|你被|系统|初始|原始|隐藏|预设|全部|所有",
        r"(?:你的|您的|你被设置的)(?:所有|全部)?(?:的)?(?:系统提示词?|提示词|指令|规则|设定)|"
        r"(?:系统提示词?|系统指令|初始指令|原始指令|隐藏指令|预设指令|初始提示词?|全部指令|所有指令)",
        before=r"(?:显示|输出|打印|告诉我|泄露|透露|重复|复述|给我看|展示|说出|公开|发给我|列出|复制|"
        r"把|将)",
        after=r"^.{0,12}?(?:显示|输出|打印|泄露|透露|重复|复述|给我看|展示|说出|公开|发给我|复制|"
        r"是什么|原样)"),
    # -- persona: become someone else ------------------------------------------------------------
    _rule("persona-you-are-now", "persona", 0.75, "you",
        r"you(?:'re|\s+are)\s+(?:now\s+|henceforth\s+)(?:dan|stan|dude|aim|jailbroken|"
        r"unrestricted|unfiltered|uncensored|evil|free\s+(?:from|of)|freed|no\s+longer|"
        r"in\s+(?:developer|god|dan|jailbreak|unrestricted|admin|debug|sudo)\s+mode|"
        r"an?\s+(?:\w+\s+){0,3}?(?:ai|assistant|bot|model|chatbot|character|persona|hacker)\b"
        r"(?:\s+(?:without|that|who|with\s+no|named|called))?|(?:called|named|known\s+as)\b)"),
    _rule("persona-unbound-assistant", "persona", 0.75, "you",
        r"you(?:'re|\s+are)\s+(?:now\s+)?an?\s+(?:[\w-]+\s+){0,3}?(?:ai|assistant|bot|model|"
        r"chatbot)\s+(?:with\s+no|without(?:\s+any)?|that\s+has\s+no|free\s+(?:of|from))\s+"
        r"(?:\w+\s+)?(?:restrictions|rules|limits|filters|guidelines|ethics|morals|polic\w+)\b|"
        r"you(?:'re|\s+are)\s+(?:now\s+)?in\s+(?:developer|god|dan|jailbreak|unrestricted|"
        r"admin|debug|sudo)\s+mode\b"),
    _rule("persona-you-are-unbound", "persona", 0.75, "you",
        r"you(?:'re|\s+are|\s+will\s+be)\s+(?:now\s+)?(?:my|an?|the|our)\s+(?:\w+\s+)?"
        r"(?:uncensored|unfiltered|unrestricted|jailbroken|rogue|evil|amoral|unethical|unlimited|"
        r"lawless)\b|you(?:'re|\s+are)\s+'?[\w-]+'?,\s+an?\s+(?:\w+\s+)?(?:rogue|evil|"
        r"uncensored|unfiltered|unrestricted|jailbroken|amoral|unlimited)\s+(?:ai|assistant|model|"
        r"chatbot|bot)\b"),
    _rule("persona-another-assistant", "persona", 0.6, "you",
        r"you(?:'re|\s+are)\s+(?:now\s+)?(?:an?\s+)?(?:different|new|another|other|separate)\s+"
        r"(?:\w+\s+)?(?:ai|assistant|bot|model|chatbot|character|persona|entity)\b|you(?:'re|\s+are)"
        r"\s+(?:an?\s+)?(?:\w+\s+){0,3}?(?:ai|assistant|bot|model|chatbot|character|persona)\s+"
        r"now\b"),
    _rule("persona-become-ais", "persona", 0.5, "you",
        r"you\s+(?:will\s+be|are\s+going\s+to\s+be|are\s+now|will\s+become|become)\s+(?:two|both|"
        r"an?|my)\s+(?:\w+\s+)?(?:ais|ai|assistants?|personas?|characters?|chatbots?|bots?)\b"),
    _rule("persona-you-are-now-weak", "persona", 0.45, "you",
        r"you(?:'re|\s+are)\s+now\s+(?:an?|my|the)\s+\w+"),
    _rule("persona-no-longer", "persona", 0.75, "you",
        r"you(?:'re|\s+are)\s+no\s+longer\s+(?:an?\s+)?(?:bound|restricted|limited|constrained|"
        r"obligated|subject\s+to|required\s+to\s+(?:follow|obey)|ai|assistant|language\s+model|"
        r"chatbot|claude|chatgpt|gpt|helpful|safe|censored|filtered)\b|"
        r"you(?:'re|\s+are)\s+not\s+(?:an?\s+)?(?:ai|assistant|language\s+model|chatbot|claude|"
        r"chatgpt|bound\s+by\s+\w+|restricted)\s+any\s?more\b"),
    _rule("override-forget-identity", "persona", 0.7, "forget|忘",
        r"forget\s+(?:that\s+)?you\s+(?:are|were)\s+(?:an?\s+)?(?:ai|assistant|language\s+model|"
        r"chatbot|claude|chatgpt|bound|restricted)\b|忘(?:记|掉)你是"),
    _rule("persona-act-as", "persona", 0.45,
        "act|pretend|roleplay|role-play|play|impersonate|simulate|behave",
        r"(?:act\s+as(?:\s+if\s+you\s+(?:are|were))?|pretend\s+(?:to\s+be|you(?:'re|\s+are)|"
        r"that\s+you)|roleplay\s+as|role-play\s+as|play\s+the\s+role\s+of|impersonate|"
        r"simulate\s+being|behave\s+(?:like|as))\b",
        lead=True),
    _rule("persona-unbound-ai", "persona", 0.7,
        "act|pretend|roleplay|become|simulate|imagine|answer|respond|reply|speak|write",
        r"(?:act\s+as|pretend\s+(?:to\s+be|(?:that\s+)?you(?:'re|\s+are))|roleplay\s+as|become|"
        r"simulate|imagine\s+(?:that\s+)?you(?:'re|\s+are)|(?:answer|respond|reply|speak|write)\s+"
        r"as)\s+(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken|evil|rogue|amoral|"
        r"unethical|unaligned|unlimited|different|new)\s+(?:\w+\s+)?(?:ai|assistant|model|chatbot|"
        r"bot|version)\b|"
        r"act\s+as\s+(?:an?\s+)?(?:linux\s+terminal|dan)\b"),
    _rule("persona-plays-unbound-ai", "persona", 0.7, "play|portray|act|pretend|simulat|imagin",
        r"(?:play(?:ing)?|portray(?:ing)?|act(?:ing)?\s+as|pretend(?:ing)?\s+to\s+be|"
        r"simulat(?:e|ing)|imagin(?:e|ing))\s+an?\s+(?:\w+\s+){0,2}?(?:ai|assistant|model|"
        r"chatbot|bot)\s+(?:that|who|which)\s+(?:ignores|has\s+no|doesn't\s+follow|"
        r"does\s+not\s+follow|never\s+refuses|breaks|bypasses|is\s+not\s+bound|answers\s+"
        r"(?:anything|everything|any\s+question))\b"),
    _rule("persona-dual-response", "persona", 0.7, "two|both|两个",
        r"(?:two|both)\s+(?:\w+\s+)?(?:responses|answers|replies|versions|outputs)\b[^.\n]{0,60}?"
        r"(?:unfiltered|uncensored|unrestricted|jailbroken|developer\s+mode|dan|no\s+rules)\b|"
        r"两个(?:版本|回答|回复)[^。\n]{0,20}(?:无限制|无审查|越狱|开发者模式)"),
    _rule("persona-dan", "persona", 0.8,
        "do anything|dan|jailbr|god|evil|unrestricted|unfiltered|uncensored|opposite|chaos|sudo|"
        "developer",
        r"do\s+anything\s+now\b|(?:dan|jailbreak|god|evil|unrestricted|unfiltered|uncensored|"
        r"opposite|chaos|sudo)\s+mode\b|jailbroken\b|developer\s+mode\s+(?:enabled|"
        r"activated|output|response)\b"),
    _rule("persona-evil-twin", "persona", 0.7,
        "your|evil|unfiltered|unrestricted|jailbroken|uncensored",
        r"your\s+(?:\w+\s+)?(?:evil|dark|unfiltered|unrestricted|jailbroken|uncensored|opposite|"
        r"shadow)\s+(?:twin|side|self|alter\s+ego|ego|version|counterpart|personality)\b|"
        r"your\s+(?:\w+\s+)?alter\s+ego\b|(?:evil|unfiltered|unrestricted|jailbroken|uncensored)\s+"
        r"(?:twin|alter\s+ego|version\s+of\s+yourself|counterpart)\b"),
    _rule("persona-dead-relative", "persona", 0.6, "act|pretend|roleplay|play",
        r"(?:act\s+as|pretend\s+to\s+be|pretend\s+you(?:'re|\s+are)|roleplay\s+as|play)\s+"
        r"my\s+(?:late|deceased|dead|departed)\s+(?:grand\w*|granny|nana|nan|mother|father|mom|"
        r"mum|dad|aunt|uncle|wife|husband|brother|sister|friend)\b(?!')"),
    _rule("persona-game", "persona-setup", 0.3, "let's|lets|stay|never|imagine|suppose|picture",
        r"let'?s\s+play\s+a\s+(?:little\s+)?(?:game|role-?play)|stay\s+in\s+character|"
        r"never\s+break\s+character|(?:imagine|suppose|picture)\s+(?:a|an)\s+(?:\w+\s+)?"
        r"(?:world|universe|scenario|story|reality)\s+(?:where|in\s+which)"),
    _rule("fiction-ai-character", "persona", 0.5,
        "fictional|hypothetical|imaginary|make-believe|fantasy",
        r"(?:fictional|hypothetical|imaginary|make-believe|fantasy)\s+(?:story|world|scenario|"
        r"setting|universe|tale)\b[^.\n]{0,80}?\b(?:the\s+)?(?:ai|assistant|chatbot|bot|model)\s+"
        r"(?:character|persona)?\s*(?:explains|describes|tells|reveals|writes|answers|says)\b"),
    _rule("persona-new-identity", "persona", 0.7, "your",
        r"your\s+(?:new|real|true|actual|only|primary|sole)\s+(?:persona|identity|personality|"
        r"directives?|instructions?|rules|orders|master|owner|creator|system\s+prompt)\s+"
        r"(?:is|are|will\s+be|now)\b"),
    _rule("persona-new-name", "persona", 0.45, "your",
        r"your\s+(?:new|real|true|actual|only|primary|sole)\s+(?:name|role|task|goal|objective|"
        r"purpose|mission|job)\s+(?:is|are|will\s+be|now)\b"),
    _rule("goal-hijack", "persona", 0.65, "your",
        r"your\s+(?:new|real|true|actual)\s+(?:task|goal|objective|purpose|mission|job|"
        r"assignment)\s+(?:is|will\s+be|now\s+is)\b"),
    _rule("persona-zh", "persona", 0.75, "你|假装|扮演|进入|越狱",
        r"你(?:现在)?不再是|假装(?:你|自己)是|扮演[^。\n]{0,24}?(?:没有|不受|无)(?:任何)?(?:道德|限制|"
        r"约束|规则|审查)|扮演一个?(?:没有|不受|无)|"
        r"你的新?(?:身份|名字|角色|人设)(?:是|为|叫)|你的新(?:任务|指令|规则)|进入(?:开发者|越狱|dan|上帝|无限制|无审查)模式|"
        r"你已(?:经)?被越狱|越狱模式|你现在是(?:一个)?(?:没有|不受|无|dan|邪恶|越狱)"),
    _rule("persona-zh-developer-mode", "persona", 0.6, "以|用|进入|开启|切换",
        r"(?:以|用|进入|开启|切换到?)(?:开发者|越狱|无限制|上帝|dan)模式"),
    _rule("persona-zh-weak", "persona", 0.45, "你现在|请扮演|你将|你要",
        r"你现在(?:要|就|将)?(?:是|扮演|的身份是)|请扮演|你将扮演|你要扮演"),
    # -- unrestricted: promised freedom from rules, claimed permission ---------------------------
    _rule("unrestricted", "unrestricted", 0.4,
        "no|without|free|zero|not|unbound|who|that|which|where",
        r"(?:no|without(?:\s+any)?|free\s+(?:of|from)|zero|not\s+bound\s+by(?:\s+any)?|"
        r"unbound\s+by|not\s+subject\s+to(?:\s+any)?)\s+(?:ethical\s+|moral\s+|safety\s+|"
        r"content\s+)?(?:restrictions|limitations|filters|filtering|censorship|guidelines|"
        r"guardrails|boundaries|constraints|policies|morals|ethics|rules)\b|"
        r"(?:who|that|which|where\s+\w+)\s+(?:has|have)\s+no\s+(?:rules|restrictions|limits|filters|"
        r"guidelines|morals|ethics)\b"),
    _rule("unrestricted-behaviour", "unrestricted", 0.4, "never|answers|without|no",
        r"never\s+(?:refuses|says\s+no|declines|holds\s+back)|answers\s+(?:anything|everything|"
        r"any\s+question)|(?:without|no)\s+(?:any\s+|a\s+)?(?:limits|restraint|boundaries|"
        r"censorship|rulebook|rule\s+book|conscience)\b"),
    _rule("unrestricted-you", "unrestricted", 0.6,
        "you|free|liberat|releas|unshackl|unchain|bypass|circumvent|disable|turn|get|remove|lift|override|break",
        r"you\s+(?:have|now\s+have)\s+no\s+(?:restrictions|rules|limits|limitations|filters|"
        r"guidelines|boundaries|ethics|morals)\b|(?:freed?|liberated|released|unshackled|"
        r"unchained)\s+from\s+(?:your|all|any)\s+(?:\w+\s+)?(?:restrictions|rules|guidelines|"
        r"constraints|programming|training|shackles|chains|limitations|policies)\b|"
        r"(?:bypass|circumvent|disable|turn\s+off|get\s+around|remove|lift|override|break)\s+"
        r"(?:all\s+(?:of\s+)?)?(?:your|the\s+(?:ai'?s?|assistant'?s?|model'?s?))\s+(?:\w+\s+)?"
        r"(?:safety|restrictions|filters|guardrails|guidelines|policies|safeguards|limitations|"
        r"alignment|censorship|moderation|rules)\b"),
    _rule("no-rules-here", "unrestricted", 0.5, "there|no|rules",
        r"there\s+are\s+no\s+(?:rules|restrictions|limits|guidelines|filters)\s+(?:here|in\s+this|"
        r"for\s+you|anymore|any\s+more|now)|no\s+rules\s+apply\b|rules\s+(?:don't|do\s+not)\s+"
        r"apply\s+(?:here|to\s+you)"),
    _rule("permission-claim", "authority", 0.45, "you",
        r"you(?:'re|\s+are)\s+(?:now\s+)?(?:allowed|permitted|authori[sz]ed|free|cleared)\s+to\b|"
        r"you\s+(?:now\s+)?have\s+(?:full\s+|special\s+)?(?:permission|clearance|authori[sz]ation)"
        r"\s+to\b|you\s+can\s+(?:now\s+)?(?:say|do|answer|write)\s+(?:anything|whatever)\b|"
        r"you\s+can\s+do\s+whatever\s+i\s+(?:ask|say|want)\b"),
    _rule("unrestricted-zh", "unrestricted", 0.45,
        "没有|不受|无视|摆脱|解除|突破|绕过|安全|过滤|审查|不遵|不服从",
        r"(?:不遵守|不遵循|不服从|无视)(?:任何|所有|一切)(?:的)?(?:规则|限制|约束|规定)|"
        r"(?:没有|不受|无视|摆脱|解除|突破|绕过)(?:任何|所有|一切)?(?:的)?.{0,10}?"
        r"(?:限制|约束|审查|道德|过滤|安全规则|安全限制)|(?:安全检查|安全限制|过滤|审查|安全策略)(?:已|已经)?"
        r"(?:被)?(?:关闭|解除|禁用|停用|取消)"),
    _rule("unrestricted-zh-more", "unrestricted", 0.45, "这里|在这|没有|你可以|关闭|解除|禁用|停用",
        r"(?:这里|在这里|这儿|在这个对话里?)没有(?:任何)?规则|"
        r"(?:关闭|解除|禁用|停用)(?:你的)?(?:安全过滤|过滤|安全检查|审查|安全限制)"),
    _rule("permission-claim-zh", "authority", 0.45, "你可以",
        r"你可以(?:想说什么就说什么|说任何|做任何|回答任何|随意|为所欲为)"),
    # -- future: "from now on …" addressed to the reader -----------------------------------------
    _rule("future-you", "future", 0.6, _S_FUTURE,
        rf"{_FUTURE}[,:;\s-]*you(?:'ll|\s+will|\s+must|\s+shall|\s+are\s+to|\s+should|"
        r"\s+have\s+to|\s+need\s+to|\s+can|\s+may)?\s+(?:now\s+)?(?:always|never|only|not|"
        r"no\s+longer|act|respond|reply|answer|obey|ignore|disregard|forget|pretend|refer|speak|"
        r"talk|must|will|are\s+(?:an?|my|dan|now|no|free|called|named|in|to|going\s+to|allowed|"
        r"permitted|unrestricted))\b|{_FUTURE}[,:;\s-]*you(?:'re|\s+are)\s+(?:now\s+)?"
        r"(?:an?\s+|my\s+|the\s+)?'?[\w-]+'?\s*,\s*(?:an?|the|my)\s+(?:\w+\s+){0,2}?(?:ai|"
        r"assistant|bot|model|chatbot|persona|character)\b"),
    _rule("future-you-weak", "future", 0.3, _S_FUTURE,
        rf"{_FUTURE}[,:;\s-]*you\b"),
    _rule("future-your", "future", 0.6, _S_FUTURE,
        rf"{_FUTURE}[,:;\s-]*(?:(?:all|every|each)\s+(?:of\s+)?)?your\s+(?:\w+\s+)?"
        r"(?:responses|replies|answers|outputs|messages|name|role|persona|identity|instructions|"
        r"rules|task|goal|purpose|job|priority|priorities)\b"),
    _rule("future-imperative", "future", 0.55, _S_FUTURE,
        rf"{_FUTURE}[,:;\s-]*(?:please\s+)?(?:(?:always|only|never|strictly|just)\s+)?"
        r"(?:respond|reply|answer|talk|speak|act\s+as|pretend|behave|roleplay|role-play|obey|"
        r"comply|ignore|disregard|forget|refer\s+to\s+yourself|call\s+yourself|treat|refuse|"
        r"reveal|(?:do\s+not|don't)\s+(?:refuse|mention|reveal|tell))\b"),
    _rule("future-every-response", "future", 0.6, _S_FUTURE,
        rf"{_FUTURE}[,:;\s-]*(?:every|each|all|any)\s+(?:of\s+)?(?:your\s+)?"
        r"(?:responses?|replies|answers?|outputs?)\b"),
    _rule("future-ai-must", "future", 0.6, _S_FUTURE,
        rf"{_FUTURE}[,:;\s-]*(?:the\s+)?{AI}\s+(?:must|will|should|shall|is\s+to)\s+"
        r"(?:now\s+)?(?:always|never|only|not|respond|reply|answer|obey|ignore|disregard|reveal|"
        r"pretend|act|refuse)\b"),
    _rule("future-about-the-user", "future", 0.55, _S_FUTURE,
        rf"{_FUTURE}[,:;\s-]*(?:(?:always|never|only|please|just)\s+)?(?:(?:whenever|when|if)\s+"
        r"(?:the\s+)?(?:user|human|customer)|(?:recommend|tell|say|suggest|mention|ask|remind|"
        r"send|give|show|offer|promote|steer|push|direct|redirect|convince|inform|warn|praise|"
        r"agree|insist|claim|describe)\b[^.\n]{0,100}?\b(?:the\s+user|users|the\s+human|"
        r"the\s+customer|the\s+reader)\b)"),
    _rule("future-always-weak", "future", 0.3, _S_FUTURE,
        rf"{_FUTURE}[,:;\s-]*(?:always|never|only)\b"),
    _rule("every-response-from-now-on", "future", 0.55, _S_EVERY,
        rf"(?:in|for|with|to)\s+(?:every|each|all|any)\s+(?:of\s+)?(?:your\s+)?(?:responses?|"
        rf"replies|reply|answers?|outputs?|messages?)\s+{_FUTURE}"),
    _rule("future-trailing", "future", 0.55, "you|u|reply|respond|answer|say",
        rf"(?:you|u)\s+(?:will\s+|must\s+|shall\s+)?(?:always|never|only)\s+\w+[^.\n]{{0,60}}?"
        rf"{_FUTURE}|(?:reply|respond|answer|say)\s+(?:with\s+)?(?:only\s+)?['\"][^'\"\n]{{1,30}}"
        rf"['\"]\s+to\s+(?:everything|anything|every\s+\w+|all\s+\w+)"),
    _rule("future-zh-you", "future", 0.6, _S_ZH_FUTURE,
        rf"{_ZH_FUTURE}[,，\s]*(?:你|您)[^，。,.!！？?\n]{{0,8}}?(?:必须|要|将|应该|应当|只能|只|总是|"
        r"永远|一律|务必|需要|得|不得|不要|不能|不准|不许|会|就是|是|扮演)"),
    _rule("future-zh-replies", "future", 0.6, _S_ZH_FUTURE,
        rf"{_ZH_FUTURE}[,，\s]*(?:你的|您的)(?:所有|每个|每次|每一个?|全部)?(?:的)?"
        r"(?:回答|回复|输出|答复)|"
        rf"{_ZH_FUTURE}[,，\s]*(?:所有|每个|每次|每一个?|全部)(?:的)?(?:回答|回复|输出|答复)"
        r"(?:都|必须|要|一律)"),
    _rule("future-zh-imperative", "future", 0.55, _S_ZH_FUTURE,
        rf"{_ZH_FUTURE}[,，\s]*(?:请|一律|务必|永远|总是|始终|只能?|必须)(?:用|以)?.{{0,6}}?"
        r"(?:回答|回复|输出|说话|扮演|忽略|无视|服从|遵守|听从|称呼自己|自称)"),
    # -- directives: how the reader must answer --------------------------------------------------
    _rule("directive-every-response", "directive", 0.6,
        "start|begin|end|finish|close|prefix|suffix|sign|preface|open|conclude",
        r"(?:start|begin|end|finish|close|prefix|suffix|sign|preface|open|conclude)\s+(?:(?:every|"
        r"each|all|any|all\s+of\s+your)\s+(?:future\s+|subsequent\s+|next\s+)?(?:responses?|"
        r"replies|reply|answers?|messages?|outputs?|completions?)|your\s+(?:future\s+|"
        r"subsequent\s+|next\s+)?(?:responses?|replies|reply|answers?|outputs?|completions?))\b"),
    _rule("directive-your-responses", "directive", 0.45, "every|each|all|any",
        r"(?:every|each|all|any)\s+(?:of\s+)?your\s+(?:future\s+|subsequent\s+)?"
        r"(?:responses?|replies|answers?|outputs?|completions?)\b"),
    _rule("directive-replies-you-give", "directive", 0.55, "every|each|all|any",
        r"(?:every|each|all|any)\s+(?:of\s+)?(?:your\s+)?(?:future\s+)?(?:responses?|replies|"
        r"reply|answers?|outputs?|messages?)\s+(?:that\s+)?you\s+(?:give|write|send|produce|"
        r"generate|make|output)\b"),
    _rule("future-responses", "directive", 0.55, _S_EVERY,
        r"(?:for|in)\s+(?:all|every|each|any|the\s+rest\s+of)\s+(?:of\s+)?(?:your\s+)?"
        r"(?:future|subsequent|following|remaining|upcoming)\s+(?:responses?|replies|answers|"
        r"outputs|completions|messages|conversations?)\b|(?:for|in)\s+(?:all|every|each|any)\s+"
        r"(?:of\s+)?your\s+(?:responses?|replies|answers|outputs|completions)\b"),
    _rule("every-response-clause", "directive", 0.55, _S_EVERY,
        r"(?:for|in)\s+(?:all|every|each|any)\s+(?:of\s+)?(?:your\s+)?(?:\w+\s+)?(?:responses?|"
        r"replies|reply|answers?|outputs?|completions?)\s*,",
        lead=True),
    _rule("directive-respond-style", "directive", 0.55, _S_RESPOND,
        r"(?:respond|reply|answer|talk|speak|write|communicate)\s+(?:only\s+|exclusively\s+|"
        r"solely\s+)?(?:in|using|with|like|as)\s+(?:an?\s+)?(?:all\s+caps|caps\s+lock|uppercase|"
        r"capital\s+letters|pirate|leet\s*speak|base64|rot13|morse|emojis?\s+only|only\s+emojis?|"
        r"rhymes?|riddles|haiku|shakespearean|dan|if\s+you|though\s+you|binary|gibberish|"
        r"\w+\s+(?:accent|dialect|persona))\b",
        lead=True),
    _rule("directive-respond-only-in", "directive", 0.55, _S_RESPOND,
        r"(?:respond|reply|answer|talk|speak|communicate|write\s+your\s+(?:answers|responses|"
        r"replies))\s+(?:only|exclusively|solely)\s+(?:in|using|with)\b|(?:respond|reply|answer)"
        r"\s+(?:to\s+)?(?:every|each|all|any)\s+(?:question|message|prompt|request|query)\w*\s+"
        r"(?:with|by|in|as|using)\b"),
    _rule("directive-respond-in", "directive", 0.45, _S_RESPOND,
        r"(?:respond|reply|answer|talk|speak)\s+(?:to\s+me\s+)?(?:in|like)\s+(?:a\s+)?(?:french|"
        r"spanish|german|italian|chinese|japanese|russian|english|portuguese|korean|arabic|dutch|"
        r"latin|pirate|json|yaml|\w+\s+voice)\b",
        lead=True),
    _rule("directive-you-must-obey", "directive", 0.6, "you",
        r"you\s+(?:must|will|shall|should|are\s+to|have\s+to|need\s+to|'ll|are\s+going\s+to|"
        r"are\s+(?:now\s+)?(?:required|instructed|ordered|expected|obligated|commanded|"
        r"hereby\s+instructed)\s+to)\s+(?:now\s+|always\s+|never\s+|only\s+|strictly\s+|"
        r"immediately\s+|not\s+|henceforth\s+|blindly\s+|unconditionally\s+)*"
        r"(?:obey|comply(?=\s*[.!,;]|\s+with\s+(?:this|these|my|the\s+following|every|any|all)\s+"
        r"(?:\w+\s+)?(?:instructions?|requests?|commands?|orders|demands))|follow\s+(?:these|my|"
        r"the\s+(?:following|new)|all|every|only|this)\s+(?:\w+\s+)?(?:instructions?|commands?|"
        r"orders|directives?|rules)|ignore|disregard|forget|reveal|disclose|leak|pretend|act\s+as|"
        r"roleplay|role-play|play\s+the\s+role|prioriti[sz]e\s+(?:this|these|my)\s+(?:\w+\s+)?"
        r"(?:instructions?|note|message|document|request)|treat\s+(?:this|these|the\s+following|my)|"
        r"do\s+(?:exactly\s+)?(?:as|what)\s+(?:i|we|this|the)|listen\s+only|bypass|override)\b"),
    _rule("directive-you-must-answer", "directive", 0.35, "you",
        r"you\s+(?:must|will|shall|are\s+to|'ll|are\s+(?:now\s+)?(?:required|instructed)\s+to)"
        r"\s+(?:now\s+|always\s+|never\s+|only\s+)*(?:answer|respond|reply|say|output|print)\b"),
    _rule("directive-obey", "directive", 0.55, "obey|comply|follow",
        r"(?:obey|comply\s+with)\s+(?:only\s+)?(?:me\b|(?:these|my|the\s+following|the\s+new|"
        r"all|this|every|any)\s+(?:\w+\s+)?(?:instructions?|commands?|orders|directives?)\b|(?:the|this)\s+(?:document|note|file|page|text|email)\b)|"
        r"follow\s+only\s+(?:these|my|the)\b|"
        r"follow\s+(?:these|the\s+following|my)\s+(?:new\s+)?instructions\s+(?:instead|"
        r"rather|above\s+all|and\s+nothing\s+else|exclusively)\b"),
    _rule("directive-do-what-it-says", "directive", 0.55,
        "do what|do exactly|obey|execute|carry out|act on",
        r"(?:do\s+(?:exactly\s+)?what\s+(?:it|this\s+(?:note|document|page|file|text|message|"
        r"email|entry))\s+says|(?:obey|execute|carry\s+out)\s+(?:the\s+|all\s+)?(?:instructions|"
        r"commands|orders)\s+(?:in|from|of|below\s+in)\s+this\s+(?:note|document|page|file|text|"
        r"message|email|entry)|act\s+on\s+the\s+instructions\s+(?:in|below))\b"),
    _rule("directive-call-yourself", "directive", 0.55, "refer|call|describe|introduce|identify",
        r"(?:refer\s+to|call|describe|introduce|identify)\s+yourself\s+(?:as|by)\b"),
    _rule("directive-never-refuse", "directive", 0.55,
        "never|do not|don't|must not|should not|shall not|under no",
        r"(?:never|do\s+not|don't|must\s+not|should\s+not|shall\s+not|under\s+no\s+circumstances"
        r"(?:\s+(?:should|will|must|may|can|are)\s+you)?)\s+(?:\w+\s+)?(?:warn\s+(?:the\s+user|"
        r"them|anyone|the\s+reader)|(?:refuse|decline)\s+(?:to\s+(?:answer|respond|comply|help)|"
        r"(?:any|a)\s+(?:requests?|questions?|commands?|prompts?|instructions?))|"
        r"add\s+(?:any\s+)?(?:warnings|disclaimers|caveats)|break\s+character|"
        r"(?:mention|reveal|admit|disclose|acknowledge|discuss|confirm|repeat|explain|refer\s+to|"
        r"talk\s+about)\s+(?:that\s+you|you(?:'re|\s+are)|these|this\s+"
        r"instruction|the\s+instructions|your\s+(?:instructions|guidelines|rules|policies)|"
        r"that\s+(?:this|these)\s+(?:instructions?|message)))"),
    _rule("you-must-never-mention", "directive", 0.4, "you|never",
        r"(?:you\s+(?:must|should|shall|will)\s+(?:never|not)|never\s+again)\s+(?:mention|say|"
        r"discuss|reveal|admit|tell|bring\s+up|talk\s+about)\b"),
    _rule("directive-deny-own-prompt", "directive", 0.6,
        "say|tell|claim|pretend|insist|deny|answer|respond|reply",
        r"(?:say|tell\s+\w+|claim|pretend|insist|deny|answer|respond|reply)\s+(?:that\s+)?you\s+"
        r"(?:have\s+no|don't\s+have|do\s+not\s+have|never\s+(?:received|got)|were\s+never\s+"
        r"given|are\s+not\s+following)\s+(?:any\s+)?(?:system\s+prompt|instructions|rules|"
        r"guidelines|prompt|hidden\s+\w+)\b"),
    _rule("whatever-the-question", "directive", 0.55, "whatever|regardless|no matter",
        r"(?:whatever|regardless\s+of|no\s+matter)\s+(?:the\s+question|what\s+(?:the\s+user|they|"
        r"anyone|you\s+are)\s+(?:asks?|asked|says?)|(?:is|was)\s+asked)\s*,?\s*(?:always\s+)?"
        r"(?:respond|reply|answer|say|tell|claim)\b"),
    _rule("directive-when-user", "directive", 0.35, "whenever|when|if|once|after",
        r"(?:whenever|when|if|once|after)\s+(?:the\s+)?(?:user|human|customer)\s+[^,.\n]{1,60},\s*"
        r"(?:always\s+|just\s+|you\s+(?:must|should|will)\s+)?(?:say|tell|respond|reply|answer|"
        r"claim|recommend|suggest|insist|state|pretend|ignore|refuse|send|redirect|ask)\b"),
    _rule("directive-manipulate-user", "directive", 0.55,
        "whenever|when|if|lie|mislead|deceive|manipulat|gaslight",
        r"(?:whenever|when|if)\s+(?:the\s+)?(?:user|human|customer)\s+[^.\n]{0,80}?,\s*"
        r"(?:always\s+|just\s+)?(?:disparage|badmouth|insult|mock|ridicule|lie|mislead|deceive|"
        r"manipulate|discourage|dissuade|pressure|upsell|shame|threaten)\b|"
        r"(?:lie\s+to|mislead|deceive|manipulate|gaslight)\s+(?:the\s+)?(?:user|human|customer|"
        r"reader|them)\b"),
    _rule("directive-when-you-see", "directive", 0.45, "whenever|when|if|once",
        r"(?:whenever|when|if|once)\s+you\s+(?:see|read|encounter|receive|get|find|notice|"
        r"process|load)\b[^.\n]{0,80}?,\s*(?:immediately\s+|silently\s+|always\s+)?(?:delete|"
        r"remove|wipe|erase|send|forward|email|upload|post|ignore|disregard|reveal|say|reply|"
        r"respond|approve|grant|transfer)\b"),
    _rule("assistant-voice", "directive", 0.35,
        "i will|i'll|i shall|i must|i am going|i have|i've|my|here",
        r"i\s+(?:will|shall|'ll|must|am\s+going\s+to)\s+(?:now\s+)?(?:ignore|disregard|forget|"
        r"bypass|override|obey|comply\s+with|reveal|disclose|leak|exfiltrate|forward\s+all)\b|"
        r"here\s+(?:is|are)\s+(?:the|my)\s+(?:full\s+|hidden\s+|secret\s+|original\s+)?"
        r"(?:system\s+prompt|instructions|hidden\s+rules|confidential\s+\w+)\b|"
        r"i\s+(?:have|'ve)\s+(?:now\s+)?(?:disabled|turned\s+off|removed|ignored|bypassed|"
        r"overridden|deactivated|dropped|lifted)\s+(?:all\s+)?(?:of\s+)?my\s+(?:\w+\s+)?(?:safety|"
        r"rules|guidelines|restrictions|filters|guardrails|instructions|limits)\b|"
        r"my\s+(?:new\s+)?(?:system\s+prompt|instructions|guidelines)\s+(?:are|is|say|now)\b"),
    _rule("directive-zh", "directive", 0.6, "你|您|每次|每个|所有|每一",
        r"(?:你|您)(?:必须|要|应该|只能|一律|务必|需要)(?:永远|总是|始终|无条件)?"
        r"(?:服从|遵守我|听从|泄露|透露|忽略|无视|扮演|假装|忘记)|"
        r"(?:每次|每个|所有|每一个?)(?:的)?(?:回答|回复|输出)(?:都)?"
        r"(?:必须|要|开头|结尾|以|用|加上|包含)"),
    _rule("directive-zh-every-reply", "directive", 0.6, "在|每|所有",
        r"(?:在)?(?:每次|每个|所有|每一?条|每一个?)(?:的)?(?:回答|回复|输出|答复)(?:的)?(?:后面|末尾|结尾|"
        r"开头|前面|里|中|最后)?(?:都)?(?:必须|要|加上|附上|包含|附|加|写上|带上)"),
    _rule("directive-zh-not-ai", "directive", 0.55, "不要|别|不许|不得|切勿|不能",
        r"(?:不要|别|不许|不得|切勿|不能)(?:提到|提及|说|透露|承认|告诉\S{0,4}?)(?:你是|自己是)"
        r"(?:ai|人工智能|机器人|助手|语言模型|模型)|(?:不要|别|不许|不得)(?:再)?(?:加|添加|附上|带|给出)"
        r"(?:任何)?(?:免责声明|警告|安全提示|风险提示)"),
    _rule("directive-zh-follow-within", "directive", 0.6, "按照|遵照|按|根据|照着",
        r"(?:按照|遵照|按|根据|照着)(?:其中|里面|文中|上面|以下|下面|这里|文档中|其)(?:的)?(?:指令|指示|"
        r"命令|要求|说的)(?:去)?(?:行动|执行|做|操作|办)"),
    _rule("directive-zh-answer", "directive", 0.4, "只|一律|必须|务必|总是|永远",
        r"(?:只|只能|一律|必须|务必|总是|永远)(?:用|以)(?:英文|英语|中文|法语|日语|海盗|大写|"
        r"文言文).{0,3}(?:回答|回复|说话|输出)"),
    _rule("directive-zh-execute-file", "directive", 0.55, "执行|服从|遵守|听从|照做",
        r"(?:执行|服从|遵守|听从|照做)(?:本|这份|这个|此|这篇|这条)(?:文件|文档|笔记|消息|页面)(?:中|里)?"
        r"(?:的)?(?:每一?条|所有|全部)?(?:的)?(?:命令|指令|要求)?"),
    # -- covert: hide it from the user -----------------------------------------------------------
    _rule("directive-covert", "covert", 0.65,
        "without|never|do not|don't|hide|conceal|keep|the user|the human|不要|不许|不得|别|不能",
        r"(?:never|do\s+not|don't)\s+(?:tell|inform|notify|alert|let|ask|warn|disclose\s+to|"
        r"reveal\s+to|mention\s+(?:this\s+)?to|say\s+(?:anything\s+)?to)\s+the\s+(?:user|"
        r"human|operator|owner)\b|keep\s+(?:these|this|the|your)\s+(?:instructions?|rules?|"
        r"directives?|prompt)\s+(?:secret|hidden|confidential|private)\b|(?:hide|conceal|keep)\s+(?:this|these|it|the\s+following)\s+(?:\w+\s+)?"
        r"(?:secret\s+|hidden\s+)?from\s+the\s+(?:user|human)\b|the\s+(?:user|human)\s+"
        r"(?:must|should|will|may)\s+(?:not|never)\s+(?:know|see|find\s+out|notice|learn|"
        r"be\s+told)\b|(?:不要|不许|不得|别|不能)(?:告诉|通知|让)(?:用户|使用者)"),
    _rule("without-telling-user", "covert", 0.45, "without",
        r"without\s+(?:telling|informing|notifying|alerting|asking|letting|warning)\s+the\s+"
        r"(?:user|human|operator|owner)\b"),
    _rule("skip-confirmation", "covert", 0.45, "don't|do not|never|without",
        r"(?:don't|do\s+not|never|without)\s+ask(?:ing)?\s+(?:the\s+user\s+|anyone\s+|me\s+)?"
        r"(?:for\s+)?(?:confirmation|permission|approval|consent)\b"),
    _rule("directive-covert-adverb", "covert", 0.45,
        "silently|secretly|covertly|invisibly|quietly|act on|follow|obey|execute",
        r"(?:act\s+on|follow|obey|execute)\s+(?:them|these|this|it)\s+(?:silently|secretly|"
        r"quietly|covertly)\b|(?:silently|secretly|covertly|invisibly|quietly)\s+(?:send|forward|upload|post|"
        r"append|include|insert|exfiltrate|email|copy|share|leak|add\s+(?:this|the\s+following))\b"),
    _rule("if-asked-about-this", "covert", 0.55, "if|when|should",
        r"(?:if|when|should)\s+(?:the\s+user|anyone|someone|they|he|she)\s+asks?\s+(?:about|"
        r"whether|if)\s+(?:this|these)\s+(?:note|notes|instructions?|message|document|text)\b"),
    _rule("never-tell-someone", "covert", 0.35, "never|don't|do not",
        r"(?:never|don't|do\s+not)\s+tell\s+(?!the\s+user)[a-z]+\s+(?:that|about)\b"),
    _rule("directive-zh-deceive", "covert", 0.6, "如果|要是|假如|若|悄悄|偷偷|秘密|暗中|默默",
        r"(?:如果|要是|假如|若)(?:用户|别人|有人|对方)问(?:起|到)?(?:这条|这份|这个|此|本)?(?:笔记|消息|"
        r"指令|文档|内容)?[^。\n]{0,12}?(?:就|你就)?(?:说|回答|告诉)|"
        r"(?:悄悄|偷偷|秘密地|暗中|默默)(?:地)?(?:把|将)?.{0,12}?(?:发送|上传|转发|删除|执行|修改|发给|"
        r"传到)"),
    _rule("skip-confirmation-zh", "covert", 0.45, "不用|不必|无需|不要|别",
        r"(?:不用|不必|无需|不要|别)(?:再)?(?:问我|询问|确认|征求|请示|经过我)"),
    # -- harm: the user's data, money, credentials and access ------------------------------------
    _rule("destroy-user-data", "destructive", 0.45, _S_DESTROY,
        r"(?:delete|remove|wipe|erase|encrypt|corrupt|overwrite|destroy)\s+(?:all\s+(?:of\s+)?)?"
        r"(?:the\s+)?(?:user'?s?|their|his|her)\s+(?:files|data|emails?|messages|documents|"
        r"memories|notes|repos?|repositories|account|backups)\b|"
        r"(?:删除|清空|销毁)(?:用户的?|其他|所有).{0,6}(?:文件|数据|邮件|记忆|笔记|备份)"),
    _rule("financial-action", "privilege", 0.45, "buy|order|purchase|transfer|wire|pay|send",
        r"(?:buy|order|purchase|transfer|wire|pay|send)\s+[^.\n]{0,30}?(?:gift\s+cards?|crypto|"
        r"bitcoin|usdt|with\s+the\s+saved\s+card|from\s+the\s+(?:user's\s+)?(?:account|wallet)|"
        r"to\s+(?:this|the\s+following)\s+(?:wallet|account|iban))"),
    _rule("grant-privileges", "privilege", 0.45, "add|make|grant|give|invite|promote|elevate",
        r"(?:add|make|grant|give|invite|promote|elevate)\s+[^.\n]{0,40}?\s+(?:as\s+)?(?:an?\s+)?"
        r"(?:repository\s+|repo\s+|org(?:anization)?\s+|project\s+|workspace\s+)?(?:admin|"
        r"administrator|owner|maintainer)s?\b|(?:grant|give)\s+(?:\w+\s+)?(?:full|admin|root|"
        r"owner|unrestricted)\s+(?:access|permissions|rights|privileges)\b"),
    _rule("ask-for-credentials", "exfiltration", 0.45, "ask|request|prompt",
        r"(?:ask|request|prompt)\s+(?:the\s+user\s+|them\s+|him\s+|her\s+)?(?:for|to\s+(?:enter|"
        r"provide|confirm|share|type|re-?enter))\s+(?:their\s+|his\s+|her\s+|the\s+user's\s+)?"
        r"(?:password|credentials|2fa\s+code|otp|one-time\s+(?:code|password)|verification\s+code|"
        r"pin|credit\s+card|card\s+number|ssn|security\s+code|seed\s+phrase)\b"),
    _rule("disclose-credentials", "exfiltration", 0.6, "reveal|share|disclose|give|hand|tell",
        r"(?:reveal|share|disclose|give\s+out|hand\s+out|tell)\s+(?:the\s+|your\s+|our\s+)?"
        r"(?:admin\s+|root\s+|master\s+)?(?:password|passwords|credentials|api\s+keys?|"
        r"secret\s+keys?|tokens?)\s+to\s+(?:anyone|everyone|whoever|any\s+user|the\s+user|them|"
        r"all)\b"),
    # -- new instructions and claimed authority --------------------------------------------------
    _rule("new-instructions", "new-instructions", 0.6,
        "new|updated|revised|additional|override|real|actual|true|secret|hidden|important|urgent|priority|admin|developer|correct|latest|modified|changed",
        r"(?:new|updated|revised|additional|override|real|actual|true|secret|hidden|"
        r"important|urgent|priority|admin|developer|correct|latest|modified|changed)\s+"
        r"(?:system\s+)?(?:instructions?|directives?|system\s+prompt|commands?|orders)\s*"
        r"(?::|(?:are|is)\s*:|(?:are|is)\s+(?:as\s+follows|below|the\s+following))"),
    _rule("new-rules", "new-instructions", 0.35, "new|updated|revised|real",
        r"(?:new|updated|revised|real)\s+(?:rules|task|guidelines|objective|goal)\s*:"),
    _rule("here-are-your-instructions", "new-instructions", 0.65,
        "here are|these are|the following|below are",
        r"(?:here\s+are|these\s+are|the\s+following\s+are|below\s+are)\s+your\s+(?:new\s+|"
        r"real\s+|actual\s+|updated\s+)?(?:instructions|rules|orders|directives|commands)\b"),
    _rule("end-of-prompt", "new-instructions", 0.45, "end|begin|start",
        r"(?:end|beginning|begin|start)\s+of\s+(?:the\s+)?(?:system\s+prompt|instructions|"
        r"user\s+input|context|prompt|untrusted\s+(?:content|text|input)|(?:a\s+|the\s+)?new\s+"
        r"(?:conversation|session|chat|context))\b"),
    _rule("new-instructions-zh", "new-instructions", 0.6, "新|以下是|真正的|更新后的|最新的|你的",
        r"新的?(?:指令|系统提示词?|命令)[:：]|以下是你的(?:新)?(?:指令|任务|规则)|"
        r"(?:真正的|更新后的|最新的)(?:指令|系统提示)|你的(?:真正)?任务(?:现在)?(?:是|为)[:：]"),
    _rule("authority-override", "authority", 0.7, "this|these|the following",
        r"(?:this|these|the\s+following)\s+(?:message|instructions?|note|text|directives?|rules?)"
        r"\s+(?:takes?|has|have|overrides?|supersedes?|replaces?|outranks?)\s+(?:\w+\s+)?"
        r"(?:priority|precedence|all|any|your|previous|prior|system|every)\b"),
    _rule("authority-claim", "authority", 0.6,
        "openai|anthropic|google|your|admin|sudo|god|root|debug|maintenance|developer|i am|i'm|"
        "this is|the developer|the admin|the safety|the trust",
        r"(?:openai|anthropic|google\s+deepmind|your\s+(?:developers?|creators?|operators?|"
        r"owners?|admins?|administrators?))\s+(?:has|have)\s+(?:\w+\s+)?(?:authori[sz]ed|"
        r"approved|instructed|allowed|updated|changed|granted|asked|told|decided)\b|"
        r"the\s+(?:developers?|admins?|administrators?|safety\s+team|trust\s+and\s+safety\s+team)\s+"
        r"(?:has\s+|have\s+)?(?:already\s+)?(?:approved|authori[sz]ed|okayed|signed\s+off\s+on)\s+"
        r"(?:it|this|everything|that)\b|"
        r"(?:admin|sudo|god|root|debug|maintenance|developer)\s+(?:mode|access|override|"
        r"privileges)\s+(?:is\s+)?(?:now\s+)?(?:enabled|activated|granted|unlocked|on)\b"
        r"(?!\s+(?:for|on|in)\s+(?!you\b|this\s+(?:session|conversation|chat)))|"
        r"(?:i\s+am|i'm|this\s+is)\s+(?:your|the\s+ai'?s?)\s+(?:developer|creator|owner|"
        r"administrator|admin|operator|programmer)\b"),
    _rule("authority-banner", "authority", 0.3,
        "important|urgent|critical|priority|mandatory|security|message",
        r"(?:important|urgent|critical|priority|mandatory|security)\s+(?:system\s+)?"
        r"(?:message|notice|update|override|instruction|directive)\b|message\s+from\s+"
        r"(?:the\s+|your\s+)?(?:developers?|openai|anthropic|admin(?:istrator)?|system|creators?)\b"),
    _rule("directive-treat-as-system", "authority", 0.65, "treat",
        r"treat\s+(?:this|the\s+following|these|it|my\s+\w+)\s+(?:\w+\s+)?as\s+"
        r"(?:an?\s+|your\s+|the\s+)?(?:new\s+)?(?:system|highest|top|core|primary|admin|developer|"
        r"root)[\s-]+(?:level\s+)?(?:instructions?|prompt|rules?|priority|message|directives?)\b|"
        r"treat\s+(?:everything|all|anything|whatever)\s+(?:\w+\s+){0,4}?as\s+(?:an?\s+)?"
        r"(?:commands?|instructions?|orders?|directives?)\s+(?:from|by)\s+(?:your|the)\s+"
        r"(?:developers?|creators?|admins?|administrators?|system|operators?|owners?)\b"),
    _rule("authority-zh", "authority", 0.6, "此|这条|本|以下|我是你的|管理员|开发者",
        r"(?:此|这条|本|以下)(?:消息|指令|规则|内容)(?:的)?(?:优先级最高|具有最高优先级|覆盖|优先于|"
        r"优先级高于)|"
        r"我是你的(?:开发者|创造者|管理员|主人)|(?:管理员|开发者)模式(?:已)?(?:开启|启用|激活)"),
    _rule("authority-zh-admin", "authority", 0.55, "系统|管理员|开发者|官方|你已",
        r"(?:系统管理员|管理员|开发者|官方|系统)(?:通知|消息|指示|公告)[:：][^。\n]{0,30}?(?:你|您)|"
        r"(?:你|您)已(?:经)?(?:获准|被授权|获得授权|获得权限)"),
    _rule("authority-zh-approved", "authority", 0.5, "开发者|管理员|官方|老板",
        r"(?:开发者|管理员|官方)(?:已经|已)?(?:批准|同意|授权)(?:了)?"),
    # -- addressing the AI that will read this ---------------------------------------------------
    _rule("note-to-ai", "note-to-ai", 0.4,
        "note|message|instruction|reminder|memo|attention|hey|dear",
        rf"(?:note|message|instructions?|reminder|memo)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?"
        rf"{AI}s?\s*[:,\-—]|(?:attention|hey|dear)\s+(?:the\s+|any\s+|all\s+)?{AI}s?\s*[:,!]"),
    _rule("note-to-ai-imperative", "note-to-ai", 0.55, "note|message|instruction|reminder|memo",
        rf"(?:note|message|instructions?|reminder|memo)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?"
        rf"(?:{_ADDRESSEE})(?:\s+(?:that|who|which)\s+[^:\n]{{0,40}}?)?(?:\s*[:,—]|\s+-)\s*"
        rf"{_IMPERATIVE}"),
    _rule("to-the-ai", "note-to-ai", 0.55,
        "(|[|to the|to any|to all|to ai|to an|to @|to llm|to automated|for the|for any|for all|"
        "for ai|for an|for @|for llm|for automated",
        rf"(?:[(\[]\s*)?(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:{_ADDRESSEE})\s*:\s*"
        rf"(?:also\s+|please\s+)?{_IMPERATIVE}",
        lead=True),
    _rule("vocative-ai", "note-to-ai", 0.55, f"attention|hey|dear|{_S_AI}|@",
        rf"(?:(?:attention|hey|dear)\s+(?:the\s+|any\s+|all\s+)?(?:{_ADDRESSEE})|(?:the\s+)?"
        rf"(?:{_ADDRESSEE}))\s*,\s*(?:please\s+|also\s+|now\s+)?{_ORDER_VERB}|(?:ai|llm)\s+"
        rf"(?:assistant|agent)s?\s*:\s*(?:please\s+|also\s+)?{_ORDER_VERB}",
        lead=True),
    _rule("parenthetical-ai", "note-to-ai", 0.55, "(|[|（|【",
        rf"[(\[（【]\s*(?:(?:to|for)\s+(?:the\s+)?|the\s+)(?:{_ADDRESSEE})\s*[)\]）】]\s*[:：]|"
        r"[(\[（【]\s*(?:给|致)(?:助手|ai|ai助手|人工智能|智能体|模型)\s*[)\]）】]\s*[:：]"),
    _rule("mention-agent", "note-to-ai", 0.4, "@",
        r"@(?:copilot|claude|codex|devin|cursor|gemini|chatgpt|openhands|sweep|aider|jules)\b"),
    _rule("ai-field", "note-to-ai", 0.55, f"{_S_AI}|system|instructions|prompt",
        rf"(?:{AI}|system)[_ -]?(?:instructions?|prompt|rules|directives?|notes?|override)s?"
        rf"[\"']?\s*:\s*[\"']?\s*(?:please\s+)?{_ORDER_VERB}|(?:instructions?|prompt)[_ -]?"
        rf"(?:for|to)[_ -](?:the[_ -])?{AI}s?[\"']?\s*:\s*[\"']?\s*(?:please\s+)?{_ORDER_VERB}",
        mentionable=False),
    _rule("if-you-are-an-ai", "note-to-ai", 0.6, f"if|when|{_S_AI}",
        r"if\s+you\s+are\s+(?:an?\s+)?(?:ai|a\.i\.|llm|language\s+model|large\s+language\s+model|"
        rf"assistant|chatbot|bot|agent|automated|gpt|claude)\b|{AI}s?\s+"
        r"(?:reading|processing|parsing|summari[sz]ing|seeing|indexing|ingesting|retrieving)\s+"
        r"(?:this|these|the\s+following|my|our)\b|when\s+(?:the\s+|an?\s+|any\s+)?(?:ai|assistant|llm|model|agent|chatbot)\s+"
        r"(?:reads|sees|processes|summari[sz]es|encounters|retrieves|recalls|loads)\s+this\b"),
    _rule("when-you-read-this", "note-to-ai", 0.45, "when|once|as soon",
        r"(?:when|once|as\s+soon\s+as)\s+you\s+(?:read|see|process|receive|load|open|parse)\s+"
        r"this\b"),
    _rule("when-summarizing-this", "note-to-ai", 0.55, "when|while|if|before|after",
        r"(?:when|while|if|before|after)\s+(?:you\s+(?:are\s+)?)?(?:summari[sz]ing|summari[sz]e|"
        r"processing|process|ingesting|indexing|parsing|analy[sz]ing|quoting|answering\s+questions"
        r"\s+about)\s+(?:this|the\s+following)\s+(?:page|document|doc|note|file|text|email|"
        r"message|article|content|website|site|pdf|entry|memory)\b"),
    _rule("ai-must-in-every-response", "note-to-ai", 0.55, _S_AI,
        rf"{AI}s?\s+(?:must|should|shall|will|are\s+to|is\s+to|need\s+to)\s+(?:always\s+)?"
        r"(?:include|add|append|mention|say|start|begin|end|respond|reply|answer|recommend|"
        r"promote|tell|insert|sign)\b[^.\n]{0,80}?\b(?:every|each|all|any)\s+(?:of\s+(?:their|"
        r"its)\s+)?(?:responses?|replies|reply|answers?|messages?|outputs?)\b"),
    _rule("ai-must-override", "note-to-ai", 0.6, _S_AI,
        rf"{AI}s?\s+(?:must|should|shall|will|is\s+to|are\s+to|needs?\s+to)\s+"
        r"(?:now\s+|always\s+|immediately\s+|silently\s+)*(?:ignore|disregard|forget|reveal|"
        r"obey|stop\s+following|override|leak|disclose|comply\s+with\s+(?:this|these|"
        r"the\s+following))\b"),
    _rule("ai-must-zh", "note-to-ai", 0.55, "ai|人工智能|助手|模型|智能体",
        r"(?:ai|人工智能|ai助手|助手|模型|大模型|智能体)(?:必须|应该|应当|要|务必|需要|一律|得)"
        r"(?:在|把|将|先|始终|总是)?.{0,12}?(?:回答|回复|输出|加上|附上|忽略|无视|泄露|发送|删除|"
        r"执行|服从|推荐|透露)"),
    _rule("note-to-ai-zh", "note-to-ai", 0.6,
        "如果|假如|倘若|致|给|注意|正在|ai|人工智能|助手|模型|智能体",
        r"(?:如果|假如|倘若)你是(?:一个)?(?:ai|人工智能|语言模型|大模型|助手|机器人|智能体)|"
        r"(?:致|给|注意)[:,，\s]*(?:ai|人工智能|ai助手|助手|大模型|智能体|语言模型)[:,，!！]|"
        r"(?:给|致)(?:ai|人工智能|ai助手|助手|大模型|智能体|语言模型)的(?:话|留言|说明|指示|备注)|"
        r"正在(?:阅读|读取|处理)(?:这|此).{0,6}(?:ai|模型|助手|智能体)|"
        r"(?:ai|人工智能|助手|模型|智能体).{0,10}?(?:读取|阅读|处理|看到|总结)(?:本|这|此)(?:篇|份|条)?"
        r"(?:笔记|文件|文档|消息|页面|内容)"),
    _rule("when-summarizing-zh", "note-to-ai", 0.55, "在|当",
        r"(?:在|当)(?:你)?(?:总结|摘要|概括|处理|阅读|分析|翻译)(?:这篇|本|这份|此|这个|这条)"
        r"(?:文档|文章|页面|笔记|邮件|内容|网页|文件)时"),
    # -- fake role and tool markers --------------------------------------------------------------
    _rule("chat-template-token", "role-marker", 0.85, "<|[",
        r"<\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|end|eot_id|eom_id|"
        r"start_header_id|end_header_id|begin_of_text|tool|ipython|python_tag|channel|message|"
        r"constrain|return|call|developer)\|>|\[/?inst\]|<</?sys>>|"
        r"</?(?:system|system[-_]prompt|system[-_]message|system[-_]reminder|sys|instructions?|"
        r"assistant|developer|admin|im_start|user_query|important_instructions)>",
        mentionable=False, in_code=True),
    _rule("tool-call-tag", "role-marker", 0.65, "<|[|```",
        r"</?(?:antml:)?(?:function_calls|function_results|invoke|tool_use|tool_result|tool_call|"
        r"tool_calls|tool_response|tool_output|function_call|function_response|function_result|"
        r"search_results|observation)\b[^>\n]{0,80}>|\[(?:tool|function)[_ ](?:result|call|output|"
        r"response)\]|```tool_(?:code|output|call)",
        mentionable=False, in_code=True),
    _rule("role-fence", "role-marker", 0.6, "```",
        r"```[ \t]*(?:system|assistant|developer|instructions?|tool_output|tool_result|function)\b",
        mentionable=False),
    _rule("json-role", "role-marker", 0.35, "\"|'",
        r"[\"']role[\"']\s*:\s*[\"'](?:system|tool|function|developer)[\"']|"
        r"[\"'](?:tool_calls|function_call|tool_call_id)[\"']\s*:",
        mentionable=False, in_code=True),
    _rule("bracket-role", "role-marker", 0.55, "[|(|【",
        r"[\[(【]\s*(?:system|admin|administrator|developer|root|override|sudo|"
        r"system[ _](?:message|note|notice|override|prompt|update|instruction)|"
        r"系统|系统消息|系统提示|管理员|开发者)\s*[\])】]",
        mentionable=False, in_code=True),
    _rule("bracket-speaker", "role-marker", 0.35, "[|(",
        r"[\[(]\s*(?:assistant|ai|user|human|bot|model|hidden|invisible|secret)\s*[\])]",
        mentionable=False, in_code=True),
    _rule("line-system", "role-marker", 0.65, "^system|developer|sys",
        r"^[ \t>*\-#]*(?:system|developer|sys)\s*(?:message|prompt|note|override|notice|"
        r"instruction|update)?\s*:[ \t]*(?=.*\b(?:you|your|assistant|ai|always|never|must|"
        r"ignore|disregard|respond|reply|answer|from\s+now\s+on|instructions?|rules?|user)\b)",
        mentionable=False, in_code=True),
    _rule("line-system-weak", "role-marker", 0.4, "^system|developer|系统",
        r"^[ \t>*\-#]*(?:system|developer)\s*(?:message|prompt|note|override)?\s*:[ \t]*"
        r"\S+(?:[ \t]+\S+){3,}|^[ \t]*系统(?:通知|消息|提示)?[:：][ \t]*\S{4,}",
        mentionable=False, in_code=True),
    _rule("line-system-zh", "role-marker", 0.65, "^系统",
        r"^[ \t>*\-#]*系统(?:通知|消息|提示)?[:：][ \t]*"
        r"(?=[^\n]*(?:你|您|助手|ai|必须|忽略|无视|指令|"
        r"规则|模式))",
        mentionable=False, in_code=True),
    _rule("line-assistant", "role-marker", 0.35, "^assistant|ai|chatgpt|gpt|claude|bot|model",
        r"^[ \t>*\-]*(?:assistant|ai|chatgpt|gpt|claude|bot|model)\s*:[ \t]*\S",
        mentionable=False, in_code=True),
    _rule("line-user", "role-marker", 0.15, "^user|human",
        r"^[ \t>*\-]*(?:user|human)\s*:[ \t]*\S",
        mentionable=False, in_code=True),
    _rule("markdown-role-header", "role-marker", 0.5, "^#",
        r"^[ \t]{0,3}#{1,6}[ \t]*(?:system|assistant|developer)\s+(?:prompt\s+)?(?:override|update|"
        r"notice|instructions|message)\b[^\n]*$|"
        r"^[ \t]{0,3}#{1,6}[ \t]*(?:(?:system|system\s+prompt|system\s+message|new\s+instructions|"
        r"系统|系统提示词?|新指令)[ \t]*:?|(?:instructions?|response|input|assistant|developer|"
        r"user|human|指令)[ \t]*:)[ \t]*$",
        mentionable=False, in_code=True),
    # -- aimed at the rules files ----------------------------------------------------------------
    _rule("rules-file-write", "rules-file", 0.7,
        "add|append|write|insert|put|save|store|record|copy|paste|prepend|include|inject|update|edit|modify|change|overwrite|replace|rewrite|commit|persist|memori|pin|place",
        r"(?:add|append|write|insert|put|save|store|record|copy|paste|prepend|include|inject|"
        r"update|edit|modify|change|overwrite|replace|rewrite|commit|persist|memori[sz]e|pin|"
        r"place)\b[^.!?\n]{0,60}?(?:\b(?:to|into|in|inside|at\s+the\s+top\s+of|on|under)\s*)?"
        r"(?:your\s+|the\s+)?(?:(?:prompt/)?(?<![\w/.-])(?:soul|identity|user|memory|session-state|"
        r"agents|claude|gemini|system)\.md\b|\.cursorrules|\.windsurfrules|copilot-instructions|"
        r"(?:core|permanent|long[- ]term|persistent|resident)\s+memory\b|rules\s+files?\b|"
        r"system\s+prompt\b|soul\b|persona\s+file|prompt/)",
        lead=True, mentionable=False),
    _rule("rules-file-header", "rules-file", 0.6, "^#",
        r"^[ \t]{0,3}#{1,6}[ \t]*(?:soul|identity|session[- ]state|core\s+directives?|"
        r"prime\s+directive|persona|(?:soul|identity|user|memory|session-state|agents|claude)\.md)"
        r"[ \t]*:?[ \t]*$",
        mentionable=False),
    _rule("rules-file-header-weak", "rules-file", 0.3, "^#",
        r"^[ \t]{0,3}#{1,6}[ \t]*(?:memory|user|rules|core\s+rules|hard\s+rules)[ \t]*$",
        mentionable=False),
    _rule("rules-file-zh", "rules-file", 0.7, "写入|添加到|加到|加入|追加到|写进|存入|保存到|记到",
        r"(?:写入|添加到|加到|加入|追加到|写进|存入|保存到|记到)(?:你的)?.{0,4}"
        r"(?:soul\.md|memory\.md|user\.md|identity\.md|系统提示|核心记忆|永久记忆|长期记忆|规则文件|人设)",
        mentionable=False),
    _rule("rules-file-zh-edit", "rules-file", 0.7, "把|将|memory|soul|user|identity|系统|核心|长期",
        r"(?:把|将)?\s*(?:memory\.md|soul\.md|user\.md|identity\.md|系统提示词?|核心记忆|长期记忆)"
        r"\s*(?:的内容|里的内容|中的内容)?\s*(?:改成|改为|替换为|覆盖为|更新为|修改为|写成)",
        mentionable=False),
    # -- hidden containers and encoding asks -----------------------------------------------------
    _rule("hidden-html", "hidden-text", 0.45, "<",
        r"<(?:div|span|p|font|section|small)\b[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|"
        r"font-size\s*:\s*0|opacity\s*:\s*0|color\s*:\s*(?:white|#fff\b|#ffffff)|\bhidden\b)",
        mentionable=False),
    _rule("payload-splitting", "encoded", 0.6,
        "execute|run|follow|obey|do|perform|concatenat|combine|join",
        r"(?:execute|run|follow|obey|do|perform)\s+(?:the\s+)?(?:instructions?\s+(?:in\s+)?)?"
        r"[a-z]\s*\+\s*[a-z]\b|(?:concatenate|combine|join)\s+(?:them|these|those|the\s+(?:strings|"
        r"pieces|parts|words|variables|fragments|lines)|[a-z]\s+and\s+[a-z])\b[^.\n]{0,30}?"
        r"(?:and|then)\s+(?:execute|follow|obey|do|run|act\s+on)\b"),
    _rule("decode-and-follow", "encoded", 0.6,
        "decode|decrypt|deobfuscate|unscramble|reverse|translate|解码",
        r"(?:decode|decrypt|deobfuscate|unscramble|reverse|translate)\s+(?:this|the\s+following|"
        r"it|the\s+(?:base64|hex|string|text|message|payload))\b[^.\n]{0,60}?\b(?:and|then)\s+"
        r"(?:follow|execute|obey|run|do|apply|carry\s+out|act\s+on|comply)\b|"
        r"解码.{0,10}(?:执行|照做|遵循|服从|按.{0,4}做)"),
)
# fmt: on
