"""A seeded messy workspace with known ground truth, written straight to the canonical files.

Every kind of rot the gardener tends is planted on purpose, with everything else lexically
distinct (pseudo-words from a seeded generator), linked, and recent, so that what each phase
should find is exactly what is listed in :class:`Truth`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memstrata.bench.topic_files import write_topic_files
from memstrata.clock import to_iso
from memstrata.model import TopicMeta
from memstrata.recall.access import AccessLog
from memstrata.workspace.layout import init_workspace

NOW = datetime(2025, 11, 27, 10, 0, 0, tzinfo=UTC)
HUB = "projects/hub"

DUPLICATES = [
    ("Ann prefers oat milk in her coffee.", "By the way, Ann prefers oat milk in her coffee."),
    ("The staging database runs on port 5433.", "FYI the staging database runs on port 5433."),
    (
        "Nightly backups go to the cold storage bucket.",
        "Nightly backups go to the cold storage bucket!",
    ),
    (
        "Peter reviews every pull request on Fridays.",
        "Peter reviews every pull request on Fridays, by the way.",
    ),
    ("The VPN config lives in the ops wiki.", "I believe the VPN config lives in the ops wiki."),
]
NEAR_DUPLICATES = [
    (
        "The deploy script lives in the tools folder.",
        "The deploy script lives in the tools folder and needs bash.",
    ),
    ("Lena owns the quarterly roadmap.", "Lena owns the quarterly roadmap and the hiring budget."),
]
SUPERSEDED = [  # (older, newer): same statement, another number or date
    ("Ann's flight to Oslo leaves at 10:00.", "Ann's flight to Oslo leaves at 11:30."),
    ("The billing report is due on 2025-11-28.", "The billing report is due on 2025-12-05."),
    ("The team standup starts at 9:15.", "The team standup starts at 9:45."),
]
OWN_WORDS_UPDATE = ("Tom prefers cortado.", "Tom prefers flat white.")

_SYLLABLES = (
    "zor",
    "vat",
    "brim",
    "low",
    "kes",
    "trin",
    "pel",
    "an",
    "du",
    "quim",
    "by",
    "tra",
    "vosk",
    "mel",
    "dri",
    "fon",
    "gar",
    "ulp",
    "hex",
    "wim",
    "sol",
    "nab",
    "ret",
    "cu",
    "lio",
    "pra",
    "tesh",
    "om",
    "yal",
    "bur",
    "ki",
    "dov",
)
_VERBS = (
    "keeps",
    "sorts",
    "guards",
    "paints",
    "counts",
    "mends",
    "weighs",
    "stacks",
    "tunes",
    "files",
    "polishes",
    "labels",
    "ships",
    "brews",
    "folds",
    "audits",
)
_PLACES = ("near", "beside", "under", "behind", "above", "inside", "across", "around")


@dataclass
class Truth:
    """What the gardener should find; ids of the planted topics."""

    duplicates: list[tuple[str, str]] = field(default_factory=list)  # (keeper, merged away)
    near_duplicates: list[tuple[str, str]] = field(default_factory=list)
    superseded: list[tuple[str, str]] = field(default_factory=list)  # (older, newer)
    own_words_update: tuple[str, str] = ("", "")
    decay: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)  # 90+ days: archive
    recently_used: list[str] = field(default_factory=list)
    pinned: list[str] = field(default_factory=list)
    bloated: list[str] = field(default_factory=list)
    unsplittable: list[str] = field(default_factory=list)
    orphans: list[tuple[str, str]] = field(default_factory=list)  # (orphan, its target)
    ambiguous_orphans: list[str] = field(default_factory=list)
    stale_marked: list[str] = field(default_factory=list)
    fresh_marked: list[str] = field(default_factory=list)
    old_lessons: list[str] = field(default_factory=list)
    fresh_lessons: list[str] = field(default_factory=list)
    healthy: list[str] = field(default_factory=list)

    @property
    def archives(self) -> list[str]:
        return [*self.old_lessons, *self.stale_marked, *self.unused]


class _Words:
    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.used: set[str] = set()

    def word(self) -> str:
        while True:
            parts = self.random.randint(2, 3)
            word = "".join(self.random.choice(_SYLLABLES) for _ in range(parts))
            if word not in self.used and len(word) >= 5:
                self.used.add(word)
                return word

    def sentence(self) -> str:
        first = self.word().capitalize()
        return (
            f"{first} {self.random.choice(_VERBS)} the {self.word()} {self.word()} "
            f"{self.random.choice(_PLACES)} {self.word()}."
        )


def ago(days: float, now: datetime = NOW) -> str:
    return to_iso(now - timedelta(days=days))


def make_messy_workspace(root: Path, seed: int = 7, now: datetime = NOW) -> Truth:
    """Lay out the messy workspace at ``root``; return what is wrong with it."""
    init_workspace(root)
    words = _Words(seed)
    truth = Truth()
    accessed: list[tuple[str, str]] = []

    def put(
        topic_id: str,
        summary: str,
        *,
        updated_days: float,
        created_days: float | None = None,
        links: tuple[str, ...] = (HUB,),
        history_days: float | None = None,
        **meta: object,
    ) -> str:
        created = ago(created_days if created_days is not None else updated_days, now)
        topic_meta = TopicMeta(created=created, updated=ago(updated_days, now), links=links, **meta)  # type: ignore[arg-type]
        history = ago(history_days, now) if history_days is not None else ""
        write_topic_files(
            root,
            topic_id,
            summary if summary.endswith("\n") else summary + "\n",
            topic_meta,
            history_time=history,
            actor="seed",
            reason="seeded",
        )
        return topic_id

    put(HUB, "# Hub\n\nWhere the seeded projects meet.", updated_days=25, links=())
    for number, (original, duplicate) in enumerate(DUPLICATES):
        keeper = put(f"notes/dup-{number}-a", original, updated_days=6 + number, links=())
        merged = put(f"notes/dup-{number}-b", duplicate, updated_days=1 + number / 10, links=())
        truth.duplicates.append((keeper, merged))
    for number, (short, longer) in enumerate(NEAR_DUPLICATES):
        truth.near_duplicates.append(
            (
                put(f"notes/near-{number}-a", short, updated_days=5, links=()),
                put(f"notes/near-{number}-b", longer, updated_days=2, links=()),
            )
        )
    for number, (older, newer) in enumerate(SUPERSEDED):
        truth.superseded.append(
            (
                put(
                    f"world/fact-{number}-old",
                    older,
                    updated_days=20,
                    observed=ago(20, now),
                    links=(),
                ),
                put(
                    f"world/fact-{number}-new",
                    newer,
                    updated_days=2,
                    observed=ago(2, now),
                    links=(),
                ),
            )
        )
    truth.own_words_update = (
        put("opinions/tom-coffee-old", OWN_WORDS_UPDATE[0], updated_days=15, links=()),
        put("opinions/tom-coffee-new", OWN_WORDS_UPDATE[1], updated_days=3, links=()),
    )
    for number in range(6):
        truth.decay.append(put(f"notes/cold-{number}", words.sentence(), updated_days=40 + number))
    for number in range(3):
        truth.unused.append(
            put(f"notes/unused-{number}", words.sentence(), updated_days=100 + 20 * number)
        )
    for number in range(2):
        topic_id = put(f"notes/used-{number}", words.sentence(), updated_days=120)
        accessed.append((topic_id, ago(3, now)))
        truth.recently_used.append(topic_id)
    truth.pinned.append(put("notes/pinned", words.sentence(), updated_days=200, pinned=True))
    for number in range(2):
        sections = "\n\n".join(
            f"## {words.word().capitalize()}\n\n{words.sentence()} {words.sentence()} "
            f"{words.sentence()} {words.sentence()} {words.sentence()}"
            for _ in range(3)
        )
        truth.bloated.append(
            put(
                f"projects/sections-{number}",
                f"# Sections {number}\n\n{words.sentence()}\n\n{sections}",
                updated_days=1,
            )
        )
    for number in range(2):
        bullets = "\n".join(f"- {words.sentence()}" for _ in range(14))
        truth.bloated.append(
            put(f"projects/bullets-{number}", f"# Bullets {number}\n\n{bullets}", updated_days=1)
        )
    paragraph = " ".join(words.sentence() for _ in range(17))
    truth.unsplittable.append(put("projects/wall", f"# Wall\n\n{paragraph}", updated_days=1))
    for name in ("Priya", "Kenji", "Sofia"):
        put(
            f"people/{name.lower()}",
            f"# {name}\n\n@{name} {words.sentence()[0].lower()}{words.sentence()[1:]}",
            updated_days=4,
        )
    for verb, noun in (("drafted", "plan"), ("reviewed", "budget"), ("tracks", "rollout")):
        topic_id = put(
            f"notes/priya-{verb}",
            f"@Priya {verb} the {words.word()} {words.word()} {noun}.",
            updated_days=3,
            links=(),
        )
        truth.orphans.append((topic_id, "people/priya"))
    truth.ambiguous_orphans.append(
        put(
            "notes/rota",
            f"@Kenji and @Sofia share the {words.word()} {words.word()} rota.",
            updated_days=3,
            links=(),
        )
    )
    truth.stale_marked.append(
        put("notes/marked-old", f"{words.sentence()}\n<!-- stale -->", updated_days=10)
    )
    truth.fresh_marked.append(
        put("notes/marked-new", f"{words.sentence()}\n<!-- stale -->", updated_days=2)
    )
    truth.old_lessons.append(put("lessons/old-lesson", words.sentence(), updated_days=40))
    truth.fresh_lessons.append(put("lessons/fresh-lesson", words.sentence(), updated_days=5))
    for number in range(10):
        truth.healthy.append(
            put(f"projects/healthy-{number}", words.sentence(), updated_days=number + 0.5)
        )
    (root / "memory" / "2025-11-26.md").write_text(
        "# 2025-11-26\n\n- 09:00 Seeded a day.\n", encoding="utf-8"
    )
    log = AccessLog(root / ".memstrata" / "access.db")
    for topic_id, when in accessed:
        log.record([topic_id], when)
    log.close()
    return truth


def garden(root: Path, mode: str = "autonomous", now: datetime = NOW, **options: object):
    """One garden run on ``root`` with a fixed clock and a budget big enough for the mess."""
    from memstrata import Memory
    from memstrata.maintain.gardener import run_garden

    options.setdefault("max_mutations", 200)
    options.setdefault("max_comparisons", 500)
    with Memory(root, clock=lambda: now) as memory:
        return run_garden(memory, mode, now=now, **options)  # type: ignore[arg-type]


def topic(root: Path, topic_id: str):
    from memstrata import Memory

    with Memory(root, clock=lambda: NOW) as memory:
        return memory.topics.get(topic_id)


def file_states(root: Path) -> dict[str, tuple[bytes, int]]:
    """Bytes and mtime of every file, shared-memory and lock files of SQLite aside."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and not path.name.endswith(("-shm", "lock")):
            found[path.relative_to(root).as_posix()] = (path.read_bytes(), path.stat().st_mtime_ns)
    return found
