"""How the gate relates two statements, and how well it finds duplicates on the labelled pairs."""

import importlib.util
import itertools
import sys
from collections import Counter
from pathlib import Path

import pytest

from memstrata.gate.calibration import DEDUP_THRESHOLDS, dedup_threshold
from memstrata.gate.relation import relate
from memstrata.gate.statements import features_of
from memstrata.providers.embedder import DEFAULT_EMBEDDER, load_embedder
from tests.gate.blind_pairs import BLIND_PAIRS
from tests.gate.blind_pairs_2 import BLIND_PAIRS_2
from tests.gate.blind_pairs_3 import BLIND_PAIRS_3
from tests.gate.blind_pairs_4 import BLIND_PAIRS_4
from tests.gate.blind_pairs_5 import BLIND_PAIRS_5
from tests.gate.blind_pairs_6 import BLIND_PAIRS_6
from tests.gate.dedup_pairs import DETAIL_CHANGE_CATEGORIES, LABELS, PAIRS

REPO = Path(__file__).resolve().parents[2]


def _load_benchmark():
    spec = importlib.util.spec_from_file_location("dedup_bench", REPO / "benchmarks" / "dedup.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


bench = _load_benchmark()


# --- behaviour ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Ann adores jazz", "Ann likes jazz"),  # verb synonym
        ("The report was written by Omar", "Omar wrote the report"),  # passive, irregular verb
        ("By the way, Sara is vegetarian", "Sara is vegetarian"),  # filler
        ("The API runs on k8s", "The API runs on Kubernetes"),  # abbreviation
        ("The sync is at 15:00", "The sync is at 3pm"),  # the same time written two ways
        ("Peter does not eat meat", "Peter doesn't eat meat"),  # contraction
        ("Coffee is what Ann drinks", "Ann drinks coffee"),  # capitalised only at the start
        ("王伟居住在上海", "王伟住在上海"),  # 同义改写
        ("前端代码由吴静维护", "吴静维护前端代码"),  # word order, by character
    ],
)
def test_paraphrases_with_the_same_content_words_are_duplicates(candidate, stored):
    assert relate(candidate, stored).kind == "duplicate"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Ann prefers a flat white", "Ann prefers a cortado"),
        ("The meeting is at 4pm", "The meeting is at 3pm"),
        ("The API handles 450 rps", "The API handles 400 rps"),
        ("The launch is on March 10", "The launch is on March 3"),
        ("The billing service uses MySQL", "The billing service uses Postgres"),
        ("Peter is no longer vegetarian", "Peter is vegetarian"),
        ("Kenji stopped using Windows", "Kenji uses Windows"),
        ("会议在下午4点", "会议在下午3点"),
        ("李娜不再喝咖啡了", "李娜喝咖啡"),
    ],
)
def test_a_new_value_or_a_marked_change_of_polarity_is_an_update(candidate, stored):
    assert relate(candidate, stored, cosine=0.99, threshold=0.5).kind == "update"


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        ("The meeting is at 4pm", "The meeting is at 3pm", "another number: 3pm → 4pm"),
        (
            "Li Na moved to the Beijing office in October 2026",
            "Li Na works in the Shanghai office",
            "another name: Shanghai → Beijing",
        ),
        ("The API now handles 450 requests", "The API handles requests", "a number added: 450"),
    ],
)
def test_an_update_names_the_detail_that_changed_before_one_only_added(candidate, stored, reason):
    relation = relate(candidate, stored)
    assert relation.kind == "update" and relation.reason == f"same statement, {reason}"


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        # the drink changed; "every morning" is part of what the old statement said there
        (
            "Ann drinks espresso now",
            "Ann drinks a flat white with oat milk every morning.",
            "another value (flat white with oat milk every morning → espresso)",
        ),
        (
            "Ann now drinks cortado on Mondays",
            "Ann drinks a flat white",
            "another value (flat white → cortado on Mondays)",
        ),
        # "rps" is read as a word, not as the unit of 450: "requests" is what it replaced
        (
            "The API now handles 450 rps",
            "The API handles requests",
            "another value (requests → 450 rps)",
        ),
    ],
)
def test_an_update_whose_words_changed_quotes_them_not_only_a_detail_one_side_holds(
    candidate, stored, reason
):
    relation = relate(candidate, stored)

    assert relation.kind == "update" and relation.reason == f"same statement, {reason}"


def test_a_verb_of_change_is_not_quoted_as_the_value_it_brings():
    # "switched" says that the editor changed, not which one it is now
    relation = relate("Carlos switched from Vim to Helix", "Carlos uses Vim")

    assert relation.kind == "update"
    assert "Helix" in relation.reason and "switched" not in relation.reason


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        ("Bea now drinks coffee", "Bea no longer drinks tea", "tea / coffee"),
        ("Bea no longer drinks tea", "Bea drinks coffee", "coffee / tea"),
        ("Ann now works on Mondays", "Ann no longer works on Fridays", "Fridays / Mondays"),
    ],
)
def test_a_change_of_polarity_over_time_said_of_something_else_replaces_nothing(
    candidate, stored, reason
):
    # she stopped drinking tea, and drinks coffee now: both hold, neither is undone
    relation = relate(candidate, stored)

    assert relation.kind == "unrelated"
    assert relation.reason == f"the opposite said of something else ({reason})"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Bea now drinks tea again", "Bea no longer drinks tea"),
        # what is said beside the denial ("Priya took over") is not what is denied
        ("Omar no longer leads billing; Priya took over in June.", "Omar leads the billing team."),
        ("Sam no longer drinks coffee; Sam switched to tea.", "Sam drinks coffee every morning."),
        ("Ann no longer leads payments, but reviews its code", "Ann leads the payments team"),
    ],
)
def test_a_change_of_polarity_over_time_of_what_the_other_says_is_an_update(candidate, stored):
    relation = relate(candidate, stored)

    assert relation.kind == "update" and relation.reason == "the polarity changed over time"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Peter is not vegetarian", "Peter is vegetarian"),
        ("Ann hates jazz", "Ann likes jazz"),
        ("The feature flag is disabled", "The feature flag is enabled"),
        ("Marco is unavailable on weekends", "Marco is available on weekends"),
        ("The autoscaler is off", "The autoscaler is on"),
        ("张伟不是素食者", "张伟是素食者"),
        ("用户讨厌表情符号", "用户喜欢表情符号"),
    ],
)
def test_opposite_polarity_without_a_change_marker_is_a_contradiction(candidate, stored):
    assert relate(candidate, stored, cosine=0.99, threshold=0.5).kind == "contradiction"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Peter likes jazz", "Ann likes jazz"),
        ("Marco's son is allergic to peanuts", "Marco is allergic to peanuts"),
        ("The iOS build is slow", "The Android build is slow"),
        ("王伟喜欢爵士乐", "李娜喜欢爵士乐"),
        ("O'Neil runs the pub", "O’Brien runs the pub"),  # the whole name, not the O before it
    ],
)
def test_the_same_statement_about_someone_else_is_unrelated(candidate, stored):
    assert relate(candidate, stored, cosine=0.99, threshold=0.5).kind == "unrelated"


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # a change marked: the newer order replaces the older
        ("Ann now prefers coffee over tea", "Ann prefers tea over coffee", "update"),
        ("Omar switched from Helix back to Vim", "Omar switched from Vim to Helix", "update"),
        ("Bob is now taller than Ann", "Ann is taller than Bob", "update"),
        # parts of the day are details, and have parts too
        (
            "@Ann now likes afternoons over mornings",
            "@Ann likes mornings over afternoons",
            "update",
        ),
        (
            "The shift runs from Friday to Monday",
            "The shift runs from Monday to Friday",
            "unrelated",
        ),
        # and numbers: what they are said after, and what they count
        ("The sync moved from 4pm to 3pm", "The sync moved from 3pm to 4pm", "update"),
        ("Ann has 3 cats and 2 dogs", "Ann has 2 cats and 3 dogs", "unrelated"),
        # and Chinese, compared by character: two pieces that change places around the rest
        ("王伟现在更喜欢咖啡而不是茶", "王伟更喜欢茶而不是咖啡", "update"),
        ("王伟更喜欢咖啡而不是茶", "王伟更喜欢茶而不是咖啡", "contradiction"),
        ("李娜向王伟汇报", "王伟向李娜汇报", "unrelated"),
        ("王伟喜欢茶和咖啡", "王伟喜欢咖啡和茶", "duplicate"),  # a list
        ("前端代码由吴静维护", "吴静维护前端代码", "duplicate"),  # the passive
        ("杨帆更喜欢用 Go 而不是 Python", "杨帆更喜欢用 Python 而不是 Go", "contradiction"),
        # the two sides of "is" turned wholesale name one thing
        ("The PM is Ann", "Ann is the PM", "duplicate"),
        ("Bob's manager is Ann", "Ann is Bob's manager", "duplicate"),
        ("Bob is Ann's manager", "Ann is Bob's manager", "unrelated"),
        ("产品经理是何芳", "何芳是产品经理", "duplicate"),
        ("陈静是刘洋的领导", "刘洋是陈静的领导", "unrelated"),
        # ranked the other way with no change marked: a human decides
        ("Ann prefers coffee over tea", "Ann prefers tea over coffee", "contradiction"),
        ("Ann strongly prefers coffee over tea", "Ann prefers tea over coffee", "contradiction"),
        ("Use npm, not pnpm", "Use pnpm, not npm", "contradiction"),
        # one word after the opposite preposition
        ("Run migrations after deploying", "Run migrations before deploying", "contradiction"),
        ("The standup is now after lunch", "The standup is before lunch", "update"),
        # another statement: both are kept
        ("Carol reports to Bob", "Bob reports to Carol", "unrelated"),
        ("Carol manages Bob", "Bob manages Carol", "unrelated"),
        ("Ann now likes Bob", "Bob likes Ann", "unrelated"),
        # the same parts: the voice, a listing order or a fronted thing changes none
        ("Carol is managed by Bob", "Bob manages Carol", "duplicate"),
        ("Ann likes tea and coffee", "Ann likes coffee and tea", "duplicate"),
        ("Ann likes blues but not jazz", "Ann does not like jazz, but likes blues", "duplicate"),
        ("Don't use pnpm, use npm", "Use npm, not pnpm", "duplicate"),
        ("Coffee is what Ann drinks", "Ann drinks coffee", "duplicate"),
    ],
)
def test_the_same_words_in_other_parts_are_never_one_statement(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        ("The service is down", "The service is up", "contradiction"),
        ("The service is now down", "The service is up", "update"),
        ("The service is up again", "The service is down since Tuesday", "update"),
        ("Ann reviews some pull requests", "Ann reviews all pull requests", "contradiction"),
        ("Ann works fewer hours than Bob", "Ann works more hours than Bob", "contradiction"),
        (
            "The budget is at most 500 dollars",
            "The budget is at least 500 dollars",
            "contradiction",
        ),
        ("Ann only drinks decaf", "Ann drinks decaf", "unrelated"),
        # a plain plural says all; a particle may stand on either side of its object
        (
            "The user wants all dates in ISO format",
            "The user wants dates in ISO format",
            "duplicate",
        ),
        ("Ann turned the alerts off", "Ann turned off the alerts", "duplicate"),
        ("Ann turned on the alerts", "Ann turned off the alerts", "contradiction"),
    ],
)
def test_how_much_or_which_way_is_part_of_what_a_statement_says(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        ("Ann moved to Berlin", "Ann will move to Berlin", "update"),  # the plan came about
        ("Ann will move to Berlin", "Ann moved to Berlin", "unrelated"),  # both kept
        ("We'll ship on Friday", "We will ship on Friday", "duplicate"),
        ("Ann won't attend", "Ann will not attend", "duplicate"),
    ],
)
def test_what_will_be_is_not_what_is(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("The limit is five hundred requests", {"500"}),
        ("The sync takes twenty-five minutes", {"25min"}),
        ("Founded in two thousand and twenty", {"2020"}),
        ("Logs are kept for ninety days", {"90d"}),
        ("Pick one or two", {"1", "2"}),  # no one number: each stays itself
        ("Rooms one two three", {"1", "2", "3"}),
    ],
)
def test_a_number_said_in_several_words_is_one_number(text, numbers):
    assert features_of(text).numbers == numbers


def test_the_words_for_one_relative_name_the_same_one():
    assert relate("Jonas has 2 children", "Jonas has two kids").kind == "duplicate"
    assert relate("Ann's mom lives in Porto", "Ann's mother lives in Porto").kind == "duplicate"
    assert relate("Ann's dad lives in Porto", "Ann's mother lives in Porto").kind == "unrelated"


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # Chinese marks no name by a capital: what differs only where the subject stands is
        # said of another one, and never supersedes it
        ("周建军每周三下午3点开周会", "周建华每周三下午3点开周会", "unrelated"),
        ("后端用 React 写的", "前端用 React 写的", "unrelated"),
        ("王伟更喜欢茶", "王伟更喜欢咖啡", "update"),  # the value, after the subject
        # and the opposite of 能 / 同意 is a negation
        ("测试环境无法访问外网", "测试环境可以访问外网", "contradiction"),
        ("蒋立反对把 main 设为保护分支", "蒋立同意把 main 设为保护分支", "contradiction"),
    ],
)
def test_a_chinese_statement_about_another_subject_is_kept_apart(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


def test_no_blind_pair_that_says_another_thing_is_merged():
    # Pairs labelled by a session that never saw the rules: merging one of these loses a fact.
    merged = [
        (pair.candidate, pair.stored, pair.label)
        for pair in [
            *BLIND_PAIRS,
            *BLIND_PAIRS_2,
            *BLIND_PAIRS_3,
            *BLIND_PAIRS_4,
            *BLIND_PAIRS_5,
            *BLIND_PAIRS_6,
        ]
        if pair.label != "duplicate" and relate(pair.candidate, pair.stored).kind == "duplicate"
    ]
    assert merged == []


def test_a_swap_is_quoted_in_the_order_each_side_wrote_it():
    reason = relate("Carol reports to Bob", "Bob reports to Carol").reason
    assert reason == "the same words, two parts swapped (Bob … Carol → Carol … Bob)"
    reason = relate("Ann now prefers coffee over tea", "Ann prefers tea over coffee").reason
    assert reason == "the same words, two parts swapped (tea over coffee → coffee over tea)"
    reason = relate("Ann has 3 cats and 2 dogs", "Ann has 2 cats and 3 dogs").reason
    assert reason.endswith("(2 cats and 3 dogs → 3 cats and 2 dogs)")
    reason = relate("李娜向王伟汇报", "王伟向李娜汇报").reason
    assert reason.endswith("(王伟…李娜 → 李娜…王伟)")


def test_statements_in_different_languages_are_never_merged():
    relation = relate("Ann 喜欢爵士乐", "Ann likes jazz", cosine=1.0, threshold=0.5)

    assert relation.kind == "unrelated"
    assert "languages" in relation.reason


def test_a_one_sided_addition_merges_only_when_the_cosine_clears_the_threshold():
    candidate, stored = "Omar drinks decaf coffee", "Omar drinks coffee"

    assert relate(candidate, stored).kind != "duplicate"  # overlap 0.75 < 0.8
    assert relate(candidate, stored, cosine=0.90, threshold=0.96).kind != "duplicate"
    assert relate(candidate, stored, cosine=0.97, threshold=0.96).kind == "duplicate"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Sara works in Berlin", "Sara lives in Berlin"),
        ("Liam wrote the flaky checkout test", "Liam fixed the flaky checkout test"),
        (
            "@Ann: booked LX Factory in Lisbon for the offsite, 12–14 March 2026",
            "Ann plans the team offsite (Lisbon, LX Factory, 12–14 March 2026).",
        ),
    ],
)
def test_another_thing_said_of_the_same_subject_is_no_new_value(candidate, stored):
    relation = relate(candidate, stored, cosine=0.9, threshold=0.96)

    assert relation.kind == "unrelated"
    assert relation.reason.startswith("says something else of it")


def test_chinese_words_of_its_own_in_several_places_are_no_new_value():
    # works in the Shanghai office, likes pour-over coffee / the Shanghai office's backend engineer
    relation = relate("@李娜: 在上海办公室工作，喜欢手冲咖啡", "李娜 上海办公室的后端工程师")
    one_phrase = relate("李娜更喜欢喝美式", "李娜更喜欢喝拿铁")

    assert relation.kind == "unrelated" and relation.reason == "says other things of it"
    assert one_phrase.kind == "update"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        # the candidate leaves details out: it says less, nothing else
        (
            "Ann is planning the Lisbon offsite for March 2026",
            "Ann plans the Lisbon offsite at LX Factory, 12–14 March 2026",
        ),
        # the candidate adds one: it says more
        ("The review is on Friday at 3pm", "The review is at 3pm"),
    ],
)
def test_a_detail_only_one_side_holds_is_an_addition_not_a_change(candidate, stored):
    assert relate(candidate, stored).kind == "duplicate"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("The review is at 3pm", "The review is on Friday"),  # each holds one the other lacks
        ("The API now handles 450 rps", "The API handles requests"),  # a change is marked
        ("The iOS build is slow", "The Android build is slow"),  # the name is the subject
    ],
)
def test_details_on_both_sides_a_marked_change_or_another_subject_stay_apart(candidate, stored):
    assert relate(candidate, stored, cosine=1.0, threshold=0.0).kind != "duplicate"


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        ("The team writes its models in C", "The team writes its models in R", "update"),
        ("We go with Plan B", "We go with Plan A", "update"),
        ("@A likes b", "Q likes r", "unrelated"),  # one-letter names: another subject
        ("A cat sleeps here", "The cat sleeps here", "duplicate"),  # the article stays out
    ],
)
def test_one_letter_is_a_value(candidate, stored, kind):
    assert relate(candidate, stored, cosine=1.0, threshold=0.0).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        (
            "Ann prefers a flat white",
            "Ann prefers a cortado",
            "same subject and attribute, new value (cortado → flat white)",
        ),
        (
            "Sara works in Berlin",
            "Sara lives in Berlin",
            "says something else of it (lives / works)",
        ),
        ("王伟住在深圳", "王伟住在北京", "same subject and attribute, new value (北京 → 深圳)"),
    ],
)
def test_a_reason_quotes_the_words_as_written(candidate, stored, reason):
    # not their folded forms ("whit", "liv"), loose words ("flat, white") or characters (北, 京)
    assert relate(candidate, stored).reason == reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Release 2.4 shipped the new billing page", "Release 2.3 shipped the new login page"),
        ("Server alpha2 runs kernel 6.2", "Server alpha1 runs kernel 6.1"),
        ("Ticket PROJ-102 is blocked", "Ticket PROJ-101 is blocked"),
        ("Room 5 has a projector", "Room 4 has a projector"),
    ],
)
def test_a_number_written_right_after_the_subject_names_another_one(candidate, stored):
    relation = relate(candidate, stored, cosine=1.0, threshold=0.0)

    assert relation.kind == "unrelated" and relation.reason.startswith("about another one")


def test_numbers_that_differ_in_place_are_never_read_as_an_addition():
    # as sets, {1, h1} ("one", "fact 1", "rack 1") lies inside {1, 2, h1}: yet rack 1 is not 2
    relation = relate(
        "Server one fact 2: host h1-2 is in rack 2", "Server one fact 1: host h1-1 is in rack 1"
    )

    assert relation.kind != "duplicate"
    assert relate("Ann has two cats", "Ann has cats").kind == "duplicate"  # none before: added


def test_the_opposite_said_of_something_else_is_no_contradiction():
    assert relate("Ann likes biking", "Ann does not like cortado").kind == "unrelated"
    assert relate("Ann likes cortado", "Ann does not like cortado").kind == "contradiction"
    assert relate("The deploy pipeline is unblocked", "The deploy pipeline is blocked").kind == (
        "contradiction"
    )


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        ("Ann works on Mondays", "Ann does not work on Fridays", "unrelated"),
        ("The release is on April 9", "The release is not on March 3", "unrelated"),
        ("The server has 16 GB", "The server does not have 32 GB", "unrelated"),
        # a day or a number both sides name is what the negation is about
        ("Ann works on Fridays", "Ann does not work on Fridays", "contradiction"),
        ("Ann works on Mondays and Fridays", "Ann does not work on Fridays", "contradiction"),
    ],
)
def test_the_opposite_said_of_another_day_or_number_is_no_contradiction(
    candidate: str, stored: str, kind: str
):
    assert relate(candidate, stored).kind == kind


def test_two_sides_with_words_of_their_own_are_never_duplicates_whatever_the_cosine():
    relation = relate("Sara works in Berlin", "Sara lives in Berlin", cosine=1.0, threshold=0.0)

    assert relation.kind != "duplicate"


@pytest.mark.parametrize(
    "spellings",
    [
        ["3pm", "3 p.m.", "15:00", "下午3点", "下午三点"],
        ["ten minutes", "10 min", "10 minutes", "十分钟"],
        ["10k requests", "10,000 requests"],
        ["third floor", "3rd floor"],
    ],
)
def test_numbers_are_compared_after_normalising_units_and_spellings(spellings):
    numbers = {features_of(f"The value is {text}").numbers for text in spellings}

    assert len(numbers) == 1


def test_weekdays_in_chinese_and_english_are_the_same_date():
    assert features_of("周会在周五").dates == features_of("星期五开周会").dates == {"fri"}
    assert features_of("The sync is on Friday").dates == {"fri"}


def test_an_antonym_counts_as_the_negated_word():
    hates, likes, not_likes = (
        features_of(text) for text in ("Ann hates jazz", "Ann likes jazz", "Ann doesn't like jazz")
    )

    assert hates.words == likes.words == not_likes.words
    assert hates.negated and not_likes.negated and not likes.negated


# --- the hard invariant: a changed detail is never a duplicate ----------------------------

_TEMPLATES = [
    ("The meeting is at {}", ["3pm", "4pm", "15:30", "9am"]),
    ("The API handles {} requests per second", ["400", "450", "4000", "40"]),
    ("Ann has {} cats", ["two", "three", "5", "one"]),
    ("The build takes {} minutes", ["12", "8", "twenty", "1.5"]),
    ("The project uses Python {}", ["3.11", "3.12", "2.7"]),
    ("The API is on {}", ["v2", "v3", "v10"]),
    ("The deadline is {}", ["Friday", "Monday", "tomorrow", "2026-03-31", "2026-01-31"]),
    ("The launch is on March {}", ["3", "10", "30"]),
    ("The offsite is in {}", ["May 2026", "June 2026", "October"]),
    ("{} likes jazz", ["Ann", "Peter", "@sara", "Li Na"]),
    ("The billing service uses {}", ["Postgres", "MySQL", "DynamoDB"]),
    ("{} is allergic to peanuts", ["Marco", "Marco's son", "Marco's wife"]),
    ("Peter {} meat", ["eats", "does not eat", "no longer eats", "never eats", "stopped eating"]),
    ("The user {} emoji", ["likes", "hates", "doesn't like", "dislikes"]),
    ("会议在{}", ["下午3点", "下午4点", "上午十点", "周一", "周五"]),
    ("李娜有{}只猫", ["两", "三", "5"]),
    ("张伟{}素食者", ["是", "不是"]),
    ("李娜{}喝咖啡", ["", "不再", "不"]),
]


def test_a_mention_names_the_same_entity_as_the_journal_reads_it():
    names = {features_of(text).names for text in ("@Ann likes jazz", "Thanks @Ann.", "@Ann's jazz")}
    assert names == {frozenset({"ann"})}
    assert "o'brien" in features_of("@O'Brien runs the pub").names
    assert "example.com" not in features_of("mail ann@example.com about it").names


def _details(text):
    found = features_of(text)
    return found.numbers, found.dates, found.names, found.relatives, found.negated


# "does not eat" / "no longer eats" keep the polarity: only pairs whose details differ count
_CHANGED = [
    (template.format(a), template.format(b))
    for template, values in _TEMPLATES
    for a, b in itertools.permutations(values, 2)
    if _details(template.format(a)) != _details(template.format(b))
]


@pytest.mark.parametrize(("candidate", "stored"), _CHANGED)
def test_a_changed_number_date_name_or_negation_is_never_a_duplicate(candidate, stored):
    relation = relate(candidate, stored, cosine=1.0, threshold=0.0)

    assert relation.kind != "duplicate", relation.reason


def test_no_labelled_pair_with_a_changed_detail_is_ever_merged():
    changed = [pair for pair in PAIRS if pair.category in DETAIL_CHANGE_CATEGORIES]

    merged = [
        (pair.candidate, pair.stored)
        for pair in changed
        if relate(pair.candidate, pair.stored, cosine=1.0, threshold=0.0).kind == "duplicate"
    ]

    assert len(changed) > 100
    assert merged == []


# --- the labelled set and the measurement -------------------------------------------------


def test_the_labelled_set_is_large_bilingual_and_well_formed():
    languages = Counter(pair.language for pair in PAIRS)
    held_out = sum(pair.held_out for pair in PAIRS)

    assert len(PAIRS) >= 300
    assert languages["zh"] >= 60 and languages["mixed"] >= 10
    assert {pair.label for pair in PAIRS} == set(LABELS)
    assert len({(pair.candidate, pair.stored) for pair in PAIRS}) == len(PAIRS)
    assert abs(held_out - len(PAIRS) / 3) <= 1


def test_every_threshold_is_a_cosine_and_unknown_embedders_compare_lexically():
    assert all(0.0 < value < 1.0 for value in DEDUP_THRESHOLDS.values())
    assert dedup_threshold(load_embedder("hashing").embedder.name) is not None
    assert dedup_threshold("some-unmeasured-model") is None


def _measure(embedder):
    cosines = bench.pair_cosines(PAIRS, embedder)
    threshold = dedup_threshold(embedder.name) if embedder is not None else None
    everything = bench.score(PAIRS, bench.classify(PAIRS, cosines, threshold))
    held, held_cosines = bench.split(PAIRS, cosines, held_out=True)
    held_out = bench.score(held, bench.classify(held, held_cosines, threshold))
    tuned, tuned_cosines = bench.split(PAIRS, cosines, held_out=False)
    suggested = bench.choose_threshold(tuned, tuned_cosines) if embedder is not None else None
    return everything, held_out, threshold, suggested


def _assert_targets(everything, held_out):
    assert everything.precision >= 0.97, everything
    assert everything.recall >= 0.80, everything
    # the held-out third has ~40 duplicates: one wrong merge costs 2.5 points of precision
    assert held_out.precision >= 0.95, held_out
    assert held_out.recall >= 0.75, held_out


def test_lexical_rules_alone_reach_the_dedup_targets():
    everything, held_out, _, _ = _measure(None)

    _assert_targets(everything, held_out)


def test_the_hashing_embedder_reaches_the_dedup_targets_at_its_calibrated_threshold():
    everything, held_out, threshold, suggested = _measure(load_embedder("hashing").embedder)

    _assert_targets(everything, held_out)
    assert threshold == suggested, "rules changed: recalibrate with benchmarks/dedup.py"


@pytest.fixture(scope="module")
def default_embedder():
    choice = load_embedder(DEFAULT_EMBEDDER)
    if choice.is_fallback:
        pytest.skip(choice.fallback_reason)
    return choice.embedder


def test_the_default_embedder_reaches_the_dedup_targets_at_its_calibrated_threshold(
    default_embedder,
):
    everything, held_out, threshold, suggested = _measure(default_embedder)

    assert threshold is not None, f"no calibrated threshold for {default_embedder.name}"
    _assert_targets(everything, held_out)
    assert threshold == suggested, "rules changed: recalibrate with benchmarks/dedup.py"


def test_the_benchmark_prints_a_sweep_an_operating_point_and_a_confusion_matrix(capsys):
    exit_code = bench.main(["--embedder", "none", "--embedder", "hashing"])

    out = capsys.readouterr().out
    assert exit_code == 0
    for heading in (
        "## lexical only",
        "## hashing-256",
        "threshold sweep",
        "operating point",
        "held_out",
        "fresh",
        "confusion",
        "accuracy per category",
    ):
        assert heading in out


# --- subjects named by a code, reasons as written -------------------------------------------


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Printer hq has 120 pages left", "Printer p1 has 300 pages left"),
        ("Printer p1 has 300 pages left", "Printer hq has 120 pages left"),
        ("Widget zz weighs 5 grams", "Widget w1 weighs 1 grams"),
        ("Printer HQ has 120 pages left", "Printer p1 has 300 pages left"),
    ],
)
def test_a_word_where_the_other_side_names_its_subject_by_a_code_names_another_one(
    candidate, stored
):
    # p1 stands where "Sensor s1" and "Room 101" put the number that names the subject: so
    # does hq on the other side, and the printers are two
    relation = relate(candidate, stored, cosine=1.0, threshold=0.0)

    assert relation.kind == "unrelated" and relation.reason.startswith("about another one")


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Printer p1 now has 120 pages left", "Printer p1 has 300 pages left"),
        ("Server alpha1 now runs 6 workers", "Server alpha1 runs 4 workers"),
        ("The printer now has 120 pages left", "The printer has 300 pages left"),
    ],
)
def test_the_same_subject_named_by_the_same_code_still_gets_a_new_value(candidate, stored):
    assert relate(candidate, stored).kind == "update"


@pytest.mark.parametrize(
    ("candidate", "stored", "changed"),
    [
        ("Ann prefers flat white", "Ann prefers cortado", "new value (cortado → flat white)"),
        ("Ann prefers jazz and blues", "Ann prefers rock", "new value (rock → jazz and blues)"),
        ("The launch is on April 9", "The launch is on March 3", "March 3 → April 9"),
        ("The sync moved to Tuesday 4pm", "The sync is on Monday 3pm", "Monday 3pm → Tuesday 4pm"),
        ("The build now takes ten minutes", "The build takes 8 min", "8 min → ten minutes"),
        ("会议在下午4点", "会议在下午3点", "下午3点 → 下午4点"),
    ],
)
def test_a_reason_quotes_the_changed_words_together_as_written(candidate, stored, changed):
    # not "flat, white", nor the folded "3 → 9" of a date whose month changed too
    relation = relate(candidate, stored)

    assert relation.kind == "update" and changed in relation.reason, relation.reason


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # a short statement shares few words: the negated word and its pair count as shared
        ("The release is blocked", "The release is unblocked", "contradiction"),
        ("Our office is closed on Fridays", "Our office is open on Fridays", "contradiction"),
        ("The shop is closed now", "The shop is open", "update"),
        ("The build server is offline", "The build server is online", "contradiction"),
    ],
)
def test_opposite_states_of_one_thing_are_never_two_facts(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


def test_close_as_near_negates_nothing():
    assert not features_of("The hotel is close to the station").negated
    assert features_of("The hotel is closed in winter").negated


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        ("Ann prefers email", "Ann prefers Slack", "same statement, another value (Slack → email)"),
        (
            "Ann drinks coffee at home",
            "Ann drinks coffee at Blue Bottle",
            "same statement, another value (Blue Bottle → home)",
        ),
        (
            "The team chats on Slack",
            "The team chats on email",
            "same statement, another value (email → Slack)",
        ),
    ],
)
def test_a_name_and_a_word_put_in_the_same_place_are_two_values(candidate, stored, reason):
    # not a name one side adds or leaves out, which would make the word one side's addition
    assert relate(candidate, stored).reason == reason


def test_a_name_added_before_a_shared_word_is_still_an_addition():
    assert relate("Ann plans the Lisbon offsite", "Ann plans the offsite").kind == "duplicate"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("I prefer tabs", "I prefer spaces"),
        ("We use tabs", "We use spaces"),
        ("I now drink coffee", "I drink tea"),
        # a change named from the old value: the pronoun is the subject both share
        ("I switched from Vim to Helix", "I use Vim"),
        ("We moved CI from Jenkins to GitHub Actions", "We use Jenkins for CI"),
    ],
)
def test_a_first_person_statement_gets_its_new_value_like_a_named_one(candidate, stored):
    # the pronoun is a stop word, not a shared content word: it still names one subject
    assert relate(candidate, stored).kind == "update"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("I like jazz", "I play piano"),
        ("We prefer tabs", "I prefer spaces"),
        ("I use Vim", "I live in Berlin"),
    ],
)
def test_first_person_statements_of_other_things_or_people_stay_apart(candidate, stored):
    assert relate(candidate, stored).kind == "unrelated"


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        (
            "Always run the linter before committing",
            "Run the linter before committing",
            "duplicate",
        ),
        ("Never push directly to main", "Always push directly to main", "contradiction"),
        ("Ann rarely drinks tea", "Ann always drinks tea", "contradiction"),
        ("Ann now rarely drinks tea", "Ann often drinks tea", "update"),
        ("Ann usually drinks tea", "Ann drinks tea", "unrelated"),  # says less than always
    ],
)
def test_how_often_is_a_qualifier_and_a_plain_rule_holds_always(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        (
            "Use Vim for editing",
            "Use Emacs for editing",
            "same statement, another name: Emacs → Vim",
        ),
        (
            "Use node20 for builds",
            "Use node18 for builds",
            "same statement, another number: node18 → node20",
        ),
        (
            "Use ruff for linting",
            "Use flake8 for linting",
            "same statement, another value (flake8 → ruff)",
        ),
    ],
)
def test_an_instruction_is_said_to_the_one_told_and_gets_its_new_value(candidate, stored, reason):
    # "Use" opening a statement is neither a name nor a subject a code could name
    assert relate(candidate, stored).reason == reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [("Use TypeScript", "Use pnpm"), ("Use tabs", "Use Python"), ("Use Vim", "Use Emacs")],
)
def test_rules_sharing_only_their_verb_stand_side_by_side(candidate, stored):
    # an agent's rules are many "Use …": one replacing another would drop it from recall
    assert relate(candidate, stored).kind == "unrelated"


def test_a_code_after_a_noun_still_names_another_one():
    assert relate("Build 42 failed", "Build 43 failed").kind == "unrelated"


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # what the English rules above say, said in Chinese
        ("张伟现在负责支付团队", "李娜负责支付团队", "update"),  # a role changed hands
        ("王芳是项目负责人", "陈明是项目负责人", "update"),  # *the* one in charge
        ("周建军每周三开周会", "周建华每周三开周会", "unrelated"),  # no role: another one
        ("我搬到上海了", "我住在北京", "update"),  # a move
        ("我搬到了上海", "我住在北京", "update"),  # 了 after the verb
        ("我现在喝咖啡", "我喝茶", "update"),  # a change marker splits no subject
        ("我也喝咖啡", "我喝茶", "unrelated"),  # also
        ("用 ruff 代替 flake8 做代码检查", "用 flake8 做代码检查", "update"),  # instead
        ("办公室周五关门", "办公室周五开门", "contradiction"),  # closed / open
    ],
)
def test_chinese_statements_follow_the_same_rules(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        ("My manager is Priya", "My manager is Tom", "same statement, another name: Tom → Priya"),
        (
            "My car is a Honda Civic",
            "My car is a Toyota Corolla",
            "the same said to be another (Toyota Corolla → Honda Civic)",
        ),
        (
            "I have been running 5k every morning",
            "I run 3k every morning",
            "same statement, another number: 3k → 5k",
        ),
    ],
)
def test_what_the_speaker_has_gets_its_new_value(candidate, stored, reason):
    # "my" is the speaker's, as "Ann's" is Ann's; a number after "I run" names no subject
    assert relate(candidate, stored).reason == reason


def test_words_for_how_often_read_as_the_qualifier_they_say():
    # "typically" = "usually": both qualifiers, so the two statements are the same words
    relation = relate(
        "Fridays are typically my work-from-home day.", "I usually work from home on Fridays."
    )
    assert relation.kind == "duplicate"
    assert features_of("Ann normally drinks tea").qualifiers == {"usually"}


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Since the reorg, Kenji reports to Maria.", "Kenji reports to Olu."),
        ("As of Monday, the standup is at 10am", "The standup is at 9:30am"),
    ],
)
def test_a_clause_of_when_opening_a_statement_is_not_its_subject(candidate, stored):
    assert relate(candidate, stored).kind == "update"
    assert features_of(candidate).subject == features_of(stored).subject


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("The build timeout was raised to 45 minutes", "The build times out after 30 minutes"),
        ("The docs site was migrated from Hugo to Astro", "The docs site uses Hugo"),
        ("The parser has been rewritten in Rust", "The parser is written in C"),
    ],
)
def test_a_verb_of_change_with_its_new_value_marks_a_change(candidate, stored):
    assert features_of(candidate).change_marked
    assert relate(candidate, stored).kind == "update"


@pytest.mark.parametrize(
    "text",
    [
        "Run migrations before deploying",  # the noun
        "The search cluster was upgraded last week",  # no new value follows
        "A salary increase is due in March",
    ],
)
def test_a_verb_of_change_without_a_new_value_marks_none(text):
    assert not features_of(text).change_marked


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Ann's email is ann@example.com", "Ann's email is ann.weber@example.com"),
        ("The API is at api.example.com", "The API is at example.com"),
        ("Docs are at https://docs.example.com/v2", "Docs are at https://docs.example.com/v1"),
        ("The repo is github.com/acme/api", "The repo is github.com/acme/api-v2"),
        ("The branch is feature/login", "The branch is feature/login-v2"),
        ("The key is in ~/.ssh/id_ed25519", "The key is in ~/.ssh/id_rsa"),
    ],
)
def test_an_address_is_one_value_not_the_words_in_it(candidate, stored):
    # Once, "ann@example.com" merged into "ann.weber@example.com" as the same words but one:
    # the new address was lost.
    assert relate(candidate, stored).kind == "update"
    assert relate(candidate, candidate + ".").kind == "duplicate"


@pytest.mark.parametrize("text", ["cats and/or dogs", "open 24/7", "300 req/s", "coffee w/o sugar"])
def test_a_slash_between_words_is_no_path(text):
    assert features_of(text).names == frozenset()


def test_a_folder_is_the_same_with_or_without_its_closing_slash():
    assert "db/migrations" in features_of("Migrations live in db/migrations/").names


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        ("Meeting room 4B", "Meeting room 4", "update"),  # once the same words, "B" added
        ("The standup is in room 4B", "The standup is in room 4A", "update"),
        ("Enable 2FA for the admin account", "Enable 2FA for the admin account.", "duplicate"),
    ],
)
def test_digits_glued_to_capitals_are_one_code(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # Once "the same words": the newer order of steps merged into the older and was lost.
        ("Migrate before deploying.", "Deploy the code first, then migrate.", "contradiction"),
        ("First lint, then test.", "Test before linting.", "contradiction"),
        ("Migrate before deploying the code.", "Migrate first, then deploy the code.", "duplicate"),
        ("Deploy the code after migrating.", "Migrate before deploying the code.", "duplicate"),
    ],
)  # fmt: skip
def test_the_same_steps_in_the_other_order_are_not_one_statement(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # a rule's force (必须, 可以) is no content, and a prohibition (不要, 禁止) is a negation
        ("提交代码前必须 rebase。", "提交代码前不要 rebase。", "contradiction"),
        ("可以直接推到 main 分支。", "不要直接推到 main。", "contradiction"),
        ("提交代码前必须 rebase。", "提交代码前要 rebase。", "duplicate"),
    ],
)
def test_chinese_modal_words_say_how_strongly_not_what(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("The on-call rotation starts Monday", False),  # a start on the calendar
        ("The sprint begins at 10", False),
        ("Ann started drinking coffee", True),  # a change
        ("Ann starts using Vim", True),
        ("Ann began to run", True),
    ],
)
def test_a_start_marks_a_change_only_when_it_came_about(text, changed):
    assert features_of(text).change_marked is changed


def test_a_schedule_said_with_less_detail_is_no_update_that_hides_the_detail():
    # Once "starts" marked a change, and the shorter statement superseded the one with 9am.
    relation = relate(
        "The on-call rotation starts Monday", "The on-call rotation starts Monday 9am"
    )
    assert relation.kind == "duplicate"
