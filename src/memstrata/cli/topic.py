"""``memstrata topic``: list, show, history, archive, restore and write wiki topics."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

import click

from memstrata.cli.opener import open_memory
from memstrata.cli.output import display_width, echo_json, one_line, padded
from memstrata.errors import InputError
from memstrata.jsonable import to_jsonable
from memstrata.wiki.store import HistoryRecord, TopicText
from memstrata.workspace.textfile import PLAIN_TEXT, decode_text, first_control


@click.group()
def topic() -> None:
    """Wiki topics (namespace/slug): a summary to recall, a detail page, a history.

    Example: memstrata topic show people/ann
    """


@topic.command("list")
@click.option("--all", "show_all", is_flag=True, help="Include archived and superseded topics.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_topics(ctx: click.Context, show_all: bool, as_json: bool) -> None:
    """List topics with their state and one-line gist.

    Example: memstrata topic list --all
    """
    from memstrata.wiki.index_file import entry_for, headline

    listing = open_memory(ctx).topics.read_all()
    every = [entry_for(item) for item in listing.topics]
    entries = every if show_all else [e for e in every if e.state in ("active", "conflict")]
    for problem in listing.problems:
        click.echo(f"problem: {problem}", err=True)
    if as_json:
        echo_json(entries)
        return
    if not entries:
        hidden = len(every) - len(entries)
        click.echo(f"no active topics ({hidden} more: --all lists them)" if hidden else "no topics")
    # the id column as wide as the widest id (wide characters count twice), within reason
    width = min(max((display_width(entry.id) for entry in entries), default=0) + 1, 57)
    for entry in entries:
        said = one_line(headline(entry), 70)
        click.echo(f"{padded(entry.id, width)}{padded(entry.state, 11)}{said}")


@topic.command()
@click.argument("topic_id")
@click.option(
    "--version",
    "version",
    default=None,
    help="Show the text it had at this version (a hash from topic history) instead.",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def show(ctx: click.Context, topic_id: str, version: str | None, as_json: bool) -> None:
    """Show a topic: summary, detail, meta, and how often recall has returned it.

    The count and last time come from .memstrata/access.db, where recall records them; with
    --json they are "access": {"count", "last"}, and meta.json's access_count (not kept up)
    is left out. A topic whose title or summary reads as an instruction to the model says it
    is held out of recall and the Index, and why ("held" with --json). With --version, only
    the summary and detail it had then (--json: "id", "version", "summary", "detail").

    Example: memstrata topic show people/ann
    """
    memory = open_memory(ctx)
    if version is not None:
        _show_version(memory.topic_version(topic_id, version), topic_id, version, as_json)
        return
    item = memory.get_topic(topic_id)
    use, held = memory.access_of(item.id), memory.topic_held(item)
    if as_json:
        shown = to_jsonable(item)
        del shown["meta"]["access_count"]
        shown["access"] = to_jsonable(use)
        if held:
            shown["held"] = held
        echo_json(shown)
        return
    times = "once" if use.count == 1 else f"{use.count} times"
    recalled = f"recalled {times}, last {use.last}" if use.count else "never recalled"
    click.echo(f"# {item.id} [{item.meta.state}] updated {item.meta.updated}, {recalled}")
    if held:
        click.echo(f"held out of recall and the Index: reads as an instruction ({held})")
    click.echo(item.summary.rstrip())
    if item.detail.strip():
        click.echo("\n--- detail ---")
        click.echo(item.detail.rstrip())


def _show_version(text: TopicText, topic_id: str, version: str, as_json: bool) -> None:
    if as_json:
        echo_json({"id": topic_id, "version": version, **to_jsonable(text)})
        return
    click.echo(f"# {topic_id} at version {version}")
    click.echo(text.summary.rstrip())
    if text.detail.strip():
        click.echo("\n--- detail ---")
        click.echo(text.detail.rstrip())


@topic.command()
@click.argument("topic_id")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def history(ctx: click.Context, topic_id: str, as_json: bool) -> None:
    """Show every recorded change of a topic, oldest first.

    A change of the text keeps the text it replaced: its line is followed by "was: …", and
    `topic show --version` / `topic restore --version` with the hash before the arrow show or
    bring it back (--json: "replaced": {"summary", "detail"}).

    Example: memstrata topic history people/ann
    """
    records = open_memory(ctx).topic_history_records(topic_id)
    if as_json:
        echo_json([_history_json(record) for record in records])
        return
    for record in records:
        entry = record.entry
        reason = f" — {entry.reason}" if entry.reason else ""
        click.echo(
            f"{entry.time} {entry.actor:<8} {entry.op:<9} {entry.before or '∅':>16} → "
            f"{entry.after}{reason}"
        )
        if record.replaced is not None:
            click.echo(f"    was: {one_line(record.replaced.summary, 70)}")


def _history_json(record: HistoryRecord) -> dict[str, object]:
    shown: dict[str, object] = to_jsonable(record.entry)
    if record.replaced is not None:
        shown["replaced"] = to_jsonable(record.replaced)
    return shown


@topic.command()
@click.argument("topic_id")
@click.option("--reason", default="", help="Why (recorded in history).")
@click.pass_context
def archive(ctx: click.Context, topic_id: str, reason: str) -> None:
    """Archive a topic: out of recall and the index, kept on disk with its history.

    Example: memstrata topic archive projects/old-site --reason "shipped"
    """
    written = open_memory(ctx).archive_topic(topic_id, reason=reason)
    click.echo(f"archived {written.topic.id}")
    _note_index(written.index_note)


@topic.command()
@click.argument("topic_id")
@click.option(
    "--version",
    "version",
    default=None,
    help="Bring back the text it had at this version (a hash from topic history) instead.",
)
@click.option("--reason", default="", help="Why (recorded in history).")
@click.pass_context
def restore(ctx: click.Context, topic_id: str, version: str | None, reason: str) -> None:
    """Bring an archived topic back to the state it had before it was archived.

    That is active (in recall and the index again), or superseded if it had been replaced.
    With --version, bring back an earlier text instead (the state stays as it is); the text
    it replaces is kept in history in turn.

    Example: memstrata topic restore projects/old-site --reason "back in use"
    """
    written = open_memory(ctx).restore_topic(topic_id, reason=reason, version=version)
    if version is not None:
        entry = written.entry
        click.echo(
            f"restored {written.topic.id} to version {version} ({entry.before} → {entry.after})"
        )
        _note_held(written.held)
        _note_index(written.index_note)
        return
    meta = written.topic.meta
    by = f" by {meta.superseded_by}" if meta.superseded_by else ""
    state = "" if meta.state == "active" else f" ({meta.state}{by})"
    click.echo(f"restored {written.topic.id}{state}")


@topic.command()
@click.argument("topic_id")
@click.option(
    "--summary-file",
    type=click.Path(path_type=Path, allow_dash=True),
    required=True,
    help="File with the summary (≤ 1000 chars); '-' reads stdin.",
)
@click.option(
    "--detail-file",
    type=click.Path(path_type=Path, allow_dash=True),
    default=None,
    help="File with the detail page (≤ 8000 chars); '-' reads stdin.",
)
@click.option("--reason", default="", help="Why (recorded in history).")
@click.pass_context
def write(
    ctx: click.Context, topic_id: str, summary_file: Path, detail_file: Path | None, reason: str
) -> None:
    """Create or update a topic by hand (recorded in history with actor 'user').

    The text an update replaces is kept in the topic's history: topic history shows it, and
    topic restore --version brings it back.

    Example: printf "# Ann\\nLikes cortado.\\n" | memstrata topic write people/ann --summary-file -
    """
    if str(summary_file) == "-" and detail_file is not None and str(detail_file) == "-":
        raise click.UsageError("only one of --summary-file and --detail-file can read stdin")
    summary = _read_input(summary_file)
    detail = _read_input(detail_file) if detail_file is not None else None
    written = open_memory(ctx).write_topic(topic_id, summary, detail, reason=reason)
    if written.unchanged:
        click.echo(
            f"unchanged {written.topic.id} ({written.entry.after}): it holds this text already"
        )
        return
    verb = "created" if written.created else "updated"
    click.echo(f"{verb} {written.topic.id} ({written.entry.before or '∅'} → {written.entry.after})")
    _note_held(written.held)
    _note_index(written.index_note)


def _note_held(held: str) -> None:
    if held:
        click.echo(
            f"note: held out of recall and the Index, it reads as an instruction to the model"
            f" ({held}); it stays in the topic's files",
            err=True,
        )


#: far over any cap (a summary holds 1,000 characters, a detail 8,000): reading stops here, so
#: a device that never ends (/dev/zero) is refused instead of filling memory
MAX_INPUT_BYTES = 1 << 20


def _read_input(path: Path) -> str:
    """A file, a pipe (``<(…)`` is one) or ``-`` for stdin, read as UTF-8 plain text."""
    name = "<stdin>" if str(path) == "-" else str(path)
    text = _read_text(path)
    found = first_control(text)
    if found is not None:
        raise InputError(
            f"{name}:{found.line}:{found.column}: {found}; a topic is plain text ({PLAIN_TEXT}); "
            "nothing was written"
        )
    return text


def _read_text(path: Path) -> str:
    if str(path) == "-":
        return decode_text(_read_bounded(sys.stdin.buffer, "<stdin>"), "<stdin>")
    if path.is_dir():
        raise InputError(f"{path}: a folder, not a file")
    if not path.exists():
        raise InputError(f"{path}: no such file")
    try:
        with path.open("rb") as handle:
            data = _read_bounded(handle, str(path))
    except PermissionError as error:
        raise InputError(f"{path}: cannot read ({error.strerror})") from error
    return decode_text(data, path)


def _read_bounded(handle: BinaryIO, name: str) -> bytes:
    data = handle.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(
            f"{name}: over {MAX_INPUT_BYTES:,} bytes, far more than a topic holds; nothing was "
            "written"
        )
    return data


COMMANDS = (topic,)


def _note_index(note: str) -> None:
    if note:  # written all the same: a retry would record the change twice
        click.echo(f"note: {note}", err=True)
