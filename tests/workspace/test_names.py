import pytest

from memstrata.errors import InvalidTopicId
from memstrata.workspace.names import parse_topic_id, slugify


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("people/ann", "people/ann"),
        ("People/Ann", "people/ann"),
        ("projects/billing-service", "projects/billing-service"),
        ("people/李娜", "people/李娜"),
        ("ｐｅｏｐｌｅ/ａｎｎ", "people/ann"),  # fullwidth letters fold to ASCII under NFKC
        ("  world/v1.2  ", "world/v1.2"),
    ],
)
def test_valid_topic_ids_are_normalised(raw: str, expected: str):
    assert parse_topic_id(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "../etc",
        "people/..",
        "people/../x",
        "/etc/passwd",
        "..／..／etc",  # fullwidth solidus
        "．．／secret",  # fullwidth full stops and solidus: NFKC makes it ../
        "people/a/b",
        "people",
        "people/",
        "/people",
        "people\\ann",
        "people/.hidden",
        "people/_index",
        "_index/x",
        "people/con",
        "people/nul.txt",
        "people/a\x00b",
        "people/a\nb",
        "C:/windows",
        "people/" + "x" * 65,
        "people/ann lee",
    ],
)
def test_unsafe_topic_ids_are_refused_before_any_path_is_built(raw: str):
    with pytest.raises(InvalidTopicId):
        parse_topic_id(raw)


def test_slugify_makes_a_valid_slug_from_free_text():
    assert slugify("Ann Lee's cat!") == "ann-lee-s-cat"
    assert slugify("...") == "note"
    assert slugify("上海 办公室") == "上海-办公室"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("люди/анна", "люди/анна"),  # one script per word is an id, whichever script
        ("notes/встреча-с-ann", "notes/встреча-с-ann"),
        ("notes/β-carotene", "notes/β-carotene"),
        ("notes/项目alpha", "notes/项目alpha"),  # Han and Latin are never drawn alike
    ],
)
def test_ids_in_any_script_are_ids(raw: str, expected: str):
    assert parse_topic_id(raw) == expected


def test_an_id_that_reads_like_another_is_refused_naming_the_word():
    with pytest.raises(InvalidTopicId, match="mixes Cyrillic and Latin letters in 'аnn'"):
        parse_topic_id("people/аnn")  # the first letter is Cyrillic а
    with pytest.raises(InvalidTopicId, match=r"ends with '\.'"):
        parse_topic_id("notes/x.")  # Windows and SMB copies cannot hold it apart from notes/x
