"""Arguments that could be read two ways are read the way the caller meant: one name given as
text is that name, not its letters. (The wrong arguments refused are in test_api_arguments.)"""

from pathlib import Path

from memstrata import Memory


def test_one_source_given_as_text_is_one_source_not_its_letters(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        memory.write_topic("people/ann", "Ann leads design.")
        memory.record_use("people/ann")
        assert memory.access_of("people/ann").count == 1
        assert memory.access_of("p").count == 0


def test_one_phase_to_skip_given_as_text_is_that_phase(workspace: Path):
    with Memory(workspace, embeddings=False) as memory:
        report = memory.garden(skip="dedup", dry_run=True)
    assert any("dedup" in line for line in report.skipped)
