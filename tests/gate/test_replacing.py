"""What says a statement replaces another in other words, or holds beside it
(:mod:`memstrata.gate.replacing`), as ``relate`` reads it: a role handed over, a move, what a
statement says it replaces, "also", and names put for names."""

import pytest

from memstrata.gate import lexicon
from memstrata.gate.relation import relate


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        (
            "Alice now leads the payments team",
            "Bob leads the payments team",
            "another holder of the same role (Bob → Alice)",
        ),
        (
            "Alice now manages the payments team, Bob moved to infra",
            "Bob leads the payments team",
            "another holder of the same role (Bob → Alice)",
        ),
        (
            "Ann Weber now maintains the SDK",
            "Tom Baker maintains the SDK",
            "another holder of the same role (Tom Baker → Ann Weber)",
        ),
        (
            "Priya is the release captain for 4.2",
            "Dana is the release captain for 4.2",
            "another holder of the same role (Dana → Priya)",
        ),
        (
            "Priya is our CTO now",
            "Dana is our CTO",
            "another holder of the same role (Dana → Priya)",
        ),
    ],
)
def test_a_role_handed_to_another_person_is_an_update(candidate, stored, reason):
    # the active voice, like the passive ("is now led by Alice"), supersedes the old holder
    assert relate(candidate, stored).reason == reason
    assert relate(candidate, stored, cosine=1.0, threshold=0.0).kind == "update"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Alice leads the payments team", "Bob leads the payments team"),  # no change marked
        ("Alice now also leads the payments team", "Bob leads the payments team"),  # both
        ("Alice now co-leads the payments team", "Bob leads the payments team"),
        ("Alice now likes the payments team", "Bob likes the payments team"),  # not a role
        ("Kim now runs every morning", "Sam runs every morning"),
        ("Priya is now a doctor", "Dana is a doctor"),  # one of many
        ("Priya is our CTO", "Dana is our CTO"),  # "our" without a change: read as written
        ("Eve is now my sister", "Ann is my sister"),
        ("Ann now manages the budget for Berlin", "Tom manages the budget"),  # says more
        ("Ann is now the tech lead for Atlas", "Tom is the tech lead for Orion"),
    ],
)
def test_the_same_said_of_another_person_without_a_handed_over_role_stays_apart(candidate, stored):
    assert relate(candidate, stored).kind == "unrelated"


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Ann also drinks coffee", "Ann drinks tea"),
        ("Ann drinks coffee too", "Ann drinks tea"),
        ("Ann drinks coffee as well", "Ann drinks tea"),
        ("Ann also lives in Lisbon", "Ann lives in Berlin"),
    ],
)
def test_a_statement_that_holds_besides_another_replaces_nothing(candidate, stored):
    relation = relate(candidate, stored)
    assert (relation.kind, relation.reason.split(" (")[0]) == ("unrelated", "says it besides")


@pytest.mark.parametrize(
    ("candidate", "stored", "verb"),
    [
        ("I speak French", "I speak Spanish", "speak"),
        ("Ann is allergic to nuts", "Ann is allergic to shellfish", "allergic"),
        ("Ann plays tennis", "Ann plays chess", "plays"),
        ("Bob visited Paris", "Bob visited Rome", "visited"),
        ("Ann is learning Japanese", "Ann is learning Korean", "learning"),
        ("Ann likes hiking", "Ann likes cooking", "likes"),
        ("小李会说法语", "小李会说西班牙语", "会说"),
        ("小李对花生过敏", "小李对海鲜过敏", "过敏"),
        ("小李去过巴黎", "小李去过罗马", "去过"),
        ("I'm allergic to shellfish", "I have a peanut allergy", "allergic"),  # after the value
        ("The service depends on Postgres", "The service depends on Redis", "depends"),
        ("The API supports JSON", "The API supports XML", "supports"),
        ("Bob met Carol on Monday", "Bob met Alice on Monday", "met"),
        ("Ann works with Carol", "Ann works with Bob", "with"),  # a person beside others
        ("Remind me to buy milk", "Remind me to buy eggs", "remind"),  # a to-do list
    ],
)  # fmt: skip
def test_a_verb_that_holds_many_values_keeps_both(candidate, stored, verb):
    # one speaks two languages and is allergic to two things: superseding one would hide it
    relation = relate(candidate, stored)
    assert relation.kind == "unrelated"
    assert relation.reason.startswith(f"both can hold ({verb}: "), relation.reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Ann now plays tennis", "Ann plays chess"),  # a change marked
        ("Ann no longer plays chess", "Ann plays chess"),
        ("Ann speaks 4 languages", "Ann speaks 3 languages"),  # a count is one value
        ("Ann prefers tea", "Ann prefers coffee"),  # a choice, though folded with "likes"
        ("Ann lives in Berlin", "Ann lives in Munich"),
        ("The user likes the dark theme", "The user likes the light theme"),  # values exclude
        ("Ann likes early meetings", "Ann likes late meetings"),
        ("王伟更喜欢茶", "王伟更喜欢咖啡"),  # 更喜欢: prefers
        ("用户喜欢深色主题", "用户喜欢浅色主题"),
        ("小李现在喜欢喝茶", "小李喜欢喝咖啡"),
    ],
)
def test_a_choice_a_count_or_a_marked_change_still_replaces_the_value(candidate, stored):
    assert relate(candidate, stored).kind == "update"


def test_also_is_the_reason_given_when_a_verb_of_many_values_says_it_besides():
    assert relate("I also speak Portuguese", "I speak Spanish").reason == "says it besides (also)"


def test_the_verb_of_many_values_is_the_one_that_puts_the_value_not_a_word_further_off():
    relation = relate(
        "Ann, who studies law, lives in Munich", "Ann, who studies law, lives in Berlin"
    )
    assert relation.kind == "update"
    # and "with" keeps both only for a person or team, not a thing one has it with
    assert relate("Ann drinks coffee with oat milk", "Ann drinks coffee with almond milk").kind == (
        "update"
    )


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # what cannot change once it happened: another value means one of the two is wrong
        ("Ben was born in Leeds.", "Ben was born in Manchester.", "contradiction"),
        ("Emma's birthday is March 3.", "Emma's birthday is March 13.", "contradiction"),
        ("The house was built in 1972.", "The house was built in 1968.", "contradiction"),
        ("小林出生在成都。", "小林出生在重庆。", "contradiction"),
        ("我们是2015年结婚的。", "我们是2018年结婚的。", "contradiction"),
        # unless the newer one says it corrects the older
        ("Ben was actually born in Leeds.", "Ben was born in Manchester.", "update"),
        # and what only sounds alike can move
        ("Emma's birthday party is on Saturday", "Emma's birthday party is on Friday", "update"),
        ("The dashboard is built in Superset", "The dashboard is built in Metabase", "update"),
    ],
)
def test_another_value_of_what_cannot_change_is_a_contradiction(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("text", "adding"),
    [
        ("Ann drinks coffee too.", True),
        ("Ann drinks coffee too, and tea", True),
        ("The office is too cold", False),  # "too" as "too much"
        ("Ann drinks coffee as well as tea", False),  # a list, said as one statement
    ],
)
def test_too_and_as_well_say_besides_only_ending_a_clause(text, adding):
    assert bool(lexicon.ADDING.search(text)) is adding


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        ("Ann moved to Lisbon", "Ann lives in Berlin", "lives elsewhere now (Berlin → Lisbon)"),
        (
            "Ann relocated to New York last month",
            "Ann is based in Berlin",
            "lives elsewhere now (Berlin → New York)",
        ),
        (
            "We moved from Berlin to Lisbon in 2024",
            "We live in Berlin",
            "lives elsewhere now (Berlin → Lisbon)",
        ),
        ("Ann lives in Porto", "Ann moved to Lisbon", "lives elsewhere now (Lisbon → Porto)"),
    ],
)
def test_a_move_replaces_where_one_lived(candidate, stored, reason):
    assert relate(candidate, stored).reason == reason


@pytest.mark.parametrize(
    ("candidate", "stored"),
    [
        ("Ann moved to Lisbon", "Ann works in Berlin"),  # where she works is another fact
        ("Ann moved to Lisbon", "Bob lives in Berlin"),  # someone else
        ("Ann moved to the Lisbon office", "Ann lives in Berlin"),  # an office, not a home
    ],
)
def test_a_move_leaves_other_facts_and_people_alone(candidate, stored):
    assert relate(candidate, stored).kind == "unrelated"


@pytest.mark.parametrize(
    ("candidate", "stored", "reason"),
    [
        ("Ann drinks tea instead of coffee", "Ann drinks coffee", "said instead (coffee → tea)"),
        (
            "The monorepo uses pnpm rather than npm",
            "The monorepo uses npm",
            "said instead (npm → pnpm)",
        ),
        (
            "Use ruff for linting instead of flake8",
            "Use flake8 for linting",
            "said instead (flake8 → ruff)",
        ),
        (
            "We use Jira instead of Trello",
            "We use Trello for tickets",
            "said instead (Trello → Jira)",
        ),
    ],
)
def test_a_statement_naming_what_it_replaces_supersedes_it(candidate, stored, reason):
    # the older statement's words all appear in the newer one, which read as an addition
    assert relate(candidate, stored).reason == reason


def test_the_same_statement_with_instead_is_still_a_duplicate():
    text = "Ann drinks tea instead of coffee"
    assert relate(text, text).kind == "duplicate"


def test_names_on_the_other_side_of_a_relative_are_not_one_value():
    assert relate("My sister is Ann Weber", "My sister is Eve Smith").kind == "unrelated"


def test_what_is_replaced_ends_where_its_clause_goes_on():
    # "instead of Jest *for tests from now on*": the rest is said of Vitest as much
    relation = relate(
        "Use Vitest instead of Jest for tests from now on.", "Write unit tests with Jest."
    )
    assert relation.kind == "update"
    assert relation.reason.startswith("said instead (Jest → ")


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # what a comma sets against the rest is denied alone: the rest is said as written
        ("The repo uses pnpm rather than npm.", "The repo uses pnpm, not npm.", "duplicate"),
        ("Use tabs, not spaces", "Use tabs rather than spaces", "duplicate"),
        ("Don't use pnpm, use npm", "Use npm, not pnpm", "duplicate"),
        ("Use tabs, never spaces", "Use tabs", "unrelated"),  # says more, no opposite
        ("Use npm, not pnpm", "Use pnpm, not npm", "contradiction"),  # ranked the other way
        # denying what the other says is the opposite, an update when a change is marked
        ("Indent with spaces, never tabs.", "Indent with tabs.", "contradiction"),
        ("Indent with tabs.", "Indent with spaces, never tabs.", "contradiction"),
        ("Indent with spaces now, never tabs.", "Indent with tabs.", "update"),
    ],
)  # fmt: skip
def test_a_part_set_against_the_rest_after_a_comma_denies_that_part_alone(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


def test_a_clause_after_a_semicolon_is_negated_whole():
    # were "never rebase them" a part set against the rest, the two would be the same words
    relation = relate(
        "Merge main into feature branches; never rebase them.",
        "Rebase feature branches onto main instead of merging main into them.",
    )
    assert relation.kind != "duplicate"


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        ("Use pnpm, not npm.", "npm"),
        ("Indent with spaces, never tabs", "tabs"),
        ("Use Vitest, not Jest, for tests.", "Jest"),
        ("Ann drank coffee, not anymore", None),  # a change, not a part set against
        ("It ships on Friday, not yet on Monday", None),
        ("Ann does not drink coffee", None),  # no comma: the whole is negated
    ],
)
def test_what_a_comma_sets_against_the_rest(text, denied):
    found = lexicon.SET_AGAINST.search(text)
    assert (found.group(1) if found else None) == denied


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        ("We moved to Denver in August.", "I live in Austin.", "update"),  # "we" holds "I"
        ("They moved to Porto", "I live in Lisbon", "unrelated"),
        ("He moved to Porto", "We live in Lisbon", "unrelated"),
    ],
)
def test_a_move_said_with_a_pronoun_moves_whom_it_names(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        ("我去年搬到了深圳", "我住在广州", "update"),  # when is no part of who
        ("我们最近搬到了杭州", "我住在苏州", "update"),  # 我们 holds 我
        ("我妹妹搬到了上海", "我住在北京", "unrelated"),
        ("支付服务现在由小李负责", "小王负责支付服务", "update"),  # passive against active
        ("小李现在负责支付服务", "支付服务由小王负责", "update"),
        ("李娜负责前端", "王伟负责后端", "unrelated"),
        ("房租涨到了7000元", "房租是6500元", "update"),  # 涨到: a change
    ],
)
def test_chinese_moves_handovers_and_changes_read_past_when_and_voice(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # a rule for one thing says nothing of a rule for another
        ("Use 4 spaces for Python", "Use 2 spaces for YAML", "unrelated"),
        ("Use 4 spaces for Python", "Use 2 spaces for Python", "update"),
        ("Use ruff for linting", "Use flake8 for linting", "update"),
        # how long is no other thing, and a change marked is a change
        ("Error logs are retained for 30 days.", "Error logs are retained for 90 days.", "update"),
    ],
)
def test_what_a_statement_holds_for_names_what_it_is_about(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        # what happened stays happened: another thing done is another event
        ("Bob bought a new bike", "Bob bought a new laptop", "unrelated"),
        ("We fixed the login bug", "We fixed the checkout bug", "unrelated"),
        ("I went to Paris", "I went to Rome", "unrelated"),
        ("Caroline attended a pride parade", "Caroline attended a support group", "unrelated"),
        # a move is a change; a passive or a describing participle says how a thing stands
        ("Ann moved to Porto", "Ann moved to Lisbon", "update"),
        ("The release was scheduled for Monday", "The release was scheduled for Tuesday", "update"),
        (
            "The user's preferred language is Go",
            "The user's preferred language is Python",
            "update",
        ),
    ],
)
def test_two_things_done_in_the_past_are_two_events(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind


@pytest.mark.parametrize(
    ("candidate", "stored", "kind"),
    [
        ("我去了巴黎", "我去了罗马", "unrelated"),  # 了: a thing done
        ("小明买了一辆自行车", "小明买了一台笔记本", "unrelated"),
        ("小李搬到了深圳", "小李搬到了广州", "update"),  # a move is a change
    ],
)
def test_two_things_done_in_chinese_are_two_events(candidate, stored, kind):
    assert relate(candidate, stored).kind == kind
