"""Text memstrata did not write (transcripts, hand edits) is shown with its control characters
as pictures: nothing it prints or injects can drive a terminal or hide a reordering."""

import pytest

from memstrata.workspace.textfile import visible_text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain\ttext\nover lines", "plain\ttext\nover lines"),
        ("\x1b]0;title\x07", "␛]0;title␇"),
        ("\x1b[31mred\x1b[0m", "␛[31mred␛[0m"),
        ("nul\x00 and backspace\x08", "nul␀ and backspace␈"),
        ("windows\r\nline ends", "windows\nline ends"),
        ("over\rwritten", "over␍written"),
        ("c1 csi \x9b2J and del \x7f", "c1 csi \ufffd2J and del \ufffd"),
        ("access \u202eexe.txt", "access \ufffdexe.txt"),
        ("中文和 emoji 😀", "中文和 emoji 😀"),
    ],
)
def test_control_characters_are_shown_as_their_pictures(text: str, shown: str):
    assert visible_text(text) == shown
