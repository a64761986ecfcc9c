"""Config: every default of DESIGN.md §4, overridable in ``memstrata.toml``.

The file is strict: an unknown section or key, or a value of the wrong type, is a
:class:`~memstrata.errors.ConfigError` that names the key, so a typo never silently falls back to
a default.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, get_type_hints

from memstrata.errors import ConfigError


@dataclass(frozen=True, slots=True)
class TopicsConfig:
    max_active: int = 100
    summary_max_chars: int = 1000
    detail_max_chars: int = 8000


@dataclass(frozen=True, slots=True)
class RulesConfig:
    memory_max_chars: int = 3000


@dataclass(frozen=True, slots=True)
class BudgetsConfig:
    resident_bytes: int = 13_000
    index_bytes: int = 2_048
    recall_bytes: int = 6_144


@dataclass(frozen=True, slots=True)
class UpkeepConfig:
    idle_flush_minutes: int = 30
    distill_every_days: int = 1
    distill_window_days: int = 7
    garden_every_days: int = 7


@dataclass(frozen=True, slots=True)
class GardenConfig:
    max_mutations: int = 25
    max_comparisons: int = 50
    max_splits: int = 5
    max_reconnects: int = 10
    bloat_chars: int = 750
    decay_after_days: int = 30


@dataclass(frozen=True, slots=True)
class RecallConfig:
    stale_after_days: int = 90
    default_k: int = 10
    #: a kind (topics, journal facts, raw turns) with at least this many vectors is searched
    #: through an approximate index (IVF side file) once rebuild or tick built it: exact search
    #: loads every row into a fresh process (~1 s and 45 MB at 20k; docs/benchmarks-ann.md)
    ann_min_vectors: int = 20_000
    #: an item only the semantic arm found is recalled from this cosine up; 0 = no floor, the
    #: default, since the offline models do not separate unrelated from related memories by
    #: cosine (benchmarks/relevance.py suggests a floor for an embedder)
    min_similarity: float = 0.0


@dataclass(frozen=True, slots=True)
class DedupConfig:
    #: the share of a topic's words another must hold for the gardener to weigh the two as
    #: duplicates (it compares words: it runs with no embedder loaded)
    garden_containment: float = 0.90
    merge_core_share: float = 0.85


@dataclass(frozen=True, slots=True)
class RawConfig:
    redact_secrets: bool = True
    max_line_bytes: int = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class EmbeddingsConfig:
    #: use-multilingual (offline, default), e5-small (offline, slower), hashing,
    #: openai:<model>@<base url> (any OpenAI-compatible /v1/embeddings), or none
    model: str = "use-multilingual"
    #: the environment variable holding an endpoint's API key, sent as ``Authorization:
    #: Bearer`` when it is set; "" sends none. The key itself is never written to a file.
    api_key_env: str = "OPENAI_API_KEY"
    #: seconds an endpoint may take to answer; past it, reads go on without the semantic arm
    #: (a query is embedded on the way to every answer, so this is a read's worst extra wait)
    timeout_s: float = 10.0


#: the embedders ``embeddings.model`` may name besides ``openai:<model>@<base url>``
EMBEDDER_NAMES = ("use-multilingual", "e5-small", "hashing", "none")
_URL = re.compile(r"https?://[^/\s?#]+[^\s]*")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def embedder_spec_problem(spec: str) -> str:
    """Why ``spec`` names no embedder ("" when it names one). Only its form is checked: whether
    the model loads or the endpoint answers is learnt when it is first used."""
    if spec in EMBEDDER_NAMES:
        return ""
    if not spec.startswith("openai:"):
        known = ", ".join(EMBEDDER_NAMES)
        return f"must be one of {known} or openai:<model>@<base url>, got {spec!r}"
    model, at, base_url = spec.removeprefix("openai:").partition("@")
    if not model.strip():
        return f"names no model: openai:<model>@<base url>, got {spec!r}"
    if at and not _URL.fullmatch(base_url):
        # not shown: a URL may carry a user and password
        return "needs an http:// or https:// URL after '@' (openai:<model>@<base url>)"
    return ""


@dataclass(frozen=True, slots=True)
class Config:
    """The whole configuration; ``Config()`` is the documented default."""

    topics: TopicsConfig = field(default_factory=TopicsConfig)
    rules: RulesConfig = field(default_factory=RulesConfig)
    budgets: BudgetsConfig = field(default_factory=BudgetsConfig)
    upkeep: UpkeepConfig = field(default_factory=UpkeepConfig)
    garden: GardenConfig = field(default_factory=GardenConfig)
    recall: RecallConfig = field(default_factory=RecallConfig)
    dedup: DedupConfig = field(default_factory=DedupConfig)
    raw: RawConfig = field(default_factory=RawConfig)
    embeddings: EmbeddingsConfig = field(default_factory=EmbeddingsConfig)


def load_config(path: Path) -> Config:
    """Read ``memstrata.toml`` at ``path``; a missing file means all defaults."""
    if not path.exists():
        return Config()
    try:
        text = path.read_bytes().decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path}: invalid UTF-8 at byte {error.start}") from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from error
    lines = _key_lines(text)

    def origin(section: str, key: str | None) -> str:
        line = lines.get((section, key))
        return f"{path}:{line}" if line is not None else str(path)

    return config_from_dict(data, origin)


def config_from_dict(
    data: dict[str, Any], origin: str | Callable[[str, str | None], str] = "memstrata.toml"
) -> Config:
    """Build a Config from parsed TOML, naming the first unknown key or wrong type where it
    stands (``origin``: the file, or the file and line of a section's key)."""
    where = origin if callable(origin) else lambda _section, _key: origin
    sections = {f.name: f for f in fields(Config)}
    config = Config()
    for name, values in data.items():
        if name not in sections:
            known = ", ".join(sections)
            raise ConfigError(f"{where(name, None)}: unknown section [{name}]; known: {known}")
        if not isinstance(values, dict):
            raise ConfigError(f"{where(name, None)}: [{name}] must be a table of keys")
        section = getattr(config, name)
        config = replace(config, **{name: _section_from_dict(section, values, name, where)})
    return config


_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def _key_lines(text: str) -> dict[tuple[str, str | None], int]:
    """Where each ``[section]`` and each of its ``key =`` first stands (1-based lines), for
    messages; a key written another way (quoted, dotted) is named without its line."""
    found: dict[tuple[str, str | None], int] = {}
    section = ""
    for number, line in enumerate(text.splitlines(), start=1):
        table = _TABLE.match(line)
        if table:
            section = table.group(1)
            found.setdefault((section, None), number)
            continue
        key = _KEY.match(line)
        if key:
            found.setdefault((section, key.group(1)), number)
    return found


#: keys where 0 means nothing at all: a recall of no items is no recall, a summary of no
#: characters refuses every write, a cap of no active topics archives every topic
_AT_LEAST_ONE = frozenset(
    {"recall.default_k", "topics.summary_max_chars", "topics.max_active", "raw.max_line_bytes"}
)
#: the largest value of keys that have one: cosines and shares are at most 1, and recall
#: returns at most as many items as ``Memory.recall`` takes (``recall.inputs.MAX_RESULTS``)
_AT_MOST: dict[str, float] = {
    "recall.min_similarity": 1.0,
    "dedup.garden_containment": 1.0,
    "dedup.merge_core_share": 1.0,
    "recall.default_k": 1000,
    # a day's wait for an endpoint: past it a timer cannot be set, and no read should wait
    "embeddings.timeout_s": 86_400,
}
#: the largest span a key in these units may give: a hundred years is "never" in practice,
#: and date arithmetic cannot reach much past it (Python's dates end in the year 9999)
_LONGEST_SPAN = {"_days": 36_500, "_minutes": 36_500 * 24 * 60}


def _more_than_zero(value: float) -> str:
    return "" if value > 0 else f"must be more than 0, got {value!r}"


def _env_name(value: str) -> str:
    # the value is not shown: a key pasted here by mistake must not reach a terminal or a log
    if value == "" or _ENV_NAME.fullmatch(value):
        return ""
    return "must name an environment variable (letters, digits and _), not hold the key itself"


#: keys whose values have a form of their own: each check says what is wrong ("" when fine)
_CHECKS: dict[str, Callable[[Any], str]] = {
    "embeddings.model": embedder_spec_problem,
    "embeddings.api_key_env": _env_name,
    "embeddings.timeout_s": _more_than_zero,
}


#: keys older settings files hold (``init`` wrote them) that named what they did not do: each
#: is read as the key it became, unless that one is set too; ``None``: read by nothing, and
#: accepted only so that such a file still loads
_FORMER_KEYS: dict[str, str | None] = {
    # the gate's duplicate cosine is calibrated per embedder (memstrata.gate.calibration)
    "dedup.gate_cosine": None,
    # the gardener's duplicate test was always a share of words, never a cosine
    "dedup.garden_cosine": "garden_containment",
}


def _section_from_dict(
    section: Any, values: dict[str, Any], name: str, where: Callable[[str, str | None], str]
) -> Any:
    hints = get_type_hints(type(section))
    changes: dict[str, Any] = {}
    for key, value in values.items():
        origin = where(name, key)
        if f"{name}.{key}" in _FORMER_KEYS:
            became = _FORMER_KEYS[f"{name}.{key}"]
            if became is None or became in values:
                continue
            key = became
        if key not in hints:
            known = ", ".join(hints)
            raise ConfigError(f"{origin}: unknown key {name}.{key}; known keys: {known}")
        expected = hints[key]
        if not _has_type(value, expected):
            raise ConfigError(
                f"{origin}: {name}.{key} must be {expected.__name__}, "
                f"got {type(value).__name__} {value!r}"
            )
        if isinstance(value, float) and not math.isfinite(value):
            raise ConfigError(f"{origin}: {name}.{key} must be a number, got {value!r}")
        if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
            raise ConfigError(f"{origin}: {name}.{key} must not be negative, got {value!r}")
        if f"{name}.{key}" in _AT_LEAST_ONE and value < 1:
            raise ConfigError(f"{origin}: {name}.{key} must be at least 1, got {value!r}")
        most = _AT_MOST.get(f"{name}.{key}")
        if most is not None and value > most:
            raise ConfigError(f"{origin}: {name}.{key} must be at most {most:g}, got {value!r}")
        unit = next((unit for unit in _LONGEST_SPAN if key.endswith(unit)), None)
        if unit is not None and value > _LONGEST_SPAN[unit]:
            raise ConfigError(
                f"{origin}: {name}.{key} must be at most {_LONGEST_SPAN[unit]:,} (a hundred "
                f"years: as good as never), got {value!r}"
            )
        check = _CHECKS.get(f"{name}.{key}")
        problem = check(value) if check is not None else ""
        if problem:
            raise ConfigError(f"{origin}: {name}.{key} {problem}")
        changes[key] = float(value) if expected is float else value
    return replace(section, **changes)


def _has_type(value: Any, expected: type) -> bool:
    if expected is bool:
        return isinstance(value, bool)
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, expected)


def render_config(config: Config) -> str:
    """Render ``config`` as the TOML that ``memstrata init`` writes, every key spelled out."""
    lines = ["# memstrata workspace settings. Every key is optional; shown with its default.", ""]
    for section_field in fields(Config):
        section = getattr(config, section_field.name)
        lines.append(f"[{section_field.name}]")
        for item in fields(section):
            value = getattr(section, item.name)
            rendered = str(value).lower() if isinstance(value, bool) else repr(value)
            lines.append(f"{item.name} = {rendered}")
        lines.append("")
    return "\n".join(lines)
