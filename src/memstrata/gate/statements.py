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
from dataclasses import dataclass
from functools import lru_cache

from memstrata.fts import STOP_WORDS

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(
    rf"(?P<num>\d+(?:[.,:]\d+)*%?)|(?P<cjk>[{_CJK}]+)|(?P<word>[^\W_]+(?:'[^\W_]+)*)"
)
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}(?:-\d{2})?\b")
_MENTION = re.compile(r"@([^\W\d_][\w.\-]*)")

NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "fifteen": "15",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "hundred": "100",
    "thousand": "1000",
    "million": "1000000",
    "dozen": "12",
    "half": "0.5",
    "once": "1x",
    "twice": "2x",
    "first": "1.",
    "second": "2.",
    "third": "3.",
    "fourth": "4.",
    "fifth": "5.",
    "sixth": "6.",
    "seventh": "7.",
    "eighth": "8.",
    "ninth": "9.",
    "tenth": "10.",
}
# Units that follow a number: part of the number, so "10 min" ≠ "10 h".
_UNITS = {
    "ms": "ms",
    "millisecond": "ms",
    "milliseconds": "ms",
    "s": "s",
    "sec": "s",
    "secs": "s",
    "second": "s",
    "seconds": "s",
    "min": "min",
    "mins": "min",
    "minute": "min",
    "minutes": "min",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "day": "d",
    "days": "d",
    "week": "wk",
    "weeks": "wk",
    "month": "mo",
    "months": "mo",
    "year": "y",
    "years": "y",
    "k": "k",
    "kb": "kb",
    "mb": "mb",
    "gb": "gb",
    "tb": "tb",
    "km": "km",
    "kg": "kg",
    "m": "m",
    "%": "%",
    "percent": "%",
    "x": "x",
    "times": "x",
    "inch": "in",
    "inches": "in",
    "euro": "eur",
    "euros": "eur",
    "eur": "eur",
    "dollar": "usd",
    "dollars": "usd",
    "usd": "usd",
    "st": ".",
    "nd": ".",
    "rd": ".",
    "th": ".",
    "分钟": "min",
    "小时": "h",
    "毫秒": "ms",
    "秒": "s",
    "天": "d",
    "个月": "mo",
    "年": "y",
    "周": "wk",
    "次": "x",
    "楼": "floor",
    "层": "floor",
    "元": "cny",
    "块": "cny",
}
_DATES = {
    **{day: day[:3] for day in "monday tuesday wednesday thursday friday saturday sunday".split()},
    **{
        month: month[:3]
        for month in """january february march april june july august september october november
       december""".split()
    },
    "tues": "tue",
    "thur": "thu",
    "thurs": "thu",
    "sept": "sep",
    "today": "today",
    "tonight": "tonight",
    "tomorrow": "tomorrow",
    "yesterday": "yesterday",
    "morning": "morning",
    "afternoon": "afternoon",
    "evening": "evening",
    "night": "night",
    "nightly": "night",
    "noon": "noon",
    "weekend": "weekend",
    "weekday": "weekday",
    "daily": "day",
    "day": "day",
    "weekly": "week",
    "week": "week",
    "monthly": "month",
    "month": "month",
    "yearly": "year",
    "annually": "year",
    "year": "year",
    "quarterly": "quarter",
    "quarter": "quarter",
    "spring": "spring",
    "summer": "summer",
    "autumn": "autumn",
    "fall": "autumn",
    "winter": "winter",
}
# Abbreviations that are dates only when capitalised ("May", "Sun"), not as ordinary words.
_CAPITAL_DATES = {
    "May": "may",
    "Mon": "mon",
    "Tue": "tue",
    "Wed": "wed",
    "Thu": "thu",
    "Fri": "fri",
    "Sat": "sat",
    "Sun": "sun",
    "Jan": "jan",
    "Feb": "feb",
    "Mar": "mar",
    "Apr": "apr",
    "Jun": "jun",
    "Jul": "jul",
    "Aug": "aug",
    "Sep": "sep",
    "Oct": "oct",
    "Nov": "nov",
    "Dec": "dec",
}
DATE_WORDS = frozenset(_DATES)
NEGATIONS = frozenset("""not no never none nothing nobody neither nor without cannot""".split())
# Words that mark a change over time: a newer statement replaces an older one.
CHANGE_MARKERS = frozenset(
    """now anymore nowadays currently recently lately instead since""".split()
)
# Verbs that mark a change and are kept as content words.
_CHANGE_VERBS = frozenset("switch mov becom chang start".split())
# Verbs that mark a change and negate what follows: "stopped eating meat" = no longer eats it.
_STOP_VERBS = frozenset("stop quit ceas".split())
RELATIVES = frozenset(
    """son sons daughter daughters child children kid kids wife husband partner spouse mother
    mom mum father dad parent parents sister sisters brother brothers sibling friend friends
    boss girlfriend boyfriend cousin uncle aunt grandmother grandfather grandma grandpa niece
    nephew roommate neighbour neighbor""".split()
)
_ZH_RELATIVES = (
    "女儿",
    "儿子",
    "孩子",
    "妻子",
    "老婆",
    "丈夫",
    "老公",
    "妈妈",
    "母亲",
    "爸爸",
    "父亲",
    "姐姐",
    "妹妹",
    "哥哥",
    "弟弟",
    "朋友",
    "同事",
    "老板",
    "男友",
    "女友",
    "邻居",
)

# Predicate synonyms: each group folds to its first word (compared after stemming).
_SYNONYM_GROUPS = (
    "like love enjoy fond adore prefer favorite favourite fan keen want wish desire ask",
    "need require",
    "live reside stay based",
    "work employ job",
    "move relocate",
    "drink sip",
    "buy purchase",
    "start begin kick",
    "finish complete end done",
    "big large huge",
    "small little tiny",
    "fast quick rapid speedy",
    "slow sluggish",
    "use utilize rely",
    "fix resolve repair",
    "lead head manage responsible charge own",
    "talk speak chat discuss",
    "say tell mention",
    "meet meeting",
    "call phone ring",
    "go visit travel",
    "always usually typically normally",
    "often frequently",
    "allergic allergy",
    "vegetarian veggie",
    "colleague coworker teammate",
    "reply respond answer response",
    "bug issue defect",
)
# Antonyms count as the negated word: "hates X" = "does not like X".
_ANTONYM_GROUPS = {
    "like": "dislike hate detest loathe",
    "enable": "disable",
    "allow": "forbid prohibit disallow ban",
    "available": "unavailable",
    "pass": "fail",
    "accept": "reject",
    "present": "absent",
    "able": "unable",
}
_IRREGULAR = {
    "used": "use",
    "using": "use",
    "uses": "use",
    "went": "go",
    "gone": "go",
    "wrote": "write",
    "written": "write",
    "ran": "run",
    "began": "begin",
    "begun": "begin",
    "took": "take",
    "taken": "take",
    "gave": "give",
    "given": "give",
    "made": "make",
    "built": "build",
    "chose": "choose",
    "chosen": "choose",
    "led": "lead",
    "sent": "send",
    "spent": "spend",
    "told": "tell",
    "said": "say",
    "thought": "think",
    "bought": "buy",
    "brought": "bring",
    "met": "meet",
    "paid": "pay",
    "held": "hold",
    "kept": "keep",
    "found": "find",
    "knew": "know",
    "known": "know",
    "shown": "show",
    "saw": "see",
    "seen": "see",
    "spoke": "speak",
    "spoken": "speak",
    "broke": "break",
    "broken": "break",
    "drove": "drive",
    "driven": "drive",
    "flew": "fly",
    "flown": "fly",
    "grew": "grow",
    "grown": "grow",
    "ate": "eat",
    "eaten": "eat",
    "drank": "drink",
    "drunk": "drink",
    "won": "win",
    "lost": "lose",
    "sold": "sell",
    "taught": "teach",
    "caught": "catch",
    "felt": "feel",
    "forgot": "forget",
    "forgotten": "forget",
    "understood": "understand",
    "wore": "wear",
    "worn": "wear",
    "rode": "ride",
    "ridden": "ride",
    "stood": "stand",
    "threw": "throw",
    "thrown": "throw",
    "became": "become",
    "hid": "hide",
    "slept": "sleep",
    "left": "leave",
    "quitting": "quit",
    "quits": "quit",
}
# Capitalised only because they open a sentence or a note: never taken for names.
_OPENERS = frozenset(
    """sure yes yeah ok okay well so then also please note remember meeting meetings user
    agent team everyone everybody someone hi hello thanks""".split()
)
_EXTRA_STOP = frozenset(
    """really very quite just also still much lot lots bit kind sort thing things get got
    every each both either whether one's it's that's there's what's who's let's mostly
    definitely certainly probably maybe perhaps roughly around approximately ones via till
    per within across among upon onto toward towards besides despite throughout amid versus vs
    though although unless whereas""".split()
)
# Light verbs and adverbs, compared after stemming: "gets reset" = "is reset".
_LIGHT_STEMS = frozenset("get becom seem pleas someth anyth".split())
# Filler that says nothing about the fact, dropped before anything else is read.
_FILLER = re.compile(
    r"\b(?:by the way|btw|fyi|just so you know|for what it'?s worth|as far as i know|afaik"
    r"|as (?:mentioned|said|noted)(?: earlier| before| above)?|heads up|keep in mind(?: that)?"
    r"|please note(?: that)?|note that|note\s*:|just a reminder(?: that)?|reminder\s*:"
    r"|remember that"
    r"|i (?:believe|think|guess|heard)(?: that)?|it seems(?: that)?|apparently|basically"
    r"|generally|in general|actually|honestly|iirc|imo|(?:he|she|they) (?:told|said to) me"
    r"|a lot|lots of|of course)(?!\w)",
    re.IGNORECASE,
)
# Abbreviations and spellings folded to one form: (pattern, replacement, case-sensitive).
_ALIASES: tuple[tuple[str, str, bool], ...] = (
    (r"\bno longer\b", "not anymore", False),
    (r"\bany more\b", "anymore", False),
    (r"\b(?:gave|give|gives|giving) up\b", "stopped", False),
    # "used to work" and "former manager": true once, no longer
    (r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bget )\bused to\b", "stopped", False),
    (r"\bformer(?:ly)?\b|\bex-(?=\w)", "stopped ", False),
    (r"\b(?:is |are |was )?in charge of\b", "leads", False),
    (r"\b(?:can ?not|can't) stand\b", "hates", False),
    (r"\b(?:is |are )?an? (?:big |huge )?fan of\b", "loves", False),
    (r"\bless than\b|\bfewer than\b", "under", False),
    (r"\bmore than\b|\bbetter than\b|\brather than\b", "over", False),
    (r"\b(?:is |are )?responsible for\b", "leads", False),
    (r"\bk8s\b|\bkube\b", "Kubernetes", False),
    (r"\bpostgresql\b|\bpostgres\b|\bpsql\b", "Postgres", False),
    (r"\bgolang\b", "Go", False),
    (r"\bjs\b", "JavaScript", False),
    (r"\bTS\b", "TypeScript", True),
    (r"\bpull requests?\b", "pull_request", False),
    (r"\bPRs?\b", "pull_request", True),
    (r"\bmerge requests?\b", "merge_request", False),
    (r"\bMRs?\b", "merge_request", True),
    (r"\bcontinuous integration\b|\bCI\b", "CI", False),
    (r"\bcontinuous (?:delivery|deployment)\b", "CD", False),
    (r"\btime[- ]to[- ]live\b", "TTL", False),
    (r"\brequests? (?:per|a|/) ?second\b|\breq/s\b", "rps", False),
    (r"\bqueries (?:per|a|/) ?second\b", "qps", False),
    (r"\bcentral european (?:summer )?time\b", "CET", False),
    (r"\bpacific (?:standard )?time\b", "PT", False),
    (r"\bunited states\b", "US", False),
    (r"\bU\.S\.(?:A\.)?|\bUSA\b", "US", True),
    (r"\bunited kingdom\b", "UK", False),
    (r"\bU\.K\.", "UK", True),
    (r"\bout of (?:the )?office\b|\bOOO\b", "away", False),
    (r"\b(?:amazon|aws) s3\b", "S3", False),
    (r"\bamazon web services\b", "AWS", False),
    (r"\bgoogle cloud(?: platform)?\b", "GCP", False),
    (r"\bdb\b|\bdbs\b|\bdatabases\b", "database", False),
    (r"\bprod\b", "production", False),
    (r"\bdev\b", "development", False),
    (r"\brepos?\b|\brepositories\b", "repository", False),
    (r"\bconfigs?\b|\bconfigurations\b", "configuration", False),
    (r"\bdocs?\b|\bdocumentation\b", "documentation", False),
    (r"\benvs?\b|\benvironments\b", "environment", False),
    (r"\bapps?\b|\bapplications\b", "application", False),
    (r"\binfo\b", "information", False),
    (r"\bmsgs?\b", "message", False),
    (r"\beng\b", "engineering", False),
    (r"\binfra\b", "infrastructure", False),
    (r"\bperf\b", "performance", False),
    (r"\bw/o\b", "without", False),
    (r"\bw/", "with ", False),
    (r"\basap\b", "as soon as possible", False),
    (r"\bapprox\.?", "about", False),
    (r"\bnoon\b", "12:00", False),
    (r"\bmidnight\b", "00:00", False),
    # "the flag is on / off" at the end of a clause: a state, not a preposition
    (r"\b(?:switched |turned )?off(?=\s*(?:[.,;!?]|$))", "disabled", False),
    (r"\b(?:switched |turned )?on(?=\s*(?:[.,;!?]|$))", "enabled", False),
)
_ALIAS_PATTERNS = tuple(
    (re.compile(pattern, 0 if case_sensitive else re.IGNORECASE), replacement)
    for pattern, replacement, case_sensitive in _ALIASES
)
_TIME_12H = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
_TIME_24H = re.compile(r"(?<![\d.:])(\d{1,2}):(\d{2})(?![\d:])")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")

# Chinese: numerals, times, dates, antonyms, synonyms, particles.
_ZH_NUMERAL = "零〇一二两三四五六七八九十百千万"
_ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
_ZH_WEEKDAYS = {
    "一": "monday",
    "二": "tuesday",
    "三": "wednesday",
    "四": "thursday",
    "五": "friday",
    "六": "saturday",
    "日": "sunday",
    "天": "sunday",
}
_ZH_PERIODS = {"上午": "", "早上": "", "早晨": "", "中午": "", "下午": "pm", "晚上": "pm"}
# Compounds holding a numeral or a negation character that mean neither (patterns).
_ZH_PROTECTED = (
    ("非常", "很"),
    ("十分(?!钟)", "很"),
    ("特别", "很"),
    ("一直", "总"),
    ("始终", "总"),
    ("一起", "同"),
    ("一些", "些"),
    ("一下", ""),
    ("一样", "同样"),
    ("一般", "通常"),
    ("一定", "必"),
    ("一切", "全部"),
    ("一向", "总"),
    ("统一", "统合"),
    ("唯一", "仅"),
    ("万一", "如果"),
    ("千万", "务必"),
    ("三明治", "sandwich"),
    ("不错", "好"),
    ("不仅", ""),
    ("不断", "持续"),
    ("无论", ""),
    ("未来", "将来"),
    ("别人", "他人"),
    ("别的", "其他"),
    ("差不多", "大约"),
    ("并且", "且"),
    ("毫无疑问", ""),
    ("不得不", "必须"),
    ("不久", "很快"),
)
_ZH_PROTECTED_PATTERNS = tuple((re.compile(p), r) for p, r in _ZH_PROTECTED)
_ZH_PHRASES = (
    ("讨厌", "不喜欢"),
    ("厌恶", "不喜欢"),
    ("反感", "不喜欢"),
    ("关闭", "不开启"),
    ("关掉", "不开启"),
    ("禁用", "不开启"),
    ("停用", "不开启"),
    ("启用", "开启"),
    ("打开", "开启"),
    ("禁止", "不允许"),
    ("不可以", "不允许"),
    ("喜爱", "喜欢"),
    ("热爱", "喜欢"),
    ("钟爱", "喜欢"),
    ("偏爱", "喜欢"),
    ("偏好", "喜欢"),
    ("居住在", "住"),
    ("居住", "住"),
    ("住在", "住"),
    ("使用", "用"),
    ("采用", "用"),
    ("用的是", "用"),
    ("购买", "买"),
    ("想要", "希望"),
    ("要求", "希望"),
    ("编写", "写"),
    ("运行", "跑"),
    ("就职于", "工作于"),
    ("任职于", "工作于"),
    ("素食者", "吃素"),
    ("素食主义者", "吃素"),
    ("会说", "懂"),
    ("每天晚上", " night "),
    ("每晚", " night "),
    ("每天早上", " morning "),
    ("每天早晨", " morning "),
    ("每天", " daily "),
    ("每日", " daily "),
    ("每周", " weekly "),
    ("每星期", " weekly "),
    ("每月", " monthly "),
    ("早上", " morning "),
    ("早晨", " morning "),
    ("上午", " morning "),
    ("下午", " afternoon "),
    ("晚上", " night "),
    ("今天", " today "),
    ("明天", " tomorrow "),
    ("昨天", " yesterday "),
    ("下周", " next week "),
    ("上周", " last week "),
    ("周末", " weekend "),
    ("春天", " spring "),
    ("夏天", " summer "),
    ("秋天", " autumn "),
    ("冬天", " winter "),
)
_ZH_LOVE = re.compile(r"(?<![可恋心])爱(?![好人])")
_ZH_NEGATIONS = ("不", "没", "無", "无", "未", "非", "别")
_ZH_CHANGE = (
    "不再",
    "已经",
    "现在",
    "如今",
    "目前",
    "改为",
    "改到",
    "改成",
    "换成",
    "换到",
    "开始",
    "搬到",
    "变成",
)
_ZH_STOP_VERBS = ("戒", "停止", "放弃", "以前", "曾经")
_ZH_PARTICLES = frozenset(
    "的了很也都就还挺太吗呢吧啊呀着是在对把被由给于将这那个些之与和及又才总有只台位条件里会来"
)
_ZH_TIME = re.compile(
    rf"(上午|早上|早晨|中午|下午|晚上)?\s*([\d{_ZH_NUMERAL}]+)\s*[点點](半|[\d{_ZH_NUMERAL}]+分)?"
)
_ZH_WEEKDAY = re.compile(r"(?:周|星期|礼拜)([一二三四五六日天])")
_ZH_MONTH_DAY = re.compile(rf"([\d{_ZH_NUMERAL}]+)\s*月(?:\s*([\d{_ZH_NUMERAL}]+)\s*[日号])?")
_ZH_NUMBER = re.compile(rf"[{_ZH_NUMERAL}]+")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()


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


@lru_cache(maxsize=4096)
def features_of(text: str) -> Features:
    """Extract the features of ``text`` (cached: the gate compares one text many times)."""
    text = unicodedata.normalize("NFKC", text).replace("’", "'").replace("‘", "'")
    dates = {m.group(0) for m in _ISO_DATE.finditer(text)}
    text = _ISO_DATE.sub(" ", text)
    names = {m.casefold() for m in _MENTION.findall(text)}
    cjk = bool(re.search(f"[{_CJK}]", text))
    state = _State(names=names, dates=dates)
    text = _normalise_english(text)
    if cjk:
        text = _normalise_chinese(text, state)
    tokens = [(m.lastgroup or "", m.group(0)) for m in _TOKEN.finditer(text)]
    for position, (kind, token) in enumerate(tokens):
        following = tokens[position + 1][1] if position + 1 < len(tokens) else ""
        if kind == "num":
            state.add_number(token, following)
        elif kind == "cjk":
            _read_chinese(token, state)
        else:
            _read_word(token, following, state)
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
    )


class _State:
    """What one pass over the tokens of a statement has found so far."""

    def __init__(self, names: set[str], dates: set[str]) -> None:
        self.words: set[str] = set()
        self.numbers: set[str] = set()
        self.dates = dates
        self.names = names
        self.relatives: set[str] = set()
        self.negated = False
        self.change_marked = False
        self.subject = ""
        self.skip_unit = ""

    def add_word(self, word: str) -> None:
        self.words.add(word)
        if not self.subject:
            self.subject = word

    def add_number(self, token: str, following: str) -> None:
        value = _THOUSANDS.sub("", token)
        unit = ""
        if value.endswith("%"):
            value, unit = value[:-1], "%"
        elif following.casefold() in _UNITS:
            unit = _UNITS[following.casefold()]
            self.skip_unit = following
        elif _is_cjk(following):
            prefix = next((p for p in (following[:2], following[:1]) if p in _UNITS), "")
            if prefix:
                unit, self.skip_unit = _UNITS[prefix], prefix
        if unit == "k":
            value, unit = _times(value, 1000), ""
        if ":" in value:
            hours, _, minutes = value.partition(":")
            value = f"{int(hours):02d}:{minutes}" if hours.isdigit() else value
        self.numbers.add(value + unit)


def _times(value: str, factor: int) -> str:
    try:
        number = float(value) * factor
    except ValueError:
        return value
    return str(int(number)) if number.is_integer() else str(number)


def _normalise_english(text: str) -> str:
    text = _FILLER.sub(" ", text)
    for pattern, replacement in _ALIAS_PATTERNS:
        text = pattern.sub(replacement, text)
    text = _TIME_12H.sub(_clock_12h, text)
    return _TIME_24H.sub(lambda m: f"{int(m.group(1)):02d}:{m.group(2)}", text)


def _clock_12h(match: re.Match[str]) -> str:
    hour = int(match.group(1)) % 12 + (12 if match.group(3).casefold() == "p" else 0)
    return f" {hour:02d}:{match.group(2) or '00'} "


def _normalise_chinese(text: str, state: _State) -> str:
    for pattern, replacement in _ZH_PROTECTED_PATTERNS:
        text = pattern.sub(replacement, text)
    text = _ZH_TIME.sub(_zh_clock, text)
    text = _ZH_WEEKDAY.sub(lambda m: f" {_ZH_WEEKDAYS[m.group(1)]} ", text)
    text = _ZH_MONTH_DAY.sub(_zh_month_day, text)
    for marker in _ZH_CHANGE:
        if marker in text:
            state.change_marked = True
            text = text.replace(marker, "不" if marker == "不再" else " ")
    for verb in _ZH_STOP_VERBS:
        if verb in text:
            state.change_marked = True
            state.negated = not state.negated
            text = text.replace(verb, " ")
    for phrase, replacement in _ZH_PHRASES:
        text = text.replace(phrase, replacement)
    text = _ZH_LOVE.sub("喜欢", text)
    for relative in _ZH_RELATIVES:
        if relative in text:
            state.relatives.add(relative)
            state.names.add(relative)
    return _ZH_NUMBER.sub(lambda m: f" {_zh_number(m.group(0))} ", text)


def _zh_clock(match: re.Match[str]) -> str:
    period, hour_text, minute_text = match.groups()
    hour = int(_zh_number(hour_text)) if hour_text else 0
    if _ZH_PERIODS.get(period or "") == "pm" and hour < 12:
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
    name = _MONTHS[month - 1] if 1 <= month <= 12 else str(month)
    return f" {name}{day}"


def _zh_number(run: str) -> str:
    """``十五`` → 15, ``两`` → 2, ``三百`` → 300, ``2025`` → 2025, ``一二`` → 12."""
    if run.isdigit():
        return str(int(run))
    if all(ch in _ZH_DIGITS for ch in run):
        return "".join(str(_ZH_DIGITS[ch]) for ch in run)
    total, section, digit = 0, 0, 0
    for ch in run:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
        elif ch == "万":
            total += (section + digit) * 10000
            section, digit = 0, 0
        else:
            unit = {"十": 10, "百": 100, "千": 1000}[ch]
            section += (digit or 1) * unit
            digit = 0
    return str(total + section + digit)


def _read_chinese(run: str, state: _State) -> None:
    negations = sum(run.count(mark) for mark in _ZH_NEGATIONS)
    if negations % 2:
        state.negated = not state.negated
    for mark in _ZH_NEGATIONS:
        run = run.replace(mark, "")
    if state.skip_unit and run.startswith(state.skip_unit):
        run = run[len(state.skip_unit) :]
    state.skip_unit = ""
    kept = "".join(ch for ch in run if ch not in _ZH_PARTICLES)
    # bigrams for order, single characters so that an inserted word does not hide the rest
    for gram in sorted(_bigrams(kept) | set(kept), key=lambda g: (kept.find(g), -len(g))):
        state.add_word(gram)


def _read_word(token: str, following: str, state: _State) -> None:
    if state.skip_unit:
        state.skip_unit = ""
        return
    folded = token.casefold()
    if (
        folded.endswith("n't")
        or folded in NEGATIONS
        or folded in ("cant", "dont", "doesnt", "didnt", "isnt", "wont")
    ):
        state.negated = not state.negated
        return
    if "'" in folded:
        token, _, _ = token.partition("'")
        folded = token.casefold()
    if folded in CHANGE_MARKERS:
        state.change_marked = True
        return
    if token in _CAPITAL_DATES and (token != "May" or following[:1].isdigit() or not following):
        state.dates.add(_CAPITAL_DATES[token])
        return
    if folded in NUMBER_WORDS:
        state.add_number(NUMBER_WORDS[folded], following)
        return
    if any(ch.isdigit() for ch in folded):
        state.numbers.add(folded)  # versions and codes: v2, p99, s3, ec2
        return
    date = _DATES.get(folded) or (_DATES.get(folded[:-1]) if folded.endswith("s") else None)
    if date:
        state.dates.add(date)
        return
    if folded in STOP_WORDS or folded in _EXTRA_STOP or len(folded) < 2:
        return
    if folded in RELATIVES:
        state.relatives.add(_stem(folded))
        state.names.add(_stem(folded))
    elif token[:1].isupper() and folded not in _OPENERS:
        state.names.add(folded)
    word, negates = _fold(folded)
    if negates:
        state.negated = not state.negated
    if word in _STOP_VERBS:
        state.negated = not state.negated
        state.change_marked = True
        return
    if word in _CHANGE_VERBS:
        state.change_marked = True
    if word not in _LIGHT_STEMS:
        state.add_word(word)


def fold_word(word: str) -> str:
    """Light stemming plus synonym folding: ``prefers`` → ``lik``, ``offices`` → ``offic``."""
    return _fold(word.casefold())[0]


def _fold(word: str) -> tuple[str, bool]:
    """The folded form of ``word`` and whether it is an antonym (``hates`` → ``lik``, True)."""
    stem = _stem(_IRREGULAR.get(word, word))
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
    for group in _SYNONYM_GROUPS:
        words = group.split()
        for word in words:
            synonyms.setdefault(_stem(word), _stem(words[0]))
    antonyms: dict[str, str] = {}
    for head, words in _ANTONYM_GROUPS.items():
        for word in words.split():
            antonyms.setdefault(_stem(word), synonyms.get(_stem(head), _stem(head)))
    return synonyms, antonyms


_SYNONYMS, _ANTONYMS = _fold_tables()


def _bigrams(run: str) -> set[str]:
    if len(run) == 1:
        return {run}
    return {run[i : i + 2] for i in range(len(run) - 1)}


def _is_cjk(token: str) -> bool:
    return bool(re.match(rf"^[{_CJK}]", token))


def own_words(a: Features, b: Features) -> frozenset[str]:
    """The content words of ``a`` that ``b`` lacks; Chinese by character, so order is free."""
    return frozenset(w for w in a.words - b.words if not (len(w) == 2 and _is_cjk(w)))


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
    if a.negated != b.negated:
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


def _unmatched_names(a: Features, b: Features) -> set[str]:
    return {name for name in a.names - b.names if fold_word(name) not in b.words}
