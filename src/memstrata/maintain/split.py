"""Split: an entry over ~750 chars becomes focused children linked to a parent trimmed to its core.

Deterministic, without a model, by the entry's own structure:

- two or more ``##`` sections: one child per section (a long section is cut further by its
  paragraphs and bullets); a long introduction becomes an "Overview" child;
- otherwise its paragraphs and bullets are grouped, in order, into children of at most ~450
  chars, each named by its first words; a short first paragraph stays as the parent's core.

A child is ``<namespace>/<parent-slug>-<heading>``, links to its parent and inherits its kind,
importance, owner and lineage; the parent keeps its title, its core and its detail page, lists
its children and links to them. One paragraph alone cannot be split without a model: deferred.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memstrata.config import Config
from memstrata.maintain.steps import Step, TopicChange, add_item, change_of, preview_of
from memstrata.model import Topic, TopicMeta
from memstrata.wiki.text import gist_of
from memstrata.workspace.names import MAX_PART_CHARS, slugify

if TYPE_CHECKING:
    from collections.abc import Collection

    from memstrata.maintain.run import GardenRun

CORE_MAX_CHARS = 300
SLUG_WORDS = 4
CHUNK_SHARE = 0.6  # children of at most this share of the bloat threshold
HEADING_WORDS = 6
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^([-*+]|\d+[.)])\s+")


@dataclass(frozen=True, slots=True)
class Part:
    """One child to be: a heading and its text."""

    heading: str
    body: str


@dataclass(frozen=True, slots=True)
class _Parsed:
    title_line: str
    intro: list[str]
    sections: list[tuple[str, list[str]]]
    markers: list[str]


def _parse(summary: str) -> _Parsed:
    """Title line, intro blocks, ``##`` sections of blocks, and HTML comment markers."""
    title_line = ""
    intro: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    markers: list[str] = []
    blocks = intro
    current: list[str] = []

    def flush() -> None:
        if current:
            blocks.append("\n".join(current))
            current.clear()

    for line in summary.splitlines():
        stripped = line.strip()
        heading = _HEADING.match(stripped)
        if (
            heading
            and len(heading.group(1)) == 1
            and not title_line
            and not intro
            and not sections
            and not current
        ):
            title_line = stripped
        elif heading:
            flush()
            sections.append((heading.group(2), []))
            blocks = sections[-1][1]
        elif stripped.startswith("<!--"):
            flush()
            markers.append(stripped)
        elif not stripped:
            flush()
        elif _BULLET.match(stripped):
            flush()
            current.append(stripped)
        else:
            current.append(stripped if not current else line.rstrip())
    flush()
    return _Parsed(title_line, intro, sections, markers)


def _chunks(heading: str, blocks: list[str], target: int) -> list[Part]:
    groups: list[list[str]] = []
    size = 0
    for block in blocks:
        if groups and size + len(block) + 1 <= target:
            groups[-1].append(block)
            size += len(block) + 1
        else:
            groups.append([block])
            size = len(block)
    parts = []
    for number, group in enumerate(groups, start=1):
        if heading:
            name = heading if len(groups) == 1 else f"{heading} ({number})"
        else:
            words = _BULLET.sub("", group[0]).split()
            name = " ".join(words[:HEADING_WORDS]).rstrip(".,;:")
        parts.append(
            Part(name, "\n".join(group) if _BULLET.match(group[0]) else "\n\n".join(group))
        )
    return parts


def split_parts(summary: str, bloat_chars: int) -> tuple[str, list[Part]] | str:
    """(core, parts) of a bloated summary, or why it cannot be split deterministically."""
    parsed = _parse(summary)
    target = int(bloat_chars * CHUNK_SHARE)
    parts: list[Part] = []
    core = ""
    if len(parsed.sections) >= 2:
        core = "\n\n".join(parsed.intro)
        if len(core) > CORE_MAX_CHARS:
            parts += _chunks("Overview", parsed.intro, target)
            core = gist_of(core, CORE_MAX_CHARS // 2)
        for heading, blocks in parsed.sections:
            if blocks:
                parts += _chunks(heading, blocks, target)
    else:
        blocks = list(parsed.intro)
        heading = ""
        if parsed.sections:
            heading, more = parsed.sections[0]
            blocks += more
        if len(blocks) >= 3 and not _BULLET.match(blocks[0]) and len(blocks[0]) <= CORE_MAX_CHARS:
            core = blocks.pop(0)
        parts = _chunks(heading, blocks, target)
    if len(parts) < 2:
        return "one block of text: nothing to split it by without a model"
    return core, parts


def plan_split(topic: Topic, taken: Collection[str], now_iso: str, config: Config) -> Step | str:
    """The split of ``topic`` into children, or why it cannot be split."""
    bloat = config.garden.bloat_chars
    found = split_parts(topic.summary, bloat)
    if isinstance(found, str):
        return found
    core, parts = found
    cap = config.topics.summary_max_chars
    title_line = _parse(topic.summary).title_line or f"# {topic.title}"
    ids: list[str] = []
    children: list[TopicChange] = []
    used = set(taken)
    for part in parts:
        child_id = _child_id(topic, part.heading, used)
        used.add(child_id)
        ids.append(child_id)
        text = f"# {topic.title} — {part.heading}\n\n{part.body.strip()}\n"
        if len(text) > cap:
            return f"a block of {len(part.body)} chars is over the {cap}-char cap"
        folded = part.body.casefold()
        meta = TopicMeta(
            state="active",
            created=now_iso,
            updated=now_iso,
            owner_agent=topic.meta.owner_agent,
            links=(topic.id,),
            lineage=add_item(topic.meta.lineage, topic.id),
            kind=topic.meta.kind,
            entities=tuple(e for e in topic.meta.entities if e.casefold() in folded),
            confidence=topic.meta.confidence,
            observed=topic.meta.observed,
            importance=topic.meta.importance,
        )
        children.append(TopicChange(child_id, None, text, "", meta, "create"))
    parent = change_of(
        topic,
        op="split",
        summary=_parent_summary(
            title_line,
            core or gist_of(topic.summary, CORE_MAX_CHARS // 2),
            _parse(topic.summary).markers,
            ids,
            bloat,
        ),
        links=add_item(topic.meta.links, *ids),
        updated=now_iso,
    )
    why = f"{len(topic.summary)} chars, over {bloat}: split into {len(ids)} linked topics"
    return Step(
        "split",
        "split",
        (topic.id, *ids),
        why,
        preview_of(topic),
        (parent, *children),
        destructive=True,
    )


def _parent_summary(
    title_line: str, core: str, markers: list[str], ids: list[str], bloat: int
) -> str:
    head = "\n\n".join(part for part in (title_line, core.strip(), *markers) if part)
    listed = f"{head}\n\nSplit into: {', '.join(ids)}.\n"
    if len(listed) <= bloat:
        return listed
    return f"{head}\n\nSplit into {len(ids)} linked topics (see its links).\n"


def _child_id(topic: Topic, heading: str, taken: set[str]) -> str:
    short = " ".join(heading.split()[:SLUG_WORDS])
    stem = slugify(f"{topic.slug}-{short}", fallback=f"{topic.slug}-part")
    stem = stem[: MAX_PART_CHARS - 4].strip("-_.")
    candidate, number = f"{topic.namespace}/{stem}", 2
    while candidate in taken:
        candidate = f"{topic.namespace}/{stem}-{number}"
        number += 1
    return candidate


def tend_split(run: GardenRun) -> None:
    """Split the most bloated entries first, at most ``max_splits`` a run."""
    bloat = run.config.garden.bloat_chars
    bloated = [
        t
        for t in run.view.values()
        if t.meta.state == "active" and len(t.summary) > bloat and not t.meta.pinned
    ]
    bloated.sort(key=lambda t: (-len(t.summary), t.id))
    splits = 0
    for topic_id in run.items("split", [t.id for t in bloated]):
        if splits >= run.config.garden.max_splits:
            run.defer(
                f"{topic_id}: bloated, left for the next run (≤ "
                f"{run.config.garden.max_splits} splits a run)"
            )
            continue
        topic = run.live(topic_id)
        if topic is None:
            continue
        planned = plan_split(topic, run.view.keys(), run.now_iso, run.config)
        if isinstance(planned, str):
            run.defer(f"{topic_id}: {len(topic.summary)} chars, not split: {planned}")
            continue
        if run.submit(planned) in ("executed", "proposed"):
            splits += 1
