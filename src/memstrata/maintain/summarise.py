"""Summarise: 2–6 sentences on what is new since the last run, and one health line, for the journal.

Pure: the gardener appends the two lines to the ``## Upkeep`` section of the day's journal
(``memory/YYYY-MM-DD.md``): there for whoever reads the day, found by search, never recalled into
a prompt (a health line is no knowledge for the model, and would crowd "what did we do today?").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memstrata.wiki.text import clip

WHAT_WAS_DONE = (
    ("merge", "merged {n} duplicate{s}"),
    ("decay", "lowered the importance of {n} cold topic{s}"),
    ("split", "split {n} bloated entr{ies}"),
    ("supersede", "marked {n} outdated fact{s} superseded"),
    ("link", "linked {n} orphan{s}"),
    ("archive", "archived {n} topic{s}"),
)


def summary_sentences(
    *,
    run_id: str,
    mode: str,
    since: str,
    first_run: bool,
    new_titles: Sequence[str],
    actions: Mapping[str, int],
    proposed: int,
    deferred: int,
    resume_point: str,
) -> list[str]:
    """What is new and what the run did, in two to six sentences."""
    if first_run:
        opening = (
            f"First garden run ({mode}, {run_id}) looked at the {len(new_titles)} most "
            "recently updated topics"
        )
    else:
        opening = (
            f"Garden run {run_id} ({mode}): {len(new_titles)} topic"
            f"{'s' if len(new_titles) != 1 else ''} new or changed since {since}"
        )
    if new_titles:
        opening += ", among them " + ", ".join(f"“{clip(t, 40)}”" for t in new_titles[:3])
    sentences = [opening + "."]
    done = [
        template.format(
            n=actions[key],
            s="" if actions[key] == 1 else "s",
            ies="y" if actions[key] == 1 else "ies",
        )
        for key, template in WHAT_WAS_DONE
        if actions.get(key)
    ]
    if done:
        sentences.append("The gardener " + _join(done) + ".")
    elif not proposed and not deferred:
        sentences.append("Nothing needed tending.")
    else:
        sentences.append("Nothing was changed.")
    if proposed:
        sentences.append(
            f"{proposed} destructive step{'s' if proposed != 1 else ''} wait"
            f"{'' if proposed != 1 else 's'} for a ruling in memory/proposals/."
        )
    if deferred:
        sentences.append(
            f"{deferred} uncertain case{'s were' if deferred != 1 else ' was'} "
            "left for a person (see the report)."
        )
    if resume_point != "clean":
        sentences.append(f"The budget ran out; the next run resumes at {resume_point}.")
    return sentences


def health_line(counts: Mapping[str, int], proposals_open: int) -> str:
    parts = [
        f"{counts.get(state, 0)} {state}"
        for state in ("active", "conflict", "superseded", "archived")
    ]
    return "Memory health: " + " · ".join(parts) + f" · {proposals_open} open proposals."


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
