"""The gate's English vocabulary: number and date words, negations, change markers, synonym
and antonym groups, irregular verbs, abbreviations (the Chinese counterparts are in
:mod:`memstrata.gate.lexicon_zh`).

Data only; :mod:`memstrata.gate.statements` turns a text into comparable features with it.
"""

from __future__ import annotations

import re

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
    "thirteen": "13",
    "fourteen": "14",
    "fifteen": "15",
    "sixteen": "16",
    "seventeen": "17",
    "eighteen": "18",
    "nineteen": "19",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "sixty": "60",
    "seventy": "70",
    "eighty": "80",
    "ninety": "90",
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
# Numbers said in several words, read as one: "twenty-five", "five hundred", "two thousand and
# twenty" (each word alone is in NUMBER_WORDS).
_COUNTING = (
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety"
)
SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_NUMBER_WORD = "(?:" + "|".join(_COUNTING.split() + list(SCALES)) + ")"
SPOKEN_NUMBER = re.compile(
    rf"\b{_NUMBER_WORD}(?:(?:[\s-]+|\s+and\s+){_NUMBER_WORD})+\b", re.IGNORECASE
)
# Units that follow a number: part of the number, so "10 min" ≠ "10 h".
UNITS = {
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
DATES = {
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
CAPITAL_DATES = {
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
DATE_WORDS = frozenset(DATES)
NEGATIONS = frozenset("""not no never none nothing nobody neither nor without cannot""".split())
# Words that mark a change over time: a newer statement replaces an older one.
CHANGE_MARKERS = frozenset(
    """now anymore nowadays currently recently lately instead since again""".split()
)
# Prepositions that say what part the word after them plays: "reports *to* Carol", "moved *from*
# Paris", "tea *over* coffee". The same words with these swapped say something else.
ROLE_MARKERS = frozenset(
    """from to over than by for with into onto at in on of before after above below under
    against toward towards versus vs""".split()
)
# Of those, the ones that rank one thing against another: swapped, the two cannot both hold.
# "not" is one where it sets a thing against the rest ("use npm, not pnpm").
RANKING_MARKERS = frozenset("over than above below not".split())
# Prepositions that say the opposite of each other: the same words with one put for the other
# ("run migrations *before* deploying" / "*after* deploying") cannot both hold.
_OPPOSITE_PAIRS = (
    ("before", "after"),
    ("above", "below"),
    ("over", "under"),
    ("to", "from"),
    ("for", "against"),
)
OPPOSITE_MARKERS = {one: other for pair in _OPPOSITE_PAIRS for one, other in (pair, pair[::-1])}
# Words that say how much or which way ("reviews *all* / *some* pull requests", "the service
# is *up* / *down*", "*more* / *fewer* hours"): search drops most of them as stop words, a
# statement does not. ("On" / "off" ending a clause are read as enabled / disabled, below.)
# How often: qualifiers too, and no content words ("*Always* run the linter" = "Run the linter").
HOW_OFTEN = frozenset("always usually often sometimes rarely seldom".split())
# The other words for how often say one of those: "*typically*" = "usually".
FREQUENCY_WORDS = {
    "typically": "usually",
    "normally": "usually",
    "frequently": "often",
    "occasionally": "sometimes",
    "constantly": "always",
    "invariably": "always",
}
FREQUENCY = HOW_OFTEN | frozenset(FREQUENCY_WORDS)
QUALIFIERS = (
    frozenset("all some most few many several more less fewer least only up down off out".split())
    | HOW_OFTEN
)
_OPPOSITE_QUALIFIERS = (
    ("all", "some"),
    ("all", "few"),
    ("many", "few"),
    ("most", "few"),
    ("most", "least"),
    ("more", "less"),
    ("more", "fewer"),
    ("up", "down"),
    ("always", "sometimes"),
    ("always", "rarely"),
    ("always", "seldom"),
    ("usually", "rarely"),
    ("usually", "seldom"),
    ("often", "rarely"),
    ("often", "seldom"),
)
OPPOSITE_QUALIFIERS = frozenset(frozenset(pair) for pair in _OPPOSITE_QUALIFIERS)
# Words that say a statement is of what will be: "Ann *will* move to Berlin" is a plan, and
# "Ann moved to Berlin" says it came about (and "I'll", "we'll").
FUTURE_MARKERS = frozenset("will shall won't wont shan't".split())
# The verb "be", whose two sides name one thing ("Ann is the PM" = "The PM is Ann").
COPULAS = frozenset("is are was were".split())
# Verbs (as stemmed, synonyms folded: "manages", "owns", "heads" → lead) of a role one person
# holds at a time: "Alice now *leads* the payments team" hands over what Bob led.
ONE_HOLDER_VERBS = frozenset("lead maintain chair overse coordinat".split())
# Words, as written, that relate one to many values at once: languages one speaks, sports and
# instruments one plays, allergens, places visited, what one knows, learns, collects or enjoys,
# what one asks to be reminded of (a to-do list).
# "Ann speaks French" says nothing against "Ann speaks Spanish" unless a change is marked
# ("now", "no longer"). Matched as written, since folding puts "prefers" (one choice) with
# "likes".
MANY_VALUED = frozenset(
    """speak speaks spoke speaking play plays played playing visit visits visited visiting
    know knows knew knowing allergic allergy allergies learn learns learned learnt learning
    study studies studied studying collect collects collected collecting enjoy enjoys enjoyed
    enjoying like likes liked love loves loved watch watches watched watching listen listens
    listened listening read reads reading met meet meets calls teach teaches taught teaching
    eat eats ate eating write writes wrote writing depend depends depended depending
    collaborate collaborates collaborated collaborating support supports supported
    remind reminds""".split()
)
# Verbs in the simple past, irregular ones as written (auxiliaries and words that are as often
# something else left out: was, had, did, got, put, set, let, left …). "Bob bought a laptop" and
# "Bob bought a bike" are two things that happened, not one replacing the other.
PAST_VERBS = frozenset(
    """went made took saw gave found told felt thought knew began brought bought built caught
    chose drew drank drove ate fell fought flew forgot grew heard held hid hit hurt kept led
    lent lost met paid read rode rang rose ran said sold sent shook shot showed sang sat slept
    spoke spent stood stole struck swam taught tore threw understood woke wore won wrote dug
    fed hung sought""".split()
)
# Words ending in "ed" that are no past tense.
NOT_PAST = frozenset(
    "need feed seed speed bleed breed proceed succeed exceed indeed embed bed red".split()
)
# The part a person or team takes beside others: "works *with* Carol" keeps "works with Bob".
ALONGSIDE = frozenset("with".split())
# The part that says what a rule holds for: "Use 2 spaces *for* YAML" says nothing of Python.
SCOPES = frozenset("for".split())
# Values that exclude each other even after a verb of many values: "likes the *dark* theme" /
# "likes the *light* theme" is one choice changed, not two held.
_EXCLUSIVE_VALUES = (
    ("dark", "light"), ("hot", "cold"), ("hot", "iced"), ("warm", "cold"), ("early", "late"),
    ("short", "long"), ("brief", "detailed"), ("big", "small"), ("large", "small"),
    ("high", "low"), ("fast", "slow"), ("loud", "quiet"), ("formal", "casual"),
    ("morning", "evening"), ("morning", "night"), ("day", "night"), ("light", "heavy"),
    ("strong", "weak"), ("more", "less"), ("tabs", "spaces"),
)  # fmt: skip
EXCLUSIVE_VALUES = frozenset(frozenset(pair) for pair in _EXCLUSIVE_VALUES)
# A part set against the rest after a comma: "uses pnpm*, not npm*", "Indent with spaces*, never
# tabs*". The negation is of that part alone; the rest is said as written.
SET_AGAINST = re.compile(
    r",\s*(?:not|never)\s+(?!(?:anymore|any more|yet|only|just|even|always|really|quite|sure"
    r"|necessarily)\b)([^,.;:!?()]+?)\s*(?=[,.;:!?()]|$)",
    re.IGNORECASE,
)
# What is fixed once it happened: where and when one was born, a blood type, the year a house was
# built or a firm founded, when two married (not a birthday party, which moves). Another value
# is no update but a contradiction (one of the two is wrong) unless the newer one says it
# corrects ("actually", "turns out").
FIXED_FOR_LIFE = re.compile(
    r"\b(?:born|birthday(?! (?:party|parties|dinner|present|gift|cake|plans?|trip|celebration))"
    r"|birth ?date|date of birth|blood type|built in (?=\d)|founded|established in"
    r"|married (?:in|on)|got married|wedding anniversary)\b"
    r"|出生|生日(?!派对|聚会|礼物|蛋糕|晚宴|宴)|血型|建于|建成于|成立于|结婚",
    re.IGNORECASE,
)
CORRECTION = re.compile(
    r"\b(?:actually|in fact|correction|turns out|i was wrong|was mistaken|not .+ as I said)\b"
    r"|其实|实际上|更正|搞错|记错",
    re.IGNORECASE,
)
# Words that say a statement holds besides another, not instead of it: "Ann *also* drinks
# coffee" keeps "Ann drinks tea", "Alice now *co-leads* the team" keeps Bob. "Too" only ending
# a clause ("coffee *too*", not "*too* cold").
ADDING = re.compile(
    r"\b(?:also|as well(?! as)|too(?=\s*(?:[,.;:!?]|$))|in addition|jointly|co-?lead\w*)\b",
    re.IGNORECASE,
)
# Words before a copula's other side that make it one role ("Ann is *the* PM", "*our* CTO"),
# where "Ann is *a* PM" is one of many.
DEFINITE = frozenset("the".split())
POSSESSIVES = frozenset("our my your his her their its".split())
# Verbs (as stemmed and folded) that say where one lives, and that one went to live elsewhere:
# "Ann *moved* to Lisbon" (relocated) replaces "Ann *lives* in Berlin" (is based, resides).
WHERE_ONE_LIVES = {"liv": "in", "mov": "to"}
# Words (as stemmed) of a time said in words, which may follow a place: "moved to Porto *last
# month*", "*two years ago*".
TIME_WORDS = frozenset("last next this month week year day ago recent yesterday today".split())
# Verbs that mark a change and are kept as content words.
CHANGE_VERBS = frozenset("switch mov becom chang start".split())
# Verbs that mark a change only as written in the past ("was *raised* to 45 seconds",
# "*migrated* to Yarn"): their other forms are nouns as often ("migrations", "an increase").
CHANGED_VERBS = frozenset(
    "rais lower increas reduc extend shorten bump renam migrat replac upgrad downgrad".split()
)
# The parts a value takes after one of those to be the new one: "raised *to* 45", "extended
# *from* two weeks", "rewritten *in* Go" ("was upgraded last week" says no new value).
CHANGE_TO = frozenset("to from in into onto off".split())
# Verbs that mark a change and negate what follows: "stopped eating meat" = no longer eats it.
STOP_VERBS = frozenset("stop quit ceas".split())
RELATIVES = frozenset(
    """son sons daughter daughters child children kid kids wife husband partner spouse mother
    mom mum father dad parent parents sister sisters brother brothers sibling friend friends
    boss girlfriend boyfriend cousin uncle aunt grandmother grandfather grandma grandpa niece
    nephew roommate neighbour neighbor""".split()
)

# Predicate synonyms: each group folds to its first word (compared after stemming).
SYNONYM_GROUPS = (
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
    "allergic allergy",
    "child children kid kids",
    "mother mom mum",
    "father dad",
    "grandmother grandma",
    "grandfather grandpa",
    "neighbour neighbor",
    "vegetarian veggie",
    "colleague coworker teammate",
    "reply respond answer response",
    "bug issue defect",
)
# Antonyms count as the negated word: "hates X" = "does not like X".
ANTONYM_GROUPS = {
    "like": "dislike hate detest loathe",
    "enable": "disable",
    "allow": "forbid prohibit disallow ban",
    "available": "unavailable",
    "pass": "fail",
    "accept": "reject",
    "present": "absent",
    "able": "unable",
    "open": "shut",  # and "closed", read as "shut" (IRREGULAR): "close" is also "near"
    "online": "offline",
}
IRREGULAR = {
    "closed": "shut",
    "rewritten": "write",  # and a change (statements.py): "has been rewritten in Go"
    "rewrote": "write",
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
# Verbs an instruction opens with ("*Use* pnpm", "*Prefer* tabs"), whose subject is the one
# told: a code after one names no subject ("Use *node20*"). Not those that also name a thing
# a number follows ("Build 42", "Run 5", "Release 2.3").
IMPERATIVES = frozenset(
    """use prefer avoid keep make add install ask try put send read reply answer respond
    follow include remove delete create write tell give take pin explain show""".split()
)
# A clause of when that opens a statement before a comma ("*Since the reorg,* Kenji reports to
# Maria", "*As of Monday,* …", "*Going forward,* …"): the subject is what follows it.
OPENING_WHEN = re.compile(
    r"^\W*(?:since|as of|starting|from now on|going forward|these days|nowadays|lately|"
    r"recently|after|before|until|from|on|in|at|by|every|each|this|next|last|today|"
    r"tomorrow|yesterday)\b[^,;.]{0,40},\s*",
    re.IGNORECASE,
)
# Pronouns a statement may open with, which no content word stands for: "*I* prefer tabs",
# "*My* manager is Tom" (the speaker's, as "Ann's manager" is Ann's).
PRONOUNS = frozenset("i we you they he she my our your his her their".split())
# A statement opening with one of these names no subject a number could name ("Use node20",
# "I run 5k"): the verb comes first.
UNNAMED_OPENINGS = IMPERATIVES | PRONOUNS
# Capitalised only because they open a sentence or a note (an instruction opens with its
# verb: "Use pnpm", "Run the linter first"): never taken for names.
OPENERS = (
    frozenset(
        """sure yes yeah ok okay well so then also please note remember meeting meetings user
    agent team everyone everybody someone hi hello thanks run set call check start stop
    commit push pull merge deploy build test format document""".split()
    )
    | IMPERATIVES
)
EXTRA_STOP = (
    frozenset(
        """really very quite just also still much lot lots bit kind sort thing things get got
    every each both either whether one's it's that's there's what's who's let's mostly
    definitely certainly probably maybe perhaps roughly around approximately ones via till
    per within across among upon onto toward towards besides despite throughout amid versus vs
    though although unless whereas""".split()
    )
    | FREQUENCY
)
# Light verbs and adverbs, compared after stemming: "gets reset" = "is reset".
LIGHT_STEMS = frozenset("get becom seem pleas someth anyth".split())
# Filler that says nothing about the fact, dropped before anything else is read.
FILLER = re.compile(
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
ALIASES: tuple[tuple[str, str, bool], ...] = (
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
    # "turned off the alerts" = "turned the alerts off": the verb and its particle say one state
    (r"\b(?:turn|switch)(?:ed|es|s|ing)?\s+off\b", "disabled", False),
    (r"\b(?:turn|switch)(?:ed|es|s|ing)?\s+on\b", "enabled", False),
    (r"\b(?:turn|switch)(?:ed|es|s|ing)?\s+((?:[^\W\d_]+\s+){1,3}?)off\b", r"disabled \1", False),
    (r"\b(?:turn|switch)(?:ed|es|s|ing)?\s+((?:[^\W\d_]+\s+){1,3}?)on\b", r"enabled \1", False),
    # "the flag is on / off" at the end of a clause: a state, not a preposition
    (r"\b(?:switched |turned )?off(?=\s*(?:[.,;!?]|$))", "disabled", False),
    (r"\b(?:switched |turned )?on(?=\s*(?:[.,;!?]|$))", "enabled", False),
)
ALIAS_PATTERNS = tuple(
    (re.compile(pattern, 0 if case_sensitive else re.IGNORECASE), replacement)
    for pattern, replacement, case_sensitive in ALIASES
)
TIME_12H = re.compile(r"\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?", re.IGNORECASE)
TIME_24H = re.compile(r"(?<![\d.:])(\d{1,2}):(\d{2})(?![\d:])")
THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")

MONTHS = (
    "january february march april may june july august september october november december"
).split()
