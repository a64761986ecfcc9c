"""Compile what to inject for one turn: Rules, Index and Recall, each within its byte budget.

Pure: it packs what it is given. Items are whole (a rules file, an index line, a recalled item)
and are taken in priority order while they fit: one that would overflow its channel is left
out whole, never cut in the middle, and a later, smaller one may still fill the room; the
result says what was trimmed. Raw transcripts are never an input here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from memstrata.config import BudgetsConfig
from memstrata.errors import BudgetExceeded
from memstrata.lazy_pattern import LazyPattern
from memstrata.model import RecallItem
from memstrata.workspace.textfile import visible_text

#: A deterministic token estimate (no tokenizer is loaded): ASCII text runs about 4
#: characters a token in the BPE vocabularies of current models, a Chinese, Japanese or Korean
#: character about one token, other scripts (accented Latin, Cyrillic, emoji…) about 2
#: characters a token. Counting UTF-8 bytes / 4 alone would put Chinese at 0.75 tokens a
#: character, short of what it costs.
ASCII_CHARS_PER_TOKEN = 4
OTHER_CHARS_PER_TOKEN = 2

_CJK = LazyPattern(
    "[\u1100-\u11ff"  # Hangul Jamo
    "\u2e80-\u9fff"  # CJK radicals, kana, ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff00-\uffef"  # full-width forms
    "\U00020000-\U0003ffff]"  # CJK extensions
)


def estimate_tokens(text: str) -> int:
    """About how many tokens ``text`` costs a model (see :data:`ASCII_CHARS_PER_TOKEN`)."""
    if text.isascii():
        return -(-len(text) // ASCII_CHARS_PER_TOKEN)
    ascii_chars = len(text.encode("ascii", "ignore"))
    cjk = len(text) - len(_CJK.sub("", text))
    other = len(text) - ascii_chars - cjk
    return cjk + -(-ascii_chars // ASCII_CHARS_PER_TOKEN) + -(-other // OTHER_CHARS_PER_TOKEN)


@dataclass(frozen=True, slots=True)
class ContextItem:
    """One unit that is either injected whole or not at all."""

    channel: str
    label: str
    text: str
    #: a pinned item must be injected: if it cannot fit, compiling fails instead of trimming it
    pinned: bool = False

    @property
    def bytes(self) -> int:
        return len(self.text.encode("utf-8"))


@dataclass(frozen=True, slots=True)
class Channel:
    """One channel of the context: what went in, what was trimmed, and its size."""

    name: str
    budget_bytes: int
    items: tuple[ContextItem, ...]
    trimmed: tuple[str, ...]
    #: items left out before packing, counted, not listed: the Index renders the newest
    #: topics that fit its budget and says "+N more" for the rest (thousands, in a big wiki)
    omitted: int = 0

    @property
    def text(self) -> str:
        return "".join(item.text for item in self.items)

    @property
    def bytes(self) -> int:
        return sum(item.bytes for item in self.items)

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


@dataclass(frozen=True, slots=True)
class Context:
    """The injection for one turn."""

    channels: tuple[Channel, ...]
    #: what recall said about how it searched (a cut query, files it could not read, a
    #: semantic arm that is off): for the caller, never injected
    notes: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return "\n".join(
            f"<{channel.name}>\n{channel.text.rstrip()}\n</{channel.name}>"
            for channel in self.channels
            if channel.items
        )

    @property
    def bytes(self) -> int:
        """The size of :attr:`text`, what is injected: the channels and the tags around
        them (the budgets cap each channel's items; the tags are a few dozen bytes more)."""
        return len(self.text.encode("utf-8"))

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)

    def channel(self, name: str) -> Channel:
        """The channel called ``name`` (``rules``, ``index`` or ``recall``)."""
        return next(channel for channel in self.channels if channel.name == name)

    def as_json(self) -> dict[str, Any]:
        """The compiled context as ``memstrata context --json`` and the MCP tool return it."""
        return {
            "text": self.text,
            "bytes": self.bytes,
            "tokens": self.tokens,
            "channels": {
                channel.name: {
                    "bytes": channel.bytes,
                    "tokens": channel.tokens,
                    "budget_bytes": channel.budget_bytes,
                    "items": [item.label for item in channel.items if item.label],
                    "trimmed": list(channel.trimmed),
                    "omitted": channel.omitted,
                }
                for channel in self.channels
            },
            "notes": list(self.notes),
        }


def recall_line(item: RecallItem) -> str:
    """One recalled item as it is injected: kind, time, source, state, title, then content.

    A title that only repeats the content's opening (a summary with no heading is titled by its
    first line) is left out: it would spend the recall budget twice on the same words.
    """
    head = f"[{item.kind} {item.time} {item.source}]"
    marker = " [conflict]" if item.state == "conflict" else ""
    content = " ".join(item.content.split())
    title = " ".join(item.title.split()).removesuffix("…").rstrip()
    label = f"{item.title}: " if title and not content.startswith(title) else ""
    return f"{head}{marker} {label}{content}\n"


def index_items(view: str) -> list[ContextItem]:
    """The lines of the index view (``- id — gist``), each a whole item labelled by its id;
    its last line, "(+N more topics not shown …)", names no topic and has no label (the
    channel's ``omitted`` counts them)."""
    return [
        ContextItem(
            "index",
            line.split(" — ", 1)[0].removeprefix("- ") if line.startswith("- ") else "",
            line + "\n",
        )
        for line in view.splitlines()
    ]


def pack(name: str, items: Sequence[ContextItem], budget_bytes: int) -> Channel:
    """Keep items in priority order (first = most important) while they fit the budget.

    Pinned items go in first; one that cannot fit raises :class:`BudgetExceeded`.
    """
    kept: list[ContextItem] = []
    trimmed: list[str] = []
    used = sum(item.bytes for item in items if item.pinned)
    if used > budget_bytes:
        sizes = ", ".join(f"{item.label} {item.bytes} B" for item in items if item.pinned)
        raise BudgetExceeded(
            f"the pinned {name} items ({sizes}) need {used} bytes, over the {name} budget of "
            f"{budget_bytes}: shorten them or raise budgets in memstrata.toml"
        )
    for item in items:
        if item.pinned:
            kept.append(item)
        elif used + item.bytes <= budget_bytes:
            kept.append(item)
            used += item.bytes
        else:
            trimmed.append(item.label)
    return Channel(name, budget_bytes, tuple(kept), tuple(trimmed))


_MORE_TOPICS = LazyPattern(r"\(\+(\d+) more topics? not shown")


def more_topics_line(count: int) -> str:
    """The Index's last line when ``count`` topics are not in it (the words
    :func:`~memstrata.wiki.index_file.render_index` writes)."""
    topics = "topic" if count == 1 else "topics"
    return f"(+{count} more {topics} not shown; search or recall to find them)\n"


def pack_index(items: Sequence[ContextItem], budget_bytes: int, omitted: int) -> Channel:
    """The Index's topic lines in order while they fit, then the line that says how many
    topics are not shown: ``omitted`` left out when the view was rendered, and any left out
    here. A topic line is measured here as it is injected (a control character as its
    picture, three bytes for one), so one the rendering fitted may not fit: it is trimmed, and
    the last line counts it, rather than the last line itself being trimmed."""
    packed = pack("index", items, budget_bytes)
    if not packed.trimmed:
        return replace(packed, omitted=omitted)
    lines = [item for item in items if item.label]
    # a caller that gives the view's text alone still has its count, in its last line
    footers = [_MORE_TOPICS.match(item.text) for item in items if not item.label]
    said = [int(found[1]) for found in footers if found]
    omitted = max(omitted, *said) if said else omitted
    kept: list[ContextItem] = []
    used = 0
    for line in lines:
        left_out = omitted + len(lines) - len(kept) - 1
        reserve = len(more_topics_line(left_out).encode()) if left_out else 0
        if used + line.bytes + reserve > budget_bytes:
            break
        kept.append(line)
        used += line.bytes
    left_out = omitted + len(lines) - len(kept)
    footer = ContextItem("index", "", more_topics_line(left_out))
    fits = used + footer.bytes <= budget_bytes
    trimmed = tuple(line.label for line in lines[len(kept) :])
    return Channel("index", budget_bytes, (*kept, *([footer] if fits else [])), trimmed, omitted)


def compile_context(
    rules: Sequence[ContextItem],
    index: Sequence[ContextItem],
    recall: Sequence[ContextItem],
    budgets: BudgetsConfig,
    index_omitted: int = 0,
) -> Context:
    """Pack the three channels, each within its own budget; ``index_omitted`` topics were
    left out of the Index when it was rendered.

    A control character or bidi control in an item (a file edited by hand, an import) goes in
    as its picture (:func:`~memstrata.workspace.textfile.visible_text`): an escape sequence
    is no knowledge, and the context is printed to terminals too."""
    return Context(
        (
            pack("rules", _visible(rules), budgets.resident_bytes),
            pack_index(_visible(index), budgets.index_bytes, index_omitted),
            pack("recall", _visible(recall), budgets.recall_bytes),
        )
    )


def _visible(items: Sequence[ContextItem]) -> list[ContextItem]:
    return [replace(item, text=visible_text(item.text)) for item in items]
